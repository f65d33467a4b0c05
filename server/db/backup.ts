import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db } from './database.js';
import { PRIVATE_DIR_MODE, ensurePrivateFile } from '../shared/private-files.js';

/**
 * Copies the live database to `out` with SQLite's online backup API: consistent even while the service keeps
 * writing. The copy is written beside the target and renamed into place, so `out` is never half a database.
 * It holds every clinic's data, so it is 0600 from its first byte (and a folder made for it 0700); a folder that
 * already exists is left as it is: it is the caller's choice of place (a USB drive, a share).
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
  if (existsSync(out)) rmSync(out);
  renameSync(partial, out);
}
