import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type JWK, type JWTPayload, SignJWT, UnsecuredJWT, createLocalJWKSet, decodeJwt, decodeProtectedHeader,
  generateKeyPair, importJWK, jwtVerify,
} from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import type { Clock } from '../../server/shared/time.js';
import { ROOT, type RunningServer, call, startServer } from '../helpers/server.js';
import { DATABASES } from '../helpers/postgres.js';
import { rowOf, rowsOf } from '../helpers/service.js';
import { skipFor } from '../helpers/skip.js';

/**
 * Access tokens over real HTTP: the OAuth token endpoint (interface endpoint 6), the upstream SDKs' login and
 * refresh aliases, refresh-token rotation and reuse detection, expiry under an injected clock, scopes, tenant
 * isolation, signing-key rotation and the JWKS, forged tokens, and secrets at rest.
 */

type Res = Awaited<ReturnType<typeof call>>;

const TOKEN = '/api/v1/auth/token';
const LOGIN = '/connect-auth/v1/account/login';
const REFRESH = '/connect-auth/v1/account/refresh';
const JWKS = '/.well-known/jwks.json';
const SEARCH = '/dr/v1/business/patients/search';
const HOUR = 3600;
const DAY = 24 * HOUR;

// Stack frames and file paths that must never reach a client.
const LEAKS: RegExp[] = [/\n\s*at\s/, /\bat\s+\S+\s+\(.*:\d+:\d+\)/, /\.ts:\d/, /\.[cm]?js:\d/, /node_modules/, /file:\/\//];

/** A clock the test moves by hand: no sleeps. */
function manualClock(start = Date.now()) {
  let current = start;
  const clock: Clock = { now: () => new Date(current) };
  return {
    clock,
    advance(seconds: number) {
      current += seconds * 1000;
    },
    nowS: () => Math.floor(current / 1000),
  };
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({ body, headers });
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  rawBody: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
});
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const authHeader = (token: string) => ({ auth: token });

function expectClean(res: Res) {
  for (const leak of LEAKS) expect(res.text, `body leaks internals (${leak}): ${res.text.slice(0, 300)}`).not.toMatch(leak);
  expect(res.text).not.toContain(ROOT);
}

/** RFC 6749 §5.2 error: exactly {error, error_description}, with the given status. */
function expectOAuthError(res: Res, status: number, error: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.json).toStrictEqual({ error, error_description: expect.stringMatching(/\S/) });
  expectClean(res);
}

/** The dr 401/403 envelope. */
function expectDrEnvelopeError(res: Res, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.json).toStrictEqual({ data: {}, status_code: status, success: false, error: { code, message: expect.stringMatching(/\S/) } });
  expectClean(res);
}

/** The appointment endpoints' bare error body. */
function expectBareError(res: Res, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.json).toStrictEqual({ error: { code, message: expect.stringMatching(/\S/) } });
  expectClean(res);
}

interface Tokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  refresh_expires_in: number;
  scope: string;
}

