import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile } from '../../server/config.js';
import { postgresTools } from '../../server/db/backup-postgres.js';
import { copyToPostgres } from '../../server/db/copy-to-postgres.js';
import { freshPostgresDatabase, postgresSkipReason } from '../helpers/postgres.js';
import { ROOT, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';

function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: ROOT, env }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }));
  });
}

const backup = (args: string[], env?: NodeJS.ProcessEnv) =>
  run(process.execPath, ['--import', 'tsx', join(ROOT, 'server/cli/backup.ts'), ...args], env);

/** Per table of the public schema: its row count and an MD5 over its rows as text, in one order. */
async function tableSums(url: string): Promise<Record<string, { rows: number; md5: string }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`);
    const sums: Record<string, { rows: number; md5: string }> = {};
    for (const { table_name } of tables) {
      const { rows } = await client.query<{ n: string; md5: string }>(`SELECT count(*) AS n,
        md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text COLLATE "C"), '')) AS md5 FROM "${table_name}" t`);
      sums[table_name] = { rows: Number(rows[0]!.n), md5: rows[0]!.md5 };
    }
    return sums;
  } finally {
    await client.end();
  }
}

describe('npm run backup -- --database-url (pg_dump)', skipFor(postgresSkipReason()), () => {
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  let source: string;

  beforeAll(async () => {
    const srv = await startServer({ dataDir: tempDir('backup-pg') });
    dirs.push(srv.dataDir);
    await srv.close();
    const db = await freshPostgresDatabase('backup-source');
    drops.push(db.drop);
    source = db.url;
    await copyToPostgres({ sqliteFile: databaseFile(srv.dataDir), postgresUrl: source });
  }, 120_000);

  afterAll(async () => {
    for (const drop of drops) await drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('writes a custom-format dump that the documented pg_restore brings back into a new database, every table the same', async () => {
    const out = join(tempDir('backup-out'), 'nested', 'clinic.dump');
    dirs.push(join(out, '..', '..'));
    const made = await backup(['--database-url', source, '--out', out]);
    expect(made.code, made.out).toBe(0);
    expect(made.out).toContain(`backup written to ${out} (pg_dump custom format`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(out, '..'))).toEqual(['clinic.dump']);

    const restored = await freshPostgresDatabase('backup-restored');
    drops.push(restored.drop);
    const restore = await run(postgresTools().pgRestore, ['--clean', '--if-exists', '--no-owner', '-d', restored.url, out]);
    expect(restore.code, restore.out).toBe(0);

    const want = await tableSums(source);
    expect(want.patients!.rows).toBeGreaterThan(0);
    expect(want.audit_log!.rows).toBeGreaterThan(0);
    expect(await tableSums(restored.url)).toEqual(want);
    // The schema came back with its rules, not only its rows: the audit log is still append-only.
    const client = new pg.Client({ connectionString: restored.url });
    await client.connect();
    try {
      await expect(client.query('DELETE FROM audit_log')).rejects.toThrow('audit_log is append-only');
    } finally {
      await client.end();
    }
  }, 60_000);

  it('the documented restore into a new database makes it with the C collation from template0, and brings every table back', async () => {
    // The recipe as docs/ARCHITECTURE.md prints it, run against the tests' cluster (same database name scheme as the dump's).
    const recipe = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8').split('\n').find((l) => l.startsWith('createdb '));
    expect(recipe, 'a createdb line in the restore recipe').toBeDefined();
    const createdbArgs = recipe!.split('&&')[0]!.trim().split(/\s+/).slice(1, -1);
    expect(createdbArgs).toEqual(expect.arrayContaining(['--locale=C', '--template=template0']));
    const out = join(tempDir('backup-recipe'), 'clinic.dump');
    dirs.push(join(out, '..'));
    expect((await backup(['--database-url', source, '--out', out])).code).toBe(0);
    const name = `t_recipe_${randomBytes(6).toString('hex')}`;
    const admin = new URL(source);
    admin.pathname = '/postgres';
    const target = new URL(source);
    target.pathname = `/${name}`;
    drops.push(async () => {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    });
    const createdb = join(dirname(postgresTools().pgRestore), 'createdb');
    const made = await run(createdb, [...createdbArgs, `--maintenance-db=${admin}`, name]);
    expect(made.code, made.out).toBe(0);
    const restore = await run(postgresTools().pgRestore, ['--no-owner', '-d', target.toString(), out]);
    expect(restore.code, restore.out).toBe(0);
    expect(await tableSums(target.toString())).toEqual(await tableSums(source));
    const client = new pg.Client({ connectionString: target.toString() });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT datcollate, datctype FROM pg_database WHERE datname = current_database()`);
      expect(rows[0]).toEqual({ datcollate: 'C', datctype: 'C' });
    } finally {
      await client.end();
    }
  }, 60_000);

  it('fails with pg_dump\'s reason and a non-zero exit on a wrong URL, never printing the password, leaving no file', async () => {
    const dir = tempDir('backup-fail');
    dirs.push(dir);
    const out = join(dir, 'clinic.dump');
    const failed = await backup(['--out', out], { ...process.env, CLINIC_DESK_DATABASE_URL: 'postgres://clinic:s3cret-pw@127.0.0.1:1/clinic' });
    expect(failed.code).toBe(1);
    expect(failed.out).toMatch(/backup failed: pg_dump could not back up postgres:\/\/clinic@127\.0\.0\.1:1\/clinic: .*127\.0\.0\.1.*port 1 failed/);
    expect(failed.out).not.toContain('s3cret-pw');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);
});
