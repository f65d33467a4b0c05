/**
 * `npm run bench:search -- [--patients N] [--duration S] [--rounds R] [--warmup S] [--connections C] [--latency-requests N] [--seed S] [--cpu-prof DIR] [--keep]`
 *
 * Search by mobile at scale, against baselines measured in the same run (machines are noisy; absolute numbers
 * from different runs or machines are not comparable, the ratios are):
 *
 * 1. A fresh data directory gets the demo clinics and N synthetic patients (default 1,000,000) in the first one,
 *    with the seed command's code; the seed time is reported.
 * 2. In-process: `service.patients.search` called directly, no HTTP, to separate the database's cost from HTTP's.
 * 3. Three child processes:
 *    - ours: the real server (`server/cli/serve.ts`, default settings);
 *    - bare: a bare Fastify server with one GET route that answers every request with a real search result's JSON
 *      (same size, serialised per request, no hooks, no schema, no auth, no database): the ceiling of HTTP alone;
 *    - db: a bare Fastify route (no hooks, no schema, no auth, no audit) that runs the same prepared SQLite query
 *      (patients/store.ts, so the same index and rows) on the same database file and answers the same JSON, 404
 *      included (checked before the load: its bodies must equal ours). This is the fair baseline: what search
 *      costs with nothing but the query and the answer. Ours/db is the judged ratio; what separates them is auth,
 *      the tenant and scope checks, audit, validation, serialisation and the app's hooks.
 * 4. autocannon from this process against each, all warmed up first, then R rounds, rotating which goes first:
 *    a latency phase (1 connection, sequential requests: p50/p90/p99/max) and a throughput phase (C connections
 *    for S seconds: req/s). Each throughput ratio is the median over rounds of ours/baseline within a round, so
 *    that a burst of other work on the machine spoils one round rather than the result. Requests search random
 *    mobiles of seeded patients, one in ten a number nobody has (a 404 is a valid answer), with the demo
 *    reception user's token in the `auth` header.
 *
 * Targets: search p99 under 5 ms on one connection, and our throughput at least 80% of the db route's (ours/bare
 * is reported). The figures go to bench/results/search.json. Latencies are the client's own per-response timings
 * (autocannon's histogram rounds to whole milliseconds and leaves out 404s), taken from its `response` events.
 *
 * `--cpu-prof DIR` writes our server's V8 profile there when it stops (read it with bench/profile.ts, `--requests` from
 * the figures' responses).
 *
 * `--bare-server` and `--db-server` (internal) run the baselines: this file is also their child process.
 */
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { ensureDemo } from '../server/demo/demo.js';
import type { RequestContext } from '../server/auth/permissions.js';
import { rng, seedFromText, seedPatients } from '../server/cli/seed.js';
import { databaseFile } from '../server/config.js';
import { openDatabase } from '../server/db/database.js';
import { openSql } from '../server/db/sql.js';
import { rootExecutor } from '../server/db/tx.js';
import { toEntry } from '../server/patients/service.js';
import { patientStore } from '../server/patients/store.js';
import { createService } from '../server/service.js';
import { type Child, atExit, figure, guardProcesses, round, startChild, stopChild, summarise, writeResults } from './common.js';

const SEARCH = '/dr/v1/business/patients/search';
const TARGET_P99_MS = 5;
const TARGET_DB_RATIO = 0.8;
const MISS_SHARE = 0.1;

// ---------------------------------------------------------------------------------------------------------------
// The baseline: a bare Fastify route.

