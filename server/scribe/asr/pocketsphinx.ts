/**
 * PocketSphinx (CMU Sphinx) as a child process: Debian's pocketsphinx_continuous with the pocketsphinx-en-us
 * acoustic model, and our generated domain language model and dictionary (lm/). English only.
 *
 *   pocketsphinx_continuous -infile <pcm.s16le> -hmm <model>/en-us -lm <domain.arpa> -dict <domain.dict>
 *                           -cmninit <first pass> [-remove_noise no] -topn 8 -beam 1e-60 -pbeam 1e-60 -wbeam 1e-40
 *                           -logfn /dev/null -time yes
 *
 * It reads the decoded file by path (its -infile /dev/stdin fails under Node's socket stdio), splits it into
 * utterances at pauses, and prints each utterance's text and then one "word start end confidence" line per word
 * (times in seconds from the start of the file). It runs once per piece of the recording (cut at pauses, as for
 * Whisper); each utterance becomes a segment with its words, and progress is the end of the last piece recognised.
 * Aborting kills the process.
 *
 * The confidence is the word's posterior probability (pocketsphinx prints logmath_exp of the lattice posterior):
 * 0..1, with rounding that reaches 1.0001 on sure words, hence the clamp (checked on this machine's
 * pocketsphinx 5prealpha with espeak-ng dictations).
 *
 * Out of the box (its generic LM) it is useless on dictation (~100% WER measured); with the domain model it is a
 * basic offline English recogniser (tens of percent WER on synthetic dictation; bench/speech.ts).
 */
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AsrEngine, Language, PcmAudio, Segment, TranscribeOptions, Transcript, Word } from '../contracts.js';
import { abortError, findOnPath, SAMPLE_RATE } from '../audio/decode.js';
import { frameLevels, samplesOf } from '../audio/speech.js';
import { EngineUnavailableError, NoEngineError, RecognitionError, tail } from './engine.js';
import { ensureDomainModel, type DomainModel, type DomainModelOptions, type SpeechVocabulary } from './lm/index.js';
import { planPieces } from './whisper.js';
import { projectVocabulary } from './lm/vocabulary.js';

export const POCKETSPHINX_LANGUAGES: readonly Language[] = ['en-IN', 'en-US'];
export const DEFAULT_POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
/** The project vocabulary's model per (cache, acoustic model, shape): engines are created per session. */
const projectModels = new Map<string, Promise<DomainModel>>();
const NULL_DEVICE = process.platform === 'win32' ? 'NUL' : '/dev/null';

export interface PocketSphinxOptions {
  /** Where generated language models are cached (e.g. <dataDir>/speech). */
  cacheDir: string;
  /** pocketsphinx_continuous; default CLINIC_DESK_POCKETSPHINX, then PATH. */
  binary?: string;
  /** Directory holding en-us/ (acoustic model) and cmudict-en-us.dict; default CLINIC_DESK_POCKETSPHINX_MODEL or Debian's. */
  modelDir?: string;
  /** The vocabulary the LM is built from; default the project's (vocab/). */
  vocabulary?: SpeechVocabulary | (() => Promise<SpeechVocabulary> | SpeechVocabulary);
  espeakBinary?: string;
  /** Extra decoder flags as flag–value pairs (e.g. ['-lw', '8']), for experiments; they replace ours of the same name. */
  extraArgs?: string[];
  /** Seconds of a first pass that measures the recording's cepstral mean (default 10; 0 turns it off). */
  cmnPrepassS?: number;
  /** Language-model shape, for experiments (lm/index.ts). */
  lm?: DomainModelOptions['lm'];
}

/** Longest piece recognised in one run, and how far back from its end the cut looks for a pause (seconds). */
const PIECE_S = 15;
const PIECE_SEARCH_S = 5;

const round2 = (n: number) => Math.round(n * 100) / 100;
const shiftSegment = (s: Segment, by: number): Segment => ({
  ...s, start: round2(s.start + by), end: round2(s.end + by),
  ...(s.words ? { words: s.words.map((w) => ({ ...w, start: round2(w.start + by), end: round2(w.end + by) })) } : {}),
});

const FILLER = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/;

