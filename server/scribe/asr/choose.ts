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
 * Init looks first (surveySpeech, servedLanguages): a request none of whose languages an engine here recognises is
 * refused at once, and the languages of a mixed request that no engine covers together with the others are left
 * out (with a warning), so rule 3's failure is left for what changes between init and the run.
 *
 * The language passed to the engine is the first input language; Whisper's language setting covers one language.
 */
import { join } from 'node:path';
import { LANGUAGES, type AsrEngine, type Language, type RecognitionRequest } from '../contracts.js';
import { NoEngineError } from './engine.js';
import { ModelManager, WHISPER_CATALOGUE } from './models.js';
import { PocketSphinxEngine, type PocketSphinxOptions } from './pocketsphinx.js';
import { WhisperEngine, loadSherpa } from './whisper.js';

export const LANGUAGE_NAMES: Record<Language, string> = {
  'en-IN': 'English (India)', 'en-US': 'English (US)', hi: 'Hindi', gu: 'Gujarati', kn: 'Kannada', ml: 'Malayalam',
  ta: 'Tamil', te: 'Telugu', bn: 'Bengali', mr: 'Marathi', pa: 'Punjabi',
};

const isEnglish = (l: Language) => l === 'en-IN' || l === 'en-US';

const languageLabel = (l: Language) => `${LANGUAGE_NAMES[l]} (${l})`;

/** Why an engine does not serve the missing languages, in the words of the chooser's message. */
const unsupported = (engineLanguages: readonly Language[], missing: readonly Language[]) =>
  engineLanguages.every(isEnglish) ? 'English only' : `does not support ${missing.join(', ')}`;

/** "English (India) (en-IN) and Hindi (hi)". */
export const languageList = (languages: readonly Language[]) => languages.map(languageLabel).join(' and ');

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
      why.push(`${e.id}: ${unsupported(e.languages, missing)}`);
      continue;
    }
    const reason = await e.unavailableReason();
    if (reason) {
      why.push(`${e.id}: ${reason}`);
      continue;
    }
    return e;
  }
  throw new NoEngineError(`No installed speech engine supports ${languageList(langs)}${why.length ? `: ${why.join('; ')}` : ' (no engines are configured)'}`);
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

/** An engine of this installation as a survey found it: its languages, and why it cannot run here (null: it can). */
export interface EngineState {
  id: string;
  languages: readonly Language[];
  reason: string | null;
}

/** What the speech engines here can recognise now, each engine asked once. */
export interface SpeechSurvey {
  engines: EngineState[];
  /** Whether downloading a Whisper model would add languages (its runtime loads on this computer). */
  modelsCanHelp: boolean;
}

export async function surveyEngines(engines: readonly AsrEngine[], modelsCanHelp: boolean): Promise<SpeechSurvey> {
  const states = await Promise.all(engines.map(async (e) => ({ id: e.id, languages: e.languages, reason: await e.unavailableReason() })));
  return { engines: states, modelsCanHelp };
}

/** The survey of this installation's engines (createEngines), as init and the language list need it. */
export async function surveySpeech(config: SpeechConfig): Promise<SpeechSurvey> {
  return surveyEngines(await createEngines(config), loadSherpa().module !== null);
}

/**
 * A language as the app's list shows it: `ready` (an engine here recognises it now), `needs_model` (a Whisper model
 * download would make it work) or `unavailable` (nothing to download helps on this computer; reason says why).
 */
export interface LanguageSupport {
  id: Language;
  name: string;
  status: 'ready' | 'needs_model' | 'unavailable';
  /** The engines that recognise it now. */
  engines: string[];
  /** Why it does not work now and how to get it, naming the language; null when ready. */
  reason: string | null;
}

export function languageSupport(survey: SpeechSurvey, languages: readonly Language[] = LANGUAGES): LanguageSupport[] {
  return languages.map((id) => {
    const ready = survey.engines.filter((e) => e.reason === null && e.languages.includes(id)).map((e) => e.id);
    const base = { id, name: LANGUAGE_NAMES[id], engines: ready };
    if (ready.length) return { ...base, status: 'ready' as const, reason: null };
    if (survey.modelsCanHelp) {
      return {
        ...base, status: 'needs_model' as const,
        reason: `No speech model for ${languageLabel(id)} is installed: an administrator can download a Whisper model in Settings → Speech models `
          + '(small or larger for Indian languages); a clinic server without internet access downloads it from a mirror given with --model-mirror.',
      };
    }
    const why = survey.engines.map((e) => `${e.id}: ${e.languages.includes(id) ? e.reason : unsupported(e.languages, [id])}`);
    return {
      ...base, status: 'unavailable' as const,
      reason: `No speech engine on this computer can recognise ${languageLabel(id)}${why.length ? ` (${why.join('; ')})` : ' (no engines are configured)'}.`,
    };
  });
}

/**
 * The request's languages split into those one engine here recognises now (the most of them any engine covers,
 * in the request's order, so the first of them is still the one the engine is told) and the rest.
 */
export function servedLanguages(languages: readonly Language[], survey: SpeechSurvey): { served: Language[]; unserved: Language[] } {
  let served: Language[] = [];
  for (const e of survey.engines) {
    if (e.reason !== null) continue;
    const covered = languages.filter((l) => e.languages.includes(l));
    const better = covered.length > served.length
      || (covered.length === served.length && covered.length > 0 && languages.indexOf(covered[0]!) < languages.indexOf(served[0]!));
    if (better) served = covered;
  }
  return { served, unserved: languages.filter((l) => !served.includes(l)) };
}
