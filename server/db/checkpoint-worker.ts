/**
 * The checkpoint thread, started by db/checkpointer.ts: copies the clinic database's -wal file back into the database
 * file (`PRAGMA wal_checkpoint(PASSIVE)`) every few hundred ms, on a connection of its own, so that the copy and its
 * two fsyncs (the -wal file before, the database file after) are not made on the event loop that answers requests.
 *
 * PASSIVE takes no lock that a writer or a reader waits for: the main thread's commits go on while it runs. It
 * imports no module of ours, and takes what it needs in workerData: from source it runs as this one file made
 * JavaScript (shared/worker-script.ts says why).
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

export interface CheckpointWorkerData {
  /** The clinic's database, in WAL mode. */
  file: string;
  /** As openDatabase's: the Electron main process passes its own build of better-sqlite3. */
  nativeBinding?: string;
  /** A module URL to resolve better-sqlite3 from. */
  requireFrom: string;
  /** How often to checkpoint. */
  everyMs: number;
}

/** The end: the thread closes its connection and exits. */
export type CheckpointWorkerMessage = { close: true };

const data = workerData as CheckpointWorkerData;
const port = parentPort!;
const Database = createRequire(data.requireFrom)('better-sqlite3') as typeof BetterSqlite3;
const db = new Database(data.file, { fileMustExist: true, ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}) });
// Not OFF: a checkpoint must sync the -wal file before it copies and the database file after (NORMAL and FULL both do).
db.pragma('synchronous = NORMAL');
// This connection writes nothing, so its own automatic checkpoint never runs; it only checkpoints when asked below.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

const timer = setInterval(() => {
  try {
    checkpoint.run();
  } catch (e) {
    // The main connection still checkpoints by itself past its own threshold (checkpointer.ts): nothing is lost,
    // only done on the event loop. Say why, and go on trying.
    console.error(`clinic-desk: a WAL checkpoint failed: ${(e as Error).message}`);
  }
}, data.everyMs);

port.on('message', (m: CheckpointWorkerMessage) => {
  if (!m.close) return;
  clearInterval(timer);
  db.close();
  port.close();
});
