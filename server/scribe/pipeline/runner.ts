import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDatabaseUnavailable } from '../../db/sql.js';
import { type Executor, transaction } from '../../db/tx.js';
import { type Loop, startLoop } from '../../shared/loop.js';
import { PRIVATE_DIR_MODE } from '../../shared/private-files.js';
import type { Clock } from '../../shared/time.js';
import type { Transcript } from '../contracts.js';
import type { JobResult, JobSpec, ParentMessage, SessionRequest, SpeechSettings, WorkerMessage } from './job.js';
import { type ScribeStore, type SessionRow, scribeStore } from '../store.js';

export interface RunnerOptions {
  /** Sessions processed at once, each in its own worker process. Default 1 (recognition uses a whole core). */
  concurrency?: number;
  /** Runs of a session in all, the first included; a run that crashes, hangs or errors is retried until then. Default 3. */
  maxAttempts?: number;
  /** Delay before the second run; doubles for each further one. Default 5 s. */
  retryDelayMs?: number;
  /** A claimed session is this runner's for this long, renewed while its worker lives. Default 60 s. */
  leaseMs?: number;
  /** A run taking longer is killed and counts as failed. Default 60 min. */
  jobTimeoutMs?: number;
  /** How often the table is looked at when nothing wakes the runner. Default 2 s. */
  pollIntervalMs?: number;
  /** The worker's entry module (worker.ts from source, run through tsx; a bundled build passes its .mjs). */
  workerEntry?: string;
  /**
   * Starts a worker process. Default: child_process.fork (headless Node). The desktop app passes an Electron
   * utility process (main/worker-launch.ts): with the RunAsNode fuse off, a fork from Electron would start the app.
   */
  launchWorker?: LaunchWorker;
  /** Speech engine settings passed to every worker (Whisper model choice, PocketSphinx options). */
  speech?: SpeechSettings;
  /**
   * The default speech model of a clinic, asked as each run starts (the worker never opens the database), so a
   * choice made in the settings reaches the next session without a restart.
   */
  defaultModel?: (workspaceId: string) => Promise<string | undefined>;
  /** Fault injection for tests and drills: the renderers of these templates fail (the session ends partial, 206). */
  failTemplates?: string[];
  onError?: (e: unknown) => void;
}

/** How the runner starts a worker: it reads stderr only; messages go over the launcher's own channel. */
export interface LaunchOptions {
  env: NodeJS.ProcessEnv;
  execArgv: string[];
  /** stdin, stdout, stderr. */
  stdio: ['ignore', 'ignore', 'pipe'];
}

