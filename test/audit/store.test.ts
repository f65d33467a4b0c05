import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../server/auth/permissions.js';
import { auditLog } from '../../server/audit/service.js';
import { type AuditEntry, auditStore } from '../../server/audit/store.js';
import { dbErrorKind } from '../../server/db/sql.js';
import { rootExecutor, transaction } from '../../server/db/tx.js';
import type { Clock } from '../../server/shared/time.js';
import { type TestExecutor, openTestExecutor } from '../helpers/executor.js';
import { DATABASES } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

// The audit store written once for both databases (issue 17): single rows, read batches (one multi-row INSERT per
// power-of-two chunk), the latest entries in order, append-only on both, inside transactions and rolled back with
// them; then the audit log over it (inTransaction, later and flush, a second executor for reads). Each suite records
// what it read; the last test compares the two records whole.
const entry = (n: number, ws: string | null = 'w1', more: Partial<AuditEntry> = {}): AuditEntry => ({
  at: `2030-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`, workspace_id: ws, actor_type: 'user', actor_id: 'u1',
  action: `test.action_${n}`, resource_type: 'patient', resource_ids: JSON.stringify([`p-${n}`]), outcome: 'success',
  ip: '127.0.0.1', request_id: `req-${n}`, ...more,
});

async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return dbErrorKind(e) ?? (e instanceof Error ? e.message : String(e));
  }
  return 'no error';
}

const ctx: RequestContext = {
  caller: { kind: 'client', id: 'c1', workspaceId: 'w2', workspaceActive: true, role: null, scopes: new Set() },
  ip: '10.0.0.1', requestId: 'r-x',
};
const clock: Clock = { now: () => new Date('2030-02-02T02:02:02.002Z') };

const transcripts = new Map<string, unknown[]>();

