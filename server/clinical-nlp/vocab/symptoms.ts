/**
 * Presenting complaints, loaded from symptoms.json (its `about` says what each list is for): the name a note uses
 * and the lay and clinical ways patients and doctors say it, with the lists the complaint extractor reads around them.
 */
import { Type } from 'typebox';
import FILE from './symptoms.json' with { type: 'json' };
import { checkedData, Provenance, Words } from './data-file.js';

export const SymptomsSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  symptoms: Type.Array(Type.Object({ name: Type.String({ minLength: 1 }), variants: Words }, { additionalProperties: false })),
  jointSensations: Words,
  sameComplaint: Type.Array(Type.Array(Type.String({ minLength: 1 }), { minItems: 2 })),
  triggers: Words,
  remedyNouns: Words,
  onsetEvents: Words,
});

const DATA = checkedData('symptoms.json', SymptomsSchema, FILE);

export interface Symptom {
  name: string;
  variants: string[];
}

export const SYMPTOMS: readonly Symptom[] = DATA.symptoms;

/** Sensations a note writes as one complaint when they are said together ("numbness and tingling"). */
export const JOINT_SENSATIONS: ReadonlySet<string> = new Set(DATA.jointSensations);

/** Names of one complaint: said twice in different words ("run down … very tired"), it is one complaint. */
export const SAME_COMPLAINT: readonly (readonly string[])[] = DATA.sameComplaint;

/** What brings a pain or pressure on, said after it with "with", "on", "during", "when" or "while". */
export const TRIGGERS: readonly string[] = DATA.triggers;

/** Words after a symptom that make it the name of a remedy ("cough syrup", "cold medicine", "allergy tablets"). */
export const REMEDY_NOUNS: ReadonlySet<string> = new Set(DATA.remedyNouns);

/** Complaints that are events other complaints start from ("he fell a week ago and has leg pain"): theirs is their time. */
export const ONSET_EVENTS: ReadonlySet<string> = new Set(DATA.onsetEvents);
