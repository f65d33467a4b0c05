import { OPERATION_METHODS, OPERATION_ROUTES, type OperationRoute } from '../../../preload/app-methods';
import type { ClinicApi, ClinicFailure, QueueBoard, SessionInfo, SpeechModel } from '../../../preload/contract';
import { NO_LANGUAGE_LIST, dictationStatus, scribeFailure, scribeHistory, uploadDictation } from '../../../preload/scribe-flow';
import { appMethodPath } from '../../../server/shared/app-method-path';
import { fromEntry } from '../../../server/patients/app-shapes';
import type { PatientEntry } from '../../../server/patients/schemas';
import { toDictationLanguages } from '../../../server/scribe/api/app-shapes';
import { type FormPoster, ScribeClient, multipartForm } from '../../../sdk/scribe-client';
import { browserRecordings } from './idb';

/**
 * window.clinic's interface over HTTP, for a plain browser that opened the clinic server's address (a second
 * front-desk PC). The user token from sign-in is kept for this tab only (sessionStorage) and sent as a bearer
 * token; dictation audio is kept in IndexedDB.
 *
 * The methods and their types come from their declarations (server/app-api.ts), whose implementations are service
 * code a browser cannot run. A method an operation declares is called on the operation's public route where its
 * answer is the method's result, else at its app route (POST /api/v1/app/<name>, which runs the declaration as IPC
 * does), both from the declaration (preload/app-methods.ts). For the others (not converted to operations yet, or
 * declared `inTransport`) each method's route is written here, once, and the answers are read with the same
 * mappers the app uses in-process (fromEntry, the scribe's app-shapes).
 */
const TOKEN_KEY = 'clinic-desk.token';
const token = () => sessionStorage.getItem(TOKEN_KEY);

interface Answer { status: number; body: unknown }

const UNREACHABLE: ClinicFailure = { status: 0, code: 'SERVICE_UNREACHABLE', message: 'The clinic server is not answering. Check that the clinic computer is on and Clinic Desk is running, then try again.' };