/** A successful token response, exactly as decided: body shape, no-store, a real JWT access token. */
function expectTokens(res: Res): Tokens {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control') ?? '').toMatch(/no-store/);
  const body = res.json as Tokens;
  expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_expires_in', 'refresh_token', 'scope', 'token_type']);
  expect(body.token_type).toBe('Bearer');
  expect(body.expires_in).toBe(3600);
  expect(Number.isInteger(body.refresh_expires_in)).toBe(true);
  expect(body.refresh_expires_in).toBeGreaterThan(body.expires_in);
  expect(typeof body.scope).toBe('string');
  expect(body.access_token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  expect(typeof body.refresh_token).toBe('string');
  expect(body.refresh_token.length).toBeGreaterThanOrEqual(32);
  expect(body.refresh_token).not.toBe(body.access_token);
  return body;
}

const b64urlJson = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

for (const db of DATABASES) describe(`token endpoint, aliases, refresh rotation, scopes, isolation, forged tokens, secrets at rest (${db.name})`, skipFor(db.skip), () => {
  const t = manualClock();
  let srv: RunningServer;
  let ws0: DemoWorkspace;
  let ws1: DemoWorkspace;
  /** Every refresh token this block was handed, for the at-rest check. */
  const refreshTokensSeen: string[] = [];
  const accessTokensSeen: string[] = [];

  const post = async (path: string, opts: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) => {
    const res = await call(srv.baseUrl, 'POST', path, opts);
    if (res.status === 200 && res.json?.refresh_token) {
      refreshTokensSeen.push(res.json.refresh_token);
      accessTokensSeen.push(res.json.access_token);
    }
    return res;
  };
  const clientCredentials = (ws: DemoWorkspace, client: { client_id: string; client_secret: string } = ws) =>
    post(TOKEN, json({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }, { 'x-api-key': ws.api_key }));
  const tokensFor = async (ws: DemoWorkspace, client?: { client_id: string; client_secret: string }) => expectTokens(await clientCredentials(ws, client));
  const search = (token: string, mobile: string, headers: Record<string, string> = authHeader(token)) =>
    call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers });
  const jwks = async () => {
    const res = await call(srv.baseUrl, 'GET', JWKS);
    expect(res.status).toBe(200);
    return res.json as { keys: JWK[] };
  };

  beforeAll(async () => {
    srv = await startServer({ database: db, clock: t.clock });
    [ws0, ws1] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
  });
  afterAll(async () => {
    await srv?.close();
  });

  describe('client_credentials on POST /api/v1/auth/token', () => {
    it('JSON body with X-API-KEY: 200 with the decided body, no-store, and an ES256 JWT that verifies against the JWKS', async () => {
      const res = await clientCredentials(ws0);
      const body = expectTokens(res);
      expect(res.headers.get('pragma') ?? 'no-cache').toMatch(/no-cache/);

      const header = decodeProtectedHeader(body.access_token);
      expect(header.alg).toBe('ES256');
      expect(header.kid).toEqual(expect.stringMatching(/\S/));

      const claims = decodeJwt(body.access_token);
      for (const claim of ['exp', 'iat', 'iss', 'aud', 'sub', 'jti', 'b_id', 'scope']) expect(claims, `claim ${claim}`).toHaveProperty(claim);
      expect(claims.b_id).toBe(ws0.workspace_id);
      expect(claims.sub).toBe(ws0.client_id);
      expect(claims.iat).toBe(t.nowS());
      expect(claims.exp).toBe(t.nowS() + 3600);
      expect(claims.exp! - claims.iat!).toBe(body.expires_in);
      expect(typeof claims.iss).toBe('string');
      expect(claims.aud).toBeTruthy();
      expect(claims.jti).toEqual(expect.stringMatching(/\S/));
      expect(claims.scope).toBe(body.scope);
      expect(body.scope.split(' ')).toEqual(expect.arrayContaining(['patients:read', 'appointments:write', 'scribe']));

      const keys = await jwks();
      expect(keys.keys.length).toBeGreaterThanOrEqual(1);
      for (const k of keys.keys) {
        expect(k).not.toHaveProperty('d');
        expect(k.kty).toBe('EC');
        expect(k.crv).toBe('P-256');
      }
      expect(keys.keys.map((k) => k.kid)).toContain(header.kid);
      const { payload, protectedHeader } = await jwtVerify(body.access_token, createLocalJWKSet(keys), {
        currentDate: t.clock.now(), issuer: claims.iss, audience: claims.aud, algorithms: ['ES256'],
      });
      expect(protectedHeader.kid).toBe(header.kid);
      expect(payload.b_id).toBe(ws0.workspace_id);

      // And the token works where it is meant to.
      expect((await search(body.access_token, ws0.patients[0]!.mobile)).status).toBe(200);
    });

    it('every token has its own jti and refresh token', async () => {
      const [a, b] = [await tokensFor(ws0), await tokensFor(ws0)];
      expect(decodeJwt(a.access_token).jti).not.toBe(decodeJwt(b.access_token).jti);
      expect(a.refresh_token).not.toBe(b.refresh_token);
    });

    it('form-encoded body (application/x-www-form-urlencoded)', async () => {
      const res = await post(TOKEN, form({ grant_type: 'client_credentials', client_id: ws0.client_id, client_secret: ws0.client_secret }, { 'x-api-key': ws0.api_key }));
      const body = expectTokens(res);
      expect(decodeJwt(body.access_token).b_id).toBe(ws0.workspace_id);
      expect((await search(body.access_token, ws0.patients[0]!.mobile)).status).toBe(200);
    });

    it('HTTP Basic client credentials (RFC 6749 §2.3.1), form and JSON bodies', async () => {
      const viaForm = expectTokens(await post(TOKEN, form({ grant_type: 'client_credentials' }, {
        'x-api-key': ws1.api_key, authorization: basic(ws1.client_id, ws1.client_secret),
      })));
      expect(decodeJwt(viaForm.access_token).b_id).toBe(ws1.workspace_id);
      expect(decodeJwt(viaForm.access_token).sub).toBe(ws1.client_id);
      const viaJson = expectTokens(await post(TOKEN, json({ grant_type: 'client_credentials' }, {
        'x-api-key': ws1.api_key, authorization: basic(ws1.client_id, ws1.client_secret),
      })));
      expect(decodeJwt(viaJson.access_token).b_id).toBe(ws1.workspace_id);
    });

    it('the limited client gets a token carrying only its scribe scope', async () => {
      const body = await tokensFor(ws0, ws0.limited_client);
      expect(body.scope).toBe('scribe');
      expect(decodeJwt(body.access_token).scope).toBe('scribe');
      expect(decodeJwt(body.access_token).sub).toBe(ws0.limited_client.client_id);
    });
  });

  describe('token endpoint errors (RFC 6749 §5.2)', () => {
    const full = () => ({ grant_type: 'client_credentials', client_id: ws0.client_id, client_secret: ws0.client_secret });
    const without = (key: string) => Object.fromEntries(Object.entries(full()).filter(([k]) => k !== key));

    it.each(['grant_type', 'client_id', 'client_secret'])('missing %s: 400 invalid_request (JSON and form)', async (field) => {
      expectOAuthError(await post(TOKEN, json(without(field), { 'x-api-key': ws0.api_key })), 400, 'invalid_request');
      expectOAuthError(await post(TOKEN, form(without(field) as Record<string, string>, { 'x-api-key': ws0.api_key })), 400, 'invalid_request');
    });

    it('missing X-API-KEY: 400 invalid_request', async () => {
      expectOAuthError(await post(TOKEN, json(full())), 400, 'invalid_request');
      expectOAuthError(await post(TOKEN, json(full(), { 'x-api-key': '' })), 400, 'invalid_request');
    });

    it('wrong client secret: 401 invalid_client', async () => {
      expectOAuthError(await post(TOKEN, json({ ...full(), client_secret: `${ws0.client_secret}x` }, { 'x-api-key': ws0.api_key })), 401, 'invalid_client');
      // Another client's real secret is still the wrong secret.
      expectOAuthError(await post(TOKEN, json({ ...full(), client_secret: ws0.limited_client.client_secret }, { 'x-api-key': ws0.api_key })), 401, 'invalid_client');
    });

    it('unknown client: 401 invalid_client', async () => {
      expectOAuthError(await post(TOKEN, json({ ...full(), client_id: 'cdc_00000000000000000000000000000000' }, { 'x-api-key': ws0.api_key })), 401, 'invalid_client');
    });

    it('another workspace\'s API key: 401 invalid_client; an unknown API key: 401 invalid_client', async () => {
      expectOAuthError(await post(TOKEN, json(full(), { 'x-api-key': ws1.api_key })), 401, 'invalid_client');
      expectOAuthError(await post(TOKEN, json({ grant_type: 'client_credentials', client_id: ws1.client_id, client_secret: ws1.client_secret }, { 'x-api-key': ws0.api_key })), 401, 'invalid_client');
      expectOAuthError(await post(TOKEN, json(full(), { 'x-api-key': 'cdk_not-a-real-key' })), 401, 'invalid_client');
    });

    it('wrong HTTP Basic secret: 401 invalid_client with WWW-Authenticate: Basic (RFC 6749 §5.2 MUST)', async () => {
      const res = await post(TOKEN, form({ grant_type: 'client_credentials' }, {
        'x-api-key': ws0.api_key, authorization: basic(ws0.client_id, 'wrong-secret'),
      }));
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers.get('www-authenticate') ?? '', 'RFC 6749 §5.2: a client that authenticated with Basic gets WWW-Authenticate on 401').toMatch(/^Basic\b/i);
    });

    it('malformed percent-encoding inside HTTP Basic credentials: a 4xx OAuth error, not a 500', async () => {
      const raw = `Basic ${Buffer.from(`${ws0.client_id}:%E0%A4%A`).toString('base64')}`;
      const res = await post(TOKEN, form({ grant_type: 'client_credentials' }, { 'x-api-key': ws0.api_key, authorization: raw }));
      expect([400, 401], `status ${res.status}: ${res.text}`).toContain(res.status);
      expect(['invalid_request', 'invalid_client']).toContain(res.json?.error);
      expectClean(res);
    });

    it('grant_type password (and other grants): 400 unsupported_grant_type', async () => {
      expectOAuthError(await post(TOKEN, json({ grant_type: 'password', username: 'admin@sunrise', password: ws0.users.admin.password }, { 'x-api-key': ws0.api_key })), 400, 'unsupported_grant_type');
      expectOAuthError(await post(TOKEN, form({ grant_type: 'password', username: 'admin@sunrise', password: ws0.users.admin.password }, { 'x-api-key': ws0.api_key })), 400, 'unsupported_grant_type');
      expectOAuthError(await post(TOKEN, json({ ...full(), grant_type: 'authorization_code' }, { 'x-api-key': ws0.api_key })), 400, 'unsupported_grant_type');
    });

    it('malformed JSON: 400 invalid_request, no stack trace', async () => {
      const res = await post(TOKEN, { rawBody: '{"grant_type":"client_credentials",', headers: { 'content-type': 'application/json', 'x-api-key': ws0.api_key } });
      expectOAuthError(res, 400, 'invalid_request');
    });

    it('wrongly typed fields and an empty JSON body: 400 invalid_request', async () => {
      expectOAuthError(await post(TOKEN, json({ ...full(), client_id: 12345 }, { 'x-api-key': ws0.api_key })), 400, 'invalid_request');
      expectOAuthError(await post(TOKEN, json([full()], { 'x-api-key': ws0.api_key })), 400, 'invalid_request');
      expectOAuthError(await post(TOKEN, { rawBody: '', headers: { 'content-type': 'application/json', 'x-api-key': ws0.api_key } }), 400, 'invalid_request');
    });
  });

  describe('refresh_token grant and the SDK refresh alias', () => {
    it('POST /api/v1/auth/token grant refresh_token: a new working access token and a new refresh token', async () => {
      const first = await tokensFor(ws0);
      const res = await post(TOKEN, json({ grant_type: 'refresh_token', refresh_token: first.refresh_token }));
      const second = expectTokens(res);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      expect(second.scope).toBe(first.scope);
      expect(decodeJwt(second.access_token).b_id).toBe(ws0.workspace_id);
      expect(decodeJwt(second.access_token).sub).toBe(ws0.client_id);
      expect(decodeJwt(second.access_token).jti).not.toBe(decodeJwt(first.access_token).jti);
      expect((await search(second.access_token, ws0.patients[0]!.mobile)).status).toBe(200);
    });

    it('form-encoded refresh_token grant', async () => {
      const first = await tokensFor(ws1);
      const second = expectTokens(await post(TOKEN, form({ grant_type: 'refresh_token', refresh_token: first.refresh_token })));
      expect(decodeJwt(second.access_token).b_id).toBe(ws1.workspace_id);
      expect(second.refresh_token).not.toBe(first.refresh_token);
    });

    it('reuse of a rotated refresh token: 400 invalid_grant, and the whole family is revoked', async () => {
      const r0 = (await tokensFor(ws0)).refresh_token;
      const r1 = expectTokens(await post(TOKEN, json({ grant_type: 'refresh_token', refresh_token: r0 }))).refresh_token;
      const r2 = expectTokens(await post(REFRESH, json({ refresh_token: r1 }))).refresh_token;
      // An unrelated session of the same client must survive the revocation.
      const other = (await tokensFor(ws0)).refresh_token;

      expectOAuthError(await post(TOKEN, json({ grant_type: 'refresh_token', refresh_token: r0 })), 400, 'invalid_grant');
      // The newest token of the family, never used, is now dead too, on both paths.
      expectOAuthError(await post(TOKEN, json({ grant_type: 'refresh_token', refresh_token: r2 })), 400, 'invalid_grant');
      expectOAuthError(await post(REFRESH, json({ refresh_token: r2 })), 400, 'invalid_grant');
      expectOAuthError(await post(TOKEN, json({ grant_type: 'refresh_token', refresh_token: r1 })), 400, 'invalid_grant');

      expectTokens(await post(TOKEN, json({ grant_type: 'refresh_token', refresh_token: other })));
    });

    it('reuse detected through the alias revokes the family too', async () => {
      const r0 = (await tokensFor(ws1)).refresh_token;
      const r1 = expectTokens(await post(REFRESH, json({ refresh_token: r0 }))).refresh_token;
      expectOAuthError(await post(REFRESH, json({ refresh_token: r0 })), 400, 'invalid_grant');
      expectOAuthError(await post(REFRESH, json({ refresh_token: r1 })), 400, 'invalid_grant');
    });

    it('two concurrent uses of one refresh token: exactly one succeeds', async () => {
      const r0 = (await tokensFor(ws0)).refresh_token;
      const results = await Promise.all([
        post(TOKEN, json({ grant_type: 'refresh_token', refresh_token: r0 })),
        post(REFRESH, json({ refresh_token: r0 })),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expectOAuthError(results.find((r) => r.status === 400)!, 400, 'invalid_grant');
    });

    it('unknown refresh token: 400 invalid_grant on both paths; missing: 400 invalid_request', async () => {
      const fake = 'cdr_' + 'A'.repeat(43);
      expectOAuthError(await post(TOKEN, json({ grant_type: 'refresh_token', refresh_token: fake })), 400, 'invalid_grant');
      expectOAuthError(await post(REFRESH, json({ refresh_token: fake })), 400, 'invalid_grant');
      // An access token is not a refresh token.
      const { access_token } = await tokensFor(ws0);
      expectOAuthError(await post(REFRESH, json({ refresh_token: access_token })), 400, 'invalid_grant');
      expectOAuthError(await post(TOKEN, json({ grant_type: 'refresh_token' })), 400, 'invalid_request');
      expectOAuthError(await post(REFRESH, json({})), 400, 'invalid_request');
      expectOAuthError(await post(REFRESH, {}), 400, 'invalid_request');
    });

    it('POST /connect-auth/v1/account/refresh with {refresh_token}: same body shape, working token', async () => {
      const first = await tokensFor(ws0);
      const res = await post(REFRESH, json({ refresh_token: first.refresh_token }, { 'client-id': ws0.client_id }));
      const second = expectTokens(res);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect((await search(second.access_token, ws0.patients[0]!.mobile, bearer(second.access_token))).status).toBe(200);
    });

    it('the alias ignores "Authorization: Bearer None" and an access_token in the body', async () => {
      const first = await tokensFor(ws0);
      const second = expectTokens(await post(REFRESH, json({ refresh_token: first.refresh_token }, { authorization: 'Bearer None' })));
      const third = expectTokens(await post(REFRESH, json({ refresh_token: second.refresh_token, access_token: first.access_token }, { authorization: 'Bearer None' })));
      // A garbage (expired-looking) access token in the body does not matter either.
      expectTokens(await post(REFRESH, json({ refresh_token: third.refresh_token, access_token: 'not-a-token' })));
    });

    it('the alias takes refresh_token as a query parameter (Java SDK: query and body; or query and an empty JSON object)', async () => {
      const first = await tokensFor(ws1);
      const second = expectTokens(await post(`${REFRESH}?refresh_token=${encodeURIComponent(first.refresh_token)}`, json({ refresh_token: first.refresh_token }, { authorization: 'Bearer None' })));
      expect(decodeJwt(second.access_token).b_id).toBe(ws1.workspace_id);
      const third = expectTokens(await post(`${REFRESH}?refresh_token=${encodeURIComponent(second.refresh_token)}`, json({})));
      expect(third.refresh_token).not.toBe(second.refresh_token);
    });

    it('the alias takes refresh_token as a query parameter on a POST with no body at all', async () => {
      const first = await tokensFor(ws1);
      const second = expectTokens(await post(`${REFRESH}?refresh_token=${encodeURIComponent(first.refresh_token)}`, {}));
      expect(decodeJwt(second.access_token).b_id).toBe(ws1.workspace_id);
    });

    it('the limited client keeps only its scope across a refresh', async () => {
      const first = await tokensFor(ws0, ws0.limited_client);
      const second = expectTokens(await post(REFRESH, json({ refresh_token: first.refresh_token })));
      expect(second.scope).toBe('scribe');
      expect(decodeJwt(second.access_token).scope).toBe('scribe');
    });
  });

  describe('POST /connect-auth/v1/account/login (upstream SDK login)', () => {
    it('{client_id, client_secret}: the token endpoint\'s body, and a working token', async () => {
      const body = expectTokens(await post(LOGIN, json({ client_id: ws0.client_id, client_secret: ws0.client_secret }, { 'client-id': ws0.client_id })));
      expect(decodeJwt(body.access_token).b_id).toBe(ws0.workspace_id);
      expect(decodeProtectedHeader(body.access_token).alg).toBe('ES256');
      expect((await search(body.access_token, ws0.patients[0]!.mobile, bearer(body.access_token))).status).toBe(200);
      // Its refresh token works on the alias.
      expectTokens(await post(REFRESH, json({ refresh_token: body.refresh_token })));
    });

    it('with api_key in the body: own workspace 200, another workspace 401 invalid_client', async () => {
      const ok = expectTokens(await post(LOGIN, json({ client_id: ws1.client_id, client_secret: ws1.client_secret, api_key: ws1.api_key })));
      expect(decodeJwt(ok.access_token).b_id).toBe(ws1.workspace_id);
      expectOAuthError(await post(LOGIN, json({ client_id: ws1.client_id, client_secret: ws1.client_secret, api_key: ws0.api_key })), 401, 'invalid_client');
    });

    it('client_id and client_secret as query parameters, with the same in the body (Java SDK) or an empty JSON body', async () => {
      const q = `?client_id=${encodeURIComponent(ws0.client_id)}&client_secret=${encodeURIComponent(ws0.client_secret)}`;
      const both = expectTokens(await post(LOGIN + q, json({ client_id: ws0.client_id, client_secret: ws0.client_secret })));
      expect(decodeJwt(both.access_token).b_id).toBe(ws0.workspace_id);
      // Only the query carries the credentials here.
      const fromQuery = expectTokens(await post(LOGIN + q, json({})));
      expect(decodeJwt(fromQuery.access_token).sub).toBe(ws0.client_id);
      expectOAuthError(await post(`${LOGIN}?client_id=${encodeURIComponent(ws0.client_id)}&client_secret=wrong`, json({})), 401, 'invalid_client');
    });

    it('client_id and client_secret as query parameters on a POST with no body at all', async () => {
      const q = `?client_id=${encodeURIComponent(ws0.client_id)}&client_secret=${encodeURIComponent(ws0.client_secret)}`;
      const onlyQuery = expectTokens(await post(LOGIN + q, {}));
      expect(decodeJwt(onlyQuery.access_token).sub).toBe(ws0.client_id);
      // Same with a JSON content type and an empty body, which the app treats as "no body".
      expectTokens(await post(LOGIN + q, { rawBody: '', headers: { 'content-type': 'application/json' } }));
    });

    it('errors: wrong secret 401 invalid_client, missing fields 400 invalid_request, malformed JSON 400', async () => {
      expectOAuthError(await post(LOGIN, json({ client_id: ws0.client_id, client_secret: 'nope' })), 401, 'invalid_client');
      expectOAuthError(await post(LOGIN, json({ client_id: 'cdc_unknown', client_secret: 'nope' })), 401, 'invalid_client');
      expectOAuthError(await post(LOGIN, json({ client_id: ws0.client_id })), 400, 'invalid_request');
      expectOAuthError(await post(LOGIN, json({ client_secret: ws0.client_secret })), 400, 'invalid_request');
      expectOAuthError(await post(LOGIN, {}), 400, 'invalid_request');
      expectOAuthError(await post(LOGIN, { rawBody: '{"client_id":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    });
  });

  describe('scopes', () => {
    it('the full client searches patients (200) and parks an appointment (204)', async () => {
      const { access_token } = await tokensFor(ws0);
      const found = await search(access_token, ws0.patients[0]!.mobile);
      expect(found.status, found.text).toBe(200);
      expect(found.json.success).toBe(true);
      expect(found.json.data.profiles.length).toBeGreaterThan(0);

      const appt = ws0.appointments[0]!;
      const parked = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${appt.appointment_id}/parked`, { headers: bearer(access_token) });
      expect(parked.status, parked.text).toBe(204);
      expect(parked.text).toBe('');
      const after = await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${appt.appointment_id}`, { headers: authHeader(access_token) });
      expect(after.status, after.text).toBe(200);
      expect(after.json.data.status).toBe('PK');
    });

    it('the scribe-only client: 403 UNAUTHORIZED_ACCESS on search, 403 COMPLETE_NOT_ALLOWED on park, nothing changes', async () => {
      const limited = await tokensFor(ws0, ws0.limited_client);
      expectDrEnvelopeError(await search(limited.access_token, ws0.patients[0]!.mobile), 403, 'UNAUTHORIZED_ACCESS');
      expectDrEnvelopeError(await search(limited.access_token, ws0.patients[0]!.mobile, bearer(limited.access_token)), 403, 'UNAUTHORIZED_ACCESS');
      const appt = ws0.appointments[1]!;
      expectBareError(await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${appt.appointment_id}/parked`, { headers: authHeader(limited.access_token) }), 403, 'COMPLETE_NOT_ALLOWED');
      expectBareError(await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${appt.appointment_id}/change-status?partner_id=0`, {
        headers: authHeader(limited.access_token), body: { status: 'NS' },
      }), 403, 'COMPLETE_NOT_ALLOWED');
      const { access_token } = await tokensFor(ws0);
      const still = await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${appt.appointment_id}`, { headers: authHeader(access_token) });
      expect(still.json.data.status).toBe(appt.status);
    });

    it('a revoked client: its unexpired access token is rejected at once (401), refresh and login fail', async () => {
      const client = await srv.service.auth.createApiClient(ws0.workspace_id, 'to be revoked', ['patients:read']);
      const tokens = await tokensFor(ws0, client);
      expect((await search(tokens.access_token, ws0.patients[0]!.mobile)).status).toBe(200);

      expect(await srv.service.auth.revokeApiClient(ws0.workspace_id, client.client_id)).toBe(true);

      expectDrEnvelopeError(await search(tokens.access_token, ws0.patients[0]!.mobile), 401, 'UNAUTHORIZED_ACCESS');
      expectDrEnvelopeError(await search(tokens.access_token, ws0.patients[0]!.mobile, bearer(tokens.access_token)), 401, 'UNAUTHORIZED_ACCESS');
      expectOAuthError(await post(TOKEN, json({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })), 400, 'invalid_grant');
      expectOAuthError(await post(REFRESH, json({ refresh_token: tokens.refresh_token })), 400, 'invalid_grant');
      expectOAuthError(await clientCredentials(ws0, client), 401, 'invalid_client');
    });

    it('refresh after the client was revoked: 400 invalid_grant (fresh, never-used refresh token)', async () => {
      const client = await srv.service.auth.createApiClient(ws1.workspace_id, 'revoked before refresh', ['patients:read', 'appointments:read']);
      const tokens = await tokensFor(ws1, client);
      await srv.service.auth.revokeApiClient(ws1.workspace_id, client.client_id);
      expectOAuthError(await post(REFRESH, json({ refresh_token: tokens.refresh_token })), 400, 'invalid_grant');
    });
  });

  describe('tenant isolation', () => {
    it('workspace 0\'s token never sees workspace 1\'s patients', async () => {
      const { access_token } = await tokensFor(ws0);
      for (const mobile of new Set(ws1.patients.map((p) => p.mobile))) {
        const res = await search(access_token, mobile);
        expect(res.status, res.text).toBe(404);
        expect(res.json).toStrictEqual({ status_code: 404, success: false, error: { code: 'PATIENTS_NOT_FOUND', message: expect.any(String) } });
        expect(res.text).not.toContain(ws1.patients[0]!.first_name);
      }
      const other = await call(srv.baseUrl, 'GET', `/dr/v1/patient/${ws1.patients[0]!.patient_id}`, { headers: authHeader(access_token) });
      expect(other.status, other.text).toBe(404);
      expect(other.text).not.toContain(ws1.patients[0]!.first_name);
      // Control: workspace 1's own token finds them.
      const own = await tokensFor(ws1);
      expect((await search(own.access_token, ws1.patients[0]!.mobile)).status).toBe(200);
    });

    it('workspace 0\'s token never sees or changes workspace 1\'s appointments: 404 APPOINTMENT_NOT_FOUND', async () => {
      const { access_token } = await tokensFor(ws0);
      const appt = ws1.appointments[0]!;
      expectBareError(await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${appt.appointment_id}/parked`, { headers: authHeader(access_token) }), 404, 'APPOINTMENT_NOT_FOUND');
      expectBareError(await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${appt.partner_appointment_id}/parked?partner_id=1`, { headers: authHeader(access_token) }), 404, 'APPOINTMENT_NOT_FOUND');
      expectBareError(await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${appt.appointment_id}/change-status?partner_id=0`, {
        headers: authHeader(access_token), body: { status: 'NS' },
      }), 404, 'APPOINTMENT_NOT_FOUND');
      const read = await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${appt.appointment_id}`, { headers: authHeader(access_token) });
      expect(read.status, read.text).toBe(404);
      expect(read.json?.error?.code).toBe('APPOINTMENT_NOT_FOUND');
      // Workspace 1 sees its appointment unchanged.
      const own = await tokensFor(ws1);
      const mine = await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${appt.appointment_id}`, { headers: authHeader(own.access_token) });
      expect(mine.status, mine.text).toBe(200);
      expect(mine.json.data.status).toBe(appt.status);
    });
  });

  describe('forged and tampered tokens: 401 UNAUTHORIZED_ACCESS', () => {
    let genuine: Tokens;
    let claims: JWTPayload;
    let kid: string;
    /** Signs with the service's own current key, read from the database: for checks beyond the signature. */
    let signWithRealKey: (payload: JWTPayload, header?: Record<string, unknown>) => Promise<string>;

    const rejected = async (token: string) => {
      const mobile = ws0.patients[0]!.mobile;
      expectDrEnvelopeError(await search(token, mobile), 401, 'UNAUTHORIZED_ACCESS');
      expectDrEnvelopeError(await search(token, mobile, bearer(token)), 401, 'UNAUTHORIZED_ACCESS');
    };

    beforeAll(async () => {
      genuine = await tokensFor(ws0);
      claims = decodeJwt(genuine.access_token);
      kid = decodeProtectedHeader(genuine.access_token).kid!;
      const row = (await rowOf<{ private_jwk_sealed: string }>(srv.service, sql`SELECT private_jwk_sealed FROM signing_keys WHERE kid = ${kid}`))!;
      const privateJwk = JSON.parse(srv.service.box.open(row.private_jwk_sealed, `signing_key:${kid}`)) as JWK;
      const key = await importJWK(privateJwk, 'ES256');
      const genuineHeader = decodeProtectedHeader(genuine.access_token);
      signWithRealKey = (payload, header = {}) => new SignJWT(payload).setProtectedHeader({ ...genuineHeader, alg: 'ES256', kid, ...header }).sign(key);
    });

    it('control: the genuine token, and one re-signed with the real key and the same claims, are accepted', async () => {
      expect((await search(genuine.access_token, ws0.patients[0]!.mobile)).status).toBe(200);
      const resigned = await signWithRealKey({ ...claims, jti: 'resigned' });
      expect((await search(resigned, ws0.patients[0]!.mobile)).status).toBe(200);
    });

    it('signed with a different key (same kid, and its own kid)', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      const header = decodeProtectedHeader(genuine.access_token);
      await rejected(await new SignJWT(claims).setProtectedHeader({ ...header, alg: 'ES256', kid }).sign(privateKey));
      await rejected(await new SignJWT(claims).setProtectedHeader({ ...header, alg: 'ES256', kid: 'attacker-key' }).sign(privateKey));
    });

    it('alg "none" (empty and non-empty signature part)', async () => {
      const unsecured = new UnsecuredJWT(claims).encode();
      expect(unsecured.endsWith('.')).toBe(true);
      await rejected(unsecured);
      const [, payload, sig] = genuine.access_token.split('.');
      await rejected(`${b64urlJson({ alg: 'none', typ: 'at+jwt', kid })}.${payload}.${sig}`);
      await rejected(`${b64urlJson({ alg: 'none', typ: 'at+jwt' })}.${payload}.AAAA`);
    });

    it('HS256 keyed with the published public key (algorithm confusion)', async () => {
      const publicJwk = (await jwks()).keys.find((k) => k.kid === kid)!;
      const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
      const header = decodeProtectedHeader(genuine.access_token);
      await rejected(await new SignJWT(claims).setProtectedHeader({ ...header, alg: 'HS256', kid }).sign(secret));
    });

    it('tampered payload: b_id changed to workspace 1, or scope widened, with the original signature', async () => {
      const [header, , sig] = genuine.access_token.split('.');
      await rejected(`${header}.${b64urlJson({ ...claims, b_id: ws1.workspace_id })}.${sig}`);
      const limited = await tokensFor(ws0, ws0.limited_client);
      const [lh, lp, ls] = limited.access_token.split('.');
      const widened = { ...decodeJwt(limited.access_token), scope: 'patients:read patients:write appointments:write admin' };
      expect(lp).not.toBe(b64urlJson(widened));
      await rejected(`${lh}.${b64urlJson(widened)}.${ls}`);
    });

    it('real key but wrong aud, wrong iss, expired, b_id of another workspace, unknown client', async () => {
      await rejected(await signWithRealKey({ ...claims, aud: 'some-other-api' }));
      await rejected(await signWithRealKey({ ...claims, iss: 'someone-else' }));
      await rejected(await signWithRealKey({ ...claims, iat: t.nowS() - 7200, exp: t.nowS() - 3600 }));
      await rejected(await signWithRealKey({ ...claims, b_id: ws1.workspace_id }));
      await rejected(await signWithRealKey({ ...claims, sub: 'cdc_nobody', client_id: 'cdc_nobody' }));
    });

    it('real key, scope claim wider than the client holds: still only the client\'s scopes (403)', async () => {
      const limitedClaims = decodeJwt((await tokensFor(ws0, ws0.limited_client)).access_token);
      const widened = await signWithRealKey({ ...limitedClaims, scope: 'patients:read patients:write appointments:read appointments:write admin scribe' });
      expectDrEnvelopeError(await search(widened, ws0.patients[0]!.mobile), 403, 'UNAUTHORIZED_ACCESS');
    });

    it('garbage, truncated and empty tokens', async () => {
      const [h, p] = genuine.access_token.split('.');
      await rejected(`${h}.${p}`);
      await rejected(`${h}.${p}.`);
      await rejected(`${genuine.access_token}x`);
      await rejected('not.a.jwt');
      expectDrEnvelopeError(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${ws0.patients[0]!.mobile}`), 401, 'UNAUTHORIZED_ACCESS');
      // A refresh token is not an access token.
      await rejected(genuine.refresh_token);
    });
  });

  describe('secrets at rest', () => {
    let fileBytes: Buffer;

    beforeAll(async () => {
      await srv.service.audit.flush();
      if (db.name === 'sqlite') {
        // The database file itself, with its write-ahead log folded in.
        srv.service.db.pragma('wal_checkpoint(TRUNCATE)');
        const base = join(srv.dataDir, 'clinic-desk.sqlite');
        fileBytes = Buffer.concat([base, `${base}-wal`, `${base}-journal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
      } else {
        // PostgreSQL's files are the server's (and may be elsewhere, or compressed): every row of every table, as text.
        const tables = await rowsOf<{ name: string }>(srv.service, sql`SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`);
        expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['signing_keys', 'refresh_tokens', 'api_clients', 'workspaces']));
        const parts: string[] = [];
        for (const t of tables) {
          for (const r of await rowsOf<{ r: string }>(srv.service, sql`SELECT t::text AS r FROM ${sql.table(t.name)} t`)) parts.push(r.r);
        }
        fileBytes = Buffer.from(parts.join('\n'), 'utf8');
      }
      expect(fileBytes.length).toBeGreaterThan(0);
    });

    const inFile = (s: string) => fileBytes.includes(Buffer.from(s, 'utf8'));

    it('sanity: the file holds the data it should (a workspace id and a client id)', () => {
      expect(inFile(ws0.workspace_id)).toBe(true);
      expect(inFile(ws0.client_id)).toBe(true);
    });

    it('signing keys: private half sealed ("v1:…"), no "d" in the column, the private scalar nowhere in the file', async () => {
      const rows = await rowsOf<{ kid: string; public_jwk: string; private_jwk_sealed: string }>(srv.service, sql`SELECT kid, public_jwk, private_jwk_sealed FROM signing_keys`);
      expect(rows.length).toBeGreaterThanOrEqual(1);
      for (const row of rows) {
        expect(row.private_jwk_sealed.startsWith('v1:')).toBe(true);
        expect(row.private_jwk_sealed).not.toContain('"d"');
        expect(row.public_jwk).not.toContain('"d"');
        const d = (JSON.parse(srv.service.box.open(row.private_jwk_sealed, `signing_key:${row.kid}`)) as JWK).d!;
        expect(d.length).toBeGreaterThan(20);
        expect(inFile(d), 'private key scalar d found in plain text in the database file').toBe(false);
      }
      const kekFile = join(srv.dataDir, 'master.key');
      if (existsSync(kekFile)) expect(inFile(readFileSync(kekFile, 'utf8').trim())).toBe(false);
    });

    it('refresh tokens are stored only as digests; access tokens are not stored', async () => {
      expect(refreshTokensSeen.length).toBeGreaterThan(10);
      for (const token of refreshTokensSeen) expect(inFile(token), `refresh token ${token.slice(0, 8)}… in the database file`).toBe(false);
      for (const token of accessTokensSeen) expect(inFile(token)).toBe(false);
      // The digest is what is there (so the check above is not vacuous about what gets written).
      const digest = createHash('sha256').update(refreshTokensSeen[0]!).digest('hex');
      const row = (await rowOf<{ n: number }>(srv.service, sql`SELECT COUNT(*) AS n FROM refresh_tokens WHERE token_digest = ${digest}`))!;
      expect(row.n).toBe(1);
    });

    it('client secrets (and the other demo secrets) never appear in the file', async () => {
      for (const ws of [ws0, ws1]) {
        for (const secret of [ws.client_secret, ws.limited_client.client_secret, ws.api_key]) {
          expect(inFile(secret), `secret ${secret.slice(0, 6)}… in the database file`).toBe(false);
        }
        for (const user of Object.values(ws.users)) {
          expect(inFile(user.password)).toBe(false);
          expect(inFile(user.auth_token)).toBe(false);
        }
      }
      const hashes = await rowsOf<{ secret_hash: string }>(srv.service, sql`SELECT secret_hash FROM api_clients`);
      for (const h of hashes) expect(h.secret_hash).toMatch(/^(scrypt|\$argon2)/);
    });
  });
});

