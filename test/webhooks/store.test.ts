import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.js';
import { dbErrorKind, openSql } from '../../server/db/sql.js';
import { rootExecutor, transaction } from '../../server/db/tx.js';
import { secretBox } from '../../server/shared/secret-box.js';
import { systemClock } from '../../server/shared/time.js';
import { subscriptionKeyContext, webhookDispatcher } from '../../server/webhooks/dispatcher.js';
import { outbox } from '../../server/webhooks/outbox.js';
import { verifySignature } from '../../server/webhooks/signing.js';
import { type AttemptResult, type SubscriptionRow, webhookStore } from '../../server/webhooks/store.js';
import { type TestExecutor, openTestExecutor } from '../helpers/executor.js';
import { DATABASES } from '../helpers/postgres.js';
import { tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';

// The webhooks store written once for both databases (issue 17): every method, the same inputs giving the same
// rows on SQLite and PostgreSQL, in the same order, with the same constraint errors and transactions. Each suite
// also records what it read; the last test compares the two records whole.
const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-01T00:00:05.000Z';
const T2 = '2030-01-01T00:05:00.000Z';
const T3 = '2030-01-01T01:00:00.000Z';
const T4 = '2030-01-02T00:00:00.000Z';

const sub = (id: string, ws: string, endpoint: string, created: string, more: Partial<SubscriptionRow> = {}): SubscriptionRow => ({
  id, workspace_id: ws, client_id: 'client-1', event_names: '["appointment.statuschange"]', endpoint, protocol: 'https',
  signing_key_sealed: null, fhir: 0, status: 'active', disabled_reason: null, created_at: created, updated_at: created, deleted_at: null,
  ...more,
});
const SA = sub('s-a', 'w1', 'https://a.example/hook', T0);
const SB = sub('s-b', 'w1', 'https://b.example/hook', T0);
const SC = sub('s-c', 'w1', 'https://c.example/', T1, { fhir: 1, signing_key_sealed: 'sealed-c', event_names: '["note.signed"]' });
const SW2 = sub('s-w2', 'w2', 'https://a.example/hook', T0);

const attempt = (deliveryId: string, at: string, status: number | null, next: AttemptResult['next']): AttemptResult =>
  ({ deliveryId, at, status, latencyMs: 12, error: status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`, next });

/** What a failed promise's database error was, whichever the database. */
async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return dbErrorKind(e);
  }
  return 'no error';
}

const transcripts = new Map<string, unknown[]>();

for (const db of DATABASES) {
  describe(`webhooks store (${db.name})`, skipFor(db.skip), () => {
    let t: TestExecutor;
    const seen: unknown[] = [];
    /** Records what a read answered, for the comparison of the two databases at the end. */
    const rec = <T>(v: T): T => (seen.push(structuredClone(v)), v);
    beforeAll(async () => {
      t = await openTestExecutor(db, 'store-webhooks');
      for (const ws of ['w1', 'w2', 'w3']) {
        await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES (${ws}, ${ws}, 'IN', 'Asia/Kolkata', ${T0})`.execute(t.e.k);
      }
    });
    afterAll(async () => {
      transcripts.set(db.name, seen);
      await t?.close();
    });

    it('subscriptions: insert, lists in order, workspace scoping, endpoint uniqueness among live ones, constraint errors', async () => {
      const store = webhookStore(t.e);
      for (const s of [SB, SA, SC, SW2]) await store.insertSubscription(s);
      expect(rec(await store.subscriptions('w1'))).toEqual([SA, SB, SC]); // created_at, then id
      expect(rec(await store.subscriptions('w2'))).toEqual([SW2]);
      expect(await store.subscriptions('w3')).toEqual([]);
      expect(rec(await store.subscription('w1', 's-c'))).toEqual(SC);
      expect(await store.subscription('w2', 's-c')).toBeUndefined();
      expect(rec(await store.subscriptionById('s-w2'))).toEqual(SW2);
      expect(await store.subscriptionById('nope')).toBeUndefined();
      expect(await store.endpointTaken('w1', 'https://a.example/hook')).toBe(true);
      expect(await store.endpointTaken('w3', 'https://a.example/hook')).toBe(false);
      expect(await store.endpointTaken('w1', 'https://z.example/')).toBe(false);
      // By endpoint: the order the outbox fans out in.
      expect(rec(await store.activeSubscriptions('w1'))).toEqual([
        { id: 's-a', event_names: '["appointment.statuschange"]', fhir: 0, endpoint: SA.endpoint, signing_key_sealed: null },
        { id: 's-b', event_names: '["appointment.statuschange"]', fhir: 0, endpoint: SB.endpoint, signing_key_sealed: null },
        { id: 's-c', event_names: '["note.signed"]', fhir: 1, endpoint: SC.endpoint, signing_key_sealed: 'sealed-c' },
      ]);

      expect(await kindOf(store.insertSubscription(sub('s-dup', 'w1', 'https://a.example/hook', T1)))).toBe('unique');
      expect(await kindOf(store.insertSubscription(SA))).toBe('unique');
      expect(await kindOf(store.insertSubscription(sub('s-ftp', 'w1', 'ftp://x.example/', T1, { protocol: 'ftp' as 'https' })))).toBe('check');
      expect(await kindOf(store.insertSubscription(sub('s-fhir', 'w1', 'https://f.example/', T1, { fhir: 2 as 1 })))).toBe('check');
      expect(await kindOf(store.insertSubscription(sub('s-nows', 'nope', 'https://n.example/', T1)))).toBe('foreign_key');
      expect(await kindOf(store.insertSubscription(sub('s-null', 'w1', 'https://n.example/', T1, { client_id: null as unknown as string })))).toBe('not_null');
      expect(rec(await store.subscriptions('w1'))).toEqual([SA, SB, SC]);
    });

    it('events and deliveries: due ones by time then insertion order, with what sending needs; the next due time', async () => {
      const store = webhookStore(t.e);
      for (const n of [1, 2, 3]) await store.insertEvent({ id: `ev${n}`, workspace_id: 'w1', type: 'appointment.statuschange', payload: `{"n":${n}}`, created_at: T0 });
      // Ids out of alphabetical order: only insertion order (rowid, seq) puts them back.
      await store.insertDelivery('d-z', 'ev1', 's-a', 'w1', T0);
      await store.insertDelivery('d-a', 'ev2', 's-a', 'w1', T0);
      await store.insertDelivery('d-m', 'ev3', 's-a', 'w1', T0);
      await store.insertDelivery('d-b1', 'ev1', 's-b', 'w1', T1);
      await store.insertDelivery('d-c1', 'ev1', 's-c', 'w1', T2);

      expect(await kindOf(store.insertDelivery('d-again', 'ev1', 's-a', 'w1', T0))).toBe('unique'); // one per (event, subscription)
      expect(await kindOf(store.insertDelivery('d-z', 'ev2', 's-b', 'w1', T0))).toBe('unique');
      expect(await kindOf(store.insertDelivery('d-x', 'no-event', 's-a', 'w1', T0))).toBe('foreign_key');
      expect(await kindOf(store.insertEvent({ id: 'ev1', workspace_id: 'w1', type: 'x', payload: '{}', created_at: T0 }))).toBe('unique');
      expect(await kindOf(store.insertEvent({ id: 'ev-null', workspace_id: 'w1', type: 'x', payload: null as unknown as string, created_at: T0 }))).toBe('not_null');

      expect(rec(await store.dueSubscriptions(T0))).toEqual([{ subscription_id: 's-a', due: T0, n: 3 }]);
      expect(rec(await store.dueSubscriptions(T2))).toEqual([
        { subscription_id: 's-a', due: T0, n: 3 }, { subscription_id: 's-b', due: T1, n: 1 }, { subscription_id: 's-c', due: T2, n: 1 },
      ]);
      const due = (id: string, ev: number, s: SubscriptionRow) =>
        ({ id, event_id: `ev${ev}`, subscription_id: s.id, retry_step: 0, payload: `{"n":${ev}}`, endpoint: s.endpoint, signing_key_sealed: s.signing_key_sealed });
      expect(rec(await store.dueFor('s-a', T1, 2))).toEqual([due('d-z', 1, SA), due('d-a', 2, SA)]);
      expect(rec(await store.dueFor('s-a', T1, 10))).toEqual([due('d-z', 1, SA), due('d-a', 2, SA), due('d-m', 3, SA)]);
      expect(rec(await store.dueFor('s-a', T1, 10, { skipLocked: true }))).toEqual([due('d-z', 1, SA), due('d-a', 2, SA), due('d-m', 3, SA)]);
      // Claimed ones passed over, the limit counting only the rest; a list of three padded to four.
      expect(rec(await store.dueFor('s-a', T1, 2, { except: ['d-z'] }))).toEqual([due('d-a', 2, SA), due('d-m', 3, SA)]);
      expect(rec(await store.dueFor('s-a', T1, 10, { except: ['d-z', 'd-a', 'd-b1'] }))).toEqual([due('d-m', 3, SA)]);
      expect(rec(await store.dueFor('s-c', T2, 10))).toEqual([due('d-c1', 1, SC)]);
      expect(await store.dueFor('s-c', T1, 10)).toEqual([]);
      expect(await store.nextDueAfter(T0)).toBe(T1);
      expect(await store.nextDueAfter(T1)).toBe(T2);
      expect(await store.nextDueAfter(T2)).toBeNull();
    });

    it('attempts: logged with numeric ids, delivery moved on (retry, delivered), a settled delivery left as it is', async () => {
      const store = webhookStore(t.e);
      await store.recordAttempt(attempt('d-z', T1, 500, { status: 'pending', retryStep: 1, nextAttemptAt: T3 }));
      await store.recordAttempt(attempt('d-a', T1, 200, { status: 'delivered', retryStep: 0, nextAttemptAt: null }));
      // Late result for a delivery already settled: logged, the delivery unchanged.
      await store.recordAttempt(attempt('d-a', T2, 503, { status: 'pending', retryStep: 1, nextAttemptAt: T3 }));

      expect(rec(await store.dueFor('s-a', T2, 10)).map((d) => d.id)).toEqual(['d-m']);
      expect(rec(await store.dueFor('s-a', T3, 10))).toEqual([
        { id: 'd-m', event_id: 'ev3', subscription_id: 's-a', retry_step: 0, payload: '{"n":3}', endpoint: SA.endpoint, signing_key_sealed: null },
        { id: 'd-z', event_id: 'ev1', subscription_id: 's-a', retry_step: 1, payload: '{"n":1}', endpoint: SA.endpoint, signing_key_sealed: null },
      ]);
      expect(await store.nextDueAfter(T2)).toBe(T3);

      const dA = {
        id: 'd-a', event_id: 'ev2', subscription_id: 's-a', workspace_id: 'w1', status: 'delivered', attempts: 1, retry_step: 0,
        next_attempt_at: null, last_status: 200, last_error: null, created_at: T0, updated_at: T1, delivered_at: T1,
      };
      expect(rec(await store.delivery('s-a', 'd-a'))).toEqual(dA); // exactly these keys: no `seq` on PostgreSQL
      expect(await store.delivery('s-b', 'd-a')).toBeUndefined();
      const dZ = {
        id: 'd-z', event_id: 'ev1', subscription_id: 's-a', workspace_id: 'w1', status: 'pending', attempts: 1, retry_step: 1,
        next_attempt_at: T3, last_status: 500, last_error: 'HTTP 500', created_at: T0, updated_at: T1, delivered_at: null,
      };
      expect(rec(await store.delivery('s-a', 'd-z'))).toEqual(dZ);

      const a1 = { id: 1, delivery_id: 'd-z', at: T1, status: 500, latency_ms: 12, error: 'HTTP 500' };
      const a2 = { id: 2, delivery_id: 'd-a', at: T1, status: 200, latency_ms: 12, error: null };
      const a3 = { id: 3, delivery_id: 'd-a', at: T2, status: 503, latency_ms: 12, error: 'HTTP 503' };
      expect(rec(await store.attempts('d-a'))).toEqual([a2, a3]);
      expect(await store.attempts('d-m')).toEqual([]);
      expect(rec([...(await store.attemptsOf(['d-a', 'd-m', 'd-z'])).entries()])).toEqual([['d-a', [a2, a3]], ['d-m', []], ['d-z', [a1]]]);
      expect((await store.attemptsOf([])).size).toBe(0);
      expect(await kindOf(store.recordAttempt(attempt('no-delivery', T1, 200, { status: 'delivered', retryStep: 0, nextAttemptAt: null })))).toBe('foreign_key');

      // Newest first; the same instant in insertion order, newest first.
      const recent = rec(await store.recentDeliveries('s-a', 10));
      expect(recent.map((d) => d.id)).toEqual(['d-m', 'd-a', 'd-z']);
      expect(recent[1]).toEqual({ ...dA, event_type: 'appointment.statuschange' });
      expect(rec(await store.recentDeliveries('s-a', 2)).map((d) => d.id)).toEqual(['d-m', 'd-a']);
      expect(rec(await store.recentDeliveries('s-a', 10, 'delivered'))).toEqual([{ ...dA, event_type: 'appointment.statuschange' }]);
      expect(await store.recentDeliveries('s-a', 10, 'failed')).toEqual([]);

      // Redelivery: only a settled delivery goes back to pending, from retry step 0.
      expect(await store.requeue('d-a', T4)).toBe(true);
      expect(await store.requeue('d-a', T4)).toBe(false);
      expect(await store.requeue('d-m', T4)).toBe(false);
      expect(await store.requeue('nope', T4)).toBe(false);
      expect(rec(await store.delivery('s-a', 'd-a'))).toEqual({ ...dA, status: 'pending', retry_step: 0, next_attempt_at: T4, updated_at: T4 });
      expect(await store.nextDueAfter(T3)).toBe(T4);
    });

    it('disabling and deleting a subscription end its pending deliveries, once', async () => {
      const store = webhookStore(t.e);
      await store.disableSubscription('s-b', 'endpoint answered 410 Gone', T2);
      await store.disableSubscription('s-b', 'again', T3); // already disabled: nothing changes
      expect(rec(await store.subscription('w1', 's-b'))).toEqual({ ...SB, status: 'disabled', disabled_reason: 'endpoint answered 410 Gone', updated_at: T2 });
      expect(rec(await store.delivery('s-b', 'd-b1'))).toMatchObject({ status: 'disabled', next_attempt_at: null, last_error: 'endpoint answered 410 Gone', updated_at: T2 });
      expect((await store.activeSubscriptions('w1')).map((s) => s.id)).toEqual(['s-a', 's-c']);
      expect(await store.dueFor('s-b', T4, 10)).toEqual([]);

      expect(await store.deleteSubscription('s-c', T3)).toBe(true);
      expect(await store.deleteSubscription('s-c', T4)).toBe(false);
      expect(rec(await store.subscriptionById('s-c'))).toEqual({ ...SC, deleted_at: T3, updated_at: T3 });
      expect(await store.subscription('w1', 's-c')).toBeUndefined();
      expect(rec(await store.delivery('s-c', 'd-c1'))).toMatchObject({ status: 'cancelled', next_attempt_at: null, last_error: 'subscription deleted', updated_at: T3 });
      expect(rec(await store.dueSubscriptions(T4))).toEqual([{ subscription_id: 's-a', due: T0, n: 3 }]);
      // A deleted subscription's endpoint is free again.
      expect(await store.endpointTaken('w1', SC.endpoint)).toBe(false);
      await store.insertSubscription({ ...SC, id: 's-c2', created_at: T4, updated_at: T4 });
      expect(rec(await store.subscriptions('w1')).map((s) => s.id)).toEqual(['s-a', 's-b', 's-c2']);
    });

    it('transactions: a rolled-back outbox write leaves nothing; a failed savepoint inside a committed one is undone alone', async () => {
      await expect(transaction(t.e, async (tx) => {
        const inTx = webhookStore(tx);
        await inTx.insertEvent({ id: 'ev9', workspace_id: 'w1', type: 'appointment.statuschange', payload: '{}', created_at: T4 });
        await inTx.insertDelivery('d-9', 'ev9', 's-a', 'w1', T4);
        expect(await inTx.delivery('s-a', 'd-9')).toMatchObject({ status: 'pending' }); // visible inside
        throw new Error('change refused');
      })).rejects.toThrow('change refused');
      const store = webhookStore(t.e);
      expect(await store.delivery('s-a', 'd-9')).toBeUndefined();
      expect((await sql<{ n: number }>`SELECT count(*) AS n FROM webhook_events WHERE id = 'ev9'`.execute(t.e.k)).rows[0]!.n).toBe(0);

      await transaction(t.e, async (tx) => {
        const inTx = webhookStore(tx);
        // deleteSubscription nests (a savepoint) inside the caller's transaction.
        expect(await inTx.deleteSubscription('s-c2', T4)).toBe(true);
        const kind = await kindOf(transaction(tx, (inner) => webhookStore(inner).insertSubscription({ ...SA, id: 's-a-dup' })));
        expect(kind).toBe('unique');
        await inTx.insertSubscription(sub('s-d', 'w1', 'https://d.example/', T4));
      });
      expect(rec(await store.subscriptions('w1')).map((s) => s.id)).toEqual(['s-a', 's-b', 's-d']);

      // deleteSubscription's own transaction, rolled back with the caller's.
      await expect(transaction(t.e, async (tx) => {
        expect(await webhookStore(tx).deleteSubscription('s-d', T4)).toBe(true);
        throw new Error('undo');
      })).rejects.toThrow('undo');
      expect((await store.subscription('w1', 's-d'))?.deleted_at).toBeNull();
    });

    it('PostgreSQL: due rows claimed with skipLocked inside a transaction are skipped by another claim', skipFor(db.name === 'postgres' ? null : 'row locks (SKIP LOCKED) are PostgreSQL\'s; SQLite has one writer at a time'), async () => {
      const store = webhookStore(t.e);
      await transaction(t.e, async (tx) => {
        const mine = await webhookStore(tx).dueFor('s-a', T4, 2, { skipLocked: true });
        expect(mine.map((d) => d.id)).toEqual(['d-m', 'd-z']);
        // Another connection (the pool's next): the locked rows are skipped, not waited for.
        expect((await store.dueFor('s-a', T4, 10, { skipLocked: true })).map((d) => d.id)).toEqual(['d-a']);
        expect((await store.dueFor('s-a', T4, 10)).map((d) => d.id)).toEqual(['d-m', 'd-z', 'd-a']);
      });
      expect((await store.dueFor('s-a', T4, 10, { skipLocked: true })).map((d) => d.id)).toEqual(['d-m', 'd-z', 'd-a']);
    });

    // The chain's outage test once left one event undelivered for longer than it waited: a look that claimed a row
    // (a lease in the table) and then lost its connection neither sent it nor gave it back, so it waited for the
    // lease to run out (60 s). Sessions terminated many times a second make every such gap likely to be hit.
    it('PostgreSQL: sessions terminated again and again while events go out: every one delivered without waiting out a lease', skipFor(db.name === 'postgres' ? null : 'leases in the table are PostgreSQL\'s; SQLite claims in memory'), async () => {
      const box = secretBox(randomBytes(32));
      const got = new Set<string>();
      const receiver = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          got.add(String(req.headers['webhook-id']));
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES ('w-term', 'w-term', 'IN', 'Asia/Kolkata', ${T0})`.execute(t.e.k);
      await webhookStore(t.e).insertSubscription(sub('s-term', 'w-term', `${base}/term`, new Date().toISOString(),
        { protocol: 'http', event_names: '["v2rx.completed"]' }));
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      // Connections of its own, whose breaking is counted rather than logged (hundreds of times).
      let broken = 0;
      const database = openSql({ postgresUrl: t.url!, onIdleClientError: () => (broken += 1) });
      const e = rootExecutor(database, null);
      // Attempts never fail here (the receiver always answers 200), so any delay is the database's.
      const dispatcher = webhookDispatcher(e, systemClock, box, { pollIntervalMs: 50, leaseMs: 60_000, onError: () => {} });
      const events = outbox(systemClock, (written) => dispatcher.offer(written));
      const emitted: string[] = [];
      let terminating = true;
      let terminations = 0;
      // On a slow machine a transaction can take longer than the gap between terminations, and the emitter would
      // never get one through: after three failures in a row the terminator holds off until one commits.
      let failedInRow = 0;
      const terminator = (async () => {
        while (terminating) {
          if (failedInRow < 3) {
            const { rows } = await sql<{ n: number }>`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'clinic-desk'`.execute(t.e.k).catch(() => ({ rows: [{ n: 0 }] }));
            terminations += rows[0]!.n;
          }
          await sleep(3 + Math.random() * 12);
        }
      })();
      dispatcher.start();
      try {
        // 100 events, each once the one before is committed: most transactions fail and are tried again, so they
        // still see hundreds of terminations and broken idle clients. With the dispatcher as it was before these
        // gaps were closed (leases of a failed look or a lost commit left to run out), 88-98 of them were
        // undelivered at 10 s.
        for (let i = 0; i < 100; i++) {
          for (;;) {
            const ids = await transaction(e, (tx) => events.emit(tx, 'w-term', 'v2rx.completed', { transaction_id: `t${i}`, session_id: 's' }))
              .catch(() => null);
            if (ids) {
              emitted.push(...ids);
              failedInRow = 0;
              break;
            }
            failedInRow += 1;
            await sleep(5);
          }
          await sleep(5);
        }
        terminating = false;
        await terminator;
        // Every event at the receiver and every delivery settled in the table (a result not written is sent again,
        // and written), well within the 60 s lease: the dispatcher polls every 50 ms.
        const unsettled = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries
          WHERE subscription_id = 's-term' AND status <> 'delivered'`.execute(t.e.k)).rows[0]!.n;
        const deadline = Date.now() + 10_000;
        while ((emitted.some((id) => !got.has(id)) || dispatcher.inFlight() > 0 || await unsettled() > 0) && Date.now() < deadline) await sleep(50);
        expect(terminations).toBeGreaterThan(20);
        expect(broken).toBeGreaterThan(0);
        expect(emitted.filter((id) => !got.has(id))).toEqual([]);
        expect(await unsettled()).toBe(0);
        expect(dispatcher.inFlight()).toBe(0);
      } finally {
        terminating = false;
        await dispatcher.stop();
        await database.close();
        await new Promise((r) => receiver.close(r));
      }
    });

    it('the outbox and the dispatcher: an event raised in a transaction reaches its receiver signed; 410 Gone disables', async () => {
      const box = secretBox(randomBytes(32));
      const got: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
      const receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          got.push({ url: req.url!, headers: req.headers, body });
          res.writeHead(req.url === '/gone' ? 410 : 200).end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      const store = webhookStore(t.e);
      const now = new Date().toISOString();
      await store.insertSubscription(sub('s-ok', 'w3', `${base}/ok`, now, {
        protocol: 'http', signing_key_sealed: box.seal('secret-ok', subscriptionKeyContext('s-ok')),
      }));
      await store.insertSubscription(sub('s-gone', 'w3', `${base}/gone`, now, { protocol: 'http' }));
      const dispatcher = webhookDispatcher(t.e, systemClock, box, { pollIntervalMs: 20, onError: (e) => { throw e; } });
      const events = outbox(systemClock, () => dispatcher.wake());
      try {
        const data = {
          appointment_id: 'ap1', partner_appointment_id: null, patient_id: 'p1', status: 'checked_in', previous_status: 'booked', changed_at: now,
        };
        const ids = await transaction(t.e, (tx) => events.emit(tx, 'w3', 'appointment.statuschange', data));
        expect(ids).toHaveLength(1);
        // Nothing for an event no subscription asked for.
        expect(await transaction(t.e, (tx) => events.emit(tx, 'w3', 'v2rx.completed', { transaction_id: 'x', session_id: 'y' }))).toEqual([]);
        dispatcher.start();
        const deadline = Date.now() + 10_000;
        while ((got.length < 2 || dispatcher.inFlight() > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        await dispatcher.idle();
        expect(got.map((g) => g.url).sort()).toEqual(['/gone', '/ok']);
        const ok = got.find((g) => g.url === '/ok')!;
        expect(ok.headers['webhook-id']).toBe(ids[0]);
        expect(JSON.parse(ok.body)).toMatchObject({ event: 'appointment.statuschange', data });
        expect(verifySignature(ok.headers['webhook-signature'] as string, ok.body, 'secret-ok',
          { nowS: Math.floor(Date.now() / 1000), toleranceS: 300 })).toMatchObject({ ok: true });
        const [okRow] = await store.recentDeliveries('s-ok', 10);
        expect(okRow).toMatchObject({ event_id: ids[0], status: 'delivered', attempts: 1, last_status: 200 });
        expect((await store.attempts(okRow!.id)).map((a) => a.status)).toEqual([200]);
        const [goneRow] = await store.recentDeliveries('s-gone', 10);
        expect(goneRow).toMatchObject({ event_id: ids[0], status: 'disabled', attempts: 1, last_status: 410 });
        expect(await store.subscriptionById('s-gone')).toMatchObject({ status: 'disabled', disabled_reason: 'endpoint answered 410 Gone' });
      } finally {
        await dispatcher.stop();
        await new Promise((r) => receiver.close(r));
      }
    });

    it('recordAttempts: several attempts in one call, as recordAttempt one by one (a chunk of 4 and one of 1; a settled delivery left as it is)', async () => {
      const store = webhookStore(t.e);
      for (const n of [1, 2, 3, 4, 5]) {
        await store.insertEvent({ id: `ev-r${n}`, workspace_id: 'w2', type: 'appointment.statuschange', payload: '{}', created_at: T0 });
        await store.insertDelivery(`r${n}`, `ev-r${n}`, 's-w2', 'w2', T0);
      }
      await store.recordAttempt(attempt('r5', T1, 200, { status: 'delivered', retryStep: 0, nextAttemptAt: null }));
      await transaction(t.e, (tx) => webhookStore(tx).recordAttempts([
        attempt('r2', T1, 500, { status: 'pending', retryStep: 1, nextAttemptAt: T3 }),
        attempt('r1', T2, 200, { status: 'delivered', retryStep: 0, nextAttemptAt: null }),
        { ...attempt('r3', T1, null, { status: 'failed', retryStep: 7, nextAttemptAt: null }), error: 'timed out after 15000 ms' },
        attempt('r5', T2, 503, { status: 'pending', retryStep: 1, nextAttemptAt: T3 }), // late: r5 stays delivered
        attempt('r4', T2, 204, { status: 'delivered', retryStep: 0, nextAttemptAt: null }),
      ]));
      const row = (id: string, more: object) => ({
        id, event_id: `ev-${id}`, subscription_id: 's-w2', workspace_id: 'w2', status: 'pending', attempts: 1, retry_step: 0, next_attempt_at: null,
        last_status: null, last_error: null, created_at: T0, updated_at: T1, delivered_at: null, ...more,
      });
      expect(rec(await store.delivery('s-w2', 'r1'))).toEqual(row('r1', { status: 'delivered', last_status: 200, updated_at: T2, delivered_at: T2 }));
      expect(rec(await store.delivery('s-w2', 'r2'))).toEqual(row('r2', { retry_step: 1, next_attempt_at: T3, last_status: 500, last_error: 'HTTP 500' }));
      expect(rec(await store.delivery('s-w2', 'r3'))).toEqual(row('r3', { status: 'failed', retry_step: 7, last_error: 'timed out after 15000 ms' }));
      expect(rec(await store.delivery('s-w2', 'r4'))).toEqual(row('r4', { status: 'delivered', last_status: 204, updated_at: T2, delivered_at: T2 }));
      expect(rec(await store.delivery('s-w2', 'r5'))).toEqual(row('r5', { status: 'delivered', last_status: 200, delivered_at: T1 }));
      // Logged in the order given, every one of them.
      const logged = [...(await store.attemptsOf(['r1', 'r2', 'r3', 'r4', 'r5'])).values()].flat().sort((a, b) => a.id - b.id);
      // (Ids left out of the record: PostgreSQL's sequence also counts the inserts that failed earlier.)
      expect(rec(logged.map((a) => [a.delivery_id, a.status]))).toEqual([['r5', 200], ['r2', 500], ['r1', 200], ['r3', null], ['r5', 503], ['r4', 204]]);
      expect(await kindOf(store.recordAttempts([attempt('r2', T2, 200, { status: 'delivered', retryStep: 1, nextAttemptAt: null }),
        attempt('no-delivery', T2, 200, { status: 'delivered', retryStep: 0, nextAttemptAt: null })]))).toBe('foreign_key');
    });

    it('a delivery written in a savepoint that is rolled back is never sent, though the transaction around it commits', async () => {
      const box = secretBox(randomBytes(32));
      const got: string[] = [];
      const receiver = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          got.push(String(req.headers['webhook-id']));
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      await webhookStore(t.e).insertSubscription(sub('s-sp', 'w2', `${base}/sp`, new Date().toISOString(), { protocol: 'http', event_names: '["v2rx.completed"]' }));
      const errors: unknown[] = [];
      const dispatcher = webhookDispatcher(t.e, systemClock, box, { pollIntervalMs: 20, onError: (e) => errors.push(e) });
      const events = outbox(systemClock, (written) => dispatcher.offer(written));
      dispatcher.start();
      try {
        const kept = await transaction(t.e, async (tx) => {
          await expect(transaction(tx, async (inner) => {
            await events.emit(inner, 'w2', 'v2rx.completed', { transaction_id: 'undone', session_id: 'undone' });
            throw new Error('undo');
          })).rejects.toThrow('undo');
          return events.emit(tx, 'w2', 'v2rx.completed', { transaction_id: 'kept', session_id: 'kept' });
        });
        const deadline = Date.now() + 10_000;
        while (got.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, 200));
        await dispatcher.idle();
        expect(got).toEqual(kept);
        expect(errors).toEqual([]);
      } finally {
        await dispatcher.stop();
        await new Promise((r) => receiver.close(r));
      }
    });
  });
}

