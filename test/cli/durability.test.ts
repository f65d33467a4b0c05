import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openSql } from '../../server/db/sql.js';
import type { DemoCredentials } from '../../server/demo/demo.js';
import { copyDemoForProcess } from '../helpers/demo-template.js';
import { DATABASES, type TestDatabase, freshPostgresDatabase } from '../helpers/postgres.js';
import { ROOT, SERVE, type ServerProcess, call, exited, spawnServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';

/**
 * The service as a real process over real files: demo start, signals, kill -9 in the middle of writes, online
 * backup while writing, and flag/env handling. Every child is killed after each test, pass or fail. On PostgreSQL
 * the process is started with --database-url (a fresh database per test) and the same --data-dir, which then holds
 * the key file and the demo's credentials; the SQLite backup stays SQLite's (PostgreSQL's: backup-postgres.test.ts).
 */

const children = new Set<ChildProcess>();
const dirs: string[] = [];
const databases: (() => Promise<void>)[] = [];

const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

afterEach(async () => {
  for (const c of children) {
    if (alive(c)) {
      c.kill('SIGKILL');
      await exited(c);
    }
  }
  children.clear();
});
afterAll(async () => {
  for (const drop of databases) await drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dir(name: string) {
  const d = tempDir(name);
  dirs.push(d);
  return d;
}

async function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const s = await spawnServer(args, env);
  children.add(s.child);
  return s;
}

/**
 * Where a test's service keeps its data: the data folder, and on PostgreSQL a fresh database (dropped after the
 * file), with the serve arguments that name both. `withDemo`: the demo clinics already there, copied
 * (helpers/demo-template.ts), for a test about what comes after them.
 */
async function store(db: TestDatabase, name: string, opts: { withDemo?: boolean } = {}) {
  const d = dir(name);
  const pg = opts.withDemo ? await copyDemoForProcess(d, db.name)
    : db.name === 'postgres' ? await freshPostgresDatabase(`durability_${name}`) : null;
  if (pg) databases.push(pg.drop);
  return { d, url: pg?.url, args: ['--data-dir', d, ...(pg ? ['--database-url', pg.url] : [])] };
}

/**
 * Reads what a stopped (or killed) service left, through Kysely's `sql` tag on either database: SQLite's file,
 * opened afresh (read-only unless told), or the PostgreSQL database.
 */
async function inspect<T>(target: { d: string; url?: string }, read: (k: Kysely<any>) => Promise<T>, opts: { writable?: boolean } = {}): Promise<T> {
  const raw = target.url ? null : new Database(dbFile(target.d), { readonly: !opts.writable });
  const database = raw ? openSql({ sqlite: raw }) : openSql({ postgresUrl: target.url!, poolSize: 1 });
  try {
    return await read(database.db);
  } finally {
    await database.close();
    raw?.close();
  }
}

/** The ids of `ids` that are not in patients. */
async function missingPatients(k: Kysely<any>, ids: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const id of ids) if ((await sql`SELECT 1 AS one FROM patients WHERE id = ${id}`.execute(k)).rows.length === 0) missing.push(id);
  return missing;
}

/**
 * `f` on every item, eight at a time, the results in the items' order: a service closes a client's connections
 * beyond 128 (server/http/connection-cap.ts).
 */
async function eightAtATime<T, R>(items: readonly T[], f: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await f(items[i]!);
    }
  }));
  return results;
}

const readCreds = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
const dbFile = (dataDir: string) => join(dataDir, 'clinic-desk.sqlite');

/** Runs a CLI script under tsx (serve: as spawnServer runs it) to completion; kills it if it outlives `timeoutMs`. */
function runCli(script: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000) {
  const command = script === 'server/cli/serve.ts' ? SERVE : ['--import', 'tsx', join(ROOT, script)];
  const child = spawn(process.execPath, [...command, ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise<{ code: number | string; stdout: string; stderr: string }>((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, stdout, stderr });
    });
  });
}

