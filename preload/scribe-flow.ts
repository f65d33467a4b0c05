/**
 * The app's dictations through the scribe SDK (sdk/scribe-client.ts), shared by both transports: the browser's
 * (renderer/src/transport/http.ts, which posts the audio with XMLHttpRequest) and the app's main process
 * (main/scribe-http.ts, which posts it with node:http). Each builds its ScribeClient; here the app's options
 * become the flow's extra data and output format, and the answers and errors become what the UI shows.
 */
import { type ScribeClient, ScribeApiError, type ScribeStep, type SessionStatus } from '../sdk/scribe-client.js';
import type {
  ClinicFailure, ConnectedAssistant, DictationLanguage, DictationOptions, DictationStatus, Language, Recording, ScribeHistoryPage, SpeechModel,
  TemplateResult, UploadProgress,
} from './contract.js';

export const TEMPLATE_NAMES: Record<string, string> = {
  clinical_notes_template: 'Clinical notes',
  service_emr_template: 'EMR (structured)',
  transcript_template: 'Transcript',
};

/** A transaction id the service accepts (1-128 of A-Z a-z 0-9 . _ : -). */
export const newTxnId = () => `dict-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${crypto.randomUUID()}`;

/** File extension for a MediaRecorder mime type (the service recognises audio by extension). */
export function extensionFor(mime: string): string {
  if (/webm/.test(mime)) return 'webm';
  if (/ogg/.test(mime)) return 'ogg';
  if (/mp4|m4a|aac/.test(mime)) return 'm4a';
  if (/wav/.test(mime)) return 'wav';
  return 'webm';
}

const FAILED: Record<ScribeStep, string> = {
  presign: 'The upload could not start',
  upload: 'The audio could not be uploaded',
  init: 'Transcription could not start',
  status: 'The transcription status could not be read',
  sessions: 'Past sessions could not be read',
};

/** The SDK's refusals in the app's failure shape; the transport's own failures (unreachable, dropped) as they are. */
async function clinicFailures<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (e) {
    throw e instanceof ScribeApiError ? scribeFailure(e.status, e.body, FAILED[e.step]) : e;
  }
}

/**
 * Uploads a recording and starts its transcription. The patient goes in the extra data, which the service keeps
 * as the session's additional_data, so the patient's history lists it.
 */
export async function uploadDictation(
  client: ScribeClient,
  rec: Pick<Recording, 'id' | 'mime_type' | 'patient_id' | 'appointment_id'>,
  audio: Blob,
  o: DictationOptions,
  onProgress: (p: UploadProgress) => void,
): Promise<{ txn_id: string }> {
  const txnId = newTxnId();
  onProgress({ phase: 'preparing', loaded: 0, total: audio.size });
  await clinicFailures(client.upload([{ name: `dictation.${extensionFor(rec.mime_type)}`, data: audio }], {
    txnId,
    extraData: {
      mode: o.mode, model_type: o.model_type, ...(rec.patient_id ? { patient_id: rec.patient_id } : {}),
      ...(rec.appointment_id ? { appointment_id: rec.appointment_id } : {}), recording_id: rec.id, source: 'clinic-desk-app',
    },
    outputFormat: { input_language: [o.language], output_template: o.templates.map((template_id) => ({ template_id, codification_needed: o.codify })) },
    // Once the audio is out, what is left (the sidecar and init) is starting the transcription.
    onProgress: ({ loaded, total }) => onProgress({ phase: total > 0 && loaded >= total ? 'starting' : 'uploading', loaded, total }),
  }));
  return { txn_id: txnId };
}

/** A session's status as the UI shows it. */
export async function dictationStatus(client: ScribeClient, txnId: string): Promise<DictationStatus> {
  return readStatus(txnId, await clinicFailures(client.getSessionStatus(txnId)));
}

/** Sessions per history page: a screenful. */
const HISTORY_PAGE = 20;

/** A page of a patient's past sessions, newest first. */
export async function scribeHistory(client: ScribeClient, patientId: string, cursor?: string, limit = HISTORY_PAGE): Promise<ScribeHistoryPage> {
  const page = await clinicFailures(client.listSessions({ patientId, cursor, limit }));
  return { sessions: page.data.map(({ updated_at: _updated, ...s }) => s), next_cursor: page.next_cursor };
}

