// npm run fetch:ffmpeg [-- --os linux|mac|win --arch x64|arm64] [--force]: puts the static ffmpeg the packaged app ships
// in native/ffmpeg/<os>-<arch>/ (where electron-builder.yml takes it from). The binaries come from the npm
// registry's @ffmpeg-installer/<platform>-<arch> packages, so a release machine needs nothing but npm, and npm
// checks each tarball against the registry's integrity hash. They are GPLv3 static builds shipped as a separate
// program beside the app (docs/ELECTRON.md says what that obliges us to).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const BUILDER_OS = { linux: 'linux', darwin: 'mac', win32: 'win' };
const NPM_PLATFORM = { linux: 'linux', mac: 'darwin', win: 'win32' };

const { values } = parseArgs({
  options: {
    os: { type: 'string', default: BUILDER_OS[process.platform] },
    arch: { type: 'string', default: process.arch },
    force: { type: 'boolean', default: false },
  },
});
const platform = NPM_PLATFORM[values.os];
if (!platform) {
  console.error(`--os must be one of ${Object.keys(NPM_PLATFORM).join(', ')} (electron-builder's names)`);
  process.exit(2);
}
const pkg = `@ffmpeg-installer/${platform}-${values.arch}`;
const exe = values.os === 'win' ? 'ffmpeg.exe' : 'ffmpeg';
const out = join('native', 'ffmpeg', `${values.os}-${values.arch}`);
if (existsSync(join(out, exe)) && !values.force) {
  console.log(`${out}/${exe} is there already (--force fetches it again)`);
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), 'ffmpeg-'));
try {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', pkg, '--json', '--pack-destination', work], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  execFileSync('tar', ['xzf', join(work, packed.filename), '-C', work]);
  mkdirSync(out, { recursive: true });
  copyFileSync(join(work, 'package', exe), join(out, exe));
  chmodSync(join(out, exe), 0o755);
  console.log(`${out}/${exe} from ${packed.id} (${packed.integrity})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
