/**
 * Whisper through sherpa-onnx-node (prebuilt N-API binaries for Windows, macOS and Linux, onnxruntime inside):
 * an OfflineRecognizer over a Whisper int8 export (encoder, decoder, tokens) from models.ts. All 11 interface
 * languages; en-IN and en-US are both Whisper's "en".
 *
 * Whisper hears at most 30 s at a time, so the audio is cut into pieces of at most 28 s, each cut at the quietest
 * moment of its last 8 s, and pieces without speech (audio/speech.ts) are skipped rather than handed to Whisper,
 * which invents text on silence. Each piece is a segment; progress is the end of the last piece decoded.
 *
 * The native module and the model load lazily on the first transcription; one recognizer per language is kept
 * (the language is part of its configuration). A missing model makes the engine unavailable with a reason; model
 * files that do not load (corrupt, wrong format) fail that transcription cleanly and make the engine unavailable
 * from then on. Aborting takes effect between pieces (a piece in flight finishes first: seconds at most).
 */
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { LANGUAGES, type AsrEngine, type Language, type PcmAudio, type Segment, type TranscribeOptions, type Transcript } from '../contracts.js';
import { abortError, SAMPLE_RATE } from '../audio/decode.js';
import { checkSpeechSamples, samplesOf } from '../audio/speech.js';
import { EngineUnavailableError, NoEngineError, RecognitionError } from './engine.js';
import type { InstalledModel, ModelManager } from './models.js';

/** Interface language → Whisper language code. */
export function whisperLanguage(lang: Language): string {
  return lang === 'en-IN' || lang === 'en-US' ? 'en' : lang;
}

// The slice of sherpa-onnx-node's API used here (the package ships JavaScript without type declarations).
interface SherpaStream {
  acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void;
}
interface SherpaRecognizer {
  createStream(): SherpaStream;
  decodeAsync(stream: SherpaStream): Promise<{ text?: string; lang?: string }>;
}
interface SherpaModule {
  OfflineRecognizer: { createAsync(config: unknown): Promise<SherpaRecognizer> };
}

let sherpa: { module: SherpaModule | null; error: string | null } | null = null;

/** sherpa-onnx-node, loaded once; null with a reason when it cannot load on this platform. */
export function loadSherpa(): { module: SherpaModule | null; error: string | null } {
  if (!sherpa) {
    try {
      sherpa = { module: createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule, error: null };
    } catch (e) {
      sherpa = { module: null, error: `sherpa-onnx-node could not be loaded on ${process.platform}-${process.arch}: ${(e as Error).message.split('\n')[0]}` };
    }
  }
  return sherpa;
}

export const MAX_PIECE_S = 28;
const SEARCH_S = 8;

/** Cut points (sample indices) for pieces of at most `maxS` seconds, each cut at the quietest 100 ms near its end. */
export function planPieces(samples: Int16Array, maxS = MAX_PIECE_S, searchS = SEARCH_S): { start: number; end: number }[] {
  const max = Math.floor(maxS * SAMPLE_RATE);
  const win = SAMPLE_RATE / 10;
  const pieces: { start: number; end: number }[] = [];
  let start = 0;
  while (samples.length - start > max) {
    let best = start + max;
    let bestEnergy = Infinity;
    for (let s = start + max - Math.floor(searchS * SAMPLE_RATE); s + win <= start + max; s += win / 2) {
      let e = 0;
      for (let i = s; i < s + win; i++) e += samples[i]! * samples[i]!;
      if (e < bestEnergy) {
        bestEnergy = e;
        best = s + win / 2;
      }
    }
    pieces.push({ start, end: best });
    start = best;
  }
  if (samples.length > start) pieces.push({ start, end: samples.length });
  return pieces;
}

export interface WhisperEngineOptions {
  manager: ModelManager;
  /** Catalogue id or a local model's id (models.ts). */
  modelId: string;
  numThreads?: number;
}

export class WhisperEngine implements AsrEngine {
  readonly id: string;
  readonly languages: readonly Language[] = LANGUAGES;
  private loadError: string | null = null;
  private readonly recognizers = new Map<string, Promise<SherpaRecognizer>>();

  constructor(private readonly opts: WhisperEngineOptions) {
    this.id = `whisper:${opts.modelId}`;
  }

  get modelId(): string {
    return this.opts.modelId;
  }

  async unavailableReason(): Promise<string | null> {
    const s = loadSherpa();
    if (!s.module) return s.error;
    if (this.loadError) return this.loadError;
    const model = await this.opts.manager.find(this.opts.modelId);
    if (!model) {
      return `Whisper model "${this.opts.modelId}" is not installed (download it with \`npx clinic-desk transcribe --download-model ${this.opts.modelId}\`, or point CLINIC_DESK_WHISPER_MODEL at a folder holding its encoder, decoder and tokens files)`;
    }
    return null;
  }

  private recognizer(model: InstalledModel, language: string): Promise<SherpaRecognizer> {
    let r = this.recognizers.get(language);
    if (!r) {
      const config = {
        featConfig: { sampleRate: SAMPLE_RATE, featureDim: 80 },
        modelConfig: {
          whisper: { encoder: model.encoder, decoder: model.decoder, language, task: 'transcribe', tailPaddings: -1 },
          tokens: model.tokens,
          numThreads: this.opts.numThreads ?? Math.max(1, Math.min(4, availableParallelism())),
          provider: 'cpu',
          debug: 0,
        },
      };
      r = loadSherpa().module!.OfflineRecognizer.createAsync(config).catch((e: unknown) => {
        this.recognizers.delete(language);
        this.loadError = `Whisper model "${this.opts.modelId}" could not be loaded from ${model.dir}: ${(e as Error).message}`;
        throw new EngineUnavailableError(this.loadError);
      });
      this.recognizers.set(language, r);
    }
    return r;
  }

  async transcribe(audio: PcmAudio, opts: TranscribeOptions): Promise<Transcript> {
    const { signal, onProgress } = opts;
    if (!this.languages.includes(opts.language)) throw new NoEngineError(`Whisper does not support ${opts.language}`);
    if (signal?.aborted) throw abortError(signal);
    const reason = await this.unavailableReason();
    if (reason) throw new EngineUnavailableError(reason);
    const model = (await this.opts.manager.find(this.opts.modelId))!;
    const recognizer = await this.recognizer(model, whisperLanguage(opts.language));
    const samples = samplesOf(await readFile(audio.path));
    const segments: Segment[] = [];
    for (const piece of planPieces(samples)) {
      if (signal?.aborted) throw abortError(signal);
      const pcm = samples.subarray(piece.start, piece.end);
      if (checkSpeechSamples(pcm).hasSpeech) {
        const floats = new Float32Array(pcm.length);
        for (let i = 0; i < pcm.length; i++) floats[i] = pcm[i]! / 32768;
        const stream = recognizer.createStream();
        stream.acceptWaveform({ samples: floats, sampleRate: SAMPLE_RATE });
        let result: { text?: string };
        try {
          result = await recognizer.decodeAsync(stream);
        } catch (e) {
          throw new RecognitionError(`Whisper failed on ${audio.path}: ${(e as Error).message}`);
        }
        const text = (result.text ?? '').trim();
        if (text) segments.push({ start: piece.start / SAMPLE_RATE, end: piece.end / SAMPLE_RATE, text });
      }
      onProgress?.(Math.min(1, piece.end / Math.max(1, samples.length)));
    }
    if (signal?.aborted) throw abortError(signal);
    return { text: segments.map((s) => s.text).join(' '), language: opts.language, engine: `${this.id}`, segments };
  }
}
