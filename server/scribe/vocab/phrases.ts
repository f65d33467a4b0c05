/**
 * Dictation phrasing for the speech engine's language model: how outpatient notes are spoken, with placeholders
 * filled from the vocabularies by index.ts. Written for this project; none is taken from the test fixtures.
 */
export const PHRASE_PATTERNS: readonly string[] = [
  'forty year old male complains of {symptom} since three days',
  'no {symptom}',
  'diagnosis {diagnosis}',
  'tab {drug} five hundred mg twice daily after food for five days',
  'advised {investigation}',
  'review after one week',
];
