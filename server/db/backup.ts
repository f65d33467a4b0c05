import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db } from './database.js';
import { PRIVATE_DIR_MODE, ensurePrivateFile } from '../shared/private-files.js';

/**
 * Copies the live database to `out` with SQLite's online backup API: consistent even while the service keeps
 * writing. The copy is written beside the target and renamed into place, so `out` is never half a database.
 * It holds every clinic's data, so it is 0600 from its first byte (and a folder made for it 0700); a folder that
 * already exists is left as it is: it is the caller's choice of place (a USB drive, a share). The copy is one file:
 * marked as a rollback-journal database (below), opening it later leaves no -wal or -shm beside it.
 */
export async function backupDatabase(db: Db, out: string, onProgress?: (done: number, total: number) => void): Promise<void> {
  mkdirSync(dirname(out), { recursive: true, mode: PRIVATE_DIR_MODE });
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  // SQLite would create the copy 0644; an empty file is an empty database, which the backup then fills.
  ensurePrivateFile(partial);
  await db.backup(partial, {
    progress: ({ totalPages, remainingPages }) => {
      onProgress?.(totalPages - remainingPages, totalPages);
      return 1000; // pages per step: small steps let the service's own writes in between
    },
  });
  markRollbackJournal(partial);
  if (existsSync(out)) rmSync(out);
  renameSync(partial, out);
}

/**
 * The backup copies page 1 as it is, so the copy says WAL (file format versions 2 at header offsets 18 and 19),
 * and whatever opens it, even read-only, makes `-wal` and `-shm` files beside it. Every page is in the file itself
 * once the backup is done, so versions 1 (rollback journal, SQLite's file format §1.3.4) describe it as truly; the
 * service turns WAL back on when a restored copy is opened.
 */
function markRollbackJournal(file: string) {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.from([1, 1]), 0, 2, 18);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
