import type { Static } from 'typebox';
import type {
  DictationLanguageSchema, DictationOptionsSchema, DictationStatusSchema, LanguageSchema, RecordingMetaSchema, RecordingSchema, ScribeHistoryPageSchema,
  ScribeSessionSummarySchema, TemplateIdSchema, TemplateResultSchema, UploadProgressSchema,
} from './app-schemas.js';

/**
 * The dictation's shapes as the app sees them (Static<> of the schemas in app-schemas.ts), and the one mapper per shape,
 * shared by the app's in-process scribe (operations.ts) and the browser's SDK flow (preload/scribe-flow.ts). Types and
 * mappers only: the renderer bundles this.
 */
export type TemplateId = Static<typeof TemplateIdSchema>;
export type Language = Static<typeof LanguageSchema>;
export type RecordingMeta = Static<typeof RecordingMetaSchema>;
export type Recording = Static<typeof RecordingSchema>;
export type DictationOptions = Static<typeof DictationOptionsSchema>;
export type UploadProgress = Static<typeof UploadProgressSchema>;
export type TemplateResult = Static<typeof TemplateResultSchema>;
export type DictationStatus = Static<typeof DictationStatusSchema>;
export type ScribeSessionSummary = Static<typeof ScribeSessionSummarySchema>;
export type ScribeHistoryPage = Static<typeof ScribeHistoryPageSchema>;
export type DictationLanguage = Static<typeof DictationLanguageSchema>;

/** The app's names of the templates, as the dictation screen and the results show them. */
export const TEMPLATE_NAMES: Record<string, string> = {
  clinical_notes_template: 'Clinical notes',
  service_emr_template: 'EMR (structured)',
  transcript_template: 'Transcript',
};

/** Where the app keeps dictation audio (main/recordings.ts in the desktop app; IndexedDB in a browser). */
export interface RecordingStore {
  start(meta: RecordingMeta): Recording;
  append(id: string, seq: number, chunk: Uint8Array): void;
  finish(id: string, durationS: number): Recording;
  markUploaded(id: string, txnId: string): Recording;
  get(id: string): Recording;
  list(): Recording[];
  audio(id: string): Buffer;
  discard(id: string): void;
}

/** A session's status answer (GET /voice/api/v3/status) with each output value decoded, as the SDK returns it. */
export interface StatusAnswer {
  httpStatus: number;
  data: {
    output: { template_id: string; name: string; status: TemplateResult['status']; errors?: string[]; warnings?: string[]; decoded: Record<string, unknown> | null }[];
    additional_data?: Record<string, unknown>;
  };
}

/** A session's status as the UI shows it. */
export function toDictationStatus(txnId: string, s: StatusAnswer): DictationStatus {
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

/** What the upload puts in the session's extra data: the patient (so the patient's history lists it) and where it came from. */
export const uploadExtraData = (rec: Pick<Recording, 'id' | 'patient_id' | 'appointment_id'>, o: DictationOptions) => ({
  mode: o.mode, model_type: o.model_type, ...(rec.patient_id ? { patient_id: rec.patient_id } : {}),
  ...(rec.appointment_id ? { appointment_id: rec.appointment_id } : {}), recording_id: rec.id, source: 'clinic-desk-app',
});

/** The options as the scribe's output format: languages and templates. */
export const outputFormatOf = (o: DictationOptions) => ({
  input_language: [o.language],
  output_template: o.templates.map((template_id) => ({ template_id, codification_needed: o.codify })),
});

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

// ---- History and languages ------------------------------------------------------------------------------------

/** Sessions per history page: a screenful. */
export const HISTORY_PAGE = 20;

/** The sessions list's page as the app shows it. */
export const toHistoryPage = (page: { data: (ScribeSessionSummary & { updated_at: string })[]; next_cursor: string | null }): ScribeHistoryPage =>
  ({ sessions: page.data.map(({ updated_at: _updated, ...s }) => s), next_cursor: page.next_cursor });

const LANGUAGE_STATUSES: readonly DictationLanguage['status'][] = ['ready', 'needs_model', 'unavailable'];

/** The languages list's entries; a status this app does not know (a newer server) is shown as not available. */
export function toDictationLanguages(list: readonly { id?: unknown; name?: unknown; status?: unknown; reason?: unknown }[]): DictationLanguage[] {
  return list.map((l) => ({
    id: String(l.id) as Language,
    name: String(l.name ?? l.id),
    status: LANGUAGE_STATUSES.find((s) => s === l.status) ?? 'unavailable',
    reason: typeof l.reason === 'string' ? l.reason : null,
  }));
}
