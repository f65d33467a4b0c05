/**
 * Whisper model manager: a catalogue of sherpa-onnx Whisper exports (int8 encoder + decoder + tokens), downloaded
 * on first use into `<dataDir>/models/<id>/`, checked by SHA-256, or taken from a local folder.
 *
 * Download: each file goes to `<file>.part`; an interrupted download resumes with an HTTP Range request (a server
 * that answers 200 instead of 206 starts it over); the finished file is hashed and only then renamed into place,
 * and `model.json` is written last (temp file + rename), so a model is either complete and verified or absent.
 * A hash mismatch removes the file and fails.
 *
 * Which hash: the catalogue's pinned SHA-256 when it has one; otherwise the SHA-256 the server announces for the
 * file (Hugging Face sends Git LFS files' SHA-256 as X-Linked-ETag), which catches corruption but trusts the
 * server; otherwise none, and the hash computed is recorded in model.json (verification "unpinned"). Pinned
 * hashes were copied from the model pages and are still to be verified by a real download (docs/SCRIBE.md).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../shared/private-files.js';
import { abortError } from '../audio/decode.js';

export type ModelFileRole = 'encoder' | 'decoder' | 'tokens';

export interface ModelFileSpec {
  role: ModelFileRole;
  /** File name inside the model's folder. */
  file: string;
  url: string;
  /** Pinned SHA-256 (hex), or null when the catalogue has none yet. */
  sha256: string | null;
}

export interface ModelSpec {
  id: string;
  description: string;
  /** Approximate download size in MB (int8 encoder + decoder + tokens). */
  approxMB: number;
  files: ModelFileSpec[];
}

const HF = 'https://huggingface.co/csukuangfj';
const files = (name: string, rev: string, hashes: Partial<Record<ModelFileRole, string>> = {}): ModelFileSpec[] => [
  { role: 'encoder', file: `${name}-encoder.int8.onnx`, url: `${HF}/sherpa-onnx-whisper-${name}/resolve/${rev}/${name}-encoder.int8.onnx`, sha256: hashes.encoder ?? null },
  { role: 'decoder', file: `${name}-decoder.int8.onnx`, url: `${HF}/sherpa-onnx-whisper-${name}/resolve/${rev}/${name}-decoder.int8.onnx`, sha256: hashes.decoder ?? null },
  { role: 'tokens', file: `${name}-tokens.txt`, url: `${HF}/sherpa-onnx-whisper-${name}/resolve/${rev}/${name}-tokens.txt`, sha256: hashes.tokens ?? null },
];

/**
 * Multilingual Whisper models (all 11 interface languages; en-IN and en-US are both "en"), smallest first.
 * tiny is pinned to a repository revision with the SHA-256 its Git LFS pages list; the others follow "main" and
 * are checked against the server-announced hash until pinned. Indic accuracy: tiny/base are weak, prefer small+.
 */
export const WHISPER_CATALOGUE: readonly ModelSpec[] = [
  {
    id: 'tiny', description: 'Whisper tiny (multilingual, int8): fastest, weakest', approxMB: 104,
    files: files('tiny', '18e7b4cce9526312a66981ec3af7b9446b70db66', {
      encoder: 'dd5531121627e7e184a6b8f6a6e353edf39b40e328032dfdc146b5a359a3e3d0',
      decoder: 'dd29c14f2104c14c3aca7dc8e13308190bbe4c65be21c82f4b86a27d8326b26b',
    }),
  },
  { id: 'base', description: 'Whisper base (multilingual, int8)', approxMB: 161, files: files('base', 'main') },
  { id: 'small', description: 'Whisper small (multilingual, int8): the recommended default', approxMB: 375, files: files('small', 'main') },
  { id: 'medium', description: 'Whisper medium (multilingual, int8): most accurate here, slow on 2 cores', approxMB: 946, files: files('medium', 'main') },
];

export type Verification = 'pinned' | 'server' | 'unpinned' | 'local';

export interface InstalledModel {
  id: string;
  dir: string;
  encoder: string;
  decoder: string;
  tokens: string;
  source: 'download' | 'local';
  verification: Verification;
  sha256: Partial<Record<ModelFileRole, string>>;
  installedAt: string;
}

