import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { MAX_JSON_DEPTH } from '../../server/shared/json-depth.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';

/**
 * Issue 26, item 2, over real HTTP: one nesting limit for every JSON body, checked at parsing, so a body nested
 * 5,000 or 2,500 deep gets the same 400 in its route family's error shape, cold or warm, and never a 500 (a
 * RangeError from a recursive walk), the OpenID provider's registration included; the scribe's JSON sidecar is held
 * to the same limit.
 */

/** `{"a":{"a":…}}` nesting `depth` objects, a leaf at the bottom. */
const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth - 1) + `{"a":${leaf}}` + '}'.repeat(depth - 1);

let srv: RunningServer;
let ws: DemoWorkspace;
const txn = () => `depth-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  srv = await startServer();
  ws = srv.demo.workspaces[0]!;
});
afterAll(() => srv?.close());

describe('JSON nesting limit', () => {
  // [path, headers, how the family's 400 reads]
  const families = (): [string, Record<string, string>, (json: any) => void][] => {
    const admin = { auth: ws.users.admin.auth_token };
    const bearer = { authorization: `Bearer ${ws.users.doctor.auth_token}` };
    const message = expect.stringContaining(`at most ${MAX_JSON_DEPTH} levels`);
    return [
      [`/v1/file-upload?txn_id=${txn()}&action=scribe-v2`, bearer, (j) => expect(j).toEqual({ error: message, code: 'INVALID_REQUEST' })],
      [`/voice/api/v2/transaction/init/${txn()}`, bearer, (j) => expect(j).toEqual({ error: message, code: 'INVALID_REQUEST' })],
      ['/api/v1/session', {}, (j) => expect(j).toEqual({ error: { code: 'INVALID_REQUEST', message } })],
      ['/api/v1/users', admin, (j) => expect(j).toEqual({ error: { code: 'INVALID_REQUEST', message } })],
      ['/dr/v1/patient', admin, (j) => expect(j).toMatchObject({ success: false, status_code: 400, error: { code: 'INVALID_REQUEST', message } })],
      ['/notification/add-device', admin, (j) => expect(j).toEqual({ message, error_code: 400 })],
      ['/notification/v1/connect/webhook/subscriptions', admin, (j) => expect(j).toEqual({ error: { code: 'INVALID_REQUEST', message } })],
      ['/mcp', bearer, (j) => expect(j.error.code).toBe('INVALID_REQUEST')],
      // The OpenID provider's client registration (RFC 7591) parses JSON too; its walks recursed into a deep one (500).
      ['/oauth2/reg', {}, (j) => expect(j).toEqual({ error: 'invalid_request', error_description: message })],
    ];
  };

  it('a body nested 5,000, 2,500 or one past the limit is 400 in every family\'s shape, the same cold and warm', async () => {
    for (const depth of [5000, 2500, MAX_JSON_DEPTH + 1]) {
      for (const [path, headers, shape] of families()) {
        const r = await call(srv.baseUrl, 'POST', path, { headers: { ...headers, 'content-type': 'application/json' }, rawBody: nested(depth) });
        expect(r.status, `${depth} deep → ${path}: ${r.text.slice(0, 200)}`).toBe(400);
        shape(r.json);
      }
    }
    // Warm: the answer at 2,500 does not move once the service has parsed and validated many bodies.
    const path = `/v1/file-upload?txn_id=${txn()}&action=scribe-v2`;
    const headers = { authorization: `Bearer ${ws.users.doctor.auth_token}`, 'content-type': 'application/json' };
    for (let i = 0; i < 200; i++) {
      const r = await call(srv.baseUrl, 'POST', path, { headers, rawBody: nested(40) });
      expect(r.status).toBe(200);
    }
    for (const depth of [2500, 5000]) {
      const r = await call(srv.baseUrl, 'POST', path, { headers, rawBody: nested(depth) });
      expect(r.status, r.text.slice(0, 200)).toBe(400);
    }
  });

  it('up to the limit a body is taken; brackets inside strings do not count; arrays count like objects', async () => {
    const bearer = { authorization: `Bearer ${ws.users.doctor.auth_token}`, 'content-type': 'application/json' };
    const id = txn();
    const atLimit = await call(srv.baseUrl, 'POST', `/v1/file-upload?txn_id=${id}&action=scribe-v2`, { headers: bearer, rawBody: nested(MAX_JSON_DEPTH) });
    expect(atLimit.status, atLimit.text.slice(0, 200)).toBe(200);
    const brackets = JSON.stringify({ note: '['.repeat(5000) + '{'.repeat(5000) + '\\"[' });
    const inString = await call(srv.baseUrl, 'POST', `/v1/file-upload?txn_id=${txn()}&action=scribe-v2`, { headers: bearer, rawBody: brackets });
    expect(inString.status, inString.text.slice(0, 200)).toBe(200);
    const arrays = `{"a":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`;
    const deepArray = await call(srv.baseUrl, 'POST', `/v1/file-upload?txn_id=${txn()}&action=scribe-v2`, { headers: bearer, rawBody: arrays });
    expect(deepArray.status).toBe(400);
    expect(deepArray.json.code).toBe('INVALID_REQUEST');
  });

  it('the scribe\'s JSON sidecar nested 5,000 deep is 400 invalid_sidecar, not stored', async () => {
    const id = txn();
    const p = await call(srv.baseUrl, 'POST', `/v1/file-upload?txn_id=${id}&action=scribe-v2`, {
      headers: { authorization: `Bearer ${ws.users.doctor.auth_token}` }, body: { mode: 'dictation' },
    });
    expect(p.status).toBe(200);
    const form = new FormData();
    for (const [k, v] of Object.entries(p.json.uploadData.fields as Record<string, string>)) form.append(k, v);
    form.set('key', `${p.json.folderPath}${id}.json`);
    form.append('file', new File([nested(5000)], `${id}.json`, { type: 'application/json' }));
    const res = await fetch(p.json.uploadData.url, { method: 'POST', body: form });
    const text = await res.text();
    expect(res.status, text).toBe(400);
    expect(JSON.parse(text)).toEqual({ error: expect.stringContaining(`at most ${MAX_JSON_DEPTH} levels`), code: 'invalid_sidecar' });
  });

  it('extra_data from an in-process caller (the desktop app, MCP tools) is held to the same limit, never a RangeError', async () => {
    const caller = (await srv.service.auth.authenticateToken(ws.users.doctor.auth_token))!;
    const ctx = { caller, ip: null, requestId: 'depth-test' };
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    await expect(srv.service.scribe.presign(ctx, { txnId: txn(), extraData: deep, uploadUrl: 'in-process' }))
      .rejects.toMatchObject({ status: 400, code: 'invalid_extra_data', message: expect.stringContaining(`at most ${MAX_JSON_DEPTH} levels`) });
  });
});
