/**
 * The scribe (interface endpoint 7) from TypeScript, exactly as the upstream SDKs drive it:
 *
 *   upload(files, {txnId, action, extraData, outputFormat})
 *     1. POST /v1/file-upload?txn_id=&action=            (Bearer, client-id; body: extra_data) → presigned POST
 *     2. one multipart POST per file to uploadData.url    (every field, key = folderPath + basename, file part last) → 204
 *     3. a multipart POST of the JSON sidecar             (key = folderPath + txn_id + ".json", file data.json) → 204
 *     4. POST /voice/api/v2/transaction/init/{txn_id}     (the Python SDK's body) → 201
 *   getSessionStatus(sessionId, action)  GET /voice/api/v3/status/{session_id}: 202 / 200 / 206, each output value
 *                                        Base64-decoded into `decoded`.
 *   listSessions({patientId, status, limit, cursor, order})  GET /voice/api/v2/sessions: past sessions, newest first or signed notes first (ours).
 *
 * Runs in Node ≥ 20 (files by path; over 100 MB they are streamed from disk rather than read whole) and in
 * browsers (files as {name, data: Blob}). Uploads report progress; the multipart POST is pluggable (`postForm`) so
 * a browser can post with XMLHttpRequest for real upload progress and Node with `nodePostForm` (sdk/node-upload.ts).
 * Token refresh comes from the TokenProvider (sdk/auth.ts): a 401 renews the token once and retries. The app in a
 * browser (renderer/src/transport/http.ts, through preload/scribe-flow.ts) and integrations drive the scribe through
 * this client; the desktop app calls the scribe service in-process instead (server/scribe/api/operations.ts).
 */
import { type TokenProvider, staticToken } from './auth.js';
import { type EnvironmentOptions, checkCredentials, environmentUrl } from './environment.js';
import { nodeFiles } from './node-upload.js';

export const V2_ACTIONS = ['scribe-v2', 'ekascribe-v2'];
/** Files larger than this are streamed from disk in the multipart POST (the interface's multipart threshold). */
export const MULTIPART_THRESHOLD = 100 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  wav: 'audio/wav', mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', ogg: 'audio/ogg', opus: 'audio/ogg',
  webm: 'audio/webm', flac: 'audio/flac', amr: 'audio/amr', json: 'application/json', mp4: 'audio/mp4', txt: 'text/plain',
};

