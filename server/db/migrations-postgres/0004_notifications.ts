import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0004_notifications.ts.
export const notifications: Migration = {
  version: 4,
  name: 'notifications',
  sql: `
CREATE TABLE fcm_credentials (
  workspace_id                TEXT PRIMARY KEY REFERENCES workspaces(id),
  id                          TEXT NOT NULL UNIQUE,
  project_id                  TEXT NOT NULL,
  client_email                TEXT NOT NULL,
  client_id                   TEXT,
  private_key_id              TEXT,
  private_key_sealed          TEXT NOT NULL,
  token_uri                   TEXT NOT NULL,
  auth_uri                    TEXT,
  auth_provider_x509_cert_url TEXT,
  client_x509_cert_url        TEXT,
  universe_domain             TEXT,
  created_at                  TEXT NOT NULL,
  updated_at                  TEXT NOT NULL
);

CREATE TABLE push_devices (
  id           TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  owner_type   TEXT NOT NULL CHECK (owner_type IN ('user', 'client')),
  owner_id     TEXT NOT NULL,
  device_id    TEXT NOT NULL,
  fcm_token    TEXT NOT NULL,
  app_version  TEXT NOT NULL,
  platform     TEXT,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL,
  UNIQUE (workspace_id, owner_type, owner_id, device_id)
);
CREATE INDEX push_devices_token ON push_devices(workspace_id, fcm_token);

CREATE TABLE push_jobs (
  id              TEXT PRIMARY KEY,
  workspace_id    TEXT NOT NULL REFERENCES workspaces(id),
  device_row_id   TEXT NOT NULL,
  title           TEXT NOT NULL,
  body            TEXT NOT NULL,
  data            TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'cancelled')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until     TEXT,
  last_error      TEXT,
  fcm_message_id  TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  finished_at     TEXT
);
CREATE INDEX push_jobs_due ON push_jobs(next_attempt_at) WHERE status = 'pending';
CREATE INDEX push_jobs_device ON push_jobs(device_row_id) WHERE status = 'pending';
CREATE INDEX push_jobs_finished ON push_jobs(finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX push_jobs_workspace ON push_jobs(workspace_id, created_at);
`,
};
