import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0013_patient_allergies.ts (json_kind: migration 1).
export const patientAllergies: Migration = {
  version: 13,
  name: 'patient_allergies',
  sql: `
ALTER TABLE patients ADD COLUMN allergies TEXT NOT NULL DEFAULT '[]' CHECK (json_kind(allergies) = 'array');
`,
};
