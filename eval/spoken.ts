/**
 * The eval's `spoken` mode: espeak-ng speaks each transcript to WAV and the project's default engine (PocketSphinx
 * with the generated domain model, server/scribe/asr/pocketsphinx.ts) transcribes it, two at a time (PocketSphinx
 * keeps one core busy). About 10 s of work per dictation, so each recognised transcript is cached under
 * bench/results/spoken-cache/ (gitignored with bench/results/), keyed by what decides it: the text spoken, the
 * voice and rate, espeak-ng's version, the engine id and source, its domain model's hash (a changed vocabulary
 * builds a new model) and the acoustic model's and decoder's files (name, size, mtime). The whole Transcript is
 * kept (segments, word times and confidences). A rerun with nothing changed is fast.
 *
 * What is spoken is the transcript without its speaker labels: a recording has voices, not "Doctor:".
 * Synthetic speech fits the acoustic model poorly, so these figures track the pipeline, not real doctors.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Language, Transcript } from '../server/scribe/contracts.js';
import { decodeToPcm, findOnPath } from '../server/scribe/audio/decode.js';
import { DEFAULT_POCKETSPHINX_MODEL_DIR, PocketSphinxEngine } from '../server/scribe/asr/pocketsphinx.js';
import { withoutSpeakerLabels } from './asr-form.js';

const run = promisify(execFile);

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SPOKEN_CACHE = join(ROOT, 'bench', 'results', 'spoken-cache');
const ENGINE_SOURCE = join(ROOT, 'server', 'scribe', 'asr', 'pocketsphinx.ts');

export interface SpeakOptions {
  voice?: string;
  wpm?: number;
}

/** espeak-ng reads `text` into a WAV file. */
export async function speak(text: string, wavPath: string, opts: SpeakOptions = {}): Promise<void> {
  await run('espeak-ng', ['-v', opts.voice ?? 'en-us', '-s', String(opts.wpm ?? 150), '-w', wavPath, text], { maxBuffer: 1 << 24 });
}

export interface SpokenOptions extends SpeakOptions {
  /** Where recognised transcripts are cached (default bench/results/spoken-cache). */
  cacheDir?: string;
  /** Where PocketSphinx's domain model is cached (default the one bench:speech uses). */
  lmCacheDir?: string;
  concurrency?: number;
  /** Progress lines (default stderr). */
  log?: (line: string) => void;
}

export interface SpokenResult {
  id: string;
  transcript: Transcript;
  cached: boolean;
  /** Seconds of audio, and of speaking + recognising it (0 when cached). */
  audioS: number;
  seconds: number;
}

/** Name, size and mtime of each file: enough to notice a reinstalled model or decoder. */
async function filesIdentity(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const st = await stat(p).catch(() => null);
    if (!st) continue;
    if (st.isDirectory()) out.push(...(await filesIdentity((await readdir(p)).sort().map((f) => join(p, f)))));
    else out.push(`${p}:${st.size}:${Math.round(st.mtimeMs)}`);
  }
  return out;
}

/** Everything except the text that decides what the recogniser returns, as one string for the cache keys. */
async function engineIdentity(engine: PocketSphinxEngine, opts: SpokenOptions): Promise<string> {
  const lm = await engine.domainModel();
  const modelDir = process.env.CLINIC_DESK_POCKETSPHINX_MODEL ?? DEFAULT_POCKETSPHINX_MODEL_DIR;
  const binary = process.env.CLINIC_DESK_POCKETSPHINX ?? findOnPath('pocketsphinx_continuous');
  const espeak = (await run('espeak-ng', ['--version'])).stdout.trim();
  const files = await filesIdentity([join(modelDir, 'en-us'), ...(binary ? [binary] : [])]);
  // The engine's id stays when its decoder flags or what it keeps of the output (word times, confidences) change.
  const source = createHash('sha256').update(await readFile(ENGINE_SOURCE)).digest('hex');
  return JSON.stringify({ engine: engine.id, source, lm: lm.meta.hash, files, espeak, voice: opts.voice ?? 'en-us', wpm: opts.wpm ?? 150 });
}

/**
 * Speaks and transcribes each dictation (cached; see the top of the file). Results come back in input order;
 * throws when espeak-ng or PocketSphinx is not installed, with the reason.
 */
export async function spokenTranscripts(items: { id: string; locale: string; text: string }[], opts: SpokenOptions = {}): Promise<SpokenResult[]> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (!findOnPath('espeak-ng')) throw new Error('spoken mode needs espeak-ng (apt-get install espeak-ng)');
  const engine = new PocketSphinxEngine({ cacheDir: opts.lmCacheDir ?? join(tmpdir(), 'clinic-desk-bench-lm') });
  const reason = await engine.unavailableReason();
  if (reason) throw new Error(reason);
  const cacheDir = opts.cacheDir ?? SPOKEN_CACHE;
  await mkdir(cacheDir, { recursive: true });
  const identity = await engineIdentity(engine, opts);
  const work = await mkdtemp(join(tmpdir(), 'clinic-desk-spoken-'));
  const results: SpokenResult[] = new Array(items.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      const item = items[i]!;
      const text = withoutSpeakerLabels(item.text);
      const file = join(cacheDir, `${createHash('sha256').update(identity).update('\0').update(text).digest('hex').slice(0, 32)}.json`);
      let result: SpokenResult;
      if (existsSync(file) && statSync(file).size > 0) {
        const { audioS, ...transcript } = JSON.parse(await readFile(file, 'utf8')) as Transcript & { audioS: number };
        result = { id: item.id, transcript, cached: true, audioS, seconds: 0 };
      } else {
        const t0 = performance.now();
        const wav = join(work, `${i}.wav`);
        await speak(text, wav, opts);
        const pcm = await decodeToPcm(wav, work);
        const language: Language = item.locale === 'en-US' ? 'en-US' : 'en-IN';
        const transcript = await engine.transcribe(pcm, { language });
        await rm(wav, { force: true });
        await rm(pcm.path, { force: true });
        // Written whole under a name of this process's own, then renamed: a run cut short leaves no half entry,
        // and two evals filling the cache at once do not write into one file.
        const tmp = `${file}.${process.pid}.${i}.tmp`;
        await writeFile(tmp, JSON.stringify({ ...transcript, audioS: pcm.durationS }));
        await rename(tmp, file);
        result = { id: item.id, transcript, cached: false, audioS: pcm.durationS, seconds: (performance.now() - t0) / 1000 };
      }
      results[i] = result;
      done++;
      log(`spoken ${done}/${items.length} ${item.id}${result.cached ? ' (cached)' : ` ${result.audioS.toFixed(0)} s audio in ${result.seconds.toFixed(1)} s`}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 2) }, worker));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return results;
}
