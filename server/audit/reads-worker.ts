/**
 * The read-audit writer thread, started by audit/reads-writer.ts. A search's audit row costs the request's thread an
 * array push; this thread stores the rows, in two steps:
 *
 * 1. Each batch (every 20 ms under load) is appended, as one row, to a journal: a small SQLite file of its own beside
 *    the clinic's (`<database>-reads`), without an fsync per commit, so that a crash of the process loses at most the
 *    batch being queued, as before.
 * 2. Every few seconds, and whenever the service asks (a flush: reading the audit log, a backup, closing), the
 *    journal's batches are moved into audit_log in one transaction.
 *
 * Why two steps: any write to the clinic's database file makes every other connection to it drop its page cache at
 * its next read (SQLite's WAL mode). Rows written there every 20 ms kept the searches' connection re-reading its
 * index pages; moved every few seconds, they cost the searches almost nothing (bench/search.ts).
 *
 * The move records the journal's last batch it moved in audit_reads_moved, in the same transaction as the rows: a
 * crash between the move and the journal's cleanup finds the batches already moved at the next start and drops them
 * rather than move them twice.
 *
 * It imports no module of ours, and takes what it needs (the files, the INSERT's text, where to load better-sqlite3
 * from) in workerData: from source it runs as this one file made JavaScript (reads-writer.ts says why).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

export interface ReadsWorkerData {
  /** The clinic's database. */
  file: string;
  /** The journal (created 0600 by the caller). */
  journal: string;
  /** As openDatabase's: the Electron main process passes its own build of better-sqlite3. */
  nativeBinding?: string;
  /** The one-row INSERT (audit/store.ts `insertSql`), its parameters in `auditRow`'s order. */
  insertSql: string;
  /** A module URL to resolve better-sqlite3 from. */
  requireFrom: string;
  /** How often the journal is moved into audit_log when nobody asks. */
  moveEveryMs: number;
}

/**
 * A batch: its rows, each entry's values as a JSON array, comma-separated, in UTF-8 (made as the entries came:
 * reads-writer.ts); and whether to move the journal into audit_log before answering. Or the end (after a last move).
 */
export type ReadsWorkerMessage = { id: number; rows: Uint8Array | null; move: boolean } | { close: true };
/** A batch stored (and moved, if asked), or why not. */
export interface ReadsWorkerReply { id: number; error?: string }

const data = workerData as ReadsWorkerData;
const port = parentPort!;
const Database = createRequire(data.requireFrom)('better-sqlite3') as typeof BetterSqlite3;
const open = (file: string) => {
  const db = new Database(file, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {});
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  // As the main thread's read-audit connection had: no fsync per commit (audit/service.ts says what that risks).
  db.pragma('synchronous = NORMAL');
  return db;
};
const db = open(data.file);
const journal = open(data.journal);
journal.exec(`CREATE TABLE IF NOT EXISTS journal (id TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS batches (id INTEGER PRIMARY KEY AUTOINCREMENT, rows TEXT NOT NULL);`);
// The journal's own id, so that what audit_reads_moved says of it is never read as said of another journal file.
const journalId = (journal.prepare('SELECT id FROM journal').pluck().get() as string | undefined) ?? (() => {
  const id = randomUUID();
  journal.prepare('INSERT INTO journal (id) VALUES (?)').run(id);
  return id;
})();

const utf8 = new TextDecoder();
const append = journal.prepare('INSERT INTO batches (rows) VALUES (?)');
const queued = journal.prepare('SELECT id, rows FROM batches ORDER BY id');
const drop = journal.prepare('DELETE FROM batches WHERE id <= ?');
const insert = db.prepare(data.insertSql);
const movedUpTo = db.prepare('SELECT last_batch FROM audit_reads_moved WHERE journal = ?').pluck();
const markMoved = db.prepare(`INSERT INTO audit_reads_moved (journal, last_batch) VALUES (?, ?)
  ON CONFLICT (journal) DO UPDATE SET last_batch = excluded.last_batch`);
const moveAll = db.transaction((batches: { id: number; rows: string }[]) => {
  for (const batch of batches) for (const row of JSON.parse(batch.rows) as unknown[][]) insert.run(row);
  markMoved.run(journalId, batches.at(-1)!.id);
});

// A long write on the main connection (an import) can outlast the busy timeout: tried again rather than lost.
const ATTEMPTS = 3;
function retried(write: () => void) {
  for (let attempt = 1; ; attempt++) {
    try {
      return write();
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_BUSY' || attempt === ATTEMPTS) throw e;
    }
  }
}

function move() {
  const batches = queued.all() as { id: number; rows: string }[];
  if (batches.length === 0) return;
  retried(() => moveAll(batches));
  drop.run(batches.at(-1)!.id);
}

// What a crashed process moved but did not clear, then what it queued and did not move.
const moved = movedUpTo.get(journalId) as number | undefined;
if (moved !== undefined) drop.run(moved);
move();

// A failed move leaves the batches in the journal for the next one; a flush that asks for it reports the failure.
const timer = setInterval(() => {
  try {
    move();
  } catch {
    // Kept for the next move.
  }
}, data.moveEveryMs);

port.on('message', (m: ReadsWorkerMessage) => {
  if ('close' in m) {
    clearInterval(timer);
    try {
      move();
    } finally {
      db.close();
      journal.close();
      port.close();
    }
    return;
  }
  let error: string | undefined;
  try {
    if (m.rows !== null) {
      const rows = `[${utf8.decode(m.rows)}]`;
      retried(() => append.run(rows));
    }
    if (m.move) move();
  } catch (e) {
    error = (e as Error).message;
  }
  port.postMessage({ id: m.id, ...(error === undefined ? {} : { error }) } satisfies ReadsWorkerReply);
});
