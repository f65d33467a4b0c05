import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0009_patient_dob_estimated.ts.
export const patientDobEstimated: Migration = {
  version: 9,
  name: 'patient_dob_estimated',
  sql: `
ALTER TABLE patients ADD COLUMN dob_estimated INTEGER NOT NULL DEFAULT 0 CHECK (dob_estimated IN (0, 1));
`,
};
