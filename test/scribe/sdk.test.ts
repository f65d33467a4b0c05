import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, ClinicAuth, type TokenProvider, jwtExpiresAt } from '../../sdk/auth.js';
import { nodePostForm } from '../../sdk/node-upload.js';
import { ScribeApiError, ScribeClient, contentTypeOf, decodeBase64Utf8 } from '../../sdk/scribe-client.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { missing } from '../helpers/needs.js';
import { tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, silenceWav, speak, startScribeServer } from '../helpers/scribe.js';

/** The SDK's own behaviour against the real service: logging in, refreshing, renewing after a 401, decoding. */

let srv: ScribeServer;
let ws: DemoWorkspace;
let dir: string;
// An upload ends with init, which refuses a session no engine here could transcribe.
const noEngine = missing('pocketsphinx');
const noSpeech = missing('espeak-ng', 'pocketsphinx');

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
  it('renews the token once after a 401 and carries on', skipFor(noSpeech), async () => {
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

  it('raises ScribeApiError with the status and the upstream error code', skipFor(noSpeech), async () => {
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: ws.users.doctor.auth_token });
    const err = await client.getSessionStatus('never-there').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScribeApiError);
    expect(err).toMatchObject({ status: 400, code: 'transaction_not_found', step: 'status' });
    const bad = await client.upload([speak(dir, 'x.wav', 'x')], { txnId: 'bad id!' }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, code: 'invalid_txn_id', step: 'presign' });
  });

  it('reports upload progress: fetch at the start and the end; nodePostForm slice by slice, the bytes intact', skipFor(noEngine), async () => {
    const wav = silenceWav(dir, 'thirty.wav', 30); // ~960 KB: fifteen 64 KB slices
    const data = new Blob([readFileSync(wav)]);
    const byFetch: { file: string; loaded: number; total: number }[] = [];
    await new ScribeClient({ baseUrl: srv.baseUrl, auth: ws.users.doctor.auth_token })
      .upload([{ name: 'thirty.wav', data }], { txnId: 'progress-fetch', onProgress: (p) => byFetch.push(p) });
    expect(byFetch).toEqual([{ file: 'thirty.wav', loaded: 0, total: data.size }, { file: 'thirty.wav', loaded: data.size, total: data.size }]);

    const byNode: { loaded: number; total: number }[] = [];
    await new ScribeClient({ baseUrl: srv.baseUrl, auth: ws.users.doctor.auth_token, postForm: nodePostForm })
      .upload([{ name: 'thirty.wav', data }], { txnId: 'progress-node', onProgress: ({ loaded, total }) => byNode.push({ loaded, total }) });
    const total = byNode[0]!.total;
    expect(total).toBeGreaterThan(data.size); // the multipart body: fields, file part, closing boundary
    expect(byNode.every((p) => p.total === total)).toBe(true);
    expect(byNode.length).toBeGreaterThan(Math.ceil(data.size / 65536));
    expect(byNode.map((p) => p.loaded)).toEqual([...byNode.map((p) => p.loaded)].sort((x, y) => x - y));
    expect(byNode.at(-1)!.loaded).toBe(total);
    const s = (await srv.service.scribe.session(ws.workspace_id, 'progress-node'))!;
    const stored = (await srv.service.scribe.files(s.id)).find((f) => f.kind === 'audio')!;
    expect(stored).toMatchObject({ size: data.size, sha256: createHash('sha256').update(readFileSync(wav)).digest('hex') });
  });

  it('lists past sessions by patient and status, page by page', skipFor(noEngine), async () => {
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: ws.users.doctor.auth_token });
    const patient = ws.patients[3]!.patient_id;
    const wav = silenceWav(dir, 'short.wav', 0.5);
    for (const txnId of ['list-1', 'list-2', 'list-3']) await client.upload([wav], { txnId, extraData: { patient_id: patient } });
    const first = await client.listSessions({ patientId: patient, limit: 2 });
    expect(first.data.map((x) => x.txn_id)).toEqual(['list-3', 'list-2']);
    expect(first.data[0]).toMatchObject({ status: 'queued', patient_id: patient, templates: ['transcript_template'], errors: [] });
    const second = await client.listSessions({ patientId: patient, limit: 2, cursor: first.next_cursor! });
    expect(second).toEqual({ data: [expect.objectContaining({ txn_id: 'list-1' })], next_cursor: null });
    expect((await client.listSessions({ patientId: patient, status: 'failed' })).data).toEqual([]);
    await expect(client.listSessions({ limit: 0 })).rejects.toMatchObject({ name: 'ScribeApiError', status: 400, code: 'INVALID_REQUEST', step: 'sessions' });
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
