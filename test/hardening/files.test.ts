import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile } from '../../server/config.js';
import { KEK_FILE } from '../../server/shared/secret-box.js';
import { type RunningServer, call, exited, spawnServer, startServer, tempDir } from '../helpers/server.js';

/**
 * Issue 13, items 4 and 5: what the service creates on disk is its account's alone (folders 0700, files 0600),
 * the headless key can live outside the data folder, and installation-wide views belong to the installation owner.
 */

const mode = (path: string) => statSync(path).mode & 0o777;
const auth = (token: string) => ({ auth: token });

// The modes must come from the service, not from a strict umask of whoever runs the tests.
let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
});

describe('a fresh data folder', () => {
  let root: string;
  let srv: RunningServer;
  beforeAll(async () => {
    root = tempDir('hardening-fresh');
    srv = await startServer({ dataDir: join(root, 'data'), kek: null });
  });
  afterAll(async () => {
    await srv.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('is 0700, and the database, its WAL and SHM and the key are 0600', () => {
    const db = databaseFile(srv.dataDir);
    expect(mode(srv.dataDir).toString(8)).toBe('700');
    for (const file of [db, `${db}-wal`, `${db}-shm`, join(srv.dataDir, KEK_FILE)]) {
      expect(existsSync(file), file).toBe(true);
      expect(mode(file).toString(8), file).toBe('600');
    }
  });

  it('keeps backups 0600 in a 0700 folder', async () => {
    const made = await call(srv.baseUrl, 'POST', '/api/v1/backups', { headers: auth(srv.demo.workspaces[0]!.users.admin.auth_token) });
    expect(made.status).toBe(201);
    expect(mode(join(srv.dataDir, 'backups')).toString(8)).toBe('700');
    expect(mode(made.json.path).toString(8)).toBe('600');
  });

  it('keeps uploaded dictation audio 0600 in 0700 folders', async () => {
    const doctor = { authorization: `Bearer ${srv.demo.workspaces[0]!.users.doctor.auth_token}` };
    const presign = await call(srv.baseUrl, 'POST', '/v1/file-upload?txn_id=modes-001&action=ekascribe-v2', { headers: doctor, body: { mode: 'dictation' } });
    expect(presign.status).toBe(200);
    const form = new FormData();
    for (const [k, v] of Object.entries(presign.json.uploadData.fields as Record<string, string>)) form.append(k, v);
    form.set('key', `${presign.json.folderPath}visit.wav`);
    form.append('file', new File([Buffer.alloc(4096, 1)], 'visit.wav', { type: 'audio/wav' }));
    const upload = await fetch(presign.json.uploadData.url as string, { method: 'POST', body: form });
    expect(upload.status).toBe(204);

    const scribeRoot = join(srv.dataDir, 'scribe');
    const sessions = readdirSync(scribeRoot);
    expect(sessions).toHaveLength(1);
    const sessionDir = join(scribeRoot, sessions[0]!);
    const stored = readdirSync(sessionDir);
    expect(stored).toHaveLength(1);
    expect([mode(scribeRoot), mode(sessionDir), mode(join(sessionDir, stored[0]!))].map((m) => m.toString(8))).toEqual(['700', '700', '600']);
  });
});

describe('a data folder made by hand with loose modes', () => {
  it('is tightened at start-up, the database files with it, and the service says so', async () => {
    const dir = tempDir('hardening-loose');
    chmodSync(dir, 0o755);
    const db = databaseFile(dir);
    writeFileSync(db, '', { mode: 0o644 });
    chmodSync(db, 0o644);
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    let srv: RunningServer | undefined;
    try {
      srv = await startServer({ dataDir: dir });
    } finally {
      console.warn = warn;
    }
    try {
      expect(mode(dir).toString(8)).toBe('700');
      for (const file of [db, `${db}-wal`, `${db}-shm`]) expect(mode(file).toString(8), file).toBe('600');
      expect(warnings.some((w) => w.includes(dir) && w.includes('0755') && w.includes('0700'))).toBe(true);
      expect(warnings.some((w) => w.includes(db) && w.includes('0644'))).toBe(true);
    } finally {
      await srv!.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the headless key', () => {
  let root: string;
  beforeAll(() => {
    root = tempDir('hardening-kek');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const noKek = { CLINIC_DESK_KEK: '', CLINIC_DESK_KEK_FILE: '' };

  it('is kept in the data folder by default, with a warning at each start', async () => {
    const data = join(root, 'default');
    const srv = await spawnServer(['--data-dir', data], noKek);
    srv.child.kill('SIGTERM');
    await exited(srv.child);
    expect(mode(join(data, KEK_FILE)).toString(8)).toBe('600');
    expect(srv.output()).toMatch(/clinic-desk: the key-encryption key .*master\.key is inside the data folder/);
  });

  it('is kept where CLINIC_DESK_KEK_FILE says, created 0600 in a 0700 folder, and not in the data folder', async () => {
    const data = join(root, 'elsewhere-data');
    const keyFile = join(root, 'keys', 'clinic.key');
    const srv = await spawnServer(['--data-dir', data, '--demo'], { ...noKek, CLINIC_DESK_KEK_FILE: keyFile });
    // The key is used: an API client's secret is sealed with it, and the token endpoint opens it again.
    const ws = srv.demo().workspaces[0]!;
    const token = await call(srv.baseUrl, 'POST', '/api/v1/auth/token', {
      headers: { 'x-api-key': ws.api_key }, body: { grant_type: 'client_credentials', client_id: ws.client_id, client_secret: ws.client_secret },
    });
    srv.child.kill('SIGTERM');
    await exited(srv.child);
    expect(token.status).toBe(200);
    expect(mode(keyFile).toString(8)).toBe('600');
    expect(mode(join(root, 'keys')).toString(8)).toBe('700');
    expect(existsSync(join(data, KEK_FILE))).toBe(false);
    expect(srv.output()).not.toMatch(/inside the data folder/);
  });

  it('refuses to start with a new key when the configured file is missing but the data folder still holds the old one', async () => {
    const data = join(root, 'moved');
    mkdirSync(data, { mode: 0o700 });
    writeFileSync(join(data, KEK_FILE), Buffer.alloc(32, 7).toString('base64'), { mode: 0o600 });
    const started = spawnServer(['--data-dir', data], { ...noKek, CLINIC_DESK_KEK_FILE: join(root, 'not-yet-moved.key') });
    await expect(started).rejects.toThrow(/move that file to .*not-yet-moved\.key/);
    expect(existsSync(join(root, 'not-yet-moved.key'))).toBe(false);
  });
});

describe('installation-wide views', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer();
  });
  afterAll(() => srv.close());

  it('backups belong to the admins of the clinic that owns the installation; another clinic\'s admin gets 403', async () => {
    const owner = auth(srv.demo.workspaces[0]!.users.admin.auth_token);
    const other = auth(srv.demo.workspaces[1]!.users.admin.auth_token);
    const made = await call(srv.baseUrl, 'POST', '/api/v1/backups', { headers: owner });
    expect(made.status).toBe(201);
    for (const method of ['GET', 'POST'] as const) {
      const r = await call(srv.baseUrl, method, '/api/v1/backups', { headers: other });
      expect(r.status, method).toBe(403);
      expect(r.json.error.code).toBe('FORBIDDEN');
      expect(r.text).not.toContain(srv.dataDir);
    }
    expect(readdirSync(join(srv.dataDir, 'backups'))).toEqual([made.json.name]);
    expect((await call(srv.baseUrl, 'GET', '/api/v1/backups', { headers: owner })).json.backups).toHaveLength(1);
  });

  it('the status shows the data folder and database size to the owner\'s admins only', async () => {
    const owner = await call(srv.baseUrl, 'GET', '/api/v1/status', { headers: auth(srv.demo.workspaces[0]!.users.admin.auth_token) });
    expect(owner.json).toMatchObject({ status: 'ok', data_dir: srv.dataDir });
    expect(owner.json.database_bytes).toBeGreaterThan(0);
    const other = await call(srv.baseUrl, 'GET', '/api/v1/status', { headers: auth(srv.demo.workspaces[1]!.users.admin.auth_token) });
    expect(other.status).toBe(200);
    expect(other.json).toMatchObject({ status: 'ok', version: owner.json.version });
    expect(other.json).not.toHaveProperty('data_dir');
    expect(other.json).not.toHaveProperty('database_bytes');
    expect(other.text).not.toContain(srv.dataDir);
  });
});
