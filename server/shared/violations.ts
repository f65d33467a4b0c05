import { textPatternMessage } from './text.js';

/** A JSON Schema violation as Ajv (the HTTP routes) and TypeBox's compiler (the IPC handlers) both report it. */
export interface Violation {
  keyword: string;
  instancePath?: string;
  params?: Record<string, unknown>;
  message?: string;
}

// Patterns other than the text ones (text.ts), in words: a regular expression is not for people.
const PATTERNS: Record<string, string> = {
  '^[0-9]{10}$': 'must be exactly 10 digits',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': 'must be a date written YYYY-MM-DD',
};

const FORMATS: Record<string, string> = {
  date: 'must be a date written YYYY-MM-DD',
  'date-time': 'must be a date and time in ISO 8601 (2026-11-22T09:15:00Z)',
  email: 'must be an email address',
  uri: 'must be a web address (https://…)',
  uuid: 'must be an id as given by the service',
};

const TYPES: Record<string, string> = {
  string: 'must be text (a JSON string)',
  integer: 'must be a whole number',
  number: 'must be a number',
  boolean: 'must be true or false',
  object: 'must be a JSON object',
  array: 'must be a list (a JSON array)',
  null: 'must be null',
};

const plural = (n: unknown, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function predicate(v: Violation, all: readonly Violation[]): string {
  const p = v.params ?? {};
  switch (v.keyword) {
    case 'required': return 'is required';
    case 'maxLength': return `must be at most ${plural(p.limit, 'character')}`;
    case 'minLength': return p.limit === 1 ? 'must not be empty' : `must be at least ${plural(p.limit, 'character')}`;
    case 'maxItems': return `must have at most ${plural(p.limit, 'item')}`;
    case 'minItems': return `must have at least ${plural(p.limit, 'item')}`;
    case 'maximum': return `must be at most ${p.limit}`;
    case 'minimum': return `must be at least ${p.limit}`;
    case 'exclusiveMaximum': return `must be less than ${p.limit}`;
    case 'exclusiveMinimum': return `must be more than ${p.limit}`;
    case 'minProperties': return 'must include at least one field';
    case 'type': return TYPES[String(p.type)] ?? `must be of type ${p.type}`;
    case 'format': return FORMATS[String(p.format)] ?? `must be a valid ${p.format}`;
    case 'pattern':
      return textPatternMessage(p.pattern) ?? PATTERNS[String(p.pattern)] ?? 'is not in the accepted form (see the API reference at /docs)';
    case 'enum': return `must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const': {
      // A union of literals fails once per branch: name every allowed value.
      const values = all.filter((o) => o.keyword === 'const' && o.instancePath === v.instancePath).map((o) => o.params?.allowedValue);
      return values.length > 1 ? `must be one of ${values.join(', ')}` : `must be ${values[0]}`;
    }
    default: return v.message ?? 'is invalid';
  }
}

/**
 * The first violation in words that integrators and people can act on: `<where>.<field> <what is wrong>`, e.g.
 * `body.first_name must be at most 100 characters`. The field path stays first so the app can put the sentence next
 * to the field it names; no regular expression or schema keyword reaches the reader.
 */
export function violationMessage(where: string, list: readonly Violation[]): string {
  const v = list[0];
  if (!v) return `${where} is invalid`;
  const missing = v.keyword === 'required' ? v.params?.missingProperty : undefined;
  const path = `${where}${v.instancePath ?? ''}${missing ? `/${missing}` : ''}`.replaceAll('/', '.');
  return `${path} ${predicate(v, list)}`;
}
