/**
 * Speech recognition: PocketSphinx on a spoken dictation of our own (WER bound, key words, progress, abort),
 * the Whisper engine's error paths (no model, garbage model), piece planning, and the engine-choice rules.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AsrEngine, Language, PcmAudio, Transcript } from '../../server/scribe/contracts.js';
import { LANGUAGES } from '../../server/scribe/contracts.js';
import { decodeToPcm } from '../../server/scribe/audio/decode.js';
import { chooseEngine, createEngines, preferenceOrder } from '../../server/scribe/asr/choose.js';
import { EngineUnavailableError, NoEngineError } from '../../server/scribe/asr/engine.js';
import { ModelManager } from '../../server/scribe/asr/models.js';
import { PocketSphinxEngine, hasDigitalSilence, parsePocketSphinxOutput } from '../../server/scribe/asr/pocketsphinx.js';
import { WhisperEngine, loadSherpa, planPieces, whisperLanguage } from '../../server/scribe/asr/whisper.js';
import { wordErrors } from '../../server/scribe/asr/wer.js';
import { has, missing } from '../helpers/needs.js';
import { skipFor } from '../helpers/skip.js';
import { linkSpeechModel } from '../helpers/speech-model.js';
import { TEST_DICTATIONS, speak } from '../helpers/speech-audio.js';

let dir = '';
// One LM cache for the file, so the model is generated once.
let cacheDir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'speech-test-'));
  cacheDir = join(dir, 'speech');
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('PocketSphinx with the domain model', skipFor(missing('espeak-ng', 'pocketsphinx', 'ffmpeg')), () => {
  let pcm: PcmAudio;
  let engine: PocketSphinxEngine;
  beforeAll(async () => {
    const wav = join(dir, 'fever.wav');
    await speak(TEST_DICTATIONS.fever, wav);
    mkdirSync(join(dir, 'pcm'), { recursive: true });
    pcm = await decodeToPcm(wav, join(dir, 'pcm'));
    await linkSpeechModel(cacheDir);
    engine = new PocketSphinxEngine({ cacheDir });
    await engine.domainModel();
  });

  it('is available here', async () => {
    expect(await engine.unavailableReason()).toBeNull();
  });

  it('transcribes a spoken dictation: WER under 70%, key words present, timed segments, progress to 1', async () => {
    const progress: number[] = [];
    const t0 = performance.now();
    const tr = await engine.transcribe(pcm, { language: 'en-IN', onProgress: (f) => progress.push(f) });
    const seconds = (performance.now() - t0) / 1000;
    const { wer } = wordErrors(TEST_DICTATIONS.fever, tr.text);
    console.log(`PocketSphinx: WER ${(wer * 100).toFixed(1)}%, RTF ${(seconds / pcm.durationS).toFixed(2)} on ${pcm.durationS.toFixed(1)} s\n  ${tr.text}`);
    expect(wer).toBeLessThan(0.7);
    for (const w of ['fever', 'paracetamol', 'days']) expect(tr.text.split(' ')).toContain(w);
    expect(tr).toMatchObject({ language: 'en-IN', engine: 'pocketsphinx:en-us+clinic-lm' });
    expect(tr.segments.length).toBeGreaterThan(0);
    for (const s of tr.segments) {
      expect(s.end).toBeGreaterThan(s.start);
      expect(s.end).toBeLessThanOrEqual(pcm.durationS + 0.5);
    }
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
  });

  it('abort kills the recogniser', async () => {
    const ac = new AbortController();
    const p = engine.transcribe(pcm, { language: 'en-US', signal: ac.signal });
    setTimeout(() => ac.abort(), 150);
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise((r) => setTimeout(r, 100));
    const running = (() => {
      try {
        return execFileSync('pgrep', ['-f', pcm.path], { encoding: 'utf8' }).trim();
      } catch {
        return '';
      }
    })();
    expect(running).toBe('');
  });

  it('refuses languages other than English', async () => {
    await expect(engine.transcribe(pcm, { language: 'hi' })).rejects.toBeInstanceOf(NoEngineError);
  });
});

describe('PocketSphinx without its program', () => {
  it('reports why it is unavailable', async () => {
    const e = new PocketSphinxEngine({ cacheDir: join(tmpdir(), 'unused'), binary: '/nonexistent/pocketsphinx_continuous' });
    expect(await e.unavailableReason()).toMatch(/PocketSphinx is not installed.*apt-get install pocketsphinx pocketsphinx-en-us/);
  });

  it('parses its word timings into segments, dropping fillers and variant numbers', () => {
    const out = ['fever since two days', '<s> 0.000 0.090 0.99', 'fever 0.100 0.500 0.9', '<sil> 0.510 0.600 1.0', 'since(2) 0.610 0.900 0.8',
      '[NOISE] 0.91 1.0 0.5', 'two 1.010 1.200 0.7', 'days 1.210 1.500 0.7', '</s> 1.510 1.700 1.0', 'review 3.000 3.400 0.9', '</s> 3.41 3.5 1.0'].join('\n');
    expect(parsePocketSphinxOutput(out)).toEqual([
      {
        start: 0.1, end: 1.5, text: 'fever since two days',
        words: [
          { word: 'fever', start: 0.1, end: 0.5, conf: 0.9 }, { word: 'since', start: 0.61, end: 0.9, conf: 0.8 },
          { word: 'two', start: 1.01, end: 1.2, conf: 0.7 }, { word: 'days', start: 1.21, end: 1.5, conf: 0.7 },
        ],
      },
      { start: 3, end: 3.4, text: 'review', words: [{ word: 'review', start: 3, end: 3.4, conf: 0.9 }] },
    ]);
  });

  it('keeps noise removal for a microphone-like noise floor, drops it for recordings with digital silence', () => {
    // 10 s of a 200 Hz tone at about -15 dBFS, silent one second in five (as synthetic speech pauses).
    const seeded = (() => {
      let a = 7;
      return () => ((a = (a * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
    })();
    const make = (noiseAmplitude: number) => Int16Array.from({ length: 160_000 }, (_, i) => {
      const tone = i % 80_000 < 16_000 ? 0 : 6000 * Math.sin((2 * Math.PI * 200 * i) / 16_000);
      return Math.round(tone + noiseAmplitude * seeded());
    });
    expect(hasDigitalSilence(make(0))).toBe(true);
    // Hiss at about -50 dBFS under everything: a real room's floor.
    expect(hasDigitalSilence(make(180))).toBe(false);
    expect(hasDigitalSilence(new Int16Array(0))).toBe(false);
  });
});

describe('Whisper (sherpa-onnx-node)', () => {
  it('maps the interface languages to Whisper codes', () => {
    expect(LANGUAGES.map(whisperLanguage)).toEqual(['en', 'en', 'hi', 'gu', 'kn', 'ml', 'ta', 'te', 'bn', 'mr', 'pa']);
  });

  it('the native module loads on this platform', () => {
    expect(loadSherpa().error).toBeNull();
  });

  it('with no model: unavailable with a reason that says how to get one; transcribe fails cleanly', async () => {
    const manager = new ModelManager({ dir: join(dir, 'models-empty') });
    const e = new WhisperEngine({ manager, modelId: 'small' });
    expect(e.languages).toEqual(LANGUAGES);
    const reason = await e.unavailableReason();
    expect(reason).toMatch(/Whisper model "small" is not installed.*--download-model small.*CLINIC_DESK_WHISPER_MODEL/);
    const pcm = { path: join(dir, 'none.s16le'), durationS: 1, rms: 0.1 };
    await expect(e.transcribe(pcm, { language: 'ta' })).rejects.toBeInstanceOf(EngineUnavailableError);
  });

  it('with garbage model files: fails that transcription cleanly (no crash) and is unavailable afterwards', async () => {
    const modelDir = join(dir, 'garbage-model');
    mkdirSync(modelDir, { recursive: true });
    writeFileSync(join(modelDir, 'small-encoder.int8.onnx'), Buffer.alloc(4096, 7));
    writeFileSync(join(modelDir, 'small-decoder.int8.onnx'), 'not a model');
    writeFileSync(join(modelDir, 'small-tokens.txt'), 'a 0\nb 1\n');
    const manager = new ModelManager({ dir: join(dir, 'models-garbage') });
    await manager.useLocalModel(modelDir);
    const e = new WhisperEngine({ manager, modelId: 'local' });
    expect(await e.unavailableReason()).toBeNull();
    const pcmPath = join(dir, 'tone.s16le');
    const samples = new Int16Array(16_000);
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin(i / 10));
    writeFileSync(pcmPath, Buffer.from(samples.buffer));
    const err = await e.transcribe({ path: pcmPath, durationS: 1, rms: 0.17 }, { language: 'hi' }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(EngineUnavailableError);
    expect((err as Error).message).toMatch(/Whisper model "local" could not be loaded/);
    expect(await e.unavailableReason()).toMatch(/could not be loaded/);
  });

  it('cuts long audio into pieces of at most 28 s, at the quiet moments', () => {
    const sr = 16_000;
    const samples = new Int16Array(70 * sr);
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round(6000 * Math.sin(i / 7));
    // A pause at 24.0-24.5 s: the first cut should land in it.
    samples.fill(0, 24 * sr, 24.5 * sr);
    const pieces = planPieces(samples);
    expect(pieces[0]!.start).toBe(0);
    expect(pieces.at(-1)!.end).toBe(samples.length);
    for (const [i, p] of pieces.entries()) {
      expect(p.end - p.start).toBeLessThanOrEqual(28 * sr);
      if (i > 0) expect(p.start).toBe(pieces[i - 1]!.end);
    }
    expect(pieces[0]!.end / sr).toBeGreaterThanOrEqual(24);
    expect(pieces[0]!.end / sr).toBeLessThanOrEqual(24.5);
    expect(planPieces(new Int16Array(10 * sr))).toEqual([{ start: 0, end: 10 * sr }]);
  });
});

/** A stand-in engine for the rules: id, languages, and whether it is "installed". */
function fake(id: string, languages: readonly Language[], unavailable: string | null = null): AsrEngine {
  return {
    id,
    languages,
    unavailableReason: async () => unavailable,
    transcribe: async (): Promise<Transcript> => ({ text: '', language: 'en-IN', engine: id, segments: [] }),
  };
}

