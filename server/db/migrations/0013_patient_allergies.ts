import type { Migration } from '../migrate.js';

export const patientAllergies: Migration = {
  version: 13,
  name: 'patient_allergies',
  sql: `
-- The allergies a patient's record holds (docs/API.md, Patient records), as a JSON array of strings as staff wrote
-- them: the scribe's safety net checks each prescription of a dictation for this patient against them. Existing
-- patients have none recorded ('[]'), which is not the same as "no known allergies" and is not shown as such.
ALTER TABLE patients ADD COLUMN allergies TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(allergies) AND json_type(allergies) = 'array');
`,
};
