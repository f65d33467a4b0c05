// A throwaway PostgreSQL cluster in a temporary folder: the tests' global setup (test/helpers/postgres-global-setup.ts) and
// a developer's `node scripts/postgres.mjs` start the same one. Plain .mjs so that script runs without tsx; types
// are in postgres-cluster.d.mts.
import { execFile, spawnSync } from 'node:child_process';
import {
  accessSync, appendFileSync, chownSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const TOOLS = ['initdb', 'pg_ctl'];

// Settings for tests: many test files each open pools at once; fsync stays on so durability tests mean something.
const TEST_SETTINGS = {
  max_connections: '200',
  shared_buffers: "'128MB'",
  fsync: 'on',
  listen_addresses: "'127.0.0.1'",
};

/**
 * The folder holding initdb and pg_ctl: the first on `path`, else the newest `<versionsRoot>/<major>/bin` (Debian's
 * postgresql package installs there and does not put them on PATH).
 */
export function findPostgresBin({ path = process.env.PATH ?? '', versionsRoot = '/usr/lib/postgresql' } = {}) {
  const hasTools = (dir) => TOOLS.every((t) => {
    try {
      accessSync(join(dir, t), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  const onPath = path.split(delimiter).filter(Boolean).find(hasTools);
  if (onPath) return { bin: onPath };
  let versions = [];
  try {
    versions = readdirSync(versionsRoot).filter((v) => /^\d+(\.\d+)?$/.test(v)).sort((a, b) => Number(b) - Number(a));
  } catch {
    // no versions folder: PostgreSQL is not installed
  }
  const newest = versions.map((v) => join(versionsRoot, v, 'bin')).find(hasTools);
  if (newest) return { bin: newest };
  return {
    reason: `PostgreSQL is not installed here (no initdb and pg_ctl on PATH or in ${versionsRoot}/*/bin); ` +
      "CI installs Debian's postgresql package",
  };
}

/** PostgreSQL refuses to run as root: root runs its commands as `postgres` (Debian's package user), else `nobody`. */
function serverUser() {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { name, uid: Number(uid.stdout), gid: Number(gid.stdout) };
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const command = (user, tool, args) => (user ? ['runuser', ['-u', user.name, '--', tool, ...args]] : [tool, args]);
const failure = (tool, args, why, stdout, stderr) => {
  const output = `${stderr ?? ''}\n${stdout ?? ''}`.trim().split('\n').slice(-3).join(' / ');
  return new Error(`${tool.split('/').at(-1)} ${args[0] ?? ''} failed (${why}): ${output}`);
};

function runner(user, cwd) {
  return (tool, args, timeoutMs) => {
    const [cmd, argv] = command(user, tool, args);
    const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', timeout: timeoutMs });
    if (r.status === 0) return;
    throw failure(tool, args, r.error?.message ?? `exit ${r.status}`, r.stdout, r.stderr);
  };
}

/** The runner's asynchronous twin, for what must not stop the caller's event loop (a restart under load). */
function asyncRunner(user, cwd) {
  return (tool, args, timeoutMs) => new Promise((resolve, reject) => {
    const [cmd, argv] = command(user, tool, args);
    execFile(cmd, argv, { cwd, encoding: 'utf8', timeout: timeoutMs }, (e, stdout, stderr) =>
      (e ? reject(failure(tool, args, e.message, stdout, stderr)) : resolve()));
  });
}

/**
 * initdb in a new temporary folder and pg_ctl start on a free 127.0.0.1 port, the unix socket in that folder,
 * trust authentication for the socket and 127.0.0.1 only, superuser `postgres`. Throws with the reason when
 * PostgreSQL cannot start, after removing what it made.
 */
export async function startPostgresCluster({ bin, settings = {} } = {}) {
  const found = bin ? { bin } : findPostgresBin();
  if (!found.bin) throw new Error(found.reason);
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'clinic-desk-pg-'));
  const data = join(dir, 'data');
  const tool = (t) => join(found.bin, t);
  let run = null;
  try {
    const user = serverUser();
    if (user) chownSync(dir, user.uid, user.gid);
    run = runner(user, dir);
    const runAsync = asyncRunner(user, dir);
    // --no-sync only skips flushing initdb's own files: a throwaway cluster lost to a power cut is simply made anew.
    run(tool('initdb'), ['-D', data, '--username=postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'], 60_000);
    // Only the socket and IPv4 loopback, both trusted; nothing else may connect.
    writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    if (user) chownSync(join(data, 'pg_hba.conf'), user.uid, user.gid);
    appendFileSync(join(data, 'postgresql.conf'), Object.entries({ ...TEST_SETTINGS, ...settings, unix_socket_directories: `'${dir}'` })
      .map(([k, v]) => `${k} = ${v}\n`).join(''));
    let lastError;
    // The free port can be taken between choosing and binding it (other test runs share the machine): try again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const log = join(dir, 'postgres.log');
      try {
        run(tool('pg_ctl'), ['start', '-D', data, '-l', log, '-o', `-p ${port}`, '-w', '-t', '60'], 90_000);
      } catch (e) {
        // pg_ctl only says "could not start server": the server's own words are in its log.
        const said = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-2).join(' / ') : '';
        lastError = new Error(`${e.message}${said ? `; the server's log: ${said}` : ''}`);
        continue;
      }
      return {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        port,
        dir,
        bin: found.bin,
        startMs: Date.now() - started,
        stop: once(() => stopCluster(run, tool('pg_ctl'), data, dir)),
        // A fast shutdown ends every session, as a restart or a failover of a real server does; on the same port.
        async restart({ downMs = 0 } = {}) {
          await runAsync(tool('pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60'], 90_000);
          await new Promise((r) => setTimeout(r, downMs));
          await runAsync(tool('pg_ctl'), ['start', '-D', data, '-l', log, '-o', `-p ${port}`, '-w', '-t', '60'], 90_000);
        },
      };
    }
    throw lastError;
  } catch (e) {
    // A start that timed out may have left a postmaster behind in the folder about to be removed.
    if (run && existsSync(join(data, 'postmaster.pid'))) {
      try {
        run(tool('pg_ctl'), ['stop', '-D', data, '-m', 'immediate'], 30_000);
      } catch {
        // the start's own error below is the one worth reporting
      }
    }
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

function once(fn) {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

function stopCluster(run, pgCtl, data, dir) {
  try {
    run(pgCtl, ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60'], 90_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
