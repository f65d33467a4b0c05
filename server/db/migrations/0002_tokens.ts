import type { Migration } from '../migrate.js';

export const tokens: Migration = {
  version: 2,
  name: 'tokens',
  sql: `
-- Keys that sign access tokens. The private half is sealed with the key-encryption key (shared/secret-box.ts).
-- A retired key signs nothing new but still verifies tokens it signed until they expire.
CREATE TABLE signing_keys (
  kid                TEXT PRIMARY KEY,
  alg                TEXT NOT NULL,
  public_jwk         TEXT NOT NULL,
  private_jwk_sealed TEXT NOT NULL,
  created_at         TEXT NOT NULL,
  retired_at         TEXT
);

-- Opaque refresh tokens, stored as SHA-256 digests. Each use rotates the token within its family; presenting a
-- rotated one again is reuse, and revokes the whole family.
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