/** Frames quieter than this are (near-)digital silence: no microphone's noise floor is that low. */
const DIGITAL_SILENCE_DBFS = -70;
/** Share of such frames from which a recording counts as having digital silence. */
const DIGITAL_SILENCE_SHARE = 0.03;
const LEVEL_SCAN_S = 60;

/**
 * Whether pocketsphinx's spectral-subtraction noise removal should stay off for these samples: they have
 * stretches of digital silence (synthetic speech, a recorder's noise gate), so there is no noise to remove, and
 * the noise estimate ends up eating into the speech instead. Measured on the dev dictations (espeak-ng): with
 * removal 49.4% WER, without 45.9%; with 12 dB of white noise added, the other way round (37.3% with, 50.3%
 * without), hence a rule and not a setting. An ordinary microphone's floor (-60 to -40 dBFS) keeps it on.
 */
export function hasDigitalSilence(samples: Int16Array): boolean {
  const levels = frameLevels(samples);
  if (levels.length === 0) return false;
  let silent = 0;
  for (const l of levels) if (l < DIGITAL_SILENCE_DBFS) silent++;
  return silent / levels.length >= DIGITAL_SILENCE_SHARE;
}

/** The opening samples (at most `seconds`) of a 16 kHz s16le file. */
async function readHead(path: string, durationS: number, seconds: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(Math.max(0, Math.min(Math.round(durationS * 32_000), Math.round(seconds * 32_000))));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead - (bytesRead % 2));
  } finally {
    await fh.close();
  }
}

/** Parse pocketsphinx_continuous -time yes output into segments (one per utterance), each with its words. */
export function parsePocketSphinxOutput(stdout: string): Segment[] {
  const segments: Segment[] = [];
  let words: Word[] = [];
  const flush = () => {
    if (words.length) segments.push({ start: words[0]!.start, end: words.at(-1)!.end, text: words.map((w) => w.word).join(' '), words });
    words = [];
  };
  for (const line of stdout.split('\n')) {
    const m = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e-?\d+)?)$/.exec(line.trim());
    if (!m) continue;
    const token = m[1]!;
    if (token === '</s>') {
      flush();
      continue;
    }
    if (FILLER.test(token)) continue;
    words.push({ word: token.replace(/\(\d+\)$/, ''), start: Number(m[2]), end: Number(m[3]), conf: Math.min(1, Math.max(0, Number(m[4]))) });
  }
  flush();
  return segments;
}

export class PocketSphinxEngine implements AsrEngine {
  readonly id = 'pocketsphinx:en-us+clinic-lm';
  readonly languages = POCKETSPHINX_LANGUAGES;
  private readonly modelDir: string;
  private model: Promise<DomainModel> | null = null;
  private hmm: Promise<{ dir: string; cmninit: string }> | null = null;

  constructor(private readonly opts: PocketSphinxOptions) {
    this.modelDir = opts.modelDir ?? process.env.CLINIC_DESK_POCKETSPHINX_MODEL ?? DEFAULT_POCKETSPHINX_MODEL_DIR;
  }

  private binary(): string | null {
    return this.opts.binary ?? process.env.CLINIC_DESK_POCKETSPHINX ?? findOnPath('pocketsphinx_continuous');
  }

  async unavailableReason(): Promise<string | null> {
    const bin = this.binary();
    if (!bin || !existsSync(bin)) {
      return 'PocketSphinx is not installed (pocketsphinx_continuous was not found; on Debian/Ubuntu: apt-get install pocketsphinx pocketsphinx-en-us)';
    }
    if (!existsSync(join(this.modelDir, 'en-us', 'mdef')) || !existsSync(join(this.modelDir, 'cmudict-en-us.dict'))) {
      return `PocketSphinx's English model is missing from ${this.modelDir} (on Debian/Ubuntu: apt-get install pocketsphinx-en-us)`;
    }
    if (!this.opts.espeakBinary && !findOnPath('espeak-ng')) {
      return 'espeak-ng is not installed; it gives the domain dictionary its pronunciations of drug names (apt-get install espeak-ng)';
    }
    return null;
  }

