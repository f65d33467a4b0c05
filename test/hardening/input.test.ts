import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../server/auth/app-accounts.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { DATABASES } from '../helpers/postgres.js';
import { type RunningServer, startServer } from '../helpers/server.js';
import { rowOf } from '../helpers/service.js';
import { skipFor } from '../helpers/skip.js';

/**
 * Issue 13, items 2 and 6, over real HTTP: JSON-only bodies (415 for the forms and text a web page can post
 * without a preflight) except the OAuth token endpoint and the sign-in pages; cross-site posts to those pages
 * refused; a sign-in burst from another address does not lock out the user at their own; invalid UTF-8 and
 * control or bidi-override characters in names and free text refused with 400 naming the field.
 */

interface Res { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: any }

/** One HTTP/1.1 request from a chosen loopback source address (Linux routes all of 127/8 to lo). */
function send(base: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: string | Buffer; from?: string } = {}) {
  const url = new URL(base);
  return new Promise<Res>((resolve, reject) => {
    const req = httpRequest({
      host: url.hostname, port: url.port, method, path, localAddress: opts.from, headers: opts.headers,
    }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let json: any;
        try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const json = (v: unknown) => JSON.stringify(v);

let srv: RunningServer;
let base: string;
let ws: DemoWorkspace;
let lake: DemoWorkspace;
let mobileSeq = 0;
const nextMobile = () => `93000${String(++mobileSeq).padStart(5, '0')}`;
const patient = (over: Record<string, unknown> = {}) => ({
  first_name: 'Asha', last_name: 'Verma', dob: '1990-01-01', gender: 'F', mobile: nextMobile(), ...over,
});

const patientCount = async () => (await rowOf<{ n: number }>(srv.service, sql`SELECT count(*) AS n FROM patients`))!.n;
const grantCount = async () => (await rowOf<{ n: number }>(srv.service, sql`SELECT count(*) AS n FROM oidc_models WHERE model = 'Grant'`))!.n;

for (const db of DATABASES) describe(`hardening: request bodies, cross-site posts, sign-in limits, input hygiene (${db.name})`, skipFor(db.skip), () => {
  beforeAll(async () => {
    srv = await startServer({ database: db });
    base = srv.baseUrl;
    ws = srv.demo.workspaces[0]!;
    lake = srv.demo.workspaces[1]!;
  });
  afterAll(() => srv?.close());

  describe('request bodies: JSON only, except where a standard says form', () => {
    it('form-encoded, text/plain and multipart bodies get 415 in each route family\'s error shape, and change nothing', async () => {
      const admin = { auth: ws.users.admin.auth_token };
      const appt = ws.appointments[0]!.appointment_id;
      const patientsBefore = await patientCount();
      const bodies: [string, string][] = [
        [FORM, 'first_name=Mallory&last_name=X&dob=1990-01-01&gender=F&mobile=9300099999&username=x&password=y&status=NS'],
        ['text/plain', json(patient({ first_name: 'Mallory' }))],
        ['text/plain;charset=UTF-8', '{"username":"x","password":"y"}'],
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="status"\r\n\r\nNS\r\n--x--\r\n'],
      ];
      // [path, auth headers, how the family's 415 reads]
      const routes: [string, Record<string, string>, (r: Res) => void][] = [
        ['/dr/v1/patient', admin, (r) => expect(r.json).toMatchObject({ success: false, status_code: 415, error: { code: 'INVALID_REQUEST' } })],
        [`/dr/v1/appointment/${appt}/change-status`, admin, (r) => expect(r.json.error.code).toBe('INVALID_REQUEST')],
        ['/api/v1/session', {}, (r) => expect(r.json).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.stringMatching(/Content-Type/) } })],
        ['/api/v1/setup', {}, (r) => expect(r.json.error.code).toBe('INVALID_REQUEST')],
        ['/api/v1/users', admin, (r) => expect(r.json.error.code).toBe('INVALID_REQUEST')],
        ['/notification/add-device', admin, (r) => expect(r.json).toMatchObject({ error_code: 415 })],
        ['/notification/v1/connect/webhook/subscriptions', admin, (r) => expect(r.json.error.code).toBe('INVALID_REQUEST')],
        [`/voice/api/v2/transaction/init/hardening-${randomBytes(4).toString('hex')}`, admin, (r) => expect(r.json.code).toBe('INVALID_REQUEST')],
        ['/mcp', admin, (r) => expect(r.json.error.code).toBe('INVALID_REQUEST')],
      ];
      for (const [type, body] of bodies) {
        for (const [path, headers, shape] of routes) {
          const r = await send(base, 'POST', path, { headers: { ...headers, 'content-type': type }, body });
          expect(r.status, `${type} → ${path}: ${r.text.slice(0, 200)}`).toBe(415);
          shape(r);
        }
      }
      expect(await patientCount()).toBe(patientsBefore);
      const a = await send(base, 'GET', `/dr/v1/appointment/${appt}`, { headers: admin });
      expect(a.json.data.status).toBe('BK');
      // The same sign-in as JSON is taken (the control: 415 above was about the type, not the route).
      const ok = await send(base, 'POST', '/api/v1/session', { headers: { 'content-type': JSON_TYPE }, body: json(ws.users.doctor) });
      expect(ok.status, ok.text).toBe(200);
    });

    it('the OAuth token endpoint still takes its form body (RFC 6749), and sets no cookie', async () => {
      const r = await send(base, 'POST', '/api/v1/auth/token', {
        headers: { 'content-type': FORM, 'x-api-key': ws.api_key, origin: 'http://evil.example' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: ws.client_id, client_secret: ws.client_secret }).toString(),
      });
      expect(r.status, r.text).toBe(200);
      expect(r.json.token_type).toBe('Bearer');
      expect(r.headers['set-cookie']).toBeUndefined();
      const refreshed = await send(base, 'POST', '/api/v1/auth/token', {
        headers: { 'content-type': FORM }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: r.json.refresh_token }).toString(),
      });
      expect(refreshed.status, refreshed.text).toBe(200);
      // text/plain is not a form: 415 there too, in the OAuth shape.
      const text = await send(base, 'POST', '/api/v1/auth/token', { headers: { 'content-type': 'text/plain' }, body: 'grant_type=refresh_token' });
      expect(text.status).toBe(415);
      expect(text.json.error).toBe('invalid_request');
    });
  });

  describe('the OpenID sign-in and consent pages refuse cross-site posts', () => {
    /** A registered public client and an authorization request, as a browser would make it: the interaction's uid and cookies. */
    async function interaction() {
      const reg = await send(base, 'POST', '/oauth2/reg', {
        headers: { 'content-type': JSON_TYPE },
        body: json({ client_name: 'Hardening test', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code'], response_types: ['code'], scope: 'openid patients:read' }),
      });
      expect(reg.status, reg.text).toBe(201);
      const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
      const q = new URLSearchParams({
        client_id: reg.json.client_id, response_type: 'code', redirect_uri: 'http://127.0.0.1:9/callback', scope: 'openid patients:read',
        code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz',
      });
      const auth = await send(base, 'GET', `/oauth2/auth?${q}`);
      expect(auth.status, auth.text).toBe(303);
      const location = String(auth.headers.location);
      const uid = /\/oauth2\/interaction\/([^/?]+)/.exec(location)![1]!;
      const cookie = ((auth.headers['set-cookie'] ?? []) as string[]).map((c) => c.split(';')[0]).join('; ');
      return { uid, cookie, path: `/oauth2/interaction/${uid}/login` };
    }

    const loginForm = (username: string, password: string) => new URLSearchParams({ username, password }).toString();

    it('a sign-in form from another origin gets 403 and signs no one in; the same form from the page itself works', async () => {
      const it1 = await interaction();
      const user = lake.users.doctor;
      const page = await send(base, 'GET', `/oauth2/interaction/${it1.uid}`, { headers: { cookie: it1.cookie } });
      expect(page.status).toBe(200);
      expect(page.headers['referrer-policy']).toBe('same-origin');
      const port = new URL(base).port;
      const foreign: Record<string, string>[] = [
        { origin: 'http://evil.example' },
        { origin: `http://127.0.0.1:${Number(port) + 1}` }, // another port of this computer: same site, other origin
        { origin: 'null' },
        { referer: 'http://evil.example/attack.html' },
        {}, // neither: not a form our page sent
      ];
      for (const h of foreign) {
        const r = await send(base, 'POST', it1.path, {
          headers: { ...h, cookie: it1.cookie, 'content-type': FORM }, body: loginForm(user.username, user.password),
        });
        expect(r.status, `${JSON.stringify(h)}: ${r.text.slice(0, 200)}`).toBe(403);
        expect(r.text).toContain('another site');
        expect(r.headers['set-cookie']).toBeUndefined();
      }
      // Six wrong passwords from another origin are not even counted: the user is not locked out by them.
      for (let i = 0; i < 6; i++) {
        const r = await send(base, 'POST', it1.path, {
          headers: { origin: 'http://evil.example', cookie: it1.cookie, 'content-type': FORM }, body: loginForm(user.username, `wrong-${i}`),
        });
        expect(r.status).toBe(403);
      }
      // Nothing happened to the interaction: the page's own post (Origin, or only a same-origin Referer) signs in.
      const own = await send(base, 'POST', it1.path, {
        headers: { referer: `${base}/oauth2/interaction/${it1.uid}`, cookie: it1.cookie, 'content-type': FORM },
        body: loginForm(user.username, user.password),
      });
      expect(own.status, own.text.slice(0, 300)).toBe(303);
      const it2 = await interaction();
      const viaOrigin = await send(base, 'POST', it2.path, {
        headers: { origin: base, cookie: it2.cookie, 'content-type': FORM }, body: loginForm(user.username, user.password),
      });
      expect(viaOrigin.status).toBe(303);
    });

    it('a consent form from another origin gets 403 and grants nothing', async () => {
      const it1 = await interaction();
      const user = lake.users.reception;
      const login = await send(base, 'POST', it1.path, {
        headers: { origin: base, cookie: it1.cookie, 'content-type': FORM }, body: loginForm(user.username, user.password),
      });
      expect(login.status).toBe(303);
      // Follow the provider back to the consent prompt, keeping its cookies.
      const jar = new Map(it1.cookie.split('; ').map((c) => [c.split('=')[0]!, c] as const));
      const absorb = (r: Res) => {
        for (const c of (r.headers['set-cookie'] ?? []) as string[]) jar.set(c.split('=')[0]!, c.split(';')[0]!);
      };
      absorb(login);
      let next = String(login.headers.location);
      let r: Res;
      do {
        r = await send(base, 'GET', new URL(next, base).pathname + new URL(next, base).search, { headers: { cookie: [...jar.values()].join('; ') } });
        absorb(r);
        next = String(r.headers.location);
      } while (r.status === 303 || r.status === 302);
      expect(r.status).toBe(200);
      expect(r.text).toContain('Allow');
      const uid = /\/oauth2\/interaction\/([^/"]+)\/confirm/.exec(r.text)![1]!;
      const grants = await grantCount();
      const cross = await send(base, 'POST', `/oauth2/interaction/${uid}/confirm`, {
        headers: { origin: 'http://evil.example', cookie: [...jar.values()].join('; '), 'content-type': FORM }, body: 'decision=allow',
      });
      expect(cross.status).toBe(403);
      expect(await grantCount()).toBe(grants);
      const own = await send(base, 'POST', `/oauth2/interaction/${uid}/confirm`, {
        headers: { origin: base, cookie: [...jar.values()].join('; '), 'content-type': FORM }, body: 'decision=allow',
      });
      expect(own.status).toBe(303);
      expect(await grantCount()).toBe(grants + 1);
    });
  });

  describe('sign-in limits: per username and address together', () => {
    const signIn = (username: string, password: string, from: string) =>
      send(base, 'POST', '/api/v1/session', { headers: { 'content-type': JSON_TYPE }, body: json({ username, password }), from });

    it('a burst of failures from another address locks out that address, not the user at 127.0.0.1', async () => {
      const { username, password } = lake.users.admin;
      for (let i = 0; i < SIGN_IN_LIMITS.perUser + 1; i++) {
        expect((await signIn(username, `blind-${i}`, '127.0.0.2')).status).toBeOneOf([401, 429]);
      }
      const there = await signIn(username, password, '127.0.0.2');
      expect(there.status).toBe(429);
      expect(there.json.error.code).toBe('TOO_MANY_ATTEMPTS');
      expect(Number(there.headers['retry-after'])).toBeGreaterThan(0);
      const here = await signIn(username, password, '127.0.0.1');
      expect(here.status, here.text).toBe(200);
    });

    it('many addresses together reach the per-username cap: then the username waits everywhere', async () => {
      const created = await send(base, 'POST', '/api/v1/users', {
        headers: { auth: lake.users.admin.auth_token, 'content-type': JSON_TYPE },
        body: json({ username: 'spread.target', password: 'the right one', role: 'reception', display_name: 'Spread Target' }),
      });
      expect(created.status, created.text).toBe(201);
      const perAddress = SIGN_IN_LIMITS.perUser;
      const addresses = Math.ceil(SIGN_IN_LIMITS.perUserAnyAddress / perAddress);
      for (let a = 0; a < addresses; a++) {
        for (let i = 0; i < perAddress; i++) expect((await signIn('spread.target', 'guess', `127.0.1.${a + 1}`)).status).toBe(401);
      }
      expect((await signIn('spread.target', 'the right one', '127.0.0.1')).status).toBe(429);
    });
  });

  describe('input hygiene', () => {
    const admin = () => ({ auth: ws.users.admin.auth_token, 'content-type': JSON_TYPE });

    it('invalid UTF-8 in a JSON body is 400, never stored as U+FFFD', async () => {
      const before = await patientCount();
      const mobile = nextMobile();
      const body = (bytes: number[]) => Buffer.concat([
        Buffer.from('{"first_name":"Zo'), Buffer.from(bytes), Buffer.from(`","last_name":"X","dob":"1990-01-01","gender":"F","mobile":"${mobile}"}`),
      ]);
      for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
        const r = await send(base, 'POST', '/dr/v1/patient', { headers: admin(), body: body(bad) });
        expect(r.status, `${bad.map((b) => b.toString(16))}: ${r.text}`).toBe(400);
        expect(r.json).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST', message: 'The body is not valid UTF-8' } });
      }
      const plain = await send(base, 'POST', '/api/v1/users', { headers: admin(), body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) });
      expect(plain.status).toBe(400);
      expect(plain.json.error.message).toMatch(/UTF-8/);
      expect(await patientCount()).toBe(before);
      // The same name in valid UTF-8 (ë) is stored as sent.
      const ok = await send(base, 'POST', '/dr/v1/patient', { headers: admin(), body: body([0xc3, 0xab]) });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.json.data.patient_profile.first_name).toBe('Zoë');
    });

    const REFUSED = ['Nu\u0000ll', 'bell\u0007', 'esc\u001b[31m', '\u007f', 'c1\u0085', 'c1\u009b', '\u202Eevil', 'a\u202Ab', 'a\u202Db',
      '\u2066isolate\u2069', 'a\u2068b', 'tab\there', 'line\nbreak'];

    it('control and bidi-override characters in a patient name are 400 naming the field; ordinary scripts are stored', async () => {
      const before = await patientCount();
      for (const s of REFUSED) {
        for (const field of ['first_name', 'middle_name', 'last_name']) {
          const r = await send(base, 'POST', '/dr/v1/patient', { headers: admin(), body: json(patient({ [field]: s })) });
          expect(r.status, `${field} ${JSON.stringify(s)}: ${r.text}`).toBe(400);
          expect(r.json.error.code).toBe('INVALID_REQUEST');
          expect(r.json.error.message).toContain(`body.${field} `);
          expect(r.json.error.message).toMatch(/control characters/);
        }
      }
      expect(await patientCount()).toBe(before);
      const id = ws.patients[0]!.patient_id;
      const patch = await send(base, 'PATCH', `/dr/v1/patient/${id}`, { headers: admin(), body: json({ last_name: 'Sha\u202Erma' }) });
      expect(patch.status).toBe(400);
      expect(patch.json.error.message).toContain('body.last_name');
      for (const s of ['प्रिया', 'فاطمة', 'שרה', '👨‍👩‍👧‍👦', 'O\u2019Brien', 'e\u0301']) {
        const r = await send(base, 'POST', '/dr/v1/patient', { headers: admin(), body: json(patient({ first_name: s })) });
        expect(r.status, `${JSON.stringify(s)}: ${r.text}`).toBe(201);
        expect(r.json.data.patient_profile.first_name).toBe(s);
      }
    });

    it('the app\'s names and labels refuse them too, naming the field', async () => {
      const cases: [string, string, (s: string) => unknown][] = [
        ['/api/v1/users', 'body.display_name', (s) => ({ username: `u${randomBytes(3).toString('hex')}`, password: 'long enough', role: 'doctor', display_name: s })],
        ['/api/v1/api-clients', 'body.name', (s) => ({ name: s, scopes: ['patients:read'] })],
        ['/api/v1/api-keys', 'body.label', (s) => ({ label: s })],
      ];
      for (const [path, field, make] of cases) {
        for (const s of ['Dr \u202Eevil', 'a\u0000b', 'two\nlines']) {
          const r = await send(base, 'POST', path, { headers: admin(), body: json(make(s)) });
          expect(r.status, `${path} ${JSON.stringify(s)}: ${r.text}`).toBe(400);
          expect(r.json.error.message).toContain(field);
        }
        const ok = await send(base, 'POST', path, { headers: admin(), body: json(make('Front desk – Anand')) });
        expect(ok.status, ok.text).toBe(201);
      }
    });

    it('free text (an appointment reason) may span lines, but refuses NUL and bidi overrides', async () => {
      const book = (reason: string) => send(base, 'POST', '/dr/v1/appointment', {
        headers: admin(), body: json({ patient_id: ws.patients[1]!.patient_id, scheduled_at: '2030-01-02T10:00:00+05:30', reason }),
      });
      for (const reason of ['fever\u0000', 'see \u202Enote', 'form\u000cfeed']) {
        const r = await book(reason);
        expect(r.status, r.text).toBe(400);
        expect(r.text).toContain('body.reason');
      }
      const ok = await book('Fever for 3 days\r\n\tand a cough');
      expect(ok.status, ok.text).toBe(201);
    });
  });
});
