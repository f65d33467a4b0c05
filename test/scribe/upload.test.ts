import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClinicAuth } from '../../sdk/auth.js';
import { ScribeApiError, ScribeClient } from '../../sdk/scribe-client.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { missing } from '../helpers/needs.js';
import { call, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, movableClock, speak, startScribeServer } from '../helpers/scribe.js';

/**
 * Endpoint 7's upload side over real HTTP, driven by our SDK exactly as the upstream SDKs drive it (presign →
 * multipart POST per file with the policy fields and the file part last → JSON sidecar → init), plus the raw
 * requests an integrator might get wrong. The worker is off here: these sessions stay queued (scribe-e2e runs them).
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const LIMITS = { maxFilesPerTxn: 2, maxFileBytes: 512 * 1024, maxTxnBytes: 800 * 1024, policyTtlMs: 10 * 60_000 };

let srv: ScribeServer;
let ws: DemoWorkspace;
let other: DemoWorkspace;
let dir: string;
let doctor: ScribeClient;
let speech: string;
const { clock, advance } = movableClock();
// The flow inits (an engine for English must be ready) with speech that espeak-ng makes; the receiver takes that speech.
const noSpeech = missing('espeak-ng', 'pocketsphinx');

beforeAll(async () => {
  srv = await startScribeServer({ clock, scribe: { worker: false, ...LIMITS } });
  [ws, other] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
  dir = tempDir('scribe-upload-files');
  doctor = new ScribeClient({ baseUrl: srv.baseUrl, auth: ws.users.doctor.auth_token });
  if (!noSpeech) speech = speak(dir, 'visit.wav', 'Routine review of blood sugar, feeling well, continue the same medicines.');
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

async function presign(txn: string, token = ws.users.doctor.auth_token, action = 'scribe-v2') {
  const res = await call(srv.baseUrl, 'POST', `/v1/file-upload?txn_id=${txn}&action=${action}`, { headers: bearer(token), body: { mode: 'dictation' } });
  expect(res.status).toBe(200);
  return res.json as { uploadData: { url: string; fields: Record<string, string> }; folderPath: string; txn_id: string };
}

/** A raw multipart POST to the receiver with the given fields and file part. */
async function post(url: string, fields: Record<string, string>, file?: { name: string; data: Buffer | Blob; type?: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new File([file.data as BlobPart], file.name, { type: file.type ?? 'application/octet-stream' }));
  const res = await fetch(url, { method: 'POST', body: form });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

const withKey = (p: Awaited<ReturnType<typeof presign>>, name: string): Record<string, string> => ({ ...p.uploadData.fields, key: p.folderPath + name });

describe('presign (POST /v1/file-upload)', () => {
  it('answers upstream\'s shape: our own receiver on the configured address, a signed policy for the transaction\'s folder', async () => {
    const p = await presign('visit-001');
    expect(Object.keys(p).sort()).toEqual(['folderPath', 'txn_id', 'uploadData']);
    expect(p.txn_id).toBe('visit-001');
    expect(p.folderPath).toMatch(new RegExp(`^${ws.workspace_id}/visit-001/\\d{8}_\\d{6}/$`));
    expect(p.uploadData.url).toBe(`${srv.baseUrl}/v1/file-upload/objects`);
    expect(p.uploadData.fields.key).toBe(`${p.folderPath}\${filename}`);
    expect(p.uploadData.fields.policy).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(p.uploadData.fields.signature).toMatch(/^[0-9a-f]{64}$/);
    // Presigning again before init keeps the folder.
    expect((await presign('visit-001')).folderPath).toBe(p.folderPath);

    // The URL is on the service's configured address whatever Host the client used (here "localhost:<port>"):
    // a rebinding page cannot have uploads sent elsewhere (docs/API.md, Hardening).
    const port = new URL(srv.baseUrl).port;
    const viaLocalhost = await new Promise<any>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/file-upload?txn_id=visit-002&action=ekascribe-v2',
        headers: { host: `localhost:${port}`, ...bearer(ws.users.doctor.auth_token), 'content-type': 'application/json' } }, (res) => {
        let s = '';
        res.on('data', (c) => (s += c));
        res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(s) }));
      });
      req.on('error', reject);
      req.end('{"mode":"dictation","model_type":"lite"}');
    });
    expect(viaLocalhost.status).toBe(200);
    expect(viaLocalhost.json.uploadData.url).toBe(`${srv.baseUrl}/v1/file-upload/objects`);
  });

  it('makes a transaction id when none is given; refuses a bad action, txn_id or body', async () => {
    const made = await call(srv.baseUrl, 'POST', '/v1/file-upload', { headers: bearer(ws.users.doctor.auth_token) });
    expect(made.status).toBe(200);
    expect(made.json.txn_id).toMatch(/^[0-9a-f-]{36}$/);
    const action = await call(srv.baseUrl, 'POST', '/v1/file-upload?txn_id=x1&action=ekascribe', { headers: bearer(ws.users.doctor.auth_token), body: {} });
    expect(action.status).toBe(400);
    expect(action.json).toEqual({ error: expect.stringContaining('scribe-v2'), code: 'invalid_action' });
    const txn = await call(srv.baseUrl, 'POST', '/v1/file-upload?txn_id=../etc&action=scribe-v2', { headers: bearer(ws.users.doctor.auth_token), body: {} });
    expect(txn.status).toBe(400);
    expect(txn.json.code).toBe('invalid_txn_id');
    const body = await call(srv.baseUrl, 'POST', '/v1/file-upload?txn_id=x2', { headers: bearer(ws.users.doctor.auth_token), body: [1, 2] });
    expect(body.status).toBe(400);
    expect(body.json.code).toBe('invalid_extra_data');
  });

  it('needs a bearer token with the scribe permission (401 and 403 in upstream\'s shapes)', async () => {
    const none = await call(srv.baseUrl, 'POST', '/v1/file-upload?txn_id=x3', { body: {} });
    expect(none.status).toBe(401);
    expect(none.json).toEqual({ error: 'Unauthorized', message: 'Invalid or missing authentication token' });
    const reception = await call(srv.baseUrl, 'POST', '/v1/file-upload?txn_id=x3', { headers: bearer(ws.users.reception.auth_token), body: {} });
    expect(reception.status).toBe(403);
    expect(reception.json).toEqual({ error: 'This operation needs the scribe permission', code: 'forbidden' });
    const status = await call(srv.baseUrl, 'GET', '/voice/api/v3/status/x3', {});
    expect(status.status).toBe(401);
    expect(status.json).toEqual({ error: 'Unauthorized', message: 'Invalid or missing authentication token' });
  });
});

