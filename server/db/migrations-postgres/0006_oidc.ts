import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0006_oidc.ts. Unix seconds are BIGINT (INTEGER would end in 2038); PostgreSQL
// tables have no rowid to drop, so WITHOUT ROWID has no counterpart.
export const oidc: Migration = {
  version: 6,
  name: 'oidc',
  sql: `
CREATE TABLE oidc_models (
  model       TEXT NOT NULL,
  key         TEXT NOT NULL,
  payload     TEXT NOT NULL,
  grant_id    TEXT,
  uid         TEXT,
  user_code   TEXT,
  account_id  TEXT,
  client_id   TEXT,
  created_at  BIGINT NOT NULL,
  expires_at  BIGINT,
  consumed_at BIGINT,
  PRIMARY KEY (model, key)
);
CREATE INDEX oidc_models_grant ON oidc_models(grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_models_uid ON oidc_models(uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_models_account ON oidc_models(model, account_id) WHERE account_id IS NOT NULL;
CREATE INDEX oidc_models_expiry ON oidc_models(expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE oidc_keys (
  kid        TEXT PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('jwk', 'cookie')),
  sealed     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  retired_at TEXT
);

CREATE TABLE oidc_revoked_tokens (
  jti        TEXT PRIMARY KEY,
  expires_at BIGINT NOT NULL
);
`,
};
