/**
 * What the benchmark parts share: child servers, percentiles, and the results file each part writes for
 * `npm run bench` (bench/run.ts), whose summary table is built from the `figures` in those files.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
export const RESULTS_DIR = join(ROOT, 'bench', 'results');

/** One headline figure of a part: what the summary table shows. `target` null means reported, not judged. */
export interface Figure {
  figure: string;
  value: number | null;
  unit: string;
  target: { op: '<' | '<=' | '>=' | '>'; value: number } | null;
  pass: boolean | null;
}

export function figure(name: string, value: number | null, unit: string, target: Figure['target'] = null): Figure {
  let pass: boolean | null = null;
  if (target && value !== null && Number.isFinite(value)) {
    const t = target.value;
    pass = target.op === '<' ? value < t : target.op === '<=' ? value <= t : target.op === '>=' ? value >= t : value > t;
  } else if (target) pass = false;
  return { figure: name, value, unit, target, pass };
}

/** Writes bench/results/<part>.json: the part's own report, the machine, and its headline figures. */
export function writeResults(part: string, report: object, figures: Figure[]) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${part}.json`);
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? null, node: process.version, platform: process.platform };
  writeFileSync(file, `${JSON.stringify({ part, date: new Date().toISOString(), machine, figures, ...report }, null, 2)}\n`);
  return file;
}

export const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Nearest-rank percentiles of latencies in ms. */
export function summarise(samples: number[]) {
  const s = Float64Array.from(samples).sort();
  const at = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]! : NaN);
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : NaN;
  return { n: s.length, mean: round(mean), p50: round(at(50)), p90: round(at(90)), p99: round(at(99)), max: round(at(100)) };
}
export type Summary = ReturnType<typeof summarise>;

export interface Child { name: string; child: ChildProcess; baseUrl: string; output: () => string }

/**
 * A benchmark's processes end with it (issue 26, item 10), whatever ends it. Each one it starts loads
 * exit-with-parent.ts, which covers SIGKILL; `guardProcesses` covers the rest: on SIGINT, SIGTERM or SIGHUP, an
 * uncaught exception or an unhandled rejection, the part's cleanups run (stop its servers, drop its database), and
 * at exit whatever child is still running is killed.
 */
export const EXIT_WITH_PARENT = join(ROOT, 'bench', 'exit-with-parent.ts');
const running = new Set<ChildProcess>();
const cleanups = new Set<() => Promise<void>>();

/** Runs `fn` should the process end before the caller's own `finally` does; answers the function that unregisters it. */
export function atExit(fn: () => Promise<void>): () => void {
  cleanups.add(fn);
  return () => void cleanups.delete(fn);
}

/** Tracks a child this process started, so that it is killed at exit if nothing stopped it before. */
export function track(child: ChildProcess) {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

let guarded = false;
export function guardProcesses() {
  if (guarded) return;
  guarded = true;
  let ending = false;
  const end = async (code: number, why: string) => {
    if (ending) return;
    ending = true;
    console.error(`bench: ${why}; stopping what it started`);
    // A cleanup that hangs must not keep the processes alive: the exit handler below kills them.
    const giveUp = setTimeout(() => process.exit(code), 15_000);
    giveUp.unref();
    for (const fn of [...cleanups].reverse()) await fn().catch((e: unknown) => console.error(`bench: cleanup failed: ${String(e)}`));
    process.exit(code);
  };
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    process.on(signal, () => void end(code, `${signal} received`));
  }
  process.on('uncaughtException', (e) => void end(1, `uncaught ${e instanceof Error ? e.stack ?? e.message : String(e)}`));
  process.on('unhandledRejection', (e) => void end(1, `unhandled rejection ${e instanceof Error ? e.stack ?? e.message : String(e)}`));
  process.on('exit', () => {
    for (const c of running) c.kill('SIGKILL');
  });
}

/** A TypeScript entry point as a child process; resolves once it prints `listening on http://127.0.0.1:<port>`. */
export function startChild(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', EXIT_WITH_PARENT, ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      // Keep only the tail: the output is for error messages, and the pipes must keep draining.
      out = (out + chunk.toString()).slice(-20_000);
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ name, child, baseUrl: m[1]!, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening:\n${out}`));
    });
  });
}

export async function stopChild(c: Child) {
  if (c.child.exitCode !== null) return;
  const exited = new Promise<void>((res) => c.child.once('exit', () => res()));
  c.child.kill('SIGTERM');
  const timer = setTimeout(() => c.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
