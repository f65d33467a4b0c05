import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, SERVE, exited, tempDir } from '../helpers/server.js';

/**
 * Issue 26, item 1: `npm run serve` says ready only when it is. A real process with --demo and the sandbox is
 * polled on /health from its first answer: 503 naming what is still starting, never 200 before every part is up,
 * and the first 200 comes with the "listening on" line; /openapi.json then already lists the sandbox.
 */

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as AddressInfo;
    s.close(() => resolve(port));
  });
});

const dataDir = tempDir('readiness');
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child) {
    child.kill('SIGTERM');
    await exited(child);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('/health during start-up', () => {
  it('answers 503 naming what is starting until the demo, sandbox and scribe are up, then 200 with the listening line', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [...SERVE, '--data-dir', dataDir, '--port', String(port), '--demo', '--sandbox-port', '0'], {
      cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    const listening = () => out.includes(`clinic-desk listening on ${base}`);

    const answers: { status: number; body: any; lineSeen: boolean }[] = [];
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      try {
        // Whether the line was out before the request was sent: read after the answer, a 503 sent just before the
        // line could be read after its bytes (they come by another pipe) on a busy machine.
        const lineSeen = listening();
        const res = await fetch(`${base}/health`);
        const body = await res.json();
        answers.push({ status: res.status, body, lineSeen });
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      expect(child.exitCode, out).toBeNull();
      await new Promise((r) => setTimeout(r, 20));
    }
    const firstOk = answers.findIndex((a) => a.status === 200);
    expect(firstOk, out).toBeGreaterThanOrEqual(0);
    // Before the first 200, only 503s, each naming what is still starting (with --demo, the demo clinics at least).
    const before = answers.slice(0, firstOk);
    expect(before.length, 'the service answered while starting').toBeGreaterThan(0);
    for (const a of before) {
      expect(a.status).toBe(503);
      expect(a.body).toEqual({ status: 'starting', starting: expect.any(Array), version: expect.any(String) });
      expect(a.body.starting.length).toBeGreaterThan(0);
      for (const part of a.body.starting) expect(['database', 'workers', 'routes', 'demo', 'sandbox', 'scribe']).toContain(part);
    }
    expect(before[0]!.body.starting).toEqual(expect.arrayContaining(['demo', 'sandbox', 'scribe']));
    expect(answers[firstOk]!.body).toEqual({ status: 'ok', version: expect.any(String) });
    // The listening line was printed before the 200 was sent; its bytes reach this process by another pipe, so
    // they may be read a moment after the answer, never seconds.
    const sawOkAt = Date.now();
    while (!listening() && Date.now() - sawOkAt < 1000) await new Promise((r) => setTimeout(r, 10));
    expect(listening(), out).toBe(true);
    expect(before.every((a) => !a.lineSeen), 'no 503 after the listening line').toBe(true);

    // Everything the line promises is there at the first 200: the demo's credentials, the sandbox in the API document.
    const doc = await (await fetch(`${base}/openapi.json`)).json() as { servers: { url: string; 'x-environment': string }[] };
    expect(doc.servers.map((s) => s['x-environment'])).toEqual(['production', 'sandbox']);
    const sandboxUrl = doc.servers[1]!.url;
    expect(out).toContain(`sandbox:        ${sandboxUrl}/`);
    expect((await fetch(`${sandboxUrl}/health`)).status).toBe(200);
  }, 90_000);
});
