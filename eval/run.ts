/**
 * `npm run eval -- [--suite own|real|real-asr] [--fixtures A.jsonl[,B.jsonl]] [--split all|dev|holdout]
 *                  [--mode text|asr|unlabelled|spoken] [--spoken] [--spoken-limit N] [--per-dictation] [--explain ID] [--json] [--bench]`
 *
 * Runs the structurer and the service_emr_template on each fixture set (SUITES: our own 80 dictations, the 45 real
 * cases, the real recogniser's output of 15 of them; each held to its own targets; the real ones also reported on our
 * dev and held-out splits, eval/splits.json) and scores it per field, in three modes side by side:
 *   text    the transcript as written;
 *   asr     the same transcript as a recogniser gives it (asr-form.ts: lower case, no punctuation, numbers as words);
 *   unlabelled  recogniser form without the consultations' "doctor:"/"patient:" labels, as the app's recogniser gives
 *           a recorded consultation (only with --mode unlabelled or --spoken);
 *   spoken  espeak-ng speaks it and PocketSphinx, the default engine, transcribes it (spoken.ts; cached, slow the
 *           first time, so only with --spoken or --mode spoken; --spoken-limit N: N dictations spread over the files).
 * Also per mode: `overall` (micro-averaged F1: the tp/fp/fn of every field summed), ICD-10 exact, the safety score
 * (flags per dictation, unsafe medications: score.ts) and structuring time per transcript; then PASS/MISS for the
 * issues' targets. --explain ID prints one case's facts with the words and rules each came from. --per-dictation prints each dictation's flags, misses and unsafe items; --json prints it all as
 * JSON; --bench also writes the headline figures to bench/results/eval.json for `npm run bench`. The exit code is
 * 1 when a target is missed (0 with --bench: there a MISS is a figure, not a failure), 2 on bad arguments.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Language, Transcript } from '../server/scribe/contracts.js';
import { annotateFromAudio } from '../server/clinical-nlp/confidence.js';
import type { ClinicalFacts } from '../server/clinical-nlp/facts.js';
import { structure, type StructureOptions } from '../server/clinical-nlp/structure.js';
import { renderTemplate } from '../server/scribe/templates/render.js';
import { toAsrForm, withoutSpeakerLabels } from './asr-form.js';
import {
  emrToPredicted, FIELDS, meets, misses, MODES, overall, prf, REAL_ASR_TARGETS, REAL_TARGETS, score, TARGETS, unsafeMedications,
  type Counts, type EmrFlag, type Field, type Gold, type Mode, type Target, type UnsafeItem,
} from './score.js';
import { spokenTranscripts, type SpokenOptions } from './spoken.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES_DIR = resolve(ROOT, '..', 'shared', 'fixtures');
export const DEFAULT_FIXTURES = ['dictations-dev.jsonl', 'dictations-dev-2.jsonl'].map((f) => join(FIXTURES_DIR, f));
export const MAX_P99_MS = 20;

export interface Fixture {
  id: string;
  locale: string;
  mode: string;
  transcript: string;
  gold: Gold;
}

export type Split = 'all' | 'dev' | 'holdout';
export const SPLITS: readonly Split[] = ['all', 'dev', 'holdout'];
const HOLDOUT = new Set<string>((JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'splits.json'), 'utf8')) as { holdout: string[] }).holdout);

/** True for a case of our own held-out split ("r19" and its recogniser twin "r19-asr"). */
export function isHeldOut(id: string): boolean {
  return HOLDOUT.has(id.replace(/-asr$/, ''));
}

export function loadFixtures(paths: string[], split: Split = 'all'): Fixture[] {
  return loadAll(paths).filter((r) => split === 'all' || isHeldOut(r.id) === (split === 'holdout'));
}

function loadAll(paths: string[]): Fixture[] {
  return paths.flatMap((p) =>
    readFileSync(p, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Fixture),
  );
}

type Scores = { precision: number; recall: number; f1: number } & Counts;

export interface DictationResult {
  id: string;
  advice: number;
  flags: EmrFlag[];
  unsafe: UnsafeItem[];
  misses: string[];
}