describe('webhooks store: SQLite and PostgreSQL read the same', skipFor(DATABASES.find((d) => d.skip)?.skip), () => {
  it('every recorded read is deep-equal across the two databases', () => {
    const sqlite = transcripts.get('sqlite');
    const postgres = transcripts.get('postgres');
    expect(sqlite?.length).toBeGreaterThan(25);
    expect(postgres).toEqual(sqlite);
  });
});

// Looked for at every wake-up of the dispatcher, several hundred times a second in a burst (docs/ARCHITECTURE.md,
// "What a webhook delivery costs"): on SQLite, which leases nothing, the due subscriptions come from the due index
// alone, not from a table read for every pending row; a subscription's due rows from that index, in its order.
describe('webhooks store on SQLite: what the dispatcher looks for reads the due index', () => {
  it('plans dueSubscriptions as a covering index scan and dueFor as an index search without a sort', async () => {
    const dir = tempDir('webhooks-store-plans');
    const raw = openDatabase({ file: join(dir, 'clinic-desk.sqlite') });
    const texts: string[] = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((text: string) => (texts.push(text), prepare(text))) as typeof raw.prepare;
    const database = openSql({ sqlite: raw });
    try {
      const store = webhookStore(rootExecutor(database, raw));
      await store.dueSubscriptions(T0);
      await store.dueFor('s-a', T0, 4, { except: ['d-1', 'd-2'] });
      const plan = (text: string) => (raw.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...text.split('?').slice(1).map(() => T0)) as { detail: string }[])
        .map((r) => r.detail).join('; ');
      const [subs, due] = [texts.find((t) => t.includes('GROUP BY subscription_id'))!, texts.find((t) => t.includes('JOIN webhook_events'))!];
      expect(plan(subs)).toMatch(/^SCAN webhook_deliveries USING COVERING INDEX webhook_deliveries_due; USE TEMP B-TREE FOR ORDER BY$/);
      expect(plan(due)).toMatch(/SEARCH d USING INDEX webhook_deliveries_due \(subscription_id=\? AND next_attempt_at<\?\)/);
      expect(plan(due)).not.toMatch(/TEMP B-TREE/);
    } finally {
      await database.close();
      raw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('plans recordAttempts\' UPDATE as a search by each delivery\'s id', async () => {
    const dir = tempDir('webhooks-store-plans');
    const raw = openDatabase({ file: join(dir, 'clinic-desk.sqlite') });
    const texts: string[] = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((text: string) => (texts.push(text), prepare(text))) as typeof raw.prepare;
    const database = openSql({ sqlite: raw });
    try {
      const store = webhookStore(rootExecutor(database, raw));
      raw.pragma('foreign_keys = OFF'); // no such deliveries: only the statements' plans are wanted
      await store.recordAttempts([attempt('d-1', T0, 200, { status: 'delivered', retryStep: 0, nextAttemptAt: null }),
        attempt('d-2', T0, 500, { status: 'pending', retryStep: 1, nextAttemptAt: T1 })]);
      const update = texts.find((t) => t.includes('UPDATE webhook_deliveries'))!;
      const params = [...update.matchAll(/\?/g)].map(() => 1);
      const plan = (raw.prepare(`EXPLAIN QUERY PLAN ${update}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
      expect(plan).toMatch(/SEARCH webhook_deliveries USING INDEX sqlite_autoindex_webhook_deliveries_1 \(id=\?\)/);
      expect(plan).not.toMatch(/SCAN webhook_deliveries/);
    } finally {
      await database.close();
      raw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The outbox hands the deliveries it wrote to the dispatcher once their transaction has committed (dispatcher.ts,
  // `offer`): on SQLite they are sent from memory, the table read only when memory may not hold everything due.
  it('sends a delivery the outbox hands over without reading it back from the table', async () => {
    const dir = tempDir('webhooks-store-offer');
    const raw = openDatabase({ file: join(dir, 'clinic-desk.sqlite') });
    const texts: string[] = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((text: string) => (texts.push(text), prepare(text))) as typeof raw.prepare;
    const database = openSql({ sqlite: raw });
    const got: string[] = [];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        got.push(String(req.headers['webhook-id']));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const e = rootExecutor(database, raw);
    const dispatcher = webhookDispatcher(e, systemClock, secretBox(randomBytes(32)), { pollIntervalMs: 60_000 });
    try {
      const now = new Date().toISOString();
      await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES ('w1', 'w1', 'IN', 'Asia/Kolkata', ${now})`.execute(e.k);
      const store = webhookStore(e);
      await store.insertSubscription(sub('s-1', 'w1', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, now, { protocol: 'http' }));
      const events = outbox(systemClock, (written) => dispatcher.offer(written));
      dispatcher.start();
      // The first look, at start, finds nothing due.
      const until = async (f: () => boolean) => {
        const deadline = Date.now() + 10_000;
        while (!f() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      };
      await until(() => texts.some((t) => t.includes('GROUP BY subscription_id')));
      const data = { appointment_id: 'a', partner_appointment_id: null, patient_id: 'p', status: 'CK', previous_status: 'BK', changed_at: now };
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(...await transaction(e, (tx) => events.emit(tx, 'w1', 'appointment.statuschange', data)));
      await until(() => got.length >= 5);
      await dispatcher.idle();
      expect(got.sort()).toEqual(ids.sort());
      expect((await store.recentDeliveries('s-1', 10)).map((d) => d.status)).toEqual(Array(5).fill('delivered'));
      // Never read back: the due rows' query (with their events' payloads) was not even prepared.
      expect(texts.filter((t) => t.includes('ev.payload'))).toEqual([]);
    } finally {
      await dispatcher.stop();
      await new Promise((r) => receiver.close(r));
      await database.close();
      raw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
