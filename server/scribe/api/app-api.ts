import { Type } from 'typebox';
import { Available, Nothing, arg, appMethod, optionalArg } from '../../shared/app-method.js';
import { ServiceError } from '../../shared/errors.js';
import {
  HISTORY_PAGE, extensionFor, newTxnId, outputFormatOf, toDictationLanguages, toDictationStatus, toHistoryPage, uploadExtraData,
} from './app-shapes.js';
import { LANGUAGES, TEMPLATE_IDS } from '../contracts.js';
import { PatientParams } from '../../patients/schemas.js';
import { HistoryQuery } from './schemas.js';
import { ScribeValidationError } from '../service.js';
import { SpeechModel, SpeechModelId } from '../speech-models/schemas.js';
import { receiveUpload } from './uploads.js';

// ---- The dictation's shapes (their types and mappers: app-shapes.ts) --------------------------------------------

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

// ---- Methods --------------------------------------------------------------------------------------------------

const MAX_CHUNK = 16 * 1024 * 1024;
/** MediaRecorder's chunks as they arrive: bytes, at most 16 MiB each. */
const Bytes = Type.Unsafe<Uint8Array>({});
const AudioChunk = Type.Refine(Bytes, (v) => v instanceof Uint8Array && v.byteLength <= MAX_CHUNK, () => 'must be audio bytes (Uint8Array) of at most 16 MiB');

/** The scribe's refusals with what failed in front, as the browser's SDK flow words them (preload/scribe-flow.ts). */
async function explained<T>(what: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ScribeValidationError) {
      throw new ServiceError(422, 'INVALID_REQUEST', `${what}: ${e.details.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ')}`);
    }
    if (e instanceof ServiceError) throw new ServiceError(e.status, e.code, `${what}: ${e.message}`);
    throw e;
  }
}

/** Bytes of the recording written per progress report (as the SDK's Node poster sends them: sdk/node-upload.ts). */
const SLICE = 64 * 1024;

/**
 * The recording in slices for the upload receiver (uploads.ts), each reported once written: the receiver asks for
 * the next slice only after its write of this one has finished.
 */
async function* slices(audio: Buffer, onWritten: (bytes: number) => void) {
  for (let at = 0; at < audio.length; at += SLICE) {
    const end = Math.min(audio.length, at + SLICE);
    yield audio.subarray(at, end);
    onWritten(end);
  }
}

/**
 * Dictation and speech models (server/shared/app-method.ts). In the desktop app the recording is already on this
 * computer, so it goes to the scribe service in-process: the same presign, upload checks and init that the HTTP
 * flow runs, without the loopback round trips. A browser reaches the same service through the SDK instead.
 */
