import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0010_queue.ts. PostgreSQL alters a CHECK in place, where SQLite rebuilds the table.
export const queue: Migration = {
  version: 10,
  name: 'queue',
  sql: `
ALTER TABLE appointments ADD COLUMN duration_min INTEGER NOT NULL DEFAULT 15;
ALTER TABLE appointments ADD COLUMN walk_in INTEGER NOT NULL DEFAULT 0;
ALTER TABLE appointments ADD COLUMN overbook INTEGER NOT NULL DEFAULT 0;
ALTER TABLE appointments ADD COLUMN token INTEGER;
CREATE UNIQUE INDEX appointments_token ON appointments(workspace_id, local_date, coalesce(doctor_id, ''), token)
  WHERE token IS NOT NULL;
CREATE INDEX appointments_doctor_day ON appointments(workspace_id, doctor_id, local_date);

ALTER TABLE appointment_status_changes ADD COLUMN correction INTEGER NOT NULL DEFAULT 0;
ALTER TABLE appointment_status_changes ADD COLUMN overbook INTEGER NOT NULL DEFAULT 0;
ALTER TABLE appointment_status_changes ADD COLUMN token INTEGER;

ALTER TABLE users DROP CONSTRAINT users_role_check,
  ADD CONSTRAINT users_role_check CHECK (role IN ('admin', 'doctor', 'reception', 'display'));
`,
};
