/**
 * `npm run bench -- chain` (or `npx tsx bench/chain.ts [--patients N] [--duration S] [--rounds R] [--connections C]
 * [--latency-requests N] [--events N] [--rate R] [--appointments A] [--database-url URL] [--seed S] [--keep]`)
 *
 * The chain on PostgreSQL (issue 17), each figure against a baseline measured in the same run:
 *
 * a. Search by mobile at N patients (default 1,000,000). A fresh database (on `--database-url`, an admin URL to an
 *    existing server, else a throwaway cluster like the tests', scripts/postgres-cluster.mjs); instance A
 *    (`serve --database-url … --demo`) migrates it and makes the demo clinics; the patients are generated inside
 *    PostgreSQL (INSERT … SELECT from generate_series, pseudo-random but the same for the same --seed, families
 *    sharing a mobile, every CHECK and the patients_identity index honoured) and the seed time is reported. Then,
 *    in R rounds rotating which goes first, latency (1 connection, sequential: p50/p99) and throughput (C
 *    connections for S seconds) of ours against the db route: a bare Fastify route running the same SELECT through
 *    a pg Pool and mapping rows as ours does (its answers are checked equal to ours first). Target p99 < 5 ms.
 * b. Two instances against one: instance B joins the same database; C connections all on A, then split over A
 *    and B; the figure is two/one (the median of rounds' ratios). On a machine of two cores the load generator,
 *    PostgreSQL and the instances share them, so the ratio says what a second instance costs here, not what a
 *    second machine would add.
 * c. Webhook delivery, first with all changes on A (the baseline: one instance, as bench/webhooks.ts measures), then
 *    round-robin on A and B, to a receiver in this process (signatures checked): a burst of E changes (each of the
 *    appointments' changes back to back, all appointments at once) for deliveries/s, then E changes offered at R/s
 *    for the latency from a change's answer to its delivery, p50/p99.
 *
 * Figures go to bench/results/chain.json. `--db-server` (internal) runs the db route: this file is its process.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import pg from 'pg';
import type { DemoCredentials } from '../server/demo/demo.js';
import { toEntry } from '../server/patients/service.js';
import type { PatientRow } from '../server/patients/store.js';
import { verifySignature } from '../server/webhooks/signing.js';
import { type PostgresCluster, startPostgresCluster } from '../scripts/postgres-cluster.mjs';
import { type Child, atExit, figure, guardProcesses, round, startChild, stopChild, summarise, writeResults } from './common.js';

const SEARCH = '/dr/v1/business/patients/search';
const SUBS = '/notification/v1/connect/webhook/subscriptions';
const KEY = 'whsec_bench_chain_signing_key_0123';
const TARGET_P99_MS = 5;
const TARGET_DB_RATIO = 0.7;
const MISS_SHARE = 0.1;
const SEED_BATCH = 100_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
const fmtMs = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 3 : 1) : '-');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const portOf = (server: { address(): unknown }) => {
  const a = server.address() as { port?: number } | null;
  return a?.port ?? 0;
};

// ---------------------------------------------------------------------------------------------------------------
// The db route: the same SELECT as the patients store's byMobile on PostgreSQL (seq stands in for SQLite's rowid
// there), one pg Pool, rows mapped by the service's own toEntry; nothing else.

async function dbServer() {
  const { default: Fastify } = await import('fastify');
  const workspaceId = process.env.BENCH_WORKSPACE_ID!;
  const missBody = JSON.parse(process.env.BENCH_MISS_BODY!) as unknown;
  const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL!, max: Number(process.env.BENCH_POOL ?? 10) });
  const app = Fastify({ logger: false });
  app.get(SEARCH, async (request, reply) => {
    const { rows } = await pool.query<PatientRow>(
      `SELECT * FROM patients WHERE workspace_id = $1 AND mobile_national = $2 ORDER BY created_at DESC, seq DESC LIMIT 200`,
      [workspaceId, (request.query as { mobile?: string }).mobile ?? ''],
    );
    if (rows.length === 0) return reply.code(404).send(missBody);
    return { data: { profiles: rows.map(toEntry) }, status_code: 200, success: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  console.log(`db route listening on http://127.0.0.1:${portOf(app.server)}`);
  process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding inside PostgreSQL.

const FIRST = ['Aarav', 'Vivaan', 'Aditya', 'Arjun', 'Sai', 'Reyansh', 'Krishna', 'Ishaan', 'Rohan', 'Rahul', 'Amit', 'Suresh',
  'Ramesh', 'Vikram', 'Anil', 'Sunil', 'Manoj', 'Rajesh', 'Ananya', 'Diya', 'Aadhya', 'Saanvi', 'Priya', 'Pooja', 'Neha',
  'Kavya', 'Lakshmi', 'Sunita', 'Anita', 'Meena', 'Rekha', 'Geeta', 'Divya', 'Sneha', 'Asha', 'Fatima', 'Ayesha', 'Mary'];
const LAST = ['Sharma', 'Verma', 'Gupta', 'Singh', 'Kumar', 'Patel', 'Shah', 'Reddy', 'Rao', 'Nair', 'Menon', 'Iyer', 'Das',
  'Bose', 'Ghosh', 'Mukherjee', 'Joshi', 'Kulkarni', 'Deshpande', 'Pillai', 'Khan', 'Ali', 'Fernandes', 'DSouza', 'Yadav'];

/**
 * Patients n0..n1-1 of one clinic, made by PostgreSQL from hashes of (seed, n): the same rows for the same seed.
 * Ids are version 4 UUIDs in form. One in five shares the mobile of the patient before it (a family), with another
 * first name and date of birth; the rare row whose identity is taken anyway is skipped, as the seed command skips it.
 */
