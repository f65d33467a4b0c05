import { sql } from 'kysely';
import { type Executor, durable, transaction } from '../db/tx.js';

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

/** How many rows a statement changed, as a number (Kysely counts them as a bigint on both databases). */
const count = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0n);

/**
 * All SQL of the OpenID provider's persistence (migration 0006), for both databases (server/db/sql.ts). The one
 * spelling they do not share was SQLite's INSERT OR IGNORE for a revoked jti: ON CONFLICT (jti) DO NOTHING, which
 * both accept, ignores the same rows (a jti and an expiry are never NULL). Unix seconds are BIGINT on PostgreSQL,
 * read back as numbers (sql.ts), so a row is the same JS value on both.
 */
export function oidcStore(e: Executor) {
  const k = e.k;
  // The provider answers on its own (a hijacked reply, past http/durable-answers.ts): a write is on disk before it.
  const written = async <T>(result: T) => {
    await durable(e);
    return result;
  };
  return {
    async upsert(row: ModelRow) {
      await sql`INSERT INTO oidc_models
        (model, key, payload, grant_id, uid, user_code, account_id, client_id, created_at, expires_at, consumed_at)
        VALUES (${row.model}, ${row.key}, ${row.payload}, ${row.grant_id}, ${row.uid}, ${row.user_code}, ${row.account_id}, ${row.client_id},
          ${row.created_at}, ${row.expires_at}, ${row.consumed_at})
        ON CONFLICT (model, key) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
          user_code = excluded.user_code, account_id = excluded.account_id, client_id = excluded.client_id,
          expires_at = excluded.expires_at, consumed_at = excluded.consumed_at`.execute(k).then(written);
    },
    async find(model: string, key: string) {
      return (await sql<ModelRow>`SELECT * FROM oidc_models WHERE model = ${model} AND key = ${key}`.execute(k)).rows[0];
    },
    async findByUid(model: string, uid: string) {
      return (await sql<ModelRow>`SELECT * FROM oidc_models WHERE model = ${model} AND uid = ${uid}`.execute(k)).rows[0];
    },
    async findByUserCode(model: string, code: string) {
      return (await sql<ModelRow>`SELECT * FROM oidc_models WHERE model = ${model} AND user_code = ${code}`.execute(k)).rows[0];
    },
    async consume(model: string, key: string, at: number, payload: string) {
      await sql`UPDATE oidc_models SET consumed_at = ${at}, payload = ${payload} WHERE model = ${model} AND key = ${key}`.execute(k).then(written);
    },
    async destroy(model: string, key: string) {
      await sql`DELETE FROM oidc_models WHERE model = ${model} AND key = ${key}`.execute(k).then(written);
    },
    async revokeByGrant(model: string, grantId: string) {
      await sql`DELETE FROM oidc_models WHERE model = ${model} AND grant_id = ${grantId}`.execute(k).then(written);
    },
    /** The grant and every code, token and refresh token issued under it. */
    async revokeGrant(grantId: string) {
      return count(await sql`DELETE FROM oidc_models WHERE grant_id = ${grantId} OR (model = 'Grant' AND key = ${grantId})`.execute(k).then(written)) > 0;
    },
    async grantsOf(accountId: string, now: number) {
      return (await sql<GrantListRow>`SELECT g.key AS grant_id, g.payload AS grant_payload, c.payload AS client_payload, g.created_at, g.expires_at,
          (SELECT MAX(t.created_at) FROM oidc_models t WHERE t.grant_id = g.key) AS last_used_at
        FROM oidc_models g LEFT JOIN oidc_models c ON c.model = 'Client' AND c.key = g.client_id
        WHERE g.model = 'Grant' AND g.account_id = ${accountId} AND (g.expires_at IS NULL OR g.expires_at > ${now})
        ORDER BY g.created_at DESC, g.key`.execute(k)).rows;
    },
    /** Expired models and revoked jtis, and idle registrations, in one transaction: how many rows went. */
    purge(now: number, idleClientsBefore: number) {
      return transaction(e, async (tx) =>
      count(await sql`DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at <= ${now}`.execute(tx.k))
      + count(await sql`DELETE FROM oidc_revoked_tokens WHERE expires_at <= ${now}`.execute(tx.k))
      // A dynamically registered client nobody has approved for a month is registration litter.
      + count(await sql`DELETE FROM oidc_models WHERE model = 'Client' AND created_at <= ${idleClientsBefore}
        AND NOT EXISTS (SELECT 1 FROM oidc_models g WHERE g.model = 'Grant' AND g.client_id = oidc_models.key)`.execute(tx.k)));
    },
    async keys(kind: KeyRow['kind']) {
      return (await sql<KeyRow>`SELECT * FROM oidc_keys WHERE kind = ${kind} AND retired_at IS NULL ORDER BY created_at DESC, kid`.execute(k)).rows;
    },
    async insertKey(row: Omit<KeyRow, 'retired_at'>) {
      await sql`INSERT INTO oidc_keys (kid, kind, sealed, created_at) VALUES (${row.kid}, ${row.kind}, ${row.sealed}, ${row.created_at})`.execute(k);
    },
    async revokeJti(jti: string, exp: number) {
      await sql`INSERT INTO oidc_revoked_tokens (jti, expires_at) VALUES (${jti}, ${exp}) ON CONFLICT (jti) DO NOTHING`.execute(k).then(written);
    },
    async isRevoked(jti: string) {
      return (await sql`SELECT 1 AS one FROM oidc_revoked_tokens WHERE jti = ${jti}`.execute(k)).rows.length > 0;
    },
  };
}
export type OidcStore = ReturnType<typeof oidcStore>;
