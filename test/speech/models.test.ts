/**
 * The Whisper model manager against a local HTTP server (models cannot be downloaded on this machine):
 * progress events, SHA-256 verification (pinned and server-announced), resume with Range, restart when the server
 * ignores Range, abort, atomic install, local model folders; and the transcribe command's model options.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runTranscribeCli } from '../../server/cli/transcribe.js';
import { ModelManager, WHISPER_CATALOGUE, mirrored, progressBar, type DownloadProgress, type ModelSpec } from '../../server/scribe/asr/models.js';
import { missing } from '../helpers/needs.js';
import { skipFor } from '../helpers/skip.js';
import { TEST_DICTATIONS, speak } from '../helpers/speech-audio.js';
import { linkSpeechModelInto } from '../helpers/speech-model.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const blob = (n: number, seed: number) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 17 + (i >> 8)) & 0xff;
  return b;
};
const FILES: Record<string, Buffer> = {
  'enc.onnx': blob(300_000, 1),
  'dec.onnx': blob(500_000, 2),
  'tokens.txt': Buffer.from('hello 0\nworld 1\n'),
};

/** Per-path behaviour of the stand-in server for the current test. */
interface Behaviour {
  /** Close the connection after this many body bytes (first request only). */
  cutAfter?: number;
  ignoreRange?: boolean;
  /** Serve other bytes than the file. */
  corrupt?: boolean;
  /** Send X-Linked-ETag: this value. */
  announce?: string;
  status?: number;
  /** Delay between 16 KB chunks, ms. */
  slow?: number;
}
let behaviour: Record<string, Behaviour> = {};
const requests: { path: string; range?: string }[] = [];
let server: Server;
let base = '';
let dir = '';

