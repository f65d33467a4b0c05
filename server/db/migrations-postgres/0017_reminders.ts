import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0017_reminders.ts.
export const reminders: Migration = {
  version: 17,
  name: 'reminders',
  sql: `
CREATE TABLE reminder_settings (
  workspace_id   TEXT PRIMARY KEY REFERENCES workspaces(id),
  provider       TEXT NOT NULL CHECK (provider IN ('whatsapp', 'twilio')),
  enabled        INTEGER NOT NULL,
  config         TEXT NOT NULL,
  secrets_sealed TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);

CREATE TABLE reminder_jobs (
  id                  TEXT PRIMARY KEY,
  workspace_id        TEXT NOT NULL REFERENCES workspaces(id),
  appointment_id      TEXT NOT NULL REFERENCES appointments(id),
  point               TEXT NOT NULL,                -- booking | evening | before:<minutes>
  due_at              TEXT NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'delivered', 'read', 'failed', 'cancelled', 'skipped')),
  attempts            INTEGER NOT NULL DEFAULT 0,
  in_doubt            INTEGER NOT NULL DEFAULT 0,
  next_attempt_at     TEXT NOT NULL,
  lease_until         TEXT,
  provider            TEXT,
  to_number           TEXT,
  provider_message_id TEXT,
  body                TEXT,
  last_error          TEXT,
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL,
  finished_at         TEXT,
  UNIQUE (appointment_id, point)
);
CREATE INDEX reminder_jobs_due ON reminder_jobs(next_attempt_at) WHERE status IN ('pending', 'sending');
CREATE INDEX reminder_jobs_message ON reminder_jobs(provider_message_id) WHERE provider_message_id IS NOT NULL;
CREATE INDEX reminder_jobs_workspace ON reminder_jobs(workspace_id, to_number, updated_at);

CREATE TABLE reminder_replies (
  appointment_id TEXT PRIMARY KEY REFERENCES appointments(id),
  workspace_id   TEXT NOT NULL REFERENCES workspaces(id),
  reply          TEXT NOT NULL CHECK (reply IN ('confirmed', 'cancelled', 'reschedule')),
  from_number    TEXT NOT NULL,
  received_at    TEXT NOT NULL
);

CREATE TABLE reminder_opt_outs (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  number       TEXT NOT NULL,                      -- E.164, +<cc><national>
  created_at   TEXT NOT NULL,
  PRIMARY KEY (workspace_id, number)
);
`,
};
