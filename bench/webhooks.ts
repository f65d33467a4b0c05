/**
 * `npm run bench:webhooks -- [--events N] [--rate R] [--drivers C] [--appointments A] [--cpu-prof DIR] [--keep]`
 *
 * Webhook delivery of appointment.statuschange, end to end over HTTP, against a baseline measured in the same run:
 *
 * 1. Our real server as a child process (`server/cli/serve.ts --demo`, default dispatcher settings) on a fresh data
 *    directory; A appointments booked over HTTP; a receiver in this process (bare node:http, verifying each
 *    signature over the raw bytes as an integrator's receiver does, answering 200) subscribed with a signing key.
 * 2. Baselines: the receiver's raw capacity (plain signed POSTs from this process with a delivery's size and
 *    headers, 8 at a time), after an unmeasured warm-up, just before the burst and just after it; their mean is the
 *    receiver's capacity that both the burst and the paced rate are judged against (again after every phase,
 *    reported). And the
 *    disk's: single-row commits per second on a SQLite file beside the server's, opened as the server opens its
 *    own (WAL, synchronous=FULL: every commit waits for fsync), since each status change is such a commit.
 * 3. Burst: N status changes (check in ⇄ no-show) as fast as C concurrent clients get answers, each client on its
 *    own appointments, so every appointment's changes are in order. Events delivered per second = N / (first change
 *    sent → last delivery received); it cannot exceed the rate the API accepts changes, also reported.
 *    Judged against the receiver's capacity measured in the same run: target ≥ 0.6 of it.
 * 4. Paced: N changes offered at R per second, open loop; by default R is half the receiver's capacity (2.,
 *    above; so the target means the same on any machine; both are reported). Latency is from the
 *    change-status response reaching this process to the delivery reaching the receiver. Target p99 < 200 ms.
 *    Then N/4 changes at R/5 per second: the latency of an event when nothing queues (reported).
 * 5. Backlog: the receiver goes away for maintenance (every delivery answered 503 with a Retry-After naming the
 *    moment it is back, as an HTTP date), N changes are made as in the burst, and each of their deliveries is refused
 *    once; at that moment every one of them falls due together, and the dispatcher drains the backlog from its
 *    table. Events delivered per second = N / (the receiver back → the last delivery), judged against the same
 *    receiver capacity and target as the burst. The burst's figure is unchanged beside it: the two say different
 *    things (the burst is bounded by the rate the API accepts changes; a backlog exists already and measures the
 *    dispatcher alone).
 *
 * `--cpu-prof DIR` writes the server's V8 profile there when it stops (read it with bench/profile.ts).
 *
 * A request that fails (the connection reset, refused) is counted and reported as a figure, never ends the run
 * (issue 26, item 10); the server and the receiver are stopped however the run ends (common.ts, guardProcesses).
 *
 * Deliveries are matched to changes by appointment, status and changed_at (each appointment's changes are
 * sequential, so their order is the order of changed_at). A delivery that arrives before this process has
 * handled the API's response counts as 0 ms. Figures go to bench/results/webhooks.json.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../server/db/database.js';
import type { DemoCredentials } from '../server/demo/demo.js';
import { deliveryHeaders, encodeBody, verifySignature } from '../server/webhooks/signing.js';
import { type Child, atExit, figure, guardProcesses, round, startChild, stopChild, summarise, writeResults } from './common.js';

const SUBS = '/notification/v1/connect/webhook/subscriptions';
const KEY = 'whsec_bench_signing_key_0123456789';
const TARGET_P99_MS = 200;
/** Events delivered per second in a burst, as a share of the receiver's raw capacity. */
const TARGET_CAPACITY_SHARE = 0.6;
/** The paced phase's default rate, as a share of the receiver's raw capacity. */
const PACED_CAPACITY_SHARE = 0.5;
const BASELINE_CONCURRENCY = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmtMs = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : '-');
const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------------------------
// The receiver.

interface Delivery { appointmentId: string; status: string; changedAt: string; at: number }

