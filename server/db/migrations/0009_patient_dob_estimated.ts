import type { Migration } from '../migrate.js';

export const patientDobEstimated: Migration = {
  version: 9,
  name: 'patient_dob_estimated',
  sql: `
-- A patient registered by age ("45 years", "8 months") gets an estimated date of birth, marked here so the app can
-- say "45 y (estimated)" and the API can tell integrators. Existing rows keep their dates, all exact (0).
-- Nothing else changes: patients whose stored mobile breaks today's mobile rule are found at run time (the rule
-- needs libphonenumber, which SQL has not) and listed in Settings for correction; no row is deleted or rewritten.
ALTER TABLE patients ADD COLUMN dob_estimated INTEGER NOT NULL DEFAULT 0 CHECK (dob_estimated IN (0, 1));
`,
};