/** A worker process as the runner sees it, whatever started it. */
export interface WorkerProcess {
  /** Undefined until the process has started. */
  readonly pid: number | undefined;
  /** Its stderr, whose last line says why it died. */
  readonly stderr: NodeJS.ReadableStream | null;
  send(message: ParentMessage): void;
  /**
   * Ends it and what it started (ffmpeg, the recogniser). Also called once the worker's final message ('done' or
   * 'error') has arrived: a worker whose channel cannot confirm delivery waits for this rather than exit first.
   */
  kill(): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** After the process has ended. */
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

export type LaunchWorker = (entry: string, opts: LaunchOptions) => WorkerProcess;

/**
 * The default launcher: a Node child process leading its own process group, so a kill reaches ffmpeg and the
 * recogniser it started too.
 */
const forkWorker: LaunchWorker = (entry, { env, execArgv, stdio }) => {
  const child = fork(entry, [], { execArgv, detached: true, stdio: [...stdio, 'ipc'], serialization: 'json', env });
  const events = new EventEmitter();
  child.on('message', (m) => events.emit('message', m));
  child.on('error', (e) => events.emit('error', e));
  // 'close', not 'exit': it comes after the IPC channel has delivered everything the worker sent.
  child.on('close', (code, signal) => events.emit('exit', code, signal));
  return {
    get pid() {
      return child.pid;
    },
    stderr: child.stderr,
    send: (message) => void child.send(message),
    kill: () => killGroup(child),
    on(event: string, listener: Parameters<EventEmitter['on']>[1]) {
      events.on(event, listener);
      return this;
    },
  };
};

function killGroup(child: ChildProcess) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

interface Deps {
  db: Executor;
  store: ScribeStore;
  clock: Clock;
  dataDir: string;
  /** Where a session's files live: <data-dir>/scribe/<session id>. */
  sessionDir: (sessionId: string) => string;
  /** Records the outcome (status, output, events, push) in one transaction; false if the run was no longer ours. */
  finish: (session: SessionRow, owner: string, result: JobResult) => Promise<boolean>;
}

interface Running {
  child: WorkerProcess;
  job: JobSpec;
  sessionId: string;
  timer: NodeJS.Timeout;
  stderr: string;
  outcome: 'pending' | 'done' | 'error';
  error: string | null;
}

/**
 * The worker from source (worker.ts beside this file, run through tsx), or, in a bundle where this code sits in
 * e.g. dist/main/main.mjs, a `scribe-worker.mjs` built beside the bundle.
 */
const SOURCE_ENTRY = fileURLToPath(new URL('./worker.ts', import.meta.url));
const DEFAULT_ENTRY = existsSync(SOURCE_ENTRY) ? SOURCE_ENTRY : fileURLToPath(new URL('./scribe-worker.mjs', import.meta.url));

/** The tsx loader for a worker started from TypeScript source. */
function tsxImport(): string {
  const require = createRequire(import.meta.url);
  return pathToFileURL(require.resolve('tsx')).href;
}

/**
 * The scribe's job runner, in the service process. Sessions are rows (scribe_sessions); this loop claims due ones
 * with a lease and runs each in a worker child process (worker.ts), never on a request's path. The worker reports
 * progress, the transcript (a checkpoint a retry resumes from) and the result over IPC; the runner writes them.
 *
 * Crashes: a worker that dies, hangs past the job timeout or reports an error is retried with backoff until
 * maxAttempts runs, then the session fails saying why. If the whole service dies (kill -9, power loss), its runs
 * stay `processing` under its boot id; on SQLite the next start releases them at once (one service per data
 * directory), on PostgreSQL any instance claims them once their lease has run out; they run again, resuming after
 * recognition when the transcript was already checkpointed.
 */
export function scribeRunner(deps: Deps, opts: RunnerOptions = {}) {
  const { db, store, clock } = deps;
  const concurrency = Math.max(1, opts.concurrency ?? 1);
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 3);
  const retryDelayMs = opts.retryDelayMs ?? 5_000;
  const leaseMs = opts.leaseMs ?? 60_000;
  const jobTimeoutMs = opts.jobTimeoutMs ?? 60 * 60_000;
  const entry = opts.workerEntry ?? DEFAULT_ENTRY;
  const launchWorker = opts.launchWorker ?? forkWorker;
  const onError = opts.onError ?? ((e: unknown) => console.error('clinic-desk scribe runner:', e instanceof Error ? e.message : e));
  const owner = randomUUID();
  const running = new Map<string, Running>();
  let loop: Loop | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let stopped = false;
  let starting: Promise<void> = Promise.resolve();
  // What a failure (the database's, mostly: a terminated session on PostgreSQL) left undone, settled at the next tick
  // rather than left `processing` under this runner with nobody running it until the lease runs out:
  // - `unwritten`: the outcome of a run that ended (a result, or a failed run to retry or fail), written again;
  // - `unsure`: a claim, give-back or write failed in a way that may leave sessions processing under this runner
  //   but neither running nor being written (the claim's commit made though its answer was lost): the next tick
  //   gives back those it finds, uncounted.
  const unwritten = new Map<string, () => Promise<unknown>>();
  const writing = new Set<string>();
  let unsure = false;

  const iso = (ms: number) => new Date(ms).toISOString();
  const usable = () => !stopped && db.open;

  async function jobFor(s: SessionRow): Promise<JobSpec> {
    const dir = deps.sessionDir(s.id);
    const files = (await store.files(s.id)).filter((f) => f.kind === 'audio').map((f) => ({ name: f.name, path: join(dir, f.stored_name) }));
    return {
      sessionId: s.id,
      txnId: s.txn_id,
      files,
      workDir: join(dir, 'work'),
      request: JSON.parse(s.request ?? '{}') as SessionRequest,
      transcript: s.checkpoint ? (JSON.parse(s.checkpoint) as Transcript) : null,
      dataDir: deps.dataDir,
      speech: { ...opts.speech, defaultModel: (await opts.defaultModel?.(s.workspace_id)) ?? opts.speech?.defaultModel },
      failTemplates: opts.failTemplates ?? [],
    };
  }

