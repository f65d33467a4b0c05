/**
 * Dictation phrasing for the speech engine's language model, loaded from phrases.json: how outpatient notes are
 * spoken. A pattern's {symptom}, {diagnosis}, {drug} or {investigation} slot is expanded by index.ts.
 */
import { Type } from 'typebox';
import FILE from './phrases.json' with { type: 'json' };
import { checkedData, Provenance } from './data-file.js';

export const PhrasesSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  patterns: Type.Array(Type.String({ minLength: 1, pattern: '^[^{}]*(?:\\{(?:symptom|diagnosis|drug|investigation)\\}[^{}]*)?$' })),
});

export const PHRASE_PATTERNS: readonly string[] = checkedData('phrases.json', PhrasesSchema, FILE).patterns;
