import { type Executor, perConnection, transaction } from '../db/tx.js';

export interface ModelRow {
  model: string;
  key: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  account_id: string | null;
  client_id: string | null;
  created_at: number;
  expires_at: number | null;
  consumed_at: number | null;
}

export interface KeyRow {
  kid: string;
  kind: 'jwk' | 'cookie';
  sealed: string;
  created_at: string;
  retired_at: string | null;
}

/** A grant of one user with its client's registration, for the connected-assistants list. */
export interface GrantListRow {
  grant_id: string;
  grant_payload: string;
  client_payload: string | null;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}

const statements = perConnection((db) => ({
  upsert: db.prepare(`INSERT INTO oidc_models
    (model, key, payload, grant_id, uid, user_code, account_id, client_id, created_at, expires_at, consumed_at)
    VALUES (@model, @key, @payload, @grant_id, @uid, @user_code, @account_id, @client_id, @created_at, @expires_at, @consumed_at)
    ON CONFLICT (model, key) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
      user_code = excluded.user_code, account_id = excluded.account_id, client_id = excluded.client_id,
      expires_at = excluded.expires_at, consumed_at = excluded.consumed_at`),
  find: db.prepare('SELECT * FROM oidc_models WHERE model = ? AND key = ?'),
  findByUid: db.prepare('SELECT * FROM oidc_models WHERE model = ? AND uid = ?'),
  findByUserCode: db.prepare('SELECT * FROM oidc_models WHERE model = ? AND user_code = ?'),
  consume: db.prepare('UPDATE oidc_models SET consumed_at = ?, payload = ? WHERE model = ? AND key = ?'),
  destroy: db.prepare('DELETE FROM oidc_models WHERE model = ? AND key = ?'),
  revokeByGrant: db.prepare('DELETE FROM oidc_models WHERE model = ? AND grant_id = ?'),
  revokeGrantEverything: db.prepare(`DELETE FROM oidc_models WHERE grant_id = ? OR (model = 'Grant' AND key = ?)`),
  grantsOf: db.prepare(`SELECT g.key AS grant_id, g.payload AS grant_payload, c.payload AS client_payload, g.created_at, g.expires_at,
      (SELECT MAX(t.created_at) FROM oidc_models t WHERE t.grant_id = g.key) AS last_used_at
    FROM oidc_models g LEFT JOIN oidc_models c ON c.model = 'Client' AND c.key = g.client_id
    WHERE g.model = 'Grant' AND g.account_id = ? AND (g.expires_at IS NULL OR g.expires_at > ?)
    ORDER BY g.created_at DESC, g.key`),
  purgeExpired: db.prepare('DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at <= ?'),
  // A dynamically registered client nobody has approved for a month is registration litter.
  purgeIdleClients: db.prepare(`DELETE FROM oidc_models WHERE model = 'Client' AND created_at <= ?
    AND NOT EXISTS (SELECT 1 FROM oidc_models g WHERE g.model = 'Grant' AND g.client_id = oidc_models.key)`),
  keys: db.prepare('SELECT * FROM oidc_keys WHERE kind = ? AND retired_at IS NULL ORDER BY created_at DESC, kid'),
  insertKey: db.prepare('INSERT INTO oidc_keys (kid, kind, sealed, created_at) VALUES (@kid, @kind, @sealed, @created_at)'),
  revokeJti: db.prepare('INSERT OR IGNORE INTO oidc_revoked_tokens (jti, expires_at) VALUES (?, ?)'),
  isRevoked: db.prepare('SELECT 1 FROM oidc_revoked_tokens WHERE jti = ?'),
  purgeRevoked: db.prepare('DELETE FROM oidc_revoked_tokens WHERE expires_at <= ?'),
}));

/** All SQL of the OpenID provider's persistence (migration 0006). */
export function oidcStore(e: Executor) {
  const q = statements(e);
  return {
    upsert: async (row: ModelRow) => void q.upsert.run(row),
    find: async (model: string, key: string) => q.find.get(model, key) as ModelRow | undefined,
    findByUid: async (model: string, uid: string) => q.findByUid.get(model, uid) as ModelRow | undefined,
    findByUserCode: async (model: string, code: string) => q.findByUserCode.get(model, code) as ModelRow | undefined,
    consume: async (model: string, key: string, at: number, payload: string) => void q.consume.run(at, payload, model, key),
    destroy: async (model: string, key: string) => void q.destroy.run(model, key),
    revokeByGrant: async (model: string, grantId: string) => void q.revokeByGrant.run(model, grantId),
    /** The grant and every code, token and refresh token issued under it. */
    revokeGrant: async (grantId: string) => q.revokeGrantEverything.run(grantId, grantId).changes > 0,
    grantsOf: async (accountId: string, now: number) => q.grantsOf.all(accountId, now) as GrantListRow[],
    purge: (now: number, idleClientsBefore: number) => transaction(e, async () =>
      q.purgeExpired.run(now).changes + q.purgeRevoked.run(now).changes + q.purgeIdleClients.run(idleClientsBefore).changes),
    keys: async (kind: KeyRow['kind']) => q.keys.all(kind) as KeyRow[],
    insertKey: async (row: Omit<KeyRow, 'retired_at'>) => void q.insertKey.run(row),
    revokeJti: async (jti: string, exp: number) => void q.revokeJti.run(jti, exp),
    isRevoked: async (jti: string) => q.isRevoked.get(jti) !== undefined,
  };
}
export type OidcStore = ReturnType<typeof oidcStore>;
