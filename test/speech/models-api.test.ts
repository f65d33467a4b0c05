/**
 * Settings → Speech models over HTTP, against a real service and a local HTTP server standing in for the model
 * mirror (models cannot be downloaded on this machine): the list, a background download polled to installed,
 * failures as state with a message, the default (stored per clinic, kept across a restart, handed to the scribe's
 * worker process), admin only, unknown ids, and the chooser putting the default first.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpeechModel } from '../../preload/contract.js';
import { ScribeClient } from '../../sdk/scribe-client.js';
import { chooseEngine, preferenceOrder } from '../../server/scribe/asr/choose.js';
import { WHISPER_CATALOGUE } from '../../server/scribe/asr/models.js';
import type { AsrEngine, Language } from '../../server/scribe/contracts.js';
import { call, tempDir } from '../helpers/server.js';
import { MODEL_BYTES, startModelMirror } from '../helpers/model-mirror.js';
import { type ScribeServer, startScribeServer, until } from '../helpers/scribe.js';

let mirror: Awaited<ReturnType<typeof startModelMirror>>;
let mirrorUrl = '';
let gets: string[] = [];

const WORKER = join(import.meta.dirname, '../fixtures/speech-settings-worker.mjs');
const dataDir = tempDir('speech-models');
let srv: ScribeServer;
const start = () => startScribeServer({ dataDir, push: { sender: false }, speechModels: { mirror: mirrorUrl }, scribe: { workerEntry: WORKER, pollIntervalMs: 200 } });
const admin = () => ({ auth: srv.demo.workspaces[0]!.users.admin.auth_token });

type Model = SpeechModel;
const list = async (headers = admin()) => {
  const r = await call(srv.baseUrl, 'GET', '/api/v1/speech-models', { headers });
  expect(r.status).toBe(200);
  return r.json.models as Model[];
};
const model = async (id: string, headers = admin()) => (await list(headers)).find((m) => m.id === id)!;

beforeAll(async () => {
  mirror = await startModelMirror();
  ({ url: mirrorUrl, gets } = mirror);
  srv = await start();
});
afterAll(async () => {
  await srv?.close();
  await mirror?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /api/v1/speech-models', () => {
  it('lists the built-in engine (installed, the default) and every catalogue model (not downloaded)', async () => {
    const models = await list();
    expect(models.map((m) => m.id)).toEqual(['pocketsphinx', ...WHISPER_CATALOGUE.map((s) => s.id)]);
    expect(models[0]).toMatchObject({ name: 'PocketSphinx', installed: true, is_default: true, languages: ['en-IN', 'en-US'], size_bytes: null });
    const small = models.find((m) => m.id === 'small')!;
    expect(small).toMatchObject({ name: 'Whisper small', installed: false, is_default: false, size_bytes: 375e6, download: { state: 'idle', percent: null, message: null } });
    expect(small.languages).toHaveLength(11);
  });

  it('is for admins: a doctor gets 403 on every route, no token 401', async () => {
    const doctor = { auth: srv.demo.workspaces[0]!.users.doctor.auth_token };
    for (const [method, path, body] of [['GET', '/api/v1/speech-models'], ['POST', '/api/v1/speech-models/base/download'], ['PUT', '/api/v1/speech-models/default', { id: 'pocketsphinx' }]] as const) {
      const r = await call(srv.baseUrl, method, path, { headers: doctor, body });
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({ error: { code: 'FORBIDDEN', message: 'This operation needs the admin permission' } });
      expect((await call(srv.baseUrl, method, path, { body })).status).toBe(401);
    }
    expect(gets).toEqual([]);
  });

  it('answers an unknown model 404 and a malformed id 400, in the plain error shape', async () => {
    const r = await call(srv.baseUrl, 'POST', '/api/v1/speech-models/huge/download', { headers: admin() });
    expect(r.status).toBe(404);
    expect(r.json.error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('known: pocketsphinx, tiny, base, small, medium') });
    expect((await call(srv.baseUrl, 'PUT', '/api/v1/speech-models/default', { headers: admin(), body: { id: 'huge' } })).status).toBe(404);
    const bad = await call(srv.baseUrl, 'PUT', '/api/v1/speech-models/default', { headers: admin(), body: { id: '../etc' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_REQUEST');
    expect((await call(srv.baseUrl, 'POST', '/api/v1/speech-models/a%20b/download', { headers: admin() })).status).toBe(400);
  });
});

describe('downloading a model and making it the default', () => {
  it('refuses a model that is not downloaded as the default (409)', async () => {
    const r = await call(srv.baseUrl, 'PUT', '/api/v1/speech-models/default', { headers: admin(), body: { id: 'base' } });
    expect(r.status).toBe(409);
    expect(r.json.error).toMatchObject({ code: 'MODEL_NOT_INSTALLED', message: expect.stringMatching(/not downloaded yet/) });
  });

  it('downloads in the background: 202 at once, one download however often asked, progress by polling, then installed', async () => {
    const t0 = Date.now();
    const first = await call(srv.baseUrl, 'POST', '/api/v1/speech-models/base/download', { headers: admin() });
    expect(Date.now() - t0).toBeLessThan(700); // the download takes over a second: it is not on the request's path
    expect(first.status).toBe(202);
    expect(first.json).toMatchObject({ id: 'base', installed: false, download: { state: 'downloading' } });
    expect((await call(srv.baseUrl, 'POST', '/api/v1/speech-models/base/download', { headers: admin() })).status).toBe(202);

    const seen: Model['download'][] = [];
    const done = await until(async () => {
      const m = await model('base');
      seen.push(m.download);
      return m.installed ? m : null;
    }, 'base to install', 20_000, 100);
    const running = seen.filter((d) => d.state === 'downloading' && d.percent! > 0);
    expect(running.length).toBeGreaterThan(2);
    // The mirror said each file's size (HEAD), so the total is exact; progress only grows, and stays below 100.
    for (const d of running) expect(d).toMatchObject({ bytes_total: MODEL_BYTES, message: null });
    expect(running.map((d) => d.bytes_done)).toEqual([...running.map((d) => d.bytes_done!)].sort((a, b) => a - b));
    expect(Math.max(...running.map((d) => d.percent!))).toBeLessThan(100);
    expect(done).toMatchObject({ installed: true, is_default: false, size_bytes: MODEL_BYTES, download: { state: 'idle' } });
    expect(gets.filter((g) => g.startsWith('base-'))).toEqual(['base-encoder.int8.onnx', 'base-decoder.int8.onnx', 'base-tokens.txt']);
    expect(existsSync(join(dataDir, 'models', 'base', 'model.json'))).toBe(true);

    // Installed: asking again is a no-op (200).
    const again = await call(srv.baseUrl, 'POST', '/api/v1/speech-models/base/download', { headers: admin() });
    expect(again.status).toBe(200);
    expect(gets.filter((g) => g.startsWith('base-'))).toHaveLength(3);
  });

  it('a file that fails verification ends the download failed, with the reason, and installs nothing', async () => {
    // tiny's encoder and decoder have pinned SHA-256s, which the stand-in bytes cannot match.
    expect((await call(srv.baseUrl, 'POST', '/api/v1/speech-models/tiny/download', { headers: admin() })).status).toBe(202);
    const failed = await until(async () => {
      const m = await model('tiny');
      return m.download.state === 'failed' ? m : null;
    }, 'tiny to fail', 20_000, 100);
    expect(failed.installed).toBe(false);
    expect(failed.download.message).toMatch(/tiny-encoder\.int8\.onnx for Whisper tiny failed verification \(SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64}\); the download was removed/);
    expect(existsSync(join(dataDir, 'models', 'tiny', 'model.json'))).toBe(false);
    expect((await call(srv.baseUrl, 'PUT', '/api/v1/speech-models/default', { headers: admin(), body: { id: 'tiny' } })).status).toBe(409);
    // The service carries on: the list still answers, and a new try starts a new download.
    expect((await call(srv.baseUrl, 'POST', '/api/v1/speech-models/tiny/download', { headers: admin() })).json.download.state).toBe('downloading');
    await until(async () => (await model('tiny')).download.state === 'failed', 'tiny to fail again', 20_000, 100);
  });

  it('makes an installed model the clinic\'s default, for that clinic only, kept across a restart', async () => {
    const r = await call(srv.baseUrl, 'PUT', '/api/v1/speech-models/default', { headers: admin(), body: { id: 'base' } });
    expect(r.status).toBe(200);
    expect((r.json.models as Model[]).filter((m) => m.is_default).map((m) => m.id)).toEqual(['base']);
    const other = { auth: srv.demo.workspaces[1]!.users.admin.auth_token };
    expect((await list(other)).filter((m) => m.is_default).map((m) => m.id)).toEqual(['pocketsphinx']);
    // Models are the installation's: the other clinic sees base installed, and may choose it too.
    expect((await model('base', other)).installed).toBe(true);

    await srv.close();
    srv = await start();
    expect((await list()).filter((m) => m.is_default).map((m) => m.id)).toEqual(['base']);
    const row = srv.service.db.prepare(`SELECT s.value, u.username FROM workspace_settings s JOIN users u ON u.id = s.updated_by
      WHERE s.name = 'speech.default_model'`).get();
    expect(row).toEqual({ value: '"base"', username: srv.demo.workspaces[0]!.users.admin.username });
  });

  it('hands each session\'s worker its clinic\'s default as the run starts', async () => {
    const audio = join(dataDir, 'visit.wav');
    writeFileSync(audio, Buffer.alloc(2048));
    const settingsOf = async (ws: 0 | 1, txnId: string) => {
      const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: srv.demo.workspaces[ws]!.users.doctor.auth_token });
      await client.upload([audio], { txnId, extraData: { mode: 'dictation', model_type: 'lite' }, outputFormat: { input_language: ['en-IN'], output_template: [{ template_id: 'transcript_template' }] } });
      const s = await client.waitForSession(txnId, { intervalMs: 100, timeoutMs: 20_000 });
      return JSON.parse(/speech settings: (.*)$/.exec(String(s.data.additional_data.errors))![1]!) as { defaultModel?: string };
    };
    expect(await settingsOf(0, 'default-base')).toEqual({ defaultModel: 'base' });
    expect(await settingsOf(1, 'default-built-in')).toEqual({ defaultModel: 'pocketsphinx' });
    // Changed in the settings: the next session has it, without a restart.
    await call(srv.baseUrl, 'PUT', '/api/v1/speech-models/default', { headers: admin(), body: { id: 'pocketsphinx' } });
    expect(await settingsOf(0, 'default-changed')).toEqual({ defaultModel: 'pocketsphinx' });
  });

  it('documents the three routes in /openapi.json', async () => {
    const doc = (await call(srv.baseUrl, 'GET', '/openapi.json')).json;
    expect(doc.paths['/api/v1/speech-models'].get.operationId).toBe('listSpeechModels');
    expect(doc.paths['/api/v1/speech-models/{id}/download'].post.operationId).toBe('downloadSpeechModel');
    expect(doc.paths['/api/v1/speech-models/default'].put.operationId).toBe('setDefaultSpeechModel');
  });
});

describe('the engine chooser with a default', () => {
  const fake = (id: string, languages: readonly Language[]): AsrEngine => ({
    id, languages, unavailableReason: async () => null, transcribe: async () => { throw new Error('not used'); },
  });
  const all = [fake('whisper:base', ['en-IN', 'hi']), fake('whisper:small', ['en-IN', 'hi']), fake('pocketsphinx:en-us+clinic-lm', ['en-IN'])];
  const order = (modelType: 'pro' | 'lite', langs: Language[], preferred?: string) =>
    preferenceOrder({ modelType, inputLanguages: langs }, all, preferred).map((e) => e.id);

  it('puts the default first for pro and lite alike; without one, the model_type rules stand', async () => {
    expect(order('pro', ['en-IN'])).toEqual(['whisper:small', 'whisper:base', 'pocketsphinx:en-us+clinic-lm']);
    expect(order('pro', ['en-IN'], 'pocketsphinx')).toEqual(['pocketsphinx:en-us+clinic-lm', 'whisper:small', 'whisper:base']);
    expect(order('lite', ['en-IN'], 'base')).toEqual(['whisper:base', 'pocketsphinx:en-us+clinic-lm', 'whisper:small']);
    // A default that is not there (removed since) changes nothing; one that cannot serve the languages is passed over.
    expect(order('lite', ['hi'], 'medium')).toEqual(['whisper:base', 'whisper:small', 'pocketsphinx:en-us+clinic-lm']);
    expect((await chooseEngine({ modelType: 'pro', inputLanguages: ['hi'] }, all, 'pocketsphinx')).id).toBe('whisper:small');
    expect((await chooseEngine({ modelType: 'pro', inputLanguages: ['en-IN'] }, all, 'pocketsphinx')).id).toBe('pocketsphinx:en-us+clinic-lm');
  });
});
