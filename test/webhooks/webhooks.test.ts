import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DemoCredentials, type DemoWorkspace, ensureDemo } from '../../server/demo/demo.js';
import { buildHttpApp } from '../../server/http/app.js';
import { createService, type Service } from '../../server/service.js';
import { DEFAULT_MAX_PER_SUBSCRIPTION } from '../../server/webhooks/dispatcher.js';
import { verifySignature } from '../../server/webhooks/signing.js';
import type { WebhookOptions } from '../../server/webhooks/service.js';
import { transaction } from '../../server/db/tx.js';
import { copyDemo } from '../helpers/demo-template.js';
import { DATABASES, type TestDatabase } from '../helpers/postgres.js';
import { ROOT, TEST_KEK, call, tempDir } from '../helpers/server.js';
import { rowOf } from '../helpers/service.js';
import { skipFor } from '../helpers/skip.js';

/**
 * Webhooks over real HTTP: subscriptions (endpoint 5) with their shapes, errors and workspace isolation, and
 * delivery from the outbox to receivers that are tiny node:http servers in this process, verifying the signature
 * over the raw bytes exactly as an integrator's receiver would. Retries run on a fast schedule; Retry-After is
 * tested by moving the service's clock, never by sleeping through it.
 */

const SUBS = '/notification/v1/connect/webhook/subscriptions';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Res = Awaited<ReturnType<typeof call>>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function until<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The service, started with webhook options of the test's choosing
// ---------------------------------------------------------------------------------------------------------------

/** The real clock moved by `offsetMs`: signatures stay checkable against it, and tests can jump hours ahead. */
function movableClock() {
  const c = { offsetMs: 0, now: () => new Date(Date.now() + c.offsetMs) };
  return c;
}

interface Running {
  baseUrl: string;
  service: Service;
  /** The PostgreSQL database it runs on, for a second instance; none on SQLite. */
  databaseUrl?: string;
  demo: DemoCredentials;
  close(): Promise<void>;
}

const running = new Set<Running>();
const dirs: string[] = [];

