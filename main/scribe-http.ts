import { request as httpRequest } from 'node:http';
import type {
  ClinicFailure, ConnectedAssistant, DictationOptions, DictationStatus, Optional, Recording, ScribeSessionSummary, SpeechModel, UploadProgress,
} from '../preload/contract.js';
export { readAssistants, readModels };
import {
  type Presigned, extensionFor, extraData, historyPath, initBody, initPath, newTxnId, presignPath, readAssistants, readHistory, readModel, readModels,
  readStatus, scribeFailure, statusPath, uploadFields,
} from '../preload/scribe-flow.js';

/**
 * The backends main reaches over its own embedded HTTP server (with the signed-in user's token), because they
 * are separate services whose HTTP face is their contract: the scribe flow, the connected-assistants list of the
 * OIDC provider, the speech models. Where one is not installed (its route answers the plain 404), the answer says
 * so rather than failing.
 */
export function embeddedHttp(baseUrl: string) {
  async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    let res: Response;
    try {
      res = await fetch(new URL(path, baseUrl), {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw { status: 0, code: 'SERVICE_UNREACHABLE', message: `The clinic service did not answer (${(e as Error).message}). Restart Clinic Desk.` } satisfies ClinicFailure;
    }
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  }

  /** A route that is not there answers our plain 404 NOT_FOUND "No route …". */
  const missing = (r: { status: number; body: unknown }) =>
    r.status === 404 && /^No route/.test(String((r.body as { error?: { message?: string } } | undefined)?.error?.message ?? ''));

  function postMultipart(url: URL, fields: [string, string][], fileName: string, contentType: string, audio: Buffer, onProgress: (loaded: number, total: number) => void) {
    const boundary = `----clinicdesk${Math.random().toString(16).slice(2)}`;
    const head = Buffer.from(fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')
      + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const total = head.length + audio.length + tail.length;
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': total } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      let sent = 0;
      const pieces = [head, ...Array.from({ length: Math.ceil(audio.length / 65536) }, (_, i) => audio.subarray(i * 65536, (i + 1) * 65536)), tail];
      const next = () => {
        const piece = pieces.shift();
        if (!piece) return req.end();
        sent += piece.length;
        const more = req.write(piece);
        onProgress(sent, total);
        if (more) setImmediate(next);
        else req.once('drain', next);
      };
      next();
    });
  }

  return {
    async scribeAvailable(token: string): Promise<Optional<true>> {
      const r = await call('GET', statusPath('availability-probe'), token);
      if (missing(r)) return { available: false, reason: 'The scribe service is not installed on this clinic server yet, so dictations cannot be transcribed. Recordings are still kept on this computer.' };
      return { available: true, value: true };
    },

    async upload(token: string, rec: Recording, audio: Buffer, o: DictationOptions, onProgress: (p: UploadProgress) => void): Promise<{ txn_id: string }> {
      const txnId = newTxnId();
      const ctx = { patient_id: rec.patient_id, appointment_id: rec.appointment_id, recording_id: rec.id };
      onProgress({ phase: 'preparing', loaded: 0, total: audio.length });
      const pre = await call('POST', presignPath(txnId), token, extraData(o, ctx));
      if (pre.status !== 200) throw scribeFailure(pre.status, pre.body, 'The upload could not start');
      const presigned = pre.body as Presigned;
      const fileName = `dictation.${extensionFor(rec.mime_type)}`;
      const target = new URL(presigned.uploadData.url, baseUrl);
      const up = await postMultipart(target, uploadFields(presigned, fileName), fileName, rec.mime_type.split(';')[0] || 'audio/webm', audio,
        (loaded, total) => onProgress({ phase: 'uploading', loaded, total }));
      if (up.status !== 204) {
        let body: unknown = up.body;
        try {
          body = JSON.parse(up.body);
        } catch { /* text */ }
        throw scribeFailure(up.status, body, 'The audio could not be uploaded');
      }
      onProgress({ phase: 'starting', loaded: audio.length, total: audio.length });
      const init = await call('POST', initPath(presigned.txn_id), token, initBody(o, ctx, presigned, fileName));
      if (init.status !== 201) throw scribeFailure(init.status, init.body, 'Transcription could not start');
      return { txn_id: presigned.txn_id };
    },

    async status(token: string, txnId: string): Promise<DictationStatus> {
      const r = await call('GET', statusPath(txnId), token);
      if (r.status >= 300) throw scribeFailure(r.status, r.body, 'The transcription status could not be read');
      return readStatus(txnId, r.status, r.body);
    },

    async history(token: string, patientId: string): Promise<ScribeSessionSummary[]> {
      const r = await call('GET', historyPath(patientId), token);
      if (r.status !== 200) throw scribeFailure(r.status, r.body, 'Past sessions could not be read');
      return readHistory(r.body);
    },

    async assistants(token: string): Promise<Optional<ConnectedAssistant[]>> {
      const r = await call('GET', '/api/v1/connected-assistants', token);
      if (missing(r)) return { available: false, reason: 'Connecting AI assistants (the OIDC sign-in) is not installed on this clinic server yet.' };
      if (r.status !== 200) throw scribeFailure(r.status, r.body, 'Connected assistants could not be read');
      return { available: true, value: readAssistants(r.body) };
    },

    async disconnectAssistant(token: string, id: string): Promise<void> {
      const r = await call('DELETE', `/api/v1/connected-assistants/${encodeURIComponent(id)}`, token);
      if (r.status >= 300) throw scribeFailure(r.status, r.body, 'The assistant could not be disconnected');
    },

    async speechModels(token: string): Promise<Optional<SpeechModel[]>> {
      const r = await call('GET', '/api/v1/speech-models', token);
      if (missing(r)) return { available: false, reason: 'Speech models are managed by the scribe service, which does not offer them here yet.' };
      if (r.status !== 200) throw scribeFailure(r.status, r.body, 'Speech models could not be read');
      return { available: true, value: readModels(r.body) };
    },

    async speechModelDownload(token: string, id: string): Promise<SpeechModel> {
      const r = await call('POST', `/api/v1/speech-models/${encodeURIComponent(id)}/download`, token);
      if (r.status !== 200 && r.status !== 202) throw scribeFailure(r.status, r.body, 'The download could not start');
      return readModel(r.body as Record<string, unknown>);
    },

    async speechModelSetDefault(token: string, id: string): Promise<SpeechModel[]> {
      const r = await call('PUT', '/api/v1/speech-models/default', token, { id });
      if (r.status !== 200) throw scribeFailure(r.status, r.body, 'The default model could not be changed');
      return readModels(r.body);
    },
  };
}
export type EmbeddedHttp = ReturnType<typeof embeddedHttp>;
