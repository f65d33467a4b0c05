import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0005_scribe.ts. A file's size is BIGINT: SQLite's integers are 64-bit.
export const scribe: Migration = {
  version: 5,
  name: 'scribe',
  sql: `
CREATE TABLE scribe_sessions (
  id              TEXT PRIMARY KEY,
  workspace_id    TEXT NOT NULL REFERENCES workspaces(id),
  txn_id          TEXT NOT NULL,
  action          TEXT NOT NULL,
  folder_path     TEXT NOT NULL,
  extra_data      TEXT NOT NULL DEFAULT '{}',
  created_by_type TEXT NOT NULL CHECK (created_by_type IN ('user', 'client')),
  created_by      TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('uploading', 'queued', 'processing', 'completed', 'partial', 'failed')),
  request         TEXT,
  additional_data TEXT,
  started_by_type TEXT CHECK (started_by_type IN ('user', 'client')),
  started_by      TEXT,
  stage           TEXT NOT NULL DEFAULT 'uploading',
  percent         INTEGER NOT NULL DEFAULT 0,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  lease_until     TEXT,
  lease_owner     TEXT,
  checkpoint      TEXT,
  output          TEXT,
  errors          TEXT NOT NULL DEFAULT '[]',
  last_error      TEXT,
  created_at      TEXT NOT NULL,
  initialized_at  TEXT,
  started_at      TEXT,
  finished_at     TEXT,
  updated_at      TEXT NOT NULL,
  UNIQUE (workspace_id, txn_id)
);
CREATE INDEX scribe_sessions_due ON scribe_sessions(status, next_attempt_at) WHERE status IN ('queued', 'processing');

CREATE TABLE scribe_files (
  id           TEXT PRIMARY KEY,
  session_id   TEXT NOT NULL REFERENCES scribe_sessions(id),
  kind         TEXT NOT NULL CHECK (kind IN ('audio', 'sidecar')),
  name         TEXT NOT NULL,
  stored_name  TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size         BIGINT NOT NULL,
  sha256       TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  UNIQUE (session_id, name)
);

CREATE TABLE scribe_keys (
  name       TEXT PRIMARY KEY,
  sealed     TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`,
};