  /** The domain LM and dictionary, built on first use and cached (on disk, and per process for the project vocabulary). */
  domainModel(): Promise<DomainModel> {
    const key = this.opts.vocabulary ? null : JSON.stringify([this.opts.cacheDir, this.modelDir, this.opts.lm ?? null]);
    const shared = key ? projectModels.get(key) : undefined;
    if (shared) return shared;
    this.model ??= (async () => {
      const v = this.opts.vocabulary ?? projectVocabulary;
      const vocabulary = typeof v === 'function' ? await v() : v;
      return ensureDomainModel({
        cacheDir: this.opts.cacheDir,
        vocabulary,
        cmudictPath: join(this.modelDir, 'cmudict-en-us.dict'),
        espeakBinary: this.opts.espeakBinary,
        lm: this.opts.lm,
      });
    })().catch((e: unknown) => {
      this.model = null;
      if (key) projectModels.delete(key);
      throw e;
    });
    if (key) projectModels.set(key, this.model);
    return this.model;
  }

  /**
   * The acoustic model as pocketsphinx should see it: the package's files, linked into the cache, with a
   * feat.params that leaves out -cmninit (the package's feat.params would override ours; see estimateCmn).
   */
  private acousticModel(): Promise<{ dir: string; cmninit: string }> {
    this.hmm ??= (async () => {
      const src = join(this.modelDir, 'en-us');
      const params = await readFile(join(src, 'feat.params'), 'utf8');
      const cmninit = /^-cmninit\s+(\S+)/m.exec(params)?.[1] ?? '40,3,-1';
      const dir = join(this.opts.cacheDir, `hmm-${createHash('sha256').update(src).digest('hex').slice(0, 12)}`);
      if (!existsSync(join(dir, 'feat.params'))) {
        const tmp = `${dir}.${randomUUID().slice(0, 8)}.tmp`;
        await mkdir(tmp, { recursive: true });
        for (const f of await readdir(src)) {
          if (f === 'feat.params') continue;
          await symlink(join(src, f), join(tmp, f)).catch(() => copyFile(join(src, f), join(tmp, f)));
        }
        await writeFile(join(tmp, 'feat.params'), params.split('\n').filter((l) => !l.startsWith('-cmninit')).join('\n'));
        await rename(tmp, dir).catch(async () => rm(tmp, { recursive: true, force: true }));
      }
      return { dir, cmninit };
    })().catch((e: unknown) => {
      this.hmm = null;
      throw e;
    });
    return this.hmm;
  }