  /** A run ended without a result: retry later, or fail the session once it has had its runs. */
  async function failedRun(sessionId: string, why: string) {
    if (!usable()) return;
    const s = await store.sessionById(sessionId);
    if (!s || s.status !== 'processing' || s.lease_owner !== owner) return;
    const nowMs = clock.now().getTime();
    if (s.attempts >= maxAttempts) {
      await deps.finish(s, owner, { status: 'failed', errors: [`Processing failed after ${s.attempts} attempts: ${why}`], output: [] });
      return;
    }
    await store.retry({
      id: s.id, owner, now: iso(nowMs), last_error: why, next_attempt_at: iso(nowMs + retryDelayMs * 2 ** Math.max(0, s.attempts - 1)),
    });
  }

  /** Writes the outcome of a run; if the database fails, it is kept and written again at the next tick. */
  async function write(sessionId: string, w: () => Promise<unknown>) {
    unwritten.set(sessionId, w);
    writing.add(sessionId);
    try {
      await w();
      unwritten.delete(sessionId);
    } catch (e) {
      if (!isDatabaseUnavailable(e)) {
        unwritten.delete(sessionId);
        unsure = true;
      }
      throw e;
    } finally {
      writing.delete(sessionId);
    }
  }

  /** What earlier failures left (see `unwritten`, `unsure`). */
  async function settle() {
    for (const [id, w] of [...unwritten]) {
      if (!usable()) return;
      if (!writing.has(id)) await write(id, w).catch(onError);
    }
    if (!unsure || !usable()) return;
    const now = iso(clock.now().getTime());
    for (const id of await store.mine(owner)) {
      if (!running.has(id) && !unwritten.has(id) && !writing.has(id) && usable()) await store.giveBack(id, owner, now);
    }
    unsure = false;
  }

  async function onMessage(run: Running, msg: WorkerMessage) {
    if (!usable()) return;
    const now = iso(clock.now().getTime());
    switch (msg.type) {
      case 'ready':
        run.child.send({ type: 'run', job: run.job } satisfies ParentMessage);
        return;
      case 'progress':
        await store.progress(run.sessionId, owner, String(msg.stage).slice(0, 40), Math.max(0, Math.min(100, Math.round(msg.percent))), now);
        return;
      case 'transcript':
        await store.checkpoint(run.sessionId, owner, JSON.stringify(msg.transcript), now);
        return;
      case 'done': {
        run.outcome = 'done';
        const { result } = msg;
        try {
          await write(run.sessionId, async () => {
            const s = await store.sessionById(run.sessionId);
            if (s && s.status === 'processing' && s.lease_owner === owner) await deps.finish(s, owner, result);
          });
        } finally {
          run.child.kill();
        }
        return;
      }
      case 'error':
        run.outcome = 'error';
        run.error = String(msg.message).slice(0, 1000);
        run.child.kill();
    }
  }