export interface ModeReport {
  mode: Mode;
  dictations: number;
  fields: Record<Field, Scores>;
  overall: Scores;
  icd10Exact: number;
  flagsPerDictation: number;
  unsafe: number;
  /** Advice items the output gave per case, on average and at most. */
  advice: { perCase: number; max: number };
  /** Structuring time per transcript (median of five runs each). */
  ms: { mean: number; p99: number };
  perDictation: DictationResult[];
}

export interface EvalReport {
  fixtures: string[];
  dictations: number;
  modes: Partial<Record<Mode, ModeReport>>;
  /** p99 of structuring time over the transcripts of every mode run, each the median of `repeats` runs. */
  p99Ms: number;
  repeats: number;
  spoken?: { dictations: number; cached: number; audioS: number; recognitionS: number; engine: string };
  targets: { label: string; value: number; op: Target['op']; bound: number; pass: boolean; note?: string }[];
}

const scores = (c: Counts): Scores => ({ ...prf(c), ...c });
const nearestRank = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? 0;

/**
 * Structures each transcript as the pipeline does (with the dictation/consultation mode the request would carry, then
 * annotateFromAudio: seconds and LOW_CONFIDENCE flags where the recogniser gave word confidences), renders the EMR
 * JSON and scores it. structure() is timed: the median of `repeats` runs per transcript, one run of each per pass.
 */
function evaluateMode(mode: Mode, rows: Fixture[], transcripts: Transcript[], times: number[], repeats: number): ModeReport {
  const optsOf = (r: Fixture): StructureOptions => ({ locale: r.locale, mode: r.mode });
  // Untimed first, so building indexes and JIT warm-up do not pass for structuring time (one transcript is enough
  // for the indexes when only the scores matter).
  for (let i = 0; i < (repeats > 1 ? rows.length : Math.min(1, rows.length)); i++) structure(transcripts[i]!.text, optsOf(rows[i]!));
  // Timed in passes over every transcript rather than a transcript's runs back to back: a stretch of a shared machine's
  // noise then slows one run of several transcripts, which their medians drop, instead of every run of one.
  const runs: number[][] = rows.map(() => []);
  const facts: ClinicalFacts[] = [];
  for (let k = 0; k < repeats; k++) {
    for (let i = 0; i < rows.length; i++) {
      const t0 = performance.now();
      facts[i] = structure(transcripts[i]!.text, optsOf(rows[i]!));
      runs[i]!.push(performance.now() - t0);
    }
  }
  const own = runs.map((r) => r.sort((a, b) => a - b)[Math.floor(repeats / 2)]!);
  const items = rows.map((r, i) => {
    const transcript = transcripts[i]!;
    const emr = renderTemplate('service_emr_template', { transcript, facts: annotateFromAudio(facts[i]!, transcript), codify: true }).json as Record<string, any>;
    const predicted = emrToPredicted(emr);
    const flags: EmrFlag[] = Array.isArray(emr.flags) ? emr.flags : [];
    return { gold: r.gold, predicted, result: { id: r.id, advice: predicted.advice.length, flags, unsafe: unsafeMedications(r.gold, predicted, flags), misses: misses(r.gold, predicted) } };
  });
  times.push(...own);
  const s = score(items);
  own.sort((a, b) => a - b);
  const perDictation = items.map((x) => x.result);
  return {
    mode,
    dictations: rows.length,
    fields: Object.fromEntries(FIELDS.map((f) => [f, scores(s.counts[f])])) as Record<Field, Scores>,
    overall: scores(overall(s.counts)),
    icd10Exact: s.icd10Exact,
    flagsPerDictation: perDictation.reduce((n, d) => n + d.flags.length, 0) / Math.max(1, rows.length),
    unsafe: perDictation.reduce((n, d) => n + d.unsafe.length, 0),
    advice: { perCase: perDictation.reduce((n, d) => n + d.advice, 0) / Math.max(1, rows.length), max: Math.max(0, ...perDictation.map((d) => d.advice)) },
    ms: { mean: own.reduce((a, b) => a + b, 0) / Math.max(1, own.length), p99: nearestRank(own, 0.99) },
    perDictation,
  };
}

/** `n` of the rows spread evenly over the list, so a short spoken run still samples every fixture file. */
function spread<T>(rows: T[], n: number): T[] {
  if (n >= rows.length) return rows;
  return Array.from({ length: n }, (_, i) => rows[Math.floor((i * rows.length) / n)]!);
}