function receiver() {
  const seen = new Set<string>();
  // awayUntil: epoch ms until which deliveries are refused (503 + Retry-After), 0 when the receiver is there.
  const state = { deliveries: [] as Delivery[], baseline: 0, duplicates: 0, rejected: 0, cutOff: 0, awayUntil: 0, refused: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    // A request cut off (the server stopping mid-delivery) is the sender's failure, not this process's: an 'error'
    // nobody listens for would end the run (issue 26, item 10: "uncaught ECONNRESET").
    req.on('error', () => void (state.cutOff += 1));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const raw = Buffer.concat(chunks);
      const v = verifySignature(req.headers['webhook-signature'] as string | undefined, raw, KEY, { nowS: Date.now() / 1000, toleranceS: 300 });
      if (!v.ok) {
        state.rejected += 1;
        res.writeHead(400).end(v.reason);
        return;
      }
      if (req.url !== '/baseline' && Date.now() < state.awayUntil) {
        state.refused += 1;
        res.writeHead(503, { 'retry-after': new Date(state.awayUntil).toUTCString() }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      if (req.url === '/baseline') {
        state.baseline += 1;
        return;
      }
      const id = String(req.headers['webhook-id']);
      if (seen.has(id)) {
        state.duplicates += 1;
        return;
      }
      seen.add(id);
      const body = JSON.parse(raw.toString('utf8')) as { data: { appointment_id: string; status: string; changed_at: string } };
      state.deliveries.push({ appointmentId: body.data.appointment_id, status: body.data.status, changedAt: body.data.changed_at, at });
    });
  });
  return new Promise<{ url: string; state: typeof state; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      const url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
      resolve({
        url, state,
        close: () => new Promise<void>((r) => {
          server.close(() => r());
          server.closeAllConnections();
        }),
      });
    });
  });
}
type Receiver = Awaited<ReturnType<typeof receiver>>;

