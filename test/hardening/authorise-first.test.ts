import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../helpers/server.js';

/**
 * Authorise before validating (issue 26, item 5): a caller without the right to a route gets 401/403 whatever body
 * it sends, never a 400 that describes the route's schema. Walks every operation of the OpenAPI document.
 */
let srv: RunningServer;
beforeAll(async () => {
  srv = await startServer({ http: { ui: false } });
});
afterAll(() => srv?.close());

interface Operation { method: string; path: string; secured: boolean }

async function operations(): Promise<Operation[]> {
  const doc = await (await fetch(`${srv.baseUrl}/openapi.json`)).json() as { paths: Record<string, Record<string, { security?: unknown[] }>> };
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, op]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x1'), secured: (op.security?.length ?? 0) > 0 })));
}

/** A body no route's schema accepts: an array where every route takes an object, with a stray field inside. */
const MALFORMED = JSON.stringify([{ unexpected: true }]);

async function call(op: Operation, token: string) {
  const res = await fetch(`${srv.baseUrl}${op.path}`, {
    method: op.method,
    headers: { auth: token, authorization: `Bearer ${token}`, ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { 'content-type': 'application/json' }) },
    ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: MALFORMED }),
  });
  return { status: res.status, text: await res.text() };
}

/** Routes the display role may call (so a malformed body is rightly 400 for it): the board, and its own session. */
const DISPLAY_MAY = new Set([
  'GET /dr/v1/queue/board', 'GET /dr/v1/queue/events',
  // Its own session: who it is, its password, its assistants, signing out (which would end the walk's token).
  'GET /api/v1/me', 'POST /api/v1/session/password', 'DELETE /api/v1/session',
  'GET /api/v1/connected-assistants', 'DELETE /api/v1/connected-assistants/x1',
]);

describe('authorise before validating', () => {
  it('a display token with a malformed body gets 403 on every secured route but the board', async () => {
    const token = srv.demo.workspaces[0]!.users.display.auth_token;
    const ops = (await operations()).filter((o) => o.secured && !DISPLAY_MAY.has(`${o.method} ${o.path}`));
    expect(ops.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const op of ops) {
      const r = await call(op, token);
      if (r.status !== 403) wrong.push(`${op.method} ${op.path} → ${r.status} ${r.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('no token, or an unknown one, gets 401 on every secured route whatever the body (each subtree authenticates)', async () => {
    const ops = (await operations()).filter((o) => o.secured);
    expect(ops.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const op of ops) {
      for (const token of ['', 'not-a-token']) {
        const r = await call(op, token);
        if (r.status !== 401) wrong.push(`${op.method} ${op.path} (${token || 'no token'}) → ${r.status} ${r.text.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reception with a malformed body gets 403 on routes for doctors and admins (the cases of the issue)', async () => {
    const ws = srv.demo.workspaces[0]!;
    const reception = ws.users.reception.auth_token;
    const cases: [string, string, string | undefined][] = [
      ['PUT', '/api/v1/notes/any-txn/draft', '{}'],
      ['POST', '/api/v1/notes/any-txn/sign', '[1]'],
      ['POST', '/api/v1/notes/any-txn/amendments', '{}'],
      ['POST', '/dr/v1/queue/call-next', undefined],
      ['PUT', '/api/v1/clinic', '{}'],
      ['PUT', '/api/v1/users/someone-else/profile', '{"qualification":42}'],
      ['POST', '/api/v1/users', '{}'],
      ['POST', '/notification/v1/connect/webhook/subscriptions', '{}'],
    ];
    for (const [method, path, body] of cases) {
      const res = await fetch(`${srv.baseUrl}${path}`, { method, headers: { auth: reception, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
      expect(await res.text()).not.toMatch(/body\.|required|JSON object|accepted form/);
    }
  });

  it('a doctor-only write refuses an admin (who holds the scribe scope) before reading the body too', async () => {
    const admin = srv.demo.workspaces[0]!.users.admin.auth_token;
    const res = await fetch(`${srv.baseUrl}/api/v1/notes/any-txn/draft`, { method: 'PUT', headers: { auth: admin, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toEqual({ code: 'FORBIDDEN', message: 'Only a doctor may edit a note' });
  });
});

describe('the display role and the clinic (least privilege: the board only)', () => {
  it('GET /api/v1/clinic is 403 for display and answered for every staff role', async () => {
    const ws = srv.demo.workspaces[0]!;
    const get = (token: string) => fetch(`${srv.baseUrl}/api/v1/clinic`, { headers: { auth: token } });
    const display = await get(ws.users.display.auth_token);
    expect(display.status).toBe(403);
    expect((await display.json()).error.code).toBe('FORBIDDEN');
    for (const role of ['admin', 'doctor', 'reception'] as const) {
      const r = await get(ws.users[role].auth_token);
      expect(r.status).toBe(200);
      expect((await r.json()).name).toBe(ws.name);
    }
  });
});
