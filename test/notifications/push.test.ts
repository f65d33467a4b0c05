import { type KeyObject, generateKeyPairSync } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DemoWorkspace, ensureDemo } from '../../server/demo/demo.js';
import { buildHttpApp } from '../../server/http/app.js';
import { createService, type Service, type ServiceOptions } from '../../server/service.js';
import type { Clock } from '../../server/shared/time.js';
import { TEST_KEK, call, tempDir } from '../helpers/server.js';

/**
 * Sending pushes, end to end: the real service (started here rather than by startServer, which cannot pass the
 * FCM base address and test retry timings) sends through a local stand-in HTTP server that plays both Google's
 * token endpoint (verifying the RS256 JWT assertion with the public key of a key pair made here) and FCM
 * messages:send (accepting only access tokens it issued). Pushes are queued through the service API that the
 * scribe will call (notifications.enqueueForUser / enqueueForClient), never sent inline.
 */

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const HOUR_MS = 3600_000;

// ---------------------------------------------------------------------------------------------------------------
// A clock the tests move: real time plus an offset, so short real backoffs elapse and hours can be skipped.
// ---------------------------------------------------------------------------------------------------------------
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
const advance = (ms: number) => {
  offsetMs += ms;
};

// ---------------------------------------------------------------------------------------------------------------
// The stand-in for oauth2.googleapis.com/token and fcm.googleapis.com
// ---------------------------------------------------------------------------------------------------------------
interface Reply { status: number; body?: unknown; headers?: Record<string, string> }
interface Sent { project: string; auth: string; body: any }