describe('the upstream flow through the SDK', skipFor(noSpeech), () => {
  it('presign → one multipart POST per file (204) → sidecar → init 201; the session waits in the queue (202 with progress)', async () => {
    // An API client with only the scribe scope, logged in through /connect-auth/v1/account/login as the SDKs do.
    const auth = new ClinicAuth({ baseUrl: srv.baseUrl, clientId: ws.limited_client.client_id, clientSecret: ws.limited_client.client_secret });
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth });
    const second = speak(dir, 'second part.mp3.wav', 'Second part of the note.');
    const results = await client.upload([speech, second], {
      txnId: 'flow-001', action: 'ekascribe-v2',
      extraData: { mode: 'dictation', model_type: 'lite', visit: 'V-17' },
      outputFormat: { input_language: ['en-IN'], output_template: [{ template_id: 'eka_emr_template', codification_needed: true }] },
    });
    const session = (await srv.service.scribe.session(ws.workspace_id, 'flow-001'))!;
    expect(results).toEqual([
      { key: `${session.folder_path}visit.wav`, contentType: 'audio/wav', size: statSync(speech).size, status: 'success', txn_id: 'flow-001', streamed: false },
      { key: `${session.folder_path}second part.mp3.wav`, contentType: 'audio/wav', size: statSync(second).size, status: 'success', txn_id: 'flow-001', streamed: false },
    ]);

    // Stored on disk byte for byte, under our own names; the sidecar is kept beside them.
    const files = await srv.service.scribe.files(session.id);
    expect(files.map((f) => [f.kind, f.name, f.content_type])).toEqual([
      ['audio', 'visit.wav', 'audio/wav'], ['audio', 'second part.mp3.wav', 'audio/wav'], ['sidecar', 'flow-001.json', 'application/json'],
    ]);
    const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
    expect(files[0]!.sha256).toBe(sha(speech));
    expect(sha(join(srv.service.scribe.sessionDir(session.id), files[0]!.stored_name))).toBe(sha(speech));
    const sidecar = JSON.parse(readFileSync(join(srv.service.scribe.sessionDir(session.id), files[2]!.stored_name), 'utf8'));
    expect(sidecar).toMatchObject({ 'client-id': ws.limited_client.client_id, 'transaction-id': 'flow-001', 'audio-file': ['visit.wav', 'second part.mp3.wav'], transfer: 'non-vaded', mode: 'dictation' });

    // Initialized with the Python SDK's body: queued, the request normalised (eka_emr_template kept as asked).
    expect(session.status).toBe('queued');
    expect(JSON.parse(session.request!)).toEqual({
      mode: 'dictation', modelType: 'lite', languages: ['en-IN'], outputLanguage: null,
      templates: [{ id: 'service_emr_template', asked: 'eka_emr_template', codify: true }],
    });
    expect(session.started_by).toBe(ws.limited_client.client_id);

    const status = await client.getSessionStatus('flow-001', 'ekascribe-v2');
    expect(status).toEqual({
      httpStatus: 202,
      data: { output: [], additional_data: { mode: 'dictation', model_type: 'lite', visit: 'V-17', status: 'queued', stage: 'queued', percent: 0 } },
    });
  });

  it('init: 409 when already initialized, 422 listing every invalid parameter; audio cannot change after init', async () => {
    await doctor.upload([speech], { txnId: 'flow-002', outputFormat: { output_template: [{ template_id: 'transcript_template' }] } });
    const again = await call(srv.baseUrl, 'POST', '/voice/api/v2/transaction/init/flow-002', { headers: bearer(ws.users.doctor.auth_token), body: {} });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ status: 'error', message: 'Transaction already initialized' });
    await expect(doctor.init('flow-002', {})).rejects.toMatchObject({ status: 409 });

    const p = await presign('flow-003');
    expect((await post(p.uploadData.url, withKey(p, 'a.wav'), { name: 'a.wav', data: readFileSync(speech) })).status).toBe(204);
    const bad = await call(srv.baseUrl, 'POST', '/voice/api/v2/transaction/init/flow-003', {
      headers: bearer(ws.users.doctor.auth_token),
      body: {
        mode: 'lecture', model_type: 'max', input_language: ['en-IN', 'or', 7],
        output_format_template: [{ template_id: 'discharge_summary' }, { template_id: 'transcript_template', codification_needed: 'yes' }],
        additional_data: 'x', client_generated_files: ['s3://None/x/missing.wav'],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.details.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'mode'], ['body', 'model_type'], ['body', 'input_language', 1], ['body', 'input_language', 2],
      ['body', 'output_format_template', 0, 'template_id'], ['body', 'output_format_template', 1, 'codification_needed'],
      ['body', 'additional_data'], ['body', 'client_generated_files', 0],
    ]);
    expect(bad.json.details[2]).toEqual({ loc: ['body', 'input_language', 1], msg: expect.stringContaining('Unsupported language id "or"'), type: 'value_error' });
    expect(bad.json.details[4].msg).toContain('Unknown template_id "discharge_summary"');
    // Nothing was queued by the refused init.
    expect((await srv.service.scribe.session(ws.workspace_id, 'flow-003'))!.status).toBe('uploading');

    const noAudio = await call(srv.baseUrl, 'POST', '/voice/api/v2/transaction/init/never-uploaded', { headers: bearer(ws.users.doctor.auth_token), body: {} });
    expect(noAudio.status).toBe(422);
    expect(noAudio.json.details).toEqual([{ loc: ['path', 'txn_id'], msg: expect.stringContaining('No audio files were uploaded'), type: 'value_error' }]);

    // After init the transaction's audio is fixed.
    const p2 = await presign('flow-003');
    expect((await doctor.init('flow-003', { input_language: ['en-IN'] })).status).toBe('success');
    const late = await post(p2.uploadData.url, withKey(p2, 'b.wav'), { name: 'b.wav', data: readFileSync(speech) });
    expect(late.status).toBe(409);
    const represign = await call(srv.baseUrl, 'POST', '/v1/file-upload?txn_id=flow-003&action=scribe-v2', { headers: bearer(ws.users.doctor.auth_token), body: {} });
    expect(represign.status).toBe(409);
  });
});

