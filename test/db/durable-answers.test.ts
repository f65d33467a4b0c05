import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { copyDemoForProcess } from '../helpers/demo-template.js';
import { type ServerProcess, call, exited, spawnServer, tempDir, startedByTests } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { strace, trace } from '../helpers/strace.js';

/**
 * An answered change is on disk when the answer leaves (SQLite's group commit, server/db/group-commit.ts): the
 * server runs under strace, which records, in the order the kernel saw them, every write to the -wal file, every
 * flush of it and every answer written to a socket. A kill -9 keeps what the operating system holds in its cache, so
 * a crash alone cannot tell a flushed commit from one still in memory; the system calls can. The server is then
 * killed right after its last 201 and every answered change is read back from the file.
 */

const { children, dirs } = startedByTests();

interface Seen { walWrites: number; walFlushes: number; answers: { line: number; unflushed: number }[] }

/**
 * Reads strace's record: for each 201 written to a socket, how many writes the server's own thread (the one that
 * runs SQLite) had made to the -wal file since the last flush of it that had finished by then.
 */
function replay(text: string, pid: number): Seen {
  const seen: Seen = { walWrites: 0, walFlushes: 0, answers: [] };
  let unflushed = 0;
  const writesWhenFlushBegan = new Map<string, number>();
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const m = /^(\d+)\s+(.*)$/.exec(line);
    if (!m) return;
    const [tid, call] = [m[1]!, m[2]!];
    if (/^pwrite(64|v)\(\d+<[^>]*-wal>/.test(call) && Number(tid) === pid) {
      seen.walWrites++;
      unflushed++;
      return;
    }
    const flush = /^f(data)?sync\(\d+<[^>]*-wal>/.test(call);
    // A flush covers the writes made before it began; it counts once it has returned 0.
    if (flush && call.endsWith('<unfinished ...>')) writesWhenFlushBegan.set(tid, seen.walWrites);
    const resumed = /^<\.\.\. f(data)?sync resumed>/.test(call) && writesWhenFlushBegan.has(tid);
    if ((flush || resumed) && / = 0$/.test(call)) {
      const covered = resumed ? writesWhenFlushBegan.get(tid)! : seen.walWrites;
      writesWhenFlushBegan.delete(tid);
      seen.walFlushes++;
      unflushed = Math.min(unflushed, seen.walWrites - covered);
      return;
    }
    if (/^writev?\(\d+<(TCP|socket:)/.test(call) && call.includes('HTTP/1.1 201')) seen.answers.push({ line: i + 1, unflushed });
  });
  return seen;
}

describe('an answered change is on disk when the answer leaves (SQLite)', skipFor(strace ? null : 'strace is not installed, or may not attach to a process here (no ptrace rights)'), () => {
  it('every 201 follows a finished flush of the -wal file covering its commit; after kill -9 each one is in the file', async () => {
    const d = tempDir('durable-answers');
    dirs.push(d);
    // The demo clinics, copied (helpers/demo-template.ts): what this test is about comes after them.
    await copyDemoForProcess(d);
    const srv: ServerProcess = await spawnServer(['--data-dir', d, '--demo']);
    children.add(srv.child);
    const ws = srv.demo().workspaces[0]!;
    const headers = { auth: ws.users.reception.auth_token };
    const out = join(d, 'strace.txt');
    const tracer = await trace(srv.child.pid!, out, children);

    // One at a time, so that each 201 answers the commit made just before it.
    const answered: string[] = [];
    for (let n = 0; n < 20; n++) {
      const r = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
        headers, body: { first_name: `Flushed${n}`, middle_name: '', last_name: 'Answer', dob: '1980-05-17', gender: 'O', mobile: `96${String(n).padStart(8, '0')}` },
      });
      expect(r.status, r.text).toBe(201);
      answered.push(r.json.data.patient_id);
    }
    const gone = exited(srv.child);
    srv.child.kill('SIGKILL');
    expect(await gone).toBe('SIGKILL');
    await exited(tracer);

    const seen = replay(readFileSync(out, 'utf8'), srv.child.pid!);
    expect(seen.answers.length, 'the 201s strace saw').toBe(answered.length);
    expect(seen.walWrites, 'the commits were written to the -wal file').toBeGreaterThan(0);
    expect(seen.answers.filter((a) => a.unflushed > 0), 'answers sent with -wal writes not yet flushed').toEqual([]);

    const file = new Database(join(d, 'clinic-desk.sqlite'), { readonly: true });
    try {
      const present = answered.filter((id) => file.prepare('SELECT 1 FROM patients WHERE id = ?').get(id));
      expect(present).toEqual(answered);
    } finally {
      file.close();
    }
  });
});