function standIn() {
  const publicKeys = new Map<string, KeyObject>(); // client_email → public key
  const issued = new Map<string, number>(); // access token → expiry (test clock ms)
  const tokenRequests: { iss: string; kid: string | undefined; iat: number; exp: number }[] = [];
  const tokenRejections: string[] = [];
  const sent: Sent[] = [];
  const attempts = new Map<string, number>(); // device token → messages:send calls
  const scripts = new Map<string, Reply[]>(); // device token → replies to give before succeeding
  const tokenScript: Reply[] = [];
  let seq = 0;

  const read = (req: IncomingMessage) => new Promise<string>((res) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => res(s));
  });
  const reply = (res: ServerResponse, r: Reply) => {
    res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
    res.end(r.body === undefined ? '' : JSON.stringify(r.body));
  };
  const fcmError = (status: number, statusName: string, errorCode: string, message: string, extra: unknown[] = []) => ({
    status, body: { error: { code: status, message, status: statusName, details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }, ...extra] } },
  });

  // oxlint-disable-next-line typescript/no-misused-promises -- a rejection here fails the run as Vitest's unhandled error
  const server = createServer(async (req, res) => {
    const body = await read(req);
    const url = new URL(req.url!, 'http://x');
    if (req.method === 'POST' && url.pathname === '/token') {
      const scripted = tokenScript.shift();
      if (scripted) return reply(res, scripted);
      try {
        expect(req.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
        const form = new URLSearchParams(body);
        expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
        const assertion = form.get('assertion')!;
        const iss = JSON.parse(Buffer.from(assertion.split('.')[1]!, 'base64url').toString()).iss as string;
        const key = publicKeys.get(iss);
        if (!key) throw new Error(`unknown issuer ${iss}`);
        // The signature must verify with the service account's public key; iss, aud, scope and exp must be right.
        const { payload } = await jwtVerify(assertion, key, {
          algorithms: ['RS256'], issuer: iss, audience: `${base}/token`, currentDate: clock.now(), requiredClaims: ['iat', 'exp'],
        });
        expect(payload.scope).toBe(SCOPE);
        expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(3600);
        expect(Math.abs(payload.iat! * 1000 - clock.now().getTime())).toBeLessThan(60_000);
        tokenRequests.push({ iss, kid: decodeProtectedHeader(assertion).kid, iat: payload.iat!, exp: payload.exp! });
        const accessToken = `ya29.standin-${++seq}`;
        issued.set(accessToken, clock.now().getTime() + HOUR_MS);
        return reply(res, { status: 200, body: { access_token: accessToken, expires_in: 3600, token_type: 'Bearer' } });
      } catch (e) {
        tokenRejections.push((e as Error).message);
        return reply(res, { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } });
      }
    }
    const m = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(url.pathname);
    if (req.method === 'POST' && m) {
      const auth = req.headers.authorization ?? '';
      const token = /^Bearer (.+)$/.exec(auth)?.[1] ?? '';
      const exp = issued.get(token);
      if (!exp || exp <= clock.now().getTime()) {
        return reply(res, { status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } });
      }
      const msg = JSON.parse(body);
      const deviceToken: string = msg.message.token;
      attempts.set(deviceToken, (attempts.get(deviceToken) ?? 0) + 1);
      if (deviceToken.startsWith('dead-')) return reply(res, fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.'));
      if (deviceToken.startsWith('bogus-')) {
        return reply(res, fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token',
          [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.token', description: 'Invalid registration token' }] }]));
      }
      const next = scripts.get(deviceToken)?.shift();
      if (next) return reply(res, next);
      sent.push({ project: decodeURIComponent(m[1]!), auth, body: msg });
      return reply(res, { status: 200, body: { name: `projects/${m[1]}/messages/${++seq}` } });
    }
    reply(res, { status: 404, body: { error: 'no such stand-in route' } });
  });
  let base = '';
  return {
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return base;
    },
    get base() {
      return base;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
    publicKeys, tokenRequests, tokenRejections, sent, attempts, scripts, tokenScript, fcmError,
    sentTo: (deviceToken: string) => sent.filter((s) => s.body.message.token === deviceToken),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The service under test
// ---------------------------------------------------------------------------------------------------------------
const PUSH_TEST_OPTIONS: ServiceOptions['push'] = {
  retry: { baseMs: 30, maxMs: 200, maxAttempts: 4, jitter: 0.2 },
  pollIntervalMs: 25,
  requestTimeoutMs: 5_000,
};

interface Running { baseUrl: string; service: Service; demo: DemoWorkspace[]; closeHttp(): Promise<void>; close(): Promise<void> }

async function start(dataDir: string, fake: ReturnType<typeof standIn>): Promise<Running> {
  const service = await createService({ kek: TEST_KEK, dataDir, clock, fcmBaseUrl: fake.base, push: PUSH_TEST_OPTIONS });
  const app = await buildHttpApp(service);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const demo = (await ensureDemo(service, baseUrl))!;
  return {
    baseUrl, service, demo: demo.workspaces,
    closeHttp: () => app.close(),
    async close() {
      await app.close();
      await service.close();
    },
  };
}

function serviceAccount(fake: ReturnType<typeof standIn>, name: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const email = `${name}@${name}-project.iam.gserviceaccount.com`;
  fake.publicKeys.set(email, publicKey);
  return {
    type: 'service_account', project_id: `${name}-project`, private_key_id: `kid-${name}`,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), client_email: email, client_id: 1234567890,
    token_uri: `${fake.base}/token`, universe_domain: 'googleapis.com',
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function waitFor<T>(what: string, fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const fake = standIn();
const dataDirs: string[] = [];
let srv: Running;
let ws: DemoWorkspace;
let doctorId: string;
let sa: ReturnType<typeof serviceAccount>;

async function addDevice(token: string, did: string, fcmId: string, base = srv.baseUrl) {
  const res = await call(base, 'POST', '/notification/add-device', { headers: bearer(token), body: { devicePayload: { did, 'fcm-id': fcmId, 'app-version': '2.0' } } });
  expect(res.status, res.text).toBe(200);
}

const job = async (id: string) => (await srv.service.notifications.pushes(ws.workspace_id, 1000)).find((j) => j.device_row_id === id);
const deviceRowId = (fcmToken: string) =>
  (srv.service.db.prepare('SELECT id FROM push_devices WHERE fcm_token = ?').get(fcmToken) as { id: string } | undefined)?.id;
const pushesTo = async (fcmToken: string) => {
  const id = deviceRowId(fcmToken);
  return (await srv.service.notifications.pushes(ws.workspace_id, 1000)).filter((j) => j.device_row_id === id);
};

beforeAll(async () => {
  await fake.start();
  const dir = tempDir('push');
  dataDirs.push(dir);
  srv = await start(dir, fake);
  ws = srv.demo[0]!;
  doctorId = (await srv.service.auth.authenticateToken(ws.users.doctor.auth_token))!.id;
  sa = serviceAccount(fake, 'sunrise');
  const res = await call(srv.baseUrl, 'POST', '/notification/fcm-creds', { headers: bearer(ws.users.admin.auth_token), body: { sa_key: sa } });
  expect(res.status, res.text).toBe(200);
});

afterEach(() => {
  expect(fake.tokenRejections, 'the stand-in refused an assertion').toEqual([]);
});

afterAll(async () => {
  await srv?.close();
  await fake.close();
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
});

describe('sending a push', async () => {
  it('a user\'s push reaches every device of that user through token_uri and messages:send', async () => {
    await addDevice(ws.users.doctor.auth_token, 'doc-phone', 'tok-doc-phone');
    await addDevice(ws.users.doctor.auth_token, 'doc-tablet', 'tok-doc-tablet');
    await addDevice(ws.users.reception.auth_token, 'desk', 'tok-desk');
    const before = fake.sent.length;

    const result = await srv.service.notifications.enqueueForUser(ws.workspace_id, doctorId, {
      title: 'Transcription ready', body: 'Your scribe session is complete', data: { session_id: 'txn-1', status: 'completed' },
    });
    expect(result).toEqual({ queued: 2 });
    // Queued, not sent inline: nothing has reached FCM when enqueue returns.
    expect(fake.sent.length).toBe(before);

    await waitFor('both pushes sent', async () => (await pushesTo('tok-doc-phone'))[0]?.status === 'sent' && (await pushesTo('tok-doc-tablet'))[0]?.status === 'sent');
    const phone = fake.sentTo('tok-doc-phone');
    expect(phone).toHaveLength(1);
    expect(phone[0]!.project).toBe('sunrise-project');
    expect(phone[0]!.auth).toMatch(/^Bearer ya29\.standin-\d+$/);
    expect(phone[0]!.body).toStrictEqual({
      message: {
        token: 'tok-doc-phone',
        notification: { title: 'Transcription ready', body: 'Your scribe session is complete' },
        data: { session_id: 'txn-1', status: 'completed' },
      },
    });
    expect(fake.sentTo('tok-desk')).toHaveLength(0);
    const row = (await pushesTo('tok-doc-phone'))[0]!;
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(row.fcm_message_id).toMatch(/^projects\/sunrise-project\/messages\/\d+$/);
    // The assertion named the key it was signed with.
    expect(fake.tokenRequests.at(-1)!.kid).toBe('kid-sunrise');
  });

  it('an API client\'s devices get pushes queued for that client', async () => {
    const tok = await call(srv.baseUrl, 'POST', '/api/v1/auth/token', {
      headers: { 'x-api-key': ws.api_key }, body: { client_id: ws.client_id, client_secret: ws.client_secret, grant_type: 'client_credentials' },
    });
    await addDevice(tok.json.access_token, 'integration-box', 'tok-client-box');
    expect(await srv.service.notifications.enqueueForClient(ws.workspace_id, ws.client_id, { title: 'Done', body: 'Session failed', data: { status: 'failed' } }))
      .toEqual({ queued: 1 });
    await waitFor('client push sent', () => fake.sentTo('tok-client-box').length === 1);
    expect(fake.sentTo('tok-client-box')[0]!.body.message.notification).toEqual({ title: 'Done', body: 'Session failed' });
  });

  it('nothing is queued without credentials or without devices, and bad messages are refused', async () => {
    const other = srv.demo[1]!;
    const otherDoctor = (await srv.service.auth.authenticateToken(other.users.doctor.auth_token))!.id;
    expect(await srv.service.notifications.enqueueForUser(other.workspace_id, otherDoctor, { title: 't', body: 'b' })).toEqual({ queued: 0, skipped: 'no_credentials' });
    const admin = (await srv.service.auth.authenticateToken(ws.users.admin.auth_token))!.id;
    expect(await srv.service.notifications.enqueueForUser(ws.workspace_id, admin, { title: 't', body: 'b' })).toEqual({ queued: 0, skipped: 'no_devices' });
    // A user of workspace A named with workspace B's id reaches no device.
    expect((await srv.service.notifications.enqueueForUser(other.workspace_id, doctorId, { title: 't', body: 'b' })).queued).toBe(0);
    await expect(srv.service.notifications.enqueueForUser(ws.workspace_id, doctorId, { title: 't', body: 'b', data: { n: 1 as unknown as string } })).rejects.toThrow(/string/);
    await expect(srv.service.notifications.enqueueForUser(ws.workspace_id, doctorId, { title: 't', body: 'x'.repeat(5000) })).rejects.toThrow(/4 KB/);
    await expect(srv.service.notifications.enqueueForUser(ws.workspace_id, doctorId, { title: 't', body: 'b', data: { from: 'x' } })).rejects.toThrow(/reserved/);
  });
});

describe('the access token', () => {
  it('is fetched once for several pushes, and again once the clock reaches a minute before its expiry', async () => {
    await addDevice(ws.users.doctor.auth_token, 'doc-phone', 'tok-doc-phone');
    const n = fake.tokenRequests.length;
    const sentBefore = fake.sentTo('tok-doc-phone').length;
    for (let i = 0; i < 3; i++) {
      await srv.service.notifications.enqueueForUser(ws.workspace_id, doctorId, { title: `cached ${i}`, body: 'b' });
      await waitFor(`push ${i}`, () => fake.sentTo('tok-doc-phone').length === sentBefore + i + 1);
    }
    expect(fake.tokenRequests.length).toBe(n); // the token from the first test still serves

    advance(HOUR_MS - 90_000); // 90 s before expiry: still cached
    await srv.service.notifications.enqueueForUser(ws.workspace_id, doctorId, { title: 'still cached', body: 'b' });
    await waitFor('push before expiry', () => fake.sentTo('tok-doc-phone').some((s) => s.body.message.notification.title === 'still cached'));
    expect(fake.tokenRequests.length).toBe(n);

    advance(40_000); // 50 s before expiry: inside the refresh margin
    await srv.service.notifications.enqueueForUser(ws.workspace_id, doctorId, { title: 'new token', body: 'b' });
    await waitFor('push with a new token', () => fake.sentTo('tok-doc-phone').some((s) => s.body.message.notification.title === 'new token'));
    expect(fake.tokenRequests.length).toBe(n + 1);
    // The new assertion was made at the moved clock's time.
    expect(Math.abs(fake.tokenRequests.at(-1)!.iat * 1000 - clock.now().getTime())).toBeLessThan(5_000);
  });

  it('replacing the credentials drops the cached token: the next push signs with the new key', async () => {
    const n = fake.tokenRequests.length;
    sa = serviceAccount(fake, 'sunrise2');
    const res = await call(srv.baseUrl, 'POST', '/notification/fcm-creds', { headers: bearer(ws.users.admin.auth_token), body: { sa_key: sa } });
    expect(res.status).toBe(200);
    await srv.service.notifications.enqueueForUser(ws.workspace_id, doctorId, { title: 'rotated', body: 'b' });
    await waitFor('push after rotation', () => fake.sentTo('tok-doc-phone').some((s) => s.body.message.notification.title === 'rotated'));
    expect(fake.tokenRequests.length).toBe(n + 1);
    expect(fake.tokenRequests.at(-1)!.iss).toBe(sa.client_email);
    expect(fake.sent.at(-1)!.project).toBe('sunrise2-project');
  });

  it('an access token FCM no longer accepts (401) is replaced and the push retried', async () => {
    const n = fake.tokenRequests.length;
    await addDevice(ws.users.reception.auth_token, 'desk', 'tok-desk');
    const reception = (await srv.service.auth.authenticateToken(ws.users.reception.auth_token))!.id;
    fake.scripts.set('tok-desk', [{ status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } }]);
    await srv.service.notifications.enqueueForUser(ws.workspace_id, reception, { title: 'after 401', body: 'b' });
    await waitFor('push after 401', async () => (await pushesTo('tok-desk'))[0]?.status === 'sent');
    expect(fake.sentTo('tok-desk')).toHaveLength(1);
    expect(fake.tokenRequests.length).toBe(n + 1);
    expect((await pushesTo('tok-desk'))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('token_uri refusing the service account fails the push without retrying', async () => {
    fake.tokenScript.push({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } });
    await call(srv.baseUrl, 'POST', '/notification/fcm-creds', { headers: bearer(ws.users.admin.auth_token), body: { sa_key: sa } }); // fresh set: no cached token
    await addDevice(ws.users.reception.auth_token, 'desk', 'tok-desk-2');
    const reception = (await srv.service.auth.authenticateToken(ws.users.reception.auth_token))!.id;
    await srv.service.notifications.enqueueForUser(ws.workspace_id, reception, { title: 'refused', body: 'b' });
    const j = await waitFor('failed push', async () => (await pushesTo('tok-desk-2')).find((p) => p.status === 'failed'));
    expect(j.attempts).toBe(1);
    expect(j.last_error).toMatch(/token_uri refused the service account: 400 invalid_grant/);
    expect(fake.sentTo('tok-desk-2')).toHaveLength(0);
  });

  it('token_uri failing with 503 is retried', async () => {
    fake.tokenScript.push({ status: 503, body: { error: 'unavailable' } });
    await call(srv.baseUrl, 'POST', '/notification/fcm-creds', { headers: bearer(ws.users.admin.auth_token), body: { sa_key: sa } });
    const reception = (await srv.service.auth.authenticateToken(ws.users.reception.auth_token))!.id;
    await srv.service.notifications.enqueueForUser(ws.workspace_id, reception, { title: 'token retry', body: 'b' });
    const j = await waitFor('push after token 503', async () => (await pushesTo('tok-desk-2')).find((p) => p.title === 'token retry' && p.status === 'sent'));
    expect(fake.sentTo('tok-desk-2').filter((s) => s.body.message.notification.title === 'token retry')).toHaveLength(1);
    expect(j).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

describe('dead tokens and retries', () => {
  it('a token FCM reports UNREGISTERED removes the device; its push is failed', async () => {
    await addDevice(ws.users.doctor.auth_token, 'old-phone', 'dead-token-1');
    const id = deviceRowId('dead-token-1')!;
    await srv.service.notifications.enqueueForUser(ws.workspace_id, doctorId, { title: 'to a dead phone', body: 'b' });
    const j = await waitFor('unregistered push', async () => { const r = await job(id); return r?.status === 'failed' ? r : null; });
    expect(j.last_error).toMatch(/UNREGISTERED.*device removed/);
    expect(j.attempts).toBe(1);
    const list = await call(srv.baseUrl, 'GET', '/notification/devices', { headers: bearer(ws.users.doctor.auth_token) });
    expect(list.json.devices.map((d: { did: string }) => d.did)).not.toContain('old-phone');
    // The living devices got theirs.
    await waitFor('others sent', () => fake.sentTo('tok-doc-phone').some((s) => s.body.message.notification.title === 'to a dead phone'));
  });

  it('INVALID_ARGUMENT about the token removes the device too', async () => {
    await addDevice(ws.users.doctor.auth_token, 'garbled', 'bogus-token-1');
    const id = deviceRowId('bogus-token-1')!;
    await srv.service.notifications.enqueueForUser(ws.workspace_id, doctorId, { title: 'to a bad token', body: 'b' });
    const j = await waitFor('invalid-token push', async () => { const r = await job(id); return r?.status === 'failed' ? r : null; });
    expect(j.last_error).toMatch(/INVALID_ARGUMENT/);
    expect(deviceRowId('bogus-token-1')).toBeUndefined();
  });

  it('500 then 429 then success: retried with backoff, sent on the third attempt', async () => {
    await addDevice(ws.users.reception.auth_token, 'flaky', 'tok-flaky');
    const reception = (await srv.service.auth.authenticateToken(ws.users.reception.auth_token))!.id;
    fake.scripts.set('tok-flaky', [
      fake.fcmError(500, 'INTERNAL', 'INTERNAL', 'Internal error'),
      fake.fcmError(429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED', 'Quota exceeded'),
    ]);
    await srv.service.notifications.enqueueForUser(ws.workspace_id, reception, { title: 'flaky', body: 'b' });
    await waitFor('flaky push sent', async () => (await pushesTo('tok-flaky'))[0]?.status === 'sent');
    expect(fake.attempts.get('tok-flaky')).toBe(3);
    expect((await pushesTo('tok-flaky'))[0]).toMatchObject({ status: 'sent', attempts: 3 });
    expect((await pushesTo('tok-flaky'))[0]!.last_error).toMatch(/429/); // the last failure stays visible
  });

  it('Retry-After is honoured: no attempt before it has passed', async () => {
    await addDevice(ws.users.reception.auth_token, 'busy', 'tok-busy');
    const reception = (await srv.service.auth.authenticateToken(ws.users.reception.auth_token))!.id;
    fake.scripts.set('tok-busy', [{ ...fake.fcmError(503, 'UNAVAILABLE', 'UNAVAILABLE', 'Try later'), headers: { 'retry-after': '120' } }]);
    const t0 = clock.now().getTime();
    await srv.service.notifications.enqueueForUser(ws.workspace_id, reception, { title: 'busy', body: 'b' });
    const j = await waitFor('first attempt', async () => { const r = (await pushesTo('tok-busy'))[0]; return r?.attempts === 1 && r.lease_until === null ? r : null; });
    expect(j.status).toBe('pending');
    expect(Date.parse(j.next_attempt_at) - t0).toBeGreaterThanOrEqual(120_000);
    await new Promise((r) => setTimeout(r, 300)); // several poll intervals
    expect(fake.attempts.get('tok-busy')).toBe(1);
    advance(121_000);
    await waitFor('sent after Retry-After', async () => (await pushesTo('tok-busy'))[0]?.status === 'sent');
    expect(fake.attempts.get('tok-busy')).toBe(2);
  });

  it('a push that keeps failing is failed after the last attempt', async () => {
    await addDevice(ws.users.reception.auth_token, 'down', 'tok-down');
    const reception = (await srv.service.auth.authenticateToken(ws.users.reception.auth_token))!.id;
    fake.scripts.set('tok-down', Array.from({ length: 10 }, () => fake.fcmError(503, 'UNAVAILABLE', 'UNAVAILABLE', 'down')));
    await srv.service.notifications.enqueueForUser(ws.workspace_id, reception, { title: 'never', body: 'b' });
    const j = await waitFor('failed after retries', async () => { const r = (await pushesTo('tok-down'))[0]; return r?.status === 'failed' ? r : null; });
    expect(j.attempts).toBe(4);
    expect(j.last_error).toMatch(/gave up after 4 attempts: FCM 503/);
    expect(fake.attempts.get('tok-down')).toBe(4);
    expect(deviceRowId('tok-down')).toBeDefined(); // a transient failure does not remove the device
  });

  it('a permanent error other than a dead token fails at once and keeps the device', async () => {
    await addDevice(ws.users.reception.auth_token, 'wrong-project', 'tok-mismatch');
    const reception = (await srv.service.auth.authenticateToken(ws.users.reception.auth_token))!.id;
    fake.scripts.set('tok-mismatch', [fake.fcmError(403, 'PERMISSION_DENIED', 'SENDER_ID_MISMATCH', 'SenderId mismatch')]);
    await srv.service.notifications.enqueueForUser(ws.workspace_id, reception, { title: 'mismatch', body: 'b' });
    const j = await waitFor('failed', async () => { const r = (await pushesTo('tok-mismatch'))[0]; return r?.status === 'failed' ? r : null; });
    expect(j).toMatchObject({ attempts: 1 });
    expect(j.last_error).toMatch(/SENDER_ID_MISMATCH/);
    expect(deviceRowId('tok-mismatch')).toBeDefined();
  });

  it('removing a device or the credentials cancels what is still queued for them', async () => {
    await addDevice(ws.users.reception.auth_token, 'leaving', 'tok-leaving');
    const reception = (await srv.service.auth.authenticateToken(ws.users.reception.auth_token))!.id;
    fake.scripts.set('tok-leaving', [{ ...fake.fcmError(503, 'UNAVAILABLE', 'UNAVAILABLE', 'later'), headers: { 'retry-after': '3600' } }]);
    const id = deviceRowId('tok-leaving')!;
    await srv.service.notifications.enqueueForUser(ws.workspace_id, reception, { title: 'leaving', body: 'b' });
    await waitFor('first attempt', async () => (await job(id))?.attempts === 1 && (await job(id))?.lease_until === null);
    const del = await call(srv.baseUrl, 'DELETE', '/notification/delete-device', { headers: { ...bearer(ws.users.reception.auth_token), 'device-id': 'leaving' } });
    expect(del.status).toBe(200);
    expect(await job(id)).toMatchObject({ status: 'cancelled', last_error: 'device removed' });
  });
});

describe('the queue is durable', () => {
  it('pushes queued when the service stops are sent after it starts again (and the sealed key still opens)', async () => {
    const dir = tempDir('push-restart');
    dataDirs.push(dir);
    const first = await start(dir, fake);
    const w = first.demo[0]!;
    const acct = serviceAccount(fake, 'restart');
    expect((await call(first.baseUrl, 'POST', '/notification/fcm-creds', { headers: bearer(w.users.admin.auth_token), body: { sa_key: acct } })).status).toBe(200);
    await addDevice(w.users.doctor.auth_token, 'r-phone', 'tok-restart-1', first.baseUrl);
    await addDevice(w.users.doctor.auth_token, 'r-tablet', 'tok-restart-2', first.baseUrl);
    const doc = (await first.service.auth.authenticateToken(w.users.doctor.auth_token))!.id;
    // One push waits for a retry (FCM asked for an hour)...
    fake.scripts.set('tok-restart-2', [{ ...fake.fcmError(503, 'UNAVAILABLE', 'UNAVAILABLE', 'later'), headers: { 'retry-after': '3600' } }]);
    await first.service.notifications.enqueueForUser(w.workspace_id, doc, { title: 'before restart', body: 'b' });
    await waitFor('first attempts', () => fake.sentTo('tok-restart-1').length === 1 && fake.attempts.get('tok-restart-2') === 1);
    await waitFor('retry recorded', async () => (await first.service.notifications.pushes(w.workspace_id)).every((j) => j.lease_until === null));
    // ...and another is queued once the sender has stopped, as at shutdown. Stopped first because close() gives the
    // sender turns (it waits for the scribe's workers), and a push it began then and close() aborted may have reached
    // FCM: it is sent again after the start (at least once), which is not what this test counts.
    await first.service.notifications.stopSender();
    expect(await first.service.notifications.enqueueForUser(w.workspace_id, doc, { title: 'queued at close', body: 'b' })).toEqual({ queued: 2 });
    await first.service.close();
    await first.closeHttp();
    expect(fake.sentTo('tok-restart-2')).toHaveLength(0);
    const sentBefore = fake.sent.length;

    const second = await start(dir, fake);
    try {
      await waitFor('queued pushes sent after restart', () => fake.sentTo('tok-restart-1').length === 2 && fake.sentTo('tok-restart-2').length === 1);
      expect(fake.sentTo('tok-restart-2')[0]!.body.message.notification.title).toBe('queued at close');
      // The retry FCM asked for still waits for its time; then it goes too.
      advance(3601_000);
      await waitFor('the retried push', async () => (await second.service.notifications.pushes(w.workspace_id)).every((j) => j.status === 'sent'));
      expect(fake.sentTo('tok-restart-2')).toHaveLength(2);
      expect(fake.sent.length).toBe(sentBefore + 3);
      const rows = await second.service.notifications.pushes(w.workspace_id);
      expect(rows.map((j) => j.status).sort()).toEqual(['sent', 'sent', 'sent', 'sent']);
      expect(rows.find((j) => j.title === 'before restart' && j.attempts === 2)).toBeDefined();
    } finally {
      await second.close();
    }
  });
});
