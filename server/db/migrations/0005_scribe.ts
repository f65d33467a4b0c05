import type { Migration } from '../migrate.js';

export const scribe: Migration = {
  version: 5,
  name: 'scribe',
  sql: `
-- Scribe sessions (interface endpoint 7). A session is a row before it is work: presign creates it (uploading),
-- init queues it, the job runner claims it with a lease (processing), and it ends completed, partial (some
-- templates failed) or failed. txn_id is the client's transaction id, unique per workspace only: another
-- workspace may use the same id and never sees this one. id is ours and names the session's folder on disk.
CREATE TABLE scribe_sessions (
  id              TEXT PRIMARY KEY,
  workspace_id    TEXT NOT NULL REFERENCES workspaces(id),
  txn_id          TEXT NOT NULL,
  action          TEXT NOT NULL,
  folder_path     TEXT NOT NULL,                     -- "<b_id>/<txn_id>/<yyyymmdd_hhmmss>/", the upload keys' prefix
  extra_data      TEXT NOT NULL DEFAULT '{}',        -- JSON: presign body
  created_by_type TEXT NOT NULL CHECK (created_by_type IN ('user', 'client')),
  created_by      TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('uploading', 'queued', 'processing', 'completed', 'partial', 'failed')),
  request         TEXT,                              -- JSON: the normalised init request (languages, templates, mode, model)
  additional_data TEXT,                              -- JSON: init additional_data, echoed by status
  started_by_type TEXT CHECK (started_by_type IN ('user', 'client')),
  started_by      TEXT,                              -- who called init: the push goes to their devices
  stage           TEXT NOT NULL DEFAULT 'uploading',
  percent         INTEGER NOT NULL DEFAULT 0,
  attempts        INTEGER NOT NULL DEFAULT 0,        -- job runs started (counted when claimed)
  next_attempt_at TEXT,
  lease_until     TEXT,
  lease_owner     TEXT,                              -- the service instance (boot id) running it
  checkpoint      TEXT,                              -- JSON: the transcript once recognised, so a retry resumes after ASR
  output          TEXT,                              -- JSON: data.output[] as served (values Base64)
  errors          TEXT NOT NULL DEFAULT '[]',        -- JSON array of strings: why the session failed
  last_error      TEXT,                              -- the last failed run (crash, timeout), for support
  created_at      TEXT NOT NULL,
  initialized_at  TEXT,
  started_at      TEXT,
  finished_at     TEXT,
  updated_at      TEXT NOT NULL,
  UNIQUE (workspace_id, txn_id)
);
CREATE INDEX scribe_sessions_due ON scribe_sessions(status, next_attempt_at) WHERE status IN ('queued', 'processing');

-- The files of a session: audio and the optional <txn_id>.json sidecar. Kept on disk under
-- <data-dir>/scribe/<session id>/ with our own file name (stored_name); name is the upload key's basename.
-- Re-uploading the same key before init replaces the row and the file, as an object store would.
CREATE TABLE scribe_files (
  id           TEXT PRIMARY KEY,
  session_id   TEXT NOT NULL REFERENCES scribe_sessions(id),
  kind         TEXT NOT NULL CHECK (kind IN ('audio', 'sidecar')),
  name         TEXT NOT NULL,
  stored_name  TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size         INTEGER NOT NULL,
  sha256       TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  UNIQUE (session_id, name)
);

-- Keys of the service itself, sealed with the key-encryption key (the upload policy HMAC key).
CREATE TABLE scribe_keys (
  name       TEXT PRIMARY KEY,
  sealed     TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`,
};