export interface DownloadProgress {
  modelId: string;
  file: string;
  fileIndex: number;
  fileCount: number;
  /** Bytes of this file on disk so far (a resumed download starts above zero). */
  receivedBytes: number;
  /** This file's size, when the server says. */
  totalBytes: number | null;
}

export interface EnsureOptions {
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
}

export class ModelError extends Error {
  override readonly name = 'ModelError';
  constructor(readonly code: 'UNKNOWN_MODEL' | 'DOWNLOAD_FAILED' | 'HASH_MISMATCH' | 'NOT_A_MODEL', message: string) {
    super(message);
  }
}

export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  await pipeline(createReadStream(path), h);
  return h.digest('hex');
}

const HEX64 = /^"?([0-9a-f]{64})"?$/i;
const MANIFEST = 'model.json';

export interface ModelManagerOptions {
  /** `<dataDir>/models`. */
  dir: string;
  catalogue?: readonly ModelSpec[];
  fetch?: typeof fetch;
  /**
   * A mirror that serves the same paths as https://huggingface.co/csukuangfj (e.g. a clinic's file server, for
   * machines without internet access); default CLINIC_DESK_MODEL_MIRROR. Hashes are checked the same way.
   */
  mirror?: string;
}

/** The catalogue with its Hugging Face address replaced by a mirror's. */
export function mirrored(specs: readonly ModelSpec[], mirror: string): ModelSpec[] {
  const base = mirror.replace(/\/+$/, '');
  return specs.map((s) => ({ ...s, files: s.files.map((f) => ({ ...f, url: f.url.startsWith(HF) ? base + f.url.slice(HF.length) : f.url })) }));
}

export class ModelManager {
  readonly dir: string;
  private readonly specs: readonly ModelSpec[];
  private readonly fetchImpl: typeof fetch;
  private readonly pending = new Map<string, Promise<InstalledModel>>();

  constructor(opts: ModelManagerOptions) {
    this.dir = resolve(opts.dir);
    const mirror = opts.mirror ?? process.env.CLINIC_DESK_MODEL_MIRROR;
    const specs = opts.catalogue ?? WHISPER_CATALOGUE;
    this.specs = mirror ? mirrored(specs, mirror) : specs;
    this.fetchImpl = opts.fetch ?? fetch;
  }

  catalogue(): readonly ModelSpec[] {
    return this.specs;
  }

  spec(id: string): ModelSpec | undefined {
    return this.specs.find((s) => s.id === id);
  }

  /** Models whose manifest is present and whose files all exist. */
  async installed(): Promise<InstalledModel[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const out: InstalledModel[] = [];
    for (const n of names.sort()) {
      const m = await this.find(n);
      if (m) out.push(m);
    }
    return out;
  }

  async find(id: string): Promise<InstalledModel | null> {
    if (!/^[\w.-]+$/.test(id)) return null;
    try {
      const m = JSON.parse(await readFile(join(this.dir, id, MANIFEST), 'utf8')) as InstalledModel;
      if (![m.encoder, m.decoder, m.tokens].every((p) => typeof p === 'string' && existsSync(p))) return null;
      return m;
    } catch {
      return null;
    }
  }

  /** The model, downloading and verifying it first if it is not installed. Concurrent calls share one download. */
  ensureModel(id: string, opts: EnsureOptions = {}): Promise<InstalledModel> {
    let p = this.pending.get(id);
    if (!p) {
      p = this.install(id, opts).finally(() => this.pending.delete(id));
      this.pending.set(id, p);
    }
    return p;
  }

  private async install(id: string, opts: EnsureOptions): Promise<InstalledModel> {
    const existing = await this.find(id);
    if (existing) return existing;
    const spec = this.spec(id);
    if (!spec) {
      throw new ModelError('UNKNOWN_MODEL', `Unknown Whisper model "${id}" (known: ${this.specs.map((s) => s.id).join(', ')})`);
    }
    const dir = join(this.dir, id);
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const sha256: Partial<Record<ModelFileRole, string>> = {};
    const how: Verification[] = [];
    for (const [i, f] of spec.files.entries()) {
      const r = await this.download(spec, f, i, dir, opts);
      sha256[f.role] = r.sha256;
      how.push(r.verification);
    }
    const model: InstalledModel = {
      id,
      dir,
      encoder: join(dir, spec.files.find((f) => f.role === 'encoder')!.file),
      decoder: join(dir, spec.files.find((f) => f.role === 'decoder')!.file),
      tokens: join(dir, spec.files.find((f) => f.role === 'tokens')!.file),
      source: 'download',
      // The weakest check of its files.
      verification: (['unpinned', 'server', 'pinned'] as const).find((v) => how.includes(v)) ?? 'unpinned',
      sha256,
      installedAt: new Date().toISOString(),
    };
    await writeManifest(dir, model);
    return model;
  }

