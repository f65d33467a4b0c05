import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbErrorKind } from '../../server/db/sql.js';
import { transaction } from '../../server/db/tx.js';
import { modelAdapter } from '../../server/oidc/adapter.js';
import { type ModelRow, oidcStore } from '../../server/oidc/store.js';
import { tokenDigest } from '../../server/shared/secrets.js';
import { secretBox } from '../../server/shared/secret-box.js';
import { type TestExecutor, openTestExecutor } from '../helpers/executor.js';
import { DATABASES } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

/**
 * The OpenID provider's store and its oidc-provider adapter on SQLite and PostgreSQL: every method, the same inputs
 * giving the same outputs (each suite checks what it expects and records what it got; the last suite compares the
 * two records), constraint errors through dbErrorKind, and transactions.
 */

/** What each database answered, by step, for the comparison at the end. */
const answers: Record<string, Record<string, unknown>> = { sqlite: {}, postgres: {} };

// Unix seconds beyond 2^31 (2038): BIGINT on PostgreSQL, read back as numbers.
const NOW = 2_200_000_000;

const row = (p: Partial<ModelRow> & Pick<ModelRow, 'model' | 'key'>): ModelRow => ({
  payload: JSON.stringify({ kind: p.model, id: p.key }), grant_id: null, uid: null, user_code: null, account_id: null, client_id: null,
  created_at: NOW - 100, expires_at: null, consumed_at: null, ...p,
});

async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return dbErrorKind(e) ?? `other: ${(e as Error).message}`;
  }
  return 'no error';
}