function figureOf(m: ModeReport, figure: Exclude<Target['figure'], 'every field'>): number {
  if (figure === 'overall') return m.overall.f1;
  if (figure === 'icd10Exact' || figure === 'unsafe' || figure === 'flagsPerDictation') return m[figure];
  if (figure === 'advicePrecision') return m.fields.advice.precision;
  if (figure === 'adviceItemsMax') return m.advice.max;
  return m.fields[figure].f1;
}

export interface EvalOptions {
  fixtures?: string[];
  modes?: readonly Mode[];
  /** Spoken mode on this many dictations only (spread over the files). */
  spokenLimit?: number;
  spoken?: SpokenOptions;
  /** Timed runs of structure() per transcript, the median kept (default 5; 1 when only the scores matter). */
  repeats?: number;
  /** Which cases: all (default), our dev split, or our held-out split (eval/splits.json). */
  split?: Split;
  /** What the figures are held to (default: the own dictations' targets). */
  targets?: Target[];
}

export async function runEval(opts: EvalOptions = {}): Promise<EvalReport> {
  const fixtures = opts.fixtures ?? DEFAULT_FIXTURES;
  const rows = loadFixtures(fixtures, opts.split);
  const modes = opts.modes ?? ['text', 'asr'];
  const transcriptOf = (r: Fixture, text: string): Transcript => ({ text, language: r.locale as Language, engine: 'fixture', segments: [] });
  const repeats = Math.max(1, opts.repeats ?? 5);
  const report: EvalReport = { fixtures, dictations: rows.length, modes: {}, p99Ms: 0, repeats, targets: [] };
  const times: number[] = [];
  for (const mode of MODES.filter((m) => modes.includes(m))) {
    if (mode === 'text') report.modes.text = evaluateMode(mode, rows, rows.map((r) => transcriptOf(r, r.transcript)), times, repeats);
    if (mode === 'asr') report.modes.asr = evaluateMode(mode, rows, rows.map((r) => transcriptOf(r, toAsrForm(r.transcript))), times, repeats);
    if (mode === 'unlabelled') report.modes.unlabelled = evaluateMode(mode, rows, rows.map((r) => transcriptOf(r, withoutSpeakerLabels(toAsrForm(r.transcript)))), times, repeats);
    if (mode === 'spoken') {
      const subset = spread(rows, opts.spokenLimit ?? rows.length);
      const heard = await spokenTranscripts(subset.map((r) => ({ id: r.id, locale: r.locale, text: r.transcript })), opts.spoken);
      report.modes.spoken = evaluateMode(mode, subset, heard.map((h) => h.transcript), times, repeats);
      report.spoken = {
        dictations: subset.length,
        cached: heard.filter((h) => h.cached).length,
        audioS: heard.reduce((n, h) => n + h.audioS, 0),
        recognitionS: heard.reduce((n, h) => n + h.seconds, 0),
        engine: heard[0]?.transcript.engine ?? '',
      };
    }
  }
  times.sort((a, b) => a - b);
  report.p99Ms = nearestRank(times, 0.99);
  for (const t of opts.targets ?? TARGETS) {
    const m = report.modes[t.mode];
    if (!m) continue;
    if (t.figure === 'every field') {
      const low = FIELDS.filter((f) => !meets(m.fields[f].f1, t.op, t.value));
      const value = Math.min(...FIELDS.map((f) => m.fields[f].f1));
      report.targets.push({ label: t.label, value, op: t.op, bound: t.value, pass: !low.length, ...(low.length ? { note: `below: ${low.join(', ')}` } : {}) });
      continue;
    }
    const value = figureOf(m, t.figure);
    report.targets.push({ label: t.label, value, op: t.op, bound: t.value, pass: meets(value, t.op, t.value) });
  }
  report.targets.push({ label: 'structuring p99 ms', value: report.p99Ms, op: '<', bound: MAX_P99_MS, pass: report.p99Ms < MAX_P99_MS });
  return report;
}

const f3 = (x: number): string => x.toFixed(3);

