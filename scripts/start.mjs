// npm start: fetch the Electron runtime if this checkout lacks it, build, and run the app.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { downloadElectron, electronBinary, electronSqliteNative } from './electron-runtime.mjs';

let exe = electronBinary();
if (!exe) {
  console.log('Clinic Desk: downloading the Electron runtime (first start only)…');
  const why = downloadElectron();
  exe = electronBinary();
  if (!exe) {
    console.error(`\nClinic Desk could not download the Electron runtime: ${why}
The desktop app needs it once, from the internet. Without it you can still run the clinic service headless:
  npm run serve -- --demo
`);
    process.exit(1);
  }
}
if (!existsSync(electronSqliteNative())) {
  // node_modules holds better-sqlite3 for plain Node (tests, npm run serve); the app needs Electron's ABI.
  console.log('Clinic Desk: building the database driver for Electron (first start only)…');
  try {
    execFileSync(process.execPath, ['scripts/build-native.mjs'], { stdio: 'inherit' });
  } catch {
    console.error(`\nClinic Desk could not build the database driver for Electron (it needs a C++ compiler and Electron's
headers from the internet; see docs/ELECTRON.md). The clinic service runs headless without it:
  npm run serve -- --demo
`);
    process.exit(1);
  }
}
execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const child = spawn(exe, ['.'], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
