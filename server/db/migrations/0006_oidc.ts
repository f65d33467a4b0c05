import type { Migration } from '../migrate.js';

export const oidc: Migration = {
  version: 6,
  name: 'oidc',
  sql: `
-- Everything the OpenID provider (server/oidc, oidc-provider) persists through its adapter: clients registered
-- dynamically, grants (a user's consent to one assistant), browser sessions, interactions, authorization codes,
-- refresh tokens. One row per (model, id); payload is the library's JSON.
-- Rows whose id is a credential (tokens, codes, session and interaction cookies) are keyed by the SHA-256 digest
-- of the id, and the id itself is kept only sealed inside the payload (shared/secret-box.ts), as every other
-- bearer secret here. Clients and grants are keyed by their plain id: neither id is a credential, and the
-- desktop settings list and revoke grants by id.
CREATE TABLE oidc_models (
  model       TEXT NOT NULL,            -- Client, Grant, Session, Interaction, AuthorizationCode, RefreshToken, ...
  key         TEXT NOT NULL,            -- the id, or its SHA-256 digest (hex) for credential models
  payload     TEXT NOT NULL,            -- JSON
  grant_id    TEXT,                     -- tokens and codes: the grant they belong to (revocation by grant)
  uid         TEXT,                     -- Session: its uid (interactions find the session by it)
  user_code   TEXT,                     -- DeviceCode (unused: the device flow is off)
  account_id  TEXT,                     -- Grant, Session: users.id of the signed-in user
  client_id   TEXT,                     -- Grant and tokens: the client
  created_at  INTEGER NOT NULL,         -- unix seconds
  expires_at  INTEGER,                  -- unix seconds; NULL never expires (dynamic clients)
  consumed_at INTEGER,                  -- codes and rotated refresh tokens: when used
  PRIMARY KEY (model, key)
) WITHOUT ROWID;
CREATE INDEX oidc_models_grant ON oidc_models(grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_models_uid ON oidc_models(uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_models_account ON oidc_models(model, account_id) WHERE account_id IS NOT NULL;
CREATE INDEX oidc_models_expiry ON oidc_models(expires_at) WHERE expires_at IS NOT NULL;

-- The provider's own keys: JWKS signing keys (ES256, for ID tokens and JWT access tokens) and the keys that sign
-- its cookies. The secret material is sealed with the key-encryption key, bound to kind and kid.
CREATE TABLE oidc_keys (
  kid        TEXT PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('jwk', 'cookie')),
  sealed     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  retired_at TEXT
);

-- Access tokens revoked before they expire (RFC 7009 on a JWT access token): its jti until its exp.
CREATE TABLE oidc_revoked_tokens (
  jti        TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL           -- unix seconds: the token's own exp, after which the row can go
);
`,
};
