/**
 * The project's clinical vocabularies, as plain word lists for the speech engine's language model and for
 * the structurer's matching.
 */
import { FORMULARY } from './formulary.js';
import { ICD10 } from './icd10.js';
import { INVESTIGATIONS } from './investigations.js';
import { PHRASE_PATTERNS } from './phrases.js';
import { SYMPTOMS } from './symptoms.js';

const unique = (xs: Iterable<string>): string[] => [...new Set(xs)];

/** Generic names, US and British names, other spellings and brand names of the formulary's drugs. */
export function drugNames(): string[] {
  return unique(FORMULARY.flatMap((d) => [d.name, ...(d.us ? [d.us] : []), ...(d.uk ? [d.uk] : []), ...d.aliases, ...d.brands]));
}

/** Display texts, synonyms and lay names of the coded diagnoses. */
export function diagnosisNames(): string[] {
  return unique(ICD10.flatMap((e) => e.synonyms));
}

/** Full names and spoken abbreviations of the investigations. */
export function investigationNames(): string[] {
  return unique(INVESTIGATIONS.flatMap((i) => [i.name, ...i.aliases]));
}

/** Names of presenting complaints and the ways they are said. */
export function symptomNames(): string[] {
  return unique(SYMPTOMS.flatMap((s) => [s.name, ...s.variants]));
}

/**
 * Sentences as a doctor dictates them, for language-model training: each pattern once per name of the kind its
 * placeholder asks for, so every vocabulary word is seen in a realistic context.
 */
export function dictationPhrases(): string[] {
  const fillers: Record<string, () => string[]> = {
    symptom: symptomNames,
    diagnosis: diagnosisNames,
    drug: drugNames,
    investigation: investigationNames,
  };
  const out: string[] = [];
  for (const pattern of PHRASE_PATTERNS) {
    const slot = /\{(\w+)\}/.exec(pattern)?.[1];
    const names = slot ? fillers[slot]?.() : undefined;
    if (!slot || !names) out.push(pattern);
    else for (const name of names) out.push(pattern.replace(`{${slot}}`, name));
  }
  return unique(out);
}