function handle(req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? '').split('/').pop() ?? '';
  requests.push({ path, range: req.headers.range });
  const b = behaviour[path] ?? {};
  const file = FILES[path];
  if (!file || b.status) {
    res.writeHead(b.status ?? 404).end('not found');
    return;
  }
  let body = b.corrupt ? blob(file.length, 99) : file;
  const headers: Record<string, string> = {};
  if (b.announce) headers['x-linked-etag'] = `"${b.announce}"`;
  const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  if (m && !b.ignoreRange) {
    const start = Number(m[1]);
    if (start >= body.length) {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}`, 'content-length': String(body.length - start) });
    body = body.subarray(start);
  } else {
    res.writeHead(200, { ...headers, 'content-length': String(body.length) });
  }
  const cut = b.cutAfter;
  if (cut !== undefined) delete b.cutAfter; // only the first request is cut
  let sent = 0;
  const step = () => {
    if (cut !== undefined && sent >= cut) {
      res.socket?.destroy();
      return;
    }
    if (sent >= body.length) {
      res.end();
      return;
    }
    const n = Math.min(16_384, body.length - sent, cut !== undefined ? cut - sent : Infinity);
    res.write(body.subarray(sent, sent + n));
    sent += n;
    if (b.slow) setTimeout(step, b.slow);
    else setImmediate(step);
  };
  step();
}

const spec = (id: string, pinned = true): ModelSpec => ({
  id,
  description: `test model ${id}`,
  approxMB: 1,
  files: [
    { role: 'encoder', file: 'enc.onnx', url: `${base}/${id}/enc.onnx`, sha256: pinned ? sha(FILES['enc.onnx']!) : null },
    { role: 'decoder', file: 'dec.onnx', url: `${base}/${id}/dec.onnx`, sha256: pinned ? sha(FILES['dec.onnx']!) : null },
    { role: 'tokens', file: 'tokens.txt', url: `${base}/${id}/tokens.txt`, sha256: pinned ? sha(FILES['tokens.txt']!) : null },
  ],
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'models-test-'));
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  behaviour = {};
  requests.length = 0;
});

let n = 0;
const freshManager = (catalogue: ModelSpec[]) => new ModelManager({ dir: join(dir, `m${++n}`), catalogue });

describe('ModelManager', () => {
  it('downloads with progress events, verifies pinned hashes, installs atomically, lists and finds the model', async () => {
    const m = freshManager([spec('tiny')]);
    expect(await m.find('tiny')).toBeNull();
    const events: DownloadProgress[] = [];
    const model = await m.ensureModel('tiny', { onProgress: (p) => events.push(p) });
    expect(model).toMatchObject({ id: 'tiny', source: 'download', verification: 'pinned' });
    expect(model.sha256.encoder).toBe(sha(FILES['enc.onnx']!));
    for (const f of ['enc.onnx', 'dec.onnx', 'tokens.txt']) expect(existsSync(join(model.dir, f))).toBe(true);
    expect(readdirSync(model.dir).filter((f) => f.endsWith('.part') || f.startsWith('.'))).toEqual([]);
    // Progress: per file, from zero, growing, ending at the file's size.
    const dec = events.filter((e) => e.file === 'dec.onnx');
    expect(dec.length).toBeGreaterThan(5);
    expect(dec[0]!.receivedBytes).toBe(0);
    expect(dec.at(-1)).toMatchObject({ receivedBytes: 500_000, totalBytes: 500_000, fileIndex: 1, fileCount: 3 });
    expect(dec.map((e) => e.receivedBytes)).toEqual([...dec.map((e) => e.receivedBytes)].sort((a, b) => a - b));
    expect(progressBar(dec.at(-1)!, 10)).toBe('[##########] 100%  0.5/0.5 MB  dec.onnx (2/3)');
    expect((await m.installed()).map((x) => x.id)).toEqual(['tiny']);
    // Installed: no more requests.
    requests.length = 0;
    await m.ensureModel('tiny');
    expect(requests).toEqual([]);
  });

  it('rejects a file whose hash does not match the pinned one, and removes it', async () => {
    const m = freshManager([spec('base')]);
    behaviour['dec.onnx'] = { corrupt: true };
    await expect(m.ensureModel('base')).rejects.toMatchObject({ code: 'HASH_MISMATCH', message: expect.stringMatching(/dec\.onnx.*failed verification.*removed/) });
    const d = join(m.dir, 'base');
    expect(existsSync(join(d, 'dec.onnx'))).toBe(false);
    expect(existsSync(join(d, 'dec.onnx.part'))).toBe(false);
    expect(existsSync(join(d, 'model.json'))).toBe(false);
    expect(await m.find('base')).toBeNull();
  });

  it('without a pinned hash, checks the hash the server announces (X-Linked-ETag)', async () => {
    const m = freshManager([spec('small', false)]);
    behaviour['enc.onnx'] = { announce: sha(FILES['enc.onnx']!) };
    behaviour['dec.onnx'] = { announce: sha(FILES['dec.onnx']!) };
    behaviour['tokens.txt'] = { announce: sha(FILES['tokens.txt']!) };
    expect((await m.ensureModel('small')).verification).toBe('server');

    const m2 = freshManager([spec('small', false)]);
    behaviour['dec.onnx'] = { announce: 'a'.repeat(64) };
    await expect(m2.ensureModel('small')).rejects.toMatchObject({ code: 'HASH_MISMATCH' });

    const m3 = freshManager([spec('small', false)]);
    behaviour = {};
    const unpinned = await m3.ensureModel('small');
    expect(unpinned.verification).toBe('unpinned');
    expect(unpinned.sha256.decoder).toBe(sha(FILES['dec.onnx']!)); // recorded for later checks
  });

  it('resumes an interrupted download with a Range request', async () => {
    const m = freshManager([spec('medium')]);
    behaviour['dec.onnx'] = { cutAfter: 200_000 };
    await expect(m.ensureModel('medium')).rejects.toMatchObject({ code: 'DOWNLOAD_FAILED', message: expect.stringMatching(/interrupted.*resume/) });
    const part = join(m.dir, 'medium', 'dec.onnx.part');
    expect(existsSync(part)).toBe(true);
    expect(existsSync(join(m.dir, 'medium', 'model.json'))).toBe(false);
    requests.length = 0;
    const events: DownloadProgress[] = [];
    const model = await m.ensureModel('medium', { onProgress: (p) => events.push(p) });
    expect(requests.find((r) => r.path === 'dec.onnx')?.range).toMatch(/^bytes=\d+-$/);
    expect(Number(/\d+/.exec(requests.find((r) => r.path === 'dec.onnx')!.range!)![0])).toBeGreaterThan(0);
    // The encoder, finished before the cut and pinned, is not fetched again.
    expect(requests.some((r) => r.path === 'enc.onnx')).toBe(false);
    expect(events.find((e) => e.file === 'dec.onnx')!.receivedBytes).toBeGreaterThan(0);
    expect(model.sha256.decoder).toBe(sha(FILES['dec.onnx']!));
  });

  it('starts over when the server ignores Range, and still verifies', async () => {
    const m = freshManager([spec('tiny')]);
    behaviour['enc.onnx'] = { cutAfter: 100_000 };
    await expect(m.ensureModel('tiny')).rejects.toMatchObject({ code: 'DOWNLOAD_FAILED' });
    behaviour['enc.onnx'] = { ignoreRange: true };
    const model = await m.ensureModel('tiny');
    expect(model.sha256.encoder).toBe(sha(FILES['enc.onnx']!));
  });

  it('abort stops the download, keeps the partial file for later, installs nothing', async () => {
    const m = freshManager([spec('base')]);
    behaviour['enc.onnx'] = { slow: 20 };
    const ac = new AbortController();
    const p = m.ensureModel('base', { signal: ac.signal, onProgress: (e) => e.receivedBytes > 50_000 && ac.abort() });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(existsSync(join(m.dir, 'base', 'enc.onnx.part'))).toBe(true);
    expect(await m.find('base')).toBeNull();
    behaviour = {};
    expect((await m.ensureModel('base')).verification).toBe('pinned');
  });

  it('concurrent requests for one model share one download', async () => {
    const m = freshManager([spec('tiny')]);
    const [a, b] = await Promise.all([m.ensureModel('tiny'), m.ensureModel('tiny')]);
    expect(a).toEqual(b);
    expect(requests.filter((r) => r.path === 'dec.onnx')).toHaveLength(1);
  });

  it('reports HTTP errors and unknown models clearly', async () => {
    const m = freshManager([spec('tiny')]);
    behaviour['tokens.txt'] = { status: 503 };
    await expect(m.ensureModel('tiny')).rejects.toThrow(/Could not download tokens\.txt for Whisper tiny: HTTP 503/);
    await expect(m.ensureModel('huge')).rejects.toMatchObject({ code: 'UNKNOWN_MODEL', message: expect.stringContaining('known: tiny') });
  });

  it('uses a local model folder (or a file in it), checking pinned hashes when it names a catalogue model', async () => {
    const local = join(dir, 'my-whisper');
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, 'x-encoder.onnx'), FILES['enc.onnx']!);
    writeFileSync(join(local, 'x-encoder.int8.onnx'), FILES['enc.onnx']!);
    writeFileSync(join(local, 'x-decoder.int8.onnx'), FILES['dec.onnx']!);
    writeFileSync(join(local, 'x-tokens.txt'), FILES['tokens.txt']!);
    const m = freshManager([spec('tiny')]);
    const model = await m.useLocalModel(join(local, 'x-decoder.int8.onnx'));
    expect(model).toMatchObject({ id: 'local', source: 'local', verification: 'local', encoder: join(local, 'x-encoder.int8.onnx') });
    expect((await m.installed()).map((x) => x.id)).toEqual(['local']);
    expect((await m.useLocalModel(local, { id: 'tiny' })).verification).toBe('pinned');
    writeFileSync(join(local, 'x-tokens.txt'), 'different\n');
    await expect(m.useLocalModel(local, { id: 'tiny' })).rejects.toMatchObject({ code: 'HASH_MISMATCH' });
    rmSync(join(local, 'x-tokens.txt'));
    await expect(m.useLocalModel(local)).rejects.toThrow(/is not a Whisper model folder: it lacks a \*tokens\*\.txt/);
    await expect(m.useLocalModel(join(dir, 'nowhere'))).rejects.toMatchObject({ code: 'NOT_A_MODEL' });
  });

  it('a mirror replaces the catalogue address; the pinned hashes stay', () => {
    const [tiny] = mirrored(WHISPER_CATALOGUE, 'http://files.clinic.lan/whisper/');
    expect(tiny!.files[0]!.url).toBe('http://files.clinic.lan/whisper/sherpa-onnx-whisper-tiny/resolve/18e7b4cce9526312a66981ec3af7b9446b70db66/tiny-encoder.int8.onnx');
    expect(tiny!.files[0]!.sha256).toBe(WHISPER_CATALOGUE[0]!.files[0]!.sha256);
  });
});

describe('clinic-desk transcribe', () => {
  const capture = () => {
    let text = '';
    return { write: (s: string) => (text += s), get text() { return text; }, isTTY: false };
  };

  it('--help, usage errors', async () => {
    const out = capture();
    expect(await runTranscribeCli(['--help'], out, capture())).toBe(0);
    expect(out.text).toContain('Usage: clinic-desk transcribe FILE');
    const err = capture();
    expect(await runTranscribeCli(['transcribe'], capture(), err)).toBe(2);
    expect(err.text).toContain('which file?');
    expect(await runTranscribeCli(['x.wav', '--language', 'fr'], capture(), err)).toBe(2);
    expect(err.text).toContain('unknown language fr');
  });

  it('--download-model from a mirror prints progress lines, then --list-models shows it installed', async () => {
    const dataDir = join(dir, 'cli-data');
    // The test server, as a mirror, answers each catalogue file name with stand-in bytes. tiny's pinned hashes
    // reject them; base (not pinned yet) installs as "unpinned".
    const saved = process.env.CLINIC_DESK_MODEL_MIRROR;
    process.env.CLINIC_DESK_MODEL_MIRROR = base;
    for (const s of WHISPER_CATALOGUE) {
      for (const f of s.files) FILES[f.file] = FILES[f.role === 'encoder' ? 'enc.onnx' : f.role === 'decoder' ? 'dec.onnx' : 'tokens.txt']!;
    }
    try {
      const err = capture();
      expect(await runTranscribeCli(['--download-model', 'tiny', '--data-dir', dataDir], capture(), err)).toBe(1);
      expect(err.text).toMatch(/\[#+\.*\] +\d+%/);
      expect(err.text).toMatch(/tiny-encoder\.int8\.onnx for Whisper tiny failed verification/);
      const ok = capture();
      expect(await runTranscribeCli(['--download-model', 'base', '--data-dir', dataDir], capture(), ok)).toBe(0);
      expect(ok.text).toMatch(/100% .*base-tokens\.txt \(3\/3\)/);
      expect(ok.text).toMatch(/Whisper base is installed in .* \(verification: unpinned\)/);
      const list = capture();
      expect(await runTranscribeCli(['--list-models', '--data-dir', dataDir], list, capture())).toBe(0);
      expect(list.text).toMatch(/^base .* installed/m);
      expect(list.text).toMatch(/^tiny .* -/m);
    } finally {
      if (saved === undefined) delete process.env.CLINIC_DESK_MODEL_MIRROR;
      else process.env.CLINIC_DESK_MODEL_MIRROR = saved;
    }
  });

  // The first file of a worker to link the model builds it: the time allowed covers that.
  it('prints the transcript of a file; fails naming an undecodable file', { ...skipFor(missing('espeak-ng', 'pocketsphinx', 'ffmpeg')), timeout: 120_000 }, async () => {
    const dataDir = join(dir, 'cli-data-2');
    // The run's domain model, already built (helpers/speech-model.ts): else the first transcription builds it.
    await linkSpeechModelInto(dataDir);
    const wav = join(dir, 'visit.wav');
    await speak(TEST_DICTATIONS.short, wav);
    const out = capture();
    const err = capture();
    const code = await runTranscribeCli(['transcribe', wav, '--data-dir', dataDir], out, err);
    expect(err.text).toBe('');
    expect(code).toBe(0);
    expect(out.text).toMatch(/paracetamol/);
    // Only the JSON's engine and language are checked: a few words say them as well as the whole dictation.
    const brief = join(dir, 'brief.wav');
    await speak('Review in two weeks.', brief);
    const json = capture();
    expect(await runTranscribeCli([brief, '--json', '--data-dir', dataDir], json, capture())).toBe(0);
    expect(JSON.parse(json.text)).toMatchObject({ engine: 'pocketsphinx:en-us+clinic-lm', language: 'en-IN' });
    const bad = join(dir, 'notes.m4a');
    writeFileSync(bad, 'plain text');
    const e2 = capture();
    expect(await runTranscribeCli([bad, '--data-dir', dataDir], capture(), e2)).toBe(1);
    expect(e2.text).toMatch(/Could not decode "notes\.m4a"/);
    const e3 = capture();
    expect(await runTranscribeCli([wav, '-l', 'ml', '--model-type', 'pro', '--data-dir', dataDir], capture(), e3)).toBe(1);
    expect(e3.text).toMatch(/No installed speech engine supports Malayalam \(ml\)/);
  });
});
