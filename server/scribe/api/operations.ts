import { type Static, Type } from 'typebox';
import { PatientParams } from '../../patients/schemas.js';
import { type AppHost, Available, Nothing, arg, optionalArg } from '../../shared/app-method.js';
import { ServiceError } from '../../shared/errors.js';
import { guard, operation } from '../../shared/operation.js';
import { ScribeValidationError } from '../service.js';
import {
  DictationLanguageSchema, DictationOptionsSchema, DictationStatusSchema, RecordingIdSchema, RecordingMetaSchema, RecordingSchema,
  ScribeHistoryPageSchema, TxnIdSchema, UploadProgressSchema, UploadedSchema,
} from './app-schemas.js';
import {
  HISTORY_PAGE, extensionFor, newTxnId, outputFormatOf, toDictationLanguages, toDictationStatus, toHistoryPage, uploadExtraData,
} from './app-shapes.js';
import { HistoryQuery } from './schemas.js';
import { receiveUpload } from './uploads.js';

const MAX_CHUNK = 16 * 1024 * 1024;
/** MediaRecorder's chunks as they arrive: bytes, at most 16 MiB each. */
const Bytes = Type.Unsafe<Uint8Array>({});
const AudioChunk = Type.Refine(Bytes, (v) => v instanceof Uint8Array && v.byteLength <= MAX_CHUNK, () => 'must be audio bytes (Uint8Array) of at most 16 MiB');

/** The scribe routes' refusal (server/scribe/api/routes.ts), for every dictation operation. */
const scribe = guard('scribe', { code: 'forbidden', audit: 'scribe.access' });
const recordingId = arg('recordingId', RecordingIdSchema);

/** The recordings on this computer, which the desktop app's host keeps (a browser keeps its own, in its transport). */
function recordingsOf(host: AppHost | undefined) {
  if (!host) throw new ServiceError(501, 'NOT_AVAILABLE', 'Recordings are kept on this computer by the desktop app');
  return host.recordings;
}

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

type Options = Static<typeof DictationOptionsSchema>;

/**
 * Dictation, each operation declared once (server/shared/operation.ts), offered to the app only. In the desktop app
 * the recording is already on this computer (`call.host`), so it goes to the scribe service in-process: the same
 * presign, upload checks and init that the HTTP flow runs, without the loopback round trips. A browser keeps its
 * recordings itself and reaches the same service through the SDK (renderer/src/transport/http.ts, `inTransport`).
 *
 * The scribe's public routes (routes.ts: presign, the upload receiver, init, status, languages, the past sessions) stay
 * routes of their own, the deliberate exception: endpoint 7 is upstream's, with its multipart upload, its error
 * shapes per route (`scribe`, `scribe-status`, init's 422 details) and its answers, none of them the app's results;
 * the app's methods word the scribe's refusals with what failed in front (`explained`) and map the answers.
 */
