import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyDemoForProcess } from '../helpers/demo-template.js';
import { ROOT, SERVE, type ServerProcess, call, exited, spawnServer, tempDir } from '../helpers/server.js';

/**
 * The scribe's upload limits and worker count are set where a clinic runs the service: `npm run serve` flags (or
 * their environment variables). The server is the real CLI in its own process; uploads go to its receiver.
 */

let dataDir: string;
let srv: ServerProcess;

beforeAll(async () => {
  dataDir = tempDir('scribe-flags');
  // The demo clinics, copied (helpers/demo-template.ts): what this test is about comes after them.
  await copyDemoForProcess(dataDir);
  srv = await spawnServer(['--data-dir', dataDir, '--demo', '--scribe-max-files', '1', '--scribe-workers', '1'],
    { CLINIC_DESK_SCRIBE_MAX_FILE_MB: '1' });
});

afterAll(async () => {
  srv?.child.kill('SIGTERM');
  if (srv) await exited(srv.child);
  rmSync(dataDir, { recursive: true, force: true });
});

async function upload(url: string, fields: Record<string, string>, name: string, bytes: number) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new File([new Uint8Array(bytes).fill(1)], name, { type: 'audio/wav' }));
  const res = await fetch(url, { method: 'POST', body: form });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

describe('serve --scribe-* flags', () => {
  it('limit bytes per file (from the environment) and files per transaction (from the flag)', async () => {
    const doctor = srv.demo().workspaces[0]!.users.doctor.auth_token;
    const p = await call(srv.baseUrl, 'POST', '/v1/file-upload?txn_id=flags-1&action=scribe-v2', { headers: { authorization: `Bearer ${doctor}` }, body: {} });
    expect(p.status).toBe(200);
    const fields = (name: string) => ({ ...p.json.uploadData.fields, key: `${p.json.folderPath}${name}` });
    const big = await upload(p.json.uploadData.url, fields('big.wav'), 'big.wav', 1.5 * 1024 * 1024);
    expect(big.status).toBe(413);
    expect(big.json).toEqual({ error: '"big.wav" is too large: an audio file may be at most 1 MiB', code: 'EntityTooLarge' });
    expect((await upload(p.json.uploadData.url, fields('a.wav'), 'a.wav', 1000)).status).toBe(204);
    const second = await upload(p.json.uploadData.url, fields('b.wav'), 'b.wav', 1000);
    expect(second.status).toBe(400);
    expect(second.json).toEqual({ error: 'A transaction takes at most 1 audio file; flags-1 already has 1', code: 'too_many_files' });
  });

  it('a value that is not a whole number of at least 1 stops the server with a message naming the flag', () => {
    for (const args of [['--scribe-max-files', '0'], ['--scribe-workers', 'two'], ['--scribe-max-transaction-mb', '1.5']]) {
      const r = spawnSync(process.execPath, [...SERVE, '--data-dir', join(dataDir, 'never'), '--port', '0', ...args], {
        cwd: ROOT, encoding: 'utf8', timeout: 30_000,
      });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${args[0]} must be a whole number of at least 1, not ${args[1]}`);
      expect(r.stdout).not.toMatch(/listening on/);
    }
  });
});
