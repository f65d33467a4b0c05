// npm run setup [-- --test]: what a fresh machine needs, then the npm dependencies. Safe to run again: it installs
// only the packages that are missing, and npm ci lays node_modules anew.
//
// The service: ffmpeg (every recording is decoded by it) and PocketSphinx with its English model and espeak-ng (the
// built-in English engine; espeak-ng gives its dictionary the drug names' pronunciations); g++, make and python3,
// with which npm ci builds better-sqlite3 where its prebuilt binary cannot be downloaded.
// --test adds what the tests use: Chromium (UI and sign-in tests), sox (test audio) and PostgreSQL's binaries (the
// tests start a throwaway cluster of their own, test/helpers/postgres-global-setup.ts).
//
// Where it cannot install (not Debian or Ubuntu, no root, sudo refused, apt-get failing), it prints what to install
// and goes on to npm ci: the service runs without them and says at start what the scribe lacks. Only root's failed
// apt-get (CI, a container) ends with exit code 1, so that a machine that should have everything cannot pass unnoticed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const test = process.argv.includes('--test');
const unknown = process.argv.slice(2).filter((a) => a !== '--test');
if (unknown.length) {
  console.error(`setup: unknown ${unknown.join(' ')} (the only flag is --test, which adds what the tests need)`);
  process.exit(2);
}

const say = (line) => console.log(`== setup: ${line}`);
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', ...opts }).status === 0;
const quiet = (cmd, args) => spawnSync(cmd, args, { encoding: 'utf8' });

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`setup: Node.js ${process.versions.node} is too old: 20.19 or newer is needed (package.json "engines"; on Debian, NodeSource's nodejs 20.x)`);
  process.exit(1);
}

const osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
const ubuntu = /^ID=("?)ubuntu\1$/m.test(osRelease);
const apt = process.platform === 'linux' && existsSync('/usr/bin/apt-get') && existsSync('/usr/bin/dpkg-query');

// npm ci may need the build tools (better-sqlite3 from source), nothing else: they are installed first, and the rest
// while npm ci runs.
const buildTools = ['g++', 'make', 'python3'];
const service = ['ffmpeg', 'pocketsphinx', 'pocketsphinx-en-us', 'espeak-ng', ...buildTools];
// Ubuntu's Chromium is the chromium-browser package.
// strace: test/db/durable-answers.test.ts watches the -wal fdatasync before each answer.
const tests = [ubuntu ? 'chromium-browser' : 'chromium', 'sox', 'libsox-fmt-all', 'postgresql', 'strace'];
const wanted = [...service, ...(test ? tests : [])];

const installed = (p) => quiet('dpkg-query', ['-W', '-f=${Status}', p]).stdout?.trim() === 'install ok installed';
const root = process.getuid?.() === 0;
const sudo = !root && quiet('sh', ['-c', 'command -v sudo']).status === 0;
let failed = false;

/** apt-get, as root or through sudo (without a terminal sudo must not wait for a password no one can type). */
const aptGet = (args) => (root
  ? run('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
  : run('sudo', [...(process.stdin.isTTY ? [] : ['-n']), 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]));

// Electron's install script downloads its runtime, which not every network reaches; package.json's allowScripts
// already skips it, and this is the variable that script itself reads. npm start fetches the runtime when needed.
const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** npm ci, started now; resolves with whether it succeeded. */
const npmCi = () => {
  say('npm ci');
  return new Promise((resolve) => {
    spawn(npm, ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit', env }).on('error', () => resolve(false)).on('close', (code) => resolve(code === 0));
  });
};
let npmDone;

if (!apt) {
  say(`this is not Debian or Ubuntu, so nothing is installed here. Install with this system's packages: ffmpeg; PocketSphinx 5
   (pocketsphinx_continuous) with its en-us acoustic model and cmudict-en-us.dict (point CLINIC_DESK_POCKETSPHINX_MODEL at
   their folder); espeak-ng; a C++ compiler, make and python3${test ? '; and for the tests Chromium (CHROMIUM_PATH), sox and PostgreSQL (initdb on PATH)' : ''}.`);
} else {
  const missing = wanted.filter((p) => !installed(p));
  const command = `${root ? '' : 'sudo '}apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (missing.length === 0) {
    say(`system packages: all there (${wanted.join(' ')})`);
  } else if (!root && !sudo) {
    say(`not root and no sudo: as root, run\n   apt-get update && ${command.replace(/^sudo /, '')}`);
  } else {
    say(`apt-get install ${missing.join(' ')}`);
    let ok = aptGet(['update', '-qq']);
    const tools = missing.filter((p) => buildTools.includes(p));
    if (ok && tools.length) ok = aptGet(['install', '-y', '-qq', '--no-install-recommends', ...tools]);
    // The rest takes about as long as npm ci (a minute each on a fresh machine): side by side.
    if (ok) npmDone = npmCi();
    const rest = missing.filter((p) => !buildTools.includes(p));
    if (ok && rest.includes('postgresql')) {
      // Debian's postgresql would also create a system cluster on port 5432 and start it through invoke-rc.d, which a
      // container without systemd may refuse or fail; the tests need none of it. Switched off before the server
      // package is configured, as the postgres Docker image does.
      ok = aptGet(['install', '-y', '-qq', '--no-install-recommends', 'postgresql-common'])
        && (root ? run('sed', ['-ri', 's/^#?(create_main_cluster) .*$/\\1 = false/', '/etc/postgresql-common/createcluster.conf'])
          : run('sudo', [...(process.stdin.isTTY ? [] : ['-n']), 'sed', '-ri', 's/^#?(create_main_cluster) .*$/\\1 = false/', '/etc/postgresql-common/createcluster.conf']));
    }
    if (ok && rest.length) ok = aptGet(['install', '-y', '-qq', '--no-install-recommends', ...rest]);
    if (!ok) {
      failed = root;
      say(`the system packages were not installed; run it yourself, then npm run setup again:\n   ${root ? '' : 'sudo '}apt-get update && ${command}`);
    }
  }
}

if (!(await (npmDone ?? npmCi()))) {
  console.error('setup: npm ci failed (the lines above say why); without a reachable prebuilt binary, better-sqlite3 needs g++, make and python3');
  process.exit(1);
}
// better-sqlite3 compiles from source where its prebuilt binary cannot be downloaded; make sure that it loads.
const loads = () => quiet(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"]).status === 0;
if (!loads()) {
  say('rebuild better-sqlite3');
  if (!run(npm, ['rebuild', 'better-sqlite3'], { env }) || !loads()) {
    console.error('setup: better-sqlite3 does not load; it needs g++, make and python3 to build');
    process.exit(1);
  }
}

say(failed
  ? 'npm dependencies installed, system packages NOT (see above)'
  : `done. Next: ${test ? 'npm test' : 'npm run serve -- --demo (it says at start what the scribe can do)'}`);
process.exit(failed ? 1 : 0);
