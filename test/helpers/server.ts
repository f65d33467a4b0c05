import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, afterEach, inject } from 'vitest';
import { type DemoCredentials, ensureDemo } from '../../server/demo/demo.js';
import { type HttpOptions, buildHttpApp } from '../../server/http/app.js';
import { createService, type Service, type ServiceOptions } from '../../server/service.js';
import type { Clock } from '../../server/shared/time.js';
import { copyDemo, demoCopyFits } from './demo-template.js';
import { type TestDatabase, freshPostgresDatabase } from './postgres.js';
import { linkSpeechModelInto } from './speech-model.js';

export const ROOT = resolve(import.meta.dirname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    serveEntry: string;
  }
}

/**
 * The node arguments that run `npm run serve`: this run's bundle of it (test/helpers/serve-bundle-global-setup.ts),
 * or the sources under tsx where the setup did not run (a test started outside vitest.config.ts).
 */
export const SERVE: string[] = inject('serveEntry') ? [inject('serveEntry')] : ['--import', 'tsx', join(ROOT, 'server/cli/serve.ts')];

/**
 * The scribe worker of the services tests start in this process: the one built beside this run's serve bundle, or
 * the runner's default (worker.ts under tsx) where the setup did not run. A worker process is started for every
 * session, and the bundle's is ready in about 3 s where worker.ts under tsx takes about 5.
 * test/scribe/worker-launch.test.ts runs worker.ts under tsx.
 */
export const SCRIBE_WORKER: string | undefined = inject('serveEntry') ? join(dirname(inject('serveEntry')), 'scribe-worker.mjs') : undefined;

/** A scribe worker's command line: the sources' worker, or the one built beside a bundle. */
export const SCRIBE_WORKER_COMMAND = /scribe\/pipeline\/worker|scribe-worker\.mjs/;

export const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `clinic-desk-${name}-`));

/**
 * The key-encryption key of the services tests start in this process, given as the desktop app gives its own: a
 * service left to find its key would keep it in its data folder and warn so at every start, hundreds of times a run.
 * A test restarting a service on the same folder passes it again.
 */
export const TEST_KEK = randomBytes(32);

export interface RunningServer {
  baseUrl: string;
  service: Service;
  demo: DemoCredentials;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real service and HTTP app, in this process, on a loopback port, over a fresh SQLite file (or, with `database`
 * postgres, a fresh PostgreSQL database: suites run on both through DATABASES), with the two demo clinics. Tests
 * speak HTTP to `baseUrl`. `speechModel`: for a test that dictates, the run's PocketSphinx model already in the data
 * folder (helpers/speech-model.ts).
 */
export async function startServer(opts: {
  clock?: Clock; dataDir?: string; http?: HttpOptions; database?: TestDatabase; kek?: Buffer | null; appointments?: ServiceOptions['appointments'];
  reminders?: ServiceOptions['reminders']; speechModel?: boolean;
} = {}): Promise<RunningServer> {
  const dataDir = opts.dataDir ?? tempDir('srv');
  const database = opts.database?.name ?? 'sqlite';
  // The demo clinics below are usually a copy (helpers/demo-template.ts): making them costs seconds of scrypt.
  const pg = demoCopyFits(dataDir, opts) ? await copyDemo(dataDir, database)
    : database === 'postgres' ? await freshPostgresDatabase('srv') : null;
  if (opts.speechModel) await linkSpeechModelInto(dataDir);
  // kek null: the service keeps its key as headless does (<dataDir>/master.key), for a suite about that file or a CLI reading it.
  const service = await createService({
    dataDir, clock: opts.clock, databaseUrl: pg?.url, kek: opts.kek === null ? undefined : opts.kek ?? TEST_KEK,
    // The suites book on fixed far-future days (2030–2033, clear of today's queue), so their servers take bookings a
    // century ahead unless a test asks for the service's own horizon (`appointments: {}`) or another.
    appointments: opts.appointments ?? { horizonDays: 36_500 },
    reminders: opts.reminders,
    scribe: { workerEntry: SCRIBE_WORKER },
  });
  const app = await buildHttpApp(service, opts.http);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const demo = (await ensureDemo(service, baseUrl))!;
  return {
    baseUrl, service, demo, dataDir,
    async close() {
      await app.close();
      await service.close();
      await pg?.drop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  demo: () => DemoCredentials;
}

/**
 * `npm run serve` as a separate process (for signal and crash tests); resolves once it prints its address, or
 * once its output matches `ready` (a `--workers-only` process listens nowhere).
 */
export function spawnServer(args: string[], env: NodeJS.ProcessEnv = {}, ready = /listening on (http:\/\/127\.0\.0\.1:\d+)/): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...SERVE, '--port', '0', ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        const dataDir = args[args.indexOf('--data-dir') + 1]!;
        resolvePromise({
          child, baseUrl: m[1] ?? '', output: () => out,
          demo: () => JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials,
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${out}`));
    });
  });
}

/** Resolves with the exit code (or signal) of a child process. */
export const exited = (child: ChildProcess) =>
  new Promise<number | string>((res) => {
    if (child.exitCode !== null || child.signalCode !== null) return res(child.exitCode ?? child.signalCode!);
    child.once('exit', (code, signal) => res(code ?? signal ?? -1));
  });

/** fetch with JSON in and out, returning status, headers and the parsed (or raw) body. */
export async function call(baseUrl: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/**
 * The child servers and folders of a test file that kills servers: every child still running is killed with SIGKILL
 * after each test (or once at the end, `perTest: false`, where the tests of a file share a server), and the folders
 * are removed at the end.
 */
export function startedByTests(opts: { perTest?: boolean } = {}): { children: Set<ChildProcess>; dirs: string[] } {
  const children = new Set<ChildProcess>();
  const dirs: string[] = [];
  const killAll = async (): Promise<void> => {
    for (const c of children) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGKILL');
        await exited(c);
      }
    }
    children.clear();
  };
  if (opts.perTest ?? true) afterEach(killAll);
  afterAll(async () => {
    await killAll();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return { children, dirs };
}
