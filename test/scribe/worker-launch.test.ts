import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, afterEach, expect, it } from 'vitest';
import { ScribeClient } from '../../sdk/scribe-client.js';
import { buildMcpServer } from '../../server/mcp/server.js';
import type { ParentMessage, WorkerMessage } from '../../server/scribe/pipeline/job.js';
import type { LaunchWorker } from '../../server/scribe/pipeline/runner.js';
import { missing } from '../helpers/needs.js';
import { ROOT, exited, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, speak, startScribeServer, until } from '../helpers/scribe.js';

/**
 * The runner with a launcher of its own, as the desktop app gives it (main/worker-launch.ts over Electron's
 * utilityProcess, which the RunAsNode fuse makes necessary): the worker is not a process-group leader, it speaks
 * over process.parentPort, and it is ended with SIGTERM. Here a real child process plays the utility process
 * (test/fixtures/parent-port-worker.mjs around the real worker.ts), so the worker's parentPort path runs for real;
 * its process.send path runs in every other scribe test (the default launcher, child_process.fork).
 */

const SHIM = join(import.meta.dirname, '../fixtures', 'parent-port-worker.mjs');
/** worker.ts under tsx, as `npm run serve` from the sources starts it: the other tests' services run the bundled worker. */
const SOURCE_WORKER = join(ROOT, 'server/scribe/pipeline/worker.ts');

interface Launched {
  child: ChildProcess;
  /** Types of the messages the worker posted through its parentPort, in order. */
  posted: string[];
  /** Messages that reached the parent some other way (process.send): none may. */
  stray: unknown[];
  /** The mode of the run's work folder when the job was sent. */
  workDirMode?: number;
  workDir?: string;
}

const launched: Launched[] = [];

/**
 * Like main/worker-launch.ts: no process group of its own, messages through the port, kill() sends SIGTERM.
 * `extraEnv` is added to the environment the runner gives.
 */
const viaParentPort = (extraEnv: NodeJS.ProcessEnv = {}): LaunchWorker => (entry, { env, execArgv, stdio }) => {
  const child = fork(SHIM, [entry], { env: { ...env, ...extraEnv }, execArgv, stdio: [...stdio, 'ipc'], serialization: 'json' });
  const run: Launched = { child, posted: [], stray: [] };
  launched.push(run);
  const events = new EventEmitter();
  child.on('message', (m: { viaParentPort?: WorkerMessage }) => {
    if (!m.viaParentPort) return void run.stray.push(m);
    run.posted.push(m.viaParentPort.type);
    events.emit('message', m.viaParentPort);
  });
  child.on('error', (e) => events.emit('error', e));
  // 'exit' as a utility process reports it: nothing guarantees the worker's last messages came first.
  child.on('exit', (code, signal) => events.emit('exit', code, signal));
  return {
    get pid() {
      return child.pid;
    },
    stderr: child.stderr,
    send(message: ParentMessage) {
      run.workDir = message.job.workDir;
      run.workDirMode = statSync(message.job.workDir).mode & 0o777;
      child.send({ toParentPort: message });
    },
    kill: () => void child.kill('SIGTERM'),
    on(event: string, listener: Parameters<EventEmitter['on']>[1]) {
      events.on(event, listener);
      return this;
    },
  };
};

/** Child processes of `pid` whose name matches `name`. */
function childrenNamed(pid: number, name: string): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid), name], { encoding: 'utf8' }).trim().split('\n').map(Number);
  } catch {
    return [];
  }
}

/** Whether `pid` is a live process (a zombie waiting to be reaped is not). */
function alive(pid: number): boolean {
  try {
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim().startsWith('Z');
  } catch {
    return false;
  }
}

let srv: ScribeServer | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await srv?.close();
  srv = null;
  for (const { child } of launched.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
  }
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function dictate(text: string, txnId: string, extraEnv?: NodeJS.ProcessEnv) {
  const audioDir = tempDir('worker-launch-audio');
  dirs.push(audioDir);
  const wav = speak(audioDir, `${txnId}.wav`, text, 'en-us', 170);
  srv = await startScribeServer({ speechModel: true, push: { sender: false }, scribe: { launchWorker: viaParentPort(extraEnv), workerEntry: SOURCE_WORKER, pollIntervalMs: 200 } });
  const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: srv.demo.workspaces[0]!.users.doctor.auth_token });
  await client.upload([wav], {
    txnId, action: 'ekascribe-v2', extraData: { mode: 'dictation', model_type: 'lite' },
    outputFormat: { input_language: ['en-IN'], output_template: [{ template_id: 'transcript_template' }] },
  });
  return client;
}

