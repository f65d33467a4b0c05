import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db } from './database.js';

/**
 * Copies the live database to `out` with SQLite's online backup API: consistent even while the service keeps
 * writing. The copy is written beside the target and renamed into place, so `out` is never half a database.
 */
export async function backupDatabase(db: Db, out: string, onProgress?: (done: number, total: number) => void): Promise<void> {
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  await db.backup(partial, {
    progress: ({ totalPages, remainingPages }) => {
      onProgress?.(totalPages - remainingPages, totalPages);
      return 1000; // pages per step: small steps let the service's own writes in between
    },
  });
  if (existsSync(out)) rmSync(out);
  renameSync(partial, out);
}
