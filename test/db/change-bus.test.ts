import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeBus, MAX_PAYLOAD_BYTES, type ChangeBus, type ChangeBusOptions, type ChangeMeta, type ChangeTopics } from '../../server/db/change-bus.js';
import { openDatabase } from '../../server/db/database.js';
import { openSql, type SqlDatabase } from '../../server/db/sql.js';
import { DATABASES, freshPostgresDatabase, postgresSkipReason } from '../helpers/postgres.js';
import { tcpRelay } from '../helpers/relay.js';
import { skipFor } from '../helpers/skip.js';

type Received = { payload: unknown; meta: ChangeMeta };

/** Resolves when `check` holds, polling; fails with `what` after `ms`. */
async function until(what: string, check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Collects what a bus delivers on a topic. */
function collect<T extends keyof ChangeTopics>(bus: ChangeBus, topic: T, opts: { ignoreOwn?: boolean; read?: () => Promise<unknown> } = {}) {
  const got: Received[] = [];
  const reads: unknown[] = [];
  const resyncs = { count: 0 };
  const losses = { count: 0 };
  const stop = bus.subscribe(topic, (payload, meta) => {
    got.push({ payload, meta });
    if (opts.read) return opts.read().then((v) => void reads.push(v));
  }, { ignoreOwn: opts.ignoreOwn, onResync: () => void (resyncs.count += 1), onLost: () => void (losses.count += 1) });
  return { got, reads, resyncs, losses, stop };
}

/** One service instance's database handle, on the same SQLite file or PostgreSQL database as the others. */
interface Place {
  /** The PostgreSQL database's URL. */
  url?: string;
  open(opts?: ChangeBusOptions): { database: SqlDatabase; bus: ChangeBus };
  dispose(): Promise<void>;
}

async function place(name: 'sqlite' | 'postgres'): Promise<Place> {
  const opened: { database: SqlDatabase; bus: ChangeBus }[] = [];
  const disposeAll = async () => {
    for (const o of opened) {
      await o.bus.close();
      await o.database.close();
    }
  };
  if (name === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'change-bus-'));
    const raw = openDatabase({ file: join(dir, 'clinic.db') });
    raw.exec('CREATE TABLE flags (id TEXT PRIMARY KEY, v INTEGER NOT NULL)');
    return {
      open(opts) {
        const database = openSql({ sqlite: raw });
        const o = { database, bus: changeBus(database, opts) };
        opened.push(o);
        return o;
      },
      async dispose() {
        await disposeAll();
        raw.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const pgDb = await freshPostgresDatabase('change-bus');
  const setup = openSql({ postgresUrl: pgDb.url, poolSize: 1 });
  await sql`CREATE TABLE flags (id TEXT PRIMARY KEY, v INTEGER NOT NULL)`.execute(setup.db);
  await setup.close();
  return {
    url: pgDb.url,
    open(opts) {
      const database = openSql({ postgresUrl: pgDb.url, poolSize: 4 });
      const o = { database, bus: changeBus(database, { postgresUrl: pgDb.url, ...opts }) };
      opened.push(o);
      return o;
    },
    async dispose() {
      await disposeAll();
      await pgDb.drop();
    },
  };
}

const flag = async (database: SqlDatabase, id: string) =>
  (await sql<{ v: number }>`SELECT v FROM flags WHERE id = ${id}`.execute(database.db)).rows[0]?.v ?? null;

for (const { name, skip } of DATABASES) {
  describe(`change bus on one instance (${name})`, skipFor(skip), () => {
    let where: Place;
    let database: SqlDatabase;
    let bus: ChangeBus;
    const logged: string[] = [];
    beforeAll(async () => {
      where = await place(name);
      ({ database, bus } = where.open({ log: (line) => logged.push(line) }));
      await bus.ready();
    });
    afterAll(async () => {
      await where?.dispose();
    });

    it(`delivers a publish to this instance's subscribers, with its payload, before publish resolves (${name})`, async () => {
      const a = collect(bus, 'principals');
      const other = collect(bus, 'webhook-subscriptions');
      await bus.publish('principals', { reason: 'token_revoked' });
      expect(a.got).toStrictEqual([{ payload: { reason: 'token_revoked' }, meta: { from: bus.instanceId, own: true } }]);
      expect(other.got).toStrictEqual([]);
      a.stop();
      await bus.publish('principals', { reason: 'user_disabled' });
      expect(a.got).toHaveLength(1);
      other.stop();
    });

    it(`delivers a transaction's message after it commits, and a rolled-back one never (${name})`, async () => {
      const seen = collect(bus, 'webhook-subscriptions', { read: () => flag(database, 'f1') });
      await expect(bus.transaction(async (trx) => {
        await sql`INSERT INTO flags (id, v) VALUES ('f1', 1)`.execute(trx);
        await bus.publishIn(trx, 'webhook-subscriptions', { subscription_id: 's-rolled-back', change: 'deleted' });
        throw new Error('roll back');
      })).rejects.toThrow('roll back');
      expect(seen.got).toStrictEqual([]);

      await bus.transaction(async (trx) => {
        await sql`INSERT INTO flags (id, v) VALUES ('f1', 2)`.execute(trx);
        await bus.publishIn(trx, 'webhook-subscriptions', { subscription_id: 's-committed', change: 'deleted' });
        expect(seen.got, 'nothing is delivered before the commit').toStrictEqual([]);
      });
      expect(seen.got.map((r) => r.payload)).toStrictEqual([{ subscription_id: 's-committed', change: 'deleted' }]);
      await until('the handler to read the row', () => seen.reads.length === 1);
      expect(seen.reads).toStrictEqual([2]);
      seen.stop();
    });

    it(`refuses an oversized payload with a clear error, and rolls back the transaction it was sent in (${name})`, async () => {
      const seen = collect(bus, 'webhook-subscriptions');
      const big = { subscription_id: 'x'.repeat(MAX_PAYLOAD_BYTES), change: 'deleted' as const };
      await expect(bus.publish('webhook-subscriptions', big)).rejects.toThrow(/'webhook-subscriptions' payload of 10\d\d bytes is over the 1024-byte limit/);
      await expect(bus.transaction(async (trx) => {
        await sql`INSERT INTO flags (id, v) VALUES ('f-big', 1)`.execute(trx);
        await bus.publishIn(trx, 'webhook-subscriptions', big);
      })).rejects.toThrow(/over the 1024-byte limit/);
      expect(await flag(database, 'f-big')).toBeNull();
      expect(seen.got).toStrictEqual([]);
      seen.stop();
    });

    it(`refuses publishIn on a transaction the bus did not open (${name})`, async () => {
      await expect(database.transaction((trx) => bus.publishIn(trx, 'principals', { reason: 'token_revoked' })))
        .rejects.toThrow(/publishIn takes a transaction opened by the same bus/);
    });

    it(`skips this instance's own messages for a subscriber that asks, and survives a failing handler (${name})`, async () => {
      const own = collect(bus, 'sign-in', { ignoreOwn: true });
      bus.subscribe('sign-in', () => {
        throw new Error('handler broke');
      });
      const all = collect(bus, 'sign-in');
      await bus.publish('sign-in', { event: 'forgiven', user: 'digest-1' });
      expect(own.got).toStrictEqual([]);
      expect(all.got.map((r) => r.payload)).toStrictEqual([{ event: 'forgiven', user: 'digest-1' }]);
      expect(logged.some((l) => l.includes("a 'sign-in' subscriber failed: handler broke"))).toBe(true);
      expect(logged.join('\n'), 'payloads are never logged').not.toContain('digest-1');
    });
  });
}

describe('change bus across instances (postgres)', skipFor(postgresSkipReason()), () => {
  let where: Place;
  let url: string;
  let a: { database: SqlDatabase; bus: ChangeBus };
  let b: { database: SqlDatabase; bus: ChangeBus };
  const logged: string[] = [];
  const unsubscribe: (() => void)[] = [];
  beforeAll(async () => {
    where = await place('postgres');
    url = where.url!;
    a = where.open({ instanceId: 'instance-a', log: (l) => logged.push(l) });
    b = where.open({ instanceId: 'instance-b', log: (l) => logged.push(l), reconnectMinMs: 50 });
    await Promise.all([a.bus.ready(), b.bus.ready()]);
  });
  afterEach(() => {
    for (const f of unsubscribe.splice(0)) f();
  });
  afterAll(async () => {
    await where?.dispose();
  });

  const watch = <T extends keyof ChangeTopics>(bus: ChangeBus, topic: T, opts?: Parameters<typeof collect>[2]) => {
    const c = collect(bus, topic, opts);
    unsubscribe.push(c.stop);
    return c;
  };

  it('delivers a publish on A to subscribers on A and B, each once, with its payload (postgres)', async () => {
    const onA = watch(a.bus, 'principals');
    const onB = watch(b.bus, 'principals');
    await a.bus.publish('principals', { reason: 'workspace_disabled' });
    expect(onA.got).toStrictEqual([{ payload: { reason: 'workspace_disabled' }, meta: { from: 'instance-a', own: true } }]);
    await until('B to receive A\'s message', () => onB.got.length === 1);
    expect(onB.got).toStrictEqual([{ payload: { reason: 'workspace_disabled' }, meta: { from: 'instance-a', own: false } }]);
    // B's message is notified after A's, so once A has it, A's own echo has come and gone.
    await b.bus.publish('principals', { reason: 'user_disabled' });
    await until('A to receive B\'s message', () => onA.got.length === 2);
    expect(onA.got.map((r) => r.meta)).toStrictEqual([{ from: 'instance-a', own: true }, { from: 'instance-b', own: false }]);
    expect(onB.got.map((r) => r.meta)).toStrictEqual([{ from: 'instance-a', own: false }, { from: 'instance-b', own: true }]);
  });

  it('delivers nothing for a rolled-back transaction, and a committed one after its commit, to a handler that then reads the new row (postgres)', async () => {
    await sql`INSERT INTO flags (id, v) VALUES ('g', 0)`.execute(a.database.db);
    const onB = watch(b.bus, 'webhook-subscriptions', { read: () => flag(b.database, 'g') });
    await expect(a.bus.transaction(async (trx) => {
      await sql`UPDATE flags SET v = 1 WHERE id = 'g'`.execute(trx);
      await a.bus.publishIn(trx, 'webhook-subscriptions', { subscription_id: 'rolled-back', change: 'disabled' });
      throw new Error('roll back');
    })).rejects.toThrow('roll back');

    await a.bus.transaction(async (trx) => {
      await sql`UPDATE flags SET v = 2 WHERE id = 'g'`.execute(trx);
      await a.bus.publishIn(trx, 'webhook-subscriptions', { subscription_id: 'committed', change: 'disabled' });
      // Held open past the point a NOTIFY sent at once would have arrived.
      await new Promise((r) => setTimeout(r, 200));
      expect(onB.got, 'nothing reaches B before the commit').toStrictEqual([]);
    });
    await until('B to receive the committed message', () => onB.got.length >= 1);
    await until('B\'s handler to read the row', () => onB.reads.length >= 1);
    // Notifications arrive in commit order, so the rolled-back one would have come first.
    expect(onB.got.map((r) => r.payload)).toStrictEqual([{ subscription_id: 'committed', change: 'disabled' }]);
    expect(onB.reads).toStrictEqual([2]);
  });

  it('skips A\'s own messages for a subscriber on A that asks, not B\'s (postgres)', async () => {
    const onA = watch(a.bus, 'sign-in', { ignoreOwn: true });
    await a.bus.publish('sign-in', { event: 'failed', user: 'u-digest', address: 'ip-digest', at: 1 });
    await b.bus.publish('sign-in', { event: 'succeeded', user: 'u-digest', address: 'ip-digest' });
    await until('A to receive B\'s message', () => onA.got.length === 1);
    expect(onA.got).toStrictEqual([{ payload: { event: 'succeeded', user: 'u-digest', address: 'ip-digest' }, meta: { from: 'instance-b', own: false } }]);
  });

  it('reconnects B\'s listener after its backend is terminated, resyncs B\'s subscribers, and delivers again (postgres)', async () => {
    const onB = watch(b.bus, 'principals');
    const listenerPid = async () => (await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity
      WHERE application_name = ${'clinic-desk-bus:instance-b'} AND datname = current_database()`.execute(a.database.db)).rows.map((r) => r.pid);
    const [before] = await listenerPid();
    expect(before).toBeTypeOf('number');
    expect(b.bus.listening()).toBe(true);
    const { rows } = await sql<{ ok: boolean }>`SELECT pg_terminate_backend(${before}) AS ok`.execute(a.database.db);
    expect(rows).toStrictEqual([{ ok: true }]);

    const t0 = Date.now();
    // Told at once that messages are being missed (the principal cache stops caching), then resynced.
    await until('B to notice its listener is gone', () => onB.losses.count === 1, 5000);
    await until('B to resync', () => onB.resyncs.count === 1, 5000);
    expect(onB.losses.count).toBe(1);
    expect(b.bus.listening()).toBe(true);
    const after = await listenerPid();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect(logged.some((l) => l.startsWith('change bus instance-b: listener lost'))).toBe(true);
    console.log(`listener reconnected and resynced ${Date.now() - t0} ms after pg_terminate_backend`);

    await a.bus.publish('principals', { reason: 'user_tokens_revoked' });
    await until('B to receive a publish after reconnecting', () => onB.got.length === 1);
    expect(onB.got[0]!.payload).toStrictEqual({ reason: 'user_tokens_revoked' });
  });

  it('replaces a listening connection that stops answering without breaking, found by its health query (postgres)', async () => {
    const relay = await tcpRelay(new URL(url));
    try {
      const c = where.open({ instanceId: 'instance-c', postgresUrl: relay.url, healthCheckMs: 100, healthTimeoutMs: 300, reconnectMinMs: 50, log: (l) => logged.push(l) });
      const onC = watch(c.bus, 'principals');
      // Subscribed before its first connect: not listening yet, so told so at once.
      expect(onC.losses.count).toBe(1);
      await c.bus.ready();
      expect(onC.resyncs.count).toBe(1);
      relay.freeze();
      await a.bus.publish('principals', { reason: 'token_revoked' });
      await until('C to resync on a new connection', () => onC.resyncs.count === 2, 5000);
      expect(onC.got, 'the message sent while frozen is lost, which is what the resync covers').toStrictEqual([]);
      expect(logged.some((l) => l.startsWith('change bus instance-c: listener lost (health check failed'))).toBe(true);
      await a.bus.publish('principals', { reason: 'user_disabled' });
      await until('C to receive a publish on its new connection', () => onC.got.length === 1);
      expect(onC.got[0]!.payload).toStrictEqual({ reason: 'user_disabled' });
      await c.bus.close();
    } finally {
      await relay.close();
    }
  });

  it('delivers 1,000 committed messages from A to B in order; latency p50/p99 printed, one at a time and in a burst (postgres)', async () => {
    const order: string[] = [];
    const arrivedAt = new Map<string, number>();
    let arrived: () => void = () => undefined;
    unsubscribe.push(b.bus.subscribe('webhook-subscriptions', (p) => {
      order.push(p.subscription_id);
      arrivedAt.set(p.subscription_id, performance.now());
      arrived();
    }));
    const percentiles = (label: string, latencies: number[]) => {
      latencies.sort((x, y) => x - y);
      const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
      console.log(`change bus latency, publish on A to handler on B, 1,000 messages ${label}: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms`);
    };

    const oneByOne: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const id = `s${i}`;
      const got = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`message ${i} did not reach B within 5 s`)), 5000);
        arrived = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const t0 = performance.now();
      await a.bus.publish('webhook-subscriptions', { subscription_id: id, change: 'deleted' });
      await got;
      oneByOne.push(arrivedAt.get(id)! - t0);
    }
    percentiles('one at a time', oneByOne);
    expect(order).toStrictEqual(Array.from({ length: 1000 }, (_, i) => `s${i}`));

    arrived = () => undefined;
    const sentAt = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const id = `burst${i}`;
      sentAt.set(id, performance.now());
      await a.bus.publish('webhook-subscriptions', { subscription_id: id, change: 'deleted' });
    }
    await until('the burst to reach B', () => order.length === 2000);
    percentiles('in a burst (published back to back)', [...sentAt].map(([id, t0]) => arrivedAt.get(id)! - t0));
    expect(order.slice(1000)).toStrictEqual([...sentAt.keys()]);
  });

  it('stops listening when closed (postgres)', async () => {
    const c = where.open({ instanceId: 'instance-d' });
    await c.bus.ready();
    await c.bus.close();
    const listeners = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE application_name = ${'clinic-desk-bus:instance-d'}`.execute(a.database.db)).rows[0]!.n;
    let n = await listeners();
    // The backend goes away just after the client's goodbye.
    for (let tries = 0; n > 0 && tries < 100; tries++) n = await new Promise((r) => setTimeout(r, 20)).then(listeners);
    expect(n).toBe(0);
    await expect(c.bus.publish('principals', { reason: 'token_revoked' })).rejects.toThrow('change bus instance-d is closed');
  });
});