export function formatReport(r: EvalReport, perDictation = false): string {
  const modes = MODES.filter((m) => r.modes[m]).map((m) => r.modes[m]!);
  const out: string[] = [];
  const names = r.fixtures.map((f) => basename(f)).join(' + ');
  out.push(`Structurer on ${r.dictations} dictations (${names})${r.spoken ? `; spoken: ${r.spoken.dictations} by espeak-ng → ${r.spoken.engine}, ${r.spoken.cached} from cache` : ''}\n`);
  const W = 20;
  const cell = (xs: string[]): string => xs.map((x) => x.padStart(6)).join('').padStart(W);
  out.push(`${''.padEnd(22)}${modes.map((m) => `${m.mode} (${m.dictations})`.padStart(W)).join('')}`);
  out.push(`${'field'.padEnd(22)}${modes.map(() => cell(['P', 'R', 'F1'])).join('')}`);
  const row = (label: string, pick: (m: ModeReport) => Scores): void => {
    out.push(`${label.padEnd(22)}${modes.map((m) => cell([pick(m).precision, pick(m).recall, pick(m).f1].map((x) => f3(x).replace(/^0/, '')))).join('')}`);
  };
  for (const f of FIELDS) row(f, (m) => m.fields[f]);
  out.push('-'.repeat(22 + W * modes.length));
  row('overall (micro)', (m) => m.overall);
  const line = (label: string, pick: (m: ModeReport) => string): void => {
    out.push(`${label.padEnd(22)}${modes.map((m) => pick(m).padStart(W)).join('')}`);
  };
  line('ICD-10 exact', (m) => f3(m.icd10Exact));
  line('flags per dictation', (m) => m.flagsPerDictation.toFixed(2));
  line('unsafe medications', (m) => String(m.unsafe));
  line('advice items per case', (m) => `${m.advice.perCase.toFixed(1)} (max ${m.advice.max})`);
  line('structuring ms mean', (m) => m.ms.mean.toFixed(2));
  line('structuring ms p99', (m) => m.ms.p99.toFixed(2));
  if (r.spoken) {
    out.push(`\nspoken: ${r.spoken.audioS.toFixed(0)} s of audio, ${r.spoken.dictations - r.spoken.cached} recognised now in ${r.spoken.recognitionS.toFixed(0)} s of work, ${r.spoken.cached} from bench/results/spoken-cache`);
  }
  out.push(`(P/R/F1 with the leading 0 left out; structuring time is the median of ${r.repeats} runs per transcript; p99 over all modes ${r.p99Ms.toFixed(2)} ms)\n`);
  for (const t of r.targets) {
    const v = t.label.endsWith(' ms') ? t.value.toFixed(2) : Number.isInteger(t.value) ? String(t.value) : f3(t.value);
    out.push(`${t.pass ? 'PASS' : 'MISS'}  ${t.label} ${v} (${t.op} ${t.bound})${t.note ? `  ${t.note}` : ''}`);
  }
  if (perDictation) {
    out.push('\nPer dictation (-missed +added ~wrong; unsafe: not flagged):');
    for (const m of modes) {
      for (const d of m.perDictation) {
        out.push(`${d.id} ${m.mode} flags ${d.flags.length} misses ${d.misses.length}${d.unsafe.length ? ` UNSAFE ${d.unsafe.length}` : ''}`);
        for (const f of d.flags) out.push(`    flag ${f.code} ${f.pointer}: ${f.message}`);
        for (const u of d.unsafe) out.push(`    unsafe /medications/${u.index} ${u.name}: ${u.reasons.join('; ')}`);
        for (const x of d.misses) out.push(`    ${x}`);
      }
    }
  }
  return out.join('\n');
}