const SEED_SQL = `
WITH g AS (
  SELECT n, hashint8extended(n, $3) AS h, hashint8extended(CASE WHEN n % 5 = 1 THEN n - 1 ELSE n END, $3 + 1) AS hm
  FROM generate_series($1::bigint, $2::bigint - 1) AS n
), p AS (
  SELECT n, h,
    (6 + abs(hm % 4))::text || lpad(abs((hm / 4) % 1000000000)::text, 9, '0') AS mobile,
    ($4::text[])[1 + abs(h % array_length($4::text[], 1))] AS first_name,
    ($5::text[])[1 + abs((h / 64) % array_length($5::text[], 1))] AS last_name,
    date '1930-01-01' + abs((h / 4096) % 34000)::int AS dob,
    timestamp '2016-01-01' + abs((h / 65536) % 315360000) * interval '1 second' + abs(n % 1000) * interval '1 millisecond' AS created
  FROM g
)
INSERT INTO patients (id, workspace_id, first_name, middle_name, last_name, dob, gender, mobile_cc, mobile_national, email, name_key, created_at, updated_at)
SELECT overlay(overlay(md5($3::text || ':' || n::text) PLACING '4' FROM 13) PLACING substr('89ab', 1 + abs(h % 4)::int, 1) FROM 17)::uuid::text, $6, first_name, '', last_name, to_char(dob, 'YYYY-MM-DD'),
  CASE WHEN abs(h % 1000) < 3 THEN 'O' WHEN h % 2 = 0 THEN 'F' ELSE 'M' END, '91', mobile, NULL,
  lower(first_name) || chr(31) || lower(last_name),
  to_char(created, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(created, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
FROM p
ON CONFLICT DO NOTHING`;

