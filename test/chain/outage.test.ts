import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, findPostgresBin, startPostgresCluster } from '../../scripts/postgres-cluster.mjs';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { missing } from '../helpers/needs.js';
import { type ServerProcess, call, exited, spawnServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { until } from '../helpers/scribe.js';

/**
 * Issue 26, items 11 and 12: the chain survives its database. Two API instances (A with --demo, and B) and a
 * --workers-only process on a PostgreSQL cluster of this test's own, which it can restart. While searches (read
 * audit) and status changes (webhook events) run against A and B, every session of the database is terminated
 * (pg_terminate_backend), and then PostgreSQL is restarted with a few seconds without a server. Afterwards: every
 * process is still up, every request answered 200 or 503 in its family's error shape, every search answered 200 has
 * its read-audit entry, every accepted change is stored once and reached the receiver; then each stops cleanly.
 */

const APPOINTMENTS = 6;
const KEY = 'whsec_chain_outage_signing_key';
const ENV = {
  CLINIC_DESK_SANDBOX: '0',
  CLINIC_DESK_WEBHOOK_RETRY_SCHEDULE: Array(30).fill('0.2').join(','),
  CLINIC_DESK_WEBHOOK_POLL_INTERVAL_MS: '250',
  CLINIC_DESK_SCRIBE_POLL_INTERVAL_MS: '250',
};

let cluster: PostgresCluster | null = null;
const processes: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const p of processes) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGKILL');
      await exited(p.child);
    }
  }
  for (const clean of cleanups.reverse()) await clean();
  cluster?.stop();
});

