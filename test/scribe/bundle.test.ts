import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScribeClient } from '../../sdk/scribe-client.js';
import { missing } from '../helpers/needs.js';
import { ROOT, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, speak, startScribeServer } from '../helpers/scribe.js';

/**
 * The packaged app starts the bundled worker (as a utility process): dist/main/scribe-worker.mjs, built by
 * scripts/build.mjs, not worker.ts through tsx. This runs a dictation through that bundle, so a worker that only
 * works from source (a missing bundle entry, a file it reads relative to its own module) fails here rather than in
 * a clinic.
 */
const WORKER = join(ROOT, 'dist', 'main', 'scribe-worker.mjs');
// Skipped only where nothing is built: a build without the worker beside main.mjs fails.
const skip = (existsSync(join(ROOT, 'dist', 'main', 'main.mjs')) ? null : 'dist/ is not built (node scripts/build.mjs; npm test builds first)')
  ?? missing('espeak-ng', 'pocketsphinx', 'ffmpeg');

describe('the bundled scribe worker', skipFor(skip), () => {
  let srv: ScribeServer;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('scribe-bundle');
    srv = await startScribeServer({ push: { sender: false }, scribe: { workerEntry: WORKER } });
  });

  afterAll(async () => {
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('transcribes and structures a dictation', async () => {
    expect(existsSync(WORKER), 'scripts/build.mjs builds dist/main/scribe-worker.mjs').toBe(true);
    const audio = speak(dir, 'bundle.wav', 'Patient has fever for three days. Tablet paracetamol six fifty milligrams three times a day.');
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: srv.demo.workspaces[0]!.users.doctor.auth_token });
    await client.upload([audio], {
      txnId: 'bundle-1', action: 'scribe-v2', extraData: { mode: 'dictation' },
      outputFormat: { input_language: ['en-IN'], output_template: [{ template_id: 'transcript_template', codification_needed: false }] },
    });
    const done = await client.waitForSession('bundle-1', { intervalMs: 100, timeoutMs: 60_000 });
    expect(done.httpStatus).toBe(200);
    const [transcript] = done.data.output;
    expect(transcript?.status).toBe('success');
    expect(String((transcript?.decoded as { text?: unknown } | undefined)?.text).split(' ').length).toBeGreaterThan(5);
  }, 90_000);
});