async function seedPatients(url: string, workspaceId: string, patients: number, seed: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const t0 = performance.now();
    let inserted = 0;
    for (let n0 = 0; n0 < patients; n0 += SEED_BATCH) {
      const n1 = Math.min(patients, n0 + SEED_BATCH);
      inserted += (await client.query(SEED_SQL, [n0, n1, seed, FIRST, LAST, workspaceId])).rowCount ?? 0;
      console.log(`  ${fmtInt(n1)} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
    const insertSeconds = (performance.now() - t0) / 1000;
    await client.query('ANALYZE patients');
    const seconds = (performance.now() - t0) / 1000;
    const sample = await client.query<{ mobile_national: string }>(
      'SELECT mobile_national FROM patients WHERE workspace_id = $1 ORDER BY md5(id || $2::text) LIMIT 20000', [workspaceId, String(seed)]);
    return { inserted, insertSeconds: round(insertSeconds, 2), seconds: round(seconds, 2), rowsPerSecond: Math.round(inserted / seconds), sample: sample.rows.map((r) => r.mobile_national) };
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Load.

interface Phase { latencies: number[]; statuses: Record<number, number>; responses: number; errors: number; timeouts: number; seconds: number }

/** One autocannon run over `paths` in turn; every response's status and client-side time are kept. */
function load(baseUrl: string, paths: string[], token: string, opts: { connections: number; amount?: number; duration?: number }) {
  let next = Math.floor(Math.random() * paths.length);
  const phase: Phase = { latencies: [], statuses: {}, responses: 0, errors: 0, timeouts: 0, seconds: 0 };
  return new Promise<Phase>((resolve, reject) => {
    const instance = autocannon({
      url: baseUrl, connections: opts.connections, ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration }),
      headers: { auth: token },
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[(next = (next + 1) % paths.length)]! }) }],
    }, (err, res) => {
      if (err) return reject(err);
      Object.assign(phase, { errors: res.errors, timeouts: res.timeouts, seconds: res.duration });
      resolve(phase);
    });
    instance.on('response', (_c, status, _bytes, ms) => {
      phase.latencies.push(ms);
      phase.statuses[status] = (phase.statuses[status] ?? 0) + 1;
      phase.responses += 1;
    });
  });
}
const perSecond = (p: Phase) => p.responses / p.seconds;
const unexpected = (ps: Phase[]) => ps.reduce((n, p) => n + p.errors + p.timeouts
  + Object.entries(p.statuses).filter(([s]) => s !== '200' && s !== '404').reduce((m, [, c]) => m + c, 0), 0);

// ---------------------------------------------------------------------------------------------------------------
// Webhooks.

interface Delivery { key: string; at: number }

function receiver() {
  const seen = new Set<string>();
  const state = { deliveries: [] as Delivery[], duplicates: 0, rejected: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const raw = Buffer.concat(chunks);
      if (!verifySignature(req.headers['webhook-signature'] as string | undefined, raw, KEY, { nowS: Date.now() / 1000, toleranceS: 300 }).ok) {
        state.rejected += 1;
        res.writeHead(400).end();
        return;
      }
      res.writeHead(200).end();
      const id = String(req.headers['webhook-id']);
      if (seen.has(id)) {
        state.duplicates += 1;
        return;
      }
      seen.add(id);
      const { data } = JSON.parse(raw.toString('utf8')) as { data: { appointment_id: string; previous_status: string; status: string } };
      state.deliveries.push({ key: `${data.appointment_id}|${data.previous_status}|${data.status}`, at });
    });
  });
  return new Promise<{ url: string; state: typeof state; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${portOf(server)}/hooks/chain`, state,
      close: () => new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
    }));
  });
}
type Receiver = Awaited<ReturnType<typeof receiver>>;

/**
 * E changes offered at R/s (open loop), appointment after appointment, each appointment's next change sent once
 * its previous one is answered, so an appointment's changes are in order: its k-th check-in delivery is its k-th
 * check-in. Latency: from the change's answer reaching this process to its delivery (0 when the delivery came first).
 */
