import type { Migration } from '../migrate.js';

export const scribeHistory: Migration = {
  version: 7,
  name: 'scribe_history',
  sql: `
-- The patient a scribe session is about, as the client said (extra_data, init body, additional_data or sidecar:
-- server/scribe/history.ts patientIdOf), so a patient's past sessions are one index range rather than a scan of
-- every session's JSON. Not a foreign key: integrators send their own patient ids as well as ours.
ALTER TABLE scribe_sessions ADD COLUMN patient_id TEXT;

-- Sessions made before this column: the same fields the service reads now, as far as the JSON holds them.
UPDATE scribe_sessions SET patient_id = COALESCE(
  CASE WHEN json_type(additional_data, '$.patient_id') = 'text' AND length(trim(json_extract(additional_data, '$.patient_id'))) BETWEEN 1 AND 128
    THEN trim(json_extract(additional_data, '$.patient_id')) END,
  CASE WHEN json_type(extra_data, '$.patient_id') = 'text' AND length(trim(json_extract(extra_data, '$.patient_id'))) BETWEEN 1 AND 128
    THEN trim(json_extract(extra_data, '$.patient_id')) END);

-- GET /voice/api/v2/sessions: newest first per workspace, and per patient; (created_at, txn_id) is the cursor.
CREATE INDEX scribe_sessions_recent ON scribe_sessions(workspace_id, created_at, txn_id);
CREATE INDEX scribe_sessions_patient ON scribe_sessions(workspace_id, patient_id, created_at, txn_id) WHERE patient_id IS NOT NULL;
`,
};