for (const db of DATABASES) describe(`expiry under an injected clock (${db.name})`, skipFor(db.skip), () => {
  const t = manualClock();
  let srv: RunningServer;
  let ws0: DemoWorkspace;

  const login = async () => expectTokens(await call(srv.baseUrl, 'POST', TOKEN, {
    body: { grant_type: 'client_credentials', client_id: ws0.client_id, client_secret: ws0.client_secret },
    headers: { 'x-api-key': ws0.api_key },
  }));
  const search = (headers: Record<string, string>) => call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${ws0.patients[0]!.mobile}`, { headers });

  beforeAll(async () => {
    srv = await startServer({ database: db, clock: t.clock });
    ws0 = srv.demo.workspaces[0]!;
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('an access token works (Bearer and auth) until exp, then 401 UNAUTHORIZED_ACCESS; its refresh token still works', async () => {
    const tokens = await login();
    expect((await search(bearer(tokens.access_token))).status).toBe(200);
    expect((await search(authHeader(tokens.access_token))).status).toBe(200);

    t.advance(3599);
    expect((await search(authHeader(tokens.access_token))).status).toBe(200);

    t.advance(2); // 3601 s after issue
    expectDrEnvelopeError(await search(bearer(tokens.access_token)), 401, 'UNAUTHORIZED_ACCESS');
    expectDrEnvelopeError(await search(authHeader(tokens.access_token)), 401, 'UNAUTHORIZED_ACCESS');
    expectDrEnvelopeError(await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${ws0.appointments[0]!.appointment_id}/parked`, {
      headers: authHeader(tokens.access_token),
    }), 401, 'UNAUTHORIZED_ACCESS');

    const renewed = expectTokens(await call(srv.baseUrl, 'POST', REFRESH, { body: { refresh_token: tokens.refresh_token, access_token: tokens.access_token } }));
    expect(decodeJwt(renewed.access_token).iat).toBe(t.nowS());
    expect((await search(authHeader(renewed.access_token))).status).toBe(200);
  });

  it('a refresh token works until refresh_expires_in; 31 days after issue it is invalid_grant', async () => {
    const a = await login();
    const b = await login();
    t.advance(a.refresh_expires_in - 60);
    const renewed = expectTokens(await call(srv.baseUrl, 'POST', TOKEN, { body: { grant_type: 'refresh_token', refresh_token: a.refresh_token } }));
    expect((await search(authHeader(renewed.access_token))).status).toBe(200);

    t.advance(31 * DAY - (a.refresh_expires_in - 60));
    expectOAuthError(await call(srv.baseUrl, 'POST', TOKEN, { body: { grant_type: 'refresh_token', refresh_token: b.refresh_token } }), 400, 'invalid_grant');
    expectOAuthError(await call(srv.baseUrl, 'POST', REFRESH, { body: { refresh_token: b.refresh_token } }), 400, 'invalid_grant');
  });

  it('an expired refresh token stays rejected, and a fresh login still works', async () => {
    const c = await login();
    t.advance(31 * DAY);
    expectOAuthError(await call(srv.baseUrl, 'POST', REFRESH, { body: { refresh_token: c.refresh_token } }), 400, 'invalid_grant');
    expectOAuthError(await call(srv.baseUrl, 'POST', REFRESH, { body: { refresh_token: c.refresh_token } }), 400, 'invalid_grant');
    const fresh = await login();
    expect((await search(bearer(fresh.access_token))).status).toBe(200);
  });
});

