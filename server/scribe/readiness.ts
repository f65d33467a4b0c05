/**
 * What the scribe can do on this computer, said the same way at start-up (npm run serve), in GET /api/v1/status and
 * in the app's Settings → Clinic server: each speech engine ready or not, its languages and, when it is not, the
 * command or Settings step that makes it ready; and ffmpeg, without which no recording is decoded at all.
 */
import { existsSync } from 'node:fs';
import { type Static, Type } from 'typebox';
import { type SpeechSurvey, LANGUAGE_NAMES } from './asr/choose.js';
import { ffmpegPath } from './audio/decode.js';
import { LANGUAGES, type Language } from './contracts.js';

const Part = {
  id: Type.String({ description: 'The engine (e.g. pocketsphinx:en-us+clinic-lm, whisper:small), or ffmpeg for the decoder' }),
  ready: Type.Boolean(),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it cannot run here; null when it can' }),
  fix: Type.Union([Type.String(), Type.Null()], {
    description: 'The command or Settings step that makes it ready; null when it is ready, or when nothing on this computer can',
  }),
};
const PartReadiness = Type.Object(Part);
type PartReadiness = Static<typeof PartReadiness>;
const EngineReadiness = Type.Object({
  ...Part,
  languages: Type.Array(Type.Enum(LANGUAGES), { description: 'What it recognises: now when ready, once fixed when not' }),
});
type EngineReadiness = Static<typeof EngineReadiness>;

export const ScribeReadiness = Type.Object({
  ready: Type.Boolean({ description: 'Whether a dictation can be transcribed here now: ffmpeg is there and a speech engine is ready' }),
  languages: Type.Array(Type.Enum(LANGUAGES), { description: 'What a dictation can be in now (empty when not ready)' }),
  decoder: PartReadiness,
  engines: Type.Array(EngineReadiness),
}, { description: 'What the scribe can do on this computer, and what makes ready what is not' });
export type ScribeReadiness = Static<typeof ScribeReadiness>;

export interface ReadinessHost {
  /** Whether apt-get installs packages here (Debian, Ubuntu). */
  apt: boolean;
  /** Whether this process runs as root (the apt-get command needs no sudo). */
  root: boolean;
}

export const thisHost = (): ReadinessHost => ({ apt: existsSync('/usr/bin/apt-get'), root: process.getuid?.() === 0 });

/** The system packages' command: exact where apt-get is, else which packages to look for. */
function installCommand(host: ReadinessHost, packages: string, elsewhere: string): string {
  return host.apt ? `${host.root ? '' : 'sudo '}apt-get install -y ${packages}` : `install ${elsewhere} from this system's packages`;
}

function engineFix(id: string, reason: string, host: ReadinessHost, modelsCanHelp: boolean): string | null {
  if (id.startsWith('pocketsphinx')) {
    return installCommand(host, 'pocketsphinx pocketsphinx-en-us espeak-ng', 'PocketSphinx 5 (pocketsphinx_continuous) with its en-us model, and espeak-ng');
  }
  if (id.startsWith('whisper:') && modelsCanHelp && /is not installed/.test(reason)) {
    const model = id.slice('whisper:'.length);
    // The Settings step rather than the command line's, which would have to name the data folder (not every admin may see it).
    return `Settings → Speech models: an administrator downloads "${model}"`;
  }
  // The Whisper runtime that does not load, or a local model folder that is wrong: the reason says what, no command fixes it.
  return null;
}

export function scribeReadiness(survey: SpeechSurvey, host: ReadinessHost, ffmpeg = ffmpegPath()): ScribeReadiness {
  const decoderReady = ffmpeg !== null && existsSync(ffmpeg);
  const decoder: PartReadiness = decoderReady
    ? { id: 'ffmpeg', ready: true, reason: null, fix: null }
    : {
      id: 'ffmpeg', ready: false,
      reason: ffmpeg ? `ffmpeg was not found at ${ffmpeg} (CLINIC_DESK_FFMPEG)` : 'ffmpeg is not installed: no recording can be decoded',
      fix: installCommand(host, 'ffmpeg', 'ffmpeg'),
    };
  const engines = survey.engines.map((e): EngineReadiness => ({
    id: e.id, ready: e.reason === null, languages: [...e.languages], reason: e.reason,
    fix: e.reason === null ? null : engineFix(e.id, e.reason, host, survey.modelsCanHelp),
  }));
  const served = new Set(engines.filter((e) => e.ready).flatMap((e) => e.languages));
  const languages = decoderReady ? LANGUAGES.filter((l) => served.has(l)) : [];
  return { ready: languages.length > 0, languages, decoder, engines };
}

const names = (languages: readonly Language[]) => languages.map((l) => LANGUAGE_NAMES[l]).join(', ');

/** The start-up lines: the scribe as a whole, then one line per engine and one for the decoder. */
export function readinessLines(r: ScribeReadiness): string[] {
  const part = (p: PartReadiness, what: string) =>
    p.ready ? `ready${what ? `: ${what}` : ''}` : `NOT READY${what ? ` (${what} once ready)` : ''}: ${p.reason}${p.fix ? `. Fix: ${p.fix}` : ''}`;
  const missing = [...(r.engines.some((e) => e.ready) ? [] : ['no speech engine is ready']), ...(r.decoder.ready ? [] : ['ffmpeg is missing'])];
  return [
    `  scribe:         ${r.ready ? `transcribes ${names(r.languages)}` : `cannot transcribe yet: ${missing.join(' and ')} (npm run setup installs ffmpeg and PocketSphinx; each line below says what fixes it)`}`,
    ...r.engines.map((e) => `  speech engine:  ${e.id} ${part(e, e.ready || e.languages.length <= 2 ? names(e.languages) : `${e.languages.length} languages`)}`),
    `  audio decoder:  ffmpeg ${part(r.decoder, '')}`,
  ];
}