  private async download(spec: ModelSpec, f: ModelFileSpec, index: number, dir: string, opts: EnsureOptions): Promise<{ sha256: string; verification: Verification }> {
    const { signal, onProgress } = opts;
    const final = join(dir, f.file);
    const part = `${final}.part`;
    if (signal?.aborted) throw abortError(signal);
    // A finished file from an earlier, interrupted install: keep it if it still verifies.
    if (existsSync(final) && f.sha256) {
      const have = await sha256File(final);
      if (have === f.sha256) return { sha256: have, verification: 'pinned' };
      await rm(final, { force: true });
    }
    const already = (await stat(part).catch(() => null))?.size ?? 0;
    let res: Response;
    try {
      res = await this.fetchImpl(f.url, { headers: already > 0 ? { Range: `bytes=${already}-` } : {}, signal, redirect: 'follow' });
    } catch (e) {
      if (signal?.aborted) throw abortError(signal);
      throw new ModelError('DOWNLOAD_FAILED', `Could not download ${f.file} for Whisper ${spec.id} from ${f.url}: ${(e as Error).message}`);
    }
    let start = 0;
    let total: number | null = null;
    if (res.status === 206 && already > 0) {
      const m = /bytes (\d+)-\d+\/(\d+|\*)/.exec(res.headers.get('content-range') ?? '');
      if (m && Number(m[1]) === already) {
        start = already;
        total = m[2] === '*' ? null : Number(m[2]);
      } else {
        await res.body?.cancel();
        await rm(part, { force: true });
        throw new ModelError('DOWNLOAD_FAILED', `The server resumed ${f.file} at the wrong place; the partial download was removed, try again`);
      }
    } else if (res.status === 416 && already > 0) {
      // Nothing left to fetch: the part file may already be whole; the hash decides.
      await res.body?.cancel();
      start = already;
    } else if (res.status === 200) {
      const len = Number(res.headers.get('content-length'));
      total = Number.isFinite(len) && len > 0 ? len : null;
    } else {
      await res.body?.cancel();
      throw new ModelError('DOWNLOAD_FAILED', `Could not download ${f.file} for Whisper ${spec.id}: HTTP ${res.status} from ${f.url}`);
    }
    const announced = HEX64.exec(res.headers.get('x-linked-etag') ?? res.headers.get('etag') ?? '')?.[1]?.toLowerCase() ?? null;

    if (res.status !== 416 && res.body) {
      let received = start;
      const progress = (n: number) => {
        received += n;
        onProgress?.({ modelId: spec.id, file: f.file, fileIndex: index, fileCount: spec.files.length, receivedBytes: received, totalBytes: total });
      };
      onProgress?.({ modelId: spec.id, file: f.file, fileIndex: index, fileCount: spec.files.length, receivedBytes: received, totalBytes: total });
      const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
      const count = async function* (src: AsyncIterable<Buffer>) {
        for await (const chunk of src) {
          progress(chunk.length);
          yield chunk;
        }
      };
      try {
        await pipeline(body, count, createWriteStream(part, { flags: start > 0 ? 'a' : 'w', mode: PRIVATE_FILE_MODE }), { signal });
      } catch (e) {
        // The part file stays for a later resume.
        if (signal?.aborted) throw abortError(signal);
        throw new ModelError('DOWNLOAD_FAILED', `Download of ${f.file} for Whisper ${spec.id} was interrupted (${(e as Error).message}); it will resume next time`);
      }
    }

    const have = await sha256File(part);
    const expected = f.sha256 ?? announced;
    if (expected && have !== expected.toLowerCase()) {
      await rm(part, { force: true });
      throw new ModelError('HASH_MISMATCH',
        `${f.file} for Whisper ${spec.id} failed verification (SHA-256 ${have}, expected ${expected}); the download was removed`);
    }
    await rename(part, final);
    return { sha256: have, verification: f.sha256 ? 'pinned' : announced ? 'server' : 'unpinned' };
  }

