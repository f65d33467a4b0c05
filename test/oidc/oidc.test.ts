import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { buildHttpApp } from '../../server/http/app.js';
import { createService, type Service } from '../../server/service.js';
import { missing } from '../helpers/needs.js';
import { type RunningServer, TEST_KEK, call, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch } from '../helpers/browser.js';

/**
 * Browser sign-in for AI assistants, for real: dynamic registration, a PKCE authorization request opened in
 * Debian's Chromium, sign-in and consent through the service's own pages, the code exchanged at the token
 * endpoint, the token used on /dr and (through the official MCP client) on /mcp; refresh, revocation, denial,
 * a wrong password, rate limiting, tokens for other audiences, connected assistants, and a restart.
 */

// Sign-in and consent happen in a browser; what needs none still runs without one.
const noBrowser = missing('chromium');
const SEARCH = '/dr/v1/business/patients/search';
const SCOPE = 'openid profile offline_access patients:read patients:write appointments:read appointments:write notifications webhooks scribe';

let srv: RunningServer;
let base: string;
let browser: Browser;
let ws: DemoWorkspace;

const form = (fields: Record<string, string>) => ({
  rawBody: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A native app's loopback redirect listener (RFC 8252): a fresh port, and the next request it receives. */
async function loopback() {
  let resolveHit!: (u: URL) => void;
  const hit = new Promise<URL>((r) => { resolveHit = r; });
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Connected. You can close this window.</p>');
    resolveHit(new URL(req.url ?? '/', 'http://127.0.0.1'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { port, redirectUri: `http://127.0.0.1:${port}/callback`, hit, close: () => new Promise((r) => server.close(r)) };
}

async function register(name = 'Test Assistant', extra: Record<string, unknown> = {}) {
  const res = await call(base, 'POST', '/oauth2/reg', {
    body: {
      client_name: name, redirect_uris: ['http://127.0.0.1/callback'], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: 'none', scope: SCOPE, ...extra,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.json as { client_id: string; client_secret?: string; redirect_uris: string[]; token_endpoint_auth_method: string };
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

interface Flow {
  page: Page;
  redirectUri: string;
  verifier: string;
  state: string;
  /** Resolves with the URL the browser is finally sent back to (the loopback listener's). */
  returned: Promise<URL>;
  done: () => Promise<void>;
}

/** Opens a PKCE authorization request in a fresh browser profile (no session cookie yet). */
async function startFlow(clientId: string, opts: { resource?: string; scope?: string } = {}): Promise<Flow> {
  const lb = await loopback();
  const { verifier, challenge } = pkce();
  const state = randomBytes(12).toString('base64url');
  const url = new URL('/oauth2/auth', base);
  url.search = new URLSearchParams({
    client_id: clientId, response_type: 'code', redirect_uri: lb.redirectUri, scope: opts.scope ?? SCOPE,
    resource: opts.resource ?? `${base}/mcp`, code_challenge: challenge, code_challenge_method: 'S256', state,
  }).toString();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url.href);
  return { page, redirectUri: lb.redirectUri, verifier, state, returned: lb.hit, done: async () => { await context.close(); await lb.close(); } };
}

/** Submits the sign-in form and waits for the page it leads to (the consent page, or the form again). */
async function signIn(page: Page, username: string, password: string) {
  await page.fill('#username', username);
  await page.fill('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
}

const text = async (page: Page, selector: string) => (await page.locator(selector).allTextContents()).join(' | ');
const value = (page: Page, selector: string) => page.locator(selector).inputValue();

async function exchange(clientId: string, flow: Flow, code: string, resource = `${base}/mcp`) {
  return call(base, 'POST', '/oauth2/token', form({
    grant_type: 'authorization_code', code, redirect_uri: flow.redirectUri, client_id: clientId, code_verifier: flow.verifier, resource,
  }));
}

/** The whole happy path for `user`: sign in, allow, exchange. */
async function connect(clientId: string, user: { username: string; password: string }, opts: { resource?: string; scope?: string } = {}) {
  const flow = await startFlow(clientId, opts);
  await signIn(flow.page, user.username, user.password);
  await flow.page.getByRole('button', { name: 'Allow' }).click();
  const back = await flow.returned;
  await flow.done();
  expect(back.searchParams.get('state')).toBe(flow.state);
  const code = back.searchParams.get('code');
  expect(code, back.href).toBeTruthy();
  const res = await exchange(clientId, flow, code!, opts.resource ?? `${base}/mcp`);
  expect(res.status, res.text).toBe(200);
  return res.json as { access_token: string; refresh_token: string; id_token?: string; expires_in: number; scope: string; token_type: string };
}

async function mcpClient(token: string) {
  const client = new Client({ name: 'oidc-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: bearer(token) } }));
  return client;
}

beforeAll(async () => {
  srv = await startServer();
  base = srv.baseUrl;
  ws = srv.demo.workspaces[0]!;
  if (!noBrowser) browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

describe('discovery and registration', () => {
  it('publishes discovery at the root, under /oauth2 and as RFC 8414 metadata, with PKCE S256 and our endpoints', async () => {
    const res = await call(base, 'GET', '/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    const d = res.json;
    expect(d.issuer).toBe(base);
    expect(d.authorization_endpoint).toBe(`${base}/oauth2/auth`);
    expect(d.token_endpoint).toBe(`${base}/oauth2/token`);
    expect(d.registration_endpoint).toBe(`${base}/oauth2/reg`);
    expect(d.revocation_endpoint).toBe(`${base}/oauth2/token/revocation`);
    expect(d.jwks_uri).toBe(`${base}/oauth2/jwks`);
    expect(d.code_challenge_methods_supported).toEqual(['S256']);
    expect(d.response_types_supported).toEqual(['code']);
    expect(d.token_endpoint_auth_methods_supported).toEqual(['none']);
    expect(d.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    for (const path of ['/.well-known/oauth-authorization-server', '/oauth2/.well-known/openid-configuration']) {
      const alias = await call(base, 'GET', path);
      expect(alias.status, path).toBe(200);
      expect(alias.json).toEqual(d);
    }
    const jwks = await call(base, 'GET', '/oauth2/jwks');
    expect(jwks.json.keys).toHaveLength(1);
    expect(jwks.json.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.json.keys[0].d).toBeUndefined();
    // Only the endpoints in use exist: the rest of /oauth2 is the service's plain 404.
    for (const path of ['/oauth2/x', '/oauth2/device/auth', '/oauth2/session/end', '/oauth2/token/introspection']) {
      const res404 = await call(base, 'GET', path);
      expect(res404.status, path).toBe(404);
      expect(res404.json.error.code, path).toBe('NOT_FOUND');
    }
  });

  it('registers public clients only, and drops API scopes from the registered scope', async () => {
    const c = await register('Claude Desktop');
    expect(c.client_id).toBeTruthy();
    expect(c.client_secret).toBeUndefined();
    expect(c.token_endpoint_auth_method).toBe('none');
    const secret = await call(base, 'POST', '/oauth2/reg', { body: { redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'client_secret_basic' } });
    expect(secret.status).toBe(400);
    expect(secret.json.error).toBe('invalid_client_metadata');
  });

  it('keeps the provider\'s signing and cookie keys sealed at rest', () => {
    const rows = srv.service.db.prepare('SELECT kind, sealed FROM oidc_keys').all() as { kind: string; sealed: string }[];
    expect(rows.map((r) => r.kind).sort()).toEqual(['cookie', 'jwk']);
    for (const r of rows) {
      expect(r.sealed).toMatch(/^v1:/);
      expect(r.sealed).not.toContain('"d"');
    }
  });
});

describe('the whole flow', skipFor(noBrowser), () => {
  let clientId: string;
  let tokens: Awaited<ReturnType<typeof connect>>;

  it('signs in and consents in Chromium, exchanges the code with PKCE, and gets an ES256 JWT for the MCP endpoint', async () => {
    clientId = (await register('Claude Desktop')).client_id;
    const doctor = ws.users.doctor;
    const flow = await startFlow(clientId);
    // The sign-in page: the service's own, strict CSP, never framed, the assistant named.
    expect(await text(flow.page, 'h1')).toBe('Sign in to connect an assistant');
    expect(await text(flow.page, '.app b')).toBe('Claude Desktop');
    await signIn(flow.page, doctor.username, doctor.password);
    // The consent page: who asks, for what, as whom.
    expect(await text(flow.page, 'h1')).toBe('Allow this assistant to act for you?');
    const page = await flow.page.content();
    expect(page).toContain('Search patients by mobile number');
    expect(page).toContain('Start dictation (scribe) sessions');
    expect(page).toContain(doctor.username);
    expect(page).toContain(ws.name);
    const response = await flow.page.reload();
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    await flow.page.getByRole('button', { name: 'Allow' }).click();
    const back = await flow.returned;
    await flow.done();
    expect(back.pathname).toBe('/callback');
    expect(back.searchParams.get('state')).toBe(flow.state);
    expect(back.searchParams.get('iss')).toBe(base);
    const code = back.searchParams.get('code')!;

    // Without the verifier, or with another one, the code is worthless.
    const wrong = await call(base, 'POST', '/oauth2/token', form({
      grant_type: 'authorization_code', code, redirect_uri: flow.redirectUri, client_id: clientId, code_verifier: pkce().verifier, resource: `${base}/mcp`,
    }));
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('invalid_grant');
  });

  it('refuses an authorization request without PKCE, or with the plain method', async () => {
    for (const extra of [{}, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }] as Record<string, string>[]) {
      const url = new URL('/oauth2/auth', base);
      url.search = new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: 'http://127.0.0.1:5555/callback', scope: 'openid', ...extra }).toString();
      const res = await fetch(url, { redirect: 'manual' });
      const location = new URL(res.headers.get('location') ?? '', base);
      expect(location.searchParams.get('error')).toBe('invalid_request');
    }
  });

  it('issues tokens: access (JWT, 1 h, audience /mcp, the user\'s workspace), refresh and ID token', async () => {
    tokens = await connect(clientId, ws.users.doctor);
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.id_token).toBeTruthy();
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const claims = decodeJwt(tokens.access_token);
    expect(claims.iss).toBe(base);
    expect(claims.aud).toBe(`${base}/mcp`);
    expect(claims.client_id).toBe(clientId);
    expect(claims.b_id).toBe(ws.workspace_id);
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(String(claims.scope).split(' ').sort()).toEqual(
      ['appointments:read', 'appointments:write', 'notifications', 'patients:read', 'patients:write', 'scribe'],
    );
    expect(decodeJwt(tokens.id_token!)).toMatchObject({ aud: clientId, preferred_username: ws.users.doctor.username });
  });

  it('uses the token on /dr as the signed-in user', async () => {
    const mobile = ws.patients[0]!.mobile;
    for (const headers of [bearer(tokens.access_token), { auth: tokens.access_token }]) {
      const res = await call(base, 'GET', `${SEARCH}?mobile=${mobile}`, { headers });
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.profiles.length).toBeGreaterThan(0);
    }
  });

  it('uses the token on /mcp through the official MCP client: lists the tools and calls search', async () => {
    const client = await mcpClient(tokens.access_token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_patients_by_mobile', 'list_todays_appointments', 'park_appointment', 'mark_no_show']));
    const search = tools.find((t) => t.name === 'search_patients_by_mobile')!;
    expect(search.outputSchema).toBeDefined();
    expect(search.annotations?.readOnlyHint).toBe(true);
    const mobile = ws.patients[0]!.mobile;
    const res = await client.callTool({ name: 'search_patients_by_mobile', arguments: { mobile } });
    expect(res.isError).toBeFalsy();
    const out = res.structuredContent as { count: number; patients: { first_name: string; mobile: string }[] };
    expect(out.count).toBeGreaterThan(0);
    expect(out.patients.every((p) => p.mobile.endsWith(mobile))).toBe(true);
    const invalid = await client.callTool({ name: 'search_patients_by_mobile', arguments: { mobile: '12345' } });
    expect(invalid.isError).toBe(true);
    await client.close();
  });

  it('refreshes: a new access token and a rotated refresh token; the old refresh token is then spent', async () => {
    const res = await call(base, 'POST', '/oauth2/token', form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }));
    expect(res.status, res.text).toBe(200);
    expect(res.json.access_token).not.toBe(tokens.access_token);
    expect(res.json.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(res.json.access_token).aud).toBe(`${base}/mcp`);
    const ok = await call(base, 'GET', `${SEARCH}?mobile=${ws.patients[0]!.mobile}`, { headers: bearer(res.json.access_token) });
    expect(ok.status).toBe(200);
    tokens = { ...tokens, access_token: res.json.access_token, refresh_token: res.json.refresh_token };
  });

  it('a spent refresh token presented again ends the connection: both holders lose access', async () => {
    const t = await connect(clientId, ws.users.doctor);
    const first = await call(base, 'POST', '/oauth2/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId }));
    expect(first.status).toBe(200);
    const replay = await call(base, 'POST', '/oauth2/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId }));
    expect(replay.json.error).toBe('invalid_grant');
    const next = await call(base, 'POST', '/oauth2/token', form({ grant_type: 'refresh_token', refresh_token: first.json.refresh_token, client_id: clientId }));
    expect(next.json.error).toBe('invalid_grant');
    expect((await call(base, 'GET', `${SEARCH}?mobile=${ws.patients[0]!.mobile}`, { headers: bearer(first.json.access_token) })).status).toBe(401);
  });

  it('revokes: a revoked access token is refused at once; a revoked refresh token ends the whole connection', async () => {
    // Revoking the access token alone (RFC 7009 on a JWT).
    const second = await connect(clientId, ws.users.doctor);
    const rev = await call(base, 'POST', '/oauth2/token/revocation', form({ token: second.access_token, token_type_hint: 'access_token', client_id: clientId }));
    expect(rev.status).toBe(200);
    expect((await call(base, 'GET', `${SEARCH}?mobile=${ws.patients[0]!.mobile}`, { headers: bearer(second.access_token) })).status).toBe(401);

    // Revoking the refresh token: the grant goes, and with it the live access token and any refresh.
    const before = await call(base, 'GET', `${SEARCH}?mobile=${ws.patients[0]!.mobile}`, { headers: bearer(tokens.access_token) });
    expect(before.status).toBe(200);
    const r2 = await call(base, 'POST', '/oauth2/token/revocation', form({ token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: clientId }));
    expect(r2.status).toBe(200);
    const after = await call(base, 'GET', `${SEARCH}?mobile=${ws.patients[0]!.mobile}`, { headers: bearer(tokens.access_token) });
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('UNAUTHORIZED_ACCESS');
    const mcp = await fetch(`${base}/mcp`, {
      method: 'POST', headers: { ...bearer(tokens.access_token), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
    const refresh = await call(base, 'POST', '/oauth2/token', form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }));
    expect(refresh.status).toBe(400);
    expect(refresh.json.error).toBe('invalid_grant');
  });

  it('rejects a token for another audience: the ID token, and an API token on /mcp', async () => {
    const t = await connect(clientId, ws.users.doctor, { resource: base });
    expect(decodeJwt(t.access_token).aud).toBe(base);
    // A token for the API works on the API, but the MCP endpoint takes only tokens issued for it.
    expect((await call(base, 'GET', `${SEARCH}?mobile=${ws.patients[0]!.mobile}`, { headers: bearer(t.access_token) })).status).toBe(200);
    const mcp = await call(base, 'POST', '/mcp', {
      headers: { ...bearer(t.access_token), accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // The ID token is signed by the same keys but its audience is the client: never an access token.
    expect((await call(base, 'GET', `${SEARCH}?mobile=${ws.patients[0]!.mobile}`, { headers: bearer(t.id_token!) })).status).toBe(401);
    // A resource that is not ours is refused outright.
    const flow = await startFlow(clientId, { resource: 'https://elsewhere.example/api' });
    const back = await flow.returned;
    await flow.done();
    expect(back.searchParams.get('error')).toBe('invalid_target');
  });

  it('denial of consent sends the assistant back with access_denied and no code', async () => {
    const flow = await startFlow(clientId);
    await signIn(flow.page, ws.users.doctor.username, ws.users.doctor.password);
    await flow.page.getByRole('button', { name: 'Deny' }).click();
    const back = await flow.returned;
    await flow.done();
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('state')).toBe(flow.state);
    await srv.service.audit.flush();
    const consents = srv.service.db.prepare("SELECT outcome, resource_ids FROM audit_log WHERE action = 'oidc.consent'").all() as { outcome: string; resource_ids: string }[];
    expect(consents.some((r) => r.outcome === 'denied' && JSON.parse(r.resource_ids).includes(clientId))).toBe(true);
    expect(consents.some((r) => r.outcome === 'success')).toBe(true);
  });
});

describe('sign-in failures', skipFor(noBrowser), () => {
  it('a wrong password shows the sign-in page again with an error, and signs nobody in', async () => {
    const { client_id } = await register();
    const flow = await startFlow(client_id);
    await signIn(flow.page, ws.users.doctor.username, 'not-the-password');
    expect(await text(flow.page, '.alert.error')).toBe('Wrong username or password.');
    expect(await value(flow.page, '#username')).toBe(ws.users.doctor.username);
    // The right password then works on the same page.
    await signIn(flow.page, ws.users.doctor.username, ws.users.doctor.password);
    expect(await text(flow.page, 'h1')).toBe('Allow this assistant to act for you?');
    await flow.done();
  });

  it('rate-limits failed sign-ins per username and address: from the fifth failure in 15 minutes, 429', async () => {
    const { client_id } = await register();
    const flow = await startFlow(client_id);
    // The other clinic's users: locking them out leaves this file's other tests alone.
    const lakeview = srv.demo.workspaces[1]!;
    const user = lakeview.users.reception.username;
    const statuses: number[] = [];
    flow.page.on('response', (r) => {
      if (r.request().method() === 'POST') statuses.push(r.status());
    });
    for (let i = 0; i < 5; i++) await signIn(flow.page, user, `wrong-${i}`);
    expect(await text(flow.page, '.alert.error')).toContain('Too many failed sign-ins');
    // Even the right password waits now.
    await signIn(flow.page, user, lakeview.users.reception.password);
    expect(await text(flow.page, '.alert.error')).toContain('Too many failed sign-ins');
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    await flow.done();
    // Another user from the same address is not locked out.
    const other = await startFlow(client_id);
    await signIn(other.page, lakeview.users.admin.username, lakeview.users.admin.password);
    expect(await text(other.page, 'h1')).toBe('Allow this assistant to act for you?');
    await other.done();
    await srv.service.audit.flush();
    const rows = srv.service.db.prepare("SELECT outcome FROM audit_log WHERE action = 'oidc.sign_in'").all() as { outcome: string }[];
    expect(rows.filter((r) => r.outcome === 'denied').length).toBeGreaterThanOrEqual(6);
  });
});

describe('roles and connected assistants', skipFor(noBrowser), () => {
  it('a reception user\'s assistant acts within reception\'s role: no scribe scope, and 403 on a scribe operation', async () => {
    const { client_id } = await register('Front desk helper');
    const flow = await startFlow(client_id);
    await signIn(flow.page, ws.users.reception.username, ws.users.reception.password);
    // The consent page shows the scribe permission struck through: reception does not hold it.
    expect(await text(flow.page, 'li.no')).toContain('Start dictation (scribe) sessions');
    await flow.page.getByRole('button', { name: 'Allow' }).click();
    const back = await flow.returned;
    await flow.done();
    const res = await exchange(client_id, flow, back.searchParams.get('code')!);
    expect(res.status, res.text).toBe(200);
    expect(String(decodeJwt(res.json.access_token).scope).split(' ')).not.toContain('scribe');
    const scribe = await call(base, 'GET', '/voice/api/v3/status/some-session', { headers: bearer(res.json.access_token) });
    expect(scribe.status).toBe(403);
    const search = await call(base, 'GET', `${SEARCH}?mobile=${ws.patients[0]!.mobile}`, { headers: bearer(res.json.access_token) });
    expect(search.status).toBe(200);
  });

  it('lists a user\'s connected assistants and disconnects one: its tokens stop working at once', async () => {
    const { client_id } = await register('Settings test assistant');
    const user = ws.users.admin;
    const t = await connect(client_id, user);
    const list = await call(base, 'GET', '/api/v1/connected-assistants', { headers: { auth: user.auth_token } });
    expect(list.status, list.text).toBe(200);
    const mine = (list.json.data as { id: string; client_id: string; client_name: string; scopes: string[] }[]).find((a) => a.client_id === client_id)!;
    expect(mine.client_name).toBe('Settings test assistant');
    expect(mine.scopes).toEqual(expect.arrayContaining(['patients:read', 'webhooks']));
    // The same operation as the app method a browser calls at its app route: Settings' shape of the same grants.
    const app = await call(base, 'POST', '/api/v1/app/connectedAssistants', { headers: { auth: user.auth_token }, body: [] });
    expect(app.status, app.text).toBe(200);
    expect(app.json.value.available).toBe(true);
    expect(app.json.value.value).toContainEqual(expect.objectContaining({ id: mine.id, name: 'Settings test assistant', last_used_at: expect.any(String) }));
    // Another user sees none of it, and cannot disconnect it.
    const otherApp = await call(base, 'POST', '/api/v1/app/connectedAssistants', { headers: { auth: ws.users.doctor.auth_token }, body: [] });
    expect((otherApp.json.value.value as { id: string }[]).some((a) => a.id === mine.id)).toBe(false);
    const other = await call(base, 'GET', '/api/v1/connected-assistants', { headers: { auth: ws.users.doctor.auth_token } });
    expect((other.json.data as { client_id: string }[]).some((a) => a.client_id === client_id)).toBe(false);
    expect((await call(base, 'DELETE', `/api/v1/connected-assistants/${mine.id}`, { headers: { auth: ws.users.doctor.auth_token } })).status).toBe(404);
    // The assistant itself may not manage assistants.
    expect((await call(base, 'GET', '/api/v1/connected-assistants', { headers: bearer(t.access_token) })).status).toBe(403);

    expect((await call(base, 'GET', `${SEARCH}?mobile=${ws.patients[0]!.mobile}`, { headers: bearer(t.access_token) })).status).toBe(200);
    const del = await call(base, 'DELETE', `/api/v1/connected-assistants/${mine.id}`, { headers: { auth: user.auth_token } });
    expect(del.status).toBe(204);
    expect((await call(base, 'GET', `${SEARCH}?mobile=${ws.patients[0]!.mobile}`, { headers: bearer(t.access_token) })).status).toBe(401);
    const refresh = await call(base, 'POST', '/oauth2/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id }));
    expect(refresh.json.error).toBe('invalid_grant');
    const again = await call(base, 'GET', '/api/v1/connected-assistants', { headers: { auth: user.auth_token } });
    expect((again.json.data as { id: string }[]).some((a) => a.id === mine.id)).toBe(false);
    await srv.service.audit.flush();
    const audit = srv.service.db.prepare("SELECT actor_id FROM audit_log WHERE action = 'oidc.grant.revoke' AND outcome = 'success'").all() as { actor_id: string }[];
    expect(audit.length).toBeGreaterThan(0);
  });

  it('stores refresh tokens and session ids only as digests', async () => {
    const rows = srv.service.db.prepare("SELECT model, key, payload FROM oidc_models WHERE model IN ('RefreshToken', 'Session', 'AuthorizationCode')").all() as { model: string; key: string; payload: string }[];
    expect(rows.some((r) => r.model === 'RefreshToken')).toBe(true);
    for (const r of rows) {
      expect(r.key).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.parse(r.payload).jti).toBeUndefined();
    }
  });
});

describe('configuration', () => {
  it('a configured public URL (behind a TLS proxy) is the issuer, the MCP resource and the base of every endpoint', async () => {
    const dataDir = tempDir('oidc-public');
    const service = await createService({ kek: TEST_KEK, dataDir, scribe: { worker: false } });
    const app = await buildHttpApp(service, { publicUrl: 'https://clinic.example', ui: false });
    try {
      const headers = { host: 'clinic.example', 'x-forwarded-proto': 'https' };
      const d = (await app.inject({ url: '/.well-known/openid-configuration', headers })).json();
      expect(d.issuer).toBe('https://clinic.example');
      expect(d.token_endpoint).toBe('https://clinic.example/oauth2/token');
      const prm = (await app.inject({ url: '/.well-known/oauth-protected-resource/mcp', headers })).json();
      expect(prm).toMatchObject({ resource: 'https://clinic.example/mcp', authorization_servers: ['https://clinic.example'] });
    } finally {
      await app.close();
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('restart', skipFor(noBrowser), () => {
  it('keeps the connection: after a restart on the same address the access token still works and the refresh token refreshes', async () => {
    const dataDir = tempDir('oidc-restart');
    const first = await startServer({ dataDir });
    const port = new URL(first.baseUrl).port;
    const saved = { srv, base };
    srv = first;
    base = first.baseUrl;
    let second: Awaited<ReturnType<typeof buildHttpApp>> | undefined;
    let service: Service | undefined;
    try {
      const { client_id } = await register('Survives restarts');
      const t = await connect(client_id, first.demo.workspaces[0]!.users.doctor);
      await first.close();

      service = await createService({ kek: TEST_KEK, dataDir });
      second = await buildHttpApp(service);
      await second.listen({ host: '127.0.0.1', port: Number(port) });
      const mobile = first.demo.workspaces[0]!.patients[0]!.mobile;
      expect((await call(base, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: bearer(t.access_token) })).status).toBe(200);
      const client = await mcpClient(t.access_token);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
      const res = await call(base, 'POST', '/oauth2/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id }));
      expect(res.status, res.text).toBe(200);
      expect((await call(base, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: bearer(res.json.access_token) })).status).toBe(200);
    } finally {
      await second?.close();
      await service?.close();
      srv = saved.srv;
      base = saved.base;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