async function start(db: TestDatabase, webhooks: WebhookOptions = {}, clock?: { now(): Date }): Promise<Running> {
  // The demo clinics: a copy (helpers/demo-template.ts); a test's movable clock starts at the real now.
  const dataDir = tempDir('webhooks');
  const pg = await copyDemo(dataDir, db.name);
  const service = await createService({ kek: TEST_KEK, dataDir, clock, databaseUrl: pg?.url, webhooks: { pollIntervalMs: 100, ...webhooks } });
  const app = await buildHttpApp(service);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const demo = (await ensureDemo(service, baseUrl))!;
  const r: Running = {
    baseUrl, service, demo, databaseUrl: pg?.url,
    async close() {
      running.delete(r);
      await app.close();
      await service.close();
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  running.add(r);
  return r;
}

afterAll(async () => {
  for (const r of [...running]) await r.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function accessToken(s: Running, client: { client_id: string; client_secret: string }, ws: DemoWorkspace) {
  const res = await call(s.baseUrl, 'POST', '/api/v1/auth/token', {
    headers: { 'x-api-key': ws.api_key },
    body: { client_id: client.client_id, client_secret: client.client_secret, grant_type: 'client_credentials' },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.access_token as string;
}

const subscribe = (s: Running, token: string, body: unknown) => call(s.baseUrl, 'POST', SUBS, { headers: bearer(token), body });

async function subscribeOk(s: Running, token: string, body: Record<string, unknown>): Promise<string> {
  const res = await subscribe(s, token, { event_names: ['appointment.statuschange'], protocol: 'https', ...body });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

/** change-status as the front desk does it (admin user token in the auth header). */
async function changeStatus(s: Running, ws: DemoWorkspace, appointmentId: string, status: string) {
  const res = await call(s.baseUrl, 'POST', `/dr/v1/appointment/${appointmentId}/change-status?partner_id=0`, {
    headers: { auth: ws.users.admin.auth_token }, body: { status },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.data as { appointment_id: string; status: string; previous_status: string };
}

async function deliveries(s: Running, token: string, subId: string) {
  const res = await call(s.baseUrl, 'GET', `${SUBS}/${subId}/deliveries`, { headers: bearer(token) });
  expect(res.status, res.text).toBe(200);
  return res.json as {
    subscription: { id: string; status: string; disabled_reason: string | null };
    data: {
      id: string; event_id: string; event_name: string; status: string; attempts: number; next_attempt_at: string | null;
      last_status: number | null; last_error: string | null; delivered_at: string | null;
      attempt_log: { at: string; status: number | null; latency_ms: number; error: string | null }[];
    }[];
    msg: string;
  };
}

function expectWebhookError(res: Res, status: number, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  const code = status >= 500 ? 'SERVER_ERROR' : 'INVALID_REQUEST';
  expect(res.json).toStrictEqual({
    error: { code, message: message ? expect.stringMatching(message) : expect.stringMatching(/\S/), ...(status >= 500 ? { request_id: expect.any(String) } : {}) },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// A receiver as an integrator writes one
// ---------------------------------------------------------------------------------------------------------------

type Reply = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

interface Hit {
  id: string;
  raw: Buffer;
  headers: IncomingHttpHeaders;
  verified: boolean;
  /** What the receiver answered: a status, or 'hang' (no answer until the sender gives up). */
  reply: number | 'hang';
  nth: number;
  at: number;
  /** Requests this receiver had open when it arrived, itself included. */
  concurrent: number;
}

/**
 * A node:http receiver. With a key it checks both signature headers over the raw body bytes and answers 400 to a
 * bad one, as a real receiver does; `reply` decides the answer to the nth attempt of each Webhook-Id.
 */
async function receiver(opts: { key?: string; nowS?: () => number; reply?: (hit: Hit) => Reply } = {}) {
  const hits: Hit[] = [];
  const nthById = new Map<string, number>();
  const sockets = new Set<Socket>();
  let holding = 0;
  let connections = 0;
  let answering = 0;
  let server: Server;
  let port = 0;

  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    answering += 1;
    res.on('close', () => { answering -= 1; });
    const concurrent = answering;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const id = String(req.headers['webhook-id'] ?? '');
      const nth = (nthById.get(id) ?? 0) + 1;
      nthById.set(id, nth);
      let verified = true;
      if (opts.key !== undefined) {
        const nowS = opts.nowS ? opts.nowS() : Date.now() / 1000;
        const eka = verifySignature(req.headers['eka-webhook-signature'] as string | undefined, raw, opts.key, { nowS, toleranceS: 180 });
        verified = eka.ok && req.headers['webhook-signature'] === req.headers['eka-webhook-signature']
          && req.headers['webhook-timestamp'] === String(eka.t);
      }
      const hit: Hit = { id, raw, headers: req.headers, verified, reply: 400, nth, at: Date.now(), concurrent };
      hits.push(hit);
      if (!verified) {
        res.writeHead(400).end('bad signature');
        return;
      }
      const r = opts.reply ? opts.reply(hit) : { status: 200 };
      hit.reply = r === 'hang' ? 'hang' : r.status;
      if (r === 'hang') {
        holding += 1;
        res.on('close', () => { holding -= 1; });
        return;
      }
      const send = () => res.writeHead(r.status, r.headers ?? {}).end('ok');
      if (r.delayMs) setTimeout(send, r.delayMs);
      else send();
    });
  };

  const listen = () => new Promise<void>((resolve) => {
    server = createServer(handler);
    server.on('connection', (s) => {
      connections += 1;
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    server.listen(port, '127.0.0.1', () => {
      const a = server.address();
      port = typeof a === 'object' && a ? a.port : 0;
      resolve();
    });
  });
  const down = () => new Promise<void>((resolve) => {
    server.close(() => resolve());
    for (const s of sockets) s.destroy();
  });

  await listen();
  return {
    url: `http://127.0.0.1:${port}/hooks/clinic`,
    hits,
    /** Requests being held open right now. */
    holding: () => holding,
    /** Connections accepted so far. */
    connections: () => connections,
    /** Webhook-Ids this receiver answered 2xx, with how many times. */
    successes() {
      const m = new Map<string, number>();
      for (const h of hits) if (typeof h.reply === 'number' && h.reply >= 200 && h.reply < 300) m.set(h.id, (m.get(h.id) ?? 0) + 1);
      return m;
    },
    /** Stops listening: connections are refused until `up()`. */
    down,
    up: listen,
    close: down,
  };
}
type Receiver = Awaited<ReturnType<typeof receiver>>;

const receivers = new Set<Receiver>();
async function newReceiver(opts: Parameters<typeof receiver>[0] = {}) {
  const r = await receiver(opts);
  receivers.add(r);
  return r;
}
afterEach(async () => {
  for (const r of receivers) await r.close().catch(() => {});
  receivers.clear();
});

// ---------------------------------------------------------------------------------------------------------------
// Subscriptions: shapes, errors, isolation
// ---------------------------------------------------------------------------------------------------------------

for (const db of DATABASES) describe(`webhook subscriptions (endpoint 5) (${db.name})`, skipFor(db.skip), () => {
  let s: Running;
  let ws0: DemoWorkspace;
  let ws1: DemoWorkspace;
  let token0: string;
  let token1: string;

  beforeAll(async () => {
    s = await start(db, { dispatch: false });
    [ws0, ws1] = s.demo.workspaces as [DemoWorkspace, DemoWorkspace];
    token0 = await accessToken(s, ws0, ws0);
    token1 = await accessToken(s, ws1, ws1);
  });

  it('create 201 {id, status}; list 200 with the decided fields and never the signing key; delete 200', async () => {
    const body = {
      event_names: ['v2rx.completed', 'appointment.statuschange'], endpoint: 'https://hooks.example.com/clinic',
      signing_key: 'whsec-do-not-echo-1234', protocol: 'https',
    };
    const created = await subscribe(s, token0, body);
    expect(created.status, created.text).toBe(201);
    expect(created.json).toStrictEqual({ id: expect.stringMatching(UUID), status: 'success' });
    expect(created.headers.get('content-type')).toMatch(/application\/json/);
    const id = created.json.id as string;

    const list = await call(s.baseUrl, 'GET', SUBS, { headers: bearer(token0) });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('whsec-do-not-echo-1234');
    expect(list.text).not.toContain('signing_key');
    expect(list.json.msg).toBe('success');
    const entry = (list.json.data as { id: string }[]).find((d) => d.id === id);
    expect(entry).toStrictEqual({
      id, event_names: ['v2rx.completed', 'appointment.statuschange'], endpoint: 'https://hooks.example.com/clinic', protocol: 'https',
      client_id: ws0.client_id, created_at: expect.stringMatching(ISO_MS_UTC), updated_at: expect.stringMatching(ISO_MS_UTC),
    });

    // Sealed at rest, bound to this subscription: the database never holds the key in the clear.
    const row = (await rowOf<Record<string, string>>(s.service, sql`SELECT * FROM webhook_subscriptions WHERE id = ${id}`))!;
    expect(JSON.stringify(row)).not.toContain('whsec-do-not-echo-1234');
    expect(s.service.box.open(row.signing_key_sealed!, `webhook_signing_key:${id}`)).toBe('whsec-do-not-echo-1234');
    expect(() => s.service.box.open(row.signing_key_sealed!, 'webhook_signing_key:another-id')).toThrow();

    const del = await call(s.baseUrl, 'DELETE', `${SUBS}/${id}`, { headers: bearer(token0) });
    expect(del.status, del.text).toBe(200);
    expect(del.json).toStrictEqual({ status: 'webhook deleted successfully', msg: 'success' });
    const after = await call(s.baseUrl, 'GET', SUBS, { headers: bearer(token0) });
    expect((after.json.data as { id: string }[]).map((d) => d.id)).not.toContain(id);
    expectWebhookError(await call(s.baseUrl, 'DELETE', `${SUBS}/${id}`, { headers: bearer(token0) }), 404);
  });

  it('a user token with the webhooks scope works too, and client_id names that user; signing_key is optional', async () => {
    const res = await subscribe(s, ws0.users.admin.auth_token, { event_names: ['v2rx.failed'], endpoint: 'https://user.example.com/h' });
    expect(res.status, res.text).toBe(201);
    const list = await call(s.baseUrl, 'GET', SUBS, { headers: bearer(ws0.users.admin.auth_token) });
    const entry = (list.json.data as { id: string; client_id: string; protocol: string }[]).find((d) => d.id === res.json.id)!;
    expect(entry.client_id).toBe((await s.service.auth.authenticateToken(ws0.users.admin.auth_token))!.id);
    expect(entry.protocol).toBe('https');
    const row = (await rowOf<{ signing_key_sealed: string | null }>(s.service, sql`SELECT signing_key_sealed FROM webhook_subscriptions WHERE id = ${res.json.id}`))!;
    expect(row.signing_key_sealed).toBeNull();
  });

  it('401 without or with an invalid bearer token; 403 without the webhooks scope', async () => {
    for (const headers of [{}, bearer('not-a-token'), bearer('a.b.c'), { authorization: 'Basic abc' }]) {
      expectWebhookError(await call(s.baseUrl, 'GET', SUBS, { headers }), 401);
      expectWebhookError(await call(s.baseUrl, 'POST', SUBS, { headers, body: { event_names: ['v2rx.completed'], endpoint: 'https://x.example.com' } }), 401);
      expectWebhookError(await call(s.baseUrl, 'DELETE', `${SUBS}/whatever`, { headers }), 401);
    }
    const limited = await accessToken(s, ws0.limited_client, ws0);
    expectWebhookError(await call(s.baseUrl, 'GET', SUBS, { headers: bearer(limited) }), 403, /webhooks/);
    expectWebhookError(await subscribe(s, limited, { event_names: ['v2rx.completed'], endpoint: 'https://limited.example.com' }), 403);
    expectWebhookError(await subscribe(s, ws0.users.reception.auth_token, { event_names: ['v2rx.completed'], endpoint: 'https://r.example.com' }), 403);
  });

  it('endpoint: https, or http only on loopback; no credentials in the URL', async () => {
    const bad = [
      'http://hooks.example.com/x', 'http://10.0.0.5/x', 'http://192.168.1.10:8080/x', 'ftp://example.com/x', 'not a url',
      '/relative/path', 'https://user:pass@example.com/x', 'javascript:alert(1)',
    ];
    for (const endpoint of bad) {
      expectWebhookError(await subscribe(s, token0, { event_names: ['v2rx.completed'], endpoint, protocol: 'https' }), 400, /endpoint/);
    }
    for (const endpoint of ['http://127.0.0.1:9/a', 'http://localhost:9/b', 'http://[::1]:9/c', 'https://10.0.0.5/d']) {
      const res = await subscribe(s, token0, { event_names: ['v2rx.completed'], endpoint, protocol: 'https' });
      expect(res.status, `${endpoint}: ${res.text}`).toBe(201);
    }
    const list = await call(s.baseUrl, 'GET', SUBS, { headers: bearer(token0) });
    const loop = (list.json.data as { endpoint: string; protocol: string }[]).find((d) => d.endpoint === 'http://127.0.0.1:9/a')!;
    expect(loop.protocol).toBe('http');
  });

  it('event names must be known and non-empty; bad bodies are 400 INVALID_REQUEST', async () => {
    expectWebhookError(await subscribe(s, token0, { event_names: ['v2rx.started'], endpoint: 'https://e1.example.com' }), 400, /v2rx\.started/);
    expectWebhookError(await subscribe(s, token0, { event_names: [], endpoint: 'https://e2.example.com' }), 400);
    expectWebhookError(await subscribe(s, token0, { endpoint: 'https://e3.example.com' }), 400);
    expectWebhookError(await subscribe(s, token0, { event_names: 'v2rx.completed', endpoint: 'https://e4.example.com' }), 400);
    expectWebhookError(await subscribe(s, token0, { event_names: ['v2rx.completed'] }), 400);
    expectWebhookError(await subscribe(s, token0, { event_names: ['v2rx.completed'], endpoint: 'https://e5.example.com', signing_key: 42 }), 400);
    expectWebhookError(await subscribe(s, token0, { event_names: ['v2rx.completed'], endpoint: 'https://e6.example.com', signing_key: '' }), 400);
    expectWebhookError(await subscribe(s, token0, { event_names: ['v2rx.completed'], endpoint: 'https://e7.example.com', protocol: 'smtp' }), 400);
    expectWebhookError(await call(s.baseUrl, 'POST', SUBS, { headers: { ...bearer(token0), 'content-type': 'application/json' }, rawBody: '{"event_names":' }), 400);
  });

  it('a duplicate endpoint in the workspace is 400, also when written differently; after delete it may be used again', async () => {
    const id = await subscribeOk(s, token0, { endpoint: 'https://dup.example.com/hook' });
    for (const endpoint of ['https://dup.example.com/hook', 'https://DUP.example.com:443/hook', 'https://dup.example.com/hook#x']) {
      expectWebhookError(await subscribe(s, token0, { event_names: ['v2rx.completed'], endpoint }), 400, /already exists/);
    }
    // The other workspace may use the same endpoint.
    await subscribeOk(s, token1, { endpoint: 'https://dup.example.com/hook' });
    expect((await call(s.baseUrl, 'DELETE', `${SUBS}/${id}`, { headers: bearer(token0) })).status).toBe(200);
    await subscribeOk(s, token0, { endpoint: 'https://dup.example.com/hook' });
  });

  it('workspaces are isolated both ways: list, delete, deliveries and redeliver of the other\'s id are 404', async () => {
    const a = await subscribeOk(s, token0, { endpoint: 'https://iso-a.example.com/h' });
    const b = await subscribeOk(s, token1, { endpoint: 'https://iso-b.example.com/h' });
    const list0 = (await call(s.baseUrl, 'GET', SUBS, { headers: bearer(token0) })).json.data as { id: string; endpoint: string }[];
    const list1 = (await call(s.baseUrl, 'GET', SUBS, { headers: bearer(token1) })).json.data as { id: string; endpoint: string }[];
    expect(list0.map((d) => d.id)).toContain(a);
    expect(list0.map((d) => d.id)).not.toContain(b);
    expect(list1.map((d) => d.id)).toContain(b);
    expect(list1.map((d) => d.id)).not.toContain(a);
    expect(list0.some((d) => d.endpoint.includes('iso-b'))).toBe(false);
    expect(list1.some((d) => d.endpoint.includes('iso-a'))).toBe(false);

    for (const [token, other] of [[token0, b], [token1, a]] as const) {
      expectWebhookError(await call(s.baseUrl, 'DELETE', `${SUBS}/${other}`, { headers: bearer(token) }), 404);
      expectWebhookError(await call(s.baseUrl, 'GET', `${SUBS}/${other}/deliveries`, { headers: bearer(token) }), 404);
      expectWebhookError(await call(s.baseUrl, 'POST', `${SUBS}/${other}/deliveries/x/redeliver`, { headers: bearer(token) }), 404);
    }
    // Both still exist for their owners.
    expect((await call(s.baseUrl, 'GET', `${SUBS}/${a}/deliveries`, { headers: bearer(token0) })).status).toBe(200);
    expect((await call(s.baseUrl, 'GET', `${SUBS}/${b}/deliveries`, { headers: bearer(token1) })).status).toBe(200);
    expectWebhookError(await call(s.baseUrl, 'DELETE', `${SUBS}/no-such-id`, { headers: bearer(token0) }), 404);
  });

  it('the routes are in the OpenAPI document', async () => {
    const doc = (await call(s.baseUrl, 'GET', '/openapi.json')).json;
    expect(Object.keys(doc.paths[SUBS])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.paths[`${SUBS}/{id}`].delete).toBeDefined();
    expect(doc.paths[`${SUBS}/{id}/deliveries`].get).toBeDefined();
    expect(doc.paths[`${SUBS}/{id}/deliveries/{delivery_id}/redeliver`].post).toBeDefined();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Delivery
// ---------------------------------------------------------------------------------------------------------------

for (const db of DATABASES) describe(`webhook delivery (${db.name})`, skipFor(db.skip), () => {
  const KEY = 'whsec_test_signing_key_0123456789';

  it('appointment.statuschange after change-status: compact JSON, both signature headers, valid HMAC over the raw bytes', async () => {
    const s = await start(db);
    const ws = s.demo.workspaces[0]!;
    const token = await accessToken(s, ws, ws);
    const rx = await newReceiver({ key: KEY });
    const appt = ws.appointments[0]!;

    // A change before anyone subscribed raises nothing later.
    await changeStatus(s, ws, ws.appointments[1]!.appointment_id, 'NS');
    const subId = await subscribeOk(s, token, { endpoint: rx.url, signing_key: KEY });

    const started = Date.now();
    const result = await changeStatus(s, ws, appt.appointment_id, 'NS');
    expect(result.previous_status).toBe('BK');
    const hit = await until(() => rx.hits[0], 'the delivery');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(hit.verified).toBe(true);

    const h = hit.headers;
    expect(h['content-type']).toBe('application/json');
    expect(h['webhook-id']).toMatch(UUID);
    expect(h['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(h['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(h['eka-webhook-signature']).toBe(h['webhook-signature']);
    // The signature recomputed by hand: hex HMAC-SHA256(key, "<t>.<raw body>").
    const t = h['webhook-timestamp'] as string;
    const expected = createHmac('sha256', KEY).update(Buffer.concat([Buffer.from(`${t}.`), hit.raw])).digest('hex');
    expect(h['eka-webhook-signature']).toBe(`t=${t},v1=${expected}`);

    const text = hit.raw.toString('utf8');
    const body = JSON.parse(text);
    expect(text).toBe(JSON.stringify(body)); // compact
    expect(Object.keys(body)).toEqual(['event', 'data', 'timestamp']);
    expect(body).toStrictEqual({
      event: 'appointment.statuschange',
      data: {
        appointment_id: appt.appointment_id, partner_appointment_id: appt.partner_appointment_id, patient_id: appt.patient_id,
        status: 'NS', previous_status: 'BK', changed_at: expect.stringMatching(ISO_MS_UTC),
      },
      timestamp: expect.stringMatching(ISO_MS_UTC),
    });
    const history = (await call(s.baseUrl, 'GET', `/dr/v1/appointment/${appt.appointment_id}?partner_id=0`, { headers: { auth: ws.users.admin.auth_token } })).json.data.status_history;
    expect(body.data.changed_at).toBe(history.at(-1).changed_at);

    // Setting the same status again changes nothing and raises nothing.
    await changeStatus(s, ws, appt.appointment_id, 'NS');
    await sleep(300);
    expect(rx.hits).toHaveLength(1);

    const log = await deliveries(s, token, subId);
    expect(log.subscription).toStrictEqual({ id: subId, status: 'active', disabled_reason: null });
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ event_id: h['webhook-id'], event_name: 'appointment.statuschange', status: 'delivered', attempts: 1, last_status: 200, next_attempt_at: null });
    expect(log.data[0]!.attempt_log).toEqual([{ at: expect.stringMatching(ISO_MS_UTC), status: 200, latency_ms: expect.any(Number), error: null }]);
    await s.close();
  });

  it('unsigned without a key; only subscribed events; v2rx bodies exactly as the interface, non-ASCII escaped', async () => {
    const s = await start(db);
    const ws = s.demo.workspaces[0]!;
    const token = await accessToken(s, ws, ws);
    const plain = await newReceiver();
    const scribe = await newReceiver({ key: KEY });
    await subscribeOk(s, token, { endpoint: plain.url });
    await subscribeOk(s, token, { endpoint: scribe.url, signing_key: KEY, event_names: ['v2rx.completed', 'v2rx.failed'] });

    await changeStatus(s, ws, ws.appointments[0]!.appointment_id, 'NS');
    const p = await until(() => plain.hits[0], 'the unsigned delivery');
    expect(p.headers['webhook-signature']).toBeUndefined();
    expect(p.headers['eka-webhook-signature']).toBeUndefined();
    expect(p.headers['webhook-id']).toMatch(UUID);
    expect(p.headers['webhook-timestamp']).toMatch(/^\d+$/);

    // The scribe raises these inside its own transaction; here they are raised directly.
    await transaction(s.service.sql, async (tx) => {
      await s.service.webhooks.emit(tx, ws.workspace_id, 'v2rx.completed', { transaction_id: 'txn-1', session_id: 'txn-1' });
      await s.service.webhooks.emit(tx, ws.workspace_id, 'v2rx.failed', { transaction_id: 'txn-2', session_id: 'txn-2', errors: [{ code: 'bad_audio', msg: 'Fichier illisible: café.wav — 日本' }] });
    });
    await until(() => scribe.hits.length === 2, 'both scribe events');
    expect(scribe.hits.every((h) => h.verified)).toBe(true);
    const byEvent = Object.fromEntries(scribe.hits.map((h) => [JSON.parse(h.raw.toString('utf8')).event, h]));
    const completed = JSON.parse(byEvent['v2rx.completed']!.raw.toString('utf8'));
    expect(Object.keys(completed)).toEqual(['event', 'data', 'timestamp']);
    expect(completed).toStrictEqual({
      event: 'v2rx.completed', data: { transaction_id: 'txn-1', status: 'completed', session_id: 'txn-1' }, timestamp: expect.stringMatching(ISO_MS_UTC),
    });
    const failedRaw = byEvent['v2rx.failed']!.raw;
    expect([...failedRaw].every((b) => b < 0x80)).toBe(true);
    expect(failedRaw.toString('latin1')).toContain('caf\\u00e9.wav \\u2014 \\u65e5\\u672c');
    expect(JSON.parse(failedRaw.toString('utf8'))).toStrictEqual({
      event: 'v2rx.failed',
      data: { transaction_id: 'txn-2', status: 'failed', session_id: 'txn-2', errors: [{ code: 'bad_audio', msg: 'Fichier illisible: café.wav — 日本' }] },
      timestamp: expect.stringMatching(ISO_MS_UTC),
    });
    // Neither receiver got the other's events.
    await sleep(200);
    expect(plain.hits).toHaveLength(1);
    expect(scribe.hits).toHaveLength(2);
    await s.close();
  });

  it('500, then a timeout, then connection refused, then recovery: each event delivered exactly once, same Webhook-Id, every attempt logged', async () => {
    const s = await start(db, { retryScheduleMs: Array(40).fill(60), timeoutMs: 400, pollIntervalMs: 50 });
    const ws = s.demo.workspaces[0]!;
    const token = await accessToken(s, ws, ws);
    let phase: 'error' | 'hang' | 'ok' = 'error';
    const rx = await newReceiver({ key: KEY, reply: () => (phase === 'error' ? { status: 500 } : phase === 'hang' ? 'hang' : { status: 200 }) });
    const subId = await subscribeOk(s, token, { endpoint: rx.url, signing_key: KEY });

    for (const a of ws.appointments.slice(0, 3)) await changeStatus(s, ws, a.appointment_id, 'NS');
    const logged = async (pred: (a: { status: number | null; error: string | null }) => boolean) => {
      const log = await deliveries(s, token, subId);
      return log.data.length === 3 && log.data.every((d) => d.attempt_log.some(pred));
    };
    await until(() => logged((a) => a.status === 500), 'a 500 attempt of each event');
    phase = 'hang';
    await until(() => logged((a) => a.status === null && /timed out/.test(a.error ?? '')), 'a timed-out attempt of each event');
    await rx.down();
    await until(() => logged((a) => a.status === null && /ECONNREFUSED/.test(a.error ?? '')), 'a refused attempt of each event');
    phase = 'ok';
    await rx.up();
    await until(async () => (await deliveries(s, token, subId)).data.every((d) => d.status === 'delivered'), 'all delivered');

    const log = await deliveries(s, token, subId);
    const ids = new Set(log.data.map((d) => d.event_id));
    expect(ids.size).toBe(3);
    // Every request carried one of the three ids, with a valid signature; each id succeeded exactly once.
    expect(rx.hits.every((h) => ids.has(h.id) && h.verified)).toBe(true);
    const ok = rx.successes();
    expect([...ok.keys()].sort()).toEqual([...ids].sort());
    expect([...ok.values()]).toEqual([1, 1, 1]);
    // The same id (and the same body) on the failed attempts as on the successful one.
    for (const id of ids) {
      const mine = rx.hits.filter((h) => h.id === id);
      expect(mine.some((h) => h.reply === 500)).toBe(true);
      expect(mine.some((h) => h.reply === 'hang')).toBe(true);
      expect(new Set(mine.map((h) => h.raw.toString('hex'))).size).toBe(1);
    }
    for (const d of log.data) {
      expect(d.attempts).toBe(d.attempt_log.length);
      expect(d.attempt_log.at(-1)).toMatchObject({ status: 200, error: null });
      expect(d.attempt_log.filter((a) => a.status === 200)).toHaveLength(1);
      expect(d.attempt_log.find((a) => a.status === 500)!.error).toBe('HTTP 500');
      expect(d.attempt_log.find((a) => /timed out/.test(a.error ?? ''))!.latency_ms).toBeGreaterThanOrEqual(390);
      expect(d.last_status).toBe(200);
      expect(d.delivered_at).toMatch(ISO_MS_UTC);
    }
    await s.close();
  });

  it('Retry-After (seconds or HTTP date) sets the next attempt, without jitter; moving the clock past it delivers', async () => {
    const clock = movableClock();
    const s = await start(db, { retryScheduleMs: [50, 50, 50] }, clock);
    const ws = s.demo.workspaces[0]!;
    const token = ws.users.admin.auth_token; // long-lived: an access token would expire as the clock moves hours on
    const rx = await newReceiver({
      key: KEY,
      nowS: () => clock.now().getTime() / 1000,
      reply: (h) => h.nth === 1 ? { status: 503, headers: { 'retry-after': '3600' } }
        : h.nth === 2 ? { status: 429, headers: { 'retry-after': new Date(clock.now().getTime() + 7200_000).toUTCString() } }
          : { status: 200 },
    });
    const subId = await subscribeOk(s, token, { endpoint: rx.url, signing_key: KEY });
    await changeStatus(s, ws, ws.appointments[0]!.appointment_id, 'NS');

    await until(() => rx.hits.length === 1, 'the first attempt');
    let d = (await until(async () => {
      const x = (await deliveries(s, token, subId)).data[0];
      return x?.attempts === 1 ? x : null;
    }, 'the first attempt logged'));
    expect(d.status).toBe('pending');
    expect(d.last_status).toBe(503);
    const wait1 = Date.parse(d.next_attempt_at!) - Date.parse(d.attempt_log[0]!.at);
    expect(wait1).toBeGreaterThanOrEqual(3600_000);
    expect(wait1).toBeLessThan(3600_000 + 2000);
    await sleep(400); // the fast schedule (50 ms) would have retried by now
    expect(rx.hits).toHaveLength(1);

    clock.offsetMs += 3600_000;
    s.service.webhooks.dispatcher.wake();
    await until(() => rx.hits.length === 2, 'the second attempt');
    d = await until(async () => {
      const x = (await deliveries(s, token, subId)).data[0];
      return x?.attempts === 2 ? x : null;
    }, 'the second attempt logged');
    const wait2 = Date.parse(d.next_attempt_at!) - Date.parse(d.attempt_log[1]!.at);
    expect(wait2).toBeGreaterThan(7200_000 - 2000);
    expect(wait2).toBeLessThan(7200_000 + 2000);

    clock.offsetMs += 7200_000;
    s.service.webhooks.dispatcher.wake();
    await until(() => rx.successes().size === 1, 'the delivery');
    expect(rx.hits.every((h) => h.verified)).toBe(true);
    expect(new Set(rx.hits.map((h) => h.id)).size).toBe(1);
    await s.close();
  });

  it('the schedule ends in failed; a failed delivery can be redelivered by hand with the same Webhook-Id and body', async () => {
    const s = await start(db, { retryScheduleMs: [30, 30] });
    const ws = s.demo.workspaces[0]!;
    const token = await accessToken(s, ws, ws);
    let healthy = false;
    const rx = await newReceiver({ key: KEY, reply: () => healthy ? { status: 204 } : { status: 502 } });
    const subId = await subscribeOk(s, token, { endpoint: rx.url, signing_key: KEY });
    await changeStatus(s, ws, ws.appointments[0]!.appointment_id, 'NS');

    const failed = await until(async () => {
      const x = (await deliveries(s, token, subId)).data[0];
      return x?.status === 'failed' ? x : null;
    }, 'the delivery to fail');
    expect(failed.attempts).toBe(3); // the first attempt and two retries
    expect(failed.attempt_log.map((a) => a.status)).toEqual([502, 502, 502]);
    expect(failed.next_attempt_at).toBeNull();
    expect(rx.hits).toHaveLength(3);

    healthy = true;
    const url = `${SUBS}/${subId}/deliveries/${failed.id}/redeliver`;
    const res = await call(s.baseUrl, 'POST', url, { headers: bearer(token) });
    expect(res.status, res.text).toBe(202);
    expect(res.json).toStrictEqual({ id: failed.id, status: 'queued', msg: 'success' });
    await until(() => rx.successes().size === 1, 'the redelivery');
    // The receiver has answered; the dispatcher records the attempt once the answer reaches it.
    const done = await until(async () => {
      const x = (await deliveries(s, token, subId)).data[0];
      return x?.status !== 'pending' ? x : null;
    }, 'the redelivery logged');
    expect(done).toMatchObject({ status: 'delivered', attempts: 4, last_status: 204 });

    // A delivered one can be sent again too: same id, same bytes.
    expect((await call(s.baseUrl, 'POST', url, { headers: bearer(token) })).status).toBe(202);
    await until(() => rx.successes().get(failed.event_id) === 2, 'the second redelivery');
    expect(new Set(rx.hits.map((h) => h.id))).toEqual(new Set([failed.event_id]));
    expect(new Set(rx.hits.map((h) => h.raw.toString('hex'))).size).toBe(1);
    expect(rx.hits.every((h) => h.verified)).toBe(true);

    expectWebhookError(await call(s.baseUrl, 'POST', `${SUBS}/${subId}/deliveries/no-such-delivery/redeliver`, { headers: bearer(token) }), 404);
    const other = s.demo.workspaces[1]!;
    expectWebhookError(await call(s.baseUrl, 'POST', url, { headers: bearer(await accessToken(s, other, other)) }), 404);
    await s.close();
  });

  it('410 Gone disables the subscription: its pending deliveries stop and new events are not queued for it', async () => {
    const s = await start(db, { retryScheduleMs: [30, 30, 30], maxPerSubscription: 1 });
    const ws = s.demo.workspaces[0]!;
    const token = await accessToken(s, ws, ws);
    const rx = await newReceiver({ reply: () => ({ status: 410, delayMs: 300 }) });
    const subId = await subscribeOk(s, token, { endpoint: rx.url });
    // Three events; with one attempt at a time, two are still pending when the first gets its 410.
    for (const a of ws.appointments.slice(0, 3)) await changeStatus(s, ws, a.appointment_id, 'NS');
    const log = await until(async () => {
      const l = await deliveries(s, token, subId);
      return l.subscription.status === 'disabled' ? l : null;
    }, 'the subscription to be disabled');
    expect(log.subscription.disabled_reason).toMatch(/410/);
    expect(log.data.map((d) => d.status).sort()).toEqual(['disabled', 'disabled', 'disabled']);
    expect(log.data.filter((d) => d.attempts === 1 && d.last_status === 410)).toHaveLength(1);

    await changeStatus(s, ws, ws.appointments[3]!.appointment_id, 'NS');
    await sleep(300);
    expect(rx.hits).toHaveLength(1);
    expect((await deliveries(s, token, subId)).data).toHaveLength(3);
    // Still listed (same shape); redelivery refuses until it is deleted and created again.
    const list = await call(s.baseUrl, 'GET', SUBS, { headers: bearer(token) });
    expect((list.json.data as { id: string }[]).map((d) => d.id)).toContain(subId);
    const gone = log.data.find((d) => d.last_status === 410)!;
    expectWebhookError(await call(s.baseUrl, 'POST', `${SUBS}/${subId}/deliveries/${gone.id}/redeliver`, { headers: bearer(token) }), 400, /disabled/);
    await s.close();
  });

  it('deleting a subscription cancels its pending deliveries', async () => {
    const s = await start(db, { retryScheduleMs: Array(20).fill(50) });
    const ws = s.demo.workspaces[0]!;
    const token = await accessToken(s, ws, ws);
    const rx = await newReceiver({ reply: () => ({ status: 500 }) });
    const subId = await subscribeOk(s, token, { endpoint: rx.url });
    await changeStatus(s, ws, ws.appointments[0]!.appointment_id, 'NS');
    await until(() => rx.hits.length >= 2, 'some retries');
    expect((await call(s.baseUrl, 'DELETE', `${SUBS}/${subId}`, { headers: bearer(token) })).status).toBe(200);
    await s.service.webhooks.dispatcher.idle();
    const n = rx.hits.length;
    await sleep(300);
    expect(rx.hits.length).toBe(n);
    const row = (await rowOf<{ status: string }>(s.service, sql`SELECT status FROM webhook_deliveries WHERE subscription_id = ${subId}`))!;
    expect(row.status).toBe('cancelled');
    await s.close();
  });

  it('another instance delivers an event this one wrote at once, woken through the change bus', skipFor(db.name === 'sqlite' ? 'one SQLite process: no other instance to wake' : null), async () => {
    // A writes the event and sends nothing; B polls once a minute, so only the wake-up (LISTEN/NOTIFY) can deliver.
    const a = await start(db, { dispatch: false });
    const dataDir = tempDir('webhooks-b');
    dirs.push(dataDir);
    const b = await createService({ kek: TEST_KEK, dataDir, databaseUrl: a.databaseUrl, webhooks: { pollIntervalMs: 60_000 } });
    try {
      await b.bus.ready();
      const ws = a.demo.workspaces[0]!;
      const rx = await newReceiver();
      await subscribeOk(a, await accessToken(a, ws, ws), { endpoint: rx.url });
      await changeStatus(a, ws, ws.appointments[0]!.appointment_id, 'NS');
      const hit = await until(() => rx.hits[0], 'the delivery by the other instance, well before its poll', 20_000);
      expect(hit.verified).toBe(true);
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('a quick receiver gets more requests at once over kept-alive connections, a failing one fewer; no poll needed', async () => {
    // A poll a minute away: the wake-up after each event's commit delivers (issue 27).
    const s = await start(db, { pollIntervalMs: 60_000, retryScheduleMs: [60_000] });
    const ws = s.demo.workspaces[0]!;
    const token = await accessToken(s, ws, ws);
    const quick = await newReceiver({ reply: () => ({ status: 200, delayMs: 40 }) });
    const failing = await newReceiver({ reply: () => ({ status: 503, delayMs: 40 }) });
    await subscribeOk(s, token, { endpoint: quick.url });
    await subscribeOk(s, token, { endpoint: failing.url });

    await changeStatus(s, ws, ws.appointments[0]!.appointment_id, 'NS');
    await until(() => quick.hits.length === 1, 'the first event, woken at commit', 10_000);

    // 60 more events, six at a time: more than the first window (4) holds, so the quick receiver's window grows.
    for (let round = 0; round < 10; round++) {
      await Promise.all(ws.appointments.slice(0, 6).map((a, i) =>
        changeStatus(s, ws, a.appointment_id, (round + (i === 0 ? 1 : 0)) % 2 === 0 ? 'NS' : 'CK')));
    }
    await until(() => quick.successes().size === 61, 'all 61 events at the quick receiver', 30_000);
    await until(() => failing.hits.length === 61, 'a first attempt of each event at the failing receiver', 30_000);
    const peak = (hits: Hit[]) => Math.max(...hits.map((h) => h.concurrent));
    expect(peak(quick.hits)).toBeGreaterThan(4);
    expect(peak(quick.hits)).toBeLessThanOrEqual(DEFAULT_MAX_PER_SUBSCRIPTION);
    // Its window halves after each window's worth of failures: 4, then 2, then 1.
    expect(peak(failing.hits.slice(12))).toBeLessThanOrEqual(2);
    // Connections are kept and reused: at most one per request in flight at once, not one per delivery.
    expect(quick.connections()).toBeLessThanOrEqual(DEFAULT_MAX_PER_SUBSCRIPTION);
    await s.close();
  });

  it('a dead receiver slows neither the API nor delivery to a healthy receiver', async () => {
    const s = await start(db, { retryScheduleMs: [60_000] }); // the real 15 s timeout
    const ws = s.demo.workspaces[0]!;
    const token = await accessToken(s, ws, ws);
    const hanging = await newReceiver({ reply: () => 'hang' });
    const refusing = await newReceiver();
    await refusing.down();
    const healthy = await newReceiver({ key: KEY });
    await subscribeOk(s, token, { endpoint: hanging.url });
    await subscribeOk(s, token, { endpoint: refusing.url });
    await subscribeOk(s, token, { endpoint: healthy.url, signing_key: KEY });

    // 20 real changes: NS and CK in turn on two appointments.
    const started = Date.now();
    let slowest = 0;
    for (let i = 0; i < 10; i++) {
      for (const a of ws.appointments.slice(0, 2)) {
        const t0 = Date.now();
        await changeStatus(s, ws, a.appointment_id, i % 2 === 0 ? 'NS' : 'CK');
        slowest = Math.max(slowest, Date.now() - t0);
      }
    }
    await until(() => healthy.successes().size === 20, 'all 20 events at the healthy receiver', 10_000);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(10_000); // well inside the 15 s the dead receiver holds each attempt
    expect(slowest).toBeLessThan(2000);
    expect(healthy.hits.every((h) => h.verified)).toBe(true);
    // The hanging receiver holds at most its per-subscription share of attempts.
    expect(hanging.holding()).toBeGreaterThan(0);
    expect(hanging.holding()).toBeLessThanOrEqual(DEFAULT_MAX_PER_SUBSCRIPTION);
    await s.close();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// npm run webhook-receiver
// ---------------------------------------------------------------------------------------------------------------

for (const db of DATABASES) describe(`webhook-receiver command (${db.name})`, skipFor(db.skip), () => {
  let child: ChildProcess | null = null;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = null;
  });

  it('verifies deliveries from the service, prints them, and rejects a forged or stale one with 400', async () => {
    const key = 'whsec_cli_key';
    child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/cli/webhook-receiver.ts'), '--port', '0', '--signing-key', key], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    const url = (await until(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], 'the receiver to listen', 30_000)) as string;

    const s = await start(db);
    const ws = s.demo.workspaces[0]!;
    const token = await accessToken(s, ws, ws);
    await subscribeOk(s, token, { endpoint: `${url}/webhook`, signing_key: key });
    const appt = ws.appointments[0]!;
    await changeStatus(s, ws, appt.appointment_id, 'NS');
    await until(() => /signature verified/.test(out) && out.includes(appt.appointment_id), 'the receiver to print the delivery');
    expect(out).toContain('"event": "appointment.statuschange"');

    const body = '{"event":"appointment.statuschange","data":{},"timestamp":"2026-01-01T00:00:00.000Z"}';
    const t = Math.floor(Date.now() / 1000);
    const sign = (k: string, ts: number, b: string) => `t=${ts},v1=${createHmac('sha256', k).update(`${ts}.${b}`).digest('hex')}`;
    const post = (headers: Record<string, string>, b = body) =>
      fetch(`${url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': 'manual', ...headers }, body: b });
    expect((await post({ 'eka-webhook-signature': sign(key, t, body), 'webhook-timestamp': String(t) })).status).toBe(200);
    expect((await post({ 'eka-webhook-signature': sign('wrong-key', t, body) })).status).toBe(400);
    expect((await post({ 'eka-webhook-signature': sign(key, t, body) }, `${body} `)).status).toBe(400); // a changed byte
    expect((await post({ 'eka-webhook-signature': sign(key, t - 3600, body) })).status).toBe(400); // stale
    expect((await post({})).status).toBe(400);
    await until(() => (out.match(/REJECTED/g) ?? []).length === 4, 'four rejections printed');
    await s.close();
  });
});