async function webhookPhase(targets: Child[], token: string, ids: string[], status: Map<string, string>, rx: Receiver, events: number, rate: number) {
  // `failed`: no answer (reset, refused), counted, never thrown: a rejection would come while the loop still paces,
  // before anything awaits it, and end the process (issue 26, item 10).
  const changes: { key: string; answeredAt: number; ok: boolean; failed: boolean }[] = [];
  const last = new Map<string, Promise<unknown>>();
  const t0 = performance.now();
  for (let i = 0; i < events; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 1) await sleep(wait);
    const id = ids[i % ids.length]!;
    const target = targets[i % targets.length]!;
    last.set(id, (last.get(id) ?? Promise.resolve()).then(async () => {
      const from = status.get(id)!;
      const to = from === 'CK' ? 'NS' : 'CK';
      status.set(id, to);
      const answer = await fetch(`${target.baseUrl}/dr/v1/appointment/${id}/change-status?partner_id=0`, {
        method: 'POST', headers: { auth: token, 'content-type': 'application/json' }, body: JSON.stringify({ status: to }),
      }).then(async (res) => (await res.arrayBuffer(), res.status), () => null);
      changes.push({ key: `${id}|${from}|${to}`, answeredAt: performance.now(), ok: answer === 200, failed: answer === null });
    }));
  }
  await Promise.all(last.values());
  const ok = changes.filter((c) => c.ok).length;
  const end = performance.now() + 30_000 + events * 20;
  while (rx.state.deliveries.length < ok && performance.now() < end) await sleep(10);
  const deliveries = rx.state.deliveries.splice(0);
  const byKey = new Map<string, number[]>();
  for (const d of deliveries) byKey.set(d.key, [...(byKey.get(d.key) ?? []), d.at]);
  const taken = new Map<string, number>();
  const latencies: number[] = [];
  for (const c of changes) {
    if (!c.ok) continue;
    const k = taken.get(c.key) ?? 0;
    taken.set(c.key, k + 1);
    const at = byKey.get(c.key)?.sort((x, y) => x - y)[k];
    if (at !== undefined) latencies.push(Math.max(0, at - c.answeredAt));
  }
  const lastDelivery = deliveries.length ? Math.max(...deliveries.map((d) => d.at)) : NaN;
  return {
    instances: targets.length,
    changes: changes.length,
    failedChanges: changes.length - ok,
    failedRequests: changes.filter((c) => c.failed).length,
    delivered: deliveries.length,
    deliveriesPerSecond: Math.round(deliveries.length / ((lastDelivery - t0) / 1000)),
    offeredPerSecond: rate,
    latencyMs: summarise(latencies),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The benchmark.

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      patients: { type: 'string', default: '1000000' },
      duration: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '10' },
      'latency-requests': { type: 'string', default: '2000' },
      events: { type: 'string', default: '1000' },
      rate: { type: 'string', default: '200' },
      appointments: { type: 'string', default: '100' },
      'database-url': { type: 'string' },
      seed: { type: 'string', default: '17' },
      keep: { type: 'boolean', default: false },
      'db-server': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values['db-server']) return dbServer();
  const num = (name: 'patients' | 'duration' | 'rounds' | 'connections' | 'latency-requests' | 'events' | 'rate' | 'appointments' | 'seed', min: number) => {
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number of at least ${min}`);
    return n;
  };
  const params = {
    patients: Math.floor(num('patients', 1)), duration: num('duration', 1), rounds: Math.floor(num('rounds', 1)),
    connections: Math.floor(num('connections', 2)), latencyRequests: Math.floor(num('latency-requests', 100)),
    events: Math.floor(num('events', 10)), rate: num('rate', 1), appointments: Math.floor(num('appointments', 1)), seed: Math.floor(num('seed', 0)),
  };
  const started = Date.now();
  const root = mkdtempSync(join(tmpdir(), 'clinic-desk-bench-chain-'));
  const children: Child[] = [];
  let cluster: PostgresCluster | null = null;
  let dropDatabase: (() => Promise<void>) | null = null;
  let rx: Receiver | null = null;
  const cleanup = async () => {
    await rx?.close();
    for (const c of children) await stopChild(c);
    if (!values.keep) {
      await dropDatabase?.();
      cluster?.stop();
      rmSync(root, { recursive: true, force: true });
    }
  };
  // Run however the part ends: a signal, an uncaught error (common.ts, guardProcesses), or its own end below.
  guardProcesses();
  const unregister = atExit(cleanup);

  try {
    // PostgreSQL and a fresh database on it.
    let adminUrl = values['database-url'];
    if (!adminUrl) {
      cluster = await startPostgresCluster().catch((e: Error) => {
        throw new Error(`no PostgreSQL to benchmark on (pass --database-url with an admin URL to use a running one): ${e.message}`);
      });
      adminUrl = cluster.url;
    }
    const name = `bench_chain_${randomBytes(4).toString('hex')}`;
    const admin = async (q: string) => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(q);
      } finally {
        await c.end();
      }
    };
    await admin(`CREATE DATABASE "${name}"`);
    dropDatabase = () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();
    console.log(`clinic-desk chain benchmark: PostgreSQL database ${name}${cluster ? ' (throwaway cluster)' : ''}, ${fmtInt(params.patients)} patients`);

    // The instances: one key file and one storage folder for the chain, a data folder each.
    const kekFile = join(root, 'chain.kek');
    writeFileSync(kekFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    const storageDir = join(root, 'storage');
    mkdirSync(storageDir);
    const instance = async (label: string, extra: string[] = []) => {
      const dataDir = join(root, label);
      mkdirSync(dataDir);
      const c = await startChild(`instance ${label}`, ['server/cli/serve.ts', '--port', '0', '--database-url', databaseUrl, '--data-dir', dataDir,
        // The load comes from this one address: the per-address connection cap (a LAN client's) must not cut it off.
        '--kek-file', kekFile, '--storage-dir', storageDir, '--log-level', 'warn', '--max-connections-per-address', '4096', ...extra],
        { CLINIC_DESK_SANDBOX: '0' })
        .catch((e: Error) => {
          throw new Error(`instance ${label} did not start on PostgreSQL (serve needs --database-url and --storage-dir, issue 17): ${e.message}`);
        });
      children.push(c);
      return { c, dataDir };
    };
    const a = await instance('a', ['--demo']);
    const creds = JSON.parse(readFileSync(join(a.dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
    const ws = creds.workspaces[0]!;
    const token = ws.users.reception.auth_token;

    // a. Search at scale.
    console.log(`seeding ${fmtInt(params.patients)} patients into "${ws.name}" inside PostgreSQL ...`);
    const seed = await seedPatients(databaseUrl, ws.workspace_id, params.patients, params.seed);
    console.log(`seeded ${fmtInt(seed.inserted)} patients in ${seed.seconds.toFixed(1)} s, ANALYZE included (${fmtInt(seed.rowsPerSecond)} rows/s)`);
    let r = params.seed + 1;
    const random = () => ((r = (Math.imul(r, 1103515245) + 12345) >>> 0) / 4294967296);
    const known = new Set(seed.sample);
    const mobiles = Array.from({ length: 50_000 }, () => {
      if (random() >= MISS_SHARE) return seed.sample[Math.floor(random() * seed.sample.length)]!;
      let m: string;
      do m = `${6 + Math.floor(random() * 4)}${String(Math.floor(random() * 1e9)).padStart(9, '0')}`; while (known.has(m));
      return m;
    });
    const paths = mobiles.map((m) => `${SEARCH}?mobile=${m}`);
    const answer = async (c: Child, m: string) => {
      const res = await fetch(`${c.baseUrl}${SEARCH}?mobile=${m}`, { headers: { auth: token } });
      return { status: res.status, body: await res.text() };
    };
    const probes = [...seed.sample.slice(0, 200), ...mobiles.filter((m) => !known.has(m)).slice(0, 5)];
    const ours = new Map<string, { status: number; body: string }>();
    for (const m of probes) {
      const x = await answer(a.c, m);
      // A number drawn as a miss may belong to a patient outside the sample: 200 is a right answer for it too.
      if (known.has(m) ? x.status !== 200 : x.status !== 404 && x.status !== 200) throw new Error(`search for ${m} answered ${x.status}: ${x.body}`);
      ours.set(m, x);
    }
    const missBody = [...ours.values()].find((x) => x.status === 404)?.body;
    if (!missBody) throw new Error('no search for an unknown mobile answered 404');
    const db = await startChild('db route', ['bench/chain.ts', '--db-server'], {
      BENCH_DATABASE_URL: databaseUrl, BENCH_WORKSPACE_ID: ws.workspace_id, BENCH_MISS_BODY: missBody, BENCH_POOL: String(params.connections),
    });
    children.push(db);
    for (const [m, x] of ours) {
      const d = await answer(db, m);
      if (d.status !== x.status || !isDeepStrictEqual(JSON.parse(d.body), JSON.parse(x.body))) {
        throw new Error(`the db route's answer for ${m} differs from ours:\nours ${x.status} ${x.body}\ndb   ${d.status} ${d.body}`);
      }
    }
    console.log(`ours ${a.c.baseUrl}, db route ${db.baseUrl} (same answers for ${ours.size} mobiles)`);
    for (const c of [a.c, db]) await load(c.baseUrl, paths, token, { connections: params.connections, duration: Math.min(3, params.duration) });
    const search = { ours: { latency: [] as Phase[], throughput: [] as Phase[] }, db: { latency: [] as Phase[], throughput: [] as Phase[] } };
    for (let i = 0; i < params.rounds; i++) {
      const order = i % 2 ? (['db', 'ours'] as const) : (['ours', 'db'] as const);
      for (const k of order) search[k].latency.push(await load((k === 'ours' ? a.c : db).baseUrl, paths, token, { connections: 1, amount: params.latencyRequests }));
      for (const k of order) search[k].throughput.push(await load((k === 'ours' ? a.c : db).baseUrl, paths, token, { connections: params.connections, duration: params.duration }));
      console.log(`round ${i + 1}/${params.rounds}: p99 ours ${fmtMs(summarise(search.ours.latency[i]!.latencies).p99)} ms, db ${fmtMs(summarise(search.db.latency[i]!.latencies).p99)} ms; `
        + `req/s ours ${fmtInt(perSecond(search.ours.throughput[i]!))}, db ${fmtInt(perSecond(search.db.throughput[i]!))}`);
    }
    const latency = { ours: summarise(search.ours.latency.flatMap((p) => p.latencies)), db: summarise(search.db.latency.flatMap((p) => p.latencies)) };
    const reqs = { ours: median(search.ours.throughput.map(perSecond)), db: median(search.db.throughput.map(perSecond)) };
    const dbRatio = median(search.ours.throughput.map((p, i) => perSecond(p) / perSecond(search.db.throughput[i]!)));

    // b. Two instances against one, the same connections in all.
    const b = await instance('b');
    const half = Math.max(1, Math.floor(params.connections / 2));
    await load(b.c.baseUrl, paths, token, { connections: half, duration: Math.min(3, params.duration) });
    const scale = { one: [] as Phase[], two: [] as Phase[][] };
    for (let i = 0; i < params.rounds; i++) {
      const one = () => load(a.c.baseUrl, paths, token, { connections: params.connections, duration: params.duration });
      const two = () => Promise.all([load(a.c.baseUrl, paths, token, { connections: half, duration: params.duration }),
        load(b.c.baseUrl, paths, token, { connections: params.connections - half, duration: params.duration })]);
      if (i % 2) {
        scale.two.push(await two());
        scale.one.push(await one());
      } else {
        scale.one.push(await one());
        scale.two.push(await two());
      }
      console.log(`round ${i + 1}/${params.rounds}: one instance ${fmtInt(perSecond(scale.one[i]!))} req/s, two ${fmtInt(scale.two[i]!.reduce((s, p) => s + perSecond(p), 0))} req/s`);
    }
    const twoPerSecond = scale.two.map((ps) => ps.reduce((s, p) => s + perSecond(p), 0));
    const twoOverOne = median(twoPerSecond.map((x, i) => x / perSecond(scale.one[i]!)));

    // c. Webhook delivery, one instance then two.
    const ids: string[] = [];
    const day = Date.now() + 24 * 3600_000;
    for (let i = 0; i < params.appointments; i++) {
      const res = await fetch(`${a.c.baseUrl}/dr/v1/appointment`, {
        method: 'POST', headers: { auth: ws.users.admin.auth_token, 'content-type': 'application/json' },
        body: JSON.stringify({ patient_id: ws.patients[i % ws.patients.length]!.patient_id, scheduled_at: new Date(day + i * 15 * 60_000).toISOString() }),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`booking answered ${res.status}: ${text}`);
      ids.push((JSON.parse(text) as { data: { appointment_id: string } }).data.appointment_id);
    }
    rx = await receiver();
    const sub = await fetch(`${a.c.baseUrl}${SUBS}`, {
      method: 'POST', headers: { authorization: `Bearer ${ws.users.admin.auth_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_names: ['appointment.statuschange'], endpoint: rx.url, signing_key: KEY }),
    });
    if (sub.status !== 201) throw new Error(`subscribing answered ${sub.status}: ${await sub.text()}`);
    const status = new Map(ids.map((id) => [id, 'BK']));
    const adminToken = ws.users.admin.auth_token;
    await webhookPhase([a.c, b.c], adminToken, ids, status, rx, Math.min(200, params.events), params.rate); // warm-up
    // Burst (every appointment's changes back to back, all appointments at once) for deliveries/s, paced for latency.
    const burstOne = await webhookPhase([a.c], adminToken, ids, status, rx, params.events, Infinity);
    const burstTwo = await webhookPhase([a.c, b.c], adminToken, ids, status, rx, params.events, Infinity);
    const hooksOne = await webhookPhase([a.c], adminToken, ids, status, rx, params.events, params.rate);
    const hooksTwo = await webhookPhase([a.c, b.c], adminToken, ids, status, rx, params.events, params.rate);
    for (const h of [burstOne, burstTwo, hooksOne, hooksTwo]) {
      console.log(`webhooks, ${h.instances} instance(s): ${fmtInt(h.changes)} changes ${Number.isFinite(h.offeredPerSecond) ? `at ${h.offeredPerSecond}/s` : 'as fast as answered'}, ${fmtInt(h.delivered)} delivered `
        + `(${fmtInt(h.deliveriesPerSecond)}/s); latency p50 ${fmtMs(h.latencyMs.p50)} ms, p99 ${fmtMs(h.latencyMs.p99)} ms`);
    }
    for (const c of children) if (c.child.exitCode !== null) throw new Error(`${c.name} died during the run:\n${c.output()}`);

    const bad = unexpected([...search.ours.latency, ...search.ours.throughput, ...search.db.latency, ...search.db.throughput, ...scale.one, ...scale.two.flat()]);
    const phases = [burstOne, burstTwo, hooksOne, hooksTwo];
    const lost = phases.reduce((n, h) => n + h.changes - h.failedChanges - h.delivered, 0);
    const valid = bad === 0 && lost === 0 && phases.every((h) => h.failedChanges === 0) && rx.state.rejected === 0;
    const failedRequests = phases.reduce((n, h) => n + h.failedRequests, 0);
    console.log('');
    console.log(`failed requests (no answer: connection reset, refused): ${failedRequests}`);
    console.log(`search p99 at ${fmtInt(seed.inserted)} patients on PostgreSQL: ours ${fmtMs(latency.ours.p99)} ms (db route ${fmtMs(latency.db.p99)} ms), `
      + `target < ${TARGET_P99_MS} ms: ${latency.ours.p99 < TARGET_P99_MS ? 'PASS' : 'MISS'}`);
    console.log(`search throughput, ${params.connections} connections: ours ${fmtInt(reqs.ours)} req/s, db route ${fmtInt(reqs.db)} req/s, ratio ${dbRatio.toFixed(2)}`);
    console.log(`two instances / one: ${twoOverOne.toFixed(2)} (${fmtInt(median(twoPerSecond))} vs ${fmtInt(median(scale.one.map(perSecond)))} req/s)`);
    if (!valid) console.log(`INVALID RUN: ${bad} unexpected answers or errors, ${lost} events not delivered, ${rx.state.rejected} bad signatures`);

    const report = {
      params, database: { name, throwawayCluster: cluster !== null },
      seed: { patients: seed.inserted, insertSeconds: seed.insertSeconds, seconds: seed.seconds, rowsPerSecond: seed.rowsPerSecond },
      search: { latency, requestsPerSecond: reqs, ratioDb: round(dbRatio), perRound: search.ours.throughput.map((p, i) => [Math.round(perSecond(p)), Math.round(perSecond(search.db.throughput[i]!))]) },
      instances: { oneRequestsPerSecond: scale.one.map((p) => Math.round(perSecond(p))), twoRequestsPerSecond: twoPerSecond.map(Math.round), twoOverOne: round(twoOverOne) },
      webhooks: { burstOne, burstTwo, pacedOne: hooksOne, pacedTwo: hooksTwo, duplicates: rx.state.duplicates, rejected: rx.state.rejected },
      valid, totalSeconds: round((Date.now() - started) / 1000, 1),
    };
    writeResults('chain', report, [
      figure(`search p99 on PostgreSQL, 1 connection (${fmtInt(seed.inserted)} patients)`, latency.ours.p99, 'ms', { op: '<', value: TARGET_P99_MS }),
      figure('search p99 on PostgreSQL, db route', latency.db.p99, 'ms'),
      figure('search throughput on PostgreSQL ours/db route', round(dbRatio), '', { op: '>=', value: TARGET_DB_RATIO }),
      figure(`PostgreSQL seed of ${fmtInt(seed.inserted)} patients`, seed.seconds, 's'),
      figure(`search req/s, two instances / one (${params.connections} connections)`, round(twoOverOne), ''),
      figure(`webhook delivery p99, two instances, ${params.rate}/s offered`, hooksTwo.latencyMs.p99, 'ms'),
      figure(`webhook delivery p50, two instances, ${params.rate}/s offered`, hooksTwo.latencyMs.p50, 'ms'),
      figure(`webhook delivery p99, one instance, ${params.rate}/s offered`, hooksOne.latencyMs.p99, 'ms'),
      figure('webhook deliveries/s, two instances (burst)', burstTwo.deliveriesPerSecond, '/s'),
      figure('webhook deliveries/s, one instance (burst)', burstOne.deliveriesPerSecond, '/s'),
      figure('failed requests (connection errors)', failedRequests, '', { op: '<=', value: 0 }),
    ]);
    console.log(`figures written to bench/results/chain.json; total ${report.totalSeconds} s`);
    if (!valid) process.exitCode = 1;
  } finally {
    unregister();
    await cleanup();
  }
}

main().catch((e) => {
  console.error(`bench:chain failed: ${e instanceof Error ? e.stack ?? e.message : e}`);
  process.exit(1);
});