/** The content type of a file name, from its extension (application/octet-stream when unknown). */
export function contentTypeOf(name: string): string {
  const ext = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

const basename = (p: string) => p.split(/[\\/]/).at(-1) ?? p;

export interface OutputTemplate {
  template_id: string;
  codification_needed?: boolean;
}

export interface OutputFormat {
  input_language?: string[] | null;
  output_template?: OutputTemplate[];
  [k: string]: unknown;
}

export interface UploadOptions {
  /** Transaction id (= session id later); a uuid when absent. */
  txnId?: string;
  /** scribe-v2 (default) or ekascribe-v2: both run the full flow (sidecar and init). */
  action?: string;
  /** mode (dictation|consultation), model_type (pro|lite), and anything to echo back in additional_data. */
  extraData?: Record<string, unknown>;
  outputFormat?: OutputFormat;
  /** Bytes of each file's multipart POST sent so far (the sidecar is not reported). */
  onProgress?: (p: { file: string; loaded: number; total: number }) => void;
}

/**
 * One multipart POST to the upload receiver: `fields` in order, then the file part; the receiver's answer. Progress
 * is in bytes of the request body, as far as the poster can tell.
 */
export type FormPoster = (
  url: string,
  fields: [string, string][],
  file: { name: string; type: string; data: Blob },
  onProgress?: (loaded: number, total: number) => void,
) => Promise<{ status: number; text: string }>;

/** A file by path (Node) or as a Blob with its name (browsers, or bytes already in memory). */
export type UploadInput = string | { name: string; data: Blob };

/** One per uploaded file, as the upstream SDKs return them. */
export interface UploadedFile {
  key: string;
  contentType: string;
  size: number;
  status: 'success';
  txn_id: string;
  /** Whether it was streamed from disk (over 100 MB) rather than read whole. */
  streamed: boolean;
}

export interface PresignResponse {
  uploadData: { url: string; fields: Record<string, string> };
  folderPath: string;
  txn_id: string;
}

export interface OutputEntry {
  template_id: string;
  value: string;
  type: string;
  name: string;
  status: 'success' | 'partial_success' | 'failure';
  errors: string[];
  warnings: string[];
  /** `value` decoded: Base64 → UTF-8 → JSON; null when empty or not JSON. */
  decoded: Record<string, unknown> | null;
}

export interface SessionStatus {
  /** 202 processing, 200 done, 206 some templates (or the whole session) failed. */
  httpStatus: number;
  data: { output: OutputEntry[]; additional_data: Record<string, unknown> };
}

/** The request that failed: step 1, 2 (a file or the sidecar), 4, the status or the sessions list. */
export type ScribeStep = 'presign' | 'upload' | 'init' | 'status' | 'sessions';

/** A non-2xx answer (or a 2xx other than the one the flow requires). `code` is the body's error code when it has one. */
export class ScribeApiError extends Error {
  constructor(readonly status: number, readonly body: unknown, message: string, readonly step: ScribeStep) {
    super(message);
    this.name = 'ScribeApiError';
  }

  get code(): string | null {
    const b = this.body as { error?: unknown; code?: unknown } | null;
    if (b && typeof b.error === 'object' && b.error && typeof (b.error as { code?: unknown }).code === 'string') return (b.error as { code: string }).code;
    return b && typeof b.code === 'string' ? b.code : null;
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Base64 → UTF-8 text, in Node and browsers alike. */
export function decodeBase64Utf8(value: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0)));
}

