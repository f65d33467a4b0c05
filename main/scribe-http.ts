import type {
  ClinicFailure, ConnectedAssistant, DictationLanguage, DictationOptions, DictationStatus, Optional, Recording, ScribeHistoryPage, SpeechModel, UploadProgress,
} from '../preload/contract.js';
import {
  NO_LANGUAGE_LIST, dictationStatus, readAssistants, readLanguages, readModel, readModels, scribeFailure, scribeHistory, uploadDictation,
} from '../preload/scribe-flow.js';
import { nodePostForm } from '../sdk/node-upload.js';
import { ScribeClient } from '../sdk/scribe-client.js';

export { readAssistants, readModels };

/**
 * The backends main reaches over its own embedded HTTP server (with the signed-in user's token), because they
 * are separate services whose HTTP face is their contract: the scribe flow (through the SDK), the
 * connected-assistants list of the OIDC provider, the speech models. Where the OIDC provider or the speech models
 * are not installed (their route answers the plain 404), the answer says so rather than failing.
 */
export function embeddedHttp(baseUrl: string) {
  const unreachable = (e: Error): ClinicFailure =>
    ({ status: 0, code: 'SERVICE_UNREACHABLE', message: `The clinic service did not answer (${e.message}). Restart Clinic Desk.` });

  async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    let res: Response;
    try {
      res = await fetch(new URL(path, baseUrl), {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw unreachable(e as Error);
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

  /** The scribe SDK with the user's token; the recording (in memory) goes out through node:http, with progress. */
  const scribe = (token: string) => new ScribeClient({
    baseUrl, auth: token, postForm: nodePostForm,
    fetch: (input, init) => fetch(input, init).catch((e: Error) => Promise.reject(unreachable(e))),
  });

  return {
    upload: (token: string, rec: Recording, audio: Buffer, o: DictationOptions, onProgress: (p: UploadProgress) => void): Promise<{ txn_id: string }> =>
      uploadDictation(scribe(token), rec, new Blob([audio as Uint8Array<ArrayBuffer>]), o, onProgress),
    status: (token: string, txnId: string): Promise<DictationStatus> => dictationStatus(scribe(token), txnId),
    history: (token: string, patientId: string, cursor?: string): Promise<ScribeHistoryPage> => scribeHistory(scribe(token), patientId, cursor),

    async languages(token: string): Promise<Optional<DictationLanguage[]>> {
      const r = await call('GET', '/voice/api/v2/languages', token);
      if (missing(r)) return { available: false, reason: NO_LANGUAGE_LIST };
      if (r.status !== 200) throw scribeFailure(r.status, r.body, 'The dictation languages could not be read');
      return { available: true, value: readLanguages(r.body) };
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