describe('the upload receiver', skipFor(noSpeech), () => {
  it('recognises audio by extension: a text file is refused with 400 naming it', async () => {
    const p = await presign('recv-001');
    const txt = await post(p.uploadData.url, withKey(p, 'notes.txt'), { name: 'notes.txt', data: Buffer.from('not audio') });
    expect(txt.status).toBe(400);
    expect(txt.json).toEqual({ error: expect.stringContaining('"notes.txt" is not an audio file this service accepts (.txt)'), code: 'unsupported_file_type' });
    const none = await post(p.uploadData.url, withKey(p, 'recording'), { name: 'recording', data: Buffer.from('x') });
    expect(none.status).toBe(400);
    expect(none.json.error).toContain('(no extension)');
    // Upper-case extensions are fine; a sidecar must be JSON.
    expect((await post(p.uploadData.url, withKey(p, 'LOUD.WAV'), { name: 'LOUD.WAV', data: readFileSync(speech) })).status).toBe(204);
    const side = await post(p.uploadData.url, withKey(p, 'recv-001.json'), { name: 'data.json', data: Buffer.from('[not json') });
    expect(side.status).toBe(400);
    expect(side.json.code).toBe('invalid_sidecar');
    const empty = await post(p.uploadData.url, withKey(p, 'empty.wav'), { name: 'empty.wav', data: Buffer.alloc(0) });
    expect(empty.status).toBe(400);
    expect(empty.json.code).toBe('empty_file');
    const noFile = await post(p.uploadData.url, withKey(p, 'x.wav'));
    expect(noFile.status).toBe(400);
    expect(noFile.json.error).toContain('no file part');
  });

  it('403 for a tampered, foreign or missing policy, and for a key outside its folder', async () => {
    const p = await presign('recv-002');
    const data = { name: 'a.wav', data: readFileSync(speech) };
    const fields = withKey(p, 'a.wav');
    const decoded = JSON.parse(Buffer.from(fields.policy!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...decoded, max: 1e12, exp: decoded.exp + 1e9 })).toString('base64url');
    const cases: Record<string, string>[] = [
      { ...fields, policy: forged },
      { ...fields, signature: '0'.repeat(64) },
      { key: fields.key! },
      { ...fields, key: `${other.workspace_id}/recv-002/20260101_000000/a.wav` },
      { ...fields, key: `${p.folderPath}../a.wav` },
    ];
    for (const f of cases) {
      const res = await post(p.uploadData.url, f, data);
      expect([403, 400]).toContain(res.status);
      expect(res.json).toEqual({ error: expect.any(String), code: res.status === 403 ? 'AccessDenied' : 'InvalidArgument' });
    }
    expect(await srv.service.scribe.files((await srv.service.scribe.session(ws.workspace_id, 'recv-002'))!.id)).toEqual([]);
  });

  it('an expired policy is 403 (and presigning again gives a fresh one)', async () => {
    const p = await presign('recv-003');
    advance(LIMITS.policyTtlMs + 1000);
    const late = await post(p.uploadData.url, withKey(p, 'a.wav'), { name: 'a.wav', data: readFileSync(speech) });
    expect(late.status).toBe(403);
    expect(late.json).toEqual({ error: expect.stringContaining('The upload policy expired at'), code: 'AccessDenied' });
    const fresh = await presign('recv-003');
    expect((await post(fresh.uploadData.url, withKey(fresh, 'a.wav'), { name: 'a.wav', data: readFileSync(speech) })).status).toBe(204);
  });

  it('limits: files per transaction, bytes per file and per transaction, each with a clear 4xx; the same key replaces', async () => {
    const p = await presign('recv-004');
    const kb = (n: number) => Buffer.alloc(n * 1024, 1);
    const big = await post(p.uploadData.url, withKey(p, 'big.wav'), { name: 'big.wav', data: kb(600) });
    expect(big.status).toBe(413);
    expect(big.json).toEqual({ error: '"big.wav" is too large: an audio file may be at most 0.5 MiB', code: 'EntityTooLarge' });
    expect((await post(p.uploadData.url, withKey(p, 'one.wav'), { name: 'one.wav', data: kb(400) })).status).toBe(204);
    const over = await post(p.uploadData.url, withKey(p, 'two.wav'), { name: 'two.wav', data: kb(450) });
    expect(over.status).toBe(413);
    expect(over.json.error).toContain('a transaction takes at most 0.8 MiB of audio');
    expect((await post(p.uploadData.url, withKey(p, 'two.wav'), { name: 'two.wav', data: kb(300) })).status).toBe(204);
    const third = await post(p.uploadData.url, withKey(p, 'three.wav'), { name: 'three.wav', data: kb(1) });
    expect(third.status).toBe(400);
    expect(third.json).toEqual({ error: 'A transaction takes at most 2 audio files; recv-004 already has 2', code: 'too_many_files' });
    // Re-uploading a key replaces it (an object store's semantics): still two files, the new bytes kept.
    expect((await post(p.uploadData.url, withKey(p, 'one.wav'), { name: 'one.wav', data: kb(50) })).status).toBe(204);
    const s = (await srv.service.scribe.session(ws.workspace_id, 'recv-004'))!;
    expect((await srv.service.scribe.files(s.id)).map((f) => [f.name, f.size])).toEqual([['two.wav', 300 * 1024], ['one.wav', 50 * 1024]]);
    // No partial files are left behind by the refused uploads.
    expect(readdirSync(srv.service.scribe.sessionDir(s.id)).filter((n) => n.endsWith('.part'))).toEqual([]);
    expect(readdirSync(srv.service.scribe.sessionDir(s.id))).toHaveLength(2);
  });
});

