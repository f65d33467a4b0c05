import type { Language, TemplateId, Transcript } from '../contracts.js';

/**
 * What the job runner (the service process) and a worker process say to each other over the IPC channel of
 * child_process.fork. The worker never opens the database: it gets everything it needs in `run` and reports back;
 * the runner records progress, the checkpoint and the outcome.
 */

/** Speech engine settings handed to asr/ createEngines (its SpeechConfig without dataDir). */
export interface SpeechSettings {
  /** The Whisper model to offer when none is installed yet. */
  whisperModel?: string;
  /** A folder of Whisper model files to use as model "local". */
  localWhisperModel?: string;
  /** PocketSphinx options (binary, model directory, …). */
  pocketsphinx?: Record<string, unknown>;
  /** The session's clinic's default speech model, read when the job starts (asr/choose.ts rule 2). */
  defaultModel?: string;
}

export interface TemplateRequest {
  /** Our id. */
  id: TemplateId;
  /** The id the request used (eka_emr_template is echoed as asked). */
  asked: string;
  codify: boolean;
}

/** The normalised init request, as stored in scribe_sessions.request. */
export interface SessionRequest {
  mode: string;
  modelType: 'pro' | 'lite';
  languages: Language[];
  templates: TemplateRequest[];
  outputLanguage: string | null;
  /** The allergies in the session's patient's record at init, which the safety net checks prescriptions against. */
  patientAllergies?: string[];
}

export interface JobSpec {
  sessionId: string;
  txnId: string;
  /** Audio in upload order: name as uploaded, path on disk. */
  files: { name: string; path: string }[];
  /** Scratch space for decoded PCM; the worker empties it when it ends. */
  workDir: string;
  request: SessionRequest;
  /** A transcript a previous run already recognised: the run resumes after recognition. */
  transcript: Transcript | null;
  /** The service's data directory (speech models and generated language models live under it). */
  dataDir: string;
  /** Engine settings (ServiceOptions.scribe.speech). */
  speech: SpeechSettings;
  /** Fault injection (ServiceOptions.scribe.failTemplates): these templates' renderers fail. */
  failTemplates: string[];
}

export type OutputStatus = 'success' | 'partial_success' | 'failure';

/** One data.output[] entry, as the status endpoint serves it. */
export interface OutputEntry {
  template_id: string;
  /** Base64 of the template's UTF-8 JSON; '' when it failed. */
  value: string;
  type: 'json';
  name: string;
  status: OutputStatus;
  errors: string[];
  warnings: string[];
}

export interface JobResult {
  status: 'completed' | 'partial' | 'failed';
  /** Why the session failed (empty unless status is failed). */
  errors: string[];
  output: OutputEntry[];
}

export type ParentMessage = { type: 'run'; job: JobSpec };

export type WorkerMessage =
  /** The worker listens: the runner sends `run`. */
  | { type: 'ready' }
  | { type: 'progress'; stage: string; percent: number }
  | { type: 'transcript'; transcript: Transcript }
  | { type: 'done'; result: JobResult }
  /** Something went wrong that another run may not meet (a crash of a stage, a full disk): retried. */
  | { type: 'error'; message: string };
