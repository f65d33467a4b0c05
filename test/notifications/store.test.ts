import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSql } from '../../server/db/migrate-sql.js';
import { dbErrorKind, openSql } from '../../server/db/sql.js';
import { type Executor, rootExecutor, transaction } from '../../server/db/tx.js';
import type { FcmAccount, FcmClient, SendOutcome } from '../../server/notifications/fcm.js';
import { pushSender } from '../../server/notifications/sender.js';
import { type CredentialsRow, type DeviceRow, type JobRow, notificationStore } from '../../server/notifications/store.js';
import type { Clock } from '../../server/shared/time.js';
import { type TestExecutor, openTestExecutor } from '../helpers/executor.js';
import { DATABASES, type TestDatabase, freshPostgresDatabase } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

// The notifications store written once for both databases (issue 17): every method, the same inputs giving the same
// rows on SQLite and PostgreSQL, in the same order, with the same constraint errors and transactions; the push
// sender's claim (SKIP LOCKED candidates, then a compare-and-set lease) taking each job once with two claimers, on
// PostgreSQL through two executors (two pools, as two instances) on one database. Each suite records what it read;
// the last test compares the two records whole.
const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-01T00:00:05.000Z';
const T2 = '2030-01-01T00:05:00.000Z';
const T3 = '2030-01-01T01:00:00.000Z';
const T4 = '2030-01-02T00:00:00.000Z';

const creds = (ws: string, id: string, at: string, more: Partial<CredentialsRow> = {}): CredentialsRow => ({
  workspace_id: ws, id, project_id: `project-${id}`, client_email: `push@${id}.example`, client_id: null, private_key_id: `key-${id}`,
  private_key_sealed: `sealed-${id}`, token_uri: 'https://oauth2.googleapis.com/token', auth_uri: null, auth_provider_x509_cert_url: null,
  client_x509_cert_url: null, universe_domain: 'googleapis.com', created_at: at, updated_at: at, ...more,
});

const device = (id: string, ws: string, ownerType: 'user' | 'client', ownerId: string, did: string, token: string, at: string,
  more: Partial<DeviceRow> = {}): DeviceRow => ({
  id, workspace_id: ws, owner_type: ownerType, owner_id: ownerId, device_id: did, fcm_token: token, app_version: '1.0.0',
  platform: 'android', created_at: at, updated_at: at, ...more,
});

const newJob = (id: string, ws: string, deviceRowId: string, created: string, next: string) => ({
  id, workspace_id: ws, device_row_id: deviceRowId, title: `title ${id}`, body: `body ${id}`, data: `{"job":"${id}"}`,
  next_attempt_at: next, created_at: created,
});
/** A job as insertJob stores it. */
const pending = (j: ReturnType<typeof newJob>, more: Partial<JobRow> = {}): JobRow => ({
  ...j, status: 'pending', attempts: 0, lease_until: null, last_error: null, fcm_message_id: null, updated_at: j.created_at,
  finished_at: null, ...more,
});

/** What a failed promise's database error was, whichever the database. */
async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return dbErrorKind(e);
  }
  return 'no error';
}

/** `p`, or a failure after `ms`: a claim that waits on another's row locks instead of skipping them shows here. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms))]);
}

async function addWorkspaces(e: Executor, ids: string[]) {
  for (const ws of ids) {
    await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES (${ws}, ${ws}, 'IN', 'Asia/Kolkata', ${T0})`.execute(e.k);
  }
}

/**
 * Two claimers on one database. PostgreSQL: two pools on one fresh database, as two instances have. SQLite: the one
 * executor twice, which is what a SQLite service has (one process, one connection).
 */
async function twoClaimers(db: TestDatabase, label: string): Promise<{ a: Executor; b: Executor; close(): Promise<void> }> {
  if (db.name === 'sqlite') {
    const t = await openTestExecutor(db, label);
    return { a: t.e, b: t.e, close: () => t.close() };
  }
  const pg = await freshPostgresDatabase(label);
  const one = openSql({ postgresUrl: pg.url });
  const two = openSql({ postgresUrl: pg.url });
  await migrateSql(one);
  return {
    a: rootExecutor(one, null),
    b: rootExecutor(two, null),
    async close() {
      await one.close();
      await two.close();
      await pg.drop();
    },
  };
}

const transcripts = new Map<string, unknown[]>();

