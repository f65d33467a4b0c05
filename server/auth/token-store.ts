import { type Executor, perConnection } from '../db/tx.js';

export interface SigningKeyRow {
  kid: string;
  alg: string;
  public_jwk: string;
  private_jwk_sealed: string;
  created_at: string;
  retired_at: string | null;
}

export interface RefreshTokenRow {
  id: string;
  family_id: string;
  token_digest: string;
  client_id: string;
  workspace_id: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
}

const statements = perConnection((db) => ({
  insertKey: db.prepare(`INSERT INTO signing_keys (kid, alg, public_jwk, private_jwk_sealed, created_at)
    VALUES (@kid, @alg, @public_jwk, @private_jwk_sealed, @created_at)`),
  activeKey: db.prepare('SELECT * FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1'),
  key: db.prepare('SELECT * FROM signing_keys WHERE kid = ?'),
  verifyingKeys: db.prepare('SELECT * FROM signing_keys WHERE retired_at IS NULL OR retired_at > ? ORDER BY created_at DESC'),
  retireOthers: db.prepare('UPDATE signing_keys SET retired_at = ? WHERE kid <> ? AND retired_at IS NULL'),
  insertRefresh: db.prepare(`INSERT INTO refresh_tokens (id, family_id, token_digest, client_id, workspace_id, scopes,
    created_at, expires_at) VALUES (@id, @family_id, @token_digest, @client_id, @workspace_id, @scopes, @created_at, @expires_at)`),
  refresh: db.prepare('SELECT * FROM refresh_tokens WHERE token_digest = ?'),
  rotate: db.prepare('UPDATE refresh_tokens SET rotated_at = ? WHERE id = ? AND rotated_at IS NULL AND revoked_at IS NULL'),
  revokeFamily: db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL'),
}));

/** SQL of signing keys and refresh tokens. */
export function tokenStore(e: Executor) {
  const q = statements(e);
  return {
    insertKey: async (k: Omit<SigningKeyRow, 'retired_at'>) => void q.insertKey.run(k),
    activeKey: async () => q.activeKey.get() as SigningKeyRow | undefined,
    key: async (kid: string) => q.key.get(kid) as SigningKeyRow | undefined,
    /** Keys whose tokens may still be live: active ones and those retired after `since`. */
    verifyingKeys: async (since: string) => q.verifyingKeys.all(since) as SigningKeyRow[],
    retireOthers: async (kid: string, at: string) => void q.retireOthers.run(at, kid),
    insertRefresh: async (r: Omit<RefreshTokenRow, 'rotated_at' | 'revoked_at'>) => void q.insertRefresh.run(r),
    refresh: async (digest: string) => q.refresh.get(digest) as RefreshTokenRow | undefined,
    /** Marks a refresh token used; false when someone else used it first. */
    rotate: async (id: string, at: string) => q.rotate.run(at, id).changes === 1,
    revokeFamily: async (familyId: string, at: string) => q.revokeFamily.run(at, familyId).changes,
  };
}
