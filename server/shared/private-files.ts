import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Only the account the service runs as may list, read or write what it keeps: patient data, keys, audio. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export type Warn = (message: string) => void;

/** Start-up warnings go to stderr, as main/kek.ts does: the service has no logger before the HTTP app exists. */
export const startupWarning: Warn = (message) => console.warn(`clinic-desk: ${message}`);

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Takes group and other bits away from an existing path that has any, and says so: it was exposed until now. */
function tighten(path: string, mode: number, what: string, warn: Warn) {
  const current = statSync(path).mode & 0o777;
  if ((current & 0o077) === 0) return;
  chmodSync(path, mode);
  warn(`${what} ${path} was open to other users of this computer (mode ${octal(current)}); it is now ${octal(mode)}`);
}

/**
 * A folder of the service's own: created 0700 (missing parents too), or tightened to 0700 with a warning when it
 * already exists with looser modes (an older version, or a folder made by hand).
 */
export function ensurePrivateDir(dir: string, warn: Warn = startupWarning): void {
  // mkdirSync's mode applies at creation, before anything is written inside; a chmod afterwards would leave a window.
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE, 'the folder', warn);
}

/**
 * A file the service fills later through a library that creates files with its own default mode (SQLite: 0644):
 * created here empty with 0600 first, so the file is never readable by others, not even for a moment. An existing
 * file with looser modes is tightened with a warning.
 */
export function ensurePrivateFile(file: string, warn: Warn = startupWarning): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    tighten(file, PRIVATE_FILE_MODE, 'the file', warn);
  }
}

/** Tightens a file if it is there; for SQLite's -wal and -shm, which SQLite creates with the database file's mode. */
export function tightenIfPresent(file: string, warn: Warn = startupWarning): void {
  try {
    tighten(file, PRIVATE_FILE_MODE, 'the file', warn);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}
