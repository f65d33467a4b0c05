/**
 * Which engine recognises a request (model_type pro/lite, input_language). docs/SCRIBE.md states the same rules.
 *
 * 1. The languages are the request's input languages (English (India) when none is given). An engine can serve
 *    the request when it supports every one of them and is available here (its program and model are present).
 * 2. Preference:
 *    - lite, English only:  PocketSphinx, then Whisper models from the smallest;
 *    - pro, English only:   Whisper models from the largest, then PocketSphinx;
 *    - any other language:  Whisper models, from the largest for pro and from the smallest for lite
 *                           (PocketSphinx is English only).
 *    Other engines (tests' fakes) come after these, in the order given.
 *    A clinic's chosen default model (Settings → Speech models; the request names no engine of its own) goes before
 *    all of these, for pro and lite alike; where it does not support the languages or is not installed, the order
 *    above decides.
 * 3. The first engine in that order that can serve the request is used. When none can, the session fails with
 *    NoEngineError: "No installed speech engine supports Hindi (hi): whisper:small: Whisper model "small" is not
 *    installed (…); pocketsphinx:…: English only".
 *
 * The language passed to the engine is the first input language; Whisper's language setting covers one language.
 */
import { join } from 'node:path';
import { LANGUAGES, type AsrEngine, type Language, type RecognitionRequest } from '../contracts.js';
import { NoEngineError } from './engine.js';
import { ModelManager, WHISPER_CATALOGUE } from './models.js';
import { PocketSphinxEngine, type PocketSphinxOptions } from './pocketsphinx.js';
import { WhisperEngine } from './whisper.js';

export const LANGUAGE_NAMES: Record<Language, string> = {
  'en-IN': 'English (India)', 'en-US': 'English (US)', hi: 'Hindi', gu: 'Gujarati', kn: 'Kannada', ml: 'Malayalam',
  ta: 'Tamil', te: 'Telugu', bn: 'Bengali', mr: 'Marathi', pa: 'Punjabi',
};

const isEnglish = (l: Language) => l === 'en-IN' || l === 'en-US';

export function requestLanguages(req: RecognitionRequest): Language[] {
  const langs = [...new Set(req.inputLanguages)];
  return langs.length ? langs : ['en-IN'];
}

/** The language the engine is told to recognise: the first input language. */
export function primaryLanguage(req: RecognitionRequest): Language {
  return requestLanguages(req)[0]!;
}

/** Whisper models ranked by size (catalogue order); a local model of unknown size ranks as "small". */
function whisperRank(e: AsrEngine): number | null {
  if (!e.id.startsWith('whisper:')) return null;
  const id = e.id.slice('whisper:'.length);
  const i = WHISPER_CATALOGUE.findIndex((m) => m.id === id);
  return i >= 0 ? i : WHISPER_CATALOGUE.findIndex((m) => m.id === 'small') + 0.5;
}

/** The id of the built-in engine in the speech-model list: PocketSphinx, English, nothing to download. */
export const BUILT_IN_MODEL = 'pocketsphinx';

/** Whether an engine is the one a speech-model id names ("pocketsphinx", or a Whisper model id). */
export const isEngineOf = (e: AsrEngine, modelId: string) =>
  modelId === BUILT_IN_MODEL ? e.id.startsWith('pocketsphinx') : e.id === `whisper:${modelId}`;

/** The engines in the order the rules prefer them for this request; `preferred` (a speech-model id) first. */
export function preferenceOrder(req: RecognitionRequest, engines: readonly AsrEngine[], preferred?: string): AsrEngine[] {
  const english = requestLanguages(req).every(isEnglish);
  const sphinx = engines.filter((e) => e.id.startsWith('pocketsphinx'));
  const whisper = engines.filter((e) => whisperRank(e) !== null).sort((a, b) => whisperRank(a)! - whisperRank(b)!);
  const others = engines.filter((e) => !sphinx.includes(e) && !whisper.includes(e));
  const whisperOrdered = req.modelType === 'pro' ? [...whisper].reverse() : whisper;
  const known = english && req.modelType === 'lite' ? [...sphinx, ...whisperOrdered] : [...whisperOrdered, ...sphinx];
  const order = [...known, ...others];
  const first = preferred === undefined ? undefined : order.find((e) => isEngineOf(e, preferred));
  return first ? [first, ...order.filter((e) => e !== first)] : order;
}

export async function chooseEngine(req: RecognitionRequest, engines: readonly AsrEngine[], preferred?: string): Promise<AsrEngine> {
  const langs = requestLanguages(req);
  const why: string[] = [];
  for (const e of preferenceOrder(req, engines, preferred)) {
    const missing = langs.filter((l) => !e.languages.includes(l));
    if (missing.length) {
      why.push(`${e.id}: ${e.languages.every(isEnglish) ? 'English only' : `does not support ${missing.join(', ')}`}`);
      continue;
    }
    const reason = await e.unavailableReason();
    if (reason) {
      why.push(`${e.id}: ${reason}`);
      continue;
    }
    return e;
  }
  const names = langs.map((l) => `${LANGUAGE_NAMES[l]} (${l})`).join(' and ');
  throw new NoEngineError(`No installed speech engine supports ${names}${why.length ? `: ${why.join('; ')}` : ' (no engines are configured)'}`);
}

export interface SpeechConfig {
  /** The service's data directory: models go to <dataDir>/models, generated language models to <dataDir>/speech. */
  dataDir: string;
  /** The Whisper model to offer when none is installed yet (default "small"). */
  whisperModel?: string;
  /** A folder (or file) of Whisper model files to use as model "local"; default CLINIC_DESK_WHISPER_MODEL. */
  localWhisperModel?: string;
  pocketsphinx?: Partial<PocketSphinxOptions>;
  /** The clinic's chosen default speech model ("pocketsphinx" or a Whisper model id): tried first (rule 2). */
  defaultModel?: string;
}

export function modelManager(dataDir: string, mirror?: string): ModelManager {
  return new ModelManager({ dir: join(dataDir, 'models'), mirror });
}

/**
 * The engines of this installation: one Whisper engine per installed model (or, when none is, one for the default
 * model, unavailable until it is downloaded, so the chooser can say so), and PocketSphinx.
 */
export async function createEngines(config: SpeechConfig): Promise<AsrEngine[]> {
  const manager = modelManager(config.dataDir);
  const local = config.localWhisperModel ?? process.env.CLINIC_DESK_WHISPER_MODEL;
  let localError: string | null = null;
  if (local) {
    await manager.useLocalModel(local).catch((e: Error) => {
      localError = `CLINIC_DESK_WHISPER_MODEL: ${e.message}`;
    });
  }
  const installed = await manager.installed();
  const whisper: AsrEngine[] = installed.map((m) => new WhisperEngine({ manager, modelId: m.id }));
  if (whisper.length === 0) whisper.push(new WhisperEngine({ manager, modelId: config.whisperModel ?? 'small' }));
  const engines: AsrEngine[] = [
    ...whisper,
    new PocketSphinxEngine({ cacheDir: join(config.dataDir, 'speech'), ...config.pocketsphinx }),
  ];
  if (localError) {
    const reason = localError;
    engines.push({
      id: 'whisper:local',
      languages: LANGUAGES,
      unavailableReason: async () => reason,
      transcribe: async () => {
        throw new NoEngineError(reason);
      },
    });
  }
  return engines;
}