async function bareServer() {
  const { default: Fastify } = await import('fastify');
  const body = JSON.parse(process.env.BENCH_BARE_BODY ?? '{"data":{},"status_code":200,"success":true}') as unknown;
  const app = Fastify({ logger: false });
  app.get(SEARCH, async () => body);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  console.log(`bare fastify listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

/**
 * The fair baseline: the same prepared query (patients/store.ts) on the same database file, the rows mapped to the
 * interface's entries as ours maps them, and the same 404 body for a number nobody has; nothing else.
 */
async function dbServer() {
  const { default: Fastify } = await import('fastify');
  const workspaceId = process.env.BENCH_WORKSPACE_ID!;
  const missBody = JSON.parse(process.env.BENCH_MISS_BODY!) as unknown;
  const sqlite = openDatabase({ file: databaseFile(process.env.BENCH_DATA_DIR!), migrate: false });
  const store = patientStore(rootExecutor(openSql({ sqlite }), sqlite));
  const app = Fastify({ logger: false });
  app.get(SEARCH, async (request, reply) => {
    const rows = await store.byMobile(workspaceId, (request.query as { mobile?: string }).mobile ?? '');
    if (rows.length === 0) return reply.code(404).send(missBody);
    return { data: { profiles: rows.map(toEntry) }, status_code: 200, success: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  console.log(`db fastify listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers.

/**
 * CPU seconds (user + system) a process has used so far, from /proc; null elsewhere. Per request, it says what a
 * server costs even when other work on the machine disturbs req/s.
 */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
const fmtMs = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 3 : 1) : '-');

interface PhaseResult {
  latencies: number[];
  statuses: Record<number, number>;
  responses: number;
  bytes: number;
  errors: number;
  timeouts: number;
  seconds: number;
  /** CPU seconds the server used during the phase, when known. */
  serverCpu: number | null;
}