/** bench/results/eval.json in the shape bench/run.ts reads: the headline figures against their targets, per suite. */
function writeBenchResults(reports: { suite: Suite; report: EvalReport }[], seconds: number): string {
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  type BenchFigure = { figure: string; value: number; unit: string; target: { op: string; value: number } | null; pass: boolean | null };
  const figures: BenchFigure[] = reports.flatMap(({ suite, report: r }) =>
    r.targets
      .filter((t) => !t.label.endsWith('every field F1'))
      .map((t) => ({
        figure: `${suite.name === 'own' ? '' : `${suite.name}: `}${t.label.startsWith('spoken') && r.spoken && r.spoken.dictations < r.dictations ? `${t.label} (${r.spoken.dictations} dictations)` : t.label}`,
        value: t.value,
        unit: t.label.endsWith(' ms') ? 'ms' : '',
        target: { op: t.op, value: t.bound },
        pass: t.pass,
      })),
  );
  const spoken = reports.find((x) => x.report.spoken)?.report.spoken;
  if (spoken) figures.push({ figure: `eval run time (${spoken.dictations - spoken.cached} recognised, ${spoken.cached} cached)`, value: seconds, unit: 's', target: null, pass: null });
  const slim = Object.fromEntries(
    reports.map(({ suite, report: { modes, ...rest } }) => [suite.name, { ...rest, modes: Object.fromEntries(Object.entries(modes).map(([k, m]) => [k, { ...m, perDictation: undefined }])) }]),
  );
  const file = join(dir, 'eval.json');
  writeFileSync(file, `${JSON.stringify({ part: 'eval', date: new Date().toISOString(), figures, suites: slim }, null, 2)}\n`);
  return file;
}

/** A fixture set scored on its own, with the targets set on it. */
export interface Suite {
  name: string;
  files: string[];
  modes: Mode[];
  targets: Target[];
  /** The cases are split into our dev and held-out parts (eval/splits.json), reported side by side. */
  split: boolean;
}

export const SUITES: Suite[] = [
  { name: 'own', files: DEFAULT_FIXTURES, modes: ['text', 'asr'], targets: TARGETS, split: false },
  { name: 'real', files: [join(FIXTURES_DIR, 'dictations-real-dev.jsonl')], modes: ['text', 'asr'], targets: REAL_TARGETS, split: true },
  // Already a recogniser's output: scored as it is.
  { name: 'real-asr', files: [join(FIXTURES_DIR, 'dictations-real-dev-asr.jsonl')], modes: ['text'], targets: REAL_ASR_TARGETS, split: true },
  // Real cases of the same public corpora annotated by us (eval/fixtures/README.md), under the same targets.
  { name: 'real-extra', files: [join(ROOT, 'eval', 'fixtures', 'dictations-real-extra.jsonl')], modes: ['text', 'asr'], targets: REAL_TARGETS, split: true },
];

/** One line per split: the overall F1 of each mode on our dev part and on our held-out part. */
async function splitLines(suite: Suite, modes: Mode[]): Promise<string> {
  const out: string[] = [];
  for (const split of ['dev', 'holdout'] as const) {
    const r = await runEval({ fixtures: suite.files, modes: modes.filter((m) => m !== 'spoken'), split, repeats: 1, targets: [] });
    out.push(`${split.padEnd(8)} split (${r.dictations} cases): ${Object.values(r.modes).map((m) => `${m.mode} overall F1 ${f3(m.overall.f1)}, unsafe ${m.unsafe}`).join('; ')}`);
  }
  return out.join('\n');
}

/**
 * `--explain ID`: every fact the structurer gives for one case, with the transcript words it came from and the rules
 * that produced it, so a wrong fact is traced to its rule. Our held-out cases are not shown.
 */
function explain(id: string): string {
  if (isHeldOut(id)) throw new Error(`${id} is in our held-out split (eval/splits.json): it is not developed on`);
  const row = loadFixtures(SUITES.flatMap((x) => x.files)).find((r) => r.id === id);
  if (!row) throw new Error(`no case ${id} in ${SUITES.flatMap((x) => x.files.map((f) => basename(f))).join(', ')}`);
  const facts = structure(row.transcript, { locale: row.locale, mode: row.mode });
  const said = (span?: { start: number; end: number }): string => (span ? `"${row.transcript.slice(span.start, span.end).replace(/\s+/g, ' ')}"` : '(no span)');
  const out = [`${row.id} (${row.locale}, ${row.mode})`];
  const list = <T extends { name: string; evidence?: { start: number; end: number }; rules?: string[] }>(label: string, items: T[], more: (x: T) => string = () => ''): void => {
    items.forEach((x, i) => out.push(`${label}/${i} ${x.name}${more(x)}\n    from ${said(x.evidence)}\n    rules ${x.rules?.join(', ') || '(none recorded)'}`));
  };
  list('complaints', facts.complaints, (c) => (c.duration ? ` (${c.duration.value} ${c.duration.unit})` : ''));
  for (const [k, v] of Object.entries(facts.vitals)) out.push(`vitals/${k} ${JSON.stringify(v)}\n    from ${said(facts.evidence.vitals[k as keyof typeof facts.vitals])}`);
  list('diagnoses', facts.diagnoses, (d) => ` [${d.certainty}${d.icd10 ? `, ${d.icd10.code}` : ''}]`);
  list('medications', facts.medications, (m) => ` ${JSON.stringify({ strength: m.strength, frequency: m.frequency?.text, duration: m.duration })}`);
  list('investigations', facts.investigations);
  facts.advice.forEach((a, i) => out.push(`advice/${i} ${a}\n    from ${said(facts.evidence.advice[i])}`));
  for (const f of facts.flags) out.push(`flag ${f.code} ${f.pointer}: ${f.message}`);
  return out.join('\n');
}