for (const db of DATABASES) {
  describe(`audit store (${db.name})`, skipFor(db.skip), () => {
    let t: TestExecutor;
    const seen: unknown[] = [];
    const rec = <T>(v: T): T => (seen.push(structuredClone(v)), v);
    beforeAll(async () => {
      t = await openTestExecutor(db, 'store-audit');
    });
    afterAll(async () => {
      transcripts.set(db.name, seen);
      await t?.close();
    });

    it('inserts one entry and reads a workspace\'s latest first, every column, nulls kept', async () => {
      const store = auditStore(t.e);
      await store.insert(entry(1));
      await store.insert(entry(2, null, { actor_type: 'anonymous', actor_id: null, resource_type: null, resource_ids: null, ip: null, request_id: null, outcome: 'denied' }));
      await store.insert(entry(3, 'w9'));
      await store.insert(entry(4));
      const got = rec(await store.recent('w1', 10));
      expect(got).toEqual([{ id: 4, ...entry(4) }, { id: 1, ...entry(1) }]);
      expect(Object.keys(got[0]!)).toEqual(['id', 'at', 'workspace_id', 'actor_type', 'actor_id', 'action', 'resource_type',
        'resource_ids', 'outcome', 'ip', 'request_id']);
      expect(rec(await store.recent('w1', 1)).map((e) => e.id)).toEqual([4]);
      expect(await store.recent('nowhere', 10)).toEqual([]);
      const anonymous = await sql<AuditEntry>`SELECT at, workspace_id, actor_type, actor_id, action, resource_type, resource_ids,
        outcome, ip, request_id FROM audit_log WHERE id = 2`.execute(t.e.k);
      expect(rec(anonymous.rows)).toEqual([entry(2, null, { actor_type: 'anonymous', actor_id: null, resource_type: null, resource_ids: null, ip: null, request_id: null, outcome: 'denied' })]);
    });

    it('writes read batches of any size in order, in one statement or one transaction', async () => {
      const store = auditStore(t.e);
      for (const size of [0, 1, 2, 3, 37, 128, 129, 300]) {
        const ws = `batch-${size}`;
        const batch = Array.from({ length: size }, (_, i) => entry(i, ws));
        await store.insertMany(batch);
        const back = await store.recent(ws, 1000);
        expect(back.map(({ id: _id, ...e }) => e)).toEqual([...batch].reverse());
        rec(back.map((e) => e.action));
      }
      // Ids grow with the order of the batch, across its statements.
      const ids = (await store.recent('batch-300', 1000)).map((e) => e.id).reverse();
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(300);
    });

    it('writes all of a batch or none of it: a bad entry in a later statement undoes the earlier ones', async () => {
      const store = auditStore(t.e);
      const batch = Array.from({ length: 131 }, (_, i) => entry(i, 'all-or-none'));
      batch[130] = { ...batch[130]!, action: null as unknown as string };
      expect(await kindOf(store.insertMany(batch))).toBe('not_null');
      expect(await store.recent('all-or-none', 1000)).toEqual([]);
      // Inside a caller's transaction the batch nests (a savepoint) and rolls back with it.
      await expect(transaction(t.e, async (tx) => {
        await auditStore(tx).insertMany(Array.from({ length: 130 }, (_, i) => entry(i, 'rolled-back')));
        await auditStore(tx).insert(entry(1, 'rolled-back'));
        expect(await auditStore(tx).recent('rolled-back', 1000)).toHaveLength(131);
        throw new Error('refused');
      })).rejects.toThrow('refused');
      expect(await store.recent('rolled-back', 1000)).toEqual([]);
      await transaction(t.e, async (tx) => {
        await auditStore(tx).insertMany(Array.from({ length: 5 }, (_, i) => entry(i, 'committed')));
      });
      expect(rec((await store.recent('committed', 1000)).map((e) => e.action))).toHaveLength(5);
    });

    it('is append-only: UPDATE and DELETE are refused', async () => {
      expect(await kindOf(sql`UPDATE audit_log SET outcome = 'denied' WHERE workspace_id = 'w1'`.execute(t.e.k))).toContain('append-only');
      expect(await kindOf(sql`DELETE FROM audit_log WHERE workspace_id = 'w1'`.execute(t.e.k))).toContain('append-only');
      expect(rec((await auditStore(t.e).recent('w1', 10)).map((e) => e.outcome))).toEqual(['success', 'success']);
    });

    it('serves the audit log: changes in their transaction, reads queued and flushed through the reads executor', async () => {
      // A second executor for reads, as createService gives SQLite (there over a second connection).
      const log = auditLog(t.e, clock, rootExecutor(t.e.database, t.e.raw));
      await transaction(t.e, (tx) => log.inTransaction(tx, ctx, { action: 'thing.change', resourceType: 'thing', resourceIds: ['a', 'b'], outcome: 'success' }));
      await expect(transaction(t.e, async (tx) => {
        await log.inTransaction(tx, ctx, { action: 'thing.undone', outcome: 'success' });
        throw new Error('rolled back');
      })).rejects.toThrow('rolled back');
      for (let i = 0; i < 140; i++) log.later(ctx, { action: 'thing.read', resourceType: 'thing', resourceIds: [`r${i}`], outcome: i % 2 ? 'success' : 'not_found' });
      log.later({ caller: null, ip: null, requestId: null }, { action: 'thing.denied', outcome: 'denied' });
      await log.flush();
      await log.flush(); // nothing queued: resolves
      const recent = await log.recent('w2', 1000);
      // Ids grow in order on both, but after a rollback they differ: SQLite's AUTOINCREMENT counter rolls back with the
      // transaction, PostgreSQL's identity sequence does not (its gaps are by design). The entries are compared whole
      // without them.
      expect(recent.map((e) => e.id)).toEqual([...recent.map((e) => e.id)].sort((a, b) => b - a));
      rec(recent.map(({ id: _id, ...e }) => e));
      expect(recent).toHaveLength(141);
      expect(recent.at(-1)).toMatchObject({ action: 'thing.change', resource_ids: '["a","b"]', actor_type: 'client', actor_id: 'c1', ip: '10.0.0.1', request_id: 'r-x', at: '2030-02-02T02:02:02.002Z' });
      expect(recent[0]).toMatchObject({ action: 'thing.read', resource_ids: '["r139"]', outcome: 'success' });
      expect(recent.some((e) => e.action === 'thing.undone')).toBe(false);
      const anon = await sql<{ n: number }>`SELECT count(*) AS n FROM audit_log WHERE action = 'thing.denied' AND workspace_id IS NULL
        AND actor_type = 'anonymous'`.execute(t.e.k);
      expect(Number(anon.rows[0]!.n)).toBe(1);
    });
  });
}

describe('audit store: SQLite and PostgreSQL read the same', skipFor(DATABASES.find((d) => d.skip)?.skip), () => {
  it('every recorded read is deep-equal across the two databases', () => {
    const sqlite = transcripts.get('sqlite');
    const postgres = transcripts.get('postgres');
    expect(sqlite?.length).toBeGreaterThan(12);
    expect(postgres).toEqual(sqlite);
  });
});