for (const db of DATABASES) {
  describe(`notifications store (${db.name})`, skipFor(db.skip), () => {
    let t: TestExecutor;
    const seen: unknown[] = [];
    /** Records what a read answered, for the comparison of the two databases at the end. */
    const rec = <T>(v: T): T => (seen.push(structuredClone(v)), v);
    beforeAll(async () => {
      t = await openTestExecutor(db, 'store-notifications');
      await addWorkspaces(t.e, ['w1', 'w2', 'w3']);
    });
    afterAll(async () => {
      transcripts.set(db.name, seen);
      await t?.close();
    });

    it('credentials: one set per workspace, replaced in place (created_at kept), deleted; constraint errors', async () => {
      const store = notificationStore(t.e);
      expect(await store.credentials('w1')).toBeUndefined();
      const first = creds('w1', 'c1', T0);
      await store.upsertCredentials(first);
      expect(rec(await store.credentials('w1'))).toEqual(first);
      const second = creds('w1', 'c2', T1, { client_id: '1234567890', auth_uri: 'https://accounts.google.com/o/oauth2/auth' });
      await store.upsertCredentials(second);
      expect(rec(await store.credentials('w1'))).toEqual({ ...second, created_at: T0 });
      expect(await store.credentials('w2')).toBeUndefined();

      expect(await kindOf(store.upsertCredentials(creds('w2', 'c2', T1)))).toBe('unique'); // id is unique across workspaces
      expect(await kindOf(store.upsertCredentials(creds('nope', 'c9', T1)))).toBe('foreign_key');
      expect(await kindOf(store.upsertCredentials(creds('w2', 'c9', T1, { private_key_sealed: null as unknown as string })))).toBe('not_null');
      expect(await store.credentials('w2')).toBeUndefined();

      await store.upsertCredentials(creds('w2', 'c3', T1));
      expect(await store.deleteCredentials('w3')).toBe(false);
      expect(await store.deleteCredentials('w2')).toBe(true);
      expect(await store.deleteCredentials('w2')).toBe(false);
      expect(await store.credentials('w2')).toBeUndefined();
      expect(rec(await store.credentials('w1'))).toEqual({ ...second, created_at: T0 });
    });

    it('devices: upsert by (workspace, owner, did) returning the stored row, lists newest first, tokens, deletes', async () => {
      const store = notificationStore(t.e);
      const dA = device('dev-a', 'w1', 'user', 'u1', 'did-a', 'tok-1', T0);
      const dC = device('dev-c', 'w1', 'user', 'u1', 'did-c', 'tok-3', T1);
      const dB = device('dev-b', 'w1', 'user', 'u1', 'did-b', 'tok-2', T1, { platform: null });
      expect(rec(await store.upsertDevice(dA))).toEqual(dA);
      expect(rec(await store.upsertDevice(dC))).toEqual(dC);
      expect(rec(await store.upsertDevice(dB))).toEqual(dB);
      expect(rec(await store.devicesOf('w1', 'user', 'u1'))).toEqual([dB, dC, dA]); // updated_at DESC, then id

      // The same did again: the row keeps its id and created_at, takes the new token, version and platform.
      const again = device('dev-new', 'w1', 'user', 'u1', 'did-a', 'tok-9', T2, { app_version: '2.0.0', platform: 'ios', created_at: T2 });
      const dA2 = { ...dA, fcm_token: 'tok-9', app_version: '2.0.0', platform: 'ios', updated_at: T2 };
      expect(rec(await store.upsertDevice(again))).toEqual(dA2);
      expect(rec(await store.devicesOf('w1', 'user', 'u1'))).toEqual([dA2, dB, dC]);
      expect(await store.device('dev-new')).toBeUndefined();

      const client = device('dev-k', 'w1', 'client', 'u1', 'did-a', 'tok-2', T2);
      const otherWs = device('dev-w2', 'w2', 'user', 'u1', 'did-a', 'tok-2', T2);
      await store.upsertDevice(client);
      await store.upsertDevice(otherWs);
      expect(rec(await store.devicesOf('w1', 'client', 'u1'))).toEqual([client]);
      expect(rec(await store.devicesOf('w2', 'user', 'u1'))).toEqual([otherWs]);
      expect(await store.devicesOf('w3', 'user', 'u1')).toEqual([]);
      expect(rec(await store.ownDevice('w1', 'user', 'u1', 'did-a'))).toEqual(dA2);
      expect(rec(await store.ownDevice('w1', 'client', 'u1', 'did-a'))).toEqual(client);
      expect(await store.ownDevice('w2', 'client', 'u1', 'did-a')).toBeUndefined();
      expect(await store.ownDevice('w1', 'user', 'u2', 'did-a')).toBeUndefined();
      expect(rec(await store.device('dev-b'))).toEqual(dB);
      expect(await store.device('nope')).toBeUndefined();

      // The token tok-2 is on dev-b and dev-k in w1 (and dev-w2 in another workspace, which does not count).
      expect(rec(await store.otherDevicesWithToken('w1', 'tok-2', 'dev-k'))).toEqual(['dev-b']);
      expect(rec(await store.otherDevicesWithToken('w1', 'tok-2', 'dev-x'))).toEqual(['dev-b', 'dev-k']);
      expect(await store.otherDevicesWithToken('w1', 'tok-3', 'dev-c')).toEqual([]);

      expect(await kindOf(store.upsertDevice(device('dev-b', 'w1', 'user', 'u1', 'did-z', 'tok-5', T2)))).toBe('unique'); // primary key
      expect(await kindOf(store.upsertDevice(device('dev-r', 'w1', 'robot' as 'user', 'u1', 'did-r', 'tok-5', T2)))).toBe('check');
      expect(await kindOf(store.upsertDevice(device('dev-n', 'nope', 'user', 'u1', 'did-n', 'tok-5', T2)))).toBe('foreign_key');
      expect(await kindOf(store.upsertDevice(device('dev-t', 'w1', 'user', 'u1', 'did-t', null as unknown as string, T2)))).toBe('not_null');

      expect(await store.deleteDeviceIfToken('dev-a', 'tok-1')).toBe(false); // it re-registered with tok-9
      expect(rec(await store.device('dev-a'))).toEqual(dA2);
      expect(await store.deleteDeviceIfToken('dev-a', 'tok-9')).toBe(true);
      expect(await store.deleteDeviceIfToken('dev-a', 'tok-9')).toBe(false);
      expect(await store.deleteDevice('dev-c')).toBe(true);
      expect(await store.deleteDevice('dev-c')).toBe(false);
      expect(rec(await store.devicesOf('w1', 'user', 'u1'))).toEqual([dB]);
    });

    it('jobs: due by time then id, leases compare-and-set, finish, retry, cancel, newest first, prune', async () => {
      const store = notificationStore(t.e);
      const j3 = newJob('j-3', 'w1', 'dev-b', T0, T0);
      const jw = newJob('j-w2', 'w2', 'dev-w2', T0, T0);
      const j1 = newJob('j-1', 'w1', 'dev-b', T1, T1);
      const j2 = newJob('j-2', 'w1', 'dev-k', T1, T1);
      const j4 = newJob('j-4', 'w1', 'dev-b', T1, T3);
      for (const j of [j4, j2, j1, jw, j3]) await store.insertJob(j);
      expect(await kindOf(store.insertJob(j1))).toBe('unique');
      expect(await kindOf(store.insertJob(newJob('j-n', 'nope', 'dev-b', T0, T0)))).toBe('foreign_key');
      expect(await kindOf(store.insertJob({ ...newJob('j-t', 'w1', 'dev-b', T0, T0), title: null as unknown as string }))).toBe('not_null');

      expect(rec(await store.due(T2, 10))).toEqual([pending(j3), pending(jw), pending(j1), pending(j2)]);
      expect(rec(await store.due(T0, 10))).toEqual([pending(j3), pending(jw)]);
      expect(rec(await store.due(T2, 3, { skipLocked: true }))).toEqual([pending(j3), pending(jw), pending(j1)]); // outside a transaction: no lock kept
      expect(rec(await store.job('j-3'))).toEqual(pending(j3));
      expect(await store.job('nope')).toBeUndefined();

      // A lease: taken once, the attempt counted; not again while it runs; again once it ran out.
      expect(await store.lease('j-3', T1, T2)).toBe(true);
      expect(await store.lease('j-3', T1, T3)).toBe(false);
      expect(rec(await store.job('j-3'))).toEqual(pending(j3, { attempts: 1, lease_until: T2, updated_at: T1 }));
      expect(rec(await store.due(T1, 10))).toEqual([pending(jw), pending(j1), pending(j2)]);
      expect(await store.lease('j-3', T2, T3)).toBe(true); // lease_until <= now: ran out
      expect(rec(await store.job('j-3'))).toEqual(pending(j3, { attempts: 2, lease_until: T3, updated_at: T2 }));
      expect(await store.lease('nope', T2, T3)).toBe(false);

      expect(rec([...(await store.leaseAll(['j-1', 'j-3', 'j-2', 'nope', 'j-1'], T2, T3))].sort())).toEqual(['j-1', 'j-2']);
      expect(await store.leaseAll([], T2, T3)).toEqual(new Set());
      expect(rec(await store.due(T2, 10))).toEqual([pending(jw)]);

      // Retry gives the job back at a later time; finish ends it (an earlier error kept when none is given).
      await store.retry('j-1', T2, T3, 'HTTP 500');
      expect(rec(await store.job('j-1'))).toEqual(pending(j1, { attempts: 1, next_attempt_at: T3, last_error: 'HTTP 500', updated_at: T2 }));
      await store.finish('j-1', 'failed', T3, null, null);
      const j1Done = { ...pending(j1), status: 'failed', attempts: 1, next_attempt_at: T3, last_error: 'HTTP 500', updated_at: T3, finished_at: T3 };
      expect(rec(await store.job('j-1'))).toEqual(j1Done);
      await store.finish('j-2', 'sent', T2, null, 'projects/p/messages/1');
      const j2Done = { ...pending(j2), status: 'sent', attempts: 1, fcm_message_id: 'projects/p/messages/1', updated_at: T2, finished_at: T2 };
      expect(rec(await store.job('j-2'))).toEqual(j2Done);
      // Only a pending job moves: neither finish nor retry touches a finished one.
      await store.finish('j-2', 'failed', T4, 'late', null);
      await store.retry('j-2', T4, T4, 'late');
      expect(await store.job('j-2')).toEqual(j2Done);
      expect(await store.lease('j-2', T4, T4)).toBe(false);

      expect(await store.cancelForDevice('dev-b', T3, 'device removed')).toBe(2); // j-3 (leased) and j-4; j-1 is finished
      expect(await store.cancelForDevice('dev-b', T3, 'device removed')).toBe(0);
      expect(rec(await store.job('j-4'))).toEqual({ ...pending(j4), status: 'cancelled', last_error: 'device removed', updated_at: T3, finished_at: T3 });
      expect(rec(await store.job('j-3'))).toEqual({
        ...pending(j3), status: 'cancelled', attempts: 2, last_error: 'device removed', updated_at: T3, finished_at: T3,
      });
      expect(await store.cancelForWorkspace('w3', T3, 'FCM credentials deleted')).toBe(0);
      expect(await store.cancelForWorkspace('w2', T4, 'FCM credentials deleted')).toBe(1);
      expect(await store.due(T4, 10)).toEqual([]);

      // Newest first: created_at DESC, then id DESC.
      expect(rec((await store.jobs('w1', 10)).map((j) => j.id))).toEqual(['j-4', 'j-2', 'j-1', 'j-3']);
      expect(rec(await store.jobs('w1', 2))).toEqual([await store.job('j-4'), j2Done]);
      expect(await store.jobs('w3', 10)).toEqual([]);

      // Finished before T3: j-2 (T2) only; j-1, j-3, j-4 finished at T3, j-w2 at T4.
      expect(await store.prune(T3)).toBe(1);
      expect(await store.job('j-2')).toBeUndefined();
      expect(await store.prune(T3)).toBe(0);
      expect(await store.prune('2031-01-01T00:00:00.000Z')).toBe(4);
      expect(await store.jobs('w1', 10)).toEqual([]);
      expect(await store.jobs('w2', 10)).toEqual([]);
    });

    it('claimDue: the due jobs leased in one go, answered as they were before the lease; held ones are not due', async () => {
      const store = notificationStore(t.e);
      const jobs = ['k-5', 'k-1', 'k-4', 'k-2', 'k-3'].map((id) => newJob(id, 'w3', 'dev-z', T0, T1));
      for (const j of jobs) await store.insertJob(j);
      const byId = (id: string) => pending(jobs.find((j) => j.id === id)!);
      expect(rec(await store.claimDue(T2, T3, 3))).toEqual({ due: 3, claimed: [byId('k-1'), byId('k-2'), byId('k-3')] });
      expect(rec(await store.claimDue(T2, T3, 3))).toEqual({ due: 2, claimed: [byId('k-4'), byId('k-5')] });
      expect(await store.claimDue(T2, T3, 3)).toEqual({ due: 0, claimed: [] });
      expect(rec((await store.jobs('w3', 10)).map((j) => [j.id, j.attempts, j.lease_until]))).toEqual(
        ['k-5', 'k-4', 'k-3', 'k-2', 'k-1'].map((id) => [id, 1, T3]));
      // Once the leases ran out, the jobs are claimed again: a second attempt.
      const again = await store.claimDue(T3, T4, 10);
      expect(rec(again)).toEqual({ due: 5, claimed: ['k-1', 'k-2', 'k-3', 'k-4', 'k-5'].map((id) => ({ ...byId(id), attempts: 1, lease_until: T3, updated_at: T2 })) });
      await store.cancelForWorkspace('w3', T4, 'done');
    });

    it('transactions: a store made from the transaction writes inside it; a rollback or a failed savepoint undoes its part', async () => {
      const store = notificationStore(t.e);
      await expect(transaction(t.e, async (tx) => {
        const inTx = notificationStore(tx);
        await inTx.upsertDevice(device('dev-tx', 'w3', 'user', 'u9', 'did-tx', 'tok-tx', T0));
        await inTx.insertJob(newJob('t-1', 'w3', 'dev-tx', T0, T0));
        expect((await inTx.devicesOf('w3', 'user', 'u9')).map((d) => d.id)).toEqual(['dev-tx']);
        throw new Error('undo');
      })).rejects.toThrow('undo');
      expect(await store.devicesOf('w3', 'user', 'u9')).toEqual([]);
      expect(await store.job('t-1')).toBeUndefined();

      // As enqueueIn does: the outer change commits, a savepoint that failed (a duplicate job) leaves nothing.
      await transaction(t.e, async (tx) => {
        const inTx = notificationStore(tx);
        await inTx.insertJob(newJob('t-2', 'w3', 'dev-tx', T0, T0));
        await expect(transaction(tx, async (sp) => {
          await notificationStore(sp).insertJob(newJob('t-3', 'w3', 'dev-tx', T0, T0));
          await notificationStore(sp).insertJob(newJob('t-2', 'w3', 'dev-tx', T0, T0));
        })).rejects.toSatisfy((e) => dbErrorKind(e) === 'unique');
        // claimDue inside a transaction runs in a savepoint of it.
        expect((await inTx.claimDue(T1, T2, 10)).claimed.map((j) => j.id)).toEqual(['t-2']);
      });
      expect(rec(await store.job('t-2'))).toEqual(pending(newJob('t-2', 'w3', 'dev-tx', T0, T0), { attempts: 1, lease_until: T2, updated_at: T1 }));
      expect(await store.job('t-3')).toBeUndefined();
      await store.cancelForWorkspace('w3', T4, 'done');
    });

    it('two claimers on one database (PostgreSQL: two instances) claim disjoint jobs, each claim getting all it saw', async () => {
      const two = await twoClaimers(db, 'store-notifications-claim');
      try {
        await addWorkspaces(two.a, ['w1']);
        const ids = Array.from({ length: 240 }, (_, n) => `q-${String(n).padStart(3, '0')}`);
        await transaction(two.a, async (tx) => {
          for (const id of ids) await notificationStore(tx).insertJob(newJob(id, 'w1', 'dev-q', T0, T0));
        });
        const got = new Map<string, number>();
        const unfought: boolean[] = [];
        const claimer = async (e: Executor) => {
          const store = notificationStore(e);
          for (;;) {
            const { due, claimed } = await store.claimDue(T1, T2, 7);
            unfought.push(claimed.length === due);
            for (const j of claimed) got.set(j.id, (got.get(j.id) ?? 0) + 1);
            if (due === 0) return;
          }
        };
        await within(Promise.all([two.a, two.b, two.a, two.b, two.a, two.b].map(claimer)), 30_000, 'the claims');
        expect([...got.keys()].sort()).toEqual(ids);
        expect([...got.values()].every((n) => n === 1)).toBe(true);
        // With SKIP LOCKED no claim saw a job another was taking; on SQLite claims run one at a time.
        expect(unfought.every(Boolean)).toBe(true);
        expect(Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM push_jobs WHERE attempts = 1 AND lease_until = ${T2}`.execute(two.b.k)).rows[0]!.n)).toBe(240);
      } finally {
        await two.close();
      }
    });

    it('PostgreSQL: a claim held open in one instance\'s transaction is skipped by the other\'s, not waited for', skipFor(db.name === 'postgres' ? null : 'row locks (SKIP LOCKED) are PostgreSQL\'s; SQLite has one writer at a time'), async () => {
      const two = await twoClaimers(db, 'store-notifications-skip');
      try {
        await addWorkspaces(two.a, ['w1']);
        for (const n of [1, 2, 3, 4, 5, 6]) await notificationStore(two.a).insertJob(newJob(`s-${n}`, 'w1', 'dev-s', T0, T0));
        await transaction(two.a, async (tx) => {
          const mine = await notificationStore(tx).claimDue(T1, T2, 3);
          expect(mine.claimed.map((j) => j.id)).toEqual(['s-1', 's-2', 's-3']);
          // Instance B, while A's claim is not committed: A's rows are locked, and skipped.
          const theirs = await within(notificationStore(two.b).claimDue(T1, T2, 10), 5_000, 'B\'s claim');
          expect(theirs).toMatchObject({ due: 3 });
          expect(theirs.claimed.map((j) => j.id)).toEqual(['s-4', 's-5', 's-6']);
        });
        expect(await notificationStore(two.b).claimDue(T1, T2, 10)).toEqual({ due: 0, claimed: [] });
        // A claim that is rolled back gives its jobs back at once.
        await notificationStore(two.a).cancelForWorkspace('w1', T1, 'reset');
        await notificationStore(two.a).insertJob(newJob('s-7', 'w1', 'dev-s', T0, T0));
        await expect(transaction(two.a, async (tx) => {
          expect((await notificationStore(tx).claimDue(T1, T2, 10)).claimed.map((j) => j.id)).toEqual(['s-7']);
          expect((await within(notificationStore(two.b).due(T1, 10, { skipLocked: true }), 5_000, 'B\'s look')).map((j) => j.id)).toEqual([]);
          throw new Error('crash');
        })).rejects.toThrow('crash');
        expect((await notificationStore(two.b).claimDue(T1, T2, 10)).claimed.map((j) => j.id)).toEqual(['s-7']);
      } finally {
        await two.close();
      }
    });

    it('two push senders on one database (PostgreSQL: two instances) send every push once', async () => {
      const two = await twoClaimers(db, 'store-notifications-send');
      const sends = new Map<string, string[]>();
      const clock: Clock = { now: () => new Date(T1) };
      const sender = (e: Executor, name: string) => {
        const fcm = {
          async send(_account: FcmAccount, push: { data: Record<string, string> }): Promise<SendOutcome> {
            await new Promise((r) => setTimeout(r, 1));
            sends.set(push.data.job!, [...(sends.get(push.data.job!) ?? []), name]);
            return { kind: 'sent', messageId: `projects/p/messages/${push.data.job}` };
          },
        } as unknown as FcmClient;
        return pushSender({ db: e, store: notificationStore(e), clock, fcm, account: async () => ({}) as FcmAccount },
          { batchSize: 5, concurrency: 3, onError: (err) => { throw err; } });
      };
      try {
        await addWorkspaces(two.a, ['w1']);
        const store = notificationStore(two.a);
        await store.upsertDevice(device('dev-p', 'w1', 'user', 'u1', 'did-p', 'tok-p', T0));
        const ids = Array.from({ length: 60 }, (_, n) => `p-${String(n).padStart(2, '0')}`);
        await transaction(two.a, async (tx) => {
          for (const id of ids) await notificationStore(tx).insertJob(newJob(id, 'w1', 'dev-p', T0, T0));
        });
        const [a, b] = [sender(two.a, 'a'), sender(two.b, 'b')];
        // Each runOnce works through up to 20 batches; two rounds each are more than enough for 60 jobs.
        await within(Promise.all([a.runOnce(), b.runOnce()]).then(() => Promise.all([a.runOnce(), b.runOnce()])), 30_000, 'the senders');
        expect([...sends.keys()].sort()).toEqual(ids);
        expect([...sends.values()].every((by) => by.length === 1)).toBe(true);
        const rows = await store.jobs('w1', 100);
        expect(rows).toHaveLength(60);
        for (const r of rows) {
          expect(r).toMatchObject({ status: 'sent', attempts: 1, lease_until: null, finished_at: T1, fcm_message_id: `projects/p/messages/${r.id}` });
        }
        if (db.name === 'postgres') expect(new Set([...sends.values()].flat())).toEqual(new Set(['a', 'b']));
      } finally {
        await two.close();
      }
    });
  });
}

describe('notifications store: SQLite and PostgreSQL read the same', skipFor(DATABASES.find((d) => d.skip)?.skip), () => {
  it('every recorded read is deep-equal across the two databases', () => {
    const sqlite = transcripts.get('sqlite');
    const postgres = transcripts.get('postgres');
    expect(sqlite?.length).toBeGreaterThan(30);
    expect(postgres).toEqual(sqlite);
  });
});