function decodeValue(value: string): Record<string, unknown> | null {
  if (!value) return null;
  try {
    const v = JSON.parse(decodeBase64Utf8(value)) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `baseUrl` is the clinic's service; `environment: 'sandbox'` sends every call to its sandbox (sdk/environment.ts). */
export interface ScribeClientOptions extends EnvironmentOptions {
  /** A TokenProvider (e.g. ClinicAuth from sdk/auth.ts) or a fixed token. */
  auth: TokenProvider | string;
  fetch?: typeof fetch;
  /** The upload receiver's multipart POST; by default fetch with FormData (progress only at the start and the end). */
  postForm?: FormPoster;
}

/** One page of listSessions. */
export interface SessionList {
  data: {
    txn_id: string;
    /** awaiting_init, queued, processing, completed, partial, failed */
    status: string;
    stage: string;
    percent: number;
    patient_id: string | null;
    templates: string[];
    errors: string[];
    /** The doctor's note on the session (ours): null, draft, signed or amended, and its latest version. */
    note_status: 'draft' | 'signed' | 'amended' | null;
    note_version: number;
    created_at: string;
    updated_at: string;
  }[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/** A poster's body as a browser form: the fields in order, then the file part. */
export function multipartForm(fields: [string, string][], file: { name: string; type: string; data: Blob }): FormData {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  form.append('file', new File([file.data], file.name, { type: file.type }));
  return form;
}

/** The default poster: fetch cannot report upload progress, so it says 0 before and everything after. */
const fetchPoster = (f: typeof fetch): FormPoster => async (url, fields, file, onProgress) => {
  onProgress?.(0, file.data.size);
  const res = await f(url, { method: 'POST', body: multipartForm(fields, file) });
  const text = await res.text();
  onProgress?.(file.data.size, file.data.size);
  return { status: res.status, text };
};

/** The presigned fields in order, with `key` set to the file's own key. */
const fieldsFor = (presigned: PresignResponse, key: string) =>
  Object.entries(presigned.uploadData.fields).map(([k, v]): [string, string] => [k, k === 'key' ? key : v]);

export class ScribeClient {
  private readonly base: string;
  private readonly auth: TokenProvider;
  private readonly f: typeof fetch;
  private readonly postForm: FormPoster;

  constructor(opts: ScribeClientOptions) {
    this.base = environmentUrl(opts);
    if (typeof opts.auth === 'string') checkCredentials(opts.environment ?? 'production', { auth: opts.auth });
    this.auth = typeof opts.auth === 'string' ? staticToken(opts.auth) : opts.auth;
    this.f = opts.fetch ?? ((...a) => fetch(...a));
    this.postForm = opts.postForm ?? fetchPoster(this.f);
  }

  /** An authenticated request; a 401 renews the token once and tries again. */
  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> {
    const send = async (token: string) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (this.auth.clientId) headers['client-id'] = this.auth.clientId;
      if (body !== undefined) headers['content-type'] = 'application/json';
      return this.f(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    };
    let res = await send(await this.auth.token());
    if (res.status === 401 && this.auth.renew) {
      await res.arrayBuffer();
      res = await send(await this.auth.renew());
    }
    const text = await res.text();
    return { status: res.status, json: parseJson(text), text };
  }

  private fail(step: ScribeStep, what: string, r: { status: number; json: unknown; text: string }): never {
    throw new ScribeApiError(r.status, r.json ?? r.text, `${what} failed with HTTP ${r.status}: ${r.text.slice(0, 500)}`, step);
  }

  /** Step 2's answer: exactly 204. */
  private uploaded(filename: string, res: { status: number; text: string }): void {
    if (res.status !== 204) this.fail('upload', `Upload of ${filename}`, { ...res, json: parseJson(res.text) });
  }

  /** Step 1: a presigned POST for the transaction. */
  async presign(txnId: string, action: string, extraData: Record<string, unknown> = {}): Promise<PresignResponse> {
    const r = await this.call('POST', `/v1/file-upload?txn_id=${encodeURIComponent(txnId)}&action=${encodeURIComponent(action)}`, extraData);
    if (r.status !== 200) this.fail('presign', 'Presign', r);
    return r.json as PresignResponse;
  }

  /** Step 2: one multipart POST to the presigned URL (fields, then the file part); the receiver must answer exactly 204. */
  async postObject(presigned: PresignResponse, key: string, file: Blob, filename: string, contentType: string, onProgress?: (loaded: number, total: number) => void): Promise<void> {
    this.uploaded(filename, await this.postForm(presigned.uploadData.url, fieldsFor(presigned, key), { name: filename, type: contentType, data: file }, onProgress));
  }

  /**
   * Uploads the files of one transaction and starts processing: one response per file. With a v2 action the JSON
   * sidecar is uploaded and the transaction initialized, as the Python SDK does.
   */
  async upload(files: UploadInput[], opts: UploadOptions = {}): Promise<UploadedFile[]> {
    const txnId = opts.txnId ?? crypto.randomUUID();
    const action = opts.action ?? 'scribe-v2';
    const extraData = opts.extraData ?? {};
    const presigned = await this.presign(txnId, action, extraData);
    const folder = presigned.folderPath;
    const results: UploadedFile[] = [];
    for (const input of files) {
      const name = basename(typeof input === 'string' ? input : input.name);
      const contentType = contentTypeOf(name);
      const key = folder + name;
      const progress = opts.onProgress && ((loaded: number, total: number) => opts.onProgress!({ file: name, loaded, total }));
      let size: number;
      let streamed = false;
      if (typeof input === 'string') {
        const node = nodeFiles();
        size = await node.size(input);
        streamed = size > MULTIPART_THRESHOLD;
        if (streamed) {
          this.uploaded(name, await node.postStreamed(presigned.uploadData.url, fieldsFor(presigned, key), { path: input, name, type: contentType, size }, progress));
        } else {
          await this.postObject(presigned, key, await node.read(input), name, contentType, progress);
        }
      } else {
        size = input.data.size;
        await this.postObject(presigned, key, input.data, name, contentType, progress);
      }
      results.push({ key, contentType, size, status: 'success', txn_id: txnId, streamed });
    }
    if (V2_ACTIONS.includes(action)) {
      const names = results.map((r) => basename(r.key));
      const sidecar = {
        'client-id': this.auth.clientId ?? null,
        'transaction-id': txnId,
        'audio-file': names,
        transfer: 'non-vaded',
        additional_data: extraData,
        output_format: opts.outputFormat ?? {},
        ...extraData,
      };
      await this.postObject(presigned, `${folder}${txnId}.json`, new Blob([JSON.stringify(sidecar)]), 'data.json', 'application/json');
      await this.init(txnId, {
        s3_url: `s3://None/${folder}`,
        batch_s3_url: `s3://None/${folder}`,
        additional_data: extraData,
        mode: extraData.mode ?? 'dictation',
        input_language: opts.outputFormat?.input_language ?? null,
        speciality: 'speciality',
        Section: 'section',
        output_format_template: opts.outputFormat?.output_template ?? [],
        transfer: 'non-vaded',
        client_generated_files: names.map((n) => `s3://None/${folder}${n}`),
        model_type: extraData.model_type ?? 'pro',
        ...(extraData.output_language !== undefined ? { output_language: extraData.output_language } : {}),
      });
    }
    return results;
  }

  /** Step 4: start processing. 201 required; a 409 (already initialized) or 422 (bad parameters) throws. */
  async init(txnId: string, body: Record<string, unknown>): Promise<{ status: string; message: string; txn_id: string; b_id: string }> {
    const r = await this.call('POST', `/voice/api/v2/transaction/init/${encodeURIComponent(txnId)}`, body);
    if (r.status !== 201) this.fail('init', 'Init', r);
    return r.json as { status: string; message: string; txn_id: string; b_id: string };
  }

  /** The session's status and results; every 2xx (202, 200, 206) is returned, with each value decoded. */
  async getSessionStatus(sessionId: string, action = 'scribe-v2'): Promise<SessionStatus> {
    void action; // one path for both v2 actions; kept for the upstream signature
    const r = await this.call('GET', `/voice/api/v3/status/${encodeURIComponent(sessionId)}`);
    if (r.status < 200 || r.status >= 300) this.fail('status', 'Session status', r);
    const body = r.json as { data: { output: Omit<OutputEntry, 'decoded'>[]; additional_data: Record<string, unknown> } };
    return {
      httpStatus: r.status,
      data: { ...body.data, output: body.data.output.map((o) => ({ ...o, decoded: decodeValue(o.value) })) },
    };
  }

  /** Past sessions of the caller's workspace, newest first, optionally of one patient or in one status (ours). */
  async listSessions(q: { patientId?: string; status?: string; limit?: number; cursor?: string; order?: 'newest' | 'signed_first' } = {}): Promise<SessionList> {
    const query = new URLSearchParams();
    if (q.patientId !== undefined) query.set('patient_id', q.patientId);
    if (q.status !== undefined) query.set('status', q.status);
    if (q.order !== undefined) query.set('order', q.order);
    if (q.limit !== undefined) query.set('limit', String(q.limit));
    if (q.cursor !== undefined) query.set('cursor', q.cursor);
    const qs = query.toString();
    const r = await this.call('GET', `/voice/api/v2/sessions${qs ? `?${qs}` : ''}`);
    if (r.status !== 200) this.fail('sessions', 'Sessions list', r);
    return r.json as SessionList;
  }

  /** Polls until the session is no longer processing (not 202). */
  async waitForSession(sessionId: string, opts: { action?: string; intervalMs?: number; timeoutMs?: number; onProgress?: (s: SessionStatus) => void } = {}): Promise<SessionStatus> {
    const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
    for (;;) {
      const s = await this.getSessionStatus(sessionId, opts.action);
      if (s.httpStatus !== 202) return s;
      opts.onProgress?.(s);
      if (Date.now() > deadline) throw new Error(`Session ${sessionId} still processing after ${opts.timeoutMs ?? 600_000} ms`);
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 1000));
    }
  }
}
