/**
 * `npm run bench:speech -- [--fixtures PATH] [--voice en-us] [--wpm 150] [--keep]`
 *
 * 1. Real-time factor of decode + speech check + recognition + structuring on a ~60 s spoken
 *    dictation uploaded as webm/opus (what a browser's MediaRecorder sends), with the default engine (PocketSphinx
 *    and the generated domain model; the model is built before timing starts, as it is cached in use).
 *    RTF = wall-clock seconds / audio seconds; target ≤ 0.2.
 * 2. PocketSphinx's word error rate on the 20 dev dictations (shared fixtures), each spoken by espeak-ng, decoded
 *    from WAV. The dev transcripts are the test audio and the reference only; they are never in the language model.
 *
 * Synthetic speech fits the acoustic model poorly, so these are pipeline and regression figures, not a forecast
 * of accuracy on real doctors. Results go to bench/results/speech-latest.json.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { decodeToPcm } from '../server/scribe/audio/decode.js';
import { assertSpeech } from '../server/scribe/audio/speech.js';
import { PocketSphinxEngine } from '../server/scribe/asr/pocketsphinx.js';
import { wordErrors } from '../server/scribe/asr/wer.js';
import { structure } from '../server/scribe/structure/structure.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const TARGET_RTF = 0.2;

const { values } = parseArgs({
  options: {
    fixtures: { type: 'string', default: '/work/shared/fixtures/dictations-dev.jsonl' },
    voice: { type: 'string', default: 'en-us' },
    wpm: { type: 'string', default: '150' },
    'lm-cache': { type: 'string' },
    keep: { type: 'boolean' },
  },
});

interface Dictation {
  id: string;
  locale: string;
  mode: string;
  transcript: string;
}

async function speak(text: string, wav: string) {
  await run('espeak-ng', ['-v', values.voice!, '-s', values.wpm!, '-w', wav, text], { maxBuffer: 1 << 24 });
}

async function main() {
  const dictations = readFileSync(values.fixtures!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Dictation);
  const work = mkdtempSync(join(tmpdir(), 'bench-speech-'));
  const pcmDir = join(work, 'pcm');
  mkdirSync(pcmDir);
  const cacheDir = values['lm-cache'] ?? join(tmpdir(), 'clinic-desk-bench-lm');
  const engine = new PocketSphinxEngine({ cacheDir });
  const reason = await engine.unavailableReason();
  if (reason) throw new Error(reason);
  const t0 = performance.now();
  const lm = await engine.domainModel();
  const lmBuildS = (performance.now() - t0) / 1000;
  console.log(`domain model: ${lm.meta.sentences} sentences, ${lm.meta.words} words, n-grams ${lm.meta.ngrams.join('/')} (${lmBuildS.toFixed(1)} s, cached in ${lm.dir})`);

  // 1. RTF on ~60 s: dev transcripts joined until about 150 words (60 s at 150 wpm).
  const words: string[] = [];
  for (const d of dictations) {
    if (words.length >= 150) break;
    words.push(...d.transcript.split(/\s+/));
  }
  const longText = words.slice(0, 155).join(' ');
  const longWav = join(work, 'long.wav');
  const longWebm = join(work, 'long.webm');
  await speak(longText, longWav);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', longWav, '-c:a', 'libopus', '-b:a', '32k', longWebm]);
  const rtfRuns: { decodeS: number; recogniseS: number; structureS: number; audioS: number; rtf: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const a = performance.now();
    const pcm = await decodeToPcm(longWebm, pcmDir);
    await assertSpeech(pcm, 'long.webm');
    const b = performance.now();
    const tr = await engine.transcribe(pcm, { language: 'en-IN' });
    const c = performance.now();
    structure(tr.text, { locale: 'en-IN' });
    const d = performance.now();
    rmSync(pcm.path);
    const total = (d - a) / 1000;
    rtfRuns.push({ decodeS: (b - a) / 1000, recogniseS: (c - b) / 1000, structureS: (d - c) / 1000, audioS: pcm.durationS, rtf: total / pcm.durationS });
  }
  rtfRuns.sort((x, y) => x.rtf - y.rtf);
  const median = rtfRuns[1]!;
  console.log(`RTF on ${median.audioS.toFixed(1)} s webm/opus: ${median.rtf.toFixed(3)} (decode ${median.decodeS.toFixed(2)} s, recognition ${median.recogniseS.toFixed(2)} s, ` +
    `structuring ${median.structureS.toFixed(3)} s; median of 3) target ≤ ${TARGET_RTF}: ${median.rtf <= TARGET_RTF ? 'PASS' : 'FAIL'}`);

  // 2. WER on the dev dictations.
  const perFile: { id: string; locale: string; mode: string; audioS: number; refWords: number; errors: number; wer: number; rtf: number; hypothesis: string }[] = [];
  for (const d of dictations) {
    const wav = join(work, `${d.id}.wav`);
    await speak(d.transcript, wav);
    const a = performance.now();
    const pcm = await decodeToPcm(wav, pcmDir);
    const tr = await engine.transcribe(pcm, { language: d.locale === 'en-US' ? 'en-US' : 'en-IN' });
    const secs = (performance.now() - a) / 1000;
    const w = wordErrors(d.transcript, tr.text);
    perFile.push({ id: d.id, locale: d.locale, mode: d.mode, audioS: pcm.durationS, refWords: w.refWords, errors: w.errors, wer: w.wer, rtf: secs / pcm.durationS, hypothesis: tr.text });
    console.log(`  ${d.id} ${d.locale} ${d.mode.padEnd(12)} ${pcm.durationS.toFixed(1).padStart(5)} s  WER ${(w.wer * 100).toFixed(1).padStart(5)}%  RTF ${(secs / pcm.durationS).toFixed(3)}`);
    rmSync(pcm.path);
  }
  const refWords = perFile.reduce((n, f) => n + f.refWords, 0);
  const errors = perFile.reduce((n, f) => n + f.errors, 0);
  const audioS = perFile.reduce((n, f) => n + f.audioS, 0);
  const wer = errors / refWords;
  console.log(`PocketSphinx WER on ${perFile.length} dev dictations (espeak-ng ${values.voice}, ${values.wpm} wpm; ${refWords} words, ${audioS.toFixed(0)} s): ${(wer * 100).toFixed(1)}%`);

  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
    engine: engine.id,
    languageModel: lm.meta,
    rtf: { target: TARGET_RTF, median, runs: rtfRuns },
    wer: { value: wer, refWords, errors, audioS, voice: values.voice, wpm: Number(values.wpm), perFile },
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'speech-latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`audio kept in ${work}`);
}

main().catch((e: unknown) => {
  console.error(`bench:speech: ${(e as Error).message}`);
  process.exit(1);
});
