import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, call, exited, spawnServer, tempDir } from '../helpers/server.js';

/**
 * Issue 26, item 4: no credential in any log line at any level. `npm run serve` runs at --log-level trace with
 * request lines; the test signs in, takes tokens, changes a password, calls routes with Authorization, auth,
 * X-API-KEY and Cookie headers, and uploads a file with them (the multipart parser's trace line logs the request's
 * headers), then looks for every credential it used in everything the process printed.
 */

const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

let srv: ServerProcess | undefined;
const dataDir = tempDir('log-redaction');

afterAll(async () => {
  if (srv) {
    srv.child.kill('SIGTERM');
    await exited(srv.child);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('logs at trace level', () => {
  it('hold none of the credentials the requests carried, in headers, bodies or query strings', async () => {
    srv = await spawnServer(['--data-dir', dataDir, '--demo', '--log-level', 'trace', '--log-requests']);
    const base = srv.baseUrl;
    const ws = srv.demo().workspaces[0]!;
    const used: string[] = [ws.api_key, ws.client_secret, ws.limited_client.client_secret];
    const cookie = secret('cookie');
    used.push(cookie);
    const json = { 'content-type': 'application/json' };

    // Client credentials: JSON body with X-API-KEY, a form body with HTTP Basic, and the SDK alias with a query string.
    const tok = await call(base, 'POST', '/api/v1/auth/token', {
      headers: { 'x-api-key': ws.api_key, cookie: `sid=${cookie}` },
      body: { grant_type: 'client_credentials', client_id: ws.client_id, client_secret: ws.client_secret },
    });
    expect(tok.status, tok.text).toBe(200);
    used.push(tok.json.access_token, tok.json.refresh_token);
    const basic = Buffer.from(`${ws.limited_client.client_id}:${ws.limited_client.client_secret}`).toString('base64');
    used.push(basic);
    const form = await call(base, 'POST', '/api/v1/auth/token', {
      headers: { 'x-api-key': ws.api_key, authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'grant_type=client_credentials',
    });
    expect(form.status, form.text).toBe(200);
    used.push(form.json.access_token, form.json.refresh_token);
    const query = await call(base, 'POST', `/connect-auth/v1/account/login?client_id=${ws.client_id}&client_secret=${ws.client_secret}&api_key=${ws.api_key}`);
    expect(query.status, query.text).toBe(200);
    used.push(query.json.access_token, query.json.refresh_token);
    const refreshed = await call(base, 'POST', '/connect-auth/v1/account/refresh', { body: { refresh_token: tok.json.refresh_token } });
    expect(refreshed.status, refreshed.text).toBe(200);
    used.push(refreshed.json.access_token, refreshed.json.refresh_token);

    // Sign-in with a password (right and wrong), a password change, user tokens in `auth` and Authorization.
    const doctor = ws.users.doctor;
    used.push(doctor.password, doctor.auth_token, ws.users.admin.auth_token);
    const wrong = secret('wrong-password');
    used.push(wrong);
    expect((await call(base, 'POST', '/api/v1/session', { body: { username: doctor.username, password: wrong } })).status).toBe(401);
    const session = await call(base, 'POST', '/api/v1/session', { body: { username: doctor.username, password: doctor.password } });
    expect(session.status, session.text).toBe(200);
    const userToken = session.json.token as string;
    expect(userToken).toBeTruthy();
    used.push(userToken);
    const newPassword = secret('New-Pass-1');
    used.push(newPassword);
    const changed = await call(base, 'POST', '/api/v1/session/password', {
      headers: { authorization: `Bearer ${userToken}`, cookie: `sid=${cookie}` },
      body: { current_password: doctor.password, new_password: newPassword },
    });
    expect(changed.status, changed.text).toBe(204);
    expect((await call(base, 'GET', `/dr/v1/business/patients/search?mobile=${ws.patients[0]!.mobile}`, { headers: { auth: ws.users.admin.auth_token, cookie: `sid=${cookie}` } })).status).toBe(200);
    expect((await call(base, 'GET', '/api/v1/clinic', { headers: { authorization: `Bearer ${tok.json.access_token}`, cookie: `sid=${cookie}` } })).status).not.toBe(500);

    // A scribe upload: presign with a bearer token, then the multipart receiver with Authorization and Cookie headers.
    const txn = `log-${randomBytes(4).toString('hex')}`;
    const p = await call(base, 'POST', `/v1/file-upload?txn_id=${txn}&action=scribe-v2`, {
      headers: { ...json, authorization: `Bearer ${userToken}`, cookie: `sid=${cookie}` }, body: { mode: 'dictation' },
    });
    expect(p.status, p.text).toBe(200);
    const fd = new FormData();
    for (const [k, v] of Object.entries(p.json.uploadData.fields as Record<string, string>)) fd.append(k, v);
    fd.set('key', `${p.json.folderPath}${txn}.json`);
    fd.append('file', new File(['{"mode":"dictation"}'], `${txn}.json`, { type: 'application/json' }));
    const up = await fetch(p.json.uploadData.url, { method: 'POST', body: fd, headers: { authorization: `Bearer ${userToken}`, cookie: `sid=${cookie}` } });
    expect(up.status, await up.text()).toBe(204);
    used.push(p.json.uploadData.fields.signature, p.json.uploadData.fields.policy);

    // Lines are written as they happen; give the last ones a moment to reach the pipe.
    await new Promise((r) => setTimeout(r, 300));
    const out = srv.output();
    // The run really was at trace level, with the lines that carry headers.
    expect(out).toContain('Providing options to busboy');
    expect(out).toContain('"level":10');
    const leaked = used.filter((c) => out.includes(c));
    expect(leaked.map((c) => `${c.slice(0, 6)}… in: ${out.split('\n').find((l) => l.includes(c))!.slice(0, 300)}`)).toEqual([]);
    // They were there, and taken out.
    expect(out).toContain('[Redacted]');
  }, 90_000);
});