/** One autocannon run; every response's status, size and client-side time are kept. */
function load(server: Child, paths: string[], token: string, opts: { connections: number; amount?: number; duration?: number }) {
  let next = Math.floor(Math.random() * paths.length);
  const result: PhaseResult = { latencies: [], statuses: {}, responses: 0, bytes: 0, errors: 0, timeouts: 0, seconds: 0, serverCpu: null };
  const cpuBefore = cpuSeconds(server.child.pid);
  return new Promise<PhaseResult>((resolvePromise, reject) => {
    const instance = autocannon({
      url: server.baseUrl,
      connections: opts.connections,
      ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration }),
      headers: { auth: token },
      requests: [{
        method: 'GET',
        setupRequest: (req) => {
          next = (next + 1) % paths.length;
          return { ...req, path: paths[next]! };
        },
      }],
    }, (err, res) => {
      if (err) return reject(err);
      result.errors = res.errors;
      result.timeouts = res.timeouts;
      result.seconds = res.duration;
      const cpuAfter = cpuSeconds(server.child.pid);
      if (cpuBefore !== null && cpuAfter !== null) result.serverCpu = cpuAfter - cpuBefore;
      resolvePromise(result);
    });
    instance.on('response', (_client, statusCode, resBytes, responseTime) => {
      result.latencies.push(responseTime);
      result.statuses[statusCode] = (result.statuses[statusCode] ?? 0) + 1;
      result.responses++;
      result.bytes += resBytes;
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The benchmark.

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      patients: { type: 'string', default: '1000000' },
      duration: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      'latency-requests': { type: 'string', default: '2000' },
      warmup: { type: 'string', default: '10' },
      seed: { type: 'string', default: 'bench' },
      'cpu-prof': { type: 'string' },
      keep: { type: 'boolean', default: false },
      'bare-server': { type: 'boolean', default: false },
      'db-server': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values['bare-server']) return bareServer();
  if (values['db-server']) return dbServer();
  const num = (name: keyof typeof values, min: number) => {
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number of at least ${min}`);
    return n;
  };
  const params = {
    patients: Math.floor(num('patients', 1)),
    duration: num('duration', 1),
    rounds: Math.floor(num('rounds', 1)),
    connections: Math.floor(num('connections', 1)),
    latencyRequests: Math.floor(num('latency-requests', 100)),
    warmup: num('warmup', 0),
    seed: values.seed!,
  };
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'clinic-desk-bench-'));
  const children: Child[] = [];
  const cleanup = async () => {
    for (const c of children) await stopChild(c);
    if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
  };
  // Run however the part ends: a signal, an uncaught error (common.ts, guardProcesses), or its own end below.
  guardProcesses();
  const unregister = atExit(cleanup);

  try {
    console.log(`clinic-desk search benchmark: ${fmtInt(params.patients)} patients, ${cpus().length} CPUs, node ${process.version}`);
    console.log(`data: ${dataDir}${values.keep ? ' (kept)' : ''}`);

    // 1. Clinic and patients.
    const service = await createService({ dataDir });
    const demo = (await ensureDemo(service, 'http://127.0.0.1:0'))!;
    const ws = demo.workspaces[0]!;
    const token = ws.users.reception.auth_token;
    console.log(`seeding ${fmtInt(params.patients)} patients into "${ws.name}" ...`);
    const step = Math.max(1, Math.ceil(params.patients / 10));
    let shown = 0;
    const seed = await seedPatients(service, {
      workspaceId: ws.workspace_id, patients: params.patients, seed: seedFromText(params.seed), sampleMobiles: 20_000,
      onProgress: (n, s) => {
        if (Math.floor(n / step) === Math.floor(shown / step) && n < params.patients) return;
        shown = n;
        console.log(`  ${fmtInt(n)} (${s.toFixed(1)} s)`);
      },
    });
    const seedFigures = { patients: seed.inserted, seconds: round(seed.seconds, 2), rowsPerSecond: Math.round(seed.inserted / seed.seconds) };
    console.log(`seeded ${fmtInt(seed.inserted)} patients in ${seed.seconds.toFixed(1)} s (${fmtInt(seedFigures.rowsPerSecond)} rows/s)`);

    // The searches: mostly seeded mobiles, some numbers nobody has. The same list for every phase and target.
    const r = rng(seedFromText(`${params.seed}/queries`));
    const known = new Set(seed.sampleMobiles);
    const mobiles = Array.from({ length: 50_000 }, () => {
      if (r() >= MISS_SHARE) return seed.sampleMobiles[Math.floor(r() * seed.sampleMobiles.length)]!;
      let m: string;
      do m = `${6 + Math.floor(r() * 4)}${String(Math.floor(r() * 1e9)).padStart(9, '0')}`; while (known.has(m));
      return m;
    });
    const paths = mobiles.map((m) => `${SEARCH}?mobile=${m}`);

    // 2. In-process search: database and domain code only.
    const caller = (await service.auth.authenticateToken(token))!;
    const ctx: RequestContext = { caller, ip: '127.0.0.1', requestId: 'bench' };
    const inProcessSamples: number[] = [];
    let inProcessHits = 0;
    for (let i = 0; i < 25_000; i++) {
      const m = mobiles[i % mobiles.length]!;
      const t = process.hrtime.bigint();
      const rows = await service.patients.search(ctx, m);
      const dt = Number(process.hrtime.bigint() - t) / 1e6;
      if (i >= 5_000) inProcessSamples.push(dt); // the first 5,000 warm up
      if (rows.length) inProcessHits++;
      // Let the audit batch flush between calls, as it would between requests, outside the timings.
      if (i % 500 === 499) await new Promise((res) => setTimeout(res, 25));
    }
    const inProcess = summarise(inProcessSamples);
    console.log(`in-process search (no HTTP): p50 ${fmtMs(inProcess.p50)} ms, p99 ${fmtMs(inProcess.p99)} ms, max ${fmtMs(inProcess.max)} ms`
      + ` (${fmtInt(inProcess.n)} calls, ${Math.round((inProcessHits / 25_000) * 100)}% hits)`);
    await service.close();

    // 3. The servers. The bare one answers with a real search result of median size; the db one must answer
    // what ours answers, hits and misses alike, or its throughput would not be comparable.
    const profile = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
    const ours = await startChild('clinic-desk', [...profile, 'server/cli/serve.ts', '--port', '0', '--data-dir', dataDir]);
    children.push(ours);
    const search = async (c: Child, m: string) => {
      const res = await fetch(`${c.baseUrl}${SEARCH}?mobile=${m}`, { headers: { auth: token } });
      return { status: res.status, body: await res.text() };
    };
    const probes = [...seed.sampleMobiles.slice(0, 201), ...mobiles.filter((m) => !known.has(m)).slice(0, 5)];
    const oursAnswers = new Map<string, { status: number; body: string }>();
    for (const m of probes) {
      const a = await search(ours, m);
      if (a.status !== (known.has(m) ? 200 : 404)) throw new Error(`search for ${m} answered ${a.status}: ${a.body}`);
      oursAnswers.set(m, a);
    }
    const bodies = [...oursAnswers.values()].filter((a) => a.status === 200).map((a) => a.body).sort((a, b) => a.length - b.length);
    const bareBody = bodies[Math.floor(bodies.length / 2)]!;
    const missBody = [...oursAnswers.values()].find((a) => a.status === 404)!.body;
    const bare = await startChild('bare fastify', ['bench/search.ts', '--bare-server'], { BENCH_BARE_BODY: bareBody });
    children.push(bare);
    const db = await startChild('db fastify', ['bench/search.ts', '--db-server'], {
      BENCH_DATA_DIR: dataDir, BENCH_WORKSPACE_ID: ws.workspace_id, BENCH_MISS_BODY: missBody,
    });
    children.push(db);
    for (const [m, a] of oursAnswers) {
      const d = await search(db, m);
      if (d.status !== a.status || !isDeepStrictEqual(JSON.parse(d.body), JSON.parse(a.body))) {
        throw new Error(`the db route's answer for ${m} differs from ours:\nours ${a.status} ${a.body}\ndb   ${d.status} ${d.body}`);
      }
    }
    console.log(`servers: ours ${ours.baseUrl}, bare ${bare.baseUrl} (its body: ${bareBody.length} bytes, a median search result), `
      + `db ${db.baseUrl} (same answers as ours for ${oursAnswers.size} mobiles)`);

    // 4. Load. Warm all up (JIT, connection pools, SQLite's cache), then rotate the order. The figures are of a
    // server that has been answering a while: ours, with far more code than the baselines, takes 10-20 s of load to
    // reach its steady pace (measured: rounds after a 3 s warm-up rose from 0.59-0.64 of the db route to 0.75-0.77).
    // Every server gets the same warm-up.
    const keys = ['ours', 'db', 'bare'] as const;
    type Key = typeof keys[number];
    const targets = [{ key: 'ours' as Key, c: ours }, { key: 'db' as Key, c: db }, { key: 'bare' as Key, c: bare }];
    for (const t of targets) if (params.warmup > 0) await load(t.c, paths, token, { connections: params.connections, duration: params.warmup });
    const phases = Object.fromEntries(keys.map((k) => [k, { latency: [] as PhaseResult[], throughput: [] as PhaseResult[] }])) as
      Record<Key, { latency: PhaseResult[]; throughput: PhaseResult[] }>;
    for (let round = 0; round < params.rounds; round++) {
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
      for (const t of order) {
        process.stdout.write(`round ${round + 1}/${params.rounds}: ${t.key} latency (1 connection, ${fmtInt(params.latencyRequests)} requests) ... `);
        const res = await load(t.c, paths, token, { connections: 1, amount: params.latencyRequests });
        phases[t.key].latency.push(res);
        console.log(`p99 ${fmtMs(summarise(res.latencies).p99)} ms`);
      }
      for (const t of order) {
        process.stdout.write(`round ${round + 1}/${params.rounds}: ${t.key} throughput (${params.connections} connections, ${params.duration} s) ... `);
        const res = await load(t.c, paths, token, { connections: params.connections, duration: params.duration });
        phases[t.key].throughput.push(res);
        console.log(`${fmtInt(res.responses / res.seconds)} req/s`);
      }
    }
    for (const c of children) if (c.child.exitCode !== null) throw new Error(`${c.name} died during the run:\n${c.output()}`);

    // 5. Figures.
    const figures = (key: Key) => {
      const { latency, throughput } = phases[key];
      const all = [...latency, ...throughput];
      const statuses: Record<number, number> = {};
      for (const p of all) for (const [s, n] of Object.entries(p.statuses)) statuses[Number(s)] = (statuses[Number(s)] ?? 0) + n;
      const responses = all.reduce((a, p) => a + p.responses, 0);
      const tpResponses = throughput.reduce((a, p) => a + p.responses, 0);
      const tpSeconds = throughput.reduce((a, p) => a + p.seconds, 0);
      const cpu = throughput.every((p) => p.serverCpu !== null) ? throughput.reduce((a, p) => a + p.serverCpu!, 0) : null;
      return {
        latency: summarise(latency.flatMap((p) => p.latencies)),
        throughput: {
          requestsPerSecond: Math.round(tpResponses / tpSeconds),
          perRound: throughput.map((p) => Math.round(p.responses / p.seconds)),
          latencyUnderLoad: summarise(throughput.flatMap((p) => p.latencies)),
          serverCpuMicrosPerRequest: cpu === null ? null : Math.round((cpu / tpResponses) * 1e6),
        },
        statuses,
        errors: all.reduce((a, p) => a + p.errors, 0),
        timeouts: all.reduce((a, p) => a + p.timeouts, 0),
        bytesPerResponse: Math.round(all.reduce((a, p) => a + p.bytes, 0) / responses),
      };
    };
    const f = { ours: figures('ours'), db: figures('db'), bare: figures('bare') };
    const o = f.ours;
    // Each round's throughput phases ran back to back: their ratio is the least disturbed by whatever else the
    // machine was doing, and the median of the rounds' ratios the least by one bad round.
    const ratios = (base: Key) => {
      const perRound = o.throughput.perRound.map((x, i) => round(x / f[base].throughput.perRound[i]!, 3));
      return {
        perRound,
        median: [...perRound].sort((x, y) => x - y)[Math.floor((perRound.length - 1) / 2)]!,
        allRounds: round(o.throughput.requestsPerSecond / f[base].throughput.requestsPerSecond, 3),
      };
    };
    const vsDb = ratios('db');
    const vsBare = ratios('bare');
    // Anything but 200 and 404 (say a 401 from a broken token, or a 500) would make the figures meaningless.
    const unexpected = keys.flatMap((k) => Object.entries(f[k].statuses)
      .filter(([s]) => s !== '200' && !(s === '404' && k !== 'bare')).map(([s, n]) => [`${k} ${s}`, n] as const));
    const valid = unexpected.length === 0 && keys.every((k) => f[k].errors + f[k].timeouts === 0);
    const p99Pass = o.latency.p99 < TARGET_P99_MS;
    const ratioPass = vsDb.median >= TARGET_DB_RATIO;

    const cells = (pick: (x: typeof o) => number, fmt: (x: number) => string, ratio = true) => [
      fmt(pick(o)), fmt(pick(f.db)), fmt(pick(f.bare)),
      ratio ? (pick(o) / pick(f.db)).toFixed(2) : '', ratio ? (pick(o) / pick(f.bare)).toFixed(2) : '',
    ];
    const cpuOf = (x: typeof o) => x.throughput.serverCpuMicrosPerRequest ?? NaN;
    const rows: string[][] = [
      ['', 'ours (search)', 'db route', 'bare Fastify', 'ours/db', 'ours/bare'],
      ['latency, 1 connection', '', '', '', '', ''],
      ...(['p50', 'p90', 'p99', 'max'] as const).map((k) => [`  ${k} ms`, ...cells((x) => x.latency[k], fmtMs)]),
      [`throughput, ${params.connections} connections`, '', '', '', '', ''],
      ['  req/s, all rounds', ...cells((x) => x.throughput.requestsPerSecond, fmtInt)],
      ...o.throughput.perRound.map((_, i) => [`  req/s, round ${i + 1}`, ...cells((x) => x.throughput.perRound[i]!, fmtInt)]),
      ['  ratio: median of rounds', '', '', '', vsDb.median.toFixed(2), vsBare.median.toFixed(2)],
      ['  p50 ms under load', ...cells((x) => x.throughput.latencyUnderLoad.p50, fmtMs, false)],
      ['  p99 ms under load', ...cells((x) => x.throughput.latencyUnderLoad.p99, fmtMs, false)],
      ['  server CPU µs per request', ...cells(cpuOf, (x) => (Number.isFinite(x) ? fmtInt(x) : '-'))],
      ['responses', ...keys.map((k) => Object.entries(f[k].statuses).map(([s, n]) => `${s}: ${fmtInt(n)}`).join(', ')), '', ''],
      ['bytes per response', ...cells((x) => x.bytesPerResponse, fmtInt, false)],
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
    console.log('');
    for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('   '));
    console.log('');
    console.log(`in-process search (no HTTP): p50 ${fmtMs(inProcess.p50)} ms, p90 ${fmtMs(inProcess.p90)} ms, p99 ${fmtMs(inProcess.p99)} ms, max ${fmtMs(inProcess.max)} ms`);
    console.log(`seed: ${fmtInt(seedFigures.patients)} patients in ${seedFigures.seconds.toFixed(1)} s (${fmtInt(seedFigures.rowsPerSecond)} rows/s)`);
    console.log(`baselines: db route ${fmtInt(f.db.throughput.requestsPerSecond)} req/s, bare Fastify ${fmtInt(f.bare.throughput.requestsPerSecond)} req/s; `
      + `ours ${fmtInt(o.throughput.requestsPerSecond)} req/s = ${vsDb.median.toFixed(2)} of the db route, ${vsBare.median.toFixed(2)} of bare (medians of rounds)`);
    console.log(`target search p99 < ${TARGET_P99_MS} ms:             ${p99Pass ? 'PASS' : 'MISS'} (${fmtMs(o.latency.p99)} ms)`);
    console.log(`target throughput >= ${TARGET_DB_RATIO * 100}% of the db route:  ${ratioPass ? 'PASS' : 'MISS'} (${(vsDb.median * 100).toFixed(1)}%)`);
    if (!valid) {
      console.log(`INVALID RUN: unexpected answers ${JSON.stringify(Object.fromEntries(unexpected))}, `
        + `errors ${keys.map((k) => f[k].errors).join('/')}, timeouts ${keys.map((k) => f[k].timeouts).join('/')} (ours/db/bare)`);
    }

    const report = {
      params,
      seed: seedFigures,
      inProcessSearchMs: inProcess,
      ours: o,
      db: f.db,
      bare: { ...f.bare, bodyBytes: bareBody.length },
      throughputRatioDb: vsDb.median,
      throughputRatioDbPerRound: vsDb.perRound,
      throughputRatioDbAllRounds: vsDb.allRounds,
      throughputRatioBare: vsBare.median,
      throughputRatioBarePerRound: vsBare.perRound,
      throughputRatioBareAllRounds: vsBare.allRounds,
      valid,
      totalSeconds: round((Date.now() - started) / 1000, 1),
    };
    writeResults('search', report, [
      figure(`search p99, 1 connection (${fmtInt(params.patients)} patients)`, o.latency.p99, 'ms', { op: '<', value: TARGET_P99_MS }),
      figure('search throughput ours/db route (median of rounds)', vsDb.median, '', { op: '>=', value: TARGET_DB_RATIO }),
      figure('search throughput ours/bare Fastify (median of rounds)', vsBare.median, ''),
      figure(`search req/s ours, ${params.connections} connections`, o.throughput.requestsPerSecond, 'req/s'),
      figure(`search req/s db route, ${params.connections} connections`, f.db.throughput.requestsPerSecond, 'req/s'),
      figure(`search req/s bare Fastify, ${params.connections} connections`, f.bare.throughput.requestsPerSecond, 'req/s'),
      figure('search p99 in-process (no HTTP)', inProcess.p99, 'ms'),
    ]);
    console.log(`figures written to bench/results/search.json; total ${report.totalSeconds} s`);
    if (!valid) process.exitCode = 1;
  } finally {
    unregister();
    await cleanup();
  }
}

main().catch((e) => {
  console.error(`bench failed: ${e instanceof Error ? e.stack ?? e.message : e}`);
  process.exit(1);
});