async function send(method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  const t = token();
  if (t) headers.authorization = `Bearer ${t}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    const text = body === undefined ? undefined : JSON.stringify(body);
    // A draft saved as the window closes completes after it (browsers take up to 64 KiB in all so: saves only).
    res = await fetch(path, { method, headers, body: text, keepalive: method === 'PUT' && (text?.length ?? 0) < 60_000 });
  } catch {
    throw UNREACHABLE;
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

/** Any of the API's error shapes (dr envelope, plain, webhook, notification) as the contract's failure. */
function failure({ status, body }: Answer): ClinicFailure {
  const b = (body ?? {}) as Record<string, unknown>;
  const e = b.error as { code?: string; message?: string } | string | undefined;
  if (e && typeof e === 'object') return { status, code: e.code ?? 'ERROR', message: e.message ?? `The server answered ${status}` };
  if (typeof b.message === 'string') return { status, code: typeof b.error_code === 'number' ? `HTTP_${b.error_code}` : 'ERROR', message: b.message };
  return { status, code: 'ERROR', message: `The server answered ${status}` };
}

async function api<T>(method: string, path: string, body?: unknown, ok: number[] = [200, 201, 202, 204]): Promise<T> {
  const a = await send(method, path, body);
  if (a.status === 401 && token()) sessionStorage.removeItem(TOKEN_KEY);
  if (!ok.includes(a.status)) throw failure(a);
  return a.body as T;
}

/** The dr envelope's data. */
const dr = async <T>(method: string, path: string, body?: unknown) => (await api<{ data: T }>(method, path, body)).data;

const missingRoute = (a: Answer) =>
  a.status === 404 && /^No route/.test(String((a.body as { error?: { message?: string } } | undefined)?.error?.message ?? ''));

interface SignedIn extends SessionInfo { token: string }
const keep = (s: SignedIn): SessionInfo => {
  sessionStorage.setItem(TOKEN_KEY, s.token);
  return { user: s.user, workspace: s.workspace };
};

const SANDBOX_IN_APP = 'The sandbox is turned on, off and reset in the desktop app on the clinic computer (Settings → Sandbox); a service run headless starts it with --sandbox and resets it with POST /api/v1/sandbox/reset.';
const sandboxInApp: ClinicFailure = { status: 501, code: 'SANDBOX_NOT_HERE', message: SANDBOX_IN_APP };

const CLINIC_SERVER_IN_APP = 'This browser uses the clinic server whose address it opened; the desktop app is the one that chooses a clinic server, in its Settings.';

/** The upload receiver's address as this browser can reach it (the server may name itself by its loopback address). */
function reachable(url: string): string {
  const u = new URL(url, location.origin);
  if (u.origin !== location.origin && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) return `${u.pathname}${u.search}`;
  return u.href;
}

/** The upload receiver's POST with XMLHttpRequest: unlike fetch, it reports upload progress. */
const xhrPoster: FormPoster = (url, fields, file, onProgress) => new Promise((resolve, reject) => {
  const xhr = new XMLHttpRequest();
  xhr.open('POST', reachable(url));
  xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.data.size);
  xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
  xhr.onerror = () => reject({ status: 0, code: 'UPLOAD_FAILED', message: 'The connection dropped during the upload. The recording is still saved here: try the upload again.' } satisfies ClinicFailure);
  xhr.send(multipartForm(fields, file));
});

/** The scribe SDK with this tab's token. */
const scribe = () => new ScribeClient({
  baseUrl: location.origin, auth: token() ?? '', postForm: xhrPoster,
  fetch: (input, init) => fetch(input, init).catch(() => Promise.reject(UNREACHABLE)),
});

/** An operation's app method on its public route: each argument where the declaration's schemas put it. */
function onRoute(r: OperationRoute, args: unknown[]) {
  let url = r.url;
  const query = new URLSearchParams(r.query);
  let body: unknown = undefined;
  r.args.forEach((place, i) => {
    const value = args[i];
    if (value === undefined) return;
    if (place.in === 'path') url = url.replace(`:${place.name}`, encodeURIComponent(String(value)));
    else if (place.in === 'query') query.set(place.name, String(value));
    else body = place.name ? { ...(body as object | undefined), [place.name]: value } : value;
  });
  const q = query.toString();
  const path = q ? `${url}?${q}` : url;
  return r.dr ? dr(r.method, path, body) : api(r.method, path, body);
}

type OperationMethod = (typeof OPERATION_METHODS)[number];
/**
 * The methods operations declare: on their public route where its answer is the method's result, otherwise at their
 * app route, which runs the same checks and implementation as IPC.
 */
const operationMethods = Object.fromEntries(OPERATION_METHODS.map((name) => {
  const route = OPERATION_ROUTES[name];
  return [name, route
    ? (...args: unknown[]) => onRoute(route, args)
    : async (...args: unknown[]) => (await api<{ value: unknown }>('POST', appMethodPath(name), args)).value];
})) as Pick<ClinicApi, OperationMethod>;

export const httpClinic: ClinicApi = {
  ...operationMethods,
  async serviceInfo() {
    const body = await api<{ version: string }>('GET', '/health');
    return { baseUrl: location.origin, version: body.version };
  },
  setupStatus: () => api('GET', '/api/v1/setup'),
  setup: async (input) => keep(await api<SignedIn>('POST', '/api/v1/setup', input)),
  signIn: async (input) => keep(await api<SignedIn>('POST', '/api/v1/session', input)),
  async signOut() {
    if (token()) await api('DELETE', '/api/v1/session').catch(() => undefined);
    sessionStorage.removeItem(TOKEN_KEY);
  },
  async changePassword(current, next) {
    // Not api(): its 401 means a dead session and drops the token, but here 401 is a wrong current password.
    const a = await send('POST', '/api/v1/session/password', { current_password: current, new_password: next });
    if (a.status !== 204) throw failure(a);
  },
  async session() {
    if (!token()) return null;
    const a = await send('GET', '/api/v1/me');
    if (a.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      return null;
    }
    if (a.status !== 200) throw failure(a);
    return a.body as SessionInfo;
  },

  // Written here (inTransport in server/patients/operations.ts): the front desk searches and registers on the public routes.
  async searchPatients(mobile) {
    const a = await send('GET', `/dr/v1/business/patients/search?mobile=${encodeURIComponent(mobile)}`);
    if (a.status === 404) return [];
    if (a.status !== 200) throw failure(a);
    return (a.body as { data: { profiles: PatientEntry[] } }).data.profiles.map(fromEntry);
  },
  createPatient: async (input) => fromEntry(await dr<PatientEntry>('POST', '/dr/v1/patient', input)),
  // Written here (inTransport in server/scribe/speech-models/operations.ts): a clinic server without the route says so.
  async speechModels() {
    const a = await send('GET', '/api/v1/speech-models');
    if (missingRoute(a)) return { available: false, reason: 'Speech models are managed by the scribe service, which does not offer them here yet.' };
    if (a.status !== 200) throw failure(a);
    return { available: true, value: (a.body as { models: SpeechModel[] }).models };
  },

  // Written here (inTransport in server/scribe/api/operations.ts): a browser keeps its recordings itself and reaches the
  // scribe through the SDK (preload/scribe-flow.ts).
  recordingStart: (meta) => browserRecordings.start(meta),
  recordingAppend: (id, seq, chunk) => browserRecordings.append(id, seq, chunk),
  recordingFinish: (id, durationS) => browserRecordings.update(id, { finished: true, duration_s: durationS }),
  recordings: () => browserRecordings.list(),
  recordingAudio: (id) => browserRecordings.audio(id),
  recordingDiscard: (id) => browserRecordings.discard(id),
  async uploadDictation(recordingId, options, onProgress) {
    const rec = await browserRecordings.get(recordingId);
    const audio = await browserRecordings.audio(recordingId);
    if (audio.byteLength === 0) throw { status: 400, code: 'EMPTY_RECORDING', message: 'This recording has no audio. Record again, and check that the level meter moves when you speak.' } satisfies ClinicFailure;
    const r = await uploadDictation(scribe(), rec, new Blob([audio as Uint8Array<ArrayBuffer>]), options, (p) => onProgress?.(p));
    await browserRecordings.update(recordingId, { txn_id: r.txn_id, uploaded_at: new Date().toISOString() });
    return r;
  },
  dictationStatus: (txnId) => dictationStatus(scribe(), txnId),
  scribeHistory: (patientId, cursor) => scribeHistory(scribe(), patientId, cursor),
  // Written here (inTransport in server/notes/operations.ts): the route's query schema for the version is its own, not the app argument's.
  noteFhir: (txnId, version) => api('GET', `/api/v1/notes/${encodeURIComponent(txnId)}/fhir?version=${encodeURIComponent(version)}`),
  // Written here (inTransport in server/notes/prescription-operations.ts): a browser's own print dialog saves PDFs too
  // (the same print stylesheet lays the page out); what it saved, it keeps to itself.
  printPrescriptionPdf: async () => {
    window.print();
    return { saved: false, path: null };
  },
  // Written here (inTransport in server/sandbox/operations.ts): the sandbox runs beside the desktop app's service, started
  // and reset by the app process, so a browser can only say so.
  sandboxStatus: async () => ({ available: false, reason: SANDBOX_IN_APP }),
  setSandboxEnabled: () => Promise.reject(sandboxInApp),
  resetSandbox: () => Promise.reject(sandboxInApp),
  // A tab is on the server whose address it opened; only the desktop app chooses a clinic server (and restarts on it).
  clinicServerChoice: async () => ({ available: false, reason: CLINIC_SERVER_IN_APP }),
  useClinicServer: () => Promise.reject({ status: 501, code: 'NOT_AVAILABLE', message: CLINIC_SERVER_IN_APP } satisfies ClinicFailure),
  joinClinicServerChoice: async () => ({ available: false, reason: CLINIC_SERVER_IN_APP }),
  joinClinicServer: () => Promise.reject({ status: 501, code: 'NOT_AVAILABLE', message: CLINIC_SERVER_IN_APP } satisfies ClinicFailure),
  async dictationLanguages() {
    const a = await send('GET', '/voice/api/v2/languages');
    if (missingRoute(a)) return { available: false, reason: NO_LANGUAGE_LIST };
    if (a.status !== 200) throw scribeFailure(a.status, a.body, 'The dictation languages could not be read');
    return { available: true, value: toDictationLanguages((a.body as { languages: Record<string, unknown>[] }).languages) };
  },
};

export type BoardLink = 'connecting' | 'live' | 'reconnecting' | 'signed-out';

/**
 * The waiting-room board as it changes, from the service's server-sent events (GET /dr/v1/queue/events), read with
 * fetch because EventSource cannot send the auth header. After a drop, or the stream's hourly end, it connects again
 * (the token is checked anew); a 401 or 403 stops it. Returns the function that stops it.
 */
export function watchQueueBoard(onBoard: (b: QueueBoard) => void, onLink: (l: BoardLink) => void): () => void {
  const controller = new AbortController();
  const parse = (block: string) => {
    // Our stream sends `event: board` blocks with one data line, and comment lines (keep-alives).
    const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
    if (data && /^event: board$/m.test(block)) onBoard(JSON.parse(data) as QueueBoard);
  };
  void (async () => {
    while (!controller.signal.aborted) {
      try {
        const res = await fetch('/dr/v1/queue/events', { headers: { authorization: `Bearer ${token() ?? ''}` }, signal: controller.signal });
        if (res.status === 401 || res.status === 403) {
          if (res.status === 401) sessionStorage.removeItem(TOKEN_KEY);
          onLink('signed-out');
          return;
        }
        if (res.ok && res.body) {
          onLink('live');
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value.replaceAll('\r\n', '\n');
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              parse(buffer.slice(0, end));
              buffer = buffer.slice(end + 2);
            }
          }
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      onLink('reconnecting');
      await new Promise((r) => setTimeout(r, 2000));
    }
  })();
  return () => controller.abort();
}
