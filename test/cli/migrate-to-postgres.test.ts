import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditReadsWriter } from '../../server/audit/reads-writer.js';
import { auditStore } from '../../server/audit/store.js';
import { databaseFile } from '../../server/config.js';
import { openDatabase } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import { openSql } from '../../server/db/sql.js';
import { rootExecutor } from '../../server/db/tx.js';
import { createService } from '../../server/service.js';
import { secretBox } from '../../server/shared/secret-box.js';
import type { Clock } from '../../server/shared/time.js';
import type { RequestContext } from '../../server/auth/permissions.js';
import { freshPostgresDatabase, postgresSkipReason } from '../helpers/postgres.js';
import { ROOT, call, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';

/** `npm run migrate-to-postgres -- …` as a process: its exit code and everything it printed. */
function migrateToPostgres(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'server/cli/migrate-to-postgres.ts'), ...args], { cwd: ROOT },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }));
  });
}

/** Every value as text, as PostgreSQL writes it. */
const textTypes = { getTypeParser: () => (text: string) => text } as unknown as pg.CustomTypesConfig;

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, types: textTypes });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

interface Table { name: string; columns: string[]; key: string[] }

function sqliteTables(db: Database.Database): Table[] {
  const names = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'`)
    .pluck().all() as string[];
  return names.map((name) => {
    const info = db.prepare('SELECT name, pk FROM pragma_table_info(?)').all(name) as { name: string; pk: number }[];
    return { name, columns: info.map((c) => c.name), key: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name) };
  });
}

/** The clinic's rows as the test expects PostgreSQL to hold them: values as text, name_key's separator U+001F there. */
function sqliteRows(db: Database.Database, t: Table): (string | null)[][] {
  const rows = db.prepare(`SELECT ${t.columns.map((c) => `"${c}"`).join(', ')} FROM "${t.name}" ORDER BY ${t.key.map((c) => `"${c}"`).join(', ')}`)
    .raw(true).safeIntegers(true).all() as unknown[][];
  return rows.map((r) => r.map((v, i) => {
    if (v === null) return null;
    const text = String(v);
    return t.name === 'patients' && t.columns[i] === 'name_key' ? text.replaceAll('\u0000', '\u001f') : text;
  }));
}

async function postgresRows(c: pg.Client, t: Table, where = ''): Promise<(string | null)[][]> {
  const { rows: types } = await c.query<{ column_name: string; data_type: string }>(
    'SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1', [t.name]);
  const text = new Set(types.filter((x) => x.data_type === 'text').map((x) => x.column_name));
  const order = t.key.map((k) => (text.has(k) ? `"${k}" COLLATE "C"` : `"${k}"`)).join(', ');
  const { rows } = await c.query<(string | null)[]>({
    text: `SELECT ${t.columns.map((col) => `"${col}"`).join(', ')} FROM "${t.name}" ${where} ORDER BY ${order}`, rowMode: 'array',
  });
  return rows;
}

