import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0007_scribe_history.ts. SQLite's version also fills patient_id for sessions made
// before it; every PostgreSQL database is created at the newest version, so there are none to fill.
export const scribeHistory: Migration = {
  version: 7,
  name: 'scribe_history',
  sql: `
ALTER TABLE scribe_sessions ADD COLUMN patient_id TEXT;
CREATE INDEX scribe_sessions_recent ON scribe_sessions(workspace_id, created_at, txn_id);
CREATE INDEX scribe_sessions_patient ON scribe_sessions(workspace_id, patient_id, created_at, txn_id) WHERE patient_id IS NOT NULL;
`,
};
