import type { Migration } from '../migrate.js';

export const notes: Migration = {
  version: 11,
  name: 'notes',
  sql: `
-- The note of a scribe session (issue 15): the scribe's own output stays in scribe_sessions.output, unchanged (the
-- AI draft). notes holds the doctor's working draft (edits before signing) and which version is the latest;
-- note_versions the signed version (1) and each amendment (2, 3, …), never changed once written.
CREATE TABLE notes (
  session_id      TEXT PRIMARY KEY REFERENCES scribe_sessions(id),
  workspace_id    TEXT NOT NULL REFERENCES workspaces(id),
  patient_id      TEXT,                    -- as the session names it (scribe_sessions.patient_id at signing)
  appointment_id  TEXT REFERENCES appointments(id),
  draft           TEXT,                    -- JSON: the edited EMR JSON and the flag resolutions, before signing
  draft_by        TEXT,                    -- users.id of the last edit
  draft_at        TEXT,
  latest_version  INTEGER NOT NULL DEFAULT 0,  -- 0 while unsigned
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
);
CREATE INDEX notes_patient ON notes(workspace_id, patient_id);

CREATE TABLE note_versions (
  session_id  TEXT NOT NULL REFERENCES notes(session_id),
  version     INTEGER NOT NULL CHECK (version >= 1),
  kind        TEXT NOT NULL CHECK (kind IN ('signed', 'amendment')),
  emr         TEXT NOT NULL,               -- JSON: the service_emr_template JSON as signed, flags with their resolutions
  reason      TEXT,                        -- why it was amended; NULL for the signed version
  created_by  TEXT NOT NULL REFERENCES users(id),
  created_at  TEXT NOT NULL,
  PRIMARY KEY (session_id, version),
  CHECK ((kind = 'signed') = (version = 1)),
  CHECK ((kind = 'amendment') = (reason IS NOT NULL))
) WITHOUT ROWID;
CREATE TRIGGER note_versions_no_update BEFORE UPDATE ON note_versions
  BEGIN SELECT RAISE(ABORT, 'note versions are immutable: amend instead'); END;
CREATE TRIGGER note_versions_no_delete BEFORE DELETE ON note_versions
  BEGIN SELECT RAISE(ABORT, 'note versions are immutable: amend instead'); END;

-- What a prescription prints under the doctor's name, and the clinic's address at its top.
ALTER TABLE users ADD COLUMN qualification TEXT;
ALTER TABLE users ADD COLUMN registration_number TEXT;
ALTER TABLE workspaces ADD COLUMN address TEXT;
`,
};