for (const db of DATABASES) describe(`signing-key rotation and the JWKS (${db.name})`, skipFor(db.skip), () => {
  const t = manualClock();
  let srv: RunningServer;
  let ws0: DemoWorkspace;

  const login = async () => expectTokens(await call(srv.baseUrl, 'POST', LOGIN, { body: { client_id: ws0.client_id, client_secret: ws0.client_secret } }));
  const works = async (token: string) => (await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${ws0.patients[0]!.mobile}`, { headers: authHeader(token) })).status;
  const jwks = async () => {
    const res = await call(srv.baseUrl, 'GET', JWKS);
    expect(res.status).toBe(200);
    for (const k of (res.json as { keys: JWK[] }).keys) expect(k).not.toHaveProperty('d');
    return res.json as { keys: JWK[] };
  };
  const verifies = (token: string, set: { keys: JWK[] }) =>
    jwtVerify(token, createLocalJWKSet(set), { currentDate: t.clock.now(), algorithms: ['ES256'] }).then(() => true, () => false);

  beforeAll(async () => {
    srv = await startServer({ database: db, clock: t.clock });
    ws0 = srv.demo.workspaces[0]!;
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('old tokens keep working, new ones carry the new kid, the JWKS lists both, and the old key leaves an hour later', async () => {
    const before = await login();
    const oldKid = decodeProtectedHeader(before.access_token).kid!;
    expect((await jwks()).keys.map((k) => k.kid)).toEqual([oldKid]);

    t.advance(600);
    const newKidReturned = await srv.service.tokens.rotateSigningKey();

    expect(await works(before.access_token)).toBe(200);
    const after = await login();
    const newKid = decodeProtectedHeader(after.access_token).kid!;
    expect(newKid).not.toBe(oldKid);
    expect(newKid).toBe(newKidReturned);
    expect(await works(after.access_token)).toBe(200);

    const both = await jwks();
    expect(both.keys.map((k) => k.kid).sort()).toEqual([oldKid, newKid].sort());
    expect(await verifies(before.access_token, both)).toBe(true);
    expect(await verifies(after.access_token, both)).toBe(true);

    // A token refreshed after the rotation is signed with the new key too.
    const refreshed = expectTokens(await call(srv.baseUrl, 'POST', REFRESH, { body: { refresh_token: before.refresh_token } }));
    expect(decodeProtectedHeader(refreshed.access_token).kid).toBe(newKid);

    t.advance(1800);
    expect((await jwks()).keys.map((k) => k.kid).sort()).toEqual([oldKid, newKid].sort());
    const later = await login();

    t.advance(HOUR - 1800 + 1); // rotation + 3601 s
    const onlyNew = await jwks();
    expect(onlyNew.keys.map((k) => k.kid)).toEqual([newKid]);
    expect(await verifies(later.access_token, onlyNew)).toBe(true);
    expect(await works(later.access_token)).toBe(200);
    expect(await works(before.access_token)).toBe(401);
  });

  it('two quick rotations: all three keys verify while their tokens may live, then only the newest is published', async () => {
    const a = await login();
    const kidA = decodeProtectedHeader(a.access_token).kid!;
    const kidB = await srv.service.tokens.rotateSigningKey();
    const b = await login();
    expect(decodeProtectedHeader(b.access_token).kid).toBe(kidB);
    t.advance(60);
    const kidC = await srv.service.tokens.rotateSigningKey();
    const c = await login();
    expect(decodeProtectedHeader(c.access_token).kid).toBe(kidC);
    expect(new Set([kidA, kidB, kidC]).size).toBe(3);

    const set = await jwks();
    expect(set.keys.map((k) => k.kid).sort()).toEqual([kidA, kidB, kidC].sort());
    for (const token of [a, b, c]) {
      expect(await works(token.access_token)).toBe(200);
      expect(await verifies(token.access_token, set)).toBe(true);
    }

    t.advance(HOUR + 1);
    expect((await jwks()).keys.map((k) => k.kid)).toEqual([kidC]);
  });
});
