import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authStore, invalidatePrincipals } from '../../server/auth/store.js';
import { tokenStore } from '../../server/auth/token-store.js';
import { dbErrorKind } from '../../server/db/sql.js';
import { transaction } from '../../server/db/tx.js';
import { settingsStore } from '../../server/settings/store.js';
import { type TestExecutor, openTestExecutor } from '../helpers/executor.js';
import { DATABASES } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

// The auth, token and settings stores written once for both databases (issue 17): every method, the same inputs
// giving the same rows on SQLite and PostgreSQL, in the same order, with the same constraint errors, transactions
// and principal cache. Each suite records what it read; the last test compares the two records whole.
const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-01T00:00:05.000Z';
const T2 = '2030-01-01T00:05:00.000Z';
const T3 = '2030-01-01T01:00:00.000Z';

const WORKSPACE_KEYS = ['id', 'name', 'country', 'timezone', 'created_at', 'disabled_at', 'address'];
const USER_KEYS = ['id', 'workspace_id', 'username', 'display_name', 'role', 'password_hash', 'created_at', 'disabled_at', 'qualification', 'registration_number'];

const workspace = (id: string, name: string, created: string) =>
  ({ id, name, country: 'IN', timezone: 'Asia/Kolkata', created_at: created, address: null });
const user = (id: string, ws: string, username: string, role: 'admin' | 'doctor' | 'reception', created: string) =>
  ({ id, workspace_id: ws, username, display_name: `Name of ${id}`, role, password_hash: `hash-${id}`, created_at: created, qualification: null, registration_number: null });
const token = (id: string, ws: string, userId: string, digest: string, scopes: string | null = null) =>
  ({ id, workspace_id: ws, user_id: userId, token_digest: digest, label: `label ${id}`, scopes, created_at: T0 });

/** What a failed promise's database error was, whichever the database. */
async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return dbErrorKind(e) ?? (e as Error).message;
  }
  return 'no error';
}

const transcripts = new Map<string, unknown[]>();

