import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { walCheckpointer } from '../../server/db/checkpointer.js';
import { openDatabase } from '../../server/db/database.js';
import { copyDemoForProcess } from '../helpers/demo-template.js';
import { ROOT, call, exited, spawnServer, startedByTests, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { strace, trace } from '../helpers/strace.js';

/**
 * SQLite's checkpoints (copying the -wal file back into the database file, and syncing both) are made by a thread
 * of their own (server/db/checkpointer.ts), never on the event loop, where better-sqlite3 would hold every request
 * while they run. The server runs under strace: the thread that answers requests (the process's own id) must write
 * and flush nothing of the database file itself, while another thread does.
 */
const { children, dirs } = startedByTests();

describe('checkpoints off the event loop (SQLite)', skipFor(strace ? null : 'strace is not installed, or may not attach to a process here (no ptrace rights)'), () => {
  it('the database file is written and synced by the checkpoint thread, not the thread that answers', async () => {
    const d = tempDir('checkpoints');
    dirs.push(d);
    // The demo clinics, copied (helpers/demo-template.ts): what this test is about comes after them.
    await copyDemoForProcess(d);
    const srv = await spawnServer(['--data-dir', d, '--demo']);
    children.add(srv.child);
    const ws = srv.demo().workspaces[0]!;
    const headers = { auth: ws.users.reception.auth_token };
    const out = join(d, 'strace.txt');
    const tracer = await trace(srv.child.pid!, out, children);

    // Enough commits to take the -wal file past SQLite's own checkpoint threshold (1,000 pages) several times (a
    // patient is about 90 pages: its row, its search indexes, its audit entry), not its backstop (checkpointer.ts).
    for (let n = 0; n < 150; n++) {
      const r = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
        headers, body: { first_name: `Checkpoint${n}`, middle_name: '', last_name: 'Thread', dob: '1980-05-17', gender: 'O', mobile: `95${String(n).padStart(8, '0')}` },
      });
      expect(r.status, r.text).toBe(201);
    }
    // The thread checkpoints every 250 ms.
    await new Promise((r) => setTimeout(r, 1500));
    const gone = exited(srv.child);
    srv.child.kill('SIGKILL');
    await gone;
    await exited(tracer);

    const pid = String(srv.child.pid);
    const onDb = readFileSync(out, 'utf8').split('\n')
      .map((line) => /^(\d+)\s+(pwrite64|pwritev|fdatasync|fsync)\(\d+<[^>]*\/clinic-desk\.sqlite>/.exec(line))
      .filter((m) => m !== null)
      .map((m) => ({ tid: m[1]!, call: m[2]! }));
    expect(onDb.filter((c) => c.tid === pid), 'the database file written or synced on the thread that answers').toEqual([]);
    expect(onDb.filter((c) => c.call === 'pwrite64' || c.call === 'pwritev').length, 'pages copied into the database file').toBeGreaterThan(0);
    expect(onDb.filter((c) => c.call === 'fdatasync' || c.call === 'fsync').length, 'the database file synced').toBeGreaterThan(0);
  });
});

describe('the checkpoint thread gone', () => {
  it('leaves the main connection checkpointing every 1,000 pages by itself, and says why once', async () => {
    const d = tempDir('checkpoints-broken');
    dirs.push(d);
    const db = openDatabase({ file: join(d, 'clinic.sqlite'), migrate: false });
    const said: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void said.push(args.join(' '));
    try {
      const live = await walCheckpointer(db);
      expect(db.pragma('wal_autocheckpoint', { simple: true }), 'with the thread: only the backstop').toBe(10_000);
      await live.close();
      expect(db.pragma('wal_autocheckpoint', { simple: true }), 'closed').toBe(1000);
      expect(said).toEqual([]);

      const broken = await walCheckpointer(db, { script: new URL('data:text/javascript,throw new Error("no such thread")') });
      await vi.waitFor(() => expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000), { timeout: 20_000 });
      expect(said.filter((l) => l.includes('the WAL checkpoint thread stopped'))).toHaveLength(1);
      expect(said.join('\n')).toContain('no such thread');
      await broken.close();
    } finally {
      console.error = error;
      db.close();
    }
  });
});

// The desktop app starts the thread from its bundle (scripts/build.mjs), not from this source. Skipped only where
// nothing is built: a build without the thread's script beside main.mjs fails.
const BUNDLED = join(ROOT, 'dist', 'main', 'db-checkpoint-worker.mjs');
const unbuilt = existsSync(join(ROOT, 'dist', 'main', 'main.mjs')) ? null : 'dist/ is not built (node scripts/build.mjs; npm test builds first)';
describe('the bundled checkpoint thread', skipFor(unbuilt), () => {
  it('copies the -wal file into the database file as the source does', async () => {
    expect(existsSync(BUNDLED), 'scripts/build.mjs builds dist/main/db-checkpoint-worker.mjs').toBe(true);
    const d = tempDir('checkpoints-bundled');
    dirs.push(d);
    const db = openDatabase({ file: join(d, 'clinic.sqlite'), migrate: false });
    const said: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void said.push(args.join(' '));
    try {
      const thread = await walCheckpointer(db, { script: pathToFileURL(BUNDLED), everyMs: 20 });
      db.exec('CREATE TABLE t (v TEXT)');
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      const wal = join(d, 'clinic.sqlite-wal');
      for (let i = 0; i < 50; i++) insert.run('x'.repeat(2000));
      const written = statSync(wal).size;
      // Copied by the thread meanwhile, so the next writes start the -wal file over instead of growing it.
      await new Promise((r) => setTimeout(r, 500));
      for (let i = 0; i < 50; i++) insert.run('x'.repeat(2000));
      expect(statSync(wal).size, 'the -wal file after as many writes again').toBe(written);
      await thread.close();
      expect(said).toEqual([]);
    } finally {
      console.error = error;
      db.close();
    }
  });
});
