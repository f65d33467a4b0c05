// Where the Electron runtime is, or why it is not. `npm ci` skips Electron's download (allowScripts), so the
// runtime is fetched on first `npm start` instead; this module does both the check and the fetch.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAbi } from 'node-abi';

const require = createRequire(import.meta.url);

/** Where the app loads better-sqlite3 built for this Electron's ABI from (main/native.ts; npm run build:native). */
export function electronSqliteNative() {
  const version = JSON.parse(readFileSync(join(electronPackageDir(), 'package.json'), 'utf8')).version;
  return join(fileURLToPath(new URL('..', import.meta.url)), 'native', `electron-${getAbi(version, 'electron')}`, 'better_sqlite3.node');
}

export function electronPackageDir() {
  return dirname(require.resolve('electron/package.json'));
}

/** The Electron executable if it is installed, else null. */
export function electronBinary() {
  const dir = electronPackageDir();
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const exe = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(exe) ? exe : null;
}

/** Runs electron's own installer (the download npm ci skipped). Returns null on success, or the reason. */
export function downloadElectron() {
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const r = spawnSync(process.execPath, [join(electronPackageDir(), 'install.js')], { env, encoding: 'utf8', timeout: 10 * 60_000 });
  if (r.status === 0 && electronBinary()) return null;
  const lines = `${r.stderr ?? ''}\n${r.stdout ?? ''}`.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => /error/i.test(l)) ?? lines.at(-1) ?? `installer exited with ${r.status}`;
}
