import { Worker } from 'node:worker_threads';
import { openDatabase } from '../db/database.js';
import { ensurePrivateFile, tightenIfPresent } from '../shared/private-files.js';
import { workerScript } from '../shared/worker-script.js';
import { openSql } from '../db/sql.js';
import { rootExecutor } from '../db/tx.js';
import type { ReadsWorkerData, ReadsWorkerMessage, ReadsWorkerReply } from './reads-worker.js';
import { type AuditRow, auditEntry, auditStore } from './store.js';

/** Where read entries go (audit/service.ts), in batches. */
export interface ReadsWriter {
  /** Queues one entry's values for the next batch. */
  add(row: AuditRow): void;
  /**
   * Hands over what was queued as a batch: resolves once it is stored, and with `settle` once it and every batch
   * before it are in audit_log.
   */
  write(settle: boolean): Promise<void>;
  /** Writes nothing more; waits for what was handed over. */
  close(): Promise<void>;
}

/**
 * How often read entries reach audit_log when nobody flushes: each move makes the searches' connection drop its page
 * cache once (reads-worker.ts), so seconds apart rather than at every batch.
 */
const MOVE_EVERY_MS = 5000;

/** A batch's first buffer: about 200 entries (twice as many when it fills). */
const BATCH_BYTES = 64 * 1024;

/**
 * A batch's memory, shared with the thread: posting a batch then hands it over without the copy that cloning an
 * ordinary buffer costs on this thread (the largest part of the read audit's cost here in a profile of bench/search.ts).
 * A batch is never written again once sent, and its bytes stay here in case the thread goes before storing it.
 */
const batchBuffer = (bytes: number) => Buffer.from(new SharedArrayBuffer(bytes));

interface Waiting {
  /** The batch as sent, kept to be written here should the thread go. */
  rows: Uint8Array;
  resolve: () => void;
  reject: (e: Error) => void;
}

/** A batch's rows: the JSON arrays of its entries, comma-separated (the thread adds the brackets). */
const parseRows = (rows: Uint8Array) => JSON.parse(`[${Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength).toString('utf8')}]`) as AuditRow[];

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
  // The batch being queued: each entry serialised as it comes, into memory off the JavaScript heap. Entry objects
  // kept until the batch went were copied by every young-generation collection in between: the largest share of the
  // garbage collector's time per search (bench/search.ts).
  let rows = batchBuffer(BATCH_BYTES);
  let length = 0;

  // On this thread: a connection of its own, opened the first time it is needed.
  let here: { write: (batch: Uint8Array) => Promise<void>; close: () => Promise<void> } | null = null;
  const onThisThread = () => {
    if (here) return here;
    const conn = openDatabase({ file: opts.file, nativeBinding: opts.nativeBinding, synchronous: 'NORMAL', migrate: false });
    const database = openSql({ sqlite: conn });
    const store = auditStore(rootExecutor(database, conn));
    here = {
      write: (batch) => store.insertMany(parseRows(batch).map(auditEntry)),
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
    for (const w of held) onThisThread().write(w.rows).then(w.resolve, w.reject);
  };

  const start = async (): Promise<Worker | null> => {
    try {
      // It holds what audit_log does: private like the database (SQLite gives its -wal and -shm the file's mode).
      ensurePrivateFile(journal);
      tightenIfPresent(`${journal}-wal`);
      tightenIfPresent(`${journal}-shm`);
      const w = new Worker(opts.script ?? await workerScript(new URL('./reads-worker.ts', import.meta.url), new URL('./audit-reads-worker.mjs', import.meta.url)), {
        // None of the process's flags: the script is plain JavaScript that needs no loader, and a worker inherits
        // every `--import` the process was started with, where a TypeScript one cannot load (no tsx there): the
        // benchmarks' children had the thread die at its start and every batch written on this thread.
        execArgv: [],
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
    add(row) {
      const text = JSON.stringify(row);
      // At most three bytes a UTF-16 unit, and the comma.
      if (length + text.length * 3 + 1 > rows.length) {
        const bigger = batchBuffer(Math.max(rows.length * 2, length + text.length * 3 + 1));
        rows.copy(bigger, 0, 0, length);
        rows = bigger;
      }
      if (length > 0) rows[length++] = 0x2c;
      length += rows.write(text, length);
    },
    async write(settle) {
      const batch = rows.subarray(0, length);
      if (length > 0) {
        rows = batchBuffer(BATCH_BYTES);
        length = 0;
      }
      if (batch.length === 0 && !(settle && worker)) return;
      const w = await (started ??= start());
      // Gone since it started, or closing: this thread writes.
      if (!w || w !== worker || closing) return onThisThread().write(batch);
      return new Promise<void>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { rows: batch, resolve, reject });
        if (waiting.size === 1) w.ref();
        w.postMessage({ id, rows: batch.length ? batch : null, move: settle } satisfies ReadsWorkerMessage);
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