for (const db of DATABASES) {
  describe(`oidc store (${db.name})`, skipFor(db.skip), () => {
    let t: TestExecutor;
    const got = answers[db.name]!;
    beforeAll(async () => {
      t = await openTestExecutor(db, 'store-oidc');
    });
    afterAll(async () => t?.close());

    it('upserts, finds by key, uid and user code, consumes and destroys models', async () => {
      const s = oidcStore(t.e);
      expect(await s.find('Session', 'k1')).toBeUndefined();
      await s.upsert(row({ model: 'Session', key: 'k1', uid: 'uid-1', account_id: 'u1', expires_at: NOW + 3600 }));
      await s.upsert(row({ model: 'DeviceCode', key: 'd1', user_code: 'ABCD-EFGH', created_at: NOW - 5 }));
      // The same (model, key) again: every column but created_at is replaced.
      await s.upsert(row({ model: 'Session', key: 'k1', payload: '{"again":true,"text":"ü ✓"}', uid: 'uid-2', account_id: 'u1',
        created_at: NOW, expires_at: NOW + 7200, consumed_at: NOW + 1 }));
      const session = await s.find('Session', 'k1');
      expect(session).toEqual<ModelRow>({
        model: 'Session', key: 'k1', payload: '{"again":true,"text":"ü ✓"}', grant_id: null, uid: 'uid-2', user_code: null,
        account_id: 'u1', client_id: null, created_at: NOW - 100, expires_at: NOW + 7200, consumed_at: NOW + 1,
      });
      expect(await s.find('Grant', 'k1')).toBeUndefined();
      expect(await s.findByUid('Session', 'uid-1')).toBeUndefined();
      expect(await s.findByUid('Session', 'uid-2')).toEqual(session);
      expect(await s.findByUid('Interaction', 'uid-2')).toBeUndefined();
      const device = await s.findByUserCode('DeviceCode', 'ABCD-EFGH');
      expect(device).toMatchObject({ key: 'd1', created_at: NOW - 5, expires_at: null });
      expect(await s.findByUserCode('DeviceCode', 'nope')).toBeUndefined();

      await s.consume('DeviceCode', 'd1', NOW + 9, '{"consumed":1}');
      expect(await s.find('DeviceCode', 'd1')).toMatchObject({ consumed_at: NOW + 9, payload: '{"consumed":1}' });
      await s.consume('DeviceCode', 'ghost', NOW, '{}');
      await s.destroy('Session', 'k1');
      await s.destroy('Session', 'ghost');
      expect(await s.find('Session', 'k1')).toBeUndefined();
      got.models = { session, device, consumed: await s.find('DeviceCode', 'd1') };
    });

    it('revokes by grant (one model, or a grant with everything issued under it) and lists a user\'s live grants', async () => {
      const s = oidcStore(t.e);
      await s.upsert(row({ model: 'Client', key: 'c1', payload: '{"client_name":"One"}', created_at: NOW - 1000 }));
      // g1 and g2 of u1 at the same second (the key breaks the tie), g3 older, g4 expired, g5 of another user.
      await s.upsert(row({ model: 'Grant', key: 'g2', account_id: 'u1', client_id: 'c1', created_at: NOW - 50, expires_at: NOW + 10 }));
      await s.upsert(row({ model: 'Grant', key: 'g1', account_id: 'u1', client_id: 'c1', created_at: NOW - 50 }));
      await s.upsert(row({ model: 'Grant', key: 'g3', account_id: 'u1', client_id: 'c-gone', created_at: NOW - 90 }));
      await s.upsert(row({ model: 'Grant', key: 'g4', account_id: 'u1', client_id: 'c1', created_at: NOW - 40, expires_at: NOW }));
      await s.upsert(row({ model: 'Grant', key: 'g5', account_id: 'u2', client_id: 'c1', created_at: NOW - 10 }));
      await s.upsert(row({ model: 'RefreshToken', key: 'r1', grant_id: 'g1', client_id: 'c1', created_at: NOW - 30 }));
      await s.upsert(row({ model: 'AccessToken', key: 'a1', grant_id: 'g1', client_id: 'c1', created_at: NOW - 20 }));
      await s.upsert(row({ model: 'AuthorizationCode', key: 'x1', grant_id: 'g2', client_id: 'c1', created_at: NOW - 45 }));
      await s.upsert(row({ model: 'RefreshToken', key: 'r2', grant_id: 'g2', client_id: 'c1', created_at: NOW - 44 }));

      const grants = await s.grantsOf('u1', NOW);
      expect(grants).toEqual([
        { grant_id: 'g1', grant_payload: '{"kind":"Grant","id":"g1"}', client_payload: '{"client_name":"One"}', created_at: NOW - 50, expires_at: null, last_used_at: NOW - 20 },
        { grant_id: 'g2', grant_payload: '{"kind":"Grant","id":"g2"}', client_payload: '{"client_name":"One"}', created_at: NOW - 50, expires_at: NOW + 10, last_used_at: NOW - 44 },
        { grant_id: 'g3', grant_payload: '{"kind":"Grant","id":"g3"}', client_payload: null, created_at: NOW - 90, expires_at: null, last_used_at: null },
      ]);
      expect((await s.grantsOf('u1', NOW + 10)).map((g) => g.grant_id)).toEqual(['g1', 'g3']);
      expect(await s.grantsOf('nobody', NOW)).toEqual([]);
      got.grants = grants;

      // One model's rows of a grant.
      await s.revokeByGrant('AuthorizationCode', 'g2');
      expect(await s.find('AuthorizationCode', 'x1')).toBeUndefined();
      expect(await s.find('RefreshToken', 'r2')).toBeDefined();
      // A grant with its tokens; again, nothing left to revoke.
      expect(await s.revokeGrant('g1')).toBe(true);
      expect(await s.revokeGrant('g1')).toBe(false);
      expect(await s.find('Grant', 'g1')).toBeUndefined();
      expect(await s.find('RefreshToken', 'r1')).toBeUndefined();
      expect(await s.find('AccessToken', 'a1')).toBeUndefined();
      expect(await s.find('Grant', 'g2')).toBeDefined();
      expect((await s.grantsOf('u1', NOW)).map((g) => g.grant_id)).toEqual(['g2', 'g3']);
    });

    it('purges expired models, expired revocations and idle registrations in one transaction, counting them', async () => {
      const s = oidcStore(t.e);
      await s.upsert(row({ model: 'Session', key: 'old', expires_at: NOW - 1 }));
      await s.upsert(row({ model: 'Session', key: 'edge', expires_at: NOW }));
      await s.upsert(row({ model: 'Session', key: 'live', expires_at: NOW + 1 }));
      await s.upsert(row({ model: 'Client', key: 'idle', created_at: NOW - 31 * 86400 }));
      await s.upsert(row({ model: 'Client', key: 'fresh', created_at: NOW - 86400 }));
      // As old as the idle one, but a grant names it: kept.
      await s.upsert(row({ model: 'Client', key: 'granted', created_at: NOW - 40 * 86400 }));
      await s.upsert(row({ model: 'Grant', key: 'g6', account_id: 'u3', client_id: 'granted', created_at: NOW - 40 * 86400 }));
      await s.revokeJti('j-old', NOW - 5);
      await s.revokeJti('j-live', NOW + 5);
      await s.revokeJti('j-live', NOW + 99);
      expect(await s.isRevoked('j-old')).toBe(true);
      expect(await s.isRevoked('j-never')).toBe(false);

      // Expired: old, edge, g4 (expires at NOW); j-old; the idle client. Inside a savepoint of an outer transaction too.
      const purged = await transaction(t.e, (tx) => oidcStore(tx).purge(NOW, NOW - 30 * 86400));
      expect(purged).toBe(5);
      expect(await s.purge(NOW, NOW - 30 * 86400)).toBe(0);
      expect(await s.find('Session', 'live')).toBeDefined();
      expect(await s.find('Session', 'edge')).toBeUndefined();
      expect(await s.find('Grant', 'g4')).toBeUndefined();
      expect(await s.find('Client', 'idle')).toBeUndefined();
      expect(await s.find('Client', 'fresh')).toBeDefined();
      expect(await s.find('Client', 'granted')).toBeDefined();
      expect(await s.isRevoked('j-old')).toBe(false);
      expect(await s.isRevoked('j-live')).toBe(true);
      const { rows } = await sql<{ expires_at: number }>`SELECT expires_at FROM oidc_revoked_tokens WHERE jti = 'j-live'`.execute(t.e.k);
      // A jti revoked twice keeps its first expiry.
      expect(rows).toEqual([{ expires_at: NOW + 5 }]);
      got.purged = purged;
    });

    it('keeps the provider\'s keys, newest first, and refuses a duplicate or an unknown kind', async () => {
      const s = oidcStore(t.e);
      expect(await s.keys('jwk')).toEqual([]);
      await s.insertKey({ kid: 'b', kind: 'jwk', sealed: 'v1:b', created_at: '2025-01-01T00:00:00.000Z' });
      await s.insertKey({ kid: 'a', kind: 'jwk', sealed: 'v1:a', created_at: '2025-01-01T00:00:00.000Z' });
      await s.insertKey({ kid: 'c', kind: 'jwk', sealed: 'v1:c', created_at: '2025-02-01T00:00:00.000Z' });
      await s.insertKey({ kid: 'k', kind: 'cookie', sealed: 'v1:k', created_at: '2025-01-01T00:00:00.000Z' });
      await sql`UPDATE oidc_keys SET retired_at = '2025-03-01T00:00:00.000Z' WHERE kid = 'b'`.execute(t.e.k);
      const keys = await s.keys('jwk');
      expect(keys).toEqual([
        { kid: 'c', kind: 'jwk', sealed: 'v1:c', created_at: '2025-02-01T00:00:00.000Z', retired_at: null },
        { kid: 'a', kind: 'jwk', sealed: 'v1:a', created_at: '2025-01-01T00:00:00.000Z', retired_at: null },
      ]);
      expect((await s.keys('cookie')).map((k) => k.kid)).toEqual(['k']);
      const kinds = {
        duplicate: await kindOf(s.insertKey({ kid: 'a', kind: 'cookie', sealed: 'x', created_at: 'x' })),
        badKind: await kindOf(s.insertKey({ kid: 'z', kind: 'pem' as 'jwk', sealed: 'x', created_at: 'x' })),
        noSealed: await kindOf(s.insertKey({ kid: 'y', kind: 'jwk', sealed: null as unknown as string, created_at: 'x' })),
        noPayload: await kindOf(s.upsert(row({ model: 'Session', key: 'np', payload: null as unknown as string }))),
      };
      expect(kinds).toEqual({ duplicate: 'unique', badKind: 'check', noSealed: 'not_null', noPayload: 'not_null' });
      got.keys = { keys, kinds };
    });

    it('rolls a transaction\'s writes back with it', async () => {
      await expect(transaction(t.e, async (tx) => {
        const s = oidcStore(tx);
        await s.upsert(row({ model: 'Grant', key: 'tx-g', account_id: 'u9' }));
        await s.revokeJti('tx-j', NOW + 5);
        expect(await s.find('Grant', 'tx-g')).toBeDefined();
        throw new Error('refused');
      })).rejects.toThrow('refused');
      const s = oidcStore(t.e);
      expect(await s.find('Grant', 'tx-g')).toBeUndefined();
      expect(await s.isRevoked('tx-j')).toBe(false);
    });

    it('adapter: upsert, find, findByUid, findByUserCode, consume, destroy and revokeByGrantId as oidc-provider uses them', async () => {
      const store = oidcStore(t.e);
      const box = secretBox(randomBytes(32));
      const Adapter = modelAdapter(store, box);
      const clients = new Adapter('Client');
      const sessions = new Adapter('Session');
      const refresh = new Adapter('RefreshToken');
      const codes = new Adapter('AuthorizationCode');
      const devices = new Adapter('DeviceCode');

      // A client is kept under its own id; a credential's row is keyed by its digest, its id only sealed.
      await clients.upsert('client-1', { client_id: 'client-1', client_name: 'Assistant', redirect_uris: ['https://a.example/cb'] });
      expect(await clients.find('client-1')).toEqual({ client_id: 'client-1', client_name: 'Assistant', redirect_uris: ['https://a.example/cb'] });
      expect((await store.find('Client', 'client-1'))!.expires_at).toBeNull();

      await refresh.upsert('rt-secret', { jti: 'rt-secret', grantId: 'grant-1', clientId: 'client-1', accountId: 'u1', iat: NOW - 60 }, 3600);
      const stored = (await store.find('RefreshToken', tokenDigest('rt-secret')))!;
      expect(stored).toMatchObject({ grant_id: 'grant-1', client_id: 'client-1', account_id: 'u1', created_at: NOW - 60 });
      expect(stored.payload).not.toContain('rt-secret');
      expect(await store.find('RefreshToken', 'rt-secret')).toBeUndefined();
      const found = await refresh.find('rt-secret');
      expect(found).toEqual({ jti: 'rt-secret', grantId: 'grant-1', clientId: 'client-1', accountId: 'u1', iat: NOW - 60 });
      expect(await refresh.find('other')).toBeUndefined();

      // Found by uid, the sealed id opened again.
      await sessions.upsert('sess-secret', { jti: 'sess-secret', uid: 'uid-9', accountId: 'u1' }, 600);
      expect(await sessions.findByUid('uid-9')).toEqual({ jti: 'sess-secret', uid: 'uid-9', accountId: 'u1' });
      await devices.upsert('dev-secret', { jti: 'dev-secret', userCode: 'WXYZ' }, 600);
      expect(await devices.findByUserCode('WXYZ')).toEqual({ jti: 'dev-secret', userCode: 'WXYZ' });

      // A code is consumed once it is used: the payload says when, as does the row.
      await codes.upsert('code-secret', { jti: 'code-secret', grantId: 'grant-1', clientId: 'client-1' }, 60);
      await codes.consume('code-secret');
      const consumed = (await codes.find('code-secret'))!;
      expect(typeof consumed.consumed).toBe('number');
      expect((await store.find('AuthorizationCode', tokenDigest('code-secret')))!.consumed_at).toBe(consumed.consumed);
      await codes.consume('never-issued');

      // Expired rows are not found (the library's clock: wall-clock seconds).
      await store.upsert({ ...stored, key: tokenDigest('rt-expired'), expires_at: Math.floor(Date.now() / 1000) - 1 });
      expect(await refresh.find('rt-expired')).toBeUndefined();

      // Revoked by grant: this model's rows only.
      await refresh.revokeByGrantId('grant-1');
      expect(await refresh.find('rt-secret')).toBeUndefined();
      expect(await codes.find('code-secret')).toBeDefined();
      await codes.revokeByGrantId('grant-1');
      expect(await codes.find('code-secret')).toBeUndefined();

      await sessions.destroy('sess-secret');
      expect(await sessions.findByUid('uid-9')).toBeUndefined();
      await clients.destroy('client-1');
      expect(await clients.find('client-1')).toBeUndefined();
      got.adapter = { found, client: { client_id: 'client-1' }, consumedKeys: Object.keys(consumed).sort() };
    });
  });
}

describe('oidc store: the same answers on both databases', skipFor(DATABASES.find((d) => d.name === 'postgres')!.skip), () => {
  it('answered every step alike', () => {
    expect(Object.keys(answers.sqlite!).length).toBeGreaterThan(4);
    expect(answers.postgres).toEqual(answers.sqlite);
  });
});
