import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile, tightenIfPresent } from '../shared/private-files.js';
import { migrate } from './migrate.js';

// An interface of our own so that declaration files can name the type.
export interface Db extends Database.Database {}

export interface OpenDatabaseOptions {
  /** Path of the SQLite file, or ':memory:'. */
  file: string;
  /**
   * Path of a better_sqlite3.node built for the running ABI. Plain Node leaves it unset and uses the
   * build in node_modules; the Electron main process passes its own build (see docs/ELECTRON.md).
   */
  nativeBinding?: string;
  readonly?: boolean;
  /**
   * FULL (the default) fsyncs every commit: what clinical data needs. NORMAL, in WAL mode, survives a crash of
   * the process but may lose the last commits on power loss; only the read-audit connection uses it.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /** Apply pending migrations (the default). A second connection to an open database skips them. */
  migrate?: boolean;
}

/**
 * Opens the clinic database with the settings clinical data needs: WAL so readers never block the writer,
 * synchronous=FULL so an acknowledged commit survives power loss, foreign keys enforced, and a busy timeout
 * so a backup or a second process waits instead of failing. Opened for writing, its folder is made 0700 and the
 * file 0600 before SQLite touches it: SQLite gives the -wal and -shm files the database file's mode.
 */
export function openDatabase(opts: OpenDatabaseOptions): Db {
  if (opts.file !== ':memory:' && !opts.readonly) {
    ensurePrivateDir(dirname(opts.file));
    ensurePrivateFile(opts.file);
    // Left by an older version with the database's old mode; SQLite reuses them as they are.
    tightenIfPresent(`${opts.file}-wal`);
    tightenIfPresent(`${opts.file}-shm`);
  }
  const db = new Database(opts.file, {
    ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
    ...(opts.readonly ? { readonly: true, fileMustExist: true } : {}),
  });
  db.pragma('busy_timeout = 5000');
  if (!opts.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
  }
  db.pragma('foreign_keys = ON');
  if (!opts.readonly && opts.migrate !== false) migrate(db);
  return db;
}