for (const db of DATABASES) {
  describe(`auth store (${db.name})`, skipFor(db.skip), () => {
    let t: TestExecutor;
    const seen: unknown[] = [];
    /** Records what a read answered, for the comparison of the two databases at the end. */
    const rec = <T>(v: T): T => (seen.push(structuredClone(v)), v);
    beforeAll(async () => {
      t = await openTestExecutor(db, 'store-auth');
    });
    afterAll(async () => {
      transcripts.set(db.name, seen);
      await t?.close();
    });

    it('workspaces: named columns (no seq), ordered by created_at then id, the owner by insertion order; disabling once', async () => {
      const s = authStore(t.e);
      // Inserted z first: ids sort the other way, and created_at ties, so only insertion order names the owner.
      await s.insertWorkspace(workspace('w-z', 'Sunrise', T0));
      await s.insertWorkspace(workspace('w-a', 'Lotus', T0));
      await s.insertWorkspace(workspace('w-m', 'Early', '2029-12-31T00:00:00.000Z'));
      expect(rec(await s.ownerWorkspace())).toBe('w-z');
      const all = rec(await s.workspaces());
      expect(all.map((w) => w.id)).toEqual(['w-m', 'w-a', 'w-z']);
      const w = rec(await s.workspace('w-z'));
      expect(Object.keys(w!)).toEqual(WORKSPACE_KEYS);
      expect(w).toEqual({ ...workspace('w-z', 'Sunrise', T0), disabled_at: null });
      expect(rec(await s.workspace('nope'))).toBeUndefined();
      expect(rec(await s.disableWorkspace('w-m', T1))).toBe(true);
      expect(rec(await s.disableWorkspace('w-m', T2))).toBe(false);
      expect(rec(await s.workspace('w-m'))?.disabled_at).toBe(T1);
      expect(rec(await s.clinic('w-z'))).toEqual({ id: 'w-z', name: 'Sunrise', address: null });
      await s.setClinicAddress('w-z', '12 MG Road\nBengaluru');
      expect(rec(await s.clinic('w-z'))).toEqual({ id: 'w-z', name: 'Sunrise', address: '12 MG Road\nBengaluru' });
      await s.setClinicAddress('w-z', null);
      expect(rec(await s.clinic('w-z'))?.address).toBeNull();
      expect(rec(await s.clinic('nope'))).toBeUndefined();
      expect(rec(await kindOf(s.insertWorkspace(workspace('w-a', 'Again', T1))))).toBe('unique');
    });

    it('users: found by name regardless of ASCII case, unique that way too; listed in order; constraint errors alike', async () => {
      const s = authStore(t.e);
      await s.insertUser(user('u-2', 'w-z', 'Reception@Sunrise', 'reception', T1));
      await s.insertUser(user('u-1', 'w-z', 'doctor@sunrise', 'doctor', T1));
      await s.insertUser(user('u-0', 'w-z', 'admin@sunrise', 'admin', T0));
      await s.insertUser(user('u-9', 'w-a', 'admin@lotus', 'admin', T0));
      const found = rec(await s.userByName('reception@sunrise'));
      expect(found?.id).toBe('u-2');
      expect(found?.username).toBe('Reception@Sunrise');
      expect(Object.keys(found!)).toEqual(USER_KEYS);
      expect(rec(await s.userByName('RECEPTION@SUNRISE'))?.id).toBe('u-2');
      expect(rec(await s.userByName('Doctor@Sunrise'))?.id).toBe('u-1');
      expect(rec(await s.userByName('reception@sunrise '))).toBeUndefined();
      expect(rec(await s.user('u-1'))).toEqual({ ...user('u-1', 'w-z', 'doctor@sunrise', 'doctor', T1), disabled_at: null });
      expect(rec(await s.user('nope'))).toBeUndefined();
      expect(rec(await s.usersOf('w-z')).map((u) => u.id)).toEqual(['u-0', 'u-1', 'u-2']);
      expect(rec(await s.usersOf('w-none'))).toEqual([]);

      expect(rec(await kindOf(s.insertUser(user('u-3', 'w-z', 'reception@SUNRISE', 'reception', T1))))).toBe('unique');
      expect(rec(await kindOf(s.insertUser(user('u-4', 'w-none', 'someone', 'doctor', T1))))).toBe('foreign_key');
      expect(rec(await kindOf(s.insertUser(user('u-5', 'w-z', 'nurse', 'nurse' as 'doctor', T1))))).toBe('check');
      expect(rec(await kindOf(s.insertUser({ ...user('u-6', 'w-z', 'x', 'doctor', T1), password_hash: null as unknown as string })))).toBe('not_null');
      expect(rec(await s.usersOf('w-z')).length).toBe(3);

      expect(rec(await s.setPasswordHash('u-1', 'new-hash'))).toBe(true);
      expect(rec(await s.setPasswordHash('nope', 'new-hash'))).toBe(false);
      expect(rec(await s.user('u-1'))?.password_hash).toBe('new-hash');
    });

    it('profiles: set only the fields given, null clears', async () => {
      const s = authStore(t.e);
      expect(rec(await s.profile('u-1'))).toEqual({ id: 'u-1', workspace_id: 'w-z', display_name: 'Name of u-1', role: 'doctor', qualification: null, registration_number: null });
      await s.setProfile('u-1', { qualification: 'MBBS, MD' });
      expect(rec(await s.profile('u-1'))).toMatchObject({ qualification: 'MBBS, MD', registration_number: null });
      await s.setProfile('u-1', { registration_number: 'KMC 12345' });
      expect(rec(await s.profile('u-1'))).toMatchObject({ qualification: 'MBBS, MD', registration_number: 'KMC 12345' });
      await s.setProfile('u-1', { qualification: null });
      expect(rec(await s.profile('u-1'))).toMatchObject({ qualification: null, registration_number: 'KMC 12345' });
      await s.setProfile('u-1', {});
      expect(rec(await s.profile('u-1'))).toMatchObject({ qualification: null, registration_number: 'KMC 12345' });
      expect(rec(await s.user('u-1'))?.registration_number).toBe('KMC 12345');
      expect(rec(await s.profile('nope'))).toBeUndefined();
    });

    it('tokens: principals, cached outside transactions only, dropped by every revoking write', async () => {
      const s = authStore(t.e);
      await s.insertToken(token('t-1', 'w-z', 'u-1', 'd-1'));
      await s.insertToken(token('t-2', 'w-z', 'u-1', 'd-2', '["patients:read"]'));
      await s.insertToken(token('t-3', 'w-z', 'u-2', 'd-3'));
      await s.insertToken(token('t-4', 'w-m', 'u-9', 'd-4'));
      expect(rec(await kindOf(s.insertToken(token('t-5', 'w-z', 'u-1', 'd-1'))))).toBe('unique');
      expect(rec(await kindOf(s.insertToken(token('t-6', 'w-z', 'u-none', 'd-6'))))).toBe('foreign_key');

      expect(s.cachedPrincipal('d-2')).toBeUndefined();
      // Read inside a transaction: answered, not cached (it could still roll back).
      await transaction(t.e, async (tx) => {
        expect(rec(await authStore(tx).tokenPrincipal('d-2'))?.user_id).toBe('u-1');
      });
      expect(s.cachedPrincipal('d-2')).toBeUndefined();
      const p2 = rec(await s.tokenPrincipal('d-2'));
      expect(p2).toEqual({ user_id: 'u-1', workspace_id: 'w-z', role: 'doctor', token_scopes: '["patients:read"]', workspace_disabled_at: null });
      expect(s.cachedPrincipal('d-2')).toEqual(p2);
      // A store of another executor of the same database shares the cache.
      await transaction(t.e, async (tx) => expect(authStore(tx).cachedPrincipal('d-2')).toEqual(p2));
      expect(rec(await s.tokenPrincipal('d-4'))).toEqual({ user_id: 'u-9', workspace_id: 'w-a', role: 'admin', token_scopes: null, workspace_disabled_at: null });
      expect(rec(await s.tokenPrincipal('unknown'))).toBeUndefined();
      expect(s.cachedPrincipal('unknown')).toBeUndefined();
      expect(rec(await s.tokenOwner('d-3'))).toBe('u-2');
      expect(rec(await s.tokenOwner('unknown'))).toBeUndefined();

      // revokeToken: true once, and the cache is dropped whole.
      expect(rec(await s.revokeToken('d-4', T1))).toBe(true);
      expect(s.cachedPrincipal('d-2')).toBeUndefined();
      expect(rec(await s.revokeToken('d-4', T2))).toBe(false);
      expect(rec(await s.tokenPrincipal('d-4'))).toBeUndefined();
      expect(rec(await s.tokenOwner('d-4'))).toBeUndefined();

      // A read under way while the cache is dropped is answered but not kept: it may have seen the old row.
      const reading = s.tokenPrincipal('d-1');
      invalidatePrincipals(t.e.database);
      expect(rec(await reading)?.user_id).toBe('u-1');
      expect(s.cachedPrincipal('d-1')).toBeUndefined();
      await s.tokenPrincipal('d-1');
      expect(s.cachedPrincipal('d-1')?.user_id).toBe('u-1');
      s.invalidatePrincipals();
      expect(s.cachedPrincipal('d-1')).toBeUndefined();

      // Disabling and enabling a user.
      await s.tokenPrincipal('d-3');
      expect(rec(await s.disableUser('w-a', 'u-2', T1))).toBe(false); // another clinic's user
      expect(s.cachedPrincipal('d-3')).toBeDefined();
      expect(rec(await s.disableUser('w-z', 'u-2', T1))).toBe(true);
      expect(s.cachedPrincipal('d-3')).toBeUndefined();
      expect(rec(await s.disableUser('w-z', 'u-2', T2))).toBe(false);
      expect(rec(await s.tokenPrincipal('d-3'))).toBeUndefined();
      expect(rec(await s.user('u-2'))?.disabled_at).toBe(T1);
      expect(rec(await s.enableUser('w-a', 'u-2'))).toBe(false);
      expect(rec(await s.enableUser('w-z', 'u-2'))).toBe(true);
      expect(rec(await s.enableUser('w-z', 'u-2'))).toBe(false);
      expect(rec(await s.tokenPrincipal('d-3'))?.user_id).toBe('u-2');

      // Disabling a workspace drops the cache; the principal then says so.
      await s.tokenPrincipal('d-3');
      expect(rec(await s.disableWorkspace('w-z', T2))).toBe(true);
      expect(s.cachedPrincipal('d-3')).toBeUndefined();
      expect(rec(await s.tokenPrincipal('d-3'))?.workspace_disabled_at).toBe(T2);
    });

    it("revokeUserTokens keeps the one named (or none), in a transaction rolled back or committed", async () => {
      const s = authStore(t.e);
      await s.insertToken(token('t-7', 'w-a', 'u-9', 'd-7'));
      await s.insertToken(token('t-8', 'w-a', 'u-9', 'd-8'));
      await s.insertToken(token('t-9', 'w-a', 'u-9', 'd-9'));
      await s.tokenPrincipal('d-7');
      // Rolled back: nothing revoked, though the cache was dropped (harmless).
      await expect(transaction(t.e, async (tx) => {
        expect(rec(await authStore(tx).revokeUserTokens('u-9', T1, 'd-8'))).toBe(true);
        expect(rec(await authStore(tx).tokenOwner('d-7'))).toBeUndefined();
        throw new Error('changed my mind');
      })).rejects.toThrow('changed my mind');
      expect(s.cachedPrincipal('d-7')).toBeUndefined();
      expect(rec(await s.tokenOwner('d-7'))).toBe('u-9');

      await s.tokenPrincipal('d-7');
      await transaction(t.e, async (tx) => {
        expect(rec(await authStore(tx).setPasswordHash('u-9', 'hash-2'))).toBe(true);
        expect(rec(await authStore(tx).revokeUserTokens('u-9', T1, 'd-8'))).toBe(true);
        // Cleared at once, through the transaction's store.
        expect(s.cachedPrincipal('d-7')).toBeUndefined();
      });
      expect(rec(await s.tokenOwner('d-7'))).toBeUndefined();
      expect(rec(await s.tokenOwner('d-8'))).toBe('u-9');
      expect(rec(await s.tokenOwner('d-9'))).toBeUndefined();
      expect(rec(await s.user('u-9'))?.password_hash).toBe('hash-2');
      expect(rec(await s.revokeUserTokens('u-9', T2, 'd-8'))).toBe(false);
      // null: every token, the one revoked before keeps its time.
      await s.tokenPrincipal('d-8');
      expect(rec(await s.revokeUserTokens('u-9', T2, null))).toBe(true);
      expect(s.cachedPrincipal('d-8')).toBeUndefined();
      expect(rec(await s.tokenOwner('d-8'))).toBeUndefined();
      expect(rec(await s.revokeUserTokens('u-9', T3, null))).toBe(false);
    });

    it('API keys and clients: workspace by key, lists newest first without secrets, revocation per clinic', async () => {
      const s = authStore(t.e);
      await s.insertApiKey({ id: 'k-1', workspace_id: 'w-z', key_digest: 'kd-1', label: 'front desk', created_at: T0 });
      await s.insertApiKey({ id: 'k-3', workspace_id: 'w-z', key_digest: 'kd-3', label: 'lab', created_at: T1 });
      await s.insertApiKey({ id: 'k-2', workspace_id: 'w-z', key_digest: 'kd-2', label: 'pharmacy', created_at: T1 });
      expect(rec(await kindOf(s.insertApiKey({ id: 'k-4', workspace_id: 'w-z', key_digest: 'kd-1', label: 'x', created_at: T1 })))).toBe('unique');
      expect(rec(await s.apiKeyWorkspace('kd-2'))).toBe('w-z');
      expect(rec(await s.apiKeyWorkspace('unknown'))).toBeUndefined();
      expect(rec(await s.apiKeysOf('w-z'))).toEqual([
        { id: 'k-2', label: 'pharmacy', created_at: T1, revoked_at: null },
        { id: 'k-3', label: 'lab', created_at: T1, revoked_at: null },
        { id: 'k-1', label: 'front desk', created_at: T0, revoked_at: null },
      ]);
      expect(rec(await s.revokeApiKey('w-a', 'k-2', T2))).toBe(false);
      expect(rec(await s.revokeApiKey('w-z', 'k-2', T2))).toBe(true);
      expect(rec(await s.revokeApiKey('w-z', 'k-2', T3))).toBe(false);
      expect(rec(await s.apiKeyWorkspace('kd-2'))).toBeUndefined();
      expect(rec(await s.apiKeysOf('w-z'))[0]).toEqual({ id: 'k-2', label: 'pharmacy', created_at: T1, revoked_at: T2 });

      const client = (id: string, clientId: string, created: string) =>
        ({ id, workspace_id: 'w-z', client_id: clientId, secret_hash: `sh-${id}`, name: `Client ${id}`, scopes: '["patients:read"]', created_at: created });
      await s.insertClient(client('c-1', 'cdc_1', T0));
      await s.insertClient(client('c-3', 'cdc_3', T1));
      await s.insertClient(client('c-2', 'cdc_2', T1));
      expect(rec(await kindOf(s.insertClient(client('c-4', 'cdc_1', T1))))).toBe('unique');
      expect(rec(await s.client('cdc_3'))).toEqual({ ...client('c-3', 'cdc_3', T1), revoked_at: null });
      expect(rec(await s.client('unknown'))).toBeUndefined();
      expect(rec(await s.clientsOf('w-z')).map((c) => c.client_id)).toEqual(['cdc_2', 'cdc_3', 'cdc_1']);
      expect(Object.keys(rec(await s.clientsOf('w-z'))[0]!)).toEqual(['client_id', 'name', 'scopes', 'created_at', 'revoked_at']);
      expect(rec(await s.revokeClient('w-a', 'cdc_2', T2))).toBe(false);
      expect(rec(await s.revokeClient('w-z', 'cdc_2', T2))).toBe(true);
      expect(rec(await s.revokeClient('w-z', 'cdc_2', T3))).toBe(false);
      expect(rec(await s.client('cdc_2'))?.revoked_at).toBe(T2);
      expect(rec(await s.clientsOf('w-a'))).toEqual([]);
    });

    it('signing keys and refresh tokens', async () => {
      const s = tokenStore(t.e);
      const key = (kid: string, created: string) => ({ kid, alg: 'ES256', public_jwk: `{"kid":"${kid}"}`, private_jwk_sealed: `sealed-${kid}`, created_at: created });
      expect(rec(await s.activeKey())).toBeUndefined();
      await s.insertKey(key('k-old', T0));
      expect(rec(await s.activeKey())).toEqual({ ...key('k-old', T0), retired_at: null });
      await transaction(t.e, async (tx) => {
        const inTx = tokenStore(tx);
        await inTx.insertKey(key('k-new', T1));
        await inTx.retireOthers('k-new', T1);
      });
      expect(rec(await s.activeKey())?.kid).toBe('k-new');
      expect(rec(await s.key('k-old'))).toEqual({ ...key('k-old', T0), retired_at: T1 });
      expect(rec(await s.key('nope'))).toBeUndefined();
      expect(rec(await s.verifyingKeys(T0)).map((k) => k.kid)).toEqual(['k-new', 'k-old']);
      expect(rec(await s.verifyingKeys(T1)).map((k) => k.kid)).toEqual(['k-new']);
      // A rotation rolled back leaves the keys as they were.
      await expect(transaction(t.e, async (tx) => {
        await tokenStore(tx).insertKey(key('k-lost', T2));
        await tokenStore(tx).retireOthers('k-lost', T2);
        throw new Error('sealing failed');
      })).rejects.toThrow('sealing failed');
      expect(rec(await s.activeKey())?.kid).toBe('k-new');
      expect(rec(await kindOf(s.insertKey(key('k-new', T2))))).toBe('unique');

      const refresh = (id: string, family: string, digest: string, clientId = 'cdc_1') =>
        ({ id, family_id: family, token_digest: digest, client_id: clientId, workspace_id: 'w-z', scopes: '["patients:read"]', created_at: T0, expires_at: T3 });
      await s.insertRefresh(refresh('r-1', 'f-1', 'rd-1'));
      await s.insertRefresh(refresh('r-2', 'f-1', 'rd-2'));
      await s.insertRefresh(refresh('r-3', 'f-1', 'rd-3'));
      await s.insertRefresh(refresh('r-4', 'f-2', 'rd-4'));
      expect(rec(await kindOf(s.insertRefresh(refresh('r-5', 'f-3', 'rd-5', 'cdc_none'))))).toBe('foreign_key');
      expect(rec(await kindOf(s.insertRefresh(refresh('r-6', 'f-3', 'rd-1'))))).toBe('unique');
      expect(rec(await s.refresh('rd-1'))).toEqual({ ...refresh('r-1', 'f-1', 'rd-1'), rotated_at: null, revoked_at: null });
      expect(rec(await s.refresh('unknown'))).toBeUndefined();
      expect(rec(await s.rotate('r-1', T1))).toBe(true);
      expect(rec(await s.rotate('r-1', T2))).toBe(false);
      expect(rec(await s.refresh('rd-1'))?.rotated_at).toBe(T1);
      expect(rec(await s.revokeFamily('f-1', T2))).toBe(3);
      expect(rec(await s.revokeFamily('f-1', T3))).toBe(0);
      expect(rec(await s.rotate('r-2', T2))).toBe(false);
      expect(rec(await s.refresh('rd-4'))?.revoked_at).toBeNull();
      expect(rec(await s.refresh('rd-3'))?.revoked_at).toBe(T2);
    });

    it('settings: JSON values by name per clinic, replaced in place, inside transactions too', async () => {
      const s = settingsStore(t.e);
      expect(rec(await s.get('w-z', 'default_speech_model'))).toBeUndefined();
      await s.set({ workspace_id: 'w-z', name: 'default_speech_model', value: 'whisper-small', updated_at: T0, updated_by: 'u-0' });
      await s.set({ workspace_id: 'w-a', name: 'default_speech_model', value: { id: 'x', n: 2, on: true, list: [1, null] }, updated_at: T0, updated_by: null });
      expect(rec(await s.get('w-z', 'default_speech_model'))).toBe('whisper-small');
      expect(rec(await s.get('w-a', 'default_speech_model'))).toEqual({ id: 'x', n: 2, on: true, list: [1, null] });
      await s.set({ workspace_id: 'w-z', name: 'default_speech_model', value: null, updated_at: T1, updated_by: 'u-1' });
      expect(rec(await s.get('w-z', 'default_speech_model'))).toBeNull();
      await expect(transaction(t.e, async (tx) => {
        await settingsStore(tx).set({ workspace_id: 'w-z', name: 'default_speech_model', value: 'rolled back', updated_at: T2, updated_by: 'u-1' });
        expect(await settingsStore(tx).get('w-z', 'default_speech_model')).toBe('rolled back');
        throw new Error('no');
      })).rejects.toThrow('no');
      expect(rec(await s.get('w-z', 'default_speech_model'))).toBeNull();
      await transaction(t.e, (tx) => settingsStore(tx).set({ workspace_id: 'w-z', name: 'other', value: [3, 2, 1], updated_at: T2, updated_by: 'u-1' }));
      expect(rec(await s.get('w-z', 'other'))).toEqual([3, 2, 1]);
      expect(rec(await kindOf(s.set({ workspace_id: 'w-none', name: 'x', value: 1, updated_at: T2, updated_by: null })))).toBe('foreign_key');
    });
  });
}

describe('auth store: both databases answered alike', () => {
  it('read the same rows, in the same order, with the same errors', (ctx) => {
    const [sqlite, postgres] = [transcripts.get('sqlite'), transcripts.get('postgres')];
    if (!sqlite || !postgres) return ctx.skip('needs both databases');
    expect(postgres.length).toBeGreaterThan(100);
    expect(postgres).toEqual(sqlite);
  });
});