describe('status (GET /voice/api/v3/status/{session_id})', () => {
  it('400 transaction_not_found for an unknown transaction and for another workspace\'s; 202 awaiting init', async () => {
    const unknown = await call(srv.baseUrl, 'GET', '/voice/api/v3/status/no-such-txn', { headers: bearer(ws.users.doctor.auth_token) });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toEqual({ error: { code: 'transaction_not_found', msg: 'Transaction no-such-txn was not found' } });
    await presign('status-001');
    const foreign = await call(srv.baseUrl, 'GET', '/voice/api/v3/status/status-001', { headers: bearer(other.users.doctor.auth_token) });
    expect(foreign.status).toBe(400);
    expect(foreign.json).toEqual({ error: { code: 'transaction_not_found', msg: 'Transaction status-001 was not found' } });
    await expect(new ScribeClient({ baseUrl: srv.baseUrl, auth: other.users.admin.auth_token }).getSessionStatus('status-001'))
      .rejects.toSatisfy((e: unknown) => e instanceof ScribeApiError && e.status === 400 && e.code === 'transaction_not_found');
    // The same txn id in another workspace is a different transaction.
    expect((await presign('status-001', other.users.doctor.auth_token)).folderPath).toMatch(new RegExp(`^${other.workspace_id}/`));
    const waiting = await doctor.getSessionStatus('status-001');
    expect(waiting).toEqual({ httpStatus: 202, data: { output: [], additional_data: { mode: 'dictation', status: 'awaiting_init', stage: 'uploading', percent: 0 } } });
  });
});

