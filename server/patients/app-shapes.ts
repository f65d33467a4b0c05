import type { Static } from 'typebox';
import type { MobileReviewSchema, PatientSchema } from './operations.js';
import type { PatientEntry } from './schemas.js';

/**
 * The patient as the app shows it: the interface's entry (service.ts toEntry, the one build of the shape from a row)
 * flattened, with `id`. IPC, the browser's HTTP transport and the MCP tools all flatten through fromEntry. Types and
 * mappers only (the schemas are in operations.ts): the renderer bundles this.
 */
export type Patient = Static<typeof PatientSchema>;
export type MobileReview = Static<typeof MobileReviewSchema>;

export function fromEntry(e: PatientEntry): Patient {
  const { patient_id, ...p } = e.patient_profile;
  return { ...p, id: e.patient_id ?? patient_id ?? '', name: e.name };
}
