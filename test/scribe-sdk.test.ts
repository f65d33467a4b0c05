import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, ClinicAuth, type TokenProvider, jwtExpiresAt } from '../sdk/auth.js';
import { ScribeApiError, ScribeClient, contentTypeOf, decodeBase64Utf8 } from '../sdk/scribe-client.js';
import type { DemoWorkspace } from '../server/demo/demo.js';
import { tempDir } from './helpers/server.js';
import { type ScribeServer, speak, startScribeServer } from './scribe-support.js';

/** The SDK's own behaviour against the real service: logging in, refreshing, renewing after a 401, decoding. */

let srv: ScribeServer;
let ws: DemoWorkspace;
let dir: string;

beforeAll(async () => {
  srv = await startScribeServer({ scribe: { worker: false } });
  ws = srv.demo.workspaces[0]!;
  dir = tempDir('scribe-sdk');
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ClinicAuth', () => {
  it('logs in through /connect-auth/v1/account/login and refreshes before the JWT expires', async () => {
    let skew = 0;
    const auth = new ClinicAuth({ baseUrl: srv.baseUrl, clientId: ws.client_id, clientSecret: ws.client_secret, apiKey: ws.api_key, now: () => Date.now() + skew });
    const first = await auth.token();
    expect(first.split('.')).toHaveLength(3);
    expect(await auth.token()).toBe(first); // cached while fresh
    const exp = jwtExpiresAt(first)!;
    expect(exp - Date.now()).toBeGreaterThan(3000_000);
    const firstRefresh = auth.current!.refresh_token;

    skew = exp - Date.now() - 30_000; // 30 s before expiry: inside the refresh margin
    const second = await auth.token();
    expect(second).not.toBe(first);
    expect(auth.current!.refresh_token).not.toBe(firstRefresh); // rotated
  });

  it('falls back to a new login when the refresh token is refused (reuse revoked its family)', async () => {
    let skew = 0;
    const auth = new ClinicAuth({ baseUrl: srv.baseUrl, clientId: ws.client_id, clientSecret: ws.client_secret, now: () => Date.now() + skew });
    await auth.login();
    const stale = auth.current!.refresh_token!;
    await auth.refresh();
    // Presenting the rotated token again revokes the whole family, the current refresh token included.
    await expect(auth.refresh(stale)).rejects.toBeInstanceOf(AuthError);
    const revokedFamily = auth.current!.refresh_token;
    skew = 2 * 3600_000;
    const token = await auth.token();
    expect(token.split('.')).toHaveLength(3);
    expect(auth.current!.refresh_token).not.toBe(revokedFamily);
  });

  it('a wrong secret is an AuthError with the server\'s status', async () => {
    const auth = new ClinicAuth({ baseUrl: srv.baseUrl, clientId: ws.client_id, clientSecret: 'wrong' });
    await expect(auth.token()).rejects.toMatchObject({ name: 'AuthError', status: 401 });
  });
});

describe('ScribeClient', () => {
  it('renews the token once after a 401 and carries on', async () => {
    let renewed = 0;
    const provider: TokenProvider = {
      clientId: 'test-client',
      token: async () => 'cdt_not_a_real_token',
      renew: async () => {
        renewed++;
        return ws.users.doctor.auth_token;
      },
    };
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: provider });
    const voice = speak(dir, 'short.wav', 'Short note for the renewal test.');
    const [res] = await client.upload([voice], { txnId: 'sdk-renew', outputFormat: { output_template: [{ template_id: 'transcript_template' }] } });
    expect(res).toMatchObject({ key: expect.stringMatching(/sdk-renew\/\d{8}_\d{6}\/short\.wav$/), contentType: 'audio/wav', status: 'success' });
    expect(renewed).toBeGreaterThanOrEqual(1);
  });

  it('raises ScribeApiError with the status and the upstream error code', async () => {
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: ws.users.doctor.auth_token });
    const err = await client.getSessionStatus('never-there').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScribeApiError);
    expect(err).toMatchObject({ status: 400, code: 'transaction_not_found' });
    const bad = await client.upload([speak(dir, 'x.wav', 'x')], { txnId: 'bad id!' }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, code: 'invalid_txn_id' });
  });

  it('content types come from the extension; Base64 values decode as UTF-8', () => {
    expect(['a.wav', 'b.MP3', 'c.m4a', 'd.webm', 'e.ogg', 'f.opus', 'g.flac', 'h.amr', 'i.aac', 'j.json', 'k.bin'].map(contentTypeOf)).toEqual([
      'audio/wav', 'audio/mpeg', 'audio/mp4', 'audio/webm', 'audio/ogg', 'audio/ogg', 'audio/flac', 'audio/amr', 'audio/aac', 'application/json',
      'application/octet-stream',
    ]);
    const text = JSON.stringify({ text: 'temperature 101 °F, पेट दर्द' });
    expect(decodeBase64Utf8(Buffer.from(text, 'utf8').toString('base64'))).toBe(text);
  });
});
