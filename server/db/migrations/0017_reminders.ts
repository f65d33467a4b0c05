import type { Migration } from '../migrate.js';

export const reminders: Migration = {
  version: 17,
  name: 'reminders',
  sql: `
-- A clinic's messaging provider and reminder schedule (issue 29): one row per workspace; nothing is sent without
-- one. config is JSON of the provider's public fields and the schedule; secrets_sealed the provider's token and
-- signing secrets, sealed with the key-encryption key (shared/secret-box.ts) and never returned.
CREATE TABLE reminder_settings (
  workspace_id   TEXT PRIMARY KEY REFERENCES workspaces(id),
  provider       TEXT NOT NULL CHECK (provider IN ('whatsapp', 'twilio')),
  enabled        INTEGER NOT NULL,
  config         TEXT NOT NULL,
  secrets_sealed TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);

-- One durable job per (appointment, schedule point), written in the transaction that books the appointment and
-- cancelled in the one that cancels, parks or marks it no-show. status 'sending' is held while the provider is
-- asked (lease_until); a job found 'sending' after a crash is in doubt and sent once more at most (in_doubt).
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
  body                TEXT,                          -- the text sent (WhatsApp: the template's parameters, as the SMS would read)
  last_error          TEXT,
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL,
  finished_at         TEXT,
  UNIQUE (appointment_id, point)
);
CREATE INDEX reminder_jobs_due ON reminder_jobs(next_attempt_at) WHERE status IN ('pending', 'sending');
CREATE INDEX reminder_jobs_message ON reminder_jobs(provider_message_id) WHERE provider_message_id IS NOT NULL;
CREATE INDEX reminder_jobs_workspace ON reminder_jobs(workspace_id, to_number, updated_at);

-- The patient's answer to a reminder, the latest per appointment: confirmed, cancelled or reschedule (asked to move).
CREATE TABLE reminder_replies (
  appointment_id TEXT PRIMARY KEY REFERENCES appointments(id),
  workspace_id   TEXT NOT NULL REFERENCES workspaces(id),
  reply          TEXT NOT NULL CHECK (reply IN ('confirmed', 'cancelled', 'reschedule')),
  from_number    TEXT NOT NULL,
  received_at    TEXT NOT NULL
);

-- Numbers that sent STOP to a clinic: never messaged by it again (START lifts it).
CREATE TABLE reminder_opt_outs (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  number       TEXT NOT NULL,                      -- E.164, +<cc><national>
  created_at   TEXT NOT NULL,
  PRIMARY KEY (workspace_id, number)
);
`,
};
