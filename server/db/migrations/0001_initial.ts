import type { Migration } from '../migrate.js';

// Ids are TEXT (UUIDs) so they can be handed to integrators as they are; timestamps are ISO 8601 UTC text,
// which sorts correctly and is what the interface returns.
export const initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE workspaces (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  country     TEXT NOT NULL DEFAULT 'IN',            -- ISO 3166 region: default country of 10-digit mobiles
  timezone    TEXT NOT NULL DEFAULT 'Asia/Kolkata',  -- IANA zone: what "today" means at this clinic
  created_at  TEXT NOT NULL,
  disabled_at TEXT
);

CREATE TABLE users (
  id            TEXT PRIMARY KEY,
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id),
  username      TEXT NOT NULL COLLATE NOCASE UNIQUE,
  display_name  TEXT NOT NULL,
  role          TEXT NOT NULL CHECK (role IN ('admin', 'doctor', 'reception')),
  password_hash TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  disabled_at   TEXT
);
CREATE INDEX users_workspace ON users(workspace_id);

-- Long-lived tokens for the dr "auth" header. Only a SHA-256 digest is kept: the token is 256 random bits,
-- so a slow hash adds nothing, and the digest lets a request find its token with one index lookup.
CREATE TABLE auth_tokens (
  id           TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  user_id      TEXT NOT NULL REFERENCES users(id),
  token_digest TEXT NOT NULL UNIQUE,
  label        TEXT NOT NULL,
  scopes       TEXT,                                  -- JSON array narrowing the role, or NULL for the role's
  created_at   TEXT NOT NULL,
  revoked_at   TEXT
);
CREATE INDEX auth_tokens_user ON auth_tokens(user_id);

-- X-API-KEY: names the workspace an API client's token request is for.
CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  key_digest   TEXT NOT NULL UNIQUE,
  label        TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  revoked_at   TEXT
);

CREATE TABLE api_clients (
  id           TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  client_id    TEXT NOT NULL UNIQUE,
  secret_hash  TEXT NOT NULL,                         -- scrypt
  name         TEXT NOT NULL,
  scopes       TEXT NOT NULL,                         -- JSON array
  created_at   TEXT NOT NULL,
  revoked_at   TEXT
);

CREATE TABLE patients (
  id              TEXT PRIMARY KEY,
  workspace_id    TEXT NOT NULL REFERENCES workspaces(id),
  first_name      TEXT NOT NULL,
  middle_name     TEXT NOT NULL DEFAULT '',
  last_name       TEXT NOT NULL,
  dob             TEXT NOT NULL,                      -- YYYY-MM-DD
  gender          TEXT NOT NULL CHECK (gender IN ('M', 'F', 'O')),
  mobile_cc       TEXT NOT NULL,                      -- country calling code digits, e.g. 91
  mobile_national TEXT NOT NULL,                      -- national significant number digits
  email           TEXT,
  -- First and last name case-folded by the service (SQLite's NOCASE folds ASCII only: "Élodie" ≠ "élodie").
  name_key        TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
);
-- One index serves both search by mobile (its prefix) and the duplicate rule: the same person is the same
-- mobile, names and date of birth in one workspace. Families share a mobile and differ in the rest.
CREATE UNIQUE INDEX patients_identity ON patients(workspace_id, mobile_national, mobile_cc, name_key, dob);

CREATE TABLE appointments (
  id                     TEXT PRIMARY KEY,
  workspace_id           TEXT NOT NULL REFERENCES workspaces(id),
  patient_id             TEXT NOT NULL REFERENCES patients(id),
  partner_appointment_id TEXT,
  doctor_id              TEXT REFERENCES users(id),
  scheduled_at           TEXT NOT NULL,               -- UTC instant
  local_date             TEXT NOT NULL,               -- the clinic's calendar day of scheduled_at
  reason                 TEXT NOT NULL DEFAULT '',
  status                 TEXT NOT NULL CHECK (status IN ('BK', 'CK', 'OG', 'PK', 'CM', 'CN', 'NS')),
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL
);
CREATE UNIQUE INDEX appointments_partner ON appointments(workspace_id, partner_appointment_id)
  WHERE partner_appointment_id IS NOT NULL;
CREATE INDEX appointments_day ON appointments(workspace_id, local_date, scheduled_at);
CREATE INDEX appointments_patient ON appointments(patient_id);

CREATE TABLE appointment_status_changes (
  id             INTEGER PRIMARY KEY,
  appointment_id TEXT NOT NULL REFERENCES appointments(id),
  workspace_id   TEXT NOT NULL REFERENCES workspaces(id),
  from_status    TEXT,                                 -- NULL when the appointment was booked
  to_status      TEXT NOT NULL,
  actor_type     TEXT NOT NULL,
  actor_id       TEXT NOT NULL,
  request_id     TEXT,
  changed_at     TEXT NOT NULL
);
CREATE INDEX appointment_status_changes_appointment ON appointment_status_changes(appointment_id, id);

-- Who read or changed what, when, from where, with what outcome. Never clinical text.
CREATE TABLE audit_log (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  at            TEXT NOT NULL,
  workspace_id  TEXT,
  actor_type    TEXT NOT NULL,                         -- user | client | system | anonymous
  actor_id      TEXT,
  action        TEXT NOT NULL,                         -- e.g. patient.search, appointment.park
  resource_type TEXT,
  resource_ids  TEXT,                                  -- JSON array of ids touched
  outcome       TEXT NOT NULL,                         -- success | denied | not_found | invalid | error
  ip            TEXT,
  request_id    TEXT
);
CREATE INDEX audit_log_workspace_at ON audit_log(workspace_id, at);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
`,
};
