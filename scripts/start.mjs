// npm start: fetch the Electron runtime if this checkout lacks it, build, and run the app.
import { spawn, execFileSync } from 'node:child_process';
import { downloadElectron, electronBinary } from './electron-runtime.mjs';

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
execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const child = spawn(exe, ['.'], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
