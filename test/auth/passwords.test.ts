import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../server/auth/app-accounts.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';

describe('passwords: POST /api/v1/session/password and POST /api/v1/users/{user_id}/password', () => {
  let srv: RunningServer;
  let admin: Record<string, string>;
  // Every password a test sends, so the audit check can look for each of them.
  const used: string[] = [];
  const pw = (p: string) => (used.push(p), p);

  beforeAll(async () => {
    srv = await startServer();
    admin = { auth: srv.demo.workspaces[0]!.users.admin.auth_token };
  });
  afterAll(() => srv.close());

  async function newUser(username: string, password: string, role = 'doctor') {
    const r = await call(srv.baseUrl, 'POST', '/api/v1/users', { headers: admin, body: { username, password: pw(password), role } });
    expect(r.status).toBe(201);
    return r.json.id as string;
  }
  const signIn = (username: string, password: string) => call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username, password } });
  async function tokenOf(username: string, password: string) {
    const r = await signIn(username, password);
    expect(r.status).toBe(200);
    return r.json.token as string;
  }
  const me = async (token: string) => (await call(srv.baseUrl, 'GET', '/api/v1/me', { headers: { auth: token } })).status;
  const change = (token: string, body: unknown) => call(srv.baseUrl, 'POST', '/api/v1/session/password', { headers: { auth: token }, body });
  const reset = (headers: Record<string, string>, userId: string, body: unknown) =>
    call(srv.baseUrl, 'POST', `/api/v1/users/${userId}/password`, { headers, body });

  it('changes the own password: the old one no longer signs in, other sessions end, this one stays', async () => {
    await newUser('pw.self', 'first password');
    const here = await tokenOf('pw.self', 'first password');
    const elsewhere = await tokenOf('pw.self', 'first password');
    // Both answered once, so both sit in the token cache the change must clear.
    expect(await me(here)).toBe(200);
    expect(await me(elsewhere)).toBe(200);

    const r = await change(here, { current_password: 'first password', new_password: pw('second password') });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(await me(here)).toBe(200);
    expect(await me(elsewhere)).toBe(401);
    const old = await signIn('pw.self', 'first password');
    expect(old.status).toBe(401);
    expect(old.json.error.code).toBe('INVALID_CREDENTIALS');
    expect((await signIn('pw.self', 'second password')).status).toBe(200);
  });

  it('refuses a wrong current password with 401 INVALID_CREDENTIALS and changes nothing', async () => {
    await newUser('pw.wrong', 'right password');
    const token = await tokenOf('pw.wrong', 'right password');
    const r = await change(token, { current_password: 'Right password', new_password: pw('never applied') });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ error: { code: 'INVALID_CREDENTIALS', message: expect.stringMatching(/current password/) } });
    // A wrong current password is not a bad session: the token still works, the password is unchanged.
    expect(await me(token)).toBe(200);
    expect((await signIn('pw.wrong', 'never applied')).status).toBe(401);
    expect((await signIn('pw.wrong', 'right password')).status).toBe(200);
  });

  it('answers 400 for a short new password, a missing field and malformed JSON; 401 without a token', async () => {
    await newUser('pw.short', 'long enough');
    const token = await tokenOf('pw.short', 'long enough');
    const short = await change(token, { current_password: 'long enough', new_password: pw('1234567') });
    expect(short.status).toBe(400);
    expect(short.json.error.code).toBe('INVALID_REQUEST');
    expect(short.json.error.message).toMatch(/new_password/);
    expect((await change(token, { new_password: 'long enough too' })).status).toBe(400);
    const bad = await call(srv.baseUrl, 'POST', '/api/v1/session/password', {
      headers: { auth: token, 'content-type': 'application/json' }, rawBody: '{"current_password": "long enough", ',
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_REQUEST');
    const anon = await call(srv.baseUrl, 'POST', '/api/v1/session/password', { body: { current_password: 'long enough', new_password: 'long enough 2' } });
    expect(anon.status).toBe(401);
    expect((await signIn('pw.short', 'long enough')).status).toBe(200);
  });

  it('counts wrong current passwords towards the sign-in limit; an admin reset lifts the lockout', async () => {
    const id = await newUser('pw.guess', 'the real one');
    const token = await tokenOf('pw.guess', 'the real one');
    for (let i = 0; i < SIGN_IN_LIMITS.perUser; i++) {
      expect((await change(token, { current_password: `guess ${i}`, new_password: 'whatever 123' })).status).toBe(401);
    }
    const locked = await change(token, { current_password: 'the real one', new_password: 'whatever 123' });
    expect(locked.status).toBe(429);
    expect(locked.json.error.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn('pw.guess', 'the real one')).status).toBe(429);

    expect((await reset(admin, id, { new_password: pw('set by the admin') })).status).toBe(204);
    expect((await signIn('pw.guess', 'set by the admin')).status).toBe(200);
  });

  it('lets an admin reset a user\'s password: every token of that user stops working, the old password too', async () => {
    const id = await newUser('pw.reset', 'forgotten one', 'reception');
    const a = await tokenOf('pw.reset', 'forgotten one');
    const b = await tokenOf('pw.reset', 'forgotten one');
    expect(await me(a)).toBe(200);
    expect(await me(b)).toBe(200);

    const r = await reset(admin, id, { new_password: pw('fresh from admin') });
    expect(r.status).toBe(204);
    expect(await me(a)).toBe(401);
    expect(await me(b)).toBe(401);
    expect((await signIn('pw.reset', 'forgotten one')).status).toBe(401);
    expect((await signIn('pw.reset', 'fresh from admin')).status).toBe(200);
    // The admin's own session is untouched.
    expect(await me(admin.auth!)).toBe(200);

    expect((await reset(admin, id, { new_password: 'short' })).status).toBe(400);
    const self = (await call(srv.baseUrl, 'GET', '/api/v1/me', { headers: admin })).json.user.id as string;
    const own = await reset(admin, self, { new_password: 'an admin self reset' });
    expect(own.status).toBe(400);
    expect(own.json.error.message).toMatch(/Change password/);
  });

  it('refuses a reset to reception (403) and to another clinic\'s admin (404); the password stays', async () => {
    const id = await newUser('pw.guarded', 'stays the same');
    const reception = { auth: srv.demo.workspaces[0]!.users.reception.auth_token };
    const denied = await reset(reception, id, { new_password: pw('reception tried') });
    expect(denied.status).toBe(403);
    expect(denied.json.error.code).toBe('FORBIDDEN');
    const foreignAdmin = { auth: srv.demo.workspaces[1]!.users.admin.auth_token };
    const foreign = await reset(foreignAdmin, id, { new_password: pw('other clinic tried') });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe('NOT_FOUND');
    expect((await reset(foreignAdmin, 'no-such-user', { new_password: 'other clinic tried' })).status).toBe(404);
    expect((await call(srv.baseUrl, 'POST', `/api/v1/users/${id}/password`, { body: { new_password: 'nobody at all' } })).status).toBe(401);
    expect((await signIn('pw.guarded', 'stays the same')).status).toBe(200);
  });

  it('audits changes and resets without any password in the audit log', async () => {
    await srv.service.audit.flush();
    const rows = srv.service.db.prepare('SELECT * FROM audit_log').all() as Record<string, unknown>[];
    const actions = rows.map((r) => `${r.action}:${r.outcome}`);
    expect(actions).toContain('user.password_change:success');
    expect(actions).toContain('user.password_change:denied');
    expect(actions).toContain('user.password_reset:success');
    const text = JSON.stringify(rows);
    expect(used.length).toBeGreaterThan(8);
    for (const p of used) expect(text).not.toContain(p);
  });
});
