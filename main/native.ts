import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * better-sqlite3's addon is built per ABI. node_modules holds the plain-Node build (tests, headless service);
 * the app loads a separate Electron build from native/electron-<ABI>/ (docs/ELECTRON.md says how it is made).
 * Returns its path, or throws with what to do when it is missing.
 */
export function electronSqliteBinding(appPath: string, resourcesPath: string, isPackaged: boolean): string {
  const dir = `electron-${process.versions.modules}`;
  const file = isPackaged
    ? join(resourcesPath, 'native', dir, 'better_sqlite3.node')
    : join(appPath, 'native', dir, 'better_sqlite3.node');
  if (!existsSync(file)) {
    throw new Error(`The database driver for this Electron version is missing (${file}). Run "npm run build:native" on a machine with internet access.`);
  }
  return file;
}
