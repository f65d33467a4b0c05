/**
 * Investigations ordered in Indian, US and UK outpatient clinics, as data: investigations.json (its header names the
 * source, the licence and the alias marks). Full name, the names and abbreviations doctors and recognisers use, and
 * the LOINC code only where one code clearly is that test (a wrong code is worse than none, so most tests, every
 * imaging study and every test whose specimen or method is not stated carry no code).
 */
import { Type } from 'typebox';
import FILE from './investigations.json' with { type: 'json' };
import { checkedData, Provenance } from './data-file.js';

export const InvestigationsSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  groups: Type.Array(
    Type.Object({
      group: Type.String({ minLength: 1 }),
      takesSite: Type.Optional(Type.Boolean()),
      generic: Type.Optional(Type.Boolean()),
      note: Type.Optional(Type.String()),
      tests: Type.Array(
        Type.Object({
          name: Type.String({ minLength: 2 }),
          aliases: Type.Array(Type.String({ minLength: 1, pattern: '^[=~]?[^=~>]+(?:>[^>]+)?$' })),
          loinc: Type.Optional(Type.String({ pattern: '^\\d{1,7}-\\d$' })),
          parts: Type.Optional(Type.Array(Type.String({ minLength: 2 }))),
        }),
      ),
    }),
  ),
});

export interface Investigation {
  name: string;
  /** Every other way the test is named, as plain text (the speech engine's word lists take these too). */
  aliases: string[];
  /** Aliases that are names in their own right: shown as said rather than as `name`. */
  namedAs: string[];
  /** Aliases that name the test only inside a list of tests or after a word such as "check". */
  inListOnly: string[];
  /** Aliases shown under a name of their own ("ua" → urinalysis, "ekg" → electrocardiogram (EKG)). */
  shownAs: Record<string, string>;
  /** A test named only by its kind ("blood tests"): dropped where a named test says what it is. */
  generic: boolean;
  loinc?: string;
  /** Imaging and other tests named together with the body part they look at. */
  takesSite: boolean;
  /** Names of the tests this one includes (a panel's components). */
  parts: string[];
}

/** "=lipid panel" → "lipid panel", "ua>urinalysis" → "ua": the words matched. */
const plain = (a: string): string => a.replace(/^[=~]/, '').replace(/>.*$/, '').trim();

function load(): Investigation[] {
  const data = checkedData('investigations.json', InvestigationsSchema, FILE);
  return data.groups.flatMap((g) =>
    g.tests.map((t) => ({
      name: t.name,
      aliases: t.aliases.map(plain),
      namedAs: t.aliases.filter((a) => a.startsWith('=')).map(plain),
      inListOnly: t.aliases.filter((a) => a.startsWith('~')).map(plain),
      shownAs: Object.fromEntries(t.aliases.filter((a) => a.includes('>')).map((a) => [plain(a), a.slice(a.indexOf('>') + 1).trim()])),
      generic: !!g.generic,
      ...(t.loinc ? { loinc: t.loinc } : {}),
      takesSite: !!g.takesSite,
      parts: t.parts ?? [],
    })),
  );
}

export const INVESTIGATIONS: readonly Investigation[] = load();