async function query<R extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** The integrator's receiver: every delivery's event and data (signatures are another test's subject). */
async function receiver() {
  const deliveries: { event: string; data: Record<string, unknown> }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof deliveries)[number]);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  cleanups.push(() => new Promise<void>((r) => {
    server.close(() => r());
    server.closeAllConnections();
  }));
  const addr = server.address();
  return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hooks/outage`, deliveries };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Its own cluster, to restart: the binaries, not only a server to connect to.
const skip = missing('postgres') ?? findPostgresBin().reason ?? null;

describe('a chain while PostgreSQL goes away: terminated sessions and a restart under load (postgres)', skipFor(skip), () => {
  it('every process stays up and reconnects; 0 read-audit entries and 0 events lost', async () => {
    cluster = await startPostgresCluster();
    await query(cluster.url, 'CREATE DATABASE clinic');
    const dbUrl = new URL(cluster.url);
    dbUrl.pathname = '/clinic';
    const url = dbUrl.toString();

    const root = tempDir('chain-outage');
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const kekFile = join(root, 'chain.kek');
    writeFileSync(kekFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    const storageDir = join(root, 'shared-scribe');
    mkdirSync(storageDir);
    const args = (name: string) => {
      const dir = join(root, name);
      mkdirSync(dir);
      return ['--database-url', url, '--data-dir', dir, '--kek-file', kekFile, '--storage-dir', storageDir, '--log-level', 'warn'];
    };
    const start = async (name: string, extra: string[] = [], ready?: RegExp) => {
      const p = await spawnServer([...args(name), ...extra], ENV, ready);
      processes.push(p);
      return p;
    };
    // The three start together on the empty database: the first to take the migrations' lock migrates it, the others
    // wait for that (server/db/migrate-sql.ts), as a chain's processes started at once do.
    const [a, b, worker] = await Promise.all([start('a', ['--demo']), start('b'), start('w', ['--workers-only'], /workers running/)]);
    const ws = a.demo().workspaces[0] as DemoWorkspace;
    const token = ws.users.admin.auth_token;
    const instances = [a, b];

    const day = Date.now() + 24 * 3600_000;
    const appts: string[] = [];
    for (let i = 0; i < APPOINTMENTS; i++) {
      const res = await call(a.baseUrl, 'POST', '/dr/v1/appointment', {
        headers: { auth: token },
        body: { patient_id: ws.patients[i % ws.patients.length]!.patient_id, scheduled_at: new Date(day + i * 15 * 60_000).toISOString() },
      });
      expect(res.status, res.text).toBe(201);
      appts.push(res.json.data.appointment_id);
    }
    const rx = await receiver();
    const sub = await call(a.baseUrl, 'POST', '/notification/v1/connect/webhook/subscriptions', {
      headers: { authorization: `Bearer ${token}` },
      body: { event_names: ['appointment.statuschange'], endpoint: rx.url, signing_key: KEY },
    });
    expect(sub.status, sub.text).toBe(201);

    // The load: what each request answered, by status; anything but 200 and a 503 in the family's shape is a failure.
    const answered = new Map<string, number>();
    const unexpected: string[] = [];
    const count = (what: string) => answered.set(what, (answered.get(what) ?? 0) + 1);
    const exits: string[] = [];
    let loading = true;
    let stopping = false;
    for (const [name, p] of [['A', a], ['B', b], ['workers', worker]] as const) {
      p.child.once('exit', (code, signal) => {
        if (!stopping) exits.push(`${name} exited with ${code ?? signal}:\n${p.output().slice(-2000)}`);
      });
    }
    const searched: string[] = [];
    const answer = (what: string, res: Awaited<ReturnType<typeof call>>) => {
      count(`${what} ${res.status}`);
      if (res.status === 503 && res.json?.error?.code === 'SERVICE_UNAVAILABLE') return;
      if (res.status !== 200) unexpected.push(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
    };
    const searches = instances.map(async (instance, i) => {
      const mobile = ws.patients[i]!.mobile;
      while (loading && !exits.length) {
        const id = randomUUID();
        const res = await call(instance.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, {
          headers: { auth: token, 'x-request-id': id },
        }).catch((e: Error) => ({ status: 0, text: e.message, json: undefined, headers: new Headers() }));
        answer('search', res);
        if (res.status === 200) searched.push(id);
      }
    });
    // Each appointment's changes one after another (no-show ⇄ check-in), a refused one tried again until answered:
    // an answer lost to a 503 after its commit is answered "already done" the second time.
    const confirmed = new Map<string, { from: string; to: string }[]>(appts.map((id) => [id, []]));
    const changes = appts.map(async (id, i) => {
      let status = 'BK';
      let n = i;
      while (loading && !exits.length) {
        const to = status === 'NS' ? 'CK' : 'NS';
        for (;;) {
          const res = await call(instances[n++ % 2]!.baseUrl, 'POST', `/dr/v1/appointment/${id}/change-status?partner_id=0`, {
            headers: { auth: token }, body: { status: to },
          }).catch((e: Error) => ({ status: 0, text: e.message, json: undefined, headers: new Headers() }));
          answer('change', res);
          if (res.status === 200 || exits.length) break;
          await sleep(50);
        }
        if (exits.length) return;
        confirmed.get(id)!.push({ from: status, to });
        status = to;
      }
    });

    await sleep(1000);
    const terminated = await query<{ pid: number }>(cluster.url,
      "SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity WHERE datname = 'clinic' AND pid <> pg_backend_pid()");
    await sleep(2000);
    await cluster.restart({ downMs: 2000 });
    await sleep(2000);
    loading = false;
    await Promise.all([...searches, ...changes]);

    const summary = JSON.stringify(Object.fromEntries(answered));
    expect(exits, summary).toEqual([]);
    expect(unexpected, summary).toEqual([]);
    expect(terminated.length).toBeGreaterThan(0);
    // The outage was felt while serving, and service came back after it.
    expect(answered.get('search 503') ?? 0, summary).toBeGreaterThan(0);
    expect(answered.get('search 200') ?? 0, summary).toBeGreaterThan(0);

    // Every search answered 200 has its read-audit entry (kept while the database was away, written after).
    const audited = async () => (await query<{ n: number }>(url,
      "SELECT count(DISTINCT request_id)::int AS n FROM audit_log WHERE action = 'patient.search' AND request_id = ANY($1)", [searched]))[0]!.n;
    await until(async () => (await audited()) === searched.length, `${searched.length} read-audit entries`, 20_000, 250)
      .catch(async (e: Error) => {
        throw new Error(`${e.message}: ${searched.length - await audited()} of ${searched.length} searches have no audit entry`);
      });

    // Every accepted change stored once, in order, and its event at the receiver.
    const stored: string[] = [];
    for (const id of appts) {
      const res = await call(a.baseUrl, 'GET', `/dr/v1/appointment/${id}?partner_id=0`, { headers: { auth: token } });
      expect(res.status, res.text).toBe(200);
      const history = (res.json.data.status_history as { from_status: string | null; to_status: string; changed_at: string }[])
        .filter((h) => h.from_status !== null);
      expect(history.map((h) => ({ from: h.from_status, to: h.to_status })), `history of ${id}`).toEqual(confirmed.get(id));
      for (const h of history) stored.push(`${id}|${h.from_status}|${h.to_status}|${h.changed_at}`);
    }
    const delivered = () => new Set(rx.deliveries.filter((d) => d.event === 'appointment.statuschange')
      .map((d) => `${d.data.appointment_id}|${d.data.previous_status}|${d.data.status}|${d.data.changed_at}`));
    await until(() => stored.every((k) => delivered().has(k)), `all ${stored.length} events at the receiver`, 30_000, 100)
      .catch(async (e: Error) => {
        // What the table says of those not delivered, so that a failure tells where the event stopped.
        const rows = await query(url, `SELECT d.status, d.attempts, d.retry_step, d.next_attempt_at, d.lease_until, d.last_status,
            d.last_error, e.payload FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.status <> 'delivered'`);
        const missed = stored.filter((k) => !delivered().has(k));
        throw new Error(`${e.message}: ${missed.length} not delivered (${missed.join(', ')}); at ${new Date().toISOString()} `
          + `the deliveries not delivered: ${JSON.stringify(rows)}`);
      });

    // Still the same processes, and each stops cleanly when told to.
    expect(exits).toEqual([]);
    stopping = true;
    for (const p of [a, b, worker]) p.child.kill('SIGTERM');
    expect(await Promise.all([a, b, worker].map((p) => exited(p.child)))).toEqual([0, 0, 0]);
    console.log(`chain outage test: ${summary}; ${terminated.length} sessions terminated; ${searched.length} searches audited; `
      + `${stored.length} changes delivered`);
  }, 120_000);
});