function readStatus(txnId: string, s: SessionStatus): DictationStatus {
  const extra = s.data.additional_data ?? {};
  const results: TemplateResult[] = s.data.output.map((o) => ({
    template_id: o.template_id,
    name: TEMPLATE_NAMES[o.template_id] || o.name || o.template_id,
    status: o.status,
    json: o.decoded,
    errors: o.errors ?? [],
    warnings: o.warnings ?? [],
  }));
  const ours = typeof extra.status === 'string' ? extra.status : null;
  const errors = [...(Array.isArray(extra.errors) ? (extra.errors as unknown[]).map(String) : []), ...results.flatMap((r) => r.errors)];
  let state: DictationStatus['state'] = 'processing';
  if (s.httpStatus === 200) state = 'completed';
  else if (s.httpStatus === 206) state = results.some((r) => r.status !== 'failure') ? 'partial' : 'failed';
  if (ours === 'failed') state = 'failed';
  return {
    txn_id: txnId,
    state,
    stage: typeof extra.stage === 'string' ? extra.stage : ours,
    percent: typeof extra.percent === 'number' ? extra.percent : null,
    results,
    errors: [...new Set(errors)],
  };
}

/** A failure from any of the scribe family's error shapes ({error,code}, {error:{code,msg}}, {error,message}, {details}). */
export function scribeFailure(status: number, body: unknown, what: string): ClinicFailure {
  const b = (body ?? {}) as Record<string, unknown>;
  const e = b.error;
  let code = 'SCRIBE_ERROR';
  let message = '';
  if (e && typeof e === 'object') {
    code = String((e as Record<string, unknown>).code ?? code);
    message = String((e as Record<string, unknown>).msg ?? (e as Record<string, unknown>).message ?? '');
  } else if (typeof e === 'string') {
    code = typeof b.code === 'string' ? b.code : e;
    message = typeof b.message === 'string' ? b.message : e;
  } else if (Array.isArray(b.details)) {
    code = 'INVALID_REQUEST';
    message = (b.details as { msg?: string; loc?: unknown[] }[]).map((d) => `${(d.loc ?? []).join('.')}: ${d.msg ?? ''}`).join('; ');
  } else if (typeof b.message === 'string') {
    message = b.message;
  }
  if (status === 404 && !message) message = 'The scribe service is not installed on this clinic server yet';
  return { status, code, message: `${what}: ${message || `the service answered ${status}`}` };
}

const listOf = (body: unknown, key: string): Record<string, unknown>[] =>
  (Array.isArray(body) ? body : ((body as Record<string, unknown>)?.[key] ?? (body as Record<string, unknown>)?.data ?? [])) as Record<string, unknown>[];

/** The OIDC provider's list, read loosely (its exact shape is that service's to define). */
export function readAssistants(body: unknown): ConnectedAssistant[] {
  return listOf(body, 'assistants').map((a) => ({
    id: String(a.id ?? a.grant_id ?? a.client_id ?? ''),
    name: String(a.name ?? a.client_name ?? a.client_id ?? 'Assistant'),
    scopes: Array.isArray(a.scopes) ? a.scopes.map(String) : typeof a.scope === 'string' ? a.scope.split(' ') : [],
    connected_at: String(a.connected_at ?? a.created_at ?? ''),
    last_used_at: typeof a.last_used_at === 'string' ? a.last_used_at : null,
  }));
}

const numOrNull = (v: unknown) => (typeof v === 'number' ? v : null);

export function readModel(m: Record<string, unknown>): SpeechModel {
  const d = (m.download ?? {}) as Record<string, unknown>;
  return {
    id: String(m.id ?? ''), name: String(m.name ?? m.description ?? m.id ?? ''), description: String(m.description ?? ''),
    languages: Array.isArray(m.languages) ? m.languages.map(String) : [],
    size_bytes: typeof m.size_bytes === 'number' ? m.size_bytes : typeof m.approxMB === 'number' ? m.approxMB * 1e6 : null,
    installed: Boolean(m.installed), is_default: Boolean(m.is_default ?? m.default),
    download: {
      state: d.state === 'downloading' || d.state === 'failed' ? d.state : 'idle',
      bytes_done: numOrNull(d.bytes_done), bytes_total: numOrNull(d.bytes_total), percent: numOrNull(d.percent),
      message: typeof d.message === 'string' ? d.message : null,
    },
  };
}

export function readModels(body: unknown): SpeechModel[] {
  return listOf(body, 'models').map(readModel);
}

const LANGUAGE_STATUSES: readonly DictationLanguage['status'][] = ['ready', 'needs_model', 'unavailable'];

/** GET /voice/api/v2/languages; a status this app does not know is shown as not available. */
export function readLanguages(body: unknown): DictationLanguage[] {
  return listOf(body, 'languages').map((l) => ({
    id: String(l.id) as Language,
    name: String(l.name ?? l.id),
    status: LANGUAGE_STATUSES.find((s) => s === l.status) ?? 'unavailable',
    reason: typeof l.reason === 'string' ? l.reason : null,
  }));
}

/** What a client says when the server has no language list (an older clinic server): every language offered as before. */
export const NO_LANGUAGE_LIST = 'This clinic server does not say which languages it recognises.';