function parseOptions() {
  return parseArgs({
    options: {
      suite: { type: 'string' },
      fixtures: { type: 'string' },
      mode: { type: 'string' },
      split: { type: 'string', default: 'all' },
      spoken: { type: 'boolean', default: false },
      'spoken-limit': { type: 'string' },
      'per-dictation': { type: 'boolean', default: false },
      explain: { type: 'string' },
      json: { type: 'boolean', default: false },
      bench: { type: 'boolean', default: false },
    },
    strict: true,
  });
}

async function main(): Promise<void> {
  const started = performance.now();
  let values!: ReturnType<typeof parseOptions>['values'];
  try {
    ({ values } = parseOptions());
    if (values.mode && !MODES.includes(values.mode as Mode)) throw new Error(`--mode must be one of ${MODES.join(', ')}`);
    if (!SPLITS.includes(values.split as Split)) throw new Error(`--split must be one of ${SPLITS.join(', ')}`);
    if (values.suite && !SUITES.some((x) => x.name === values.suite)) throw new Error(`--suite must be one of ${SUITES.map((x) => x.name).join(', ')}`);
    if (values['spoken-limit'] !== undefined && !(Number(values['spoken-limit']) >= 1)) throw new Error('--spoken-limit must be a number ≥ 1');
    if (values.explain) console.log(explain(values.explain));
  } catch (e) {
    console.error(`eval: ${(e as Error).message}`);
    process.exit(2);
  }
  if (values.explain) return;
  // --fixtures scores those files as one set, held to the targets of the suite they belong to (else the own ones).
  const custom = values.fixtures?.split(',').map((f) => resolve(f));
  const suites: Suite[] = custom
    ? [{ ...(SUITES.find((x) => x.files.some((f) => custom.includes(f))) ?? SUITES[0]!), name: custom.map((f) => basename(f)).join('+'), files: custom }]
    : SUITES.filter((x) => (values.suite ? x.name === values.suite : x.name === 'own' || !values.spoken));
  const reports: { suite: Suite; report: EvalReport }[] = [];
  for (const suite of suites) {
    const modes: Mode[] = values.mode ? [values.mode as Mode] : values.spoken ? [...MODES] : suite.modes;
    const report = await runEval({
      fixtures: suite.files,
      modes,
      split: values.split as Split,
      targets: suite.targets,
      spokenLimit: values['spoken-limit'] ? Math.floor(Number(values['spoken-limit'])) : undefined,
    });
    reports.push({ suite, report });
    if (values.json) continue;
    console.log(`== ${suite.name}`);
    console.log(formatReport(report, values['per-dictation']));
    if (suite.split && values.split === 'all') console.log(`\n${await splitLines(suite, modes)}\n`);
  }
  if (values.json) console.log(JSON.stringify(reports.length === 1 ? reports[0]!.report : Object.fromEntries(reports.map((r) => [r.suite.name, r.report])), null, 2));
  if (values.bench) {
    const file = writeBenchResults(reports, Math.round((performance.now() - started) / 100) / 10);
    console.error(`figures written to ${file}`);
  } else process.exitCode = reports.every((r) => r.report.targets.every((t) => t.pass)) ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(`eval: ${(e as Error).message}`);
    process.exit(1);
  });
}
