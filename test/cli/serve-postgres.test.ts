import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, SERVE, call, exited, spawnServer, tempDir } from '../helpers/server.js';
import { freshPostgresDatabase, postgresSkipReason } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

/** `npm run serve -- --database-url …` as an admin of a chain meets it: refusals in words, an instance, a worker. */

const serve = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [...SERVE, ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000,
  });

const dirs: string[] = [];
const dir = (name: string) => {
  const d = tempDir(name);
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('npm run serve on PostgreSQL: refusals', () => {
  it('refuses --workers-only without --database-url, a URL that is not postgres://, and --reset on PostgreSQL', () => {
    const alone = serve(['--workers-only', '--data-dir', dir('workers-alone')]);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--workers-only takes the background work of instances sharing a PostgreSQL database: give --database-url too');
    const mysql = serve(['--database-url', 'mysql://root@localhost/clinic', '--data-dir', dir('mysql')]);
    expect(mysql.status).toBe(2);
    expect(mysql.stderr).toContain('--database-url must be a postgres:// URL');
    const reset = serve(['--database-url', 'postgres://x@127.0.0.1/x', '--demo', '--reset', '--data-dir', dir('reset')]);
    expect(reset.status).toBe(2);
    expect(reset.stderr).toContain('does not drop a PostgreSQL database');
  });
});

describe('npm run serve on PostgreSQL (postgres)', skipFor(postgresSkipReason()), () => {
  it('runs an instance (start-up lines name the database without its password) and a worker-only process on it', async () => {
    const pg = await freshPostgresDatabase('serve');
    const url = new URL(pg.url);
    url.password = 'not-shown-anywhere';
    const keyFile = join(dir('serve-key'), 'chain.key');
    writeFileSync(keyFile, Buffer.alloc(32, 9).toString('base64'), { mode: 0o600 });
    const dataDir = dir('serve-pg');
    const common = ['--database-url', url.toString(), '--kek-file', keyFile, '--log-level', 'warn'];
    const a = await spawnServer(['--data-dir', dataDir, '--demo', ...common], { CLINIC_DESK_SANDBOX: '0' });
    const w = await spawnServer(['--data-dir', dir('serve-pg-worker'), '--workers-only', ...common], {}, /workers running \(scribe, webhooks, push\)/);
    try {
      expect(a.output()).toMatch(/database: {7}postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\S+ \(PostgreSQL\)/);
      expect(a.output() + w.output()).not.toContain('not-shown-anywhere');
      const reception = a.demo().workspaces[0]!.users.reception;
      // A number the demo's patients do not have.
      const mobile = `7${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
      const created = await call(a.baseUrl, 'POST', '/dr/v1/patient', {
        headers: { auth: reception.auth_token },
        body: { first_name: 'Chain', last_name: 'Patient', dob: '1990-01-01', gender: 'F', mobile },
      });
      expect(created.status, created.text).toBe(201);
      const found = await call(a.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, { headers: { auth: reception.auth_token } });
      expect(found.status).toBe(200);
      expect(found.json.data.profiles.map((p: { patient_id: string }) => p.patient_id)).toEqual([created.json.data.patient_id]);
    } finally {
      w.child.kill('SIGTERM');
      a.child.kill('SIGTERM');
      expect(await exited(w.child)).toBe(0);
      expect(await exited(a.child)).toBe(0);
      await pg.drop();
    }
  }, 120_000);
});
