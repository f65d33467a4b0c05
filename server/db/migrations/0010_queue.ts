import type { Migration } from '../migrate.js';

export const queue: Migration = {
  version: 10,
  name: 'queue',
  sql: `
-- A booking holds its doctor's time for duration_min minutes (existing rows: the 15-minute slot the front desk
-- books in). walk_in: booked as arriving now; overbook: booked over a taken slot, confirmed by the person booking.
ALTER TABLE appointments ADD COLUMN duration_min INTEGER NOT NULL DEFAULT 15;
ALTER TABLE appointments ADD COLUMN walk_in INTEGER NOT NULL DEFAULT 0;
ALTER TABLE appointments ADD COLUMN overbook INTEGER NOT NULL DEFAULT 0;
-- The waiting-room token, given at the first check-in: 1, 2, 3 … per doctor (or per clinic without one) per day.
ALTER TABLE appointments ADD COLUMN token INTEGER;
CREATE UNIQUE INDEX appointments_token ON appointments(workspace_id, local_date, ifnull(doctor_id, ''), token)
  WHERE token IS NOT NULL;
CREATE INDEX appointments_doctor_day ON appointments(workspace_id, doctor_id, local_date);

-- correction: the entry undoes the change before it (from_status is what was undone, to_status what is restored).
-- overbook: the booking was confirmed over a taken slot. token: the token this change gave (first check-in).
ALTER TABLE appointment_status_changes ADD COLUMN correction INTEGER NOT NULL DEFAULT 0;
ALTER TABLE appointment_status_changes ADD COLUMN overbook INTEGER NOT NULL DEFAULT 0;
ALTER TABLE appointment_status_changes ADD COLUMN token INTEGER;

-- The display role (a waiting-room screen that may read the queue board and nothing else). SQLite cannot alter a
-- CHECK, so the table is rebuilt; other tables' references to users(id) are checked at commit.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE users_before_display AS SELECT * FROM users;
DROP TABLE users;
CREATE TABLE users (
  id            TEXT PRIMARY KEY,
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id),
  username      TEXT NOT NULL COLLATE NOCASE UNIQUE,
  display_name  TEXT NOT NULL,
  role          TEXT NOT NULL CHECK (role IN ('admin', 'doctor', 'reception', 'display')),
  password_hash TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  disabled_at   TEXT
);
CREATE INDEX users_workspace ON users(workspace_id);
INSERT INTO users (id, workspace_id, username, display_name, role, password_hash, created_at, disabled_at)
  SELECT id, workspace_id, username, display_name, role, password_hash, created_at, disabled_at FROM temp.users_before_display;
DROP TABLE temp.users_before_display;
`,
};
