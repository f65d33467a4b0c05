/**
 * ICD-10 codes for common outpatient diagnoses, loaded from icd10.json (WHO ICD-10 codes and titles, with the
 * names clinicians and patients say for each). Codes are WHO ICD-10 (what Indian and UK clinics use); where WHO and
 * the US ICD-10-CM differ the WHO code is kept (A09.9, J45.9, E14.9).
 */
import { Type } from 'typebox';
import ICD10_FILE from './icd10.json' with { type: 'json' };
import { checkedData, Provenance } from './data-file.js';

export const Icd10Schema = Type.Object({
  ...Provenance,
  about: Type.String(),
  puerperium: Type.Array(Type.Object({ from: Type.String({ pattern: '^[A-Z][0-9]{2}(?:\\.[0-9])?$' }), to: Type.String({ pattern: '^[A-Z][0-9]{2}(?:\\.[0-9])?$' }) })),
  restatements: Type.Array(Type.Array(Type.String({ pattern: '^[A-Z][0-9]{2}(?:\\.[0-9])?$' }), { minItems: 2 })),
  chronic: Type.Array(Type.String({ pattern: '^[A-Z](?:[0-9]{2}(?:\\.[0-9])?)?$' })),
  neverSnap: Type.Array(Type.String({ minLength: 1 })),
  entries: Type.Array(
    Type.Object({
      code: Type.String({ pattern: '^[A-Z][0-9]{2}(?:\\.[0-9])?$' }),
      display: Type.String({ minLength: 1 }),
      synonyms: Type.Array(Type.String({ minLength: 1 })),
    }),
  ),
});

const FILE = checkedData('icd10.json', Icd10Schema, ICD10_FILE);

export interface IcdEntry {
  code: string;
  display: string;
  synonyms: string[];
}

export const ICD10: readonly IcdEntry[] = FILE.entries;

/** True for a long-term condition's code (hypertension, diabetes, asthma …): the plan may take it up at any visit. */
export function isChronic(code: string): boolean {
  return FILE.chronic.some((prefix) => code.startsWith(prefix));
}

/** The chapter XV code of a condition in the puerperium (haemorrhoids K64 → O87.2), if it has one. */
export function puerperalCode(code: string): string | undefined {
  return FILE.puerperium.find((p) => code.startsWith(p.from))?.to;
}

/**
 * How specific a code is within a group of codes that name one condition ("bladder infection" N39.0, "acute cystitis"
 * N30.0): the group and the rank, or undefined when the code is in no group.
 */
export function restatementRank(code: string): { group: number; rank: number } | undefined {
  for (let group = 0; group < FILE.restatements.length; group++) {
    const rank = FILE.restatements[group]!.findIndex((prefix) => code.startsWith(prefix));
    if (rank >= 0) return { group, rank };
  }
  return undefined;
}

/** Everyday words a misheard word is never snapped from ("called" is not "cold"). */
export const NEVER_SNAP: ReadonlySet<string> = new Set(FILE.neverSnap);
