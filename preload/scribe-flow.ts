/**
 * The scribe upload flow as the upstream SDKs drive it (decisions.md, Scribe), in pieces both transports share:
 * the browser transport (renderer/src/transport/http.ts) and the app's main process (main/scribe-http.ts) each do
 * the HTTP with their own tools, and build and read the bodies here.
 *
 *   1. POST /v1/file-upload?txn_id=&action=scribe-v2   (Bearer; body: extra_data)      → {uploadData{url,fields}, folderPath, txn_id}
 *   2. POST uploadData.url  multipart: fields, key = folderPath + file name, then file  → 204
 *   3. POST /voice/api/v2/transaction/init/{txn_id}     (Bearer; mode, languages, templates…) → 201
 *   4. GET  /voice/api/v3/status/{txn_id}               → 202 processing, 200 done, 206 partly done
 *
 *   GET /voice/api/v2/sessions?patient_id=               → {data:[…], next_cursor}: a patient's past sessions
 */
import type { ClinicFailure, ConnectedAssistant, DictationOptions, DictationStatus, ScribeSessionSummary, SpeechModel, TemplateResult } from './contract.js';

export const SCRIBE_ACTION = 'scribe-v2';

export const TEMPLATE_NAMES: Record<string, string> = {
  clinical_notes_template: 'Clinical notes',
  service_emr_template: 'EMR (structured)',
  transcript_template: 'Transcript',
};

/** A transaction id the service accepts (1-128 of A-Z a-z 0-9 . _ : -). */
export const newTxnId = () => `dict-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${crypto.randomUUID()}`;

export const presignPath = (txnId: string) => `/v1/file-upload?txn_id=${encodeURIComponent(txnId)}&action=${SCRIBE_ACTION}`;
export const initPath = (txnId: string) => `/voice/api/v2/transaction/init/${encodeURIComponent(txnId)}`;
export const statusPath = (txnId: string) => `/voice/api/v3/status/${encodeURIComponent(txnId)}?action=${SCRIBE_ACTION}`;

export const historyPath = (patientId: string) => `/voice/api/v2/sessions?patient_id=${encodeURIComponent(patientId)}`;

export interface Presigned {
  uploadData: { url: string; fields: Record<string, string> };
  folderPath: string;
  txn_id: string;
}

export interface DictationContext {
  patient_id?: string;
  appointment_id?: string;
  recording_id: string;
}

export const extraData = (o: DictationOptions, c: DictationContext) => ({
  mode: o.mode, model_type: o.model_type, ...(c.patient_id ? { patient_id: c.patient_id } : {}),
  ...(c.appointment_id ? { appointment_id: c.appointment_id } : {}), recording_id: c.recording_id, source: 'clinic-desk-app',
});

export function initBody(o: DictationOptions, c: DictationContext, presigned: Presigned, fileName: string) {
  const file = `${presigned.folderPath}${fileName}`;
  return {
    mode: o.mode,
    model_type: o.model_type,
    input_language: [o.language],
    output_format_template: o.templates.map((template_id) => ({ template_id, codification_needed: o.codify })),
    transfer: 'non-vaded',
    batch_s3_url: presigned.folderPath,
    client_generated_files: [file],
    additional_data: extraData(o, c),
  };
}

/** The multipart fields of step 2, in order: the presigned fields with key set to the file's own key. */
export const uploadFields = (presigned: Presigned, fileName: string): [string, string][] =>
  Object.entries({ ...presigned.uploadData.fields, key: `${presigned.folderPath}${fileName}` });

/** File extension for a MediaRecorder mime type (the service recognises audio by extension). */
export function extensionFor(mime: string): string {
  if (/webm/.test(mime)) return 'webm';
  if (/ogg/.test(mime)) return 'ogg';
  if (/mp4|m4a|aac/.test(mime)) return 'm4a';
  if (/wav/.test(mime)) return 'wav';
  return 'webm';
}

function decodeValue(value: string): Record<string, unknown> | null {
  if (!value) return null;
  try {
    const bin = atob(value);
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

interface StatusBody {
  data?: {
    output?: { template_id: string; value: string; name?: string; status: TemplateResult['status']; errors?: string[]; warnings?: string[] }[];
    additional_data?: Record<string, unknown>;
  };
}

/** Reads a session-status answer (its HTTP status and body) into what the UI shows. */
export function readStatus(txnId: string, httpStatus: number, body: unknown): DictationStatus {
  const b = (body ?? {}) as StatusBody;
  const extra = b.data?.additional_data ?? {};
  const results: TemplateResult[] = (b.data?.output ?? []).map((o) => ({
    template_id: o.template_id,
    name: TEMPLATE_NAMES[o.template_id] || o.name || o.template_id,
    status: o.status,
    json: decodeValue(o.value),
    errors: o.errors ?? [],
    warnings: o.warnings ?? [],
  }));
  const ours = typeof extra.status === 'string' ? extra.status : null;
  const errors = [...(Array.isArray(extra.errors) ? (extra.errors as unknown[]).map(String) : []), ...results.flatMap((r) => r.errors)];
  let state: DictationStatus['state'] = 'processing';
  if (httpStatus === 200) state = 'completed';
  else if (httpStatus === 206) state = results.some((r) => r.status !== 'failure') ? 'partial' : 'failed';
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

/** Reads a page of the sessions list into what the history shows. */
export function readHistory(body: unknown): ScribeSessionSummary[] {
  const list = ((body as { data?: unknown } | undefined)?.data ?? []) as Record<string, unknown>[];
  if (!Array.isArray(list)) return [];
  return list.map((s) => ({
    txn_id: String(s.txn_id ?? ''),
    created_at: String(s.created_at ?? ''),
    status: String(s.status ?? ''),
    stage: typeof s.stage === 'string' ? s.stage : null,
    percent: typeof s.percent === 'number' ? s.percent : null,
    patient_id: typeof s.patient_id === 'string' ? s.patient_id : null,
    templates: Array.isArray(s.templates) ? s.templates.map(String) : [],
    errors: Array.isArray(s.errors) ? s.errors.map(String) : [],
  }));
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
