/**
 * Settings → Speech models: the engines a clinic can use (the built-in PocketSphinx and the Whisper catalogue),
 * model downloads in the background with progress, and each clinic's default model.
 *
 * Models are files of the installation (<dataDir>/models), shared by every clinic it serves; the default is a
 * clinic's own setting (workspace_settings speech.default_model), read by the scribe runner as each session
 * starts. A download runs in this process (streamed to disk, hashed as the manager does), never on a request's
 * path: POST answers at once and GET shows the progress. One download per model at a time; its state lives in
 * memory (a restart forgets a failure; an interrupted download resumes from its .part files the next time).
 */
import { stat } from 'node:fs/promises';
import type { AuditLog } from '../../audit/service.js';
import type { RequestContext } from '../../auth/permissions.js';
import { type Executor, transaction } from '../../db/tx.js';
import { settingsStore } from '../../settings/store.js';
import { ServiceError } from '../../shared/errors.js';
import { type Clock, isoNow } from '../../shared/time.js';
import { BUILT_IN_MODEL, modelManager } from '../asr/choose.js';
import type { InstalledModel, ModelSpec } from '../asr/models.js';
import { POCKETSPHINX_LANGUAGES } from '../asr/pocketsphinx.js';
import { LANGUAGES } from '../contracts.js';
import type { DownloadState, SpeechModel } from './schemas.js';

const DEFAULT_SETTING = 'speech.default_model';

export interface SpeechModelOptions {
  /** A mirror of the model files (default CLINIC_DESK_MODEL_MIRROR; tests use a local server). */
  mirror?: string;
}

interface Deps {
  db: Executor;
  clock: Clock;
  audit: AuditLog;
  dataDir: string;
}

interface Download {
  /** Bytes on disk per file, and each file's size once known (HEAD first, then the download's own answer). */
  received: number[];
  sizes: (number | null)[];
  failed: string | null;
  running: Promise<void> | null;
}

const IDLE: DownloadState = { state: 'idle', bytes_done: null, bytes_total: null, percent: null, message: null };

const notFound = (id: string, known: string[]) =>
  new ServiceError(404, 'NOT_FOUND', `No speech model "${id}" here (known: ${known.join(', ')})`);