describe('chooseEngine', () => {
  const sphinx = fake('pocketsphinx:en-us+clinic-lm', ['en-IN', 'en-US']);
  const tiny = fake('whisper:tiny', LANGUAGES);
  const small = fake('whisper:small', LANGUAGES);
  const medium = fake('whisper:medium', LANGUAGES);
  const all = [small, sphinx, medium, tiny];

  it('lite English → PocketSphinx; pro English → the largest Whisper model', async () => {
    expect((await chooseEngine({ modelType: 'lite', inputLanguages: ['en-IN'] }, all)).id).toBe(sphinx.id);
    expect((await chooseEngine({ modelType: 'pro', inputLanguages: ['en-US'] }, all)).id).toBe('whisper:medium');
    expect(preferenceOrder({ modelType: 'lite', inputLanguages: ['en-IN'] }, all).map((e) => e.id)).toEqual([sphinx.id, 'whisper:tiny', 'whisper:small', 'whisper:medium']);
  });

  it('other languages → Whisper: largest for pro, smallest for lite; mixed languages need an engine for all', async () => {
    expect((await chooseEngine({ modelType: 'pro', inputLanguages: ['hi'] }, all)).id).toBe('whisper:medium');
    expect((await chooseEngine({ modelType: 'lite', inputLanguages: ['ta'] }, all)).id).toBe('whisper:tiny');
    expect((await chooseEngine({ modelType: 'lite', inputLanguages: ['en-IN', 'hi'] }, all)).id).toBe('whisper:tiny');
  });

  it('skips engines that are not installed, falling back to PocketSphinx for English', async () => {
    const noModel = fake('whisper:small', LANGUAGES, 'Whisper model "small" is not installed');
    expect((await chooseEngine({ modelType: 'pro', inputLanguages: ['en-IN'] }, [noModel, sphinx])).id).toBe(sphinx.id);
    const noSphinx = fake(sphinx.id, sphinx.languages, 'PocketSphinx is not installed');
    expect((await chooseEngine({ modelType: 'lite', inputLanguages: ['en-IN'] }, [noSphinx, small])).id).toBe('whisper:small');
  });

  it('no language given → English (India)', async () => {
    expect((await chooseEngine({ modelType: 'lite', inputLanguages: [] }, all)).id).toBe(sphinx.id);
  });

  it('a language no installed engine supports fails clearly, saying why for each engine', async () => {
    const noModel = fake('whisper:small', LANGUAGES, 'Whisper model "small" is not installed');
    const err = await chooseEngine({ modelType: 'lite', inputLanguages: ['hi'] }, [noModel, sphinx]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoEngineError);
    expect((err as Error).message).toBe(
      'No installed speech engine supports Hindi (hi): whisper:small: Whisper model "small" is not installed; pocketsphinx:en-us+clinic-lm: English only');
    await expect(chooseEngine({ modelType: 'pro', inputLanguages: ['kn'] }, [])).rejects.toThrow(/Kannada \(kn\) \(no engines are configured\)/);
  });

  it('createEngines on a fresh data dir: Whisper offered but not installed, PocketSphinx for English, Tamil fails', async () => {
    const dataDir = join(dir, 'fresh-data');
    const engines = await createEngines({ dataDir });
    expect(engines.map((e) => e.id)).toEqual(['whisper:small', 'pocketsphinx:en-us+clinic-lm']);
    await expect(chooseEngine({ modelType: 'pro', inputLanguages: ['ta'] }, engines)).rejects.toThrow(/No installed speech engine supports Tamil \(ta\): whisper:small: Whisper model "small" is not installed/);
    if (has('pocketsphinx') && has('espeak-ng')) {
      expect((await chooseEngine({ modelType: 'pro', inputLanguages: ['en-IN'] }, engines)).id).toBe('pocketsphinx:en-us+clinic-lm');
    }
  });

  it('createEngines with a bad CLINIC_DESK_WHISPER_MODEL reports it', async () => {
    const engines = await createEngines({ dataDir: join(dir, 'bad-local'), localWhisperModel: join(dir, 'no-such-model') });
    const err = (await chooseEngine({ modelType: 'pro', inputLanguages: ['bn'] }, engines).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/CLINIC_DESK_WHISPER_MODEL: No Whisper model at/);
  });
});
