import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { ROOT, type RunningServer, call, startServer } from '../helpers/server.js';

/**
 * Push credentials (interface endpoint 4) and device registration over real HTTP: every success and error in
 * the `{message, error_code}` shape, bearer auth by user token and by client-credentials JWT, scope checks,
 * tenant isolation, and the private key never leaving the service or sitting in the database in plain text.
 * Sending is covered by push.test.ts.
 */

type Res = Awaited<ReturnType<typeof call>>;

const CREDS = '/notification/fcm-creds';
const ADD = '/notification/add-device';
const DEL = '/notification/delete-device';
const DEVICES = '/notification/devices';

const LEAKS: RegExp[] = [/\n\s*at\s/, /\.ts:\d/, /\.[cm]?js:\d/, /node_modules/, /file:\/\//];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function rsaPem(bits = 2048) {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** The PEM's base64 body lines: what must never show up in a response or in the database file. */
const pemLines = (pem: string) => pem.split('\n').filter((l) => l && !l.startsWith('-----'));

const KEY_A = rsaPem();
const KEY_B = rsaPem();

function saKey(overrides: Record<string, unknown> = {}) {
  return {
    type: 'service_account',
    project_id: 'sunrise-clinic-app',
    private_key_id: 'a1b2c3d4e5f6',
    private_key: KEY_A,
    client_email: 'push@sunrise-clinic-app.iam.gserviceaccount.com',
    client_id: 1122334455667788,
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: 'https://www.googleapis.com/robot/v1/metadata/x509/push%40sunrise-clinic-app.iam.gserviceaccount.com',
    universal_domain: 'googleapis.com',
    ...overrides,
  };
}

const device = (did: string, overrides: Record<string, unknown> = {}) => ({
  devicePayload: { did, 'fcm-id': `fcm-token-${did}-${'x'.repeat(120)}`, 'app-version': '1571', 'app-platform': 'android', ...overrides },
});

let srv: RunningServer;
let ws0: DemoWorkspace;
let ws1: DemoWorkspace;
const seen: Res[] = [];

async function req(method: string, path: string, token: string | null, opts: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
  const res = await call(srv.baseUrl, method, path, { ...opts, headers: { ...(token ? bearer(token) : {}), ...opts.headers } });
  seen.push(res);
  return res;
}

function expectError(res: Res, status: number, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.json).sort()).toEqual(['error_code', 'message']);
  expect(res.json.error_code).toBe(status);
  expect(typeof res.json.message).toBe('string');
  if (message) expect(res.json.message).toMatch(message);
  if (status >= 500) expect(res.json.message).toContain(res.headers.get('x-request-id')!);
  for (const leak of LEAKS) expect(res.text).not.toMatch(leak);
  expect(res.text).not.toContain(ROOT);
}