/** A file's size as the server announces it, or null; a failure here only costs the progress bar its accuracy. */
async function remoteSize(url: string, signal: AbortSignal): Promise<number | null> {
  try {
    const res = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]) });
    const n = Number(res.headers.get('x-linked-size') ?? res.headers.get('content-length'));
    return res.ok && Number.isFinite(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

export function speechModelService(deps: Deps, opts: SpeechModelOptions = {}) {
  const { db, clock, audit } = deps;
  const manager = modelManager(deps.dataDir, opts.mirror);
  const settings = settingsStore(db);
  const downloads = new Map<string, Download>();
  const stopping = new AbortController();

  /** The clinic's default model id; the built-in engine until an admin chooses another. */
  async function defaultFor(workspaceId: string): Promise<string> {
    const v = await settings.get(workspaceId, DEFAULT_SETTING);
    return typeof v === 'string' ? v : BUILT_IN_MODEL;
  }

  function stateOf(spec: ModelSpec): DownloadState {
    const d = downloads.get(spec.id);
    if (!d) return IDLE;
    const done = d.received.reduce((a, b) => a + b, 0);
    const exact = d.sizes.every((s) => s !== null);
    const total = exact ? d.sizes.reduce<number>((a, b) => a + b!, 0) : Math.max(spec.approxMB * 1e6, done);
    if (d.failed !== null) return { state: 'failed', bytes_done: done, bytes_total: total, percent: null, message: d.failed };
    // 100 only once installed: verification and the manifest come after the last byte.
    return { state: 'downloading', bytes_done: done, bytes_total: total, percent: Math.min(99, Math.floor((done / Math.max(1, total)) * 100)), message: null };
  }

  async function sizeOnDisk(m: InstalledModel): Promise<number | null> {
    const sizes = await Promise.all([m.encoder, m.decoder, m.tokens].map((p) => stat(p).then((s) => s.size, () => 0)));
    return sizes.reduce((a, b) => a + b, 0) || null;
  }

  async function whisperEntry(id: string, spec: ModelSpec | undefined, installed: InstalledModel | undefined, def: string): Promise<SpeechModel> {
    return {
      id,
      name: `Whisper ${id}`,
      description: spec?.description ?? `Whisper model from ${installed?.dir ?? 'this computer'}`,
      engine: 'whisper',
      languages: [...LANGUAGES],
      size_bytes: installed ? await sizeOnDisk(installed) : spec ? Math.round(spec.approxMB * 1e6) : null,
      installed: installed !== undefined,
      is_default: def === id,
      download: spec && !installed ? stateOf(spec) : IDLE,
    };
  }

  async function models(workspaceId: string): Promise<SpeechModel[]> {
    const def = await defaultFor(workspaceId);
    const installed = new Map((await manager.installed()).map((m) => [m.id, m]));
    const catalogue = manager.catalogue();
    const out: SpeechModel[] = [{
      id: BUILT_IN_MODEL, name: 'PocketSphinx', description: 'Built in, English only, runs on any computer: the default until you choose another',
      engine: 'pocketsphinx', languages: [...POCKETSPHINX_LANGUAGES], size_bytes: null, installed: true, is_default: def === BUILT_IN_MODEL, download: IDLE,
    }];
    for (const spec of catalogue) out.push(await whisperEntry(spec.id, spec, installed.get(spec.id), def));
    // Models put here by hand (CLINIC_DESK_WHISPER_MODEL, --use-local-model) can be the default too.
    for (const m of installed.values()) if (!catalogue.some((s) => s.id === m.id)) out.push(await whisperEntry(m.id, undefined, m, def));
    return out;
  }

  async function known(id: string): Promise<boolean> {
    return id === BUILT_IN_MODEL || manager.spec(id) !== undefined || (await manager.find(id)) !== null;
  }

  async function knownIds(): Promise<string[]> {
    return [BUILT_IN_MODEL, ...new Set([...manager.catalogue().map((s) => s.id), ...(await manager.installed()).map((m) => m.id)])];
  }

  async function entry(workspaceId: string, id: string): Promise<SpeechModel> {
    return (await models(workspaceId)).find((m) => m.id === id)!;
  }

  function start(spec: ModelSpec) {
    const d: Download = { received: spec.files.map(() => 0), sizes: spec.files.map(() => null), failed: null, running: null };
    downloads.set(spec.id, d);
    const { signal } = stopping;
    d.running = (async () => {
      const heads = await Promise.all(spec.files.map((f) => remoteSize(f.url, signal)));
      heads.forEach((n, i) => (d.sizes[i] ??= n));
      await manager.ensureModel(spec.id, {
        signal,
        onProgress: (p) => {
          d.received[p.fileIndex] = p.receivedBytes;
          if (p.totalBytes !== null) d.sizes[p.fileIndex] = p.totalBytes;
          // Files before this one are complete (kept from an earlier try when they still verified).
          for (let i = 0; i < p.fileIndex; i++) if (d.sizes[i] !== null) d.received[i] = d.sizes[i]!;
        },
      });
      downloads.delete(spec.id);
    })().catch((e: unknown) => {
      if (signal.aborted) return;
      d.failed = e instanceof Error ? e.message : `The download of Whisper ${spec.id} failed: ${String(e)}`;
    }).finally(() => {
      d.running = null;
    });
  }

  return {
    defaultFor,

    /** GET /api/v1/speech-models */
    async list(ctx: RequestContext): Promise<SpeechModel[]> {
      audit.later(ctx, { action: 'speech_model.list', resourceType: 'speech_model', outcome: 'success' });
      return models(ctx.caller.workspaceId);
    },

    /**
     * POST /api/v1/speech-models/{id}/download: starts the download (202) unless one is running (202, the same
     * one) or the model is installed already (200, nothing to do). A failed download starts again.
     */
    async download(ctx: RequestContext, id: string): Promise<{ started: boolean; model: SpeechModel }> {
      const ws = ctx.caller.workspaceId;
      const spec = manager.spec(id);
      if (!spec) {
        if (await known(id)) return { started: false, model: await entry(ws, id) };
        audit.later(ctx, { action: 'speech_model.download', resourceType: 'speech_model', resourceIds: [id], outcome: 'not_found' });
        throw notFound(id, await knownIds());
      }
      if (await manager.find(id)) return { started: false, model: await entry(ws, id) };
      if (!downloads.get(id)?.running) {
        start(spec);
        audit.later(ctx, { action: 'speech_model.download', resourceType: 'speech_model', resourceIds: [id], outcome: 'success' });
      }
      return { started: true, model: await entry(ws, id) };
    },

    /** PUT /api/v1/speech-models/default: 404 unknown, 409 not installed (download it first). */
    async setDefault(ctx: RequestContext, id: string): Promise<SpeechModel[]> {
      if (!(await known(id))) {
        audit.later(ctx, { action: 'speech_model.set_default', resourceType: 'speech_model', resourceIds: [id], outcome: 'not_found' });
        throw notFound(id, await knownIds());
      }
      if (id !== BUILT_IN_MODEL && !(await manager.find(id))) {
        audit.later(ctx, { action: 'speech_model.set_default', resourceType: 'speech_model', resourceIds: [id], outcome: 'conflict' });
        throw new ServiceError(409, 'MODEL_NOT_INSTALLED', `Whisper ${id} is not downloaded yet: download it first, then make it the default`);
      }
      await transaction(db, async (tx) => {
        await settingsStore(tx).set({ workspace_id: ctx.caller.workspaceId, name: DEFAULT_SETTING, value: id, updated_at: isoNow(clock), updated_by: ctx.caller.id });
        await audit.inTransaction(tx, ctx, { action: 'speech_model.set_default', resourceType: 'speech_model', resourceIds: [id], outcome: 'success' });
      });
      return models(ctx.caller.workspaceId);
    },

    /** Aborts running downloads (their .part files stay for a later resume). */
    stop: () => stopping.abort(new Error('the service stopped')),
  };
}
export type SpeechModelService = ReturnType<typeof speechModelService>;
