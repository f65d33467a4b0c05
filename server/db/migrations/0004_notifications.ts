import type { Migration } from '../migrate.js';

export const notifications: Migration = {
  version: 4,
  name: 'notifications',
  sql: `
-- FCM service-account credentials: one set per workspace, a new POST replaces it. The private key is sealed with
-- the key-encryption key (shared/secret-box.ts); every other column is metadata that GET returns. id is new on
-- every replacement, so caches keyed by it (access tokens, parsed keys) never outlive the credentials.
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

-- Devices that receive pushes, each owned by a user or an API client of the workspace. device_id is the
-- caller's "did"; fcm_token the registration token FCM addresses.
CREATE TABLE push_devices (
  id           TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  owner_type   TEXT NOT NULL CHECK (owner_type IN ('user', 'client')),
  owner_id     TEXT NOT NULL,                        -- users.id or api_clients.client_id
  device_id    TEXT NOT NULL,
  fcm_token    TEXT NOT NULL,
  app_version  TEXT NOT NULL,
  platform     TEXT,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL,
  UNIQUE (workspace_id, owner_type, owner_id, device_id)
);
CREATE INDEX push_devices_token ON push_devices(workspace_id, fcm_token);

-- The durable push queue: one row per (message, device). Requests only insert here; the sender loop claims due
-- rows with a lease (a crash mid-send leaves the lease to expire, then the row is sent again) and records the
-- outcome. device_row_id is not a foreign key: a device may be removed while its push waits (then: cancelled).
CREATE TABLE push_jobs (
  id              TEXT PRIMARY KEY,
  workspace_id    TEXT NOT NULL REFERENCES workspaces(id),
  device_row_id   TEXT NOT NULL,
  title           TEXT NOT NULL,
  body            TEXT NOT NULL,
  data            TEXT NOT NULL,                     -- JSON object of strings
  status          TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'cancelled')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until     TEXT,
  last_error      TEXT,
  fcm_message_id  TEXT,                              -- the message name FCM answered with
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
