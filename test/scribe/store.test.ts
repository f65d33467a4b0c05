import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSql } from '../../server/db/migrate-sql.js';
import { type SqlDatabase, dbErrorKind, openSql } from '../../server/db/sql.js';
import { type Executor, rootExecutor, transaction } from '../../server/db/tx.js';
import type { LaunchWorker, WorkerProcess } from '../../server/scribe/pipeline/runner.js';
import { scribeRunner } from '../../server/scribe/pipeline/runner.js';
import { type FileRow, type SessionRow, scribeStore } from '../../server/scribe/store.js';
import { type TestExecutor, openTestExecutor } from '../helpers/executor.js';
import { DATABASES, freshPostgresDatabase } from '../helpers/postgres.js';
import { tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';

/**
 * The scribe's store on SQLite and PostgreSQL: every method, the same inputs giving the same outputs (each suite
 * records what it got; the last suite compares the two records), constraint errors, transactions, and the claims
 * several instances make on one PostgreSQL database.
 */

const T0 = '2025-03-01T10:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();

/** What each database answered, by step, for the comparison at the end. */
const answers: Record<string, Record<string, unknown>> = { sqlite: {}, postgres: {} };

async function addWorkspace(e: Executor, id: string) {
  await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES (${id}, ${id}, 'IN', 'Asia/Kolkata', ${T0})`.execute(e.k);
}

const session = (id: string, ws: string, txn: string, createdAt: string, patient: string | null = null) => ({
  id, workspace_id: ws, txn_id: txn, action: 'scribe-v2', folder_path: `${ws}/${txn}/`, extra_data: '{}', patient_id: patient,
  created_by_type: 'user' as const, created_by: 'u1', created_at: createdAt,
});

/** A session made and initialized (queued, due at `dueAt`). */
async function queued(e: Executor, id: string, dueAt: string, ws = 'w1') {
  const s = scribeStore(e);
  await s.insertSession(session(id, ws, `txn-${id}`, dueAt));
  await s.initialize({ id, request: '{}', additional_data: '{}', patient_id: null, started_by_type: 'user', started_by: 'u1', now: dueAt });
}

async function errorKind(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return dbErrorKind(e);
  }
  return 'no error';
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

for (const db of DATABASES) {
  describe(`scribe store (${db.name})`, skipFor(db.skip), () => {
    let t: TestExecutor;
    const got = answers[db.name]!;
    const rec = <T>(step: string, v: T): T => {
      got[step] = v;
      return v;
    };
    beforeAll(async () => {
      t = await openTestExecutor(db, 'scribe-store');
      await addWorkspace(t.e, 'w1');
      await addWorkspace(t.e, 'w2');
    });
    afterAll(async () => t?.close());

    it('sessions: made, found, changed while uploading only, initialized once; constraints refuse as on both', async () => {
      const s = scribeStore(t.e);
      await s.insertSession(session('s1', 'w1', 'a-1', at(0), 'p1'));
      await s.insertSession(session('s2', 'w2', 'a-1', at(0)));
      const made = rec('made', await s.session('w1', 'a-1'));
      expect(made).toEqual({
        id: 's1', workspace_id: 'w1', txn_id: 'a-1', action: 'scribe-v2', folder_path: 'w1/a-1/', extra_data: '{}', patient_id: 'p1',
        created_by_type: 'user', created_by: 'u1', status: 'uploading', request: null, additional_data: null, started_by_type: null,
        started_by: null, stage: 'uploading', percent: 0, attempts: 0, next_attempt_at: null, lease_until: null, lease_owner: null,
        checkpoint: null, output: null, errors: '[]', last_error: null, created_at: at(0), initialized_at: null, started_at: null,
        finished_at: null, updated_at: at(0),
      } satisfies SessionRow);
      expect(await s.sessionById('s2')).toMatchObject({ workspace_id: 'w2', txn_id: 'a-1' });
      expect(await s.session('w1', 'nope')).toBeUndefined();
      expect(await s.sessionById('nope')).toBeUndefined();

      expect(rec('dup', await errorKind(s.insertSession(session('s3', 'w1', 'a-1', at(1)))))).toBe('unique');
      expect(rec('fk', await errorKind(s.insertSession(session('s3', 'w9', 'x', at(1)))))).toBe('foreign_key');
      expect(rec('check', await errorKind(s.insertSession({ ...session('s3', 'w1', 'x', at(1)), created_by_type: 'robot' as 'user' })))).toBe('check');

      expect(await s.updateExtraData('s1', '{"patient_id":"p2"}', 'p2', 'ekascribe-v2', at(2))).toBe(true);
      expect(await s.updateExtraData('nope', '{}', null, 'scribe-v2', at(2))).toBe(false);
      const init = { id: 's1', request: '{"r":1}', additional_data: '{"a":1}', patient_id: 'p2', started_by_type: 'client' as const, started_by: 'c1', now: at(3) };
      expect(await s.initialize(init)).toBe(true);
      expect(await s.initialize(init)).toBe(false);
      expect(await s.updateExtraData('s1', '{}', null, 'scribe-v2', at(4))).toBe(false);
      expect(rec('initialized', await s.sessionById('s1'))).toMatchObject({
        status: 'queued', stage: 'queued', percent: 0, request: '{"r":1}', additional_data: '{"a":1}', patient_id: 'p2', action: 'ekascribe-v2',
        extra_data: '{"patient_id":"p2"}', started_by_type: 'client', started_by: 'c1', initialized_at: at(3), next_attempt_at: at(3), updated_at: at(3),
      });
    });

    it('list: newest first, then txn_id by its bytes, per workspace, patient and status, after a cursor', async () => {
      const s = scribeStore(t.e);
      // Same instant, txn_ids whose order differs between byte order and a language's collation.
      for (const [id, txn, p] of [['l1', 'B-2', 'p7'], ['l2', 'a_1', null], ['l3', 'a.1', 'p7'], ['l4', '1x', 'p7'], ['l5', 'b-2', null]] as const) {
        await s.insertSession(session(id, 'w1', txn, at(100), p));
      }
      await s.insertSession(session('l6', 'w1', 'z', at(50), 'p7'));
      await s.initialize({ id: 'l3', request: '{}', additional_data: '{}', patient_id: 'p7', started_by_type: 'user', started_by: 'u1', now: at(101) });
      const all = rec('list all', ids(await s.list({ workspaceId: 'w1', limit: 100 })));
      expect(all).toEqual(['l5', 'l2', 'l3', 'l1', 'l4', 'l6', 's1']);
      expect(rec('list w2', ids(await s.list({ workspaceId: 'w2', limit: 100 })))).toEqual(['s2']);
      expect(rec('list page', ids(await s.list({ workspaceId: 'w1', limit: 2 })))).toEqual(['l5', 'l2']);
      const l2 = (await s.sessionById('l2'))!;
      expect(rec('list after', ids(await s.list({ workspaceId: 'w1', after: l2, limit: 3 })))).toEqual(['l3', 'l1', 'l4']);
      expect(rec('list patient', ids(await s.list({ workspaceId: 'w1', patientId: 'p7', limit: 100 })))).toEqual(['l3', 'l1', 'l4', 'l6']);
      expect(rec('list status', ids(await s.list({ workspaceId: 'w1', status: 'queued', limit: 100 })))).toEqual(['l3', 's1']);
      const l1 = (await s.sessionById('l1'))!;
      expect(rec('list all filters', ids(await s.list({ workspaceId: 'w1', patientId: 'p7', status: 'uploading', after: l1, limit: 100 }))))
        .toEqual(['l4', 'l6']);
      expect(rec('list rows', await s.list({ workspaceId: 'w1', patientId: 'p7', limit: 1 }))).toEqual([await s.sessionById('l3')]);
    });

    it('files: in upload order, one per name, usage in numbers beyond 2^31, replaced and refused as on both', async () => {
      const s = scribeStore(t.e);
      const file = (id: string, name: string, kind: FileRow['kind'], size: number, createdAt: string): FileRow => ({
        id, session_id: 'l5', kind, name, stored_name: `${id}.bin`, content_type: kind === 'audio' ? 'audio/mp4' : 'application/json', size, sha256: 'ab'.repeat(32), created_at: createdAt,
      });
      await s.insertFile(file('f2', 'b.m4a', 'audio', 3_000_000_000, at(10)));
      await s.insertFile(file('f1', 'a.m4a', 'audio', 5, at(10)));
      await s.insertFile(file('f3', 'txn.json', 'sidecar', 7, at(9)));
      expect(rec('files', await s.files('l5'))).toEqual([
        file('f3', 'txn.json', 'sidecar', 7, at(9)), file('f1', 'a.m4a', 'audio', 5, at(10)), file('f2', 'b.m4a', 'audio', 3_000_000_000, at(10)),
      ]);
      expect(await s.files('l1')).toEqual([]);
      expect(rec('file', await s.file('l5', 'b.m4a'))).toEqual(file('f2', 'b.m4a', 'audio', 3_000_000_000, at(10)));
      expect(await s.file('l5', 'c.m4a')).toBeUndefined();
      expect(rec('usage', await s.usage('l5', 'nothing'))).toEqual({ count: 2, bytes: 3_000_000_005 });
      expect(rec('usage except', await s.usage('l5', 'a.m4a'))).toEqual({ count: 1, bytes: 3_000_000_000 });
      expect(rec('usage none', await s.usage('l1', 'x'))).toEqual({ count: 0, bytes: 0 });
      expect(rec('file dup', await errorKind(s.insertFile(file('f4', 'a.m4a', 'audio', 1, at(11)))))).toBe('unique');
      expect(rec('file fk', await errorKind(s.insertFile({ ...file('f4', 'a.m4a', 'audio', 1, at(11)), session_id: 'nope' })))).toBe('foreign_key');
      expect(rec('file check', await errorKind(s.insertFile(file('f4', 'v.mp4', 'video' as 'audio', 1, at(11)))))).toBe('check');
      await s.deleteFile('f1');
      expect(ids(await s.files('l5'))).toEqual(['f3', 'f2']);
    });

    it('keys: the first one stored stays', async () => {
      const s = scribeStore(t.e);
      expect(await s.key('policy')).toBeUndefined();
      await s.insertKey('policy', 'sealed-1', at(0));
      await s.insertKey('policy', 'sealed-2', at(1));
      expect(rec('key', await s.key('policy'))).toBe('sealed-1');
    });

    it('runs: claimed in due order with a lease, renewed, reported, retried, finished and given back by their owner only', async () => {
      const s = scribeStore(t.e);
      await addWorkspace(t.e, 'w3');
      await queued(t.e, 'r2', at(200), 'w3');
      await queued(t.e, 'r1', at(200), 'w3');
      await queued(t.e, 'r3', at(190), 'w3');
      await queued(t.e, 'r4', at(500), 'w3');
      // s1 and l3 (queued by the tests above) are due too, earlier.
      expect(rec('due', await s.due(at(300), 10))).toEqual(['s1', 'l3', 'r3', 'r1', 'r2']);
      expect(await s.due(at(300), 2)).toEqual(['s1', 'l3']);
      // Nobody claims s1 and l3 here: finish them out of the way.
      for (const id of ['s1', 'l3']) {
        expect(await s.claim(id, 'other', at(300), at(360))).toBe(true);
        expect(await s.finish({ id, owner: 'other', status: 'failed', stage: 'failed', output: '[]', errors: '["x"]', now: at(300) })).toBe(true);
      }
      const claimed = rec('claimDue', await s.claimDue({ owner: 'A', now: at(300), leaseUntil: at(360), limit: 2, exclude: ['r3'] }));
      expect(ids(claimed)).toEqual(['r1', 'r2']);
      expect(claimed[0]).toEqual({
        ...(claimed[0] as SessionRow), status: 'processing', attempts: 1, lease_owner: 'A', lease_until: at(360), started_at: at(300), stage: 'starting', updated_at: at(300),
      });
      expect(await s.sessionById('r1')).toEqual(claimed[0]);
      // Taken: not claimable again while the lease lasts, by anybody.
      expect(await s.claim('r1', 'B', at(359), at(400))).toBe(false);
      expect(ids(await s.claimDue({ owner: 'B', now: at(359), leaseUntil: at(400), limit: 10, exclude: ['r3'] }))).toEqual([]);
      expect(await s.claim('r4', 'B', at(359), at(400))).toBe(false); // not due yet

      expect(await s.renew('r1', 'A', at(350), at(420))).toBe(true);
      expect(await s.renew('r1', 'B', at(350), at(999))).toBe(false);
      await s.progress('r1', 'A', 'recognising', 40, at(351));
      await s.progress('r1', 'B', 'hijacked', 99, at(351));
      await s.checkpoint('r1', 'A', '{"t":1}', at(352));
      await s.checkpoint('r1', 'B', '{"t":2}', at(352));
      expect(rec('reported', await s.sessionById('r1'))).toMatchObject({ stage: 'recognising', percent: 40, checkpoint: '{"t":1}', lease_until: at(420) });

      // A failed run goes back to the queue for later; claimed again it resumes at its checkpoint (stage kept).
      expect(await s.retry({ id: 'r1', owner: 'B', next_attempt_at: at(400), last_error: 'no', now: at(353) })).toBe(false);
      expect(await s.retry({ id: 'r1', owner: 'A', next_attempt_at: at(400), last_error: 'crashed', now: at(353) })).toBe(true);
      expect(rec('retried', await s.sessionById('r1'))).toMatchObject({ status: 'queued', stage: 'queued', lease_owner: null, lease_until: null, next_attempt_at: at(400), last_error: 'crashed', attempts: 1 });
      expect(await s.claim('r1', 'A', at(399), at(460))).toBe(false);
      expect(await s.claim('r1', 'A', at(400), at(460))).toBe(true);
      expect(await s.sessionById('r1')).toMatchObject({ status: 'processing', attempts: 2, stage: 'queued', started_at: at(300) });

      // Given back (the service stops): queued at once, the interrupted run not counted; never below zero.
      await s.giveBack('r1', 'B', at(401));
      await s.giveBack('r1', 'A', at(401));
      expect(rec('given back', await s.sessionById('r1'))).toMatchObject({ status: 'queued', attempts: 1, lease_owner: null, next_attempt_at: at(401) });
      await sql`UPDATE scribe_sessions SET attempts = 0 WHERE id = 'r4'`.execute(t.e.k);
      expect(await s.claim('r4', 'A', at(500), at(560))).toBe(true);
      await sql`UPDATE scribe_sessions SET attempts = 0 WHERE id = 'r4'`.execute(t.e.k);
      await s.giveBack('r4', 'A', at(501));
      expect((await s.sessionById('r4'))!.attempts).toBe(0);

      // A lease that ran out makes the run anybody's.
      expect(rec('claimDue limit', ids(await s.claimDue({ owner: 'B', now: at(360), leaseUntil: at(420), limit: 1 })))).toEqual(['r3']);
      expect(ids(await s.claimDue({ owner: 'B', now: at(360), leaseUntil: at(420), limit: 10 }))).toEqual(['r2']);
      expect(await s.sessionById('r2')).toMatchObject({ lease_owner: 'B', attempts: 2 });

      expect(await s.finish({ id: 'r2', owner: 'A', status: 'completed', stage: 'completed', output: '[1]', errors: '[]', now: at(410) })).toBe(false);
      expect(await s.finish({ id: 'r2', owner: 'B', status: 'partial', stage: 'completed', output: '[1]', errors: '["t"]', now: at(410) })).toBe(true);
      expect(rec('finished', await s.sessionById('r2'))).toMatchObject({
        status: 'partial', stage: 'completed', percent: 100, output: '[1]', errors: '["t"]', lease_until: null, lease_owner: null, next_attempt_at: null, finished_at: at(410),
      });
      expect(await s.claim('r2', 'B', at(999), at(1000))).toBe(false);
      expect(rec('status check', await errorKind(sql`UPDATE scribe_sessions SET status = 'lost' WHERE id = 'r2'`.execute(t.e.k)))).toBe('check');

      // Orphans: runs under another owner (or none), released to be claimable at once.
      expect(rec('orphans', await s.orphans('B'))).toEqual([]);
      expect(rec('orphans of another', await s.orphans('C'))).toEqual(['r3']);
      await s.release('r3', 'B', at(411)); // its own: not released
      expect((await s.sessionById('r3'))!.lease_until).toBe(at(420));
      await s.release('r3', 'C', at(411));
      expect((await s.sessionById('r3'))!.lease_until).toBeNull();
      expect(await s.claim('r3', 'C', at(411), at(470))).toBe(true);
      expect(rec('runs', await s.list({ workspaceId: 'w3', limit: 10 }))).toHaveLength(4);
    });

    it('transactions: a store made from the transaction sees its writes, and a failure undoes them all', async () => {
      await addWorkspace(t.e, 'w4');
      await expect(transaction(t.e, async (tx) => {
        const inTx = scribeStore(tx);
        await inTx.insertSession(session('x1', 'w4', 'x', at(0)));
        expect(await inTx.session('w4', 'x')).toMatchObject({ id: 'x1' });
        await inTx.insertFile({ id: 'xf', session_id: 'x1', kind: 'audio', name: 'a.wav', stored_name: 'xf.wav', content_type: 'audio/wav', size: 1, sha256: 'x', created_at: at(0) });
        throw new Error('refused');
      })).rejects.toThrow('refused');
      const s = scribeStore(t.e);
      expect(await s.session('w4', 'x')).toBeUndefined();
      expect(await s.file('x1', 'a.wav')).toBeUndefined();
      // A failed statement inside a savepoint leaves the transaction usable (PostgreSQL included) and committed.
      await transaction(t.e, async (tx) => {
        const inTx = scribeStore(tx);
        await inTx.insertSession(session('x2', 'w4', 'y', at(0)));
        await expect(transaction(tx, (inner) => scribeStore(inner).insertSession(session('x3', 'w4', 'y', at(0))))).rejects.toSatisfy((e) => dbErrorKind(e) === 'unique');
        expect(await inTx.initialize({ id: 'x2', request: '{}', additional_data: '{}', patient_id: null, started_by_type: 'user', started_by: 'u1', now: at(1) })).toBe(true);
      });
      expect(rec('committed', ids(await s.list({ workspaceId: 'w4', limit: 10 })))).toEqual(['x2']);
      expect((await s.sessionById('x2'))!.status).toBe('queued');
    });

    it(`the runner at start-up: ${db.name === 'sqlite' ? 'releases a previous instance\'s run at once' : 'leaves another instance\'s run to its lease'}`, async () => {
      await addWorkspace(t.e, 'w5');
      const s = scribeStore(t.e);
      await sql`UPDATE scribe_sessions SET status = 'failed' WHERE status IN ('queued', 'processing')`.execute(t.e.k);
      await queued(t.e, 'o1', at(1000), 'w5');
      expect(await s.claim('o1', 'earlier-instance', at(1000), at(1060))).toBe(true);
      let now = Date.parse(at(1001));
      const dir = tempDir('scribe-runner');
      const launched: string[] = [];
      const launchWorker: LaunchWorker = () => {
        const events = new EventEmitter();
        const worker: WorkerProcess = {
          pid: 1, stderr: null,
          send: () => undefined,
          kill: () => void setImmediate(() => events.emit('exit', null, 'SIGKILL')),
          on(event: string, listener: (...a: any[]) => void) {
            events.on(event, listener);
            return worker;
          },
        };
        return worker;
      };
      const errors: unknown[] = [];
      const runner = scribeRunner({
        db: t.e, store: s, clock: { now: () => new Date(now) }, dataDir: dir, sessionDir: (id) => join(dir, id),
        finish: async () => true,
      }, {
        pollIntervalMs: 10, leaseMs: 60_000, onError: (e) => errors.push(e),
        launchWorker: (entry, opts) => {
          launched.push(entry);
          return launchWorker(entry, opts);
        },
      });
      const settled = async (ms: number) => {
        const until = Date.now() + ms;
        while (Date.now() < until && runner.active().length === 0) await new Promise((r) => setTimeout(r, 10));
      };
      try {
        runner.start();
        await settled(db.name === 'sqlite' ? 5000 : 300);
        if (db.name === 'sqlite') {
          expect(runner.active()).toEqual(['o1']);
          expect(await s.sessionById('o1')).toMatchObject({ lease_owner: runner.owner, attempts: 2 });
        } else {
          // Possibly a live instance's run: untouched until its lease runs out (at 1060), then taken.
          expect(runner.active()).toEqual([]);
          expect(await s.sessionById('o1')).toMatchObject({ lease_owner: 'earlier-instance', lease_until: at(1060), attempts: 1 });
          now = Date.parse(at(1060));
          runner.wake();
          await settled(5000);
          expect(runner.active()).toEqual(['o1']);
          expect(await s.sessionById('o1')).toMatchObject({ lease_owner: runner.owner, attempts: 2, lease_until: at(1120) });
        }
        expect(launched).toHaveLength(1);
      } finally {
        await runner.stop();
        rmSync(dir, { recursive: true, force: true });
      }
      // Stopping gives the run back, uncounted.
      expect(await s.sessionById('o1')).toMatchObject({ status: 'queued', lease_owner: null, attempts: 1 });
      expect(errors).toEqual([]);
    });
  });
}

const postgres = DATABASES.find((d) => d.name === 'postgres')!;

describe('scribe store: two instances on one PostgreSQL database', skipFor(postgres.skip), () => {
  let drop: () => Promise<void>;
  let a: SqlDatabase;
  let b: SqlDatabase;
  let eA: Executor;
  let eB: Executor;
  beforeAll(async () => {
    const pg = await freshPostgresDatabase('scribe-claims');
    drop = pg.drop;
    a = openSql({ postgresUrl: pg.url });
    b = openSql({ postgresUrl: pg.url });
    await migrateSql(a);
    eA = rootExecutor(a, null);
    eB = rootExecutor(b, null);
    await addWorkspace(eA, 'w1');
    for (let i = 0; i < 40; i++) await queued(eA, `q${String(i).padStart(2, '0')}`, at(i));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop?.();
  });

  it('pass over the sessions the other is claiming (SKIP LOCKED) instead of waiting for them', async () => {
    const timeout = (ms: number) => new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms));
    // A holds its claim uncommitted (its rows locked) while B claims: B must take the next ones at once.
    const [byA, byB] = await transaction(eA, async (tx) => {
      const mine = await scribeStore(tx).claimDue({ owner: 'A', now: at(100), leaseUntil: at(1000), limit: 3 });
      const theirs = await Promise.race([scribeStore(eB).claimDue({ owner: 'B', now: at(100), leaseUntil: at(1000), limit: 3 }), timeout(3000)]);
      return [mine, theirs];
    });
    expect(ids(byA)).toEqual(['q00', 'q01', 'q02']);
    expect(ids(byB)).toEqual(['q03', 'q04', 'q05']);
  });

  it('claim disjoint sessions when they claim at the same moment, each session once', async () => {
    const byOwner: Record<string, string[]> = { A: [], B: [] };
    const claimer = async (e: Executor, owner: string) => {
      for (;;) {
        const got = await scribeStore(e).claimDue({ owner, now: at(100), leaseUntil: at(1000), limit: 2 });
        if (got.length === 0) return;
        byOwner[owner]!.push(...ids(got));
      }
    };
    await Promise.all([claimer(eA, 'A'), claimer(eB, 'B'), claimer(eA, 'A'), claimer(eB, 'B')]);
    const all = [...byOwner.A!, ...byOwner.B!];
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(34);
    expect(byOwner.A!.length).toBeGreaterThan(0);
    expect(byOwner.B!.length).toBeGreaterThan(0);
    const { rows } = await sql<{ lease_owner: string; n: number }>`SELECT lease_owner, COUNT(*) AS n FROM scribe_sessions
      WHERE status = 'processing' AND attempts = 1 GROUP BY lease_owner ORDER BY lease_owner`.execute(eA.k);
    expect(rows).toEqual([{ lease_owner: 'A', n: byOwner.A!.length + 3 }, { lease_owner: 'B', n: byOwner.B!.length + 3 }]);
  });

  it("a session one claimed is not the other's until its lease runs out, nor ever twice at once", async () => {
    const sA = scribeStore(eA);
    const sB = scribeStore(eB);
    await queued(eA, 'late', at(50));
    expect(ids(await sA.claimDue({ owner: 'A', now: at(150), leaseUntil: at(210), limit: 5 }))).toEqual(['late']);
    expect(await sB.claimDue({ owner: 'B', now: at(209), leaseUntil: at(269), limit: 10 })).toEqual([]);
    expect(await sB.claim('late', 'B', at(209), at(269))).toBe(false);
    expect(await sA.renew('late', 'A', at(200), at(300))).toBe(true);
    expect(await sB.claimDue({ owner: 'B', now: at(299), leaseUntil: at(359), limit: 10 })).toEqual([]);
    expect(ids(await sB.claimDue({ owner: 'B', now: at(300), leaseUntil: at(360), limit: 10 }))).toEqual(['late']);
    expect(await sA.renew('late', 'A', at(301), at(400))).toBe(false);
    // A and B stopped renewing (killed): at 1000 every run is free; both instances try at once and exactly one wins each.
    const [x, y] = await Promise.all([
      sA.claimDue({ owner: 'A2', now: at(1000), leaseUntil: at(1060), limit: 50 }),
      sB.claimDue({ owner: 'B2', now: at(1000), leaseUntil: at(1060), limit: 50 }),
    ]);
    const all = [...ids(x), ...ids(y)];
    expect(all.sort()).toEqual([...Array.from({ length: 40 }, (_, i) => `q${String(i).padStart(2, '0')}`), 'late'].sort());
    expect(await sB.sessionById('late')).toMatchObject({ attempts: 3, lease_until: at(1060) });
  });
});

describe('scribe store: both databases answer alike', skipFor(postgres.skip), () => {
  it('every recorded answer is the same on SQLite and PostgreSQL', () => {
    expect(Object.keys(answers.sqlite!).length).toBeGreaterThan(20);
    expect(answers.postgres).toEqual(answers.sqlite);
  });
});
