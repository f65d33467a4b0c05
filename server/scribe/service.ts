import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditLog } from '../audit/service.js';
import { type RequestContext, staffKind } from '../auth/permissions.js';
import { type Executor, transaction } from '../db/tx.js';
import type { NotificationService } from '../notifications/service.js';
import { patientAllergyReader } from '../patients/service.js';
import { ServiceError } from '../shared/errors.js';
import { TOO_DEEP_MESSAGE, jsonTextTooDeep, valueTooDeep } from '../shared/json-depth.js';
import type { SecretBox } from '../shared/secret-box.js';
import { type Clock, isoNow } from '../shared/time.js';
import type { WebhookService } from '../webhooks/service.js';
import { type SpeechConfig, type SpeechSurvey, languageList, languageSupport, servedLanguages, surveySpeech } from './asr/choose.js';
import { LANGUAGES, type Language } from './contracts.js';
import {
  AUDIO_EXTENSIONS, AUDIO_TYPES, TEMPLATE_ALIASES, TEMPLATE_NAMES, TXN_ID, clientStatus, extensionOf, isAction, isAudioName,
} from './formats.js';
import { patientIdOf, sessionHistory } from './history.js';
import type { JobResult, OutputEntry, SessionRequest, TemplateRequest } from './pipeline/job.js';
import type { NoteReader } from './note-reader.js';
import { PolicyError, uploadPolicies } from './policy.js';
import { scribeReadiness, thisHost } from './readiness.js';
import { type RunnerOptions, scribeRunner } from './pipeline/runner.js';
import { type FileRow, type SessionRow, scribeStore } from './store.js';

export interface ScribeLimits {
  /** Audio files per transaction. Default 20. */
  maxFilesPerTxn: number;
  /** Bytes per audio file. Default 1 GiB. */
  maxFileBytes: number;
  /** Bytes of audio per transaction. Default 2 GiB. */
  maxTxnBytes: number;
  /** Bytes of the JSON sidecar. Default 1 MiB. */
  maxSidecarBytes: number;
  /** How long a presigned upload policy is good for. Default 1 h. */
  policyTtlMs: number;
}

export const DEFAULT_LIMITS: ScribeLimits = {
  maxFilesPerTxn: 20,
  maxFileBytes: 1024 ** 3,
  maxTxnBytes: 2 * 1024 ** 3,
  maxSidecarBytes: 1024 ** 2,
  policyTtlMs: 3600_000,
};

const audioFiles = (n: number) => `${n} audio file${n === 1 ? '' : 's'}`;

export interface ScribeOptions extends RunnerOptions, Partial<ScribeLimits> {
  /** false: sessions are queued but nothing processes them (one-shot CLI tools, some tests). Default true. */
  worker?: boolean;
  /**
   * Where uploaded audio is kept (default `<dataDir>/scribe`). Instances of a chain on one database share it (a
   * mounted folder): a file uploaded through one is transcribed by whichever process claims its session.
   */
  storageDir?: string;
}

/** A failure the scribe routes render in the upstream shapes; `code` is upstream's (transaction_not_found, …). */
export class ScribeError extends ServiceError {}

/** 422 `{"details":[…]}`: what is wrong with an init request, each entry naming the field (FastAPI's form). */
export class ScribeValidationError extends Error {
  constructor(readonly details: { loc: (string | number)[]; msg: string; type: string }[]) {
    super(details.map((d) => d.msg).join('; '));
  }
}

/**
 * The request as stored: the session's request plus what init had to say about it (a language left out), which
 * every output entry carries as a warning.
 */
export interface StoredRequest extends SessionRequest {
  warnings?: string[];
}

/** Where an upload goes, once its policy and key have been checked. */
export interface UploadTarget {
  session: SessionRow;
  name: string;
  kind: 'audio' | 'sidecar';
  contentType: string;
  /** Bytes this file may have. */
  limit: number;
  /** Why the limit is what it is, for the 413 message. */
  limitReason: string;
}

const denied = (message: string) => new ScribeError(403, 'AccessDenied', message);
const badUpload = (code: string, message: string) => new ScribeError(400, code, message);
const notFound = (txnId: string) => new ScribeError(400, 'transaction_not_found', `Transaction ${txnId} was not found`);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "20261122_091502" in UTC, as upstream's folder names. */
const folderStamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);

const mib = (n: number) => `${Math.round((n / 1024 ** 2) * 10) / 10} MiB`;

