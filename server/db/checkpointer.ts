import { Worker } from 'node:worker_threads';
import { workerScript } from '../shared/worker-script.js';
import type { CheckpointWorkerData, CheckpointWorkerMessage } from './checkpoint-worker.js';
import type { Db } from './database.js';

/** How often the thread checkpoints: the -wal file then holds a few hundred ms of writes (a few MB under a burst). */
const EVERY_MS = 250;

/**
 * The main connection's own automatic checkpoint, kept as a backstop at this many pages (40 MB) rather than
 * SQLite's 1,000: a checkpoint made in another connection cannot restart the -wal file while commits keep coming
 * (SQLite rewinds it only at a write that finds every frame copied), so under writes without a pause the file would
 * grow without end. Past this size the main connection checkpoints once, on the event loop, copying only what the
 * thread has not, and its next write rewinds the file.
 */
const BACKSTOP_PAGES = 10_000;
/** SQLite's default, back in force when the thread is gone. */
const SQLITE_DEFAULT_PAGES = 1000;

export interface Checkpointer {
  /** Stops the thread; the main connection checkpoints by itself again. Before the main connection closes. */
  close(): Promise<void>;
}

/**
 * Checkpoints of a SQLite file in WAL mode, made by a worker thread (db/checkpoint-worker.ts) rather than by the
 * connection that commits (issue 27): better-sqlite3 runs on the event loop, and SQLite checkpoints at the commit
 * that takes the -wal file past 1,000 pages, copying them and syncing two files while every request waits (up to
 * 45 ms at a time in bench/webhooks.ts). Should the thread fail to start or stop unexpectedly, the main connection
 * goes back to checkpointing every 1,000 pages by itself, and the reason is logged once.
 *
 * `script` replaces the thread's script (tests give it a broken one).
 */
export async function walCheckpointer(db: Db, opts: { nativeBinding?: string; everyMs?: number; script?: URL } = {}): Promise<Checkpointer> {
  let closing = false;
  let gone = false;
  // A thread that fails emits 'error' and then 'exit': one line, for the first.
  const backToSelf = (reason: string) => {
    if (gone || closing || !db.open) return;
    gone = true;
    db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
    console.error(`clinic-desk: the WAL checkpoint thread stopped (${reason}); the database checkpoints on the main thread from now on`);
  };
  let worker: Worker;
  try {
    worker = new Worker(opts.script ?? await workerScript(new URL('./checkpoint-worker.ts', import.meta.url), new URL('./db-checkpoint-worker.mjs', import.meta.url)), {
      // None of the process's flags (audit/reads-writer.ts says why: a TypeScript `--import` cannot load there).
      execArgv: [],
      workerData: {
        file: db.name, nativeBinding: opts.nativeBinding, requireFrom: import.meta.url, everyMs: opts.everyMs ?? EVERY_MS,
      } satisfies CheckpointWorkerData,
    });
  } catch (e) {
    backToSelf((e as Error).message);
    return { close: async () => undefined };
  }
  // Its timer must not keep a process alive that has nothing else to do.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', (code) => {
    backToSelf(`exit code ${code}`);
    resolve();
  }));
  worker.on('error', (e) => backToSelf(e.message));
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  return {
    async close() {
      closing = true;
      db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
      // Held until it has exited: a script awaiting the service's close has nothing else keeping it alive.
      worker.ref();
      worker.postMessage({ close: true } satisfies CheckpointWorkerMessage);
      await exited;
    },
  };
}
