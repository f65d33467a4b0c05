import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp } from '../../server/http/app.js';
import type { Service } from '../../server/service.js';
import { SIGN_IN_LIMITS } from '../../server/auth/app-accounts.js';
import { DATABASES } from '../helpers/postgres.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';
import { rowOf, startService } from '../helpers/service.js';
import { skipFor } from '../helpers/skip.js';

for (const db of DATABASES) describe(`first run: GET/POST /api/v1/setup (${db.name})`, skipFor(db.skip), () => {
  let service: Service;
  let base = '';
  let close = async () => {};
  beforeAll(async () => {
    const s = await startService(db, 'setup');
    service = s.service;
    const app = await buildHttpApp(service, { ui: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const a = app.server.address();
    base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
    close = async () => {
      await app.close();
      await s.close();
    };
  });
  afterAll(() => close());

  const body = { clinic_name: 'Green Valley Clinic', country: 'IN', timezone: 'Asia/Kolkata', admin: { username: 'asha', password: 'correct horse', display_name: 'Dr Asha Rao' } };

  it('says setup is needed on an empty database', async () => {
    expect((await call(base, 'GET', '/api/v1/setup')).json).toEqual({ needed: true });
  });

  it('refuses a short password and an unknown time zone with plain errors', async () => {
    const short = await call(base, 'POST', '/api/v1/setup', { body: { ...body, admin: { ...body.admin, password: 'short' } } });
    expect(short.status).toBe(400);
    expect(short.json.error.code).toBe('INVALID_REQUEST');
    const tz = await call(base, 'POST', '/api/v1/setup', { body: { ...body, timezone: 'Mars/Olympus' } });
    expect(tz.status).toBe(400);
    expect(tz.json.error.message).toMatch(/time zone/);
  });

  it('creates the clinic and its admin, signs the admin in, and is refused afterwards', async () => {
    const r = await call(base, 'POST', '/api/v1/setup', { body });
    expect(r.status).toBe(201);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.json.user).toMatchObject({ username: 'asha', display_name: 'Dr Asha Rao', role: 'admin' });
    expect(r.json.workspace).toMatchObject({ name: 'Green Valley Clinic', country: 'IN', timezone: 'Asia/Kolkata' });
    const me = await call(base, 'GET', '/api/v1/me', { headers: { auth: r.json.token } });
    expect(me.json.user.id).toBe(r.json.user.id);
    expect((await call(base, 'GET', '/api/v1/setup')).json).toEqual({ needed: false });
    const again = await call(base, 'POST', '/api/v1/setup', { body: { ...body, admin: { ...body.admin, username: 'mallory' } } });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('ALREADY_SET_UP');
    expect(await service.auth.workspaces()).toHaveLength(1);
  });

  it('makes one clinic when two first-run forms race', async () => {
    const { service: s2, close: close2 } = await startService(db, 'setup-race');
    const app2 = await buildHttpApp(s2, { ui: false });
    const post = (u: string) => app2.inject({ method: 'POST', url: '/api/v1/setup', payload: { ...body, admin: { ...body.admin, username: u } } });
    const [a, b] = await Promise.all([post('one'), post('two')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect(await s2.auth.workspaces()).toHaveLength(1);
    await app2.close();
    await close2();
  });
});

for (const db of DATABASES) describe(`sign-in: POST/DELETE /api/v1/session, GET /api/v1/me (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer({ database: db });
  });
  afterAll(() => srv.close());

  it('signs a user in with a token labelled "app sign-in" that works on /dr', async () => {
    const { username, password } = srv.demo.workspaces[0]!.users.reception;
    const r = await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username, password } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ user: { username, role: 'reception' }, workspace: { name: 'Sunrise Family Clinic' } });
    expect(r.json.token).toMatch(/^cdt_/);
    const label = (await rowOf<{ label: string }>(srv.service, sql`SELECT label FROM auth_tokens WHERE user_id = ${r.json.user.id} ORDER BY created_at DESC LIMIT 1`))!;
    expect(label.label).toBe('app sign-in');
    const search = await call(srv.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${srv.demo.workspaces[0]!.patients[0]!.mobile}`, { headers: { auth: r.json.token } });
    expect(search.status).toBe(200);
    expect(search.json.data.profiles.length).toBeGreaterThanOrEqual(1);
  });

  it('answers a wrong password and an unknown user the same way', async () => {
    const { username } = srv.demo.workspaces[1]!.users.doctor;
    const wrong = await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username, password: 'not-the-password' } });
    const unknown = await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username: 'nobody@nowhere', password: 'not-the-password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual(unknown.json);
    expect(wrong.json.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('refuses further tries after repeated failures for a username, even with the right password, with Retry-After', async () => {
    const { username, password } = srv.demo.workspaces[1]!.users.admin;
    for (let i = 0; i < SIGN_IN_LIMITS.perUser; i++) {
      expect((await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username, password: `wrong-${i}` } })).status).toBe(401);
    }
    const locked = await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username, password } });
    expect(locked.status).toBe(429);
    expect(locked.json.error.code).toBe('TOO_MANY_ATTEMPTS');
    const retry = Number(locked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowMs / 1000);
    // Other users are not locked out by it.
    const other = srv.demo.workspaces[1]!.users.reception;
    expect((await call(srv.baseUrl, 'POST', '/api/v1/session', { body: other })).status).toBe(200);
  });

  it('GET /api/v1/me needs a user; DELETE /api/v1/session revokes the token', async () => {
    expect((await call(srv.baseUrl, 'GET', '/api/v1/me')).status).toBe(401);
    const { username, password } = srv.demo.workspaces[0]!.users.doctor;
    const { json } = await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username, password } });
    const me = await call(srv.baseUrl, 'GET', '/api/v1/me', { headers: { authorization: `Bearer ${json.token}` } });
    expect(me.status).toBe(200);
    expect(me.json).toEqual({ user: json.user, workspace: json.workspace });
    const out = await call(srv.baseUrl, 'DELETE', '/api/v1/session', { headers: { auth: json.token } });
    expect(out.status).toBe(204);
    expect((await call(srv.baseUrl, 'GET', '/api/v1/me', { headers: { auth: json.token } })).status).toBe(401);
    expect((await call(srv.baseUrl, 'DELETE', '/api/v1/session', { headers: { auth: json.token } })).status).toBe(401);
  });

  it('validates the body', async () => {
    const r = await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username: 'x' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
  });
});