interface Deps {
  db: Executor;
  clock: Clock;
  box: SecretBox;
  audit: AuditLog;
  webhooks: WebhookService;
  notifications: NotificationService;
  /** The notes domain's reader (it builds on the scribe's sessions, so it is passed in, not imported). */
  notes: NoteReader;
  dataDir: string;
}

/**
 * The scribe (interface endpoint 7): presigned uploads into the service's own receiver, sessions as rows, init,
 * status, and the outcome of each session's run (output, webhook event, push). Processing happens in worker
 * processes started by the runner, never here.
 */
export function scribeService(deps: Deps, opts: ScribeOptions = {}) {
  const { db, clock, box, audit, webhooks, notifications, notes } = deps;
  const limits: ScribeLimits = {
    maxFilesPerTxn: opts.maxFilesPerTxn ?? DEFAULT_LIMITS.maxFilesPerTxn,
    maxFileBytes: opts.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes,
    maxTxnBytes: opts.maxTxnBytes ?? DEFAULT_LIMITS.maxTxnBytes,
    maxSidecarBytes: opts.maxSidecarBytes ?? DEFAULT_LIMITS.maxSidecarBytes,
    policyTtlMs: opts.policyTtlMs ?? DEFAULT_LIMITS.policyTtlMs,
  };
  const store = scribeStore(db);
  const allergiesOf = patientAllergyReader(db);
  const policies = uploadPolicies(store, box, clock);
  const root = opts.storageDir ?? join(deps.dataDir, 'scribe');
  const sessionDir = (sessionId: string) => join(root, sessionId);

  // ------------------------------------------------------------------------------------------------------------
  // 1. Presign
  // ------------------------------------------------------------------------------------------------------------

  /**
   * POST /v1/file-upload: makes (or finds) the transaction's session and hands out a policy for uploading into
   * its folder. Presigning again before init returns the same folder with a fresh policy.
   */
  async function presign(ctx: RequestContext, input: { txnId?: string; action?: string; extraData: unknown; uploadUrl: string }) {
    const ws = ctx.caller.workspaceId;
    const action = input.action || 'scribe-v2';
    if (!isAction(action)) throw badUpload('invalid_action', `action must be scribe-v2 (or ekascribe-v2), not ${JSON.stringify(action)}`);
    const txnId = input.txnId || randomUUID();
    if (!TXN_ID.test(txnId)) {
      throw badUpload('invalid_txn_id', 'txn_id must be 1-128 characters of letters, digits, dot, underscore, colon or hyphen, starting with a letter or digit');
    }
    if (input.extraData !== undefined && !isPlainObject(input.extraData)) throw badUpload('invalid_extra_data', 'The body (extra_data) must be a JSON object');
    // HTTP bodies are limited at parsing; this holds the same limit for in-process callers (the app, MCP tools).
    if (valueTooDeep(input.extraData)) throw badUpload('invalid_extra_data', `extra_data: ${TOO_DEEP_MESSAGE}`);
    const extra = JSON.stringify(input.extraData ?? {});
    if (extra.length > 64 * 1024) throw badUpload('invalid_extra_data', 'extra_data is larger than 64 KiB');
    const now = clock.now();
    const session = await transaction(db, async (tx) => {
      const inTx = scribeStore(tx);
      const existing = await inTx.session(ws, txnId);
      if (existing) {
        if (existing.status !== 'uploading') {
          throw new ScribeError(409, 'transaction_already_initialized', `Transaction ${txnId} was already initialized; use a new txn_id for new audio`);
        }
        if (input.extraData !== undefined) await inTx.updateExtraData(existing.id, extra, patientIdOf(input.extraData), action, isoNow(clock));
        return existing;
      }
      const id = randomUUID();
      await inTx.insertSession({
        id, workspace_id: ws, txn_id: txnId, action, folder_path: `${ws}/${txnId}/${folderStamp(now)}/`, extra_data: extra,
        patient_id: patientIdOf(input.extraData),
        created_by_type: staffKind(ctx.caller), created_by: ctx.caller.id, created_at: now.toISOString(),
      });
      await audit.inTransaction(tx, ctx, { action: 'scribe.session.create', resourceType: 'scribe_session', resourceIds: [id], outcome: 'success' });
      return (await inTx.sessionById(id))!;
    });
    const { policy, signature } = await policies.issue({
      ws, txn: txnId, sid: session.id, folder: session.folder_path, exp: now.getTime() + limits.policyTtlMs, max: limits.maxFileBytes,
    });
    return {
      uploadData: {
        url: input.uploadUrl,
        fields: {
          key: `${session.folder_path}\${filename}`,
          policy,
          signature,
          'x-clinic-desk-expires': new Date(now.getTime() + limits.policyTtlMs).toISOString(),
        },
      },
      folderPath: session.folder_path,
      txn_id: txnId,
    };
  }

  // ------------------------------------------------------------------------------------------------------------
  // 2. Upload receiver (the HTTP side streams; this checks and records)
  // ------------------------------------------------------------------------------------------------------------

  /** Checks a file part's form fields (policy, signature, key) before a byte of it is stored. */
  async function authorizeUpload(fields: Record<string, string>): Promise<UploadTarget> {
    if (!fields.policy || !fields.signature) {
      throw denied('The upload needs the policy and signature fields that POST /v1/file-upload returned, before the file part');
    }
    let p;
    try {
      p = await policies.verify(fields.policy, fields.signature);
    } catch (e) {
      if (e instanceof PolicyError) throw denied(e.message);
      throw e;
    }
    const key = fields.key;
    if (!key) throw badUpload('InvalidArgument', 'The key field is required: folderPath followed by the file name');
    if (!key.startsWith(p.folder)) throw denied(`The key must start with the folder this policy allows (${p.folder})`);
    const name = key.slice(p.folder.length);
    if (!name || name === '.' || name === '..' || /[/\\\u0000-\u001f\u007f]/.test(name) || Buffer.byteLength(name) > 255) {
      throw badUpload('InvalidArgument', 'The key must be the folder followed by a plain file name (no slashes, at most 255 bytes)');
    }
    const session = await store.sessionById(p.sid);
    if (!session || session.workspace_id !== p.ws || session.txn_id !== p.txn) throw denied('The upload policy names no transaction of this service');
    if (session.status !== 'uploading') {
      throw new ScribeError(409, 'transaction_already_initialized', `Transaction ${session.txn_id} was already initialized; its audio can no longer change`);
    }
    if (name === `${session.txn_id}.json`) {
      return { session, name, kind: 'sidecar', contentType: 'application/json', limit: limits.maxSidecarBytes, limitReason: `the JSON sidecar may be at most ${mib(limits.maxSidecarBytes)}` };
    }
    if (!isAudioName(name)) {
      const ext = extensionOf(name);
      throw badUpload('unsupported_file_type',
        `"${name}" is not an audio file this service accepts${ext ? ` (.${ext})` : ' (no extension)'}: audio is recognised by its extension, one of ${AUDIO_EXTENSIONS.join(', ')}`);
    }
    const used = await store.usage(session.id, name);
    if (used.count >= limits.maxFilesPerTxn) {
      throw new ScribeError(400, 'too_many_files', `A transaction takes at most ${audioFiles(limits.maxFilesPerTxn)}; ${session.txn_id} already has ${used.count}`);
    }
    const remaining = limits.maxTxnBytes - used.bytes;
    const perFile = Math.min(p.max, limits.maxFileBytes);
    if (remaining <= 0) {
      throw new ScribeError(413, 'transaction_too_large', `A transaction takes at most ${mib(limits.maxTxnBytes)} of audio; ${session.txn_id} is full`);
    }
    return remaining < perFile
      ? { session, name, kind: 'audio', contentType: AUDIO_TYPES[extensionOf(name)]!, limit: remaining, limitReason: `a transaction takes at most ${mib(limits.maxTxnBytes)} of audio and ${session.txn_id} has ${mib(remaining)} left` }
      : { session, name, kind: 'audio', contentType: AUDIO_TYPES[extensionOf(name)]!, limit: perFile, limitReason: `an audio file may be at most ${mib(perFile)}` };
  }

  /** A scratch path in the session's folder for a file being received. */
  function partPath(target: UploadTarget): string {
    const dir = sessionDir(target.session.id);
    // Dictation audio: readable by the service's own account only (api/uploads.ts writes each file 0600).
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return join(dir, `.${randomUUID()}.part`);
  }

  /**
   * Files a fully received, fsynced upload: moves it to its place and records it, replacing an earlier upload of
   * the same key. Throws (and removes the file) when the session changed meanwhile or the limits no longer allow it.
   */
  async function commitUpload(target: UploadTarget, part: string, size: number, sha256: string): Promise<void> {
    const id = randomUUID();
    const ext = target.kind === 'sidecar' ? 'json' : extensionOf(target.name);
    const storedName = `${id}.${ext}`;
    const final = join(sessionDir(target.session.id), storedName);
    if (target.kind === 'sidecar') {
      const bytes = readFileSync(part);
      if (jsonTextTooDeep(bytes)) {
        rmSync(part, { force: true });
        throw badUpload('invalid_sidecar', `${target.name}: ${TOO_DEEP_MESSAGE}`);
      }
      try {
        if (!isPlainObject(JSON.parse(bytes.toString('utf8')))) throw new Error('not an object');
      } catch {
        rmSync(part, { force: true });
        throw badUpload('invalid_sidecar', `${target.name} must hold a JSON object`);
      }
    }
    renameSync(part, final);
    let replaced: FileRow | undefined;
    try {
      await transaction(db, async (tx) => {
        const inTx = scribeStore(tx);
        const s = await inTx.sessionById(target.session.id);
        if (!s || s.status !== 'uploading') {
          throw new ScribeError(409, 'transaction_already_initialized', `Transaction ${target.session.txn_id} was initialized while the file was uploading`);
        }
        if (target.kind === 'audio') {
          const used = await inTx.usage(s.id, target.name);
          if (used.count >= limits.maxFilesPerTxn) throw new ScribeError(400, 'too_many_files', `A transaction takes at most ${audioFiles(limits.maxFilesPerTxn)}`);
          if (used.bytes + size > limits.maxTxnBytes) throw new ScribeError(413, 'transaction_too_large', `A transaction takes at most ${mib(limits.maxTxnBytes)} of audio`);
        }
        replaced = await inTx.file(s.id, target.name);
        if (replaced) await inTx.deleteFile(replaced.id);
        await inTx.insertFile({
          id, session_id: s.id, kind: target.kind, name: target.name, stored_name: storedName, content_type: target.contentType,
          size, sha256, created_at: isoNow(clock),
        });
      });
    } catch (e) {
      rmSync(final, { force: true });
      throw e;
    }
    if (replaced) rmSync(join(sessionDir(target.session.id), replaced.stored_name), { force: true });
  }

  // ------------------------------------------------------------------------------------------------------------
  // 3. Init
  // ------------------------------------------------------------------------------------------------------------

  async function sidecarOf(s: SessionRow): Promise<Record<string, unknown>> {
    const f = (await store.files(s.id)).find((x) => x.kind === 'sidecar');
    if (!f) return {};
    try {
      const v = JSON.parse(readFileSync(join(sessionDir(s.id), f.stored_name), 'utf8')) as unknown;
      return isPlainObject(v) ? v : {};
    } catch {
      return {};
    }
  }

  /** What the speech engines of this installation recognise now (models are the installation's, not a clinic's). */
  const speechSurvey = (): Promise<SpeechSurvey> => surveySpeech({ ...opts.speech, dataDir: deps.dataDir } as SpeechConfig);

  /**
   * The init body → a normalised request, or every problem with it (422). With a survey of the engines, a request
   * none of whose languages an engine here recognises is a problem (the session would only fail later); a mixed
   * one keeps the languages one engine covers, and the rest become warnings.
   */
  async function parseInit(body: Record<string, unknown>, s: SessionRow | undefined, txnId: string, survey?: SpeechSurvey): Promise<{ request: StoredRequest; additional: Record<string, unknown>; patientId: string | null }> {
    const details: ScribeValidationError['details'] = [];
    const problem = (loc: (string | number)[], msg: string, type = 'value_error') => details.push({ loc, msg, type });
    const extra = s ? (JSON.parse(s.extra_data) as Record<string, unknown>) : {};
    const sidecar = s ? await sidecarOf(s) : {};
    const sidecarFormat = isPlainObject(sidecar.output_format) ? sidecar.output_format : {};

    const mode = body.mode ?? extra.mode ?? 'dictation';
    if (mode !== 'dictation' && mode !== 'consultation') problem(['body', 'mode'], 'mode must be dictation or consultation');
    const modelType = body.model_type ?? extra.model_type ?? 'pro';
    if (modelType !== 'pro' && modelType !== 'lite') problem(['body', 'model_type'], 'model_type must be pro or lite');

    let languages: Language[] = [];
    const problemsBefore = details.length;
    const rawLanguages = body.input_language ?? sidecarFormat.input_language ?? null;
    if (rawLanguages !== null) {
      if (!Array.isArray(rawLanguages)) problem(['body', 'input_language'], 'input_language must be an array of language ids');
      else {
        for (const [i, l] of rawLanguages.entries()) {
          if (typeof l === 'string' && (LANGUAGES as readonly string[]).includes(l)) languages.push(l as Language);
          else problem(['body', 'input_language', i], `Unsupported language id ${JSON.stringify(l)}; supported: ${LANGUAGES.join(', ')}`);
        }
      }
    }
    languages = [...new Set(languages)];
    const asked = languages.length > 0;
    if (!asked) languages = ['en-IN'];
    const warnings: string[] = [];
    // Only well-formed ids are looked up; the other fields' problems are listed alongside.
    if (survey && details.length === problemsBefore) {
      const { served, unserved } = servedLanguages(languages, survey);
      const support = languageSupport(survey, unserved);
      const locOf = (l: Language) => (asked ? ['body', 'input_language', (rawLanguages as unknown[]).indexOf(l)] : ['body', 'input_language']);
      for (const l of support) {
        // Ready alone but not with the others: no engine here recognises them together.
        const why = l.reason ?? `no speech engine here recognises ${languageList([l.id])} together with ${languageList(served)}.`;
        if (served.length === 0) problem(locOf(l.id), why, 'value_error.language_unavailable');
        else warnings.push(`${languageList([l.id])} was left out: the recording was transcribed as ${languageList(served)}. ${why}`);
      }
      if (served.length) languages = served;
    }

    const templates: TemplateRequest[] = [];
    const rawTemplates = body.output_format_template ?? sidecarFormat.output_template ?? null;
    if (rawTemplates !== null) {
      if (!Array.isArray(rawTemplates)) problem(['body', 'output_format_template'], 'output_format_template must be an array of {template_id, codification_needed}');
      else {
        for (const [i, t] of rawTemplates.entries()) {
          if (!isPlainObject(t) || typeof t.template_id !== 'string') {
            problem(['body', 'output_format_template', i], 'Each template must be an object with a template_id string');
            continue;
          }
          const id = Object.hasOwn(TEMPLATE_ALIASES, t.template_id) ? TEMPLATE_ALIASES[t.template_id] : undefined;
          if (!id) {
            problem(['body', 'output_format_template', i, 'template_id'],
              `Unknown template_id ${JSON.stringify(t.template_id)}; known: ${Object.keys(TEMPLATE_NAMES).join(', ')} (eka_emr_template is accepted as service_emr_template)`);
            continue;
          }
          if (t.codification_needed !== undefined && t.codification_needed !== null && typeof t.codification_needed !== 'boolean') {
            problem(['body', 'output_format_template', i, 'codification_needed'], 'codification_needed must be true or false');
            continue;
          }
          if (!templates.some((x) => x.asked === t.template_id)) templates.push({ id, asked: t.template_id, codify: t.codification_needed === true });
        }
      }
    }
    if (templates.length === 0 && details.length === 0) templates.push({ id: 'transcript_template', asked: 'transcript_template', codify: false });

    const additional = body.additional_data ?? extra;
    if (!isPlainObject(additional)) problem(['body', 'additional_data'], 'additional_data must be an object');
    const outputLanguage = body.output_language ?? null;
    if (outputLanguage !== null && typeof outputLanguage !== 'string') problem(['body', 'output_language'], 'output_language must be a string');

    const audio = s ? (await store.files(s.id)).filter((f) => f.kind === 'audio') : [];
    if (audio.length === 0) {
      problem(['path', 'txn_id'], `No audio files were uploaded for transaction ${txnId}: presign with POST /v1/file-upload and upload them first`);
    } else if (body.client_generated_files !== undefined && body.client_generated_files !== null) {
      if (!Array.isArray(body.client_generated_files)) problem(['body', 'client_generated_files'], 'client_generated_files must be an array');
      else {
        const names = new Set(audio.map((f) => f.name));
        for (const [i, u] of body.client_generated_files.entries()) {
          const base = typeof u === 'string' ? u.split('/').at(-1) ?? '' : '';
          if (!names.has(base)) problem(['body', 'client_generated_files', i], `${JSON.stringify(u)} was not uploaded to transaction ${txnId}`);
        }
      }
    }
    if (details.length) throw new ScribeValidationError(details);
    return {
      request: {
        mode: mode as string, modelType: modelType as 'pro' | 'lite', languages, templates, outputLanguage: outputLanguage as string | null,
        ...(warnings.length ? { warnings } : {}),
      },
      additional: additional as Record<string, unknown>,
      patientId: patientIdOf(body, additional, sidecar, extra),
    };
  }

  /**
   * POST /voice/api/v2/transaction/init/{txn_id}: 409 when already initialized, 422 for bad parameters; queues the
   * session. `survey` (speechSurvey(), which the caller awaits) checks the languages against the engines here;
   * without it a language no engine recognises fails the session when it runs.
   */
  async function init(ctx: RequestContext, txnId: string, body: unknown, survey?: SpeechSurvey) {
    const ws = ctx.caller.workspaceId;
    if (body !== undefined && body !== null && !isPlainObject(body)) {
      throw new ScribeValidationError([{ loc: ['body'], msg: 'The body must be a JSON object', type: 'type_error' }]);
    }
    const s = TXN_ID.test(txnId) ? await store.session(ws, txnId) : undefined;
    if (s && s.status !== 'uploading') {
      audit.later(ctx, { action: 'scribe.session.init', resourceType: 'scribe_session', resourceIds: [s.id], outcome: 'conflict' });
      throw new ScribeError(409, 'transaction_already_initialized', 'Transaction already initialized');
    }
    const { request, additional, patientId } = await parseInit((body ?? {}) as Record<string, unknown>, s, txnId, survey);
    // Read now, when the doctor sends the dictation, so that every run of the session (a retry too) checks the same list.
    const patientAllergies = patientId ? await allergiesOf(ws, patientId) : [];
    if (patientAllergies.length) request.patientAllergies = patientAllergies;
    const ok = await transaction(db, async (tx) => {
      const done = await scribeStore(tx).initialize({
        id: s!.id, request: JSON.stringify(request), additional_data: JSON.stringify(additional), patient_id: patientId,
        started_by_type: staffKind(ctx.caller), started_by: ctx.caller.id, now: isoNow(clock),
      });
      if (done) await audit.inTransaction(tx, ctx, { action: 'scribe.session.init', resourceType: 'scribe_session', resourceIds: [s!.id], outcome: 'success' });
      return done;
    });
    if (!ok) throw new ScribeError(409, 'transaction_already_initialized', 'Transaction already initialized');
    runner.wake();
    return { status: 'success' as const, message: 'Transaction initialized successfully', txn_id: txnId, b_id: ws };
  }

  // ------------------------------------------------------------------------------------------------------------
  // 4. Status
  // ------------------------------------------------------------------------------------------------------------

  const requestOf = (s: SessionRow) => (s.request ? (JSON.parse(s.request) as StoredRequest) : null);

  function failureEntries(s: SessionRow, errors: string[]): OutputEntry[] {
    return (requestOf(s)?.templates ?? []).map((t) => ({
      template_id: t.asked, value: '', type: 'json' as const, name: TEMPLATE_NAMES[t.id], status: 'failure' as const, errors, warnings: [],
    }));
  }

  /**
   * GET /voice/api/v3/status/{session_id}: 202 while processing, 200 all templates done, 206 some (or all) failed.
   * Once a doctor signed the note, the EMR and clinical notes entries are the latest signed version (server/notes);
   * `version` "draft" (or 0) asks for the scribe's own output as it was produced, a number for that signed version.
   */
  async function status(ctx: RequestContext, sessionId: string, version?: string): Promise<{ code: 200 | 202 | 206; body: { data: { output: OutputEntry[]; additional_data: Record<string, unknown> } } }> {
    const s = TXN_ID.test(sessionId) ? await store.session(ctx.caller.workspaceId, sessionId) : undefined;
    audit.later(ctx, { action: 'scribe.session.read', resourceType: 'scribe_session', resourceIds: s ? [s.id] : [], outcome: s ? 'success' : 'not_found' });
    if (!s) throw notFound(sessionId);
    const client = s.additional_data ? (JSON.parse(s.additional_data) as Record<string, unknown>) : (JSON.parse(s.extra_data) as Record<string, unknown>);
    const progress = { status: clientStatus(s.status), stage: s.stage, percent: s.percent };
    if (s.status === 'uploading' || s.status === 'queued' || s.status === 'processing') {
      return { code: 202, body: { data: { output: [], additional_data: { ...client, ...progress } } } };
    }
    const errors = JSON.parse(s.errors) as string[];
    const latest = await notes.latestVersion(s.id);
    const asked = version === undefined ? latest : version === 'draft' ? 0 : Number(version);
    const signed = asked > 0 ? await notes.signedOutput(s, asked) : undefined;
    if (asked > 0 && !signed) throw new ScribeError(400, 'version_not_found', `Transaction ${sessionId} has no signed note version ${version ?? asked}`);
    const output = signed ?? (JSON.parse(s.output ?? '[]') as OutputEntry[]);
    const note = latest > 0 ? { note: { status: notes.statusOf(latest), version: asked, latest_version: latest } } : {};
    const additional = { ...client, ...progress, ...(errors.length ? { errors } : {}), ...note };
    return { code: s.status === 'completed' ? 200 : 206, body: { data: { output, additional_data: additional } } };
  }

  // ------------------------------------------------------------------------------------------------------------
  // Outcome of a run (called by the runner)
  // ------------------------------------------------------------------------------------------------------------

  /** Records a run's result, raises v2rx.completed or v2rx.failed and queues the push, all in one transaction. */
  async function finish(s: SessionRow, owner: string, result: JobResult): Promise<boolean> {
    const initWarnings = requestOf(s)?.warnings ?? [];
    const output = (result.status === 'failed' && result.output.length === 0 ? failureEntries(s, result.errors) : result.output)
      .map((o) => (initWarnings.length ? { ...o, warnings: [...initWarnings, ...o.warnings] } : o));
    const status = result.status;
    return transaction(db, async (tx) => {
      const ok = await scribeStore(tx).finish({
        id: s.id, owner, status, stage: status === 'failed' ? 'failed' : 'completed', output: JSON.stringify(output),
        errors: JSON.stringify(result.errors), now: isoNow(clock),
      });
      if (!ok) return false;
      if (status === 'failed') {
        await webhooks.emit(tx, s.workspace_id, 'v2rx.failed', { transaction_id: s.txn_id, session_id: s.txn_id, errors: result.errors });
      } else {
        await webhooks.emit(tx, s.workspace_id, 'v2rx.completed', { transaction_id: s.txn_id, session_id: s.txn_id });
      }
      const push = {
        title: status === 'failed' ? 'Dictation could not be processed' : 'Dictation ready',
        body: status === 'failed'
          ? `Transaction ${s.txn_id} failed: ${result.errors[0]?.slice(0, 200) ?? 'see the session status'}`
          : status === 'partial' ? `Transaction ${s.txn_id} is ready; some templates could not be produced` : `Transaction ${s.txn_id} is ready to review`,
        data: { event: status === 'failed' ? 'v2rx.failed' : 'v2rx.completed', session_id: s.txn_id, transaction_id: s.txn_id, status: status === 'failed' ? 'failed' : 'completed' },
      };
      const starter = s.started_by ?? s.created_by;
      try {
        // In a savepoint of its own: on PostgreSQL a failed statement spoils the whole transaction until it is
        // rolled back to a savepoint, so without one the COMMIT would undo the outcome after all.
        await transaction(tx, (inner) => notifications.enqueueIn(inner, s.workspace_id, s.started_by_type ?? s.created_by_type, starter, push));
      } catch (e) {
        // A push that cannot be queued must not undo the session's outcome or its webhook event.
        opts.onError?.(e);
      }
      return true;
    });
  }

  const runner = scribeRunner({ db, store, clock, dataDir: deps.dataDir, sessionDir, finish }, opts);

  return {
    limits,
    presign,
    authorizeUpload,
    partPath,
    commitUpload,
    init,
    speechSurvey,
    /** What the scribe can do on this computer now, and what fixes what it cannot (readiness.ts). */
    readiness: async () => scribeReadiness(await speechSurvey(), thisHost()),
    /** GET /voice/api/v2/languages: each interface language, whether it works here now, and if not how to get it. */
    languages: async () => languageSupport(await speechSurvey()),
    status,
    history: sessionHistory(store, notes, audit),
    /** The session row of a transaction (support, tests). */
    session: (workspaceId: string, txnId: string) => store.session(workspaceId, txnId),
    files: (sessionId: string) => store.files(sessionId),
    sessionDir,
    runner,
    start() {
      if (opts.worker !== false) runner.start();
    },
    stop: () => runner.stop(),
  };
}
export type ScribeService = ReturnType<typeof scribeService>;
