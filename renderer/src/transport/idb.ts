import type { Recording, RecordingMeta } from '../../../preload/contract';

/**
 * Dictation audio in the browser: IndexedDB, one row per MediaRecorder chunk, written as each arrives, so closing
 * the tab or a crash loses at most the chunk in flight. The same behaviour as the app's chunk files on disk.
 */
const DB = 'clinic-desk';
const META = 'recordings';
const CHUNKS = 'chunks';

interface Stored extends RecordingMeta {
  id: string;
  created_at: string;
  finished: boolean;
  duration_s: number | null;
  txn_id: string | null;
  uploaded_at: string | null;
}

let opened: Promise<IDBDatabase> | null = null;
function db(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => {
      const d = req.result;
      d.createObjectStore(META, { keyPath: 'id' });
      d.createObjectStore(CHUNKS, { keyPath: ['id', 'seq'] });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return opened;
}

const done = <T>(req: IDBRequest<T>) => new Promise<T>((resolve, reject) => {
  req.onsuccess = () => resolve(req.result);
  req.onerror = () => reject(req.error);
});

async function tx<T>(stores: string[], mode: IDBTransactionMode, fn: (t: IDBTransaction) => Promise<T> | T): Promise<T> {
  const t = (await db()).transaction(stores, mode, { durability: 'strict' });
  const finished = new Promise<void>((resolve, reject) => {
    t.oncomplete = () => resolve();
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error ?? new Error('aborted'));
  });
  const result = await fn(t);
  await finished;
  return result;
}

const notFound = () => ({ status: 404, code: 'NOT_FOUND', message: 'This recording is not in this browser (it may have been discarded)' });

async function chunkRows(t: IDBTransaction, id: string) {
  const range = IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]);
  return (await done(t.objectStore(CHUNKS).getAll(range))) as { id: string; seq: number; data: ArrayBuffer }[];
}

async function describe(t: IDBTransaction, s: Stored): Promise<Recording> {
  const rows = await chunkRows(t, s.id);
  return { ...s, chunks: rows.length, bytes: rows.reduce((n, r) => n + r.data.byteLength, 0) };
}

async function getStored(t: IDBTransaction, id: string): Promise<Stored> {
  const s = (await done(t.objectStore(META).get(id))) as Stored | undefined;
  if (!s) throw notFound();
  return s;
}

export const browserRecordings = {
  start: (meta: RecordingMeta) => tx([META, CHUNKS], 'readwrite', async (t) => {
    const s: Stored = { ...meta, id: crypto.randomUUID(), created_at: new Date().toISOString(), finished: false, duration_s: null, txn_id: null, uploaded_at: null };
    await done(t.objectStore(META).put(s));
    return describe(t, s);
  }),
  append: (id: string, seq: number, chunk: Uint8Array) => tx([META, CHUNKS], 'readwrite', async (t) => {
    const s = await getStored(t, id);
    if (s.finished) throw { status: 409, code: 'RECORDING_FINISHED', message: 'This recording was already stopped' };
    const data = chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength);
    await done(t.objectStore(CHUNKS).put({ id, seq, data }));
  }),
  update: (id: string, patch: Partial<Stored>) => tx([META, CHUNKS], 'readwrite', async (t) => {
    const s = { ...(await getStored(t, id)), ...patch };
    await done(t.objectStore(META).put(s));
    return describe(t, s);
  }),
  get: (id: string) => tx([META, CHUNKS], 'readonly', async (t) => describe(t, await getStored(t, id))),
  list: () => tx([META, CHUNKS], 'readonly', async (t) => {
    const all = (await done(t.objectStore(META).getAll())) as Stored[];
    const out: Recording[] = [];
    for (const s of all) out.push(await describe(t, s));
    return out.sort((a, b) => b.created_at.localeCompare(a.created_at));
  }),
  audio: (id: string) => tx([META, CHUNKS], 'readonly', async (t) => {
    await getStored(t, id);
    const rows = (await chunkRows(t, id)).sort((a, b) => a.seq - b.seq);
    const total = rows.reduce((n, r) => n + r.data.byteLength, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const r of rows) {
      out.set(new Uint8Array(r.data), at);
      at += r.data.byteLength;
    }
    return out;
  }),
  discard: (id: string) => tx([META, CHUNKS], 'readwrite', async (t) => {
    await getStored(t, id);
    await done(t.objectStore(META).delete(id));
    await done(t.objectStore(CHUNKS).delete(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER])));
  }),
};