export const dictationOperations = {
  // Audio kept on this computer in chunks while recording (a crash loses at most the last second), then uploaded.
  recordingStart: operation({
    access: scribe,
    run: async ({ host }, meta: Static<typeof RecordingMetaSchema>) => recordingsOf(host).start(meta),
    app: { args: [arg('meta', RecordingMetaSchema)], result: RecordingSchema, input: (meta) => meta, output: (rec) => rec, inTransport: true },
  }),
  recordingAppend: operation({
    access: scribe,
    run: async ({ host }, { id, seq, chunk }: { id: string; seq: number; chunk: Uint8Array }) => recordingsOf(host).append(id, seq, chunk),
    app: {
      args: [recordingId, arg('seq', Type.Integer({ minimum: 0, maximum: 999_999 })), arg('chunk', AudioChunk)], result: Nothing,
      input: (id, seq, chunk) => ({ id, seq, chunk }), output: () => undefined, inTransport: true,
    },
  }),
  recordingFinish: operation({
    access: scribe,
    run: async ({ host }, { id, durationS }: { id: string; durationS: number }) => recordingsOf(host).finish(id, durationS),
    app: {
      args: [recordingId, arg('durationS', Type.Number({ minimum: 0, maximum: 24 * 3600 }))], result: RecordingSchema,
      input: (id, durationS) => ({ id, durationS }), output: (rec) => rec, inTransport: true,
    },
  }),
  recordings: operation({
    access: scribe,
    run: async ({ host }) => recordingsOf(host).list(),
    app: { args: [], result: Type.Array(RecordingSchema), input: () => undefined, output: (list) => list, inTransport: true },
  }),
  recordingAudio: operation({
    access: scribe,
    run: async ({ host }, id: string) => new Uint8Array(recordingsOf(host).audio(id)),
    app: { args: [recordingId], result: Bytes, input: (id) => id, output: (audio) => audio, inTransport: true },
  }),
  recordingDiscard: operation({
    access: scribe,
    run: async ({ host }, id: string) => recordingsOf(host).discard(id),
    app: { args: [recordingId], result: Nothing, input: (id) => id, output: () => undefined, inTransport: true },
  }),

  uploadDictation: operation({
    access: scribe,
    async run({ service, ctx, host, progress }, { id, options }: { id: string; options: Options }) {
      const recordings = recordingsOf(host);
      const report = (p: Static<typeof UploadProgressSchema>) => progress?.(p);
      const { scribe: scribeService } = service;
      const rec = recordings.get(id);
      const audio = recordings.audio(id);
      if (audio.length === 0) throw new ServiceError(400, 'EMPTY_RECORDING', 'This recording has no audio. Record again, and check the microphone level meter moves.');
      const total = audio.length;
      report({ phase: 'preparing', loaded: 0, total });
      const txnId = newTxnId();
      // The patient goes in the extra data, which the service keeps as the session's additional_data: the patient's history lists it.
      const extraData = uploadExtraData(rec, options);
      await explained('The audio could not be uploaded', async () => {
        const presigned = await scribeService.presign(ctx, { txnId, extraData, uploadUrl: 'in-process' });
        const target = await scribeService.authorizeUpload({ ...presigned.uploadData.fields, key: `${presigned.folderPath}dictation.${extensionFor(rec.mime_type)}` });
        // Once the audio is in, what is left (init) is starting the transcription.
        await receiveUpload(scribeService, target, slices(audio, (loaded) => report({ phase: loaded >= total ? 'starting' : 'uploading', loaded, total })));
      });
      const format = outputFormatOf(options);
      await explained('Transcription could not start', async () => scribeService.init(ctx, txnId, {
        mode: options.mode, model_type: options.model_type, input_language: format.input_language,
        output_format_template: format.output_template, additional_data: extraData,
      }, await scribeService.speechSurvey()));
      recordings.markUploaded(id, txnId);
      return { txn_id: txnId };
    },
    app: {
      args: [recordingId, arg('options', DictationOptionsSchema)], result: UploadedSchema, progress: UploadProgressSchema,
      input: (id, options) => ({ id, options }), output: (uploaded) => uploaded, inTransport: true,
    },
  }),

  dictationStatus: operation({
    access: scribe,
    run: ({ service, ctx }, txnId: string) => explained('The transcription status could not be read', async () => {
      const { code, body } = await service.scribe.status(ctx, txnId);
      const output = body.data.output.map((o) => ({ ...o, decoded: o.value ? (JSON.parse(Buffer.from(o.value, 'base64').toString('utf8')) as Record<string, unknown>) : null }));
      return toDictationStatus(txnId, { httpStatus: code, data: { ...body.data, output } });
    }),
    app: { args: [arg('txnId', TxnIdSchema)], result: DictationStatusSchema, input: (txnId) => txnId, output: (status) => status, inTransport: true },
  }),

  /** A patient's scribe sessions on the service, newest first, a page at a time (cursor: the last page's next_cursor). */
  scribeHistory: operation({
    access: scribe,
    run: ({ service, ctx }, { patientId, cursor }: { patientId: string; cursor?: string }) => explained('Past sessions could not be read', async () =>
      toHistoryPage(await service.scribe.history(ctx, { patient_id: patientId, cursor, limit: HISTORY_PAGE, order: 'signed_first' }))),
    app: {
      args: [arg('patientId', PatientParams.properties.patient_id), optionalArg('cursor', HistoryQuery.properties.cursor)], result: ScribeHistoryPageSchema,
      input: (patientId, cursor) => ({ patientId, cursor }), output: (page) => page, inTransport: true,
    },
  }),

  /** Each language the dictation can be in, and whether the server recognises it now. */
  dictationLanguages: operation({
    access: scribe,
    run: async ({ service }) => toDictationLanguages(await service.scribe.languages()),
    app: {
      args: [], result: Available(Type.Array(DictationLanguageSchema)), input: () => undefined,
      output: (value) => ({ available: true as const, value }), inTransport: true,
    },
  }),
};
