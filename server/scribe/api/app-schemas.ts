import { Type } from 'typebox';
import { LANGUAGES, TEMPLATE_IDS } from '../contracts.js';

/**
 * The dictation's shapes as the app sees them (the operations in operations.ts answer with them); their types and
 * mappers, typebox-free for the renderer, are in app-shapes.ts.
 */

export const TemplateIdSchema = Type.Enum(TEMPLATE_IDS);
export const LanguageSchema = Type.Enum(LANGUAGES);

export const RecordingIdSchema = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });
export const TxnIdSchema = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' });

export const RecordingMetaSchema = Type.Object({
  patient_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  patient_name: Type.Optional(Type.String({ maxLength: 200 })),
  appointment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  mime_type: Type.String({ minLength: 1, maxLength: 100, pattern: '^audio/[A-Za-z0-9.+-]+(;.*)?$', description: 'What MediaRecorder produces, e.g. audio/webm;codecs=opus' }),
}, { additionalProperties: false });

/** A recording kept on this computer, in chunks, as it was made (a crash loses at most the last second). */
export const RecordingSchema = Type.Object({
  ...RecordingMetaSchema.properties,
  id: Type.String(),
  created_at: Type.String(),
  chunks: Type.Integer(),
  bytes: Type.Integer(),
  finished: Type.Boolean({ description: 'Set when recording stopped normally; an unfinished one survived a crash and can still be uploaded' }),
  duration_s: Type.Union([Type.Number(), Type.Null()]),
  txn_id: Type.Union([Type.String(), Type.Null()], { description: 'The scribe transaction it was uploaded as, once uploaded' }),
  uploaded_at: Type.Union([Type.String(), Type.Null()]),
});

export const DictationOptionsSchema = Type.Object({
  templates: Type.Array(TemplateIdSchema, { minItems: 1, maxItems: 3, uniqueItems: true }),
  language: LanguageSchema,
  mode: Type.Union([Type.Literal('dictation'), Type.Literal('consultation')]),
  model_type: Type.Union([Type.Literal('pro'), Type.Literal('lite')]),
  codify: Type.Boolean(),
}, { additionalProperties: false });

export const UploadProgressSchema = Type.Object({
  phase: Type.Union([Type.Literal('preparing'), Type.Literal('uploading'), Type.Literal('starting')]),
  loaded: Type.Number(),
  total: Type.Number(),
});

export const UploadedSchema = Type.Object({ txn_id: Type.String() });

export const TemplateResultSchema = Type.Object({
  template_id: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal('success'), Type.Literal('partial_success'), Type.Literal('failure')]),
  json: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'The template\'s JSON (templates.md), decoded from Base64; null when it failed' }),
  errors: Type.Array(Type.String()),
  warnings: Type.Array(Type.String()),
});

export const DictationStatusSchema = Type.Object({
  txn_id: Type.String(),
  state: Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('partial'), Type.Literal('failed')]),
  stage: Type.Union([Type.String(), Type.Null()], { description: 'The pipeline\'s stage while processing' }),
  percent: Type.Union([Type.Number(), Type.Null()]),
  results: Type.Array(TemplateResultSchema),
  errors: Type.Array(Type.String()),
});

/** A past scribe session (GET /voice/api/v2/sessions): status as the service says it (awaiting_init … failed). */
export const ScribeSessionSummarySchema = Type.Object({
  txn_id: Type.String(),
  created_at: Type.String(),
  status: Type.String(),
  stage: Type.Union([Type.String(), Type.Null()]),
  percent: Type.Union([Type.Number(), Type.Null()]),
  patient_id: Type.Union([Type.String(), Type.Null()]),
  templates: Type.Array(Type.String()),
  errors: Type.Array(Type.String()),
  /** The doctor's note on it: null before any, draft while edited, signed or amended once signed (docs/API.md, Notes). */
  note_status: Type.Union([Type.Literal('draft'), Type.Literal('signed'), Type.Literal('amended'), Type.Null()]),
  note_version: Type.Number(),
});

/** A page of a patient's past sessions, signed notes first; pass next_cursor back for older ones (null: no more). */
export const ScribeHistoryPageSchema = Type.Object({
  sessions: Type.Array(ScribeSessionSummarySchema),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

/**
 * A language to dictate in, as the clinic server recognises it now (GET /voice/api/v2/languages): ready, needs a
 * speech model download (Settings → Speech models), or not on this server; reason says why and how, null when ready.
 */
export const DictationLanguageSchema = Type.Object({
  id: LanguageSchema,
  name: Type.String(),
  status: Type.Union([Type.Literal('ready'), Type.Literal('needs_model'), Type.Literal('unavailable')]),
  reason: Type.Union([Type.String(), Type.Null()]),
});
