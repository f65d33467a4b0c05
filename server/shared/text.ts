import { Type } from 'typebox';

/**
 * String schemas for text that people read: names, labels, reasons, notes. Besides their length they refuse
 * NUL and the other C0/C1 control characters (a name that ends a C string early, or rings a printer's bell)
 * and the bidirectional override and isolate characters U+202A–U+202E and U+2066–U+2069, which make a name
 * display as something else ("Trojan Source"). Single-line text refuses tab and line breaks too; multi-line
 * text allows tab, LF and CR. Expressed as a JSON Schema `pattern`, so the HTTP routes (Ajv), the Electron IPC
 * handlers (TypeBox's compiler) and the OpenAPI document all apply and show the same rule, with no route
 * code of its own.
 */

const BIDI = '\\u202A-\\u202E\\u2066-\\u2069';
const LINE_FORBIDDEN = `\\u0000-\\u001F\\u007F-\\u009F${BIDI}`;
// Invisible formatting characters a name has no use for, which make two names that look the same differ (a
// duplicate patient search cannot find, a look-alike user): soft hyphen, Arabic letter mark, Mongolian vowel
// separator, zero-width space, left-to-right and right-to-left marks, word joiner and the invisible operators, the
// deprecated format characters, the byte order mark (zero-width no-break space) and the interlinear annotation
// marks. Zero-width non-joiner and joiner (U+200C, U+200D) stay: Indic scripts spell names with them.
const INVISIBLE = '\\u00AD\\u061C\\u180E\\u200B\\u200E\\u200F\\u2060-\\u2064\\u206A-\\u206F\\uFEFF\\uFFF9-\\uFFFB';
const TEXT_FORBIDDEN = `\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F${BIDI}`;
// Not blank: something besides white space (a lookahead, so the check stays linear in the length).
const NOT_BLANK = '(?!\\s*$)';

const PATTERNS = {
  line: `^[^${LINE_FORBIDDEN}]*$`,
  lineNotBlank: `^${NOT_BLANK}[^${LINE_FORBIDDEN}]*$`,
  text: `^[^${TEXT_FORBIDDEN}]*$`,
  textNotBlank: `^${NOT_BLANK}[^${TEXT_FORBIDDEN}]*$`,
  name: `^[^${LINE_FORBIDDEN}${INVISIBLE}]*$`,
  nameNotBlank: `^${NOT_BLANK}[^${LINE_FORBIDDEN}${INVISIBLE}]*$`,
} as const;

type StringOptions = NonNullable<Parameters<typeof Type.String>[0]>;
interface TextOptions extends Omit<StringOptions, 'pattern'> {
  /** Refuse a value of only white space (default false). */
  notBlank?: boolean;
}

/** One line of text people read (a name, a label): no control characters at all, no bidi overrides. */
export const Line = ({ notBlank, ...opts }: TextOptions = {}) =>
  Type.String({ ...opts, pattern: notBlank ? PATTERNS.lineNotBlank : PATTERNS.line });

/** A name (of a person, a clinic, a client): one line, as Line, and no invisible formatting characters either. */
export const Name = ({ notBlank, ...opts }: TextOptions = {}) =>
  Type.String({ ...opts, pattern: notBlank ? PATTERNS.nameNotBlank : PATTERNS.name });

/** Free text that may span lines (a reason, a note): tab, LF and CR allowed; other controls and bidi overrides not. */
export const Text = ({ notBlank, ...opts }: TextOptions = {}) =>
  Type.String({ ...opts, pattern: notBlank ? PATTERNS.textNotBlank : PATTERNS.text });

const MESSAGES: Record<string, string> = {
  [PATTERNS.line]: 'must be one line without control characters (such as NUL, tab or a line break) or bidirectional override characters (U+202A–U+202E, U+2066–U+2069)',
  [PATTERNS.lineNotBlank]: 'must not be blank, and must be one line without control characters (such as NUL, tab or a line break) or bidirectional override characters (U+202A–U+202E, U+2066–U+2069)',
  [PATTERNS.text]: 'must not contain control characters other than tab and line breaks (such as NUL) or bidirectional override characters (U+202A–U+202E, U+2066–U+2069)',
  [PATTERNS.name]: 'must be one line without control characters (such as NUL, tab or a line break), bidirectional override characters (U+202A–U+202E, U+2066–U+2069) or invisible formatting characters (such as U+200B zero-width space or U+FEFF)',
  [PATTERNS.nameNotBlank]: 'must not be blank, and must be one line without control characters (such as NUL, tab or a line break), bidirectional override characters (U+202A–U+202E, U+2066–U+2069) or invisible formatting characters (such as U+200B zero-width space or U+FEFF)',
  [PATTERNS.textNotBlank]: 'must not be blank, and must not contain control characters other than tab and line breaks (such as NUL) or bidirectional override characters (U+202A–U+202E, U+2066–U+2069)',
};

/** What a failed text pattern means, in words (the pattern itself is unreadable); undefined for other patterns. */
export const textPatternMessage = (pattern: unknown): string | undefined =>
  typeof pattern === 'string' ? MESSAGES[pattern] : undefined;
