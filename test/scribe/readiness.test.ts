import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { has } from '../helpers/needs.js';
import { call, tempDir } from '../helpers/server.js';
import { type ScribeServer, startScribeServer } from '../helpers/scribe.js';

/** What the scribe can do on this computer, in GET /api/v1/status (server/scribe/readiness.ts). */

const SPHINX = 'pocketsphinx:en-us+clinic-lm';

describe('the scribe in GET /api/v1/status', () => {
  let srv: ScribeServer;
  beforeAll(async () => {
    srv = await startScribeServer({ scribe: { worker: false } });
  });
  afterAll(() => srv?.close());

  const status = async (workspace: number) =>
    (await call(srv.baseUrl, 'GET', '/api/v1/status', { headers: { auth: srv.demo.workspaces[workspace]!.users.admin.auth_token } })).json;

  it('says for every admin what this machine has: each engine and ffmpeg, ready or why not', async () => {
    const { scribe } = await status(0);
    expect((await status(1)).scribe).toEqual(scribe);
    const sphinx = scribe.engines.find((e: { id: string }) => e.id === SPHINX);
    expect(sphinx).toMatchObject({ ready: has('pocketsphinx'), languages: ['en-IN', 'en-US'] });
    expect(scribe.decoder).toMatchObject({ id: 'ffmpeg', ready: has('ffmpeg') });
    for (const part of [...scribe.engines, scribe.decoder]) expect(part.reason === null).toBe(part.ready);
    expect(scribe.ready).toBe(scribe.languages.length > 0);
    if (has('pocketsphinx') && has('ffmpeg')) expect(scribe.languages).toEqual(expect.arrayContaining(['en-IN', 'en-US']));
  });

  it('is ready for the languages the dictation language list calls ready, once ffmpeg is there', async () => {
    const { scribe } = await status(0);
    const list = await call(srv.baseUrl, 'GET', '/voice/api/v2/languages', { headers: { authorization: `Bearer ${srv.demo.workspaces[0]!.users.doctor.auth_token}` } });
    const ready = (list.json.languages as { id: string; status: string }[]).filter((l) => l.status === 'ready').map((l) => l.id);
    expect(scribe.languages).toEqual(scribe.decoder.ready ? ready : []);
  });
});

describe('a machine where the scribe cannot transcribe', () => {
  const emptyModels = tempDir('readiness-no-model');
  let srv: ScribeServer;
  const ffmpeg = process.env.CLINIC_DESK_FFMPEG;
  beforeAll(async () => {
    // PocketSphinx looks for its model in an empty folder, and ffmpeg is named where there is none.
    process.env.CLINIC_DESK_FFMPEG = `${emptyModels}/ffmpeg`;
    srv = await startScribeServer({ scribe: { worker: false, speech: { pocketsphinx: { modelDir: emptyModels } } } });
  });
  afterAll(async () => {
    if (ffmpeg === undefined) delete process.env.CLINIC_DESK_FFMPEG;
    else process.env.CLINIC_DESK_FFMPEG = ffmpeg;
    await srv?.close();
    rmSync(emptyModels, { recursive: true, force: true });
  });

  it('is not ready, and names for each missing part what fixes it', async () => {
    const { scribe } = (await call(srv.baseUrl, 'GET', '/api/v1/status', { headers: { auth: srv.demo.workspaces[0]!.users.admin.auth_token } })).json;
    expect(scribe).toMatchObject({ ready: false, languages: [] });
    expect(scribe.decoder).toMatchObject({ ready: false, reason: `ffmpeg was not found at ${emptyModels}/ffmpeg (CLINIC_DESK_FFMPEG)` });
    expect(scribe.decoder.fix).toMatch(/ffmpeg/);
    const sphinx = scribe.engines.find((e: { id: string }) => e.id === SPHINX);
    expect(sphinx.ready).toBe(false);
    expect(sphinx.fix).toMatch(/^((sudo )?apt-get install -y pocketsphinx pocketsphinx-en-us espeak-ng|install PocketSphinx .* from this system's packages)$/);
    // No Whisper model is installed in a fresh data folder: the fix is the Settings download, where the runtime loads.
    const whisper = scribe.engines.find((e: { id: string }) => e.id === 'whisper:small');
    expect(whisper).toMatchObject({ ready: false, languages: expect.arrayContaining(['hi', 'ta']) });
    if (!/sherpa/i.test(whisper.reason)) expect(whisper.fix).toBe('Settings → Speech models: an administrator downloads "small"');
  });
});
