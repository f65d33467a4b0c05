/**
 * The browser's dictations through the scribe SDK (sdk/scribe-client.ts), for renderer/src/transport/http.ts (which
 * posts the audio with XMLHttpRequest) and for integrations written like it. The desktop app calls the scribe
 * service in-process instead (server/scribe/api/operations.ts); both build the same request and read the answers with the
 * same mappers (server/scribe/api/app-shapes.ts). Here the SDK's answers and errors become what the UI shows.
 */
import { type ScribeClient, ScribeApiError, type ScribeStep } from '../sdk/scribe-client.js';
import {
  type DictationOptions, type DictationStatus, HISTORY_PAGE, type Recording, type ScribeHistoryPage, type UploadProgress, extensionFor, newTxnId,
  outputFormatOf, toDictationStatus, toHistoryPage, uploadExtraData,
} from '../server/scribe/api/app-shapes.js';
import type { ClinicFailure } from './contract.js';

export { TEMPLATE_NAMES } from '../server/scribe/api/app-shapes.js';

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
    extraData: uploadExtraData(rec, o),
    outputFormat: outputFormatOf(o),
    // Once the audio is out, what is left (the sidecar and init) is starting the transcription.
    onProgress: ({ loaded, total }) => onProgress({ phase: total > 0 && loaded >= total ? 'starting' : 'uploading', loaded, total }),
  }));
  return { txn_id: txnId };
}

/** A session's status as the UI shows it. */
export async function dictationStatus(client: ScribeClient, txnId: string): Promise<DictationStatus> {
  return toDictationStatus(txnId, await clinicFailures(client.getSessionStatus(txnId)));
}

/** A page of a patient's past sessions, newest first. */
export async function scribeHistory(client: ScribeClient, patientId: string, cursor?: string, limit = HISTORY_PAGE): Promise<ScribeHistoryPage> {
  return toHistoryPage(await clinicFailures(client.listSessions({ patientId, cursor, limit, order: 'signed_first' })));
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

/** What a client says when the server has no language list (an older clinic server): every language offered as before. */
export const NO_LANGUAGE_LIST = 'This clinic server does not say which languages it recognises.';