function integrity(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

const keys = (o: object) => Object.keys(o).sort();

let mobileSeq = 0;
const uniqueMobile = (prefix: string) => `${prefix}${String(++mobileSeq).padStart(10 - prefix.length, '0')}`;
const patientBody = (mobile: string, n: number) => ({
  first_name: `Dura${n}`, middle_name: '', last_name: `Bility${n}`, dob: '1980-05-17', gender: 'O', mobile,
});

for (const db of DATABASES) describe(`demo start (${db.name})`, skipFor(db.skip), () => {
  it('prints the listening line and writes demo-credentials.json in the documented shape, mode 0600, in the folder CLINIC_DESK_DATA_DIR names; --data-dir wins over it; a port in use fails clearly', async () => {
    // The data folder named by CLINIC_DESK_DATA_DIR alone, no --data-dir. The file's only start that makes the demo
    // from nothing (twelve scrypt hashes): the others with --demo start on a copy of it (helpers/demo-template.ts).
    const home = dir('home');
    const { d, args } = await store(db, 'demo');
    const srv = await serve(['--demo', ...args.slice(2)], { CLINIC_DESK_DATA_DIR: d, HOME: home, USERPROFILE: home });
    expect(srv.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(srv.output()).toContain(`data folder:    ${d}`);
    expect(existsSync(join(d, 'master.key'))).toBe(true);
    const file = join(d, 'demo-credentials.json');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const creds = readCreds(d);
    expect(keys(creds)).toEqual(['base_url', 'workspaces']);
    expect(creds.base_url).toBe(srv.baseUrl);
    expect(creds.workspaces).toHaveLength(2);
    const nonEmpty = expect.stringMatching(/\S/);
    for (const ws of creds.workspaces) {
      expect(keys(ws)).toEqual(
        ['api_key', 'appointments', 'client_id', 'client_secret', 'limited_client', 'name', 'patients', 'users', 'workspace_id'],
      );
      for (const k of ['workspace_id', 'name', 'api_key', 'client_id', 'client_secret'] as const) expect(ws[k]).toEqual(nonEmpty);
      expect(keys(ws.limited_client)).toEqual(['client_id', 'client_secret']);
      expect(ws.limited_client.client_id).toEqual(nonEmpty);
      expect(ws.limited_client.client_secret).toEqual(nonEmpty);
      expect(ws.limited_client.client_id).not.toBe(ws.client_id);
      expect(keys(ws.users)).toEqual(['admin', 'display', 'doctor', 'reception']);
      for (const u of Object.values(ws.users)) {
        expect(keys(u)).toEqual(['auth_token', 'password', 'username']);
        for (const v of Object.values(u)) expect(v).toEqual(nonEmpty);
      }
      expect(ws.patients.length).toBeGreaterThanOrEqual(3);
      for (const p of ws.patients) {
        expect(keys(p)).toEqual(['first_name', 'last_name', 'mobile', 'patient_id']);
        expect(p.mobile).toMatch(/^\d{10}$/);
        expect(p.patient_id).toEqual(nonEmpty);
        expect(p.first_name).toEqual(nonEmpty);
        expect(p.last_name).toEqual(nonEmpty);
      }
      const perMobile = new Map<string, number>();
      for (const p of ws.patients) perMobile.set(p.mobile, (perMobile.get(p.mobile) ?? 0) + 1);
      const shared = [...perMobile].filter(([, n]) => n === 2);
      expect(shared.length, 'one mobile shared by two patients').toBeGreaterThanOrEqual(1);
      expect(ws.appointments.length).toBeGreaterThanOrEqual(6);
      const patientIds = new Set(ws.patients.map((p) => p.patient_id));
      for (const a of ws.appointments) {
        expect(keys(a)).toEqual(['appointment_id', 'partner_appointment_id', 'patient_id', 'status']);
        expect(a.status).toBe('BK');
        expect(a.appointment_id).toEqual(nonEmpty);
        expect(a.partner_appointment_id).toEqual(nonEmpty);
        expect(patientIds.has(a.patient_id)).toBe(true);
      }

      // The credentials are real: the tokens work, the shared mobile finds both family members.
      const [mobile] = shared[0]!;
      const found = await call(srv.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, {
        headers: { auth: ws.users.reception.auth_token },
      });
      expect(found.status).toBe(200);
      expect(found.json.data.profiles).toHaveLength(2);
      const appt = await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${ws.appointments[0]!.appointment_id}`, {
        headers: { auth: ws.users.doctor.auth_token },
      });
      expect(appt.status).toBe(200);
      expect(appt.json.data.status).toBe('BK');
    }
    expect(creds.workspaces[0]!.workspace_id).not.toBe(creds.workspaces[1]!.workspace_id);

    // PostgreSQL's service keeps no SQLite file beside its key file.
    expect(existsSync(dbFile(d))).toBe(db.name === 'sqlite');

    // A second start on this one's port, given a --data-dir and another folder in CLINIC_DESK_DATA_DIR: a clear
    // failure, not a hang, and the key file and database it made before listening are in --data-dir's folder.
    const flagDir = dir('flagdir');
    const other = dir('otherdir');
    const clash = await runCli('server/cli/serve.ts', ['--data-dir', flagDir, ...(await store(db, 'flag-db')).args.slice(2),
      '--port', new URL(srv.baseUrl).port], { CLINIC_DESK_DATA_DIR: other, HOME: home });
    expect(clash.code).not.toBe(0);
    expect(typeof clash.code).toBe('number');
    expect(clash.stderr).toMatch(/EADDRINUSE|in use/i);
    expect(existsSync(join(flagDir, 'master.key'))).toBe(true);
    expect(existsSync(dbFile(flagDir))).toBe(db.name === 'sqlite');
    expect(existsSync(join(other, 'master.key'))).toBe(false);
    expect(existsSync(dbFile(other))).toBe(false);
    expect(existsSync(join(home, '.clinic-desk'))).toBe(false);

    const health = await call(srv.baseUrl, 'GET', '/health');
    expect(health.status).toBe(200);
    expect(health.json.status).toBe('ok');
    srv.child.kill('SIGTERM');
    expect(await exited(srv.child)).toBe(0);
  });
});

for (const db of DATABASES) describe(`signals and restart (${db.name})`, skipFor(db.skip), () => {
  it('SIGTERM and SIGINT each stop cleanly with exit code 0, SIGTERM during a write burst keeping every acknowledged write; restarts keep the data and do not recreate the demo', async () => {
    // The demo as a first start leaves it (made from nothing in 'demo start'): every start here is a restart.
    const target = await store(db, 'signals', { withDemo: true });
    const { d, args } = target;
    const first = await serve([...args, '--demo']);
    const creds1 = readCreds(d);
    const ws = creds1.workspaces[0]!;
    const headers = { auth: ws.users.reception.auth_token };
    const m1 = uniqueMobile('93');
    const p1 = await call(first.baseUrl, 'POST', '/dr/v1/patient', { headers, body: patientBody(m1, 1) });
    expect(p1.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(first.output()).toMatch(/SIGTERM/);

    const second = await serve([...args, '--demo']);
    const creds2 = readCreds(d);
    expect(creds2.workspaces.map((w) => w.workspace_id)).toEqual(creds1.workspaces.map((w) => w.workspace_id));
    expect(creds2.workspaces).toEqual(creds1.workspaces); // same secrets, tokens, patients and appointments
    expect(creds2.base_url).toBe(second.baseUrl);
    const got1 = await call(second.baseUrl, 'GET', `/dr/v1/patient/${p1.json.data.patient_id}`, { headers });
    expect(got1.status).toBe(200);
    expect(got1.json.data.patient_profile.first_name).toBe('Dura1');
    const m2 = uniqueMobile('93');
    const p2 = await call(second.baseUrl, 'POST', '/dr/v1/patient', { headers, body: patientBody(m2, 2) });
    expect(p2.status).toBe(201);
    const ns = await call(second.baseUrl, 'POST', `/dr/v1/appointment/${ws.appointments[1]!.appointment_id}/change-status?partner_id=0`, {
      headers, body: { status: 'NS' },
    });
    expect(ns.status).toBe(200);
    second.child.kill('SIGINT');
    expect(await exited(second.child)).toBe(0);

    const third = await serve([...args, '--demo']);
    expect(readCreds(d).workspaces.map((w) => w.workspace_id)).toEqual(creds1.workspaces.map((w) => w.workspace_id));
    for (const [mobile, id] of [[m1, p1.json.data.patient_id], [m2, p2.json.data.patient_id]]) {
      const s = await call(third.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, { headers });
      expect(s.status).toBe(200);
      expect(s.json.data.profiles.map((p: any) => p.patient_id)).toEqual([id]);
    }
    const a = await call(third.baseUrl, 'GET', `/dr/v1/appointment/${ws.appointments[1]!.appointment_id}`, { headers });
    expect(a.json.data.status).toBe('NS');

    // The third stop is a SIGTERM during a write burst, in the other clinic (the count of ours below stays exact).
    const burstHeaders = { auth: creds1.workspaces[1]!.users.reception.auth_token };
    const acked: { id: string; mobile: string }[] = [];
    let stopped = false;
    let signalled = false;
    let sent = 0;
    const worker = async () => {
      while (!stopped) {
        const mobile = uniqueMobile('94');
        try {
          const r = await call(third.baseUrl, 'POST', '/dr/v1/patient', { headers: burstHeaders, body: patientBody(mobile, ++sent) });
          if (r.status === 201) acked.push({ id: r.json.data.patient_id, mobile });
          else if (!(signalled && r.status === 503)) throw new Error(`unexpected ${r.status} ${r.text}`);
        } catch (e) {
          if (!signalled) throw e; // before the signal every request must succeed
          return;
        }
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    while (acked.length < 40) await new Promise((r) => setTimeout(r, 5));
    signalled = true;
    third.child.kill('SIGTERM');
    const code = await exited(third.child);
    stopped = true;
    await Promise.allSettled(workers);
    expect(code).toBe(0);

    // Exactly the two demo clinics, and their patients once each plus ours; every patient the burst was answered for.
    const missing = await inspect(target, async (k) => {
      const { n } = (await sql<{ n: number }>`SELECT count(*) AS n FROM workspaces`.execute(k)).rows[0]!;
      expect(n).toBe(2);
      // Sorted here: the databases' text collations need not agree on an order of ids.
      const ids = (await sql<{ id: string }>`SELECT id FROM workspaces`.execute(k)).rows.map((r) => r.id).sort();
      expect(ids).toEqual(creds1.workspaces.map((w) => w.workspace_id).sort());
      const { p } = (await sql<{ p: number }>`SELECT count(*) AS p FROM patients WHERE workspace_id = ${ws.workspace_id}`.execute(k)).rows[0]!;
      expect(p).toBe(ws.patients.length + 2);
      return missingPatients(k, acked.map((ack) => ack.id));
    });
    expect(missing, `${missing.length} of ${acked.length} acknowledged patients lost`).toEqual([]);
    if (db.name === 'sqlite') expect(integrity(dbFile(d))).toBe('ok');
  });
});

for (const db of DATABASES) describe(`kill -9 during writes (${db.name})`, skipFor(db.skip), () => {
  it('every request answered 2xx before the kill is there after a restart, and the file passes integrity_check', async () => {
    const target = await store(db, 'crash', { withDemo: true });
    const { d, args } = target;
    const srv = await serve([...args, '--demo']);
    const ws = readCreds(d).workspaces[0]!;
    const headers = { auth: ws.users.reception.auth_token };

    // Appointments to change during the burst: as many as its jobs before the kill can reach, one in eight of the
    // at most KILL_AFTER + WORKERS started by then.
    const KILL_AFTER = 160;
    const WORKERS = 6;
    const appts = await eightAtATime(Array.from({ length: Math.ceil((KILL_AFTER + WORKERS) / 8) }, (_, i) => i), async (i) => {
      const partner = `CRASH-${i}`;
      const r = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
        headers,
        body: {
          patient_id: ws.patients[i % ws.patients.length]!.patient_id,
          // Days ahead, an hour apart: clear of the demo's own bookings today (a patient's overlapping booking is 409).
          scheduled_at: new Date(Date.now() + 3 * 86_400_000 + (i + 1) * 3_600_000).toISOString(), partner_appointment_id: partner,
        },
      });
      expect(r.status, r.text).toBe(201);
      return { id: r.json.data.appointment_id as string, partner };
    });

    type Job = { kind: 'patient'; mobile: string; n: number } | { kind: 'status'; appt: { id: string; partner: string }; byPartner: boolean };
    const jobs: Job[] = [];
    let a = 0;
    for (let i = 0; i < 400; i++) {
      if (i % 8 === 3 && a < appts.length) {
        jobs.push({ kind: 'status', appt: appts[a]!, byPartner: a % 2 === 1 });
        a++;
      } else jobs.push({ kind: 'patient', mobile: uniqueMobile('95'), n: i });
    }

    const ackedPatients: { id: string; mobile: string; n: number }[] = [];
    const ackedStatus: string[] = [];
    let next = 0;
    let killed = false;
    let inFlightAtKill = 0;
    let inFlight = 0;
    // exited() is asked before the kill: once a child has died by a signal its exitCode stays null, and the
    // helper would wait for an 'exit' event that has already fired.
    let gone: Promise<number | string> | undefined;
    const worker = async () => {
      while (next < jobs.length && !killed) {
        const job = jobs[next++]!;
        inFlight++;
        try {
          if (job.kind === 'patient') {
            const r = await call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers, body: patientBody(job.mobile, job.n) });
            if (r.status >= 200 && r.status < 300) ackedPatients.push({ id: r.json.data.patient_id, mobile: job.mobile, n: job.n });
            else throw new Error(`create answered ${r.status}: ${r.text}`);
          } else {
            const id = job.byPartner ? job.appt.partner : job.appt.id;
            const r = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${id}/change-status?partner_id=${job.byPartner ? 1 : 0}`, {
              headers, body: { status: 'NS' },
            });
            if (r.status >= 200 && r.status < 300) ackedStatus.push(job.appt.id);
            else throw new Error(`change-status answered ${r.status}: ${r.text}`);
          }
        } catch (e) {
          if (!killed) throw e; // before the kill, every request must succeed
        } finally {
          inFlight--;
        }
        if (!killed && ackedPatients.length + ackedStatus.length >= KILL_AFTER) {
          killed = true;
          inFlightAtKill = inFlight;
          gone = exited(srv.child);
          srv.child.kill('SIGKILL');
        }
      }
    };
    const results = await Promise.allSettled(Array.from({ length: WORKERS }, worker));
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    expect(killed).toBe(true);
    expect(await gone).toBe('SIGKILL');
    expect(inFlightAtKill, 'requests were in flight when the process was killed').toBeGreaterThan(0);
    expect(next, 'the burst was cut short').toBeLessThan(jobs.length);
    expect(ackedStatus.length).toBeGreaterThan(0);

    // The database straight after the crash, with the process dead: SQLite's file (with its write-ahead log,
    // intact, every foreign key resolved), or PostgreSQL's database, which a dead client cannot have harmed
    // (PostgreSQL checks its foreign keys as it writes) but which must hold every acknowledged write.
    if (db.name === 'sqlite') {
      expect(existsSync(`${dbFile(d)}-wal`)).toBe(true);
      const raw = new Database(dbFile(d));
      try {
        expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(raw.pragma('foreign_key_check')).toEqual([]);
      } finally {
        raw.close();
      }
    }
    expect(await inspect(target, (k) => missingPatients(k, ackedPatients.map((p) => p.id)), { writable: true })).toEqual([]);
    expect(await inspect(target, async (k) => (await sql<{ id: string }>`SELECT id FROM appointments WHERE status = 'NS' AND id IN (${sql.join(ackedStatus)})`.execute(k)).rows.length))
      .toBe(new Set(ackedStatus).size);

    const again = await serve([...args, '--demo']);
    expect(readCreds(d).workspaces[0]!.workspace_id).toBe(ws.workspace_id);
    const lostPatients = (await eightAtATime(ackedPatients, async (p) => {
      const lost: string[] = [];
      const got = await call(again.baseUrl, 'GET', `/dr/v1/patient/${p.id}`, { headers });
      if (got.status !== 200 || got.json.data.patient_profile.first_name !== `Dura${p.n}`) lost.push(`GET ${p.id}: ${got.status}`);
      const s = await call(again.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${p.mobile}`, { headers });
      if (s.status !== 200 || !s.json.data.profiles.some((e: any) => e.patient_id === p.id)) lost.push(`search ${p.mobile}: ${s.status}`);
      return lost;
    })).flat();
    expect(lostPatients, `of ${ackedPatients.length} acknowledged patients`).toEqual([]);
    const lostStatus = (await eightAtATime(ackedStatus, async (id) => {
      const got = await call(again.baseUrl, 'GET', `/dr/v1/appointment/${id}`, { headers });
      const history = got.json?.data?.status_history ?? [];
      const last = history[history.length - 1];
      return got.status !== 200 || got.json.data.status !== 'NS' || last?.from_status !== 'BK' || last?.to_status !== 'NS'
        ? [`${id}: ${got.status} ${got.json?.data?.status}`] : [];
    })).flat();
    expect(lostStatus, `of ${ackedStatus.length} acknowledged status changes`).toEqual([]);
    const health = await call(again.baseUrl, 'GET', '/health');
    expect(health.status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await exited(again.child)).toBe(0);
    if (db.name === 'sqlite') expect(integrity(dbFile(d))).toBe('ok');
  });
});

for (const db of DATABASES) describe(`online backup (${db.name})`, skipFor(db.name === 'postgres'
  ? 'npm run backup copies the SQLite file; PostgreSQL\'s backups (pg_dump) are tested in backup-postgres.test.ts' : db.skip), () => {
  it('copies a consistent database while the server runs and is written to', async () => {
    const d = dir('backup');
    const out = join(dir('backup-out'), 'nested', 'copy.sqlite');
    await copyDemoForProcess(d);
    const srv = await serve(['--data-dir', d, '--demo']);
    const ws = readCreds(d).workspaces[0]!;
    const headers = { auth: ws.users.reception.auth_token };
    const before: string[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers, body: patientBody(uniqueMobile('96'), i) });
      expect(r.status).toBe(201);
      before.push(r.json.data.patient_id);
    }

    let writing = true;
    let during = 0;
    const writer = async () => {
      let i = 1000;
      while (writing) {
        const r = await call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers, body: patientBody(uniqueMobile('96'), i++) });
        expect(r.status).toBe(201);
        during++;
      }
    };
    const writers = [writer(), writer()];
    const backup = await runCli('server/cli/backup.ts', ['--data-dir', d, '--out', out]);
    const duringBackup = during;
    writing = false;
    await Promise.all(writers);

    expect(backup.code, backup.stderr + backup.stdout).toBe(0);
    expect(backup.stdout).toMatch(/backup written to .*integrity ok/);
    expect(duringBackup, 'the server was written to while the backup ran').toBeGreaterThan(0);
    // One file, even after the CLI's own integrity check opened it: no copy.sqlite-wal or -shm beside it.
    expect(readdirSync(dirname(out))).toEqual(['copy.sqlite']);
    expect(integrity(out)).toBe('ok');
    expect(readdirSync(dirname(out))).toEqual(['copy.sqlite']);
    const copy = new Database(out, { readonly: true });
    try {
      const has = copy.prepare('SELECT 1 FROM patients WHERE id = ?');
      expect(before.filter((id) => !has.get(id))).toEqual([]);
      const { n } = copy.prepare('SELECT count(*) AS n FROM workspaces').get() as { n: number };
      expect(n).toBe(2);
    } finally {
      copy.close();
    }
    // the server kept serving
    const h = await call(srv.baseUrl, 'GET', '/health');
    expect(h.status).toBe(200);
  });

  it('a missing data directory or a missing --out fails with a non-zero exit and a clear message', async () => {
    const base = dir('backup-missing');
    const missing = join(base, 'does-not-exist');
    const [noDir, noOut] = await Promise.all([
      runCli('server/cli/backup.ts', ['--data-dir', missing, '--out', join(base, 'x.sqlite')]),
      runCli('server/cli/backup.ts', ['--data-dir', base]),
    ]);
    expect(noDir.code).not.toBe(0);
    expect(noDir.stderr).toMatch(/backup failed: no database at .*does-not-exist/);
    expect(noDir.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(join(base, 'x.sqlite'))).toBe(false);
    expect(noOut.code).not.toBe(0);
    expect(noOut.stderr).toMatch(/--out/);
  });
});

for (const db of DATABASES) describe(`flags and environment (${db.name})`, skipFor(db.skip), () => {
  it('a bad --port (or CLINIC_DESK_PORT), or a bad CLINIC_DESK_SCRYPT_LOG2_N, exits non-zero with a message and never listens', async () => {
    const { args } = await store(db, 'flags');
    const runs = await Promise.all([
      runCli('server/cli/serve.ts', [...args, '--port', 'abc']),
      runCli('server/cli/serve.ts', [...args, '--port', '70000']),
      runCli('server/cli/serve.ts', [...args, '--port']),
      runCli('server/cli/serve.ts', args, { CLINIC_DESK_PORT: 'eighty' }),
      runCli('server/cli/serve.ts', [...args, '--no-such-flag']),
      runCli('server/cli/serve.ts', args, { CLINIC_DESK_SCRYPT_LOG2_N: '9' }),
    ]);
    for (const r of runs) {
      const all = r.stdout + r.stderr;
      expect(r.code, all).not.toBe(0);
      expect(typeof r.code, 'exited by itself, not killed by the timeout').toBe('number');
      expect(all).not.toMatch(/listening on/);
      expect(r.stderr).toMatch(/clinic-desk/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    for (const r of runs.slice(0, 4)) expect(r.stderr).toMatch(/port/i);
    expect(runs[0]!.stderr).toMatch(/abc/);
    expect(runs[4]!.stderr).toMatch(/no-such-flag/);
    expect(runs[5]!.stderr).toMatch(/failed to start: CLINIC_DESK_SCRYPT_LOG2_N must be a whole number from 10 to 17/);
  });
});
