import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../db/tx.js';

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

/** SQL of signing keys and refresh tokens. */
export function tokenStore(e: Executor) {
  const k = e.k;
  const first = async <T>(q: RawBuilder<T>): Promise<T | undefined> => (await q.execute(k)).rows[0];
  /** How many rows a write changed: Kysely's numAffectedRows, a bigint, on both databases. */
  const changes = async (q: RawBuilder<unknown>) => Number((await q.execute(k)).numAffectedRows ?? 0n);
  return {
    async insertKey(r: Omit<SigningKeyRow, 'retired_at'>) {
      await sql`
      INSERT INTO signing_keys (kid, alg, public_jwk, private_jwk_sealed, created_at)
      VALUES (${r.kid}, ${r.alg}, ${r.public_jwk}, ${r.private_jwk_sealed}, ${r.created_at})`.execute(k);
    },
    async activeKey() {
      return first(sql<SigningKeyRow>`SELECT * FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1`);
    },
    async key(kid: string) {
      return first(sql<SigningKeyRow>`SELECT * FROM signing_keys WHERE kid = ${kid}`);
    },
    /** Keys whose tokens may still be live: active ones and those retired after `since`. */
    async verifyingKeys(since: string) {
      return (await sql<SigningKeyRow>`
      SELECT * FROM signing_keys WHERE retired_at IS NULL OR retired_at > ${since} ORDER BY created_at DESC`.execute(k)).rows;
    },
    async retireOthers(kid: string, at: string) {
      await sql`UPDATE signing_keys SET retired_at = ${at} WHERE kid <> ${kid} AND retired_at IS NULL`.execute(k);
    },
    async insertRefresh(r: Omit<RefreshTokenRow, 'rotated_at' | 'revoked_at'>) {
      await sql`
      INSERT INTO refresh_tokens (id, family_id, token_digest, client_id, workspace_id, scopes, created_at, expires_at)
      VALUES (${r.id}, ${r.family_id}, ${r.token_digest}, ${r.client_id}, ${r.workspace_id}, ${r.scopes}, ${r.created_at}, ${r.expires_at})`
      .execute(k);
    },
    async refresh(digest: string) {
      return first(sql<RefreshTokenRow>`SELECT * FROM refresh_tokens WHERE token_digest = ${digest}`);
    },
    /** Marks a refresh token used; false when someone else used it first. */
    async rotate(id: string, at: string) {
      return (await changes(sql`
      UPDATE refresh_tokens SET rotated_at = ${at} WHERE id = ${id} AND rotated_at IS NULL AND revoked_at IS NULL`)) === 1;
    },
    async revokeFamily(familyId: string, at: string) {
      return changes(sql`UPDATE refresh_tokens SET revoked_at = ${at} WHERE family_id = ${familyId} AND revoked_at IS NULL`);
    },
  };
}
