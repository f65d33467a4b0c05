import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolsOf } from '../../server/mcp/operation-tools.js';
import { operation, signedIn } from '../../server/shared/operation.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';

/**
 * The profiles' access as their declarations state it (server/auth/profile-operations.ts): open to any signed-in
 * caller (a guard without a scope, server/shared/operation.ts signedIn), limited by a check on the route's path
 * parameter, the user's own or an admin's, made before the body is read. The routes' shapes are the openapi suite's;
 * what the notes need of them, the notes suites'.
 */
describe('profiles: the user themself or an admin', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer();
  });
  afterAll(() => srv.close());

  const ws = () => srv.demo.workspaces[0]!;
  const as = (role: 'admin' | 'doctor' | 'reception' | 'display') => ({ auth: ws().users[role].auth_token });
  const idOf = async (role: 'admin' | 'doctor' | 'reception' | 'display') =>
    (await call(srv.baseUrl, 'GET', '/api/v1/me', { headers: as(role) })).json.user.id as string;
  const deniedReads = async () => {
    await srv.service.audit.flush();
    return (srv.service.db.prepare("SELECT resource_ids FROM audit_log WHERE action = 'user.profile.read' AND outcome = 'denied'").all() as { resource_ids: string }[])
      .map((r) => r.resource_ids);
  };

  it('answers every signed-in role its own profile, the display role too, which holds no scope it could ask', async () => {
    for (const role of ['admin', 'doctor', 'reception', 'display'] as const) {
      const id = await idOf(role);
      const r = await call(srv.baseUrl, 'GET', `/api/v1/users/${id}/profile`, { headers: as(role) });
      expect(r.status, `${role}: ${r.text}`).toBe(200);
      expect(r.json).toMatchObject({ id, role });
    }
    expect((await call(srv.baseUrl, 'GET', `/api/v1/users/${await idOf('doctor')}/profile`)).status).toBe(401);
  });

  it('refuses another user\'s profile to all but an admin, audited, before the body is read', async () => {
    const doctor = await idOf('doctor');
    const read = await call(srv.baseUrl, 'GET', `/api/v1/users/${doctor}/profile`, { headers: as('reception') });
    expect(read.status).toBe(403);
    expect(read.json.error).toEqual({ code: 'FORBIDDEN', message: 'Only the user themself or an admin of the clinic may do this' });
    expect(await deniedReads()).toContain(JSON.stringify([doctor]));
    // A body the schema refuses (400 for the user themself) is never looked at for somebody else.
    const write = await call(srv.baseUrl, 'PUT', `/api/v1/users/${doctor}/profile`, { headers: as('display'), body: { qualification: 42 } });
    expect(write.status).toBe(403);
    expect((await call(srv.baseUrl, 'PUT', `/api/v1/users/${doctor}/profile`, { headers: as('doctor'), body: { qualification: 42 } })).status).toBe(400);
    const byAdmin = await call(srv.baseUrl, 'GET', `/api/v1/users/${doctor}/profile`, { headers: as('admin') });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(byAdmin.json.role).toBe('doctor');
  });

  it('offers the profiles on their public routes alone: no app route beside them', async () => {
    const r = await call(srv.baseUrl, 'POST', '/api/v1/app/userProfile', { headers: as('admin'), body: [await idOf('doctor')] });
    expect(r.status).toBe(404);
  });
});

describe('an operation open to any signed-in caller', () => {
  it('is no MCP tool: an assistant acts within scopes, and such an operation names none (refused at start-up)', () => {
    const open = operation({
      access: signedIn(),
      run: async (_call, _input: undefined) => 'mine',
      tool: {
        name: 'my_things', title: 'My things', description: 'What the caller owns', input: {}, output: { value: z.string() }, readOnly: true, idempotent: true,
        toInput: () => undefined, toOutput: (value) => ({ value }),
      },
    });
    expect(() => toolsOf({ open })).toThrow('The MCP tool my_things needs an operation guarded by a scope');
  });
});
