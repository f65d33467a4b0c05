import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, call, startServer } from '../helpers/server.js';

describe('admin routes: users, API clients, API keys, backups, status', () => {
  let srv: RunningServer;
  let admin: Record<string, string>;
  let reception: Record<string, string>;
  beforeAll(async () => {
    srv = await startServer();
    admin = { auth: srv.demo.workspaces[0]!.users.admin.auth_token };
    reception = { auth: srv.demo.workspaces[0]!.users.reception.auth_token };
  });
  afterAll(() => srv.close());

  it('refuses callers without the admin scope with 403 FORBIDDEN, and no token with 401', async () => {
    for (const [method, path] of [['GET', '/api/v1/users'], ['GET', '/api/v1/api-clients'], ['POST', '/api/v1/backups'], ['GET', '/api/v1/status']] as const) {
      const r = await call(srv.baseUrl, method, path, { headers: reception });
      expect(r.status, path).toBe(403);
      expect(r.json.error.code).toBe('FORBIDDEN');
      expect((await call(srv.baseUrl, method, path)).status).toBe(401);
    }
  });

  it('lists, adds, disables and enables users; a disabled user\'s token stops working', async () => {
    const list = await call(srv.baseUrl, 'GET', '/api/v1/users', { headers: admin });
    expect(list.json.users.map((u: { role: string }) => u.role).sort()).toEqual(['admin', 'display', 'doctor', 'reception']);
    expect(JSON.stringify(list.json)).not.toMatch(/password|scrypt/);
    const created = await call(srv.baseUrl, 'POST', '/api/v1/users', { headers: admin, body: { username: 'dr.meera', password: 'a long password', display_name: 'Dr Meera Nair', role: 'doctor' } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ username: 'dr.meera', role: 'doctor', disabled_at: null });
    const dup = await call(srv.baseUrl, 'POST', '/api/v1/users', { headers: admin, body: { username: 'DR.MEERA', password: 'a long password', role: 'doctor' } });
    expect(dup.status).toBe(409);
    expect(dup.json.error.code).toBe('USERNAME_TAKEN');
    const bad = await call(srv.baseUrl, 'POST', '/api/v1/users', { headers: admin, body: { username: 'x y', password: 'a long password', role: 'nurse' } });
    expect(bad.status).toBe(400);

    const signIn = await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username: 'dr.meera', password: 'a long password' } });
    const token = signIn.json.token as string;
    expect((await call(srv.baseUrl, 'GET', '/api/v1/me', { headers: { auth: token } })).status).toBe(200);
    const disabled = await call(srv.baseUrl, 'POST', `/api/v1/users/${created.json.id}/disable`, { headers: admin });
    expect(disabled.status).toBe(200);
    expect(disabled.json.disabled_at).not.toBeNull();
    expect((await call(srv.baseUrl, 'GET', '/api/v1/me', { headers: { auth: token } })).status).toBe(401);
    expect((await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username: 'dr.meera', password: 'a long password' } })).status).toBe(401);
    const enabled = await call(srv.baseUrl, 'POST', `/api/v1/users/${created.json.id}/enable`, { headers: admin });
    expect(enabled.json.disabled_at).toBeNull();
    expect((await call(srv.baseUrl, 'GET', '/api/v1/me', { headers: { auth: token } })).status).toBe(200);

    const self = srv.demo.workspaces[0]!.users.admin;
    const me = await call(srv.baseUrl, 'GET', '/api/v1/me', { headers: { auth: self.auth_token } });
    const selfDisable = await call(srv.baseUrl, 'POST', `/api/v1/users/${me.json.user.id}/disable`, { headers: admin });
    expect(selfDisable.status).toBe(400);
    // Another clinic's user is not found, not disabled.
    const otherUsers = await call(srv.baseUrl, 'GET', '/api/v1/users', { headers: { auth: srv.demo.workspaces[1]!.users.admin.auth_token } });
    const foreign = otherUsers.json.users[0].id as string;
    expect((await call(srv.baseUrl, 'POST', `/api/v1/users/${foreign}/disable`, { headers: admin })).status).toBe(404);
  });

  it('lists doctors for booking to any front-desk user', async () => {
    const r = await call(srv.baseUrl, 'GET', '/api/v1/doctors', { headers: reception });
    expect(r.status).toBe(200);
    expect(r.json.doctors.every((d: { role: string }) => d.role !== 'reception')).toBe(true);
    expect(r.json.doctors.length).toBeGreaterThanOrEqual(2);
  });

  it('creates an API client whose secret is shown once and works at the token endpoint, then revokes it', async () => {
    const created = await call(srv.baseUrl, 'POST', '/api/v1/api-clients', { headers: admin, body: { name: 'Lab integration', scopes: ['patients:read'] } });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { client_id, client_secret } = created.json;
    expect(client_secret).toMatch(/^cds_/);
    const list = await call(srv.baseUrl, 'GET', '/api/v1/api-clients', { headers: admin });
    const row = list.json.clients.find((c: { client_id: string }) => c.client_id === client_id);
    expect(row).toMatchObject({ name: 'Lab integration', scopes: ['patients:read'], revoked_at: null });
    expect(JSON.stringify(list.json)).not.toContain(client_secret);

    const apiKey = srv.demo.workspaces[0]!.api_key;
    const token = await call(srv.baseUrl, 'POST', '/api/v1/auth/token', {
      headers: { 'x-api-key': apiKey }, body: { grant_type: 'client_credentials', client_id, client_secret },
    });
    expect(token.status).toBe(200);
    expect((await call(srv.baseUrl, 'POST', '/api/v1/api-clients', { headers: admin, body: { name: 'x', scopes: ['everything'] } })).status).toBe(400);
    expect((await call(srv.baseUrl, 'DELETE', `/api/v1/api-clients/${client_id}`, { headers: admin })).status).toBe(204);
    expect((await call(srv.baseUrl, 'DELETE', `/api/v1/api-clients/${client_id}`, { headers: admin })).status).toBe(404);
    const after = await call(srv.baseUrl, 'POST', '/api/v1/auth/token', {
      headers: { 'x-api-key': apiKey }, body: { grant_type: 'client_credentials', client_id, client_secret },
    });
    expect(after.status).toBe(401);
  });

  it('creates and revokes API keys; the key is shown once', async () => {
    const created = await call(srv.baseUrl, 'POST', '/api/v1/api-keys', { headers: admin, body: { label: 'Reception tablet' } });
    expect(created.status).toBe(201);
    expect(created.json.api_key).toMatch(/^cdk_/);
    const list = await call(srv.baseUrl, 'GET', '/api/v1/api-keys', { headers: admin });
    expect(list.json.keys.find((k: { id: string }) => k.id === created.json.id)).toMatchObject({ label: 'Reception tablet', revoked_at: null });
    expect(JSON.stringify(list.json)).not.toContain(created.json.api_key);
    expect((await call(srv.baseUrl, 'DELETE', `/api/v1/api-keys/${created.json.id}`, { headers: admin })).status).toBe(204);
    const after = await call(srv.baseUrl, 'GET', '/api/v1/api-keys', { headers: admin });
    expect(after.json.keys.find((k: { id: string }) => k.id === created.json.id).revoked_at).not.toBeNull();
  });

  it('backs the database up to a consistent copy in the data folder and lists it', async () => {
    const made = await call(srv.baseUrl, 'POST', '/api/v1/backups', { headers: admin });
    expect(made.status).toBe(201);
    expect(made.json.path.startsWith(srv.dataDir)).toBe(true);
    expect(existsSync(made.json.path)).toBe(true);
    const copy = new Database(made.json.path, { readonly: true });
    expect((copy.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check).toBe('ok');
    expect((copy.prepare('SELECT count(*) AS n FROM patients').get() as { n: number }).n).toBeGreaterThan(0);
    copy.close();
    const list = await call(srv.baseUrl, 'GET', '/api/v1/backups', { headers: admin });
    expect(list.json.backups[0]).toMatchObject({ name: made.json.name, size_bytes: made.json.size_bytes });
  });

  it('reports the service status', async () => {
    const r = await call(srv.baseUrl, 'GET', '/api/v1/status', { headers: admin });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'ok', version: '1.0', base_url: srv.baseUrl, data_dir: srv.dataDir });
    expect(r.json.database_bytes).toBeGreaterThan(0);
  });

  it('answers the admin\'s settings at their app routes (a browser\'s way to the app methods): the operations\' checks and results', async () => {
    const app = (name: string, args: unknown[], headers: Record<string, string>) => call(srv.baseUrl, 'POST', `/api/v1/app/${name}`, { headers, body: args });
    const users = await app('users', [], admin);
    expect(users.status).toBe(200);
    expect(users.json.value.map((u: { role: string }) => u.role)).toContain('reception');
    const refused = await app('users', [], reception);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('FORBIDDEN');
    expect((await app('setUserDisabled', ['x'], reception)).status).toBe(403);

    const made = await call(srv.baseUrl, 'POST', '/api/v1/users', { headers: admin, body: { username: 'app.route', password: 'a long password', role: 'reception' } });
    const off = await app('setUserDisabled', [made.json.id, true], admin);
    expect(off.json.value).toMatchObject({ id: made.json.id, disabled_at: expect.any(String) });
    expect((await app('setUserDisabled', [made.json.id, 'yes'], admin)).status).toBe(400);
    const reset = await app('resetUserPassword', [made.json.id, 'another long password'], admin);
    expect(reset.status).toBe(200);
    expect(reset.json).toEqual({});
    expect((await app('backups', [], admin)).json.value).toEqual(expect.any(Array));
    // The created secrets are not offered there: a browser creates them on the public route, which answers no-store.
    expect((await app('createApiClient', [{ name: 'x', scopes: ['patients:read'] }], admin)).status).toBe(404);
  });
});