  /**
   * Use Whisper model files already on this machine: `path` is a folder holding `*encoder*.onnx`,
   * `*decoder*.onnx` and `*tokens*.txt` (int8 preferred when both exist), or one of those files. The files stay
   * where they are; a manifest under `<dir>/<id>/` points at them. When `id` names a catalogue model with pinned
   * hashes, the files must match them.
   */
  async useLocalModel(path: string, opts: { id?: string } = {}): Promise<InstalledModel> {
    const id = opts.id ?? 'local';
    if (!/^[\w.-]+$/.test(id)) throw new ModelError('NOT_A_MODEL', `Invalid model id "${id}"`);
    const abs = resolve(path);
    const st = await stat(abs).catch(() => null);
    if (!st) throw new ModelError('NOT_A_MODEL', `No Whisper model at ${abs}`);
    const folder = st.isDirectory() ? abs : dirname(abs);
    const names = await readdir(folder);
    const pickOne = (re: RegExp) => {
      const hits = names.filter((n) => re.test(n)).sort();
      return hits.find((n) => n.includes('int8')) ?? hits[0];
    };
    const enc = pickOne(/encoder.*\.onnx$/);
    const dec = pickOne(/decoder.*\.onnx$/);
    const tok = pickOne(/tokens.*\.txt$/);
    if (!enc || !dec || !tok) {
      const lacking = [!enc && 'an *encoder*.onnx', !dec && 'a *decoder*.onnx', !tok && 'a *tokens*.txt'].filter(Boolean).join(', ');
      throw new ModelError('NOT_A_MODEL', `${folder} is not a Whisper model folder: it lacks ${lacking}`);
    }
    const paths = { encoder: join(folder, enc), decoder: join(folder, dec), tokens: join(folder, tok) };
    const sha256: Partial<Record<ModelFileRole, string>> = {};
    let verification: Verification = 'local';
    const spec = this.spec(id);
    for (const f of spec?.files ?? []) {
      if (!f.sha256) continue;
      const have = await sha256File(paths[f.role]);
      if (have !== f.sha256) {
        throw new ModelError('HASH_MISMATCH', `${basename(paths[f.role])} does not match Whisper ${id}'s pinned SHA-256 (${have}, expected ${f.sha256})`);
      }
      sha256[f.role] = have;
      verification = 'pinned';
    }
    const dir = join(this.dir, id);
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const model: InstalledModel = { id, dir, ...paths, source: 'local', verification, sha256, installedAt: new Date().toISOString() };
    await writeManifest(dir, model);
    return model;
  }

  async remove(id: string): Promise<void> {
    if (!/^[\w.-]+$/.test(id)) return;
    await rm(join(this.dir, id), { recursive: true, force: true });
  }
}

async function writeManifest(dir: string, model: InstalledModel): Promise<void> {
  const tmp = join(dir, `.${MANIFEST}.${randomUUID().slice(0, 8)}`);
  await writeFile(tmp, `${JSON.stringify(model, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  await rename(tmp, join(dir, MANIFEST));
}

/** "[#####.....]  52%  54.1/104.0 MB  tiny-decoder.int8.onnx (2/3)" for a terminal. */
export function progressBar(p: DownloadProgress, width = 30): string {
  const mb = (n: number) => (n / 1e6).toFixed(1);
  const frac = p.totalBytes ? Math.min(1, p.receivedBytes / p.totalBytes) : null;
  const filled = frac === null ? 0 : Math.round(frac * width);
  const bar = frac === null ? '?'.repeat(width) : `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  const pct = frac === null ? '  ?%' : `${String(Math.floor(frac * 100)).padStart(3)}%`;
  const size = p.totalBytes ? `${mb(p.receivedBytes)}/${mb(p.totalBytes)} MB` : `${mb(p.receivedBytes)} MB`;
  return `[${bar}] ${pct}  ${size}  ${p.file} (${p.fileIndex + 1}/${p.fileCount})`;
}
