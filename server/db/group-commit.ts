import { close, fdatasync, fsync, open } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

const openFile = promisify(open);
const syncData = promisify(fdatasync);
const syncAll = promisify(fsync);
const closeFile = promisify(close);

/**
 * Group commit for a SQLite file in WAL mode (issue 27). better-sqlite3 runs on the event loop, so a commit with
 * synchronous=FULL holds every request while the disk flushes (2–5 ms here). Instead the connection commits with
 * synchronous=NORMAL (the commit is in the -wal file, not yet on the platter) and whoever promises durability waits
 * here until one fdatasync of the -wal file, on libuv's thread pool, has covered its commit: WAL + NORMAL + that
 * flush is FULL's durability, and one flush serves every commit made while the previous one ran.
 *
 * The -wal file lives as long as the connection (SQLite deletes it only when the last connection closes, and then
 * after a checkpoint that syncs the database file itself), so one descriptor, opened at the first flush, serves.
 */
export interface GroupCommit {
  /** A commit has been made on the connection: the next `flushed()` covers it. */
  committed(): void;
  /**
   * Resolves once every commit noted so far is on disk; null when they already are (no promise, no tick: the
   * answer of a read while nothing is pending goes out as before). Rejects if the flush fails: then nothing can be
   * promised, and the caller's answer is an error.
   */
  flushed(): Promise<void> | null;
  /** Closes the descriptor after a last flush; the connection's own close then checkpoints. */
  close(): Promise<void>;
}

export function groupCommit(databaseFile: string): GroupCommit {
  const walFile = `${databaseFile}-wal`;
  let fd: number | null = null;
  /** Commits noted, and how many of them the last finished flush covered. */
  let made = 0;
  let synced = 0;
  /** The flush running now and how many commits it covers; the one that starts after it, for later commits. */
  let running: { upTo: number; done: Promise<void> } | null = null;
  let next: Promise<void> | null = null;

  async function flush(upTo: number) {
    if (fd === null) {
      fd = await openFile(walFile, 'r');
      // The -wal file's entry in its folder must be on disk too: SQLite syncs the folder of a new journal once.
      const dir = await openFile(dirname(walFile), 'r');
      try {
        await syncAll(dir);
      } finally {
        await closeFile(dir);
      }
    }
    await syncData(fd);
    synced = Math.max(synced, upTo);
  }

  function start(): Promise<void> {
    const upTo = made;
    const done = flush(upTo).finally(() => {
      running = null;
    });
    running = { upTo, done };
    return done;
  }

  return {
    committed() {
      made++;
    },
    flushed() {
      if (synced >= made) return null;
      if (running && running.upTo >= made) return running.done;
      if (!running) return start();
      // A flush is running, begun before the latest commits: one more starts when it ends, for all of them.
      next ??= running.done.catch(() => undefined).then(() => {
        next = null;
        return start();
      });
      return next;
    },
    async close() {
      await running?.done.catch(() => undefined);
      await next?.catch(() => undefined);
      if (fd !== null) await closeFile(fd);
      fd = null;
    },
  };
}