// Each test transcribes speech that espeak-ng makes, through ffmpeg and PocketSphinx.
const skip = skipFor(missing('espeak-ng', 'pocketsphinx', 'ffmpeg'));

it('a worker speaking over parentPort runs a dictation to the end, in a work folder only its user can open', { ...skip, timeout: 90_000 }, async () => {
  const client = await dictate('Fever for three days. Start paracetamol five hundred milligrams three times daily.', 'port-001');
  const done = await client.waitForSession('port-001', { intervalMs: 200, timeoutMs: 60_000 });
  expect(done.httpStatus).toBe(200);
  expect(done.data.output.map((o) => [o.template_id, o.status])).toEqual([['transcript_template', 'success']]);
  expect((done.data.output[0]!.decoded as { text: string }).text).toMatch(/paracetamol/i);

  expect(launched).toHaveLength(1);
  const [run] = launched;
  expect(run!.stray).toEqual([]);
  expect(run!.posted[0]).toBe('ready');
  expect(run!.posted).toContain('progress');
  expect(run!.posted).toContain('transcript');
  expect(run!.posted.at(-1)).toBe('done');
  expect(run!.workDirMode).toBe(0o700);
  // The runner ended the worker once its result was in, and its work folder is gone.
  await exited(run!.child);
  expect(existsSync(run!.workDir!)).toBe(false);
});

it('SIGTERM ends what the worker started, though the worker leads no process group', { ...skip, timeout: 90_000 }, async () => {
  // A decoder that hangs (as ffmpeg might on a strange file) and, writing nothing, would never die of a closed pipe.
  const binDir = tempDir('worker-launch-bin');
  dirs.push(binDir);
  const hanging = join(binDir, 'ffmpeg');
  writeFileSync(hanging, '#!/bin/sh\nexec sleep 300\n', { mode: 0o755 });
  const client = await dictate('Fever for three days.', 'port-002', { CLINIC_DESK_FFMPEG: hanging });
  await until(async () => (await client.getSessionStatus('port-002')).data.additional_data.status === 'processing', 'processing', 30_000, 50);
  const worker = launched[0]!.child;
  const [decoder] = await until(() => {
    const found = childrenNamed(worker.pid!, 'sleep');
    return found.length ? found : null;
  }, 'the decoder process', 30_000, 50);
  expect(alive(decoder!)).toBe(true);

  // Stopping the service stops its runner, which ends each worker through the launcher: SIGTERM here.
  await srv!.close();
  srv = null;
  expect(await exited(worker)).toBe(1);
  await until(() => !alive(decoder!), 'the decoder to end', 2_000, 50);
});

it('audio handed to an assistant tool is stored 0600 from its first byte', skip, async () => {
  srv = await startScribeServer({ push: { sender: false }, scribe: { worker: false } });
  const audioDir = tempDir('worker-launch-audio');
  dirs.push(audioDir);
  const wav = speak(audioDir, 'assistant.wav', 'Fever for three days.');
  // The tools bound to the demo doctor over the SDK's in-memory transport, as test/patients/mobile.test.ts does:
  // the OAuth flow that gives an assistant its /mcp token is test/mcp/mcp.test.ts's subject, and needs a browser.
  const caller = (await srv.service.auth.authenticateToken(srv.demo.workspaces[0]!.users.doctor.auth_token))!;
  const server = buildMcpServer({ service: srv.service, ctx: { caller, ip: null, requestId: 'worker-launch-test' } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'scribe-worker-launch-test', version: '1.0.0' });
  await client.connect(b);
  try {
    const res = await client.callTool({ name: 'start_scribe_session', arguments: { audio: wav, session_id: 'mcp-001', model_type: 'lite' } });
    expect(res.isError, JSON.stringify(res)).toBeFalsy();
  } finally {
    await client.close();
  }
  const stored = srv.service.db.prepare(`SELECT s.id, f.stored_name FROM scribe_sessions s JOIN scribe_files f ON f.session_id = s.id
    WHERE s.txn_id = 'mcp-001' AND f.kind = 'audio'`).get() as { id: string; stored_name: string };
  expect(statSync(join(srv.dataDir, 'scribe', stored.id, stored.stored_name)).mode & 0o777).toBe(0o600);
});