  /**
   * PocketSphinx normalises each cepstral coefficient by a running mean that starts from fixed values and adapts
   * slowly, so the first seconds of a recording whose level and channel differ from those values come out as
   * nonsense. A first pass over the opening seconds (default 10) yields the recording's own mean, which the real
   * pass starts from. null (use the model's default) when the file is short or the first pass fails.
   */
  private async estimateCmn(audio: PcmAudio, hmm: { dir: string; cmninit: string }, model: DomainModel, frontEnd: string[], signal?: AbortSignal): Promise<string | null> {
    const seconds = this.opts.cmnPrepassS ?? 10;
    if (seconds <= 0 || audio.durationS < 3) return null;
    const work = await mkdtemp(join(tmpdir(), 'clinic-desk-cmn-'));
    try {
      const head = join(work, 'head.s16le');
      await writeFile(head, await readHead(audio.path, audio.durationS, seconds));
      const log = join(work, 'log');
      await this.run(['-infile', head, '-hmm', hmm.dir, '-cmninit', hmm.cmninit, '-lm', model.lmPath, '-dict', model.dictPath,
        '-samprate', '16000', ...frontEnd, '-logfn', log], signal);
      const updates = [...(await readFile(log, 'utf8')).matchAll(/Update to\s+<([^>]*)>/g)];
      const last = updates.at(-1)?.[1]?.trim().split(/\s+/);
      return last && last.length >= 13 && last.every((x) => Number.isFinite(Number(x))) ? last.join(',') : null;
    } catch (e) {
      if (signal?.aborted) throw e;
      return null;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** Run pocketsphinx_continuous; resolves with its stdout. Aborting kills it. */
  private run(args: string[], signal: AbortSignal | undefined): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const child = spawn(this.binary()!, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      let out = '';
      let err = '';
      let settled = false;
      const onAbort = () => child.kill('SIGKILL');
      signal?.addEventListener('abort', onAbort, { once: true });
      const finish = (e: Error | null) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        if (e) reject(e);
        else resolve(out);
      };
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        if (err.length < 32_000) err += d;
      });
      child.on('error', (e: NodeJS.ErrnoException) => finish(new EngineUnavailableError(`PocketSphinx could not start (${e.code ?? e.message})`)));
      child.on('close', (code, sig) => {
        if (signal?.aborted) return finish(abortError(signal));
        if (code !== 0) return finish(new RecognitionError(`PocketSphinx failed (${sig ?? `exit ${code}`}): ${tail(err) || 'no message'}`));
        finish(null);
      });
    });
  }

  async transcribe(audio: PcmAudio, opts: TranscribeOptions): Promise<Transcript> {
    const { signal, onProgress } = opts;
    if (!this.languages.includes(opts.language)) {
      throw new NoEngineError(`PocketSphinx recognises English only, not ${opts.language}`);
    }
    if (signal?.aborted) throw abortError(signal);
    const reason = await this.unavailableReason();
    if (reason) throw new EngineUnavailableError(reason);
    const model = await this.domainModel();
    if (signal?.aborted) throw abortError(signal);
    const hmm = await this.acousticModel();
    const samples = samplesOf(await readFile(audio.path));
    const frontEnd = hasDigitalSilence(samples.subarray(0, LEVEL_SCAN_S * SAMPLE_RATE)) ? ['-remove_noise', 'no'] : [];
    const cmninit = await this.estimateCmn(audio, hmm, model, frontEnd, signal);
    const args = [
      '-hmm', hmm.dir,
      '-cmninit', cmninit ?? hmm.cmninit,
      '-lm', model.lmPath,
      '-dict', model.dictPath,
      '-samprate', '16000',
      ...frontEnd,
      // Score each frame with the 8 best Gaussians of each mixture instead of 4 (45.9% → 44.7% WER on the dev
      // subset, docs/SCRIBE.md), and search wider beams than the defaults (1e-48, 1e-48, 7e-29: → 42.1%), for
      // about half as much recognition time again, inside the RTF budget.
      '-topn', '8',
      '-beam', '1e-60',
      '-pbeam', '1e-60',
      '-wbeam', '1e-40',
      '-logfn', NULL_DEVICE,
      '-time', 'yes',
    ];
    // pocketsphinx refuses a flag given twice: an extra flag replaces ours.
    const extra = this.opts.extraArgs ?? [];
    for (let i = 0; i < extra.length; i += 2) {
      const at = args.indexOf(extra[i]!);
      if (at >= 0 && at % 2 === 0) args.splice(at, 2);
    }
    args.push(...extra);
    // One run per piece of at most PIECE_S, cut at a pause: pocketsphinx prints nothing until it ends an
    // utterance (espeak's and many doctors' pauses are too short for its VAD, so a whole dictation is one), and on
    // an utterance of tens of seconds its word times drift past the audio's end (a 38 s dictation measured here
    // came back as one segment at 24.8-62.5 s). Each piece's times are its own, shifted by where it starts.
    const work = await mkdtemp(join(tmpdir(), 'clinic-desk-asr-'));
    const segments: Segment[] = [];
    try {
      for (const [i, piece] of planPieces(samples, PIECE_S, PIECE_SEARCH_S).entries()) {
        if (signal?.aborted) throw abortError(signal);
        const file = join(work, `piece-${i}.s16le`);
        const pcm = samples.subarray(piece.start, piece.end);
        await writeFile(file, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
        const offset = piece.start / SAMPLE_RATE;
        for (const seg of parsePocketSphinxOutput(await this.run(['-infile', file, ...args], signal))) segments.push(shiftSegment(seg, offset));
        onProgress?.(Math.min(1, piece.end / Math.max(1, samples.length)));
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    if (signal?.aborted) throw abortError(signal);
    return {
      text: segments.map((s) => s.text).join(' '),
      language: opts.language,
      engine: this.id,
      segments,
    };
  }
}
