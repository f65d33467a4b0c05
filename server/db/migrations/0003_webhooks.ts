import type { Migration } from '../migrate.js';

export const webhooks: Migration = {
  version: 3,
  name: 'webhooks',
  sql: `
-- Webhook subscriptions (interface endpoint 5). The signing key is sealed with the key-encryption key
-- (shared/secret-box.ts, context bound to the subscription id) and never returned. A deleted subscription keeps
-- its row (deleted_at) so its delivery history stays readable in the database; only live ones count as duplicates.
CREATE TABLE webhook_subscriptions (
  id                 TEXT PRIMARY KEY,
  workspace_id       TEXT NOT NULL REFERENCES workspaces(id),
  client_id          TEXT NOT NULL,                  -- who created it: an API client's client_id or a user id
  event_names        TEXT NOT NULL,                  -- JSON array of known event names
  endpoint           TEXT NOT NULL,                  -- normalised URL
  protocol           TEXT NOT NULL CHECK (protocol IN ('https', 'http')),
  signing_key_sealed TEXT,                           -- NULL: deliveries are unsigned
  status             TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  disabled_reason    TEXT,
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL,
  deleted_at         TEXT
);
CREATE UNIQUE INDEX webhook_subscriptions_endpoint ON webhook_subscriptions(workspace_id, endpoint) WHERE deleted_at IS NULL;

-- The outbox. An event is written in the transaction of the change that raised it, together with one delivery
-- per matching live subscription, so a committed change always has its deliveries and a rolled-back one never
-- does. payload is the exact body sent (compact JSON, non-ASCII escaped): every retry sends the same bytes.
-- id is the Webhook-Id.
CREATE TABLE webhook_events (
  id           TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  type         TEXT NOT NULL,
  payload      TEXT NOT NULL,
  created_at   TEXT NOT NULL
);

-- One row per (event, subscription). retry_step indexes the retry schedule of the current run (a manual
-- redelivery starts a new run); attempts counts every attempt ever made.
CREATE TABLE webhook_deliveries (
  id              TEXT PRIMARY KEY,
  event_id        TEXT NOT NULL REFERENCES webhook_events(id),
  subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions(id),
  workspace_id    TEXT NOT NULL REFERENCES workspaces(id),
  status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'disabled', 'cancelled')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  retry_step      INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,                              -- set while pending
  last_status     INTEGER,                           -- HTTP status of the last attempt, NULL when none came back
  last_error      TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  delivered_at    TEXT,
  UNIQUE (event_id, subscription_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(subscription_id, next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_next ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries(subscription_id, created_at);

-- Every attempt, successful or not.
CREATE TABLE webhook_attempts (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id),
  at          TEXT NOT NULL,
  status      INTEGER,                               -- HTTP status, NULL on timeout or connection failure
  latency_ms  INTEGER NOT NULL,
  error       TEXT
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id);
`,
};
