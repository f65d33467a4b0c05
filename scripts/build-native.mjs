// npm run build:native: builds better-sqlite3 for Electron's ABI into native/electron-<ABI>/, leaving the
// plain-Node build in node_modules untouched. Needs Electron's headers from the internet, so it runs on a
// developer or release machine, never in CI here. See docs/ELECTRON.md.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getAbi } from 'node-abi';

const require = createRequire(import.meta.url);
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
const abi = getAbi(electronVersion, 'electron');
const work = mkdtempSync(join(tmpdir(), 'bs3-electron-'));
cpSync(dirname(require.resolve('better-sqlite3/package.json')), work, { recursive: true });
const env = { ...process.env };
// The machine-wide nodedir would make node-gyp build against Node's headers and label it Electron's.
delete env.npm_config_nodedir;
delete env.NPM_CONFIG_NODEDIR;
execFileSync('npx', ['node-gyp', 'rebuild', '--release', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers', '--nodedir='], {
  cwd: work, env, stdio: 'inherit',
});
const out = join('native', `electron-${abi}`);
mkdirSync(out, { recursive: true });
cpSync(join(work, 'build', 'Release', 'better_sqlite3.node'), join(out, 'better_sqlite3.node'));
console.log(`built ${out}/better_sqlite3.node for Electron ${electronVersion} (ABI ${abi})`);
