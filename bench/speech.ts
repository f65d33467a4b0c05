/**
 * `npm run bench:speech -- [--fixtures PATH] [--files N] [--rtf-runs R] [--voice en-us] [--wpm 150] [--keep]`
 *
 * 1. Real-time factor of decode + speech check + recognition + structuring on a ~60 s spoken
 *    dictation uploaded as webm/opus (what a browser's MediaRecorder sends), with the default engine (PocketSphinx
 *    and the generated domain model; the model is built before timing starts, as it is cached in use).
 *    RTF = wall-clock seconds / audio seconds; target ≤ 0.2.
 * 2. PocketSphinx's word error rate on the 20 dev dictations (shared fixtures; `--files N`: the first N), each
 *    spoken by espeak-ng, decoded from WAV. The dev transcripts are the test audio and the reference only; they are
 *    never in the language model. The reference figure is 35–45%: reported, not judged.
 * 3. Structuring time per transcript (rule-based, in process): every dev transcript and every recognised text,
 *    each structured 20 times after a warm-up. A transcript's time is the median of its 20 (a pause of the shared
 *    machine or a GC then spoils one call, not the transcript); mean and p99 over transcripts, target p99 < 20 ms.
 *    The p99 of all single calls is reported too: the gap between the two is the machine's noise.
 *
 * Synthetic speech fits the acoustic model poorly, so these are pipeline and regression figures, not a forecast
 * of accuracy on real doctors. Results go to bench/results/speech.json.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { decodeToPcm } from '../server/scribe/audio/decode.js';
import { assertSpeech } from '../server/scribe/audio/speech.js';
import { PocketSphinxEngine } from '../server/scribe/asr/pocketsphinx.js';
import { wordErrors } from '../server/scribe/asr/wer.js';
import { structure } from '../server/clinical-nlp/structure.js';
import { speak as speakTo } from '../eval/spoken.js';
import { figure, round, summarise, writeResults } from './common.js';

const run = promisify(execFile);
const TARGET_RTF = 0.2;
const TARGET_STRUCTURE_P99_MS = 20;

const { values } = parseArgs({
  options: {
    fixtures: { type: 'string', default: '/work/shared/fixtures/dictations-dev.jsonl' },
    voice: { type: 'string', default: 'en-us' },
    wpm: { type: 'string', default: '150' },
    files: { type: 'string' },
    'rtf-runs': { type: 'string', default: '3' },
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

const speak = (text: string, wav: string) => speakTo(text, wav, { voice: values.voice!, wpm: Number(values.wpm!) });

async function main() {
  const all = readFileSync(values.fixtures!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Dictation);
  const dictations = values.files ? all.slice(0, Math.max(1, Number(values.files))) : all;
  const rtfRunCount = Math.max(1, Math.floor(Number(values['rtf-runs'])));
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
  for (const d of all) {
    if (words.length >= 150) break;
    words.push(...d.transcript.split(/\s+/));
  }
  const longText = words.slice(0, 155).join(' ');
  const longWav = join(work, 'long.wav');
  const longWebm = join(work, 'long.webm');
  await speak(longText, longWav);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', longWav, '-c:a', 'libopus', '-b:a', '32k', longWebm]);
  const rtfRuns: { decodeS: number; recogniseS: number; structureS: number; audioS: number; rtf: number }[] = [];
  for (let i = 0; i < rtfRunCount; i++) {
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
  const median = rtfRuns[Math.floor((rtfRuns.length - 1) / 2)]!;
  console.log(`RTF on ${median.audioS.toFixed(1)} s webm/opus: ${median.rtf.toFixed(3)} (decode ${median.decodeS.toFixed(2)} s, recognition ${median.recogniseS.toFixed(2)} s, ` +
    `structuring ${median.structureS.toFixed(3)} s; median of ${rtfRuns.length}) target ≤ ${TARGET_RTF}: ${median.rtf <= TARGET_RTF ? 'PASS' : 'MISS'}`);

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

  // 3. Structuring alone: what the doctor waits for after recognition, on clean and on recognised text.
  const texts = [...dictations.map((d) => ({ text: d.transcript, locale: d.locale })), ...perFile.map((f) => ({ text: f.hypothesis, locale: f.locale }))];
  for (const t of texts) structure(t.text, { locale: t.locale });
  const perCall: number[] = [];
  const perText = texts.map((t) => {
    const ms: number[] = [];
    for (let r = 0; r < 20; r++) {
      const a = performance.now();
      structure(t.text, { locale: t.locale });
      ms.push(performance.now() - a);
    }
    perCall.push(...ms);
    return summarise(ms).p50;
  });
  const structuring = summarise(perText);
  const calls = summarise(perCall);
  console.log(`structuring per transcript (${texts.length} texts, median of 20 each): mean ${structuring.mean.toFixed(2)} ms, p99 ${structuring.p99.toFixed(2)} ms; `
    + `target p99 < ${TARGET_STRUCTURE_P99_MS} ms: ${structuring.p99 < TARGET_STRUCTURE_P99_MS ? 'PASS' : 'MISS'} (single calls: p99 ${calls.p99.toFixed(2)} ms, max ${calls.max.toFixed(2)} ms)`);

  const result = {
    engine: engine.id,
    languageModel: lm.meta,
    rtf: { target: TARGET_RTF, median, runs: rtfRuns },
    wer: { value: wer, refWords, errors, audioS, voice: values.voice, wpm: Number(values.wpm), perFile },
    structuringMs: { perTranscript: structuring, singleCalls: calls, texts: texts.length, repetitions: 20 },
  };
  writeResults('speech', result, [
    figure(`speech RTF, ${median.audioS.toFixed(0)} s webm/opus (decode+recognition+structuring)`, round(median.rtf, 3), '', { op: '<=', value: TARGET_RTF }),
    figure(`PocketSphinx WER, ${perFile.length} dev dictations (reference 35-45%)`, round(wer * 100, 1), '%'),
    figure('structuring per transcript, mean', structuring.mean, 'ms'),
    figure('structuring per transcript, p99', structuring.p99, 'ms', { op: '<', value: TARGET_STRUCTURE_P99_MS }),
    figure('structuring, p99 of single calls (noise)', calls.p99, 'ms'),
  ]);
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`audio kept in ${work}`);
}

main().catch((e: unknown) => {
  console.error(`bench:speech: ${(e as Error).message}`);
  process.exit(1);
});