const countsOf = (url: string) => withClient(url, async (c) => {
  const { rows } = await c.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`);
  const counts: Record<string, string> = {};
  for (const { table_name } of rows) counts[table_name] = (await c.query(`SELECT count(*) AS n FROM "${table_name}"`)).rows[0].n;
  return counts;
});

/** A clinic of its own made by the real service (no demo): one workspace, an admin named `username`, a patient. */
async function ownClinic(name: string, username: string): Promise<string> {
  const dataDir = tempDir('clinic');
  const service = await createService({ dataDir, webhooks: { dispatch: false }, push: { sender: false }, scribe: { worker: false } });
  try {
    const ws = await service.auth.createWorkspace({ name });
    const user = await service.auth.createUser(ws.id, { username, password: 'a-long-password-1', role: 'admin' });
    const caller = (await service.auth.authenticateToken(await service.auth.issueAuthToken(user.id, 'test')))!;
    const ctx: RequestContext = { caller, ip: null, requestId: 'migrate-test' };
    await service.patients.create(ctx, { first_name: 'Meera', last_name: 'Nair', dob: '1990-02-03', gender: 'F', mobile: '+919812300001' });
  } finally {
    await service.close();
  }
  return dataDir;
}

describe('npm run migrate-to-postgres', skipFor(postgresSkipReason()), () => {
  // The clock stands still, so patients of one mobile tie on created_at and only the insertion order ranks them.
  const clock: Clock = { now: () => new Date('2026-11-22T04:30:00.000Z') };
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  let dataDir: string;
  let url: string;
  const MOBILE = '9000011111';

  beforeAll(async () => {
    dataDir = tempDir('migrate-pg');
    dirs.push(dataDir);
    // The command reads the clinic's key where a headless clinic keeps it.
    const srv = await startServer({ dataDir, clock, kek: null });
    try {
      const [ws] = srv.demo.workspaces;
      const reception = { auth: ws!.users.reception.auth_token };
      for (const first of ['Asha', 'Bina', 'Chitra']) {
        const res = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
          headers: reception, body: { first_name: first, last_name: 'Rao', dob: '1980-01-31', gender: 'F', mobile: `+91${MOBILE}` },
        });
        expect(res.status, res.text).toBe(201);
      }
      for (const [i, status] of [[0, 'CK'], [1, 'NS']] as const) {
        const res = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${ws!.appointments[i]!.appointment_id}/change-status?partner_id=0`, {
          headers: { auth: ws!.users.admin.auth_token }, body: { status },
        });
        expect(res.status, res.text).toBe(200);
      }
      const token = await call(srv.baseUrl, 'POST', '/api/v1/auth/token', {
        headers: { 'x-api-key': ws!.api_key },
        body: { client_id: ws!.client_id, client_secret: ws!.client_secret, grant_type: 'client_credentials' },
      });
      expect(token.status, token.text).toBe(200);
      const sub = await call(srv.baseUrl, 'POST', '/notification/v1/connect/webhook/subscriptions', {
        headers: { authorization: `Bearer ${token.json.access_token}` },
        body: { event_names: ['appointment.statuschange'], endpoint: 'https://hooks.example.com/clinic', protocol: 'https', signing_key: 'whsec-migrate-1234' },
      });
      expect(sub.status, sub.text).toBe(201);
      // Reminder settings: a sealed secret of the reminders domain (issue 29).
      const reminders = await call(srv.baseUrl, 'PUT', '/api/v1/reminders/settings', {
        headers: { auth: ws!.users.admin.auth_token },
        body: { provider: 'twilio', enabled: false, twilio: { account_sid: `AC${'0'.repeat(32)}`, auth_token: 'twilio-migrate-token', from: '+15005550006' } },
      });
      expect(reminders.status, reminders.text).toBe(200);
      const third = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${ws!.appointments[2]!.appointment_id}/change-status?partner_id=0`, {
        headers: { auth: ws!.users.admin.auth_token }, body: { status: 'CK' },
      });
      expect(third.status, third.text).toBe(200);
    } finally {
      await srv.close();
    }
    const target = await freshPostgresDatabase('migrate-to-postgres');
    drops.push(target.drop);
    url = target.url;
  }, 120_000);

  afterAll(async () => {
    for (const drop of drops) await drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('copies every table: the same rows, read back here, with ids, seq from the rowid and the search order kept', async () => {
    const run = await migrateToPostgres(['--data-dir', dataDir, '--database-url', url]);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/patients: 11 rows copied/);
    expect(run.out).toMatch(/every table's rows and checksum match/);
    expect(run.out).toMatch(/IMPORTANT: secrets at rest/);

    const sqlite = new Database(databaseFile(dataDir), { readonly: true });
    try {
      const tables = sqliteTables(sqlite);
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['audit_log', 'appointment_status_changes', 'webhook_subscriptions', 'webhook_events', 'webhook_deliveries']));
      await withClient(url, async (c) => {
        for (const t of tables) expect(await postgresRows(c, t), t.name).toEqual(sqliteRows(sqlite, t));
        for (const t of ['webhook_subscriptions', 'appointment_status_changes', 'audit_log', 'webhook_events', 'webhook_deliveries']) {
          expect(sqlite.prepare(`SELECT count(*) FROM ${t}`).pluck().get(), t).toBeGreaterThan(0);
        }
        for (const table of ['workspaces', 'patients', 'webhook_deliveries']) {
          const rowids = (sqlite.prepare(`SELECT id, rowid FROM ${table} ORDER BY id`).raw(true).all() as [string, number][])
            .map(([id, rowid]) => [id, String(rowid)]);
          const { rows } = await c.query({ text: `SELECT id, seq FROM ${table} ORDER BY id COLLATE "C"`, rowMode: 'array' });
          expect(rows, `${table}.seq`).toEqual(rowids);
        }
        const newestFirst = sqlite.prepare(`SELECT id FROM patients WHERE mobile_national = ? ORDER BY created_at DESC, rowid DESC`).pluck().all(MOBILE);
        const { rows } = await c.query(`SELECT id FROM patients WHERE mobile_national = $1 ORDER BY created_at DESC, seq DESC`, [MOBILE]);
        expect(newestFirst).toHaveLength(3);
        expect(rows.map((r) => r.id)).toEqual(newestFirst);
        // Sequences continue past the copied ids: the server's next rows do not collide with them.
        await c.query('BEGIN');
        for (const [table, column, insert] of [
          ['audit_log', 'id', `INSERT INTO audit_log (at, actor_type, action, outcome) VALUES ('2026-11-22T05:00:00.000Z', 'system', 'test', 'success') RETURNING id`],
          ['patients', 'seq', `INSERT INTO patients (id, workspace_id, first_name, last_name, dob, gender, mobile_cc, mobile_national, name_key, created_at, updated_at)
            SELECT 'p-after-copy', id, 'A', 'B', '2000-01-01', 'F', '91', '9000099999', 'a', 'x', 'x' FROM workspaces LIMIT 1 RETURNING seq`],
        ] as const) {
          const max = Number(sqlite.prepare(`SELECT max(${column === 'seq' ? 'rowid' : column}) FROM ${table}`).pluck().get());
          const inserted = Number((await c.query(insert)).rows[0][column]);
          expect(inserted, `${table}.${column}`).toBe(max + 1);
        }
        await c.query('ROLLBACK');
      });
    } finally {
      sqlite.close();
    }
  }, 60_000);

  it('refuses to copy the same clinic again, naming it, and writes nothing', async () => {
    const before = await countsOf(url);
    const run = await migrateToPostgres(['--data-dir', dataDir, '--database-url', url]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/refused: this clinic is already in PostgreSQL: Sunrise Family Clinic \(/);
    expect(await countsOf(url)).toEqual(before);
  }, 60_000);

  it('copies a second clinic into the same database, its ids after the first clinic\'s', async () => {
    const second = await ownClinic('Hillside Clinic', 'admin@hillside');
    dirs.push(second);
    const firstMaxAudit = await withClient(url, async (c) => Number((await c.query('SELECT max(id) AS m FROM audit_log')).rows[0].m));
    const run = await migrateToPostgres(['--data-dir', second, '--database-url', url]);
    expect(run.code, run.out).toBe(0);
    const sqlite = new Database(databaseFile(second), { readonly: true });
    try {
      const ws = sqlite.prepare('SELECT id FROM workspaces').pluck().get() as string;
      await withClient(url, async (c) => {
        for (const t of sqliteTables(sqlite).filter((x) => x.columns.includes('workspace_id') && x.name !== 'audit_log')) {
          expect(await postgresRows(c, t, `WHERE workspace_id = '${ws}'`), t.name).toEqual(sqliteRows(sqlite, t));
        }
        // audit ids shift past the first clinic's, keeping their order and everything else.
        const audit = sqliteTables(sqlite).find((t) => t.name === 'audit_log')!;
        const want = sqliteRows(sqlite, audit).map(([id, ...rest]) => [String(Number(id) + firstMaxAudit), ...rest]);
        expect(await postgresRows(c, audit, `WHERE id > ${firstMaxAudit}`)).toEqual(want);
        expect(want.length).toBeGreaterThan(0);
      });
    } finally {
      sqlite.close();
    }
  }, 60_000);

  it('refuses a clinic whose usernames are taken on the server (case aside), listing them, and writes nothing', async () => {
    const third = await ownClinic('Riverside Clinic', 'Reception@Sunrise');
    dirs.push(third);
    const before = await countsOf(url);
    const run = await migrateToPostgres(['--data-dir', third, '--database-url', url]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/usernames are unique across the server, and these of this clinic are taken there: reception@sunrise\./);
    expect(await countsOf(url)).toEqual(before);
  }, 60_000);

  it('refuses a SQLite file at an older schema version, saying how to upgrade it', async () => {
    const old = tempDir('old-schema');
    dirs.push(old);
    const db = openDatabase({ file: databaseFile(old), migrate: false });
    migrate(db, migrations.slice(0, -1));
    db.close();
    const run = await migrateToPostgres(['--data-dir', old, '--database-url', url]);
    expect(run.code).toBe(1);
    const newest = migrations.at(-1)!.version;
    expect(run.out).toContain(`is at schema version ${newest - 1}, older than this Clinic Desk's ${newest}: start the desktop app `
      + 'or `npm run serve -- --data-dir <its folder>` once on it to upgrade it');
  }, 60_000);

  it('refuses a clinic whose read-audit journal still holds entries (a service that did not stop cleanly), saying what to do', async () => {
    const dir = tempDir('journal-left');
    dirs.push(dir);
    const file = databaseFile(dir);
    const raw = openDatabase({ file });
    const sqlDb = openSql({ sqlite: raw });
    // Queued in the journal and not moved (its move interval is long), as a killed service leaves them.
    const writer = auditReadsWriter({ file, insertSql: auditStore(rootExecutor(sqlDb, raw)).insertSql(), moveEveryMs: 600_000 });
    writer.add(['2031-01-01T00:00:00.000Z', null, 'anonymous', null, 'patient.search', null, null, 'denied', null, 'left-1']);
    await writer.write(false);
    try {
      const run = await migrateToPostgres(['--data-dir', dir, '--database-url', url]);
      expect(run.code).toBe(1);
      expect(run.out).toContain('has read-audit entries still waiting in');
      expect(run.out).toContain('once and stop it, which moves them into the audit log, then copy');
    } finally {
      await writer.close();
      await sqlDb.close();
      raw.close();
    }
    // Closing moved them: nothing waits any more.
    expect(new Database(file, { readonly: true }).prepare(`SELECT count(*) AS n FROM audit_log WHERE request_id = 'left-1'`).get()).toEqual({ n: 1 });
  }, 60_000);

  it('re-seals secrets under the server\'s key with --target-kek-file', async () => {
    const target = await freshPostgresDatabase('migrate-reseal');
    drops.push(target.drop);
    const serverKey = randomBytes(32);
    const keyFile = join(tempDir('server-key'), 'server.key');
    dirs.push(join(keyFile, '..'));
    writeFileSync(keyFile, serverKey.toString('base64'), { mode: 0o600 });
    const run = await migrateToPostgres(['--data-dir', dataDir, '--database-url', target.url, '--target-kek-file', keyFile]);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/re-sealed under the server's key-encryption key/);
    const { rows } = await withClient(target.url, (c) => c.query('SELECT id, signing_key_sealed FROM webhook_subscriptions'));
    expect(rows).toHaveLength(1);
    const context = `webhook_signing_key:${rows[0].id}`;
    expect(secretBox(serverKey).open(rows[0].signing_key_sealed, context)).toBe('whsec-migrate-1234');
    const clinicKey = Buffer.from(readFileSync(join(dataDir, 'master.key'), 'utf8').trim(), 'base64');
    expect(() => secretBox(clinicKey).open(rows[0].signing_key_sealed, context)).toThrow();
    const settings = (await withClient(target.url, (c) => c.query('SELECT workspace_id, secrets_sealed FROM reminder_settings'))).rows;
    expect(settings).toHaveLength(1);
    expect(JSON.parse(secretBox(serverKey).open(settings[0].secrets_sealed, `reminder_secrets:${settings[0].workspace_id}`))).toEqual({ auth_token: 'twilio-migrate-token' });
  }, 60_000);
});
