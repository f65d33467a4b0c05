import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0002_tokens.ts.
export const tokens: Migration = {
  version: 2,
  name: 'tokens',
  sql: `
CREATE TABLE signing_keys (
  kid                TEXT PRIMARY KEY,
  alg                TEXT NOT NULL,
  public_jwk         TEXT NOT NULL,
  private_jwk_sealed TEXT NOT NULL,
  created_at         TEXT NOT NULL,
  retired_at         TEXT
);

CREATE TABLE refresh_tokens (
  id           TEXT PRIMARY KEY,
  family_id    TEXT NOT NULL,
  token_digest TEXT NOT NULL UNIQUE,
  client_id    TEXT NOT NULL REFERENCES api_clients(client_id),
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  scopes       TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  expires_at   TEXT NOT NULL,
  rotated_at   TEXT,
  revoked_at   TEXT
);
CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);
`,
};