export const scribeMethods = {
  speechModels: appMethod({
    args: [], result: Available(Type.Array(SpeechModel)), access: 'admin',
    run: async (c) => ({ available: true as const, value: await c.service.speechModels.list(c.ctx) }),
  }),
  /** Starts downloading a model in the background; speechModels() shows the progress. */
  speechModelDownload: appMethod({
    args: [arg('modelId', SpeechModelId)], result: SpeechModel, access: 'admin',
    run: async (c, id) => (await c.service.speechModels.download(c.ctx, id)).model,
  }),
  /** Makes an installed model the clinic's default; the list as it is now. */
  speechModelSetDefault: appMethod({
    args: [arg('modelId', SpeechModelId)], result: Type.Array(SpeechModel), access: 'admin',
    run: (c, id) => c.service.speechModels.setDefault(c.ctx, id),
  }),

  // Audio kept on this computer in chunks while recording (a crash loses at most the last second), then uploaded.
  recordingStart: appMethod({
    args: [arg('meta', RecordingMetaSchema)], result: RecordingSchema, access: 'scribe',
    run: (c, meta) => c.host.recordings.start(meta),
  }),
  recordingAppend: appMethod({
    args: [arg('recordingId', RecordingIdSchema), arg('seq', Type.Integer({ minimum: 0, maximum: 999_999 })), arg('chunk', AudioChunk)],
    result: Nothing, access: 'scribe',
    run: (c, id, seq, chunk) => c.host.recordings.append(id, seq, chunk),
  }),
  recordingFinish: appMethod({
    args: [arg('recordingId', RecordingIdSchema), arg('durationS', Type.Number({ minimum: 0, maximum: 24 * 3600 }))], result: RecordingSchema, access: 'scribe',
    run: (c, id, durationS) => c.host.recordings.finish(id, durationS),
  }),
  recordings: appMethod({ args: [], result: Type.Array(RecordingSchema), access: 'scribe', run: (c) => c.host.recordings.list() }),
  recordingAudio: appMethod({
    args: [arg('recordingId', RecordingIdSchema)], result: Bytes, access: 'scribe',
    run: (c, id) => new Uint8Array(c.host.recordings.audio(id)),
  }),
  recordingDiscard: appMethod({
    args: [arg('recordingId', RecordingIdSchema)], result: Nothing, access: 'scribe',
    run: (c, id) => c.host.recordings.discard(id),
  }),
  uploadDictation: appMethod({
    args: [arg('recordingId', RecordingIdSchema), arg('options', DictationOptionsSchema)], result: UploadedSchema, access: 'scribe',
    progress: UploadProgressSchema,
    async run(c, recordingId, options) {
      const { recordings } = c.host;
      const { scribe } = c.service;
      const rec = recordings.get(recordingId);
      const audio = recordings.audio(recordingId);
      if (audio.length === 0) throw new ServiceError(400, 'EMPTY_RECORDING', 'This recording has no audio. Record again, and check the microphone level meter moves.');
      const total = audio.length;
      c.progress({ phase: 'preparing', loaded: 0, total });
      const txnId = newTxnId();
      // The patient goes in the extra data, which the service keeps as the session's additional_data: the patient's history lists it.
      const extraData = uploadExtraData(rec, options);
      await explained('The audio could not be uploaded', async () => {
        const presigned = await scribe.presign(c.ctx, { txnId, extraData, uploadUrl: 'in-process' });
        const target = await scribe.authorizeUpload({ ...presigned.uploadData.fields, key: `${presigned.folderPath}dictation.${extensionFor(rec.mime_type)}` });
        // Once the audio is in, what is left (init) is starting the transcription.
        await receiveUpload(scribe, target, slices(audio, (loaded) => c.progress({ phase: loaded >= total ? 'starting' : 'uploading', loaded, total })));
      });
      const format = outputFormatOf(options);
      await explained('Transcription could not start', async () => scribe.init(c.ctx, txnId, {
        mode: options.mode, model_type: options.model_type, input_language: format.input_language,
        output_format_template: format.output_template, additional_data: extraData,
      }, await scribe.speechSurvey()));
      recordings.markUploaded(recordingId, txnId);
      return { txn_id: txnId };
    },
  }),
  dictationStatus: appMethod({
    args: [arg('txnId', TxnIdSchema)], result: DictationStatusSchema, access: 'scribe',
    run: (c, txnId) => explained('The transcription status could not be read', async () => {
      const { code, body } = await c.service.scribe.status(c.ctx, txnId);
      const output = body.data.output.map((o) => ({ ...o, decoded: o.value ? (JSON.parse(Buffer.from(o.value, 'base64').toString('utf8')) as Record<string, unknown>) : null }));
      return toDictationStatus(txnId, { httpStatus: code, data: { ...body.data, output } });
    }),
  }),
  /** A patient's scribe sessions on the service, newest first, a page at a time (cursor: the last page's next_cursor). */
  scribeHistory: appMethod({
    args: [arg('patientId', PatientParams.properties.patient_id), optionalArg('cursor', HistoryQuery.properties.cursor)],
    result: ScribeHistoryPageSchema, access: 'scribe',
    run: (c, patientId, cursor) => explained('Past sessions could not be read', async () =>
      toHistoryPage(await c.service.scribe.history(c.ctx, { patient_id: patientId, cursor, limit: HISTORY_PAGE, order: 'signed_first' }))),
  }),
  /** Each language the dictation can be in, and whether the server recognises it now. */
  dictationLanguages: appMethod({
    args: [], result: Available(Type.Array(DictationLanguageSchema)), access: 'scribe',
    run: async (c) => ({ available: true as const, value: toDictationLanguages(await c.service.scribe.languages()) }),
  }),
};
