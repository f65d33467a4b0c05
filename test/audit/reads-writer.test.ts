import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { auditReadsWriter, readsJournalFile } from '../../server/audit/reads-writer.js';
import { auditLog } from '../../server/audit/service.js';
import { type AuditEntry, auditRow, auditStore } from '../../server/audit/store.js';
import type { RequestContext } from '../../server/auth/permissions.js';
import { openDatabase } from '../../server/db/database.js';
import { openSql } from '../../server/db/sql.js';
import { type Executor, rootExecutor } from '../../server/db/tx.js';
import type { Clock } from '../../server/shared/time.js';
import { ROOT, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';

// The SQLite read-audit writer thread (audit/reads-writer.ts, reads-worker.ts): batches stored through its journal,
// in order and whole; a journal a killed process left moved once; a thread that cannot start leaves nothing
// unwritten; and a script that awaits a flush and the close with nothing else to do is not ended early by the thread
// being unreferenced.
const ctx = (n: number): RequestContext => ({
  caller: { kind: 'user', id: `u${n % 3}`, workspaceId: 'w1', workspaceActive: true, role: 'reception', scopes: new Set() },
  ip: '127.0.0.1', requestId: `req-${n}`,
});
const clock: Clock = { now: () => new Date('2031-03-03T03:03:03.003Z') };

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

async function database() {
  const dir = tempDir('reads-writer');
  const file = join(dir, 'clinic-desk.sqlite');
  const raw = openDatabase({ file });
  const sql = openSql({ sqlite: raw });
  const e: Executor = rootExecutor(sql, raw);
  opened.push({
    async close() {
      await sql.close();
      raw.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
  return { file, e, raw };
}

const rows = (raw: ReturnType<typeof openDatabase>) =>
  raw.prepare('SELECT id, at, workspace_id, actor_type, actor_id, action, resource_type, resource_ids, outcome, ip, request_id FROM audit_log ORDER BY id').all() as (AuditEntry & { id: number })[];

describe('read-audit writer thread', () => {
  it('stores every queued entry, in order, by the time flush resolves; the thread closes with the service', async () => {
    const { file, e, raw } = await database();
    const writer = auditReadsWriter({ file, insertSql: auditStore(e).insertSql() });
    const log = auditLog(e, clock, writer);
    // More than the first buffer of a batch holds (it grows), and text that is more than one byte a character.
    for (let i = 0; i < 600; i++) {
      log.later(ctx(i), { action: 'patient.search', resourceType: 'patient', resourceIds: i % 5 ? [`p${i}`, `q${i}`] : [], outcome: i % 5 ? 'success' : 'not_found' });
    }
    log.later({ caller: null, ip: null, requestId: null }, { action: 'patient.search', outcome: 'denied' });
    log.later(ctx(601), { action: 'patient.read', resourceType: 'patient', resourceIds: ['Élodie-пациент-患者-🩺'], outcome: 'success' });
    await log.flush();
    const stored = rows(raw);
    expect(stored).toHaveLength(602);
    expect(stored.map((r) => r.request_id)).toEqual([...Array.from({ length: 600 }, (_, i) => `req-${i}`), null, 'req-601']);
    expect(JSON.parse(stored[601]!.resource_ids!)).toEqual(['Élodie-пациент-患者-🩺']);
    expect(stored[1]).toEqual({
      id: 2, at: '2031-03-03T03:03:03.003Z', workspace_id: 'w1', actor_type: 'user', actor_id: 'u1', action: 'patient.search',
      resource_type: 'patient', resource_ids: '["p1","q1"]', outcome: 'success', ip: '127.0.0.1', request_id: 'req-1',
    });
    expect(stored[0]).toMatchObject({ resource_ids: null, outcome: 'not_found' });
    expect(stored[600]).toMatchObject({ workspace_id: null, actor_type: 'anonymous', actor_id: null, ip: null, outcome: 'denied' });
    // Written by the thread, not through this connection: the same rows again after another batch and the close.
    log.later(ctx(602), { action: 'patient.search', resourceType: 'patient', resourceIds: ['p602'], outcome: 'success' });
    await log.flush();
    await writer.close();
    expect(rows(raw).map((r) => r.action).slice(-2)).toEqual(['patient.read', 'patient.search']);
  });

  it('writes on the main thread, and says why once, when the thread cannot start: no entry is lost', async () => {
    const { file, e, raw } = await database();
    const said: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void said.push(args.join(' '));
    try {
      const writer = auditReadsWriter({
        file, insertSql: auditStore(e).insertSql(), script: new URL('data:text/javascript,throw new Error("no such thread")'),
      });
      const log = auditLog(e, clock, writer);
      for (let i = 0; i < 40; i++) log.later(ctx(i), { action: 'patient.read', resourceType: 'patient', resourceIds: [`p${i}`], outcome: 'success' });
      await log.flush();
      for (let i = 40; i < 50; i++) log.later(ctx(i), { action: 'patient.read', resourceType: 'patient', resourceIds: [`p${i}`], outcome: 'success' });
      await log.flush();
      await writer.close();
    } finally {
      console.error = error;
    }
    expect(rows(raw).map((r) => r.request_id)).toEqual(Array.from({ length: 50 }, (_, i) => `req-${i}`));
    expect(said.filter((s) => s.includes('read-audit writer thread stopped'))).toEqual([expect.stringContaining('no such thread')]);
  });

  it('runs in a process started with a TypeScript preload (as the benchmarks start servers): no batch falls back to the main thread', async () => {
    const { file, e, raw } = await database();
    const script = `
      import { auditReadsWriter } from './server/audit/reads-writer.js';
      const w = auditReadsWriter({ file: ${JSON.stringify(file)}, insertSql: ${JSON.stringify(auditStore(e).insertSql())} });
      w.add(${JSON.stringify(auditRow({
        at: '2031-03-03T03:03:03.003Z', workspace_id: 'w1', actor_type: 'user', actor_id: 'u1', action: 'patient.search',
        resource_type: 'patient', resource_ids: '["p1"]', outcome: 'success', ip: '127.0.0.1', request_id: 'req-preload',
      }))});
      await w.write(true);
      await w.close();
      console.log('closed');`;
    // A preload of ours, in TypeScript: the worker inherits it unless told otherwise, and has no tsx to load it.
    const { stdout, stderr } = await promisify(execFile)(process.execPath,
      ['--import', 'tsx', '--import', './server/shared/time.ts', '--input-type=module', '-e', script], { cwd: ROOT, timeout: 60_000 });
    expect(stdout.trim()).toBe('closed');
    expect(stderr).not.toContain('read-audit writer thread stopped');
    expect(rows(raw).map((r) => r.request_id)).toEqual(['req-preload']);
  });

  it('moves a journal a killed process left, once: batches it had moved but not cleared are not moved again', async () => {
    const { file, e, raw } = await database();
    const insertSql = auditStore(e).insertSql();
    const entries = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({
      at: '2031-03-03T03:03:03.003Z', workspace_id: 'w1', actor_type: 'user' as const, actor_id: 'u1', action: 'patient.search',
      resource_type: 'patient', resource_ids: `["p${from + i}"]`, outcome: 'success' as const, ip: '127.0.0.1', request_id: `req-${from + i}`,
    }));
    // A process queues two batches in the journal (not yet moved: its move interval is long) and is killed.
    const script = `
      import { auditReadsWriter } from './server/audit/reads-writer.js';
      import { auditRow } from './server/audit/store.js';
      const w = auditReadsWriter({ file: ${JSON.stringify(file)}, insertSql: ${JSON.stringify(insertSql)}, moveEveryMs: 600000 });
      const entries = ${JSON.stringify(entries(0, 30))};
      for (const e of entries.slice(0, 20)) w.add(auditRow(e));
      await w.write(false);
      for (const e of entries.slice(20)) w.add(auditRow(e));
      await w.write(false);
      console.log('queued');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('queued') && resolve());
      child.once('exit', (code) => reject(new Error(`exited with ${code} before queuing`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(rows(raw)).toHaveLength(0);
    const journal = readsJournalFile(file);
    const kept = `${journal}.kept`;
    for (const suffix of ['', '-wal']) if (existsSync(`${journal}${suffix}`)) copyFileSync(`${journal}${suffix}`, `${kept}${suffix}`);

    // The next writer moves them at its start, once.
    const next = auditReadsWriter({ file, insertSql });
    for (const e of entries(30, 5)) next.add(auditRow(e));
    await next.write(true);
    await next.close();
    expect(rows(raw).map((r) => r.request_id)).toEqual(Array.from({ length: 35 }, (_, i) => `req-${i}`));

    // The journal as the killed process left it again: as after a crash between a move and the journal's cleanup.
    for (const suffix of ['', '-wal']) if (existsSync(`${kept}${suffix}`)) copyFileSync(`${kept}${suffix}`, `${journal}${suffix}`);
    rmSync(`${journal}-shm`, { force: true });
    const again = auditReadsWriter({ file, insertSql });
    for (const e of entries(35, 1)) again.add(auditRow(e));
    await again.write(true);
    await again.close();
    expect(rows(raw).map((r) => r.request_id)).toEqual(Array.from({ length: 36 }, (_, i) => `req-${i}`));
  });

  it('keeps a script that awaits a flush and the close alive until they are done', async () => {
    const dir = tempDir('reads-writer-script');
    try {
      // A whole service, as bench/search.ts uses it: search, then close with nothing else keeping the process alive.
      const script = `
        import { createService } from './server/service.js';
        import { ensureDemo } from './server/demo/demo.js';
        const service = await createService({ dataDir: ${JSON.stringify(dir)} });
        const demo = await ensureDemo(service, 'http://127.0.0.1:0');
        const caller = await service.auth.authenticateToken(demo.workspaces[0].users.reception.auth_token);
        await service.patients.search({ caller, ip: '127.0.0.1', requestId: 'script-1' }, '9876543210');
        await service.close();
        console.log('closed');`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, timeout: 60_000 });
      expect(stdout.trim().split('\n').at(-1)).toBe('closed');
      const raw = openDatabase({ file: join(dir, 'clinic-desk.sqlite'), readonly: true });
      try {
        expect(raw.prepare(`SELECT outcome FROM audit_log WHERE request_id = 'script-1'`).all()).toEqual([{ outcome: 'success' }]);
      } finally {
        raw.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The desktop app starts the thread from its bundle (scripts/build.mjs), not from this source. Skipped only where
// nothing is built: a build without the thread's script beside main.mjs fails.
const BUNDLED = join(ROOT, 'dist', 'main', 'audit-reads-worker.mjs');
const unbuilt = existsSync(join(ROOT, 'dist', 'main', 'main.mjs')) ? null : 'dist/ is not built (node scripts/build.mjs; npm test builds first)';
describe('the bundled read-audit writer thread', skipFor(unbuilt), () => {
  it('stores batches as the source does', async () => {
    expect(existsSync(BUNDLED), 'scripts/build.mjs builds dist/main/audit-reads-worker.mjs').toBe(true);
    const { file, e, raw } = await database();
    const writer = auditReadsWriter({ file, insertSql: auditStore(e).insertSql(), script: pathToFileURL(BUNDLED) });
    const log = auditLog(e, clock, writer);
    for (let i = 0; i < 10; i++) log.later(ctx(i), { action: 'patient.read', resourceType: 'patient', resourceIds: [`p${i}`], outcome: 'success' });
    await log.flush();
    await writer.close();
    expect(rows(raw).map((r) => r.request_id)).toEqual(Array.from({ length: 10 }, (_, i) => `req-${i}`));
  });
});
