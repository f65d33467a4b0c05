/**
 * `npm run bench -- [part ...] [--quick]`: every benchmark of the project, each part in its own process, so one
 * that fails is reported and the others still run; then a summary table of the headline figures against their
 * targets. Parts, in this order by default: search, webhooks, chain, speech, eval, ui (bench/<part>.ts, each also
 * runnable alone as `npm run bench:<part>`, or `tsx bench/chain.ts`, with its own flags; chain is the chain on
 * PostgreSQL; eval is `npm run eval -- --spoken`, the structurer's accuracy and safety in the text, asr and spoken
 * modes). `--quick` is a smoke run: fewer patients, events, files, searches
 * and spoken dictations; its figures are noisier, and search's are on fewer patients.
 *
 * Each part compares against a baseline it measures in the same run, and writes bench/results/<part>.json; this
 * runner gathers their `figures` into bench/results/run-<date>.json (and run-latest.json) for comparisons.
 * A MISS is a figure, not a failure; the exit code is non-zero only when a part fails to run or its run is invalid.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT_WITH_PARENT, type Figure, RESULTS_DIR, ROOT, atExit, guardProcesses, track } from './common.js';

const PARTS = {
  search: { full: [], quick: ['--patients', '50000', '--duration', '2', '--rounds', '2', '--warmup', '2', '--latency-requests', '500'] },
  webhooks: { full: [], quick: ['--events', '300'] },
  // Needs a PostgreSQL (a throwaway cluster, or --database-url given to bench/chain.ts alone); its full seed of
  // 1,000,000 patients takes about 40 s here.
  chain: { full: [], quick: ['--patients', '50000', '--duration', '2', '--rounds', '1', '--latency-requests', '500', '--events', '300'] },
  speech: { full: [], quick: ['--files', '3', '--rtf-runs', '1'] },
  // Spoken transcripts are cached in bench/results/spoken-cache: a rerun with the same engine and model is quick.
  eval: { script: 'eval/run.ts', full: ['--spoken', '--bench'], quick: ['--spoken', '--bench', '--spoken-limit', '6'] },
  // --build: the bundle figures are of the source as it is now, not of whatever dist/ holds.
  ui: { full: ['--build'], quick: ['--build', '--runs', '10'] },
} as const;
type Part = keyof typeof PARTS;
const isPart = (s: string): s is Part => Object.hasOwn(PARTS, s);

interface PartRun { part: Part; args: string[]; exitCode: number | string; seconds: number; figures: Figure[] | null }

function runPart(part: Part, args: string[]): Promise<PartRun> {
  const started = Date.now();
  const resultFile = join(RESULTS_DIR, `${part}.json`);
  return new Promise((resolve) => {
    const script = (PARTS[part] as { script?: string }).script ?? join('bench', `${part}.ts`);
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', EXIT_WITH_PARENT, join(ROOT, script), ...args], { cwd: ROOT, stdio: 'inherit' });
    track(child);
    // Stopped from outside: the part stops its own processes (its signal handler) before this one exits.
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const unregister = atExit(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    });
    const done = (exitCode: number | string) => {
      unregister();
      // A results file from an earlier run must not pass for this one's.
      const fresh = existsSync(resultFile) && statSync(resultFile).mtimeMs >= started;
      const figures = fresh ? (JSON.parse(readFileSync(resultFile, 'utf8')) as { figures?: Figure[] }).figures ?? null : null;
      resolve({ part, args, exitCode, seconds: Math.round((Date.now() - started) / 100) / 10, figures });
    };
    child.once('error', (e) => done(e.message));
    child.once('exit', (code, signal) => done(code ?? signal ?? -1));
  });
}

function fmtValue(f: Figure) {
  if (f.value === null || !Number.isFinite(f.value)) return '-';
  const v = Math.abs(f.value) >= 100 ? Math.round(f.value).toLocaleString('en-US') : String(Math.round(f.value * 1000) / 1000);
  return f.unit ? `${v} ${f.unit}` : v;
}

function table(runs: PartRun[]) {
  const rows: string[][] = [['part', 'figure', 'value', 'target', 'result']];
  for (const r of runs) {
    const failed = r.exitCode !== 0;
    if (!r.figures) {
      rows.push([r.part, '(no figures)', '-', '-', `FAILED (exit ${r.exitCode})`]);
      continue;
    }
    for (const f of r.figures) {
      const target = f.target ? `${f.target.op} ${f.target.value}${f.unit ? ` ${f.unit}` : ''}` : '-';
      const verdict = f.pass === null ? 'reported' : f.pass ? 'PASS' : 'MISS';
      rows.push([r.part, f.figure, fmtValue(f), target, failed ? `${verdict}, INVALID (exit ${r.exitCode})` : verdict]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((c, i) => (i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

async function main() {
  guardProcesses();
  let parsed;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), options: { quick: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (e) {
    console.error(`bench: ${(e as Error).message}`);
    process.exit(2);
  }
  const { values, positionals } = parsed;
  const unknown = positionals.filter((p) => !isPart(p));
  if (values.help || unknown.length) {
    if (unknown.length) console.error(`bench: unknown part ${unknown.join(', ')}`);
    console.error(`usage: npm run bench -- [${Object.keys(PARTS).join('|')} ...] [--quick]`);
    process.exit(values.help ? 0 : 2);
  }
  const parts = positionals.length ? [...new Set(positionals as Part[])] : (Object.keys(PARTS) as Part[]);
  const started = new Date();
  const runs: PartRun[] = [];
  for (const part of parts) {
    const args = [...(values.quick ? PARTS[part].quick : PARTS[part].full)];
    console.log(`\n=== bench ${part}${args.length ? ` ${args.join(' ')}` : ''} ===`);
    const r = await runPart(part, args);
    runs.push(r);
    console.log(`=== ${part}: ${r.exitCode === 0 ? 'done' : `FAILED (exit ${r.exitCode})`} in ${r.seconds} s ===`);
  }

  console.log(`\nSummary${values.quick ? ' (--quick: smoke run, not for comparison with full runs)' : ''}:\n`);
  console.log(table(runs));
  const report = { date: started.toISOString(), quick: values.quick, seconds: Math.round((Date.now() - started.getTime()) / 1000), parts: runs };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const name = `run-${started.toISOString().replace(/[:.]/g, '-')}${values.quick ? '-quick' : ''}.json`;
  for (const file of [name, 'run-latest.json']) writeFileSync(join(RESULTS_DIR, file), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nall figures in bench/results/${name} (and run-latest.json), each part's details in bench/results/<part>.json; ${report.seconds} s`);
  const failed = runs.filter((r) => r.exitCode !== 0);
  if (failed.length) {
    console.log(`failed: ${failed.map((r) => `${r.part} (exit ${r.exitCode})`).join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
