import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { openDatabase } from '../db/database.js';
import { ensurePrivateFile, tightenIfPresent } from '../shared/private-files.js';
import { openSql } from '../db/sql.js';
import { rootExecutor } from '../db/tx.js';
import type { ReadsWorkerData, ReadsWorkerMessage, ReadsWorkerReply } from './reads-worker.js';
import { type AuditEntry, auditRow, auditStore } from './store.js';

/**
 * Where a batch of read entries goes (audit/service.ts): resolves once the batch is stored, and with `settle` once
 * it and every batch before it are in audit_log.
 */
export interface ReadsWriter {
  write(entries: readonly AuditEntry[], settle: boolean): Promise<void>;
  /** Writes nothing more; waits for what was handed over. */
  close(): Promise<void>;
}

const SOURCE = fileURLToPath(new URL('./reads-worker.ts', import.meta.url));

/**
 * How often read entries reach audit_log when nobody flushes: each move makes the searches' connection drop its page
 * cache once (reads-worker.ts), so seconds apart rather than at every batch.
 */
const MOVE_EVERY_MS = 5000;

let sourceScript: Promise<URL> | undefined;

/**
 * The writer thread's script: in a bundle (the desktop app), `audit-reads-worker.mjs` built beside it
 * (scripts/build.mjs). From source (`npm run serve`, tests) a worker thread cannot load TypeScript (tsx's loader does
 * not reach it, and starting tsx inside it costs about 0.3 s of CPU a worker), so the file, which imports nothing of
 * ours, is made JavaScript with esbuild (a few milliseconds, once a process) and run from a data: URL.
 */
function workerScript(): Promise<URL> {
  if (!existsSync(SOURCE)) return Promise.resolve(new URL('./audit-reads-worker.mjs', import.meta.url));
  // The synchronous transform, not the service the asynchronous one keeps running beside the process.
  return (sourceScript ??= (async () => {
    const { transformSync } = await import('esbuild');
    const { code } = transformSync(await readFile(SOURCE, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20' });
    return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
  })());
}

interface Waiting {
  entries: readonly AuditEntry[];
  resolve: () => void;
  reject: (e: Error) => void;
}

/** The read-audit journal of a clinic's database file (audit/reads-worker.ts): beside it, as its -wal and -shm are. */
export const readsJournalFile = (databaseFile: string) => `${databaseFile}-reads`;

/**
 * Read entries of a SQLite clinic, written by a worker thread (audit/reads-worker.ts): the INSERTs leave the event
 * loop that answers requests, a batch no longer holds up the requests queued behind it, and they reach the clinic's
 * database file every `moveEveryMs` rather than every batch. The thread starts at the first batch. Should it fail to
 * start or stop unexpectedly (a broken install), what it had not stored and every later batch are written on this
 * thread, straight into audit_log as before it existed, and the reason is logged once: entries are never dropped
 * for want of the thread (a journal it left is moved by the next thread that starts).
 *
 * `script` replaces the thread's script (tests give it a broken one).
 */
export function auditReadsWriter(opts: {
  file: string; nativeBinding?: string; insertSql: string; moveEveryMs?: number; script?: URL;
}): ReadsWriter {
  const journal = readsJournalFile(opts.file);
  let started: Promise<Worker | null> | null = null;
  let worker: Worker | null = null;
  let gone = false;
  let closing = false;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();

  // On this thread: a connection of its own, opened the first time it is needed.
  let here: { write: (entries: readonly AuditEntry[]) => Promise<void>; close: () => Promise<void> } | null = null;
  const onThisThread = () => {
    if (here) return here;
    const conn = openDatabase({ file: opts.file, nativeBinding: opts.nativeBinding, synchronous: 'NORMAL', migrate: false });
    const database = openSql({ sqlite: conn });
    const store = auditStore(rootExecutor(database, conn));
    here = {
      write: (entries) => store.insertMany(entries),
      close: async () => {
        await database.close();
        conn.close();
      },
    };
    return here;
  };

  /** The thread is gone: what it held goes through this thread, and so does everything after. */
  const lost = (reason: string) => {
    if (gone) return;
    gone = true;
    worker = null;
    if (closing) return;
    console.error(`clinic-desk: the read-audit writer thread stopped (${reason}); read entries are written on the main thread from now on`);
    const held = [...waiting.values()];
    waiting.clear();
    for (const w of held) onThisThread().write(w.entries).then(w.resolve, w.reject);
  };

  const start = async (): Promise<Worker | null> => {
    try {
      // It holds what audit_log does: private like the database (SQLite gives its -wal and -shm the file's mode).
      ensurePrivateFile(journal);
      tightenIfPresent(`${journal}-wal`);
      tightenIfPresent(`${journal}-shm`);
      const w = new Worker(opts.script ?? await workerScript(), {
        workerData: {
          file: opts.file, journal, nativeBinding: opts.nativeBinding, insertSql: opts.insertSql, requireFrom: import.meta.url,
          moveEveryMs: opts.moveEveryMs ?? MOVE_EVERY_MS,
        } satisfies ReadsWorkerData,
      });
      // Like the batch timer: a service nobody closed does not keep the process alive for an idle thread; one that
      // is storing a batch or closing does (an awaited flush would otherwise end a script that has nothing else to do).
      w.unref();
      w.on('message', (reply: ReadsWorkerReply) => {
        const batch = waiting.get(reply.id);
        if (!batch) return;
        waiting.delete(reply.id);
        if (waiting.size === 0 && !closing) w.unref();
        if (reply.error === undefined) batch.resolve();
        else batch.reject(new Error(`audit entries not stored: ${reply.error}`));
      });
      w.on('error', (e) => lost(e.message));
      w.on('exit', (code) => lost(`exit code ${code}`));
      worker = w;
      return w;
    } catch (e) {
      lost((e as Error).message);
      return null;
    }
  };

  return {
    async write(entries, settle) {
      if (entries.length === 0 && !worker) return;
      const w = await (started ??= start());
      // Gone since it started, or closing: this thread writes.
      if (!w || w !== worker || closing) return onThisThread().write(entries);
      return new Promise<void>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { entries, resolve, reject });
        if (waiting.size === 1) w.ref();
        w.postMessage({ id, rows: entries.length ? JSON.stringify(entries.map(auditRow)) : null, move: settle } satisfies ReadsWorkerMessage);
      });
    },
    async close() {
      closing = true;
      const w = worker;
      if (w) {
        const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
        w.ref();
        w.postMessage({ close: true } satisfies ReadsWorkerMessage);
        await exited;
      }
      await here?.close();
    },
  };
}