describe('large files', skipFor(missing('pocketsphinx')), () => {
  let big: ScribeServer;
  beforeAll(async () => {
    big = await startScribeServer({ scribe: { worker: false } });
  });
  afterAll(() => big.close());

  it('a 300 MB recording is streamed to disk by both sides: memory stays flat, the bytes arrive intact', async () => {
    const file = join(dir, 'long consult.wav');
    const size = 300 * 1024 * 1024;
    // A real WAV header, then 300 MB of samples (a sparse file: written in no time, read as zeros).
    writeFileSync(file, Buffer.from('RIFF....WAVEfmt '));
    truncateSync(file, size);
    const hash = createHash('sha256');
    for await (const c of createReadStream(file)) hash.update(c as Buffer);
    const expected = hash.digest('hex');

    const w = big.demo.workspaces[0]!;
    const client = new ScribeClient({ baseUrl: big.baseUrl, auth: w.users.doctor.auth_token });
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 20);
    const progress = { events: 0, loaded: -1, total: 0, ordered: true };
    const [res] = await client.upload([file], {
      txnId: 'big-001', action: 'scribe-v2', outputFormat: { output_template: [{ template_id: 'transcript_template' }] },
      onProgress: ({ loaded, total }) => {
        progress.ordered &&= loaded >= progress.loaded;
        Object.assign(progress, { events: progress.events + 1, loaded, total });
      },
    });
    clearInterval(sampler);
    expect(res).toMatchObject({ size, streamed: true, contentType: 'audio/wav' });
    // Progress as the file is read from disk: in order, many steps, ending at the whole body.
    expect(progress.ordered).toBe(true);
    expect(progress.events).toBeGreaterThan(100);
    expect(progress.total).toBeGreaterThan(size);
    expect(progress.loaded).toBe(progress.total);
    // Client and server share this process: neither held the file (300 MB) nor a large part of it.
    expect(peakRss - before.rss).toBeLessThan(120 * 1024 * 1024);
    const s = (await big.service.scribe.session(w.workspace_id, 'big-001'))!;
    const stored = (await big.service.scribe.files(s.id)).find((f) => f.kind === 'audio')!;
    expect(stored.size).toBe(size);
    expect(stored.sha256).toBe(expected);
    expect(statSync(join(big.service.scribe.sessionDir(s.id), stored.stored_name)).size).toBe(size);
    rmSync(file);
  }, 60_000);
});