async function clientToken(ws: DemoWorkspace, client: { client_id: string; client_secret: string } = ws): Promise<string> {
  const res = await call(srv.baseUrl, 'POST', '/api/v1/auth/token', {
    headers: { 'x-api-key': ws.api_key },
    body: { client_id: client.client_id, client_secret: client.client_secret, grant_type: 'client_credentials' },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.access_token;
}

beforeAll(async () => {
  srv = await startServer();
  [ws0, ws1] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
});
afterAll(async () => {
  await srv?.close();
});

describe('POST /notification/fcm-creds', () => {
  it('stores the credentials: 200 {"message":"FCM credentials added successfully"}, with a user\'s auth token', async () => {
    const res = await req('POST', CREDS, ws0.users.admin.auth_token, { body: { sa_key: saKey() } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toStrictEqual({ message: 'FCM credentials added successfully' });
    expect(res.headers.get('x-request-id')).toMatch(/\S/);
  });

  it('accepts an access token from POST /api/v1/auth/token as the bearer', async () => {
    const jwt = await clientToken(ws0);
    const res = await req('POST', CREDS, jwt, { body: { sa_key: saKey({ client_id: '112233445566778899' }) } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toStrictEqual({ message: 'FCM credentials added successfully' });
  });

  it('GET returns the stored metadata without the private key; client_id comes back as a string', async () => {
    const res = await req('GET', CREDS, ws0.users.doctor.auth_token);
    expect(res.status, res.text).toBe(200);
    const { private_key: _omitted, universal_domain, client_id: _id, ...rest } = saKey();
    expect(res.json.sa_key).toStrictEqual({ ...rest, client_id: '112233445566778899', universe_domain: universal_domain, universal_domain });
    expect(res.json.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.json.updated_at >= res.json.created_at).toBe(true);
    expect(res.text).not.toContain('PRIVATE KEY');
  });

  it('a new POST replaces the old set (one per workspace); created_at is kept', async () => {
    const before = (await req('GET', CREDS, ws0.users.admin.auth_token)).json;
    const res = await req('POST', CREDS, ws0.users.admin.auth_token, {
      body: { sa_key: saKey({ project_id: 'sunrise-clinic-app-2', private_key: KEY_B, universal_domain: undefined, universe_domain: 'googleapis.com' }) },
    });
    expect(res.status, res.text).toBe(200);
    const after = (await req('GET', CREDS, ws0.users.admin.auth_token)).json;
    expect(after.sa_key.project_id).toBe('sunrise-clinic-app-2');
    expect(after.sa_key.universe_domain).toBe('googleapis.com');
    expect(after.created_at).toBe(before.created_at);
    expect(after.updated_at >= before.updated_at).toBe(true);
    expect(srv.service.db.prepare('SELECT COUNT(*) AS n FROM fcm_credentials WHERE workspace_id = ?').get(ws0.workspace_id)).toEqual({ n: 1 });
  });

  it('accepts a key pasted with literal \\n sequences, and optional fields left out', async () => {
    const sa = { type: 'service_account', project_id: 'lakeview-app', private_key: KEY_B.replaceAll('\n', '\\n'), client_email: 'fcm@lakeview-app.iam.gserviceaccount.com', token_uri: 'https://oauth2.googleapis.com/token' };
    const res = await req('POST', CREDS, ws1.users.admin.auth_token, { body: { sa_key: sa } });
    expect(res.status, res.text).toBe(200);
    const got = (await req('GET', CREDS, ws1.users.admin.auth_token)).json.sa_key;
    expect(got).toMatchObject({ project_id: 'lakeview-app', client_id: null, private_key_id: null, universe_domain: null });
    // Leave workspace 1 without credentials for the isolation tests below.
    expect((await req('DELETE', CREDS, ws1.users.admin.auth_token)).status).toBe(200);
  });

  describe('400 for an invalid body, saying which field', () => {
    const cases: [string, unknown, RegExp][] = [
      ['no body', undefined, /body/],
      ['no sa_key', { key: saKey() }, /sa_key/],
      ['sa_key not an object', { sa_key: 'x' }, /sa_key/],
      ['type missing', { sa_key: saKey({ type: undefined }) }, /type/],
      ['type not service_account', { sa_key: saKey({ type: 'authorized_user' }) }, /sa_key\.type must be service_account/],
      ['project_id missing', { sa_key: saKey({ project_id: undefined }) }, /project_id/],
      ['project_id empty', { sa_key: saKey({ project_id: '' }) }, /project_id/],
      ['project_id not a string', { sa_key: saKey({ project_id: 42 }) }, /project_id/],
      ['project_id with a slash', { sa_key: saKey({ project_id: 'a/../b' }) }, /project_id/],
      ['client_email missing', { sa_key: saKey({ client_email: undefined }) }, /client_email/],
      ['client_email not an address', { sa_key: saKey({ client_email: 'nobody' }) }, /client_email/],
      ['private_key missing', { sa_key: saKey({ private_key: undefined }) }, /private_key/],
      ['private_key not PEM', { sa_key: saKey({ private_key: 'hello' }) }, /private_key/],
      ['private_key PEM that does not parse', { sa_key: saKey({ private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n' }) }, /private_key does not parse/],
      ['private_key is a public key', { sa_key: saKey({ private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }) }) }, /private_key/],
      ['private_key not RSA', { sa_key: saKey({ private_key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) }) }, /RSA/],
      ['private_key RSA under 2048 bits', { sa_key: saKey({ private_key: rsaPem(1024) }) }, /2048/],
      ['token_uri missing', { sa_key: saKey({ token_uri: undefined }) }, /token_uri/],
      ['token_uri not a URL', { sa_key: saKey({ token_uri: 'oauth2 token' }) }, /token_uri/],
      ['token_uri plain http to a remote host', { sa_key: saKey({ token_uri: 'http://oauth2.example.com/token' }) }, /token_uri/],
      ['client_id neither number nor string', { sa_key: saKey({ client_id: true }) }, /client_id/],
      ['universal_domain and universe_domain differ', { sa_key: saKey({ universe_domain: 'example.com' }) }, /universe_domain/],
    ];
    for (const [name, body, message] of cases) {
      it(name, async () => {
        expectError(await req('POST', CREDS, ws0.users.admin.auth_token, { body }), 400, message);
      });
    }

    it('malformed JSON', async () => {
      expectError(await req('POST', CREDS, ws0.users.admin.auth_token, { rawBody: '{"sa_key": {', headers: { 'content-type': 'application/json' } }), 400, /Malformed JSON/);
    });

    it('a refused body leaves the stored credentials as they were', async () => {
      const before = (await req('GET', CREDS, ws0.users.admin.auth_token)).json;
      expectError(await req('POST', CREDS, ws0.users.admin.auth_token, { body: { sa_key: saKey({ project_id: 'other-app', private_key: 'broken' }) } }), 400);
      expect((await req('GET', CREDS, ws0.users.admin.auth_token)).json).toStrictEqual(before);
    });
  });
});

describe('authentication and permission', () => {
  const routes: [string, string, { body?: unknown; headers?: Record<string, string> }][] = [
    ['POST', CREDS, { body: { sa_key: saKey() } }],
    ['GET', CREDS, {}],
    ['DELETE', CREDS, {}],
    ['POST', ADD, { body: device('auth-test') }],
    ['DELETE', DEL, { headers: { 'device-id': 'auth-test' } }],
    ['GET', DEVICES, {}],
  ];

  for (const [method, path, opts] of routes) {
    it(`${method} ${path}: 401 {message, error_code: 401} without a bearer, with a bad one, or with a revoked one`, async () => {
      expectError(await req(method, path, null, opts), 401, /^Unauthorized access/);
      expectError(await req(method, path, 'not-a-token', opts), 401, /^Unauthorized access/);
      expectError(await req(method, path, 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln', opts), 401, /^Unauthorized access/);
      expectError(await req(method, path, null, { ...opts, headers: { ...opts.headers, authorization: 'Basic Zm9vOmJhcg==' } }), 401);
    });
  }

  it('401 comes before body validation', async () => {
    expectError(await req('POST', CREDS, null, { body: { nonsense: true } }), 401);
    expectError(await req('POST', ADD, 'bogus', { body: {} }), 401);
  });

  it('a revoked user token is refused', async () => {
    const userId = (await srv.service.auth.authenticateToken(ws0.users.reception.auth_token))!.id;
    const token = await srv.service.auth.issueAuthToken(userId, 'to-revoke');
    expect((await req('GET', DEVICES, token)).status).toBe(200);
    await srv.service.auth.revokeAuthToken(token);
    expectError(await req('GET', DEVICES, token), 401);
  });

  it('403 {message, error_code: 403} for a token without the notifications permission', async () => {
    const limited = await clientToken(ws0, ws0.limited_client);
    for (const [method, path, opts] of routes) expectError(await req(method, path, limited, opts), 403, /notifications/);
    // A user token narrowed to patient search only.
    const userId = (await srv.service.auth.authenticateToken(ws0.users.doctor.auth_token))!.id;
    const narrowed = await srv.service.auth.issueAuthToken(userId, 'search only', ['patients:read']);
    expectError(await req('GET', CREDS, narrowed), 403);
  });
});

describe('devices', () => {
  it('POST /notification/add-device registers a device for the signed-in user: 200 {"success":true}', async () => {
    const res = await req('POST', ADD, ws0.users.doctor.auth_token, { body: device('doc-phone') });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toStrictEqual({ success: true });
    const list = await req('GET', DEVICES, ws0.users.doctor.auth_token);
    expect(list.json.devices).toHaveLength(1);
    expect(list.json.devices[0]).toMatchObject({ did: 'doc-phone', 'app-version': '1571', 'app-platform': 'android' });
    expect(list.text).not.toContain('fcm-token-');
  });

  it('registering the same did again updates it instead of adding a second device', async () => {
    expect((await req('POST', ADD, ws0.users.doctor.auth_token, { body: device('doc-phone', { 'app-version': '1600', 'fcm-id': 'rotated-token' }) })).status).toBe(200);
    const list = (await req('GET', DEVICES, ws0.users.doctor.auth_token)).json.devices;
    expect(list).toHaveLength(1);
    expect(list[0]['app-version']).toBe('1600');
    const row = srv.service.db.prepare('SELECT fcm_token FROM push_devices WHERE device_id = ?').get('doc-phone') as { fcm_token: string };
    expect(row.fcm_token).toBe('rotated-token');
  });

  it('the upstream payload\'s optional fields are accepted (os-version as a number)', async () => {
    const res = await req('POST', ADD, ws0.users.doctor.auth_token, {
      body: device('doc-tablet', { 'app-id': '123', fid: 'frbq-2Qkh', lang: 'en', 'os-version': 20, 'user-hash': 'user123' }),
    });
    expect(res.status, res.text).toBe(200);
  });

  it('an API client registers its own devices, separate from users\'', async () => {
    const jwt = await clientToken(ws0);
    expect((await req('POST', ADD, jwt, { body: device('kiosk-1') })).json).toStrictEqual({ success: true });
    expect((await req('GET', DEVICES, jwt)).json.devices.map((d: { did: string }) => d.did)).toEqual(['kiosk-1']);
    const doctors = (await req('GET', DEVICES, ws0.users.doctor.auth_token)).json.devices.map((d: { did: string }) => d.did);
    expect(doctors).not.toContain('kiosk-1');
  });

  it('a registration token taken over by another user moves to that user', async () => {
    await req('POST', ADD, ws0.users.reception.auth_token, { body: device('front-desk', { 'fcm-id': 'shared-token' }) });
    await req('POST', ADD, ws0.users.admin.auth_token, { body: device('front-desk-admin', { 'fcm-id': 'shared-token' }) });
    expect((await req('GET', DEVICES, ws0.users.reception.auth_token)).json.devices).toEqual([]);
    expect((await req('GET', DEVICES, ws0.users.admin.auth_token)).json.devices.map((d: { did: string }) => d.did)).toEqual(['front-desk-admin']);
  });

  describe('400 for a missing or mistyped payload', () => {
    const cases: [string, unknown, RegExp][] = [
      ['no body', undefined, /body/],
      ['no devicePayload', { did: 'x', 'fcm-id': 'y', 'app-version': '1' }, /devicePayload/],
      ['devicePayload not an object', { devicePayload: 'x' }, /devicePayload/],
      ['did missing', device('x', { did: undefined }), /did/],
      ['did empty', device(''), /did/],
      ['fcm-id missing', device('x', { 'fcm-id': undefined }), /fcm-id/],
      ['fcm-id a number', device('x', { 'fcm-id': 12345 }), /fcm-id/],
      ['app-version missing', device('x', { 'app-version': undefined }), /app-version/],
      ['app-version a number', device('x', { 'app-version': 1571 }), /app-version/],
      ['os-version an object', device('x', { 'os-version': {} }), /os-version/],
    ];
    for (const [name, body, message] of cases) {
      it(name, async () => {
        expectError(await req('POST', ADD, ws0.users.doctor.auth_token, { body }), 400, message);
      });
    }
  });

  it('DELETE /notification/delete-device with header device-id removes it: 200 {"success":true}, then 404', async () => {
    await req('POST', ADD, ws0.users.doctor.auth_token, { body: device('to-remove') });
    const res = await req('DELETE', DEL, ws0.users.doctor.auth_token, { headers: { 'device-id': 'to-remove' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toStrictEqual({ success: true });
    expect((await req('GET', DEVICES, ws0.users.doctor.auth_token)).json.devices.map((d: { did: string }) => d.did)).not.toContain('to-remove');
    expectError(await req('DELETE', DEL, ws0.users.doctor.auth_token, { headers: { 'device-id': 'to-remove' } }), 404, /device/);
  });

  it('DELETE without the device-id header is 400; an unknown id is 404', async () => {
    expectError(await req('DELETE', DEL, ws0.users.doctor.auth_token), 400, /device-id/);
    expectError(await req('DELETE', DEL, ws0.users.doctor.auth_token, { headers: { 'device-id': 'never-registered' } }), 404);
  });

  it('a user cannot remove another user\'s device in the same workspace', async () => {
    expectError(await req('DELETE', DEL, ws0.users.reception.auth_token, { headers: { 'device-id': 'doc-phone' } }), 404);
    expect((await req('GET', DEVICES, ws0.users.doctor.auth_token)).json.devices.map((d: { did: string }) => d.did)).toContain('doc-phone');
  });
});

describe('tenant isolation', () => {
  it('workspace B cannot read or delete A\'s credentials', async () => {
    expect((await req('GET', CREDS, ws0.users.admin.auth_token)).status).toBe(200);
    expectError(await req('GET', CREDS, ws1.users.admin.auth_token), 404);
    expectError(await req('DELETE', CREDS, ws1.users.admin.auth_token), 404);
    expectError(await req('GET', CREDS, await clientToken(ws1)), 404);
    expect((await req('GET', CREDS, ws0.users.admin.auth_token)).json.sa_key.project_id).toBe('sunrise-clinic-app-2');
  });

  it('B storing its own credentials does not touch A\'s', async () => {
    const res = await req('POST', CREDS, ws1.users.admin.auth_token, { body: { sa_key: saKey({ project_id: 'lakeview-app' }) } });
    expect(res.status).toBe(200);
    expect((await req('GET', CREDS, ws0.users.admin.auth_token)).json.sa_key.project_id).toBe('sunrise-clinic-app-2');
    expect((await req('GET', CREDS, ws1.users.admin.auth_token)).json.sa_key.project_id).toBe('lakeview-app');
  });

  it('workspace B cannot see or delete A\'s devices, even knowing the did', async () => {
    expectError(await req('DELETE', DEL, ws1.users.doctor.auth_token, { headers: { 'device-id': 'doc-phone' } }), 404);
    expectError(await req('DELETE', DEL, await clientToken(ws1), { headers: { 'device-id': 'kiosk-1' } }), 404);
    expect((await req('GET', DEVICES, ws1.users.doctor.auth_token)).json.devices).toEqual([]);
    expect((await req('GET', DEVICES, ws0.users.doctor.auth_token)).json.devices.map((d: { did: string }) => d.did)).toContain('doc-phone');
  });

  it('the same did in two workspaces are two devices', async () => {
    expect((await req('POST', ADD, ws1.users.doctor.auth_token, { body: device('doc-phone') })).status).toBe(200);
    expect((await req('DELETE', DEL, ws1.users.doctor.auth_token, { headers: { 'device-id': 'doc-phone' } })).status).toBe(200);
    expect((await req('GET', DEVICES, ws0.users.doctor.auth_token)).json.devices.map((d: { did: string }) => d.did)).toContain('doc-phone');
  });
});

describe('DELETE /notification/fcm-creds', () => {
  it('removes the credentials: 200, then GET and DELETE are 404', async () => {
    const res = await req('DELETE', CREDS, ws1.users.admin.auth_token);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toStrictEqual({ message: 'FCM credentials deleted successfully' });
    expectError(await req('GET', CREDS, ws1.users.admin.auth_token), 404, /No FCM credentials/);
    expectError(await req('DELETE', CREDS, ws1.users.admin.auth_token), 404);
  });
});

describe('Settings → Push notifications as a browser calls it (the operations\' app methods at POST /api/v1/app/<name>)', () => {
  const app = (name: string, args: unknown[]) => req('POST', `/api/v1/app/${name}`, ws1.users.admin.auth_token, { body: args });

  it('none stored is null, a stored key answers its metadata in one request, and deleting leaves none', async () => {
    expect((await app('pushCredentials', [])).json).toEqual({ value: null });
    const stored = await app('setPushCredentials', [saKey({ project_id: 'lakeview-app' })]);
    expect(stored.status, stored.text).toBe(200);
    expect(stored.json.value).toEqual({
      project_id: 'lakeview-app', client_email: 'push@sunrise-clinic-app.iam.gserviceaccount.com', private_key_id: 'a1b2c3d4e5f6',
      token_uri: 'https://oauth2.googleapis.com/token', created_at: expect.any(String), updated_at: expect.any(String),
    });
    expect((await app('pushCredentials', [])).json.value).toEqual(stored.json.value);
    expect((await app('deletePushCredentials', [])).json).toEqual({});
    expect((await app('pushCredentials', [])).json).toEqual({ value: null });
    expect((await app('deletePushCredentials', [])).status).toBe(404);
  });

  it('refuses a caller without the notifications permission, and a key that does not parse, in words', async () => {
    const display = await req('POST', '/api/v1/app/pushCredentials', ws1.users.display.auth_token, { body: [] });
    expect(display.status).toBe(403);
    const bad = await app('setPushCredentials', [saKey({ private_key: 'not a key' })]);
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_REQUEST');
  });
});

describe('the private key at rest and in answers', () => {
  it('is in no response, and not in the database files in plain text (it is sealed)', async () => {
    // Every stored key passed through POSTs above; the database must hold them only sealed.
    await srv.service.audit.flush();
    const files = readdirSync(srv.dataDir).filter((f) => f.startsWith('clinic-desk.sqlite'));
    expect(files).toContain('clinic-desk.sqlite');
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(srv.dataDir, f))));
    for (const pem of [KEY_A, KEY_B]) {
      const lines = pemLines(pem);
      expect(lines.length).toBeGreaterThan(10);
      for (const line of lines) {
        expect(bytes.includes(Buffer.from(line)), 'a PEM line is stored in plain text').toBe(false);
        for (const res of seen) expect(res.text.includes(line), 'a PEM line was returned').toBe(false);
      }
    }
    const row = srv.service.db.prepare('SELECT private_key_sealed FROM fcm_credentials WHERE workspace_id = ?').get(ws0.workspace_id) as { private_key_sealed: string };
    expect(row.private_key_sealed).toMatch(/^v1:/);
    // It opens only under its own workspace's context.
    expect(srv.service.box.open(row.private_key_sealed, `fcm_private_key:${ws0.workspace_id}`)).toBe(KEY_B);
    expect(() => srv.service.box.open(row.private_key_sealed, `fcm_private_key:${ws1.workspace_id}`)).toThrow();
  });

  it('every credentials change is audited, without the key', async () => {
    await srv.service.audit.flush();
    const actions = (await srv.service.audit.recent(ws0.workspace_id, 500)).map((e) => e.action);
    expect(actions).toContain('notification.credentials.add');
    expect(actions).toContain('notification.credentials.replace');
    expect(actions).toContain('notification.device.add');
    expect(actions).toContain('notification.device.delete');
  });
});

describe('500', () => {
  it('an unexpected failure is 500 {message with the request id, error_code: 500}, never a stack', async () => {
    const db = srv.service.db;
    db.exec('ALTER TABLE fcm_credentials RENAME TO fcm_credentials_away');
    try {
      const res = await req('GET', CREDS, ws0.users.admin.auth_token, { headers: { 'x-request-id': 'req-500-check' } });
      expectError(res, 500, /^An unexpected error occurred on the server \(request req-500-check\)$/);
    } finally {
      db.exec('ALTER TABLE fcm_credentials_away RENAME TO fcm_credentials');
    }
    expect((await req('GET', CREDS, ws0.users.admin.auth_token)).status).toBe(200);
  });
});
