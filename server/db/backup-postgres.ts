import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findPostgresBin } from '../../scripts/postgres-cluster.mjs';
import { PRIVATE_DIR_MODE, ensurePrivateFile } from '../shared/private-files.js';

/** The URL to hand a PostgreSQL tool, and its password apart, for the child's environment rather than its argv. */
function splitPassword(url: string): { url: string; password: string | null } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error('the database URL is not a URL (postgres://user:password@host:port/database)');
  }
  const password = u.password ? decodeURIComponent(u.password) : null;
  u.password = '';
  return { url: u.toString(), password };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * pg_dump and pg_restore beside the initdb and pg_ctl the tests' cluster finds (scripts/postgres-cluster.mjs): in
 * that folder, or in the one its pg_ctl links to (a /usr/local/bin holding links to one version's tools only).
 */
export function postgresTools(): { pgDump: string; pgRestore: string } {
  const found = findPostgresBin();
  if (!found.bin) throw new Error(found.reason);
  const folders = [found.bin, dirname(realpathSync(join(found.bin, 'pg_ctl')))];
  const folder = folders.find((f) => existsSync(join(f, 'pg_dump')) && existsSync(join(f, 'pg_restore')));
  if (!folder) throw new Error(`no pg_dump and pg_restore in ${[...new Set(folders)].join(' or ')} (Debian's postgresql-client package has them)`);
  return { pgDump: join(folder, 'pg_dump'), pgRestore: join(folder, 'pg_restore') };
}

/**
 * A backup of a PostgreSQL database with pg_dump in its custom format (what pg_restore reads, compressed, any
 * table restorable alone), checked by listing it with pg_restore. pg_dump reads one snapshot, so the service may
 * keep writing. The password goes to the child as PGPASSWORD, never on a command line other users can read, and
 * --no-password stops pg_dump from waiting for one on a terminal. Like the SQLite backup, the file is written beside
 * `out`, 0600 from its first byte, and renamed into place only once it reads back.
 */
export async function backupPostgres(databaseUrl: string, out: string): Promise<{ file: string; entries: number }> {
  const { pgDump, pgRestore } = postgresTools();
  const { url, password } = splitPassword(databaseUrl);
  const env = { ...process.env, ...(password === null ? {} : { PGPASSWORD: password }) };
  mkdirSync(dirname(out), { recursive: true, mode: PRIVATE_DIR_MODE });
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  ensurePrivateFile(partial);
  try {
    const dump = await run(pgDump, ['--format=custom', '--no-password', `--file=${partial}`, `--dbname=${url}`], env);
    if (dump.code !== 0) throw new Error(`pg_dump could not back up ${url}: ${dump.stderr.trim() || `exit ${dump.code}`}`);
    const list = await run(pgRestore, ['--list', partial], env);
    if (list.code !== 0) throw new Error(`the backup does not read back (pg_restore --list): ${list.stderr.trim() || `exit ${list.code}`}`);
    const entries = list.stdout.split('\n').filter((line) => line.trim() !== '' && !line.startsWith(';')).length;
    if (entries === 0) throw new Error(`the backup of ${url} lists nothing (pg_restore --list): is it the clinic's database?`);
    if (existsSync(out)) rmSync(out);
    renameSync(partial, out);
    return { file: out, entries };
  } finally {
    rmSync(partial, { force: true });
  }
}