/** Plain signed POSTs straight to the receiver: what it can take, whatever the server does. */
async function baseline(rx: Receiver, requests: number) {
  const body = encodeBody({
    event: 'appointment.statuschange',
    data: {
      appointment_id: randomUUID(), partner_appointment_id: null, patient_id: randomUUID(), status: 'CK', previous_status: 'NS',
      changed_at: new Date().toISOString(),
    },
    timestamp: new Date().toISOString(),
  });
  const before = rx.state.baseline;
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: BASELINE_CONCURRENCY }, async () => {
    while (next < requests) {
      next += 1;
      try {
        const res = await fetch(`${rx.url}/baseline`, {
          method: 'POST', body, headers: deliveryHeaders(randomUUID(), Math.floor(Date.now() / 1000), body, KEY),
        });
        await res.arrayBuffer();
        if (res.status !== 200) failed += 1;
      } catch {
        failed += 1;
      }
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  return {
    requests: rx.state.baseline - before, failed, seconds: round(seconds, 3), perSecond: Math.round((rx.state.baseline - before) / seconds),
  };
}

/** Committed single-row transactions per second, fsync'd as the server's are. */
function commitBaseline(dir: string, commits: number) {
  const file = join(dir, `commit-baseline-${process.pid}.sqlite`);
  const db = openDatabase({ file, migrate: false });
  try {
    db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const one = db.transaction((v: string) => insert.run(v));
    const t0 = performance.now();
    for (let i = 0; i < commits; i++) one(randomUUID());
    return Math.round(commits / ((performance.now() - t0) / 1000));
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Status changes.

/** `ok` false: the API refused it, or the request failed (`error`: no answer came, so it may or may not have happened). */
interface Change { appointmentId: string; status: string; sentAt: number; answeredAt: number; ok: boolean; error?: string }

/**
 * node:http rather than fetch for the status changes: it costs this process less CPU per request, and this
 * process must offer the paced rate while also receiving every delivery on a machine of two cores.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
function post(url: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

class Driver {
  readonly status = new Map<string, string>();
  private readonly last = new Map<string, Promise<unknown>>();

  constructor(private readonly baseUrl: string, private readonly token: string, appointments: string[]) {
    for (const a of appointments) this.status.set(a, 'BK');
  }

  /** Check in ⇄ no-show: both ways are allowed, so one appointment gives any number of real changes. */
  async change(appointmentId: string, into: Change[]): Promise<void> {
    const to = this.status.get(appointmentId) === 'CK' ? 'NS' : 'CK';
    this.status.set(appointmentId, to);
    const sentAt = performance.now();
    const res = await post(`${this.baseUrl}/dr/v1/appointment/${appointmentId}/change-status?partner_id=0`,
      { auth: this.token, 'content-type': 'application/json' }, JSON.stringify({ status: to }))
      .catch((e: unknown) => ({ status: 0, text: '', error: (e as { code?: string }).code ?? String(e) }));
    const answeredAt = performance.now();
    const ok = res.status === 200;
    const error = 'error' in res ? res.error : undefined;
    if (!ok && into.every((c) => c.ok)) console.error(`change-status ${error ? `failed: ${error}` : `answered ${res.status}: ${res.text.slice(0, 300)}`}`);
    into.push({ appointmentId, status: to, sentAt, answeredAt, ok, ...(error ? { error } : {}) });
  }

  /** A change that starts once the appointment's previous change is answered (open-loop pacing keeps order). */
  chained(appointmentId: string, into: Change[]): Promise<unknown> {
    const p = (this.last.get(appointmentId) ?? Promise.resolve()).then(() => this.change(appointmentId, into));
    this.last.set(appointmentId, p);
    return p;
  }
}

async function awaitDeliveries(rx: Receiver, expected: number, timeoutMs: number) {
  const end = performance.now() + timeoutMs;
  while (rx.state.deliveries.length < expected && performance.now() < end) await sleep(10);
}

/** Pairs each change with its delivery; latency from the API's answer (and from the request) to the receiver. */
function match(changes: Change[], deliveries: Delivery[]) {
  const byKey = new Map<string, Delivery[]>();
  for (const d of deliveries) {
    const k = `${d.appointmentId}|${d.status}`;
    if (!byKey.has(k)) byKey.set(k, []);
    byKey.get(k)!.push(d);
  }
  for (const list of byKey.values()) list.sort((a, b) => (a.changedAt < b.changedAt ? -1 : a.changedAt > b.changedAt ? 1 : 0));
  const fromAnswer: number[] = [];
  const fromSend: number[] = [];
  let beforeAnswer = 0;
  const taken = new Map<string, number>();
  for (const c of [...changes].sort((a, b) => a.sentAt - b.sentAt)) {
    if (!c.ok) continue;
    const k = `${c.appointmentId}|${c.status}`;
    const i = taken.get(k) ?? 0;
    taken.set(k, i + 1);
    const d = byKey.get(k)?.[i];
    if (!d) continue;
    if (d.at < c.answeredAt) beforeAnswer += 1;
    fromAnswer.push(Math.max(0, d.at - c.answeredAt));
    fromSend.push(d.at - c.sentAt);
  }
  return { fromAnswer: summarise(fromAnswer), fromSend: summarise(fromSend), matched: fromAnswer.length, beforeAnswer };
}

function phaseFigures(changes: Change[], rx: Receiver) {
  const deliveries = rx.state.deliveries.splice(0);
  const ok = changes.filter((c) => c.ok);
  const first = Math.min(...changes.map((c) => c.sentAt));
  const lastAnswer = Math.max(...changes.map((c) => c.answeredAt));
  const lastDelivery = deliveries.length ? Math.max(...deliveries.map((d) => d.at)) : NaN;
  const m = match(changes, deliveries);
  return {
    changes: changes.length,
    failedChanges: changes.length - ok.length,
    failedRequests: changes.filter((c) => c.error).length,
    delivered: deliveries.length,
    matched: m.matched,
    changesPerSecond: Math.round(changes.length / ((lastAnswer - first) / 1000)),
    eventsPerSecond: Math.round(deliveries.length / ((lastDelivery - first) / 1000)),
    apiLatencyMs: summarise(changes.map((c) => c.answeredAt - c.sentAt)),
    deliveryLatencyMs: m.fromAnswer,
    deliveryLatencyFromRequestMs: m.fromSend,
    deliveredBeforeAnswer: m.beforeAnswer,
    seconds: round((Math.max(lastAnswer, lastDelivery || 0) - first) / 1000, 3),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The benchmark.

async function main() {
  guardProcesses();
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      events: { type: 'string', default: '2000' },
      rate: { type: 'string' },
      drivers: { type: 'string', default: '16' },
      appointments: { type: 'string', default: '200' },
      'cpu-prof': { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const num = (name: 'events' | 'drivers' | 'appointments', min: number) => {
    const n = Math.floor(Number(values[name]));
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number of at least ${min}`);
    return n;
  };
  const rate = values.rate === undefined ? null : Math.floor(Number(values.rate));
  if (rate !== null && !(rate >= 1)) throw new Error('--rate must be a number of at least 1');
  const params = { events: num('events', 10), rate, drivers: num('drivers', 1), appointments: num('appointments', 1) };
  if (params.appointments < params.drivers) throw new Error('--appointments must be at least --drivers');
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'clinic-desk-bench-webhooks-'));
  let server: Child | null = null;
  let rx: Receiver | null = null;
  const cleanup = async () => {
    agent.destroy();
    await rx?.close();
    if (server) await stopChild(server);
    if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
  };
  const unregister = atExit(cleanup);
  try {
    console.log(`clinic-desk webhook benchmark: ${fmtInt(params.events)} status changes per phase, paced at `
      + `${params.rate === null ? `${PACED_CAPACITY_SHARE} of the receiver's capacity` : `${params.rate}/s`}`);
    const profile = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
    server = await startChild('clinic-desk', [...profile, 'server/cli/serve.ts', '--port', '0', '--data-dir', dataDir, '--demo', '--log-level', 'warn']);
    console.log(`server pid ${server.child.pid}, data ${dataDir}`);
    const creds = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
    const ws = creds.workspaces[0]!;
    const token = ws.users.admin.auth_token;

    // Appointments, booked before subscribing so their bookings raise nothing. One per booking's default length
    // (15 minutes) apart: the demo's few patients take turns, and a patient's overlapping booking would be refused
    // (409 PATIENT_DOUBLE_BOOKED); overbooking would measure something other than ordinary bookings.
    const ids: string[] = [];
    const day = Date.now() + 24 * 3600 * 1000;
    const spacingMs = 15 * 60_000;
    for (let i = 0; i < params.appointments; i++) {
      const res = await fetch(`${server.baseUrl}/dr/v1/appointment`, {
        method: 'POST', headers: { auth: token, 'content-type': 'application/json' },
        body: JSON.stringify({ patient_id: ws.patients[i % ws.patients.length]!.patient_id, scheduled_at: new Date(day + i * spacingMs).toISOString() }),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`booking answered ${res.status}: ${text}`);
      ids.push((JSON.parse(text) as { data: { appointment_id: string } }).data.appointment_id);
    }

    const live = await receiver();
    rx = live;
    const sub = await fetch(`${server.baseUrl}${SUBS}`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_names: ['appointment.statuschange'], endpoint: `${rx.url}/hooks/clinic`, signing_key: KEY }),
    });
    if (sub.status !== 201) throw new Error(`subscribing answered ${sub.status}: ${await sub.text()}`);
    console.log(`server ${server.baseUrl}, receiver ${rx.url}, ${params.appointments} appointments`);
    const driver = new Driver(server.baseUrl, token, ids);
    const deliveryTimeout = 30_000 + params.events * 20;

    // Unmeasured: the first few hundred requests of this process's client are compiled as they go, and measured
    // cold they made the receiver look 2-4 times slower than it is in the same run (379/s before, 1,681/s after).
    await baseline(rx, 500);
    const baselineBefore = await baseline(rx, params.events);
    const commitsBefore = commitBaseline(dataDir, Math.min(params.events, 500));
    console.log(`baseline: receiver raw capacity ${fmtInt(baselineBefore.perSecond)} POST/s (${BASELINE_CONCURRENCY} at a time); `
      + `SQLite ${fmtInt(commitsBefore)} commits/s (WAL, synchronous=FULL)`);

    // Warm-up: JIT, connection pools, SQLite's cache, on both sides.
    const warm: Change[] = [];
    await Promise.all(ids.slice(0, Math.min(ids.length, 100)).map((a) => driver.change(a, warm)));
    await awaitDeliveries(rx, warm.length, deliveryTimeout);
    rx.state.deliveries.length = 0;

    // Burst: as fast as the API answers, C clients, each with its own appointments.
    const asFastAsAnswered = async (into: Change[]) => {
      let issued = 0;
      await Promise.all(Array.from({ length: params.drivers }, async (_, d) => {
        const mine = ids.filter((_a, i) => i % params.drivers === d);
        for (let k = 0; issued < params.events; k++) {
          issued += 1;
          await driver.change(mine[k % mine.length]!, into);
        }
      }));
    };
    const burst: Change[] = [];
    await asFastAsAnswered(burst);
    await awaitDeliveries(rx, burst.filter((c) => c.ok).length, deliveryTimeout);
    const burstFigures = phaseFigures(burst, rx);
    // Measured on both sides of the burst, so that the burst is judged against what the receiver could take while it
    // ran, not seconds away from it, when the other work on a shared machine may be quite different.
    const baselineBurst = await baseline(rx, params.events);
    const receiverCapacity = Math.round((baselineBefore.perSecond + baselineBurst.perSecond) / 2);
    console.log(`burst: ${fmtInt(burstFigures.changes)} changes at ${fmtInt(burstFigures.changesPerSecond)}/s (${params.drivers} clients), `
      + `${fmtInt(burstFigures.delivered)} delivered at ${fmtInt(burstFigures.eventsPerSecond)} events/s; `
      + `latency p50 ${fmtMs(burstFigures.deliveryLatencyMs.p50)} ms, p99 ${fmtMs(burstFigures.deliveryLatencyMs.p99)} ms; `
      + `receiver ${fmtInt(baselineBurst.perSecond)} POST/s after it, ${fmtInt(receiverCapacity)}/s taken as its capacity`);

    // Paced: open loop, round-robin over the appointments; at the target rate, then at a fifth of it, which shows
    // the latency of one event when nothing queues.
    const pacedPhase = async (rate: number, count: number) => {
      const changes: Change[] = [];
      const pending: Promise<unknown>[] = [];
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const wait = t0 + (i * 1000) / rate - performance.now();
        if (wait > 1) await sleep(wait);
        pending.push(driver.chained(ids[i % ids.length]!, changes));
      }
      await Promise.all(pending);
      const offeredPerSecond = Math.round(count / ((Math.max(...changes.map((c) => c.sentAt)) - t0) / 1000));
      await awaitDeliveries(live, changes.filter((c) => c.ok).length, deliveryTimeout);
      const f = { ...phaseFigures(changes, live), offeredPerSecond };
      console.log(`paced: ${fmtInt(f.changes)} changes offered at ${fmtInt(offeredPerSecond)}/s, ${fmtInt(f.delivered)} delivered; `
        + `latency p50 ${fmtMs(f.deliveryLatencyMs.p50)} ms, p99 ${fmtMs(f.deliveryLatencyMs.p99)} ms, max ${fmtMs(f.deliveryLatencyMs.max)} ms`);
      return f;
    };
    const pacedRate = params.rate ?? Math.max(1, Math.round(receiverCapacity * PACED_CAPACITY_SHARE));
    const pacedFigures = await pacedPhase(pacedRate, params.events);
    const offeredPerSecond = pacedFigures.offeredPerSecond;
    const lightFigures = await pacedPhase(Math.max(1, Math.round(pacedRate / 5)), Math.max(50, Math.round(params.events / 4)));

    // Backlog: the receiver away until a whole second (an HTTP date's precision) far enough ahead for the changes and
    // one refused attempt each: twice the burst's time, and 2 s more. Checked below: a backlog only partly formed
    // (some first attempts after the receiver came back) is reported as such.
    const backlog: Change[] = [];
    const refusedBefore = live.state.refused;
    const awayMs = 2000 + (2 * burstFigures.seconds * 1000);
    live.state.awayUntil = Math.ceil((Date.now() + awayMs) / 1000) * 1000;
    const backAt = performance.now() + (live.state.awayUntil - Date.now());
    await asFastAsAnswered(backlog);
    const accepted = backlog.filter((c) => c.ok).length;
    while (live.state.refused - refusedBefore < accepted && performance.now() < backAt) await sleep(10);
    const refusedFirst = live.state.refused - refusedBefore;
    await awaitDeliveries(live, accepted, deliveryTimeout + (backAt - performance.now()));
    live.state.awayUntil = 0;
    const lastDelivered = Math.max(...live.state.deliveries.map((d) => d.at));
    const backlogFigures = phaseFigures(backlog, live);
    const drainPerSecond = Math.round(backlogFigures.delivered / ((lastDelivered - backAt) / 1000));
    const backlogFormed = refusedFirst >= accepted;
    console.log(`backlog: ${fmtInt(backlogFigures.changes)} changes at ${fmtInt(backlogFigures.changesPerSecond)}/s while the receiver was away `
      + `(${fmtInt(refusedFirst)} deliveries refused before it came back${backlogFormed ? '' : ': NOT ALL, the backlog was only partly formed'}); `
      + `${fmtInt(backlogFigures.delivered)} delivered in ${fmtMs(lastDelivered - backAt)} ms after it came back: ${fmtInt(drainPerSecond)} events/s`);

    const baselineAfter = await baseline(rx, params.events);
    const commitsAfter = commitBaseline(dataDir, Math.min(params.events, 500));
    console.log(`baseline: receiver raw capacity ${fmtInt(baselineAfter.perSecond)} POST/s; SQLite ${fmtInt(commitsAfter)} commits/s (after)`);
    if (server.child.exitCode !== null) throw new Error(`the server died during the run:\n${server.output()}`);

    const commitsPerSecond = Math.round((commitsBefore + commitsAfter) / 2);
    const phases = [burstFigures, pacedFigures, lightFigures, backlogFigures];
    const sum = (f: (p: typeof burstFigures) => number) => phases.reduce((n, p) => n + f(p), 0);
    // Lost: answered changes whose event never came. A change that got no answer may or may not have been made.
    const lost = sum((p) => p.changes - p.failedChanges - p.matched);
    const refused = sum((p) => p.failedChanges - p.failedRequests);
    const failedRequests = sum((p) => p.failedRequests) + baselineBefore.failed + baselineBurst.failed + baselineAfter.failed;
    const valid = refused === 0 && lost === 0 && rx.state.rejected === 0;
    const share = round(burstFigures.eventsPerSecond / receiverCapacity, 2);
    const drainShare = round(drainPerSecond / receiverCapacity, 2);
    const offeredShare = round(offeredPerSecond / receiverCapacity, 2);
    console.log('');
    console.log(`events delivered per second (burst):  ${fmtInt(burstFigures.eventsPerSecond)} = ${share.toFixed(2)} of the receiver's raw `
      + `capacity ${fmtInt(receiverCapacity)}/s   target >= ${TARGET_CAPACITY_SHARE}: ${share >= TARGET_CAPACITY_SHARE ? 'PASS' : 'MISS'}   `
      + `(the API took ${fmtInt(burstFigures.changesPerSecond)} changes/s, SQLite ${fmtInt(commitsPerSecond)} commits/s)`);
    console.log(`delivery latency p99 at ${fmtInt(offeredPerSecond)}/s offered (${offeredShare.toFixed(2)} of the receiver's `
      + `${fmtInt(receiverCapacity)}/s): ${fmtMs(pacedFigures.deliveryLatencyMs.p99)} ms   target < ${TARGET_P99_MS} ms: `
      + `${pacedFigures.deliveryLatencyMs.p99 < TARGET_P99_MS ? 'PASS' : 'MISS'}   (p50 ${fmtMs(pacedFigures.deliveryLatencyMs.p50)} ms; `
      + `${pacedFigures.deliveredBeforeAnswer} of ${pacedFigures.matched} arrived before the API's answer)`);
    console.log(`events delivered per second (backlog, the receiver back after an outage):  ${fmtInt(drainPerSecond)} = ${drainShare.toFixed(2)} of the `
      + `receiver's raw capacity ${fmtInt(receiverCapacity)}/s   target >= ${TARGET_CAPACITY_SHARE}: ${drainShare >= TARGET_CAPACITY_SHARE ? 'PASS' : 'MISS'}`
      + `${backlogFormed ? '' : '   (backlog only partly formed: the figure is not comparable)'}`);
    console.log(`failed requests (no answer: connection reset, refused): ${failedRequests}`);
    if (!valid) console.log(`INVALID RUN: ${refused} changes refused, ${lost} events not delivered, ${rx.state.rejected} deliveries with a bad signature`);

    const report = {
      params,
      receiverCapacity: { before: baselineBefore, afterBurst: baselineBurst, after: baselineAfter, used: receiverCapacity, concurrency: BASELINE_CONCURRENCY },
      sqliteCommitsPerSecond: { before: commitsBefore, after: commitsAfter },
      burst: burstFigures,
      paced: { ...pacedFigures, receiverShare: offeredShare },
      failedRequests,
      light: lightFigures,
      backlog: { ...backlogFigures, refusedBeforeBack: refusedFirst, formed: backlogFormed, awayMs: round(backAt - Math.min(...backlog.map((c) => c.sentAt)), 0), drainPerSecond, receiverShare: drainShare },
      duplicates: rx.state.duplicates,
      rejected: rx.state.rejected,
      valid,
      totalSeconds: round((Date.now() - started) / 1000, 1),
    };
    writeResults('webhooks', report, [
      figure('webhook delivered/s ÷ receiver capacity (burst)', share, '', { op: '>=', value: TARGET_CAPACITY_SHARE }),
      figure(`webhook delivered/s ÷ receiver capacity (backlog drained after an outage${backlogFormed ? '' : ', partly formed'})`, drainShare, '',
        { op: '>=', value: TARGET_CAPACITY_SHARE }),
      figure('webhook events delivered/s (backlog drained after an outage)', drainPerSecond, 'events/s'),
      figure(`webhook delivery p99 at ${offeredPerSecond}/s offered (${offeredShare} of the receiver's capacity)`,
        pacedFigures.deliveryLatencyMs.p99, 'ms', { op: '<', value: TARGET_P99_MS }),
      figure(`webhook delivery p50 at ${offeredPerSecond}/s offered`, pacedFigures.deliveryLatencyMs.p50, 'ms'),
      figure(`webhook delivery p99 at ${lightFigures.offeredPerSecond}/s offered`, lightFigures.deliveryLatencyMs.p99, 'ms'),
      figure(`status changes/s accepted by the API (burst, ${params.drivers} clients)`, burstFigures.changesPerSecond, '/s'),
      figure('webhook events delivered/s (burst)', burstFigures.eventsPerSecond, 'events/s'),
      figure('webhook receiver raw capacity (baseline)', receiverCapacity, 'POST/s'),
      figure('failed requests (connection errors)', failedRequests, '', { op: '<=', value: 0 }),
      figure('SQLite fsync\'d commits/s beside the server (baseline)', commitsPerSecond, '/s'),
    ]);
    console.log(`figures written to bench/results/webhooks.json; total ${report.totalSeconds} s`);
    if (!valid) process.exitCode = 1;
  } finally {
    unregister();
    await cleanup();
  }
}

main().catch((e) => {
  console.error(`bench:webhooks failed: ${e instanceof Error ? e.stack ?? e.message : e}`);
  process.exit(1);
});
