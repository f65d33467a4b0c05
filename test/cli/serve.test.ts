import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FLAGS } from '../../server/config.js';
import { has } from '../helpers/needs.js';
import { ROOT, SERVE, call, exited, spawnServer, tempDir } from '../helpers/server.js';

/** `npm run serve` (this run's bundle of it, as spawnServer runs it) as a new user meets it: --help, a busy port, the start-up lines, --demo --reset. */

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

describe('npm run serve', () => {
  it('--help prints every flag with its environment variable, and starts nothing', () => {
    const r = serve(['--help']);
    expect(r.status).toBe(0);
    for (const f of FLAGS) expect(r.stdout).toContain(`--${f.flag}`);
    expect(r.stdout).toMatch(/--port N\s+port to listen on .*\[CLINIC_DESK_PORT\]/);
    expect(r.stdout).toContain('--demo --reset');
  });

  it('says which flag to use when the port is busy', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = serve(['--port', String(port), '--data-dir', dir('busy')]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
      expect(r.stderr).toContain('--port N');
    } finally {
      blocker.close();
    }
  });

  it('refuses --reset without --demo, and an unknown flag, pointing at --help', () => {
    const reset = serve(['--reset', '--data-dir', dir('reset-alone')]);
    expect(reset.status).toBe(2);
    expect(reset.stderr).toContain('--reset only starts the demo afresh: use it with --demo');
    const unknown = serve(['--prot', '4810']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/--prot.*\(see --help\)/s);
  });

  it('starts with plain lines (the app, the reference, the demo sign-ins and where their passwords are), then --demo --reset starts afresh', async () => {
    const dataDir = dir('demo');
    const first = await spawnServer(['--data-dir', dataDir, '--demo']);
    const creds = first.demo();
    first.child.kill('SIGTERM');
    await exited(first.child);
    const lines = first.output().split('\n').filter(Boolean);
    const start = lines.findIndex((l) => l.startsWith('clinic-desk listening on'));
    // The block is the listening line and the indented ones under it, with no JSON log line among them.
    const end = lines.findIndex((l, i) => i > start && !l.startsWith('  '));
    const block = lines.slice(start, end);
    // Nine lines, then what the scribe can do: the whole, one line per speech engine, the decoder.
    const engines = block.filter((l) => l.startsWith('  speech engine:  '));
    expect(block.length).toBe(9 + 2 + engines.length);
    const sphinx = engines.find((l) => l.startsWith('  speech engine:  pocketsphinx:en-us+clinic-lm '))!;
    const decoder = block.find((l) => l.startsWith('  audio decoder:  ffmpeg '))!;
    if (has('pocketsphinx')) expect(sphinx).toMatch(/ ready: English \(India\), English \(US\)$/);
    else expect(sphinx).toMatch(/ NOT READY \(English \(India\), English \(US\) once ready\): .*\. Fix: ((sudo )?apt-get install -y pocketsphinx pocketsphinx-en-us espeak-ng|install PocketSphinx .* from this system's packages)$/);
    if (has('ffmpeg')) expect(decoder).toMatch(/ ready$/);
    else expect(decoder).toMatch(/ NOT READY: ffmpeg is not installed.*\. Fix: ((sudo )?apt-get install -y ffmpeg|install ffmpeg from this system's packages)$/);
    expect(block.find((l) => l.startsWith('  scribe:         '))).toMatch(
      has('pocketsphinx') && has('ffmpeg') ? /^  scribe: +transcribes English \(India\), English \(US\)/ : /^  scribe: +cannot transcribe yet: .*npm run setup/,
    );
    expect(block.join('\n')).toMatch(/sandbox: +http:\/\/127\.0\.0\.1:\d+\/ \(synthetic data/);
    expect(block.join('\n')).toContain(`app (browser):  ${first.baseUrl}/`);
    expect(block.join('\n')).toContain(`${creds.workspaces[0]!.name}: ${Object.values(creds.workspaces[0]!.users).map((u) => u.username).join(', ')}`);
    expect(block.join('\n')).toContain(`passwords, API keys and client secrets: ${join(dataDir, 'demo-credentials.json')}`);
    expect(first.output()).not.toContain('Server listening at');

    const again = await spawnServer(['--data-dir', dataDir, '--demo', '--reset']);
    try {
      const fresh = again.demo();
      expect(fresh.workspaces[0]!.api_key).not.toBe(creds.workspaces[0]!.api_key);
      // The old demo's tokens belonged to a database that is gone.
      const presign = (token: string) => call(again.baseUrl, 'POST', '/v1/file-upload?txn_id=reset-1&action=scribe-v2', { headers: { authorization: `Bearer ${token}` }, body: {} });
      expect((await presign(creds.workspaces[0]!.users.doctor.auth_token)).status).toBe(401);
      expect((await presign(fresh.workspaces[0]!.users.doctor.auth_token)).status).toBe(200);
    } finally {
      again.child.kill('SIGTERM');
      await exited(again.child);
    }
  });

  it('refuses --demo --reset where a clinic the demo did not create lives, and keeps its data', async () => {
    const dataDir = dir('real');
    const srv = await spawnServer(['--data-dir', dataDir]);
    const setup = await call(srv.baseUrl, 'POST', '/api/v1/setup', { body: { clinic_name: 'Real Clinic', admin: { username: 'owner', password: 'a long enough password' } } });
    expect(setup.status).toBe(201);
    srv.child.kill('SIGTERM');
    await exited(srv.child);
    const r = serve(['--data-dir', dataDir, '--demo', '--reset', '--port', '0']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--reset refused');
    expect(readFileSync(join(dataDir, 'clinic-desk.sqlite')).length).toBeGreaterThan(0);
  });
});
