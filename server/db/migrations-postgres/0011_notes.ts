import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0011_notes.ts.
export const notes: Migration = {
  version: 11,
  name: 'notes',
  sql: `
CREATE TABLE notes (
  session_id      TEXT PRIMARY KEY REFERENCES scribe_sessions(id),
  workspace_id    TEXT NOT NULL REFERENCES workspaces(id),
  patient_id      TEXT,
  appointment_id  TEXT REFERENCES appointments(id),
  draft           TEXT,
  draft_by        TEXT,
  draft_at        TEXT,
  latest_version  INTEGER NOT NULL DEFAULT 0,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
);
CREATE INDEX notes_patient ON notes(workspace_id, patient_id);

CREATE TABLE note_versions (
  session_id  TEXT NOT NULL REFERENCES notes(session_id),
  version     INTEGER NOT NULL CHECK (version >= 1),
  kind        TEXT NOT NULL CHECK (kind IN ('signed', 'amendment')),
  emr         TEXT NOT NULL,
  reason      TEXT,
  created_by  TEXT NOT NULL REFERENCES users(id),
  created_at  TEXT NOT NULL,
  PRIMARY KEY (session_id, version),
  CHECK ((kind = 'signed') = (version = 1)),
  CHECK ((kind = 'amendment') = (reason IS NOT NULL))
);
CREATE TRIGGER note_versions_no_update BEFORE UPDATE ON note_versions
  FOR EACH ROW EXECUTE FUNCTION refuse_change('note versions are immutable: amend instead');
CREATE TRIGGER note_versions_no_delete BEFORE DELETE ON note_versions
  FOR EACH ROW EXECUTE FUNCTION refuse_change('note versions are immutable: amend instead');
CREATE TRIGGER note_versions_no_truncate BEFORE TRUNCATE ON note_versions
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('note versions are immutable: amend instead');

ALTER TABLE users ADD COLUMN qualification TEXT;
ALTER TABLE users ADD COLUMN registration_number TEXT;
ALTER TABLE workspaces ADD COLUMN address TEXT;
`,
};