  async function launch(s: SessionRow) {
    const job = await jobFor(s);
    mkdirSync(job.workDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const child = launchWorker(entry, {
      env: process.env,
      execArgv: entry.endsWith('.ts') ? ['--import', tsxImport()] : [],
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const run: Running = {
      child, job, sessionId: s.id, stderr: '', outcome: 'pending', error: null,
      timer: setTimeout(() => {
        run.error = `the run took longer than ${Math.round(jobTimeoutMs / 1000)} s and was stopped`;
        child.kill();
      }, jobTimeoutMs),
    };
    run.timer.unref();
    running.set(s.id, run);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => {
      run.stderr = (run.stderr + d).slice(-4000);
    });
    child.on('message', (m) => {
      onMessage(run, m as WorkerMessage).catch(onError);
    });
    child.on('error', (e) => {
      run.error ??= `the worker could not be started: ${e.message}`;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(run.timer);
      running.delete(s.id);
      if (!stopped) rmSync(job.workDir, { recursive: true, force: true });
      if (run.outcome !== 'done') {
        const lastLine = run.stderr.trim().split('\n').at(-1)?.slice(0, 300);
        const why = run.error
          ?? `the worker exited (${signal ? `signal ${signal}` : `code ${code}`})${lastLine ? `: ${lastLine}` : ''}`;
        write(s.id, () => failedRun(s.id, why)).catch(onError).finally(() => loop?.wake());
        return;
      }
      loop?.wake();
    });
  }

  async function tick() {
    if (!usable()) return;
    if (unwritten.size || unsure) await settle();
    const free = concurrency - running.size;
    if (free <= 0) return;
    const nowMs = clock.now().getTime();
    // One statement claims them all (on PostgreSQL passing over sessions another instance is claiming right now);
    // a session this runner still runs is not taken again, even when its lease ran out.
    let claimed: SessionRow[];
    try {
      claimed = await store.claimDue({
        owner, now: iso(nowMs), leaseUntil: iso(nowMs + leaseMs), limit: free, exclude: [...running.keys(), ...unwritten.keys()],
      });
    } catch (e) {
      unsure = true;
      throw e;
    }
    for (const s of claimed) {
      try {
        if (stopped) {
          // stop() began while these were being claimed: they go back at once rather than wait for their lease.
          if (db.open) await store.giveBack(s.id, owner, iso(nowMs));
          continue;
        }
        try {
          await launch(s);
        } catch (e) {
          // The database failing (reading the session's files, its clinic's model) is no failed run of the session.
          if (isDatabaseUnavailable(e)) await store.giveBack(s.id, owner, iso(nowMs));
          else await write(s.id, () => failedRun(s.id, `the worker could not be started: ${e instanceof Error ? e.message : String(e)}`));
        }
      } catch (e) {
        // The others claimed with it are still started or given back; this one is given back at the next tick.
        unsure = true;
        onError(e);
      }
    }
  }

  async function renew() {
    if (!usable()) return;
    const nowMs = clock.now().getTime();
    for (const id of [...running.keys(), ...unwritten.keys()]) await store.renew(id, owner, iso(nowMs), iso(nowMs + leaseMs));
  }

  return {
    /** This instance's id, the lease owner of the runs it makes. */
    owner,
    start() {
      if (loop) return;
      stopped = false;
      const now = iso(clock.now().getTime());
      heartbeat = setInterval(() => void renew().catch(onError), Math.max(1000, Math.floor(leaseMs / 4)));
      heartbeat.unref();
      // On SQLite (one service per data directory) runs of an earlier instance of the service (killed, crashed) are
      // nobody's now: they are released, and the loop starts once they are, so its first tick claims them again.
      // On PostgreSQL several instances share the table and a run under another owner may be a live instance's:
      // releasing it would steal that work and run the session twice at once. There only the lease frees a run,
      // once its owner stopped renewing it (killed, crashed, cut off) for leaseMs.
      const releasing = db.dialect === 'postgres'
        ? Promise.resolve()
        : transaction(db, async (tx) => {
          const inTx = scribeStore(tx);
          for (const id of await inTx.orphans(owner)) await inTx.release(id, owner, now);
        });
      starting = releasing.catch(onError).then(() => {
        if (!stopped) loop = startLoop({ intervalMs: opts.pollIntervalMs ?? 2_000, tick, onError });
      });
    },
    /** A session was queued: look now rather than at the next poll. */
    wake: () => loop?.wake(),
    /** Sessions being processed by this instance right now. */
    active: () => [...running.keys()],
    /**
     * Stops: no new claims; workers are killed; their sessions go back to the queue without counting the
     * interrupted run (a shutdown is not the session's fault). Nothing touches the database after it resolves.
     */
    async stop() {
      if (stopped) return;
      stopped = true;
      if (heartbeat) clearInterval(heartbeat);
      await starting;
      const ticking = loop?.stop();
      loop = null;
      const now = iso(clock.now().getTime());
      const interrupted = [...running.values()];
      running.clear();
      for (const run of interrupted) {
        clearTimeout(run.timer);
        run.child.kill();
        if (db.open) await store.giveBack(run.sessionId, owner, now);
      }
      await ticking;
      // Outcomes a failure left unwritten go back to the queue too, rather than wait out their lease.
      for (const id of [...unwritten.keys()]) {
        unwritten.delete(id);
        if (db.open) await store.giveBack(id, owner, now).catch(onError);
      }
    },
  };
}
export type ScribeRunner = ReturnType<typeof scribeRunner>;
