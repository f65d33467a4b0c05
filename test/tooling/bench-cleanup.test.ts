import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/server.js';

/**
 * Issue 26, item 10: `npm run bench` ends every process it started whatever ends it. The webhooks part is started
 * small; its server's pid is read from its output.
 */

const started: ChildProcess[] = [];
// A bench killed with SIGKILL cannot remove its data directory (its processes still end): the test does.
const dataDirs: string[] = [];
afterAll(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dataDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Alive and not a zombie (a process whose parent died is reaped by init, or by nobody in some containers). */
function running(pid: number) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs: number) {
  const end = Date.now() + withinMs;
  while (running(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  return !running(pid);
}

/** bench/webhooks.ts, small; resolves with its server's pid once that is listening. */
function webhooksBench() {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/webhooks.ts'), '--events', '10', '--appointments', '4', '--drivers', '2'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  const exit = new Promise<{ code: number | null; signal: string | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  const serverPid = new Promise<number>((resolve, reject) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /server pid (\d+), data (\S+)/.exec(out);
      if (m) {
        dataDirs.push(m[2]!);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exit.then(() => reject(new Error(`the bench ended before its server started:\n${out}`)));
  });
  // Awaited by its test; until then a failure to start is held for it, not an unhandled rejection.
  serverPid.catch(() => undefined);
  return { child, serverPid, exit, output: () => out };
}

describe('npm run bench ends what it started', () => {
  // Each test ends a bench of its own; starting one takes about 10 s (its server under tsx), so both start together.
  let benches: Record<'killed' | 'stopped', ReturnType<typeof webhooksBench>>;
  beforeAll(() => {
    benches = { killed: webhooksBench(), stopped: webhooksBench() };
  });

  it('killed with SIGKILL mid-run, it leaves no server behind', async () => {
    const b = benches.killed;
    const pid = await b.serverPid;
    expect(running(pid)).toBe(true);
    b.child.kill('SIGKILL');
    await b.exit;
    expect(await gone(pid, 15_000), `server ${pid} still running after its bench was killed`).toBe(true);
  });

  it('stopped with SIGTERM, it stops its server and exits 143', async () => {
    const b = benches.stopped;
    const pid = await b.serverPid;
    b.child.kill('SIGTERM');
    expect(await b.exit).toEqual({ code: 143, signal: null });
    expect(await gone(pid, 5000)).toBe(true);
    expect(b.output()).toMatch(/SIGTERM received; stopping what it started/);
  });
});
