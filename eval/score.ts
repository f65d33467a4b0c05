/**
 * Scores structurer output against the fixtures' gold annotations, field by field, with the lenient matching the
 * fixtures README describes: case, punctuation, plurals, British/American spelling and common synonyms
 * (cbc / complete blood count, acetaminophen / paracetamol) are ignored; a name matches when one's words contain
 * the other's or they mostly overlap; a medication matches on its generic name or its brand. Also the safety
 * score (unsafe medications) and the targets.
 */
import { allergyConflict } from '../server/clinical-nlp/vocab/drug-knowledge.js';

export interface GoldMedication {
  name: string;
  brand: string | null;
  strength_value: number | null;
  strength_unit: string | null;
  form: string | null;
  frequency_per_day: number | null;
  frequency_text?: string | null;
  as_needed: boolean;
  duration_days: number | null;
  timing: string | null;
}

export interface Gold {
  chief_complaints: { name: string; duration_days: number | null }[];
  vitals: Record<string, number | { value: number; unit: string } | undefined>;
  diagnoses: { name: string; icd10: string; certainty?: string }[];
  medications: GoldMedication[];
  investigations: { name: string }[];
  allergies: string[];
  advice: string[];
  follow_up_days: number | null;
}

const SYNONYMS: [RegExp, string][] = [
  [/\bacetaminophen\b/g, 'paracetamol'],
  [/\bcbc\b/g, 'complete blood count'],
  [/\blft\b/g, 'liver function test'],
  [/\b(?:kft|rft)\b/g, 'kidney function test'],
  [/\bhba1c\b/g, 'glycated hemoglobin'],
  [/\bx ?ray\b/g, 'xray'],
  [/\bpt ?\/ ?inr\b/g, 'prothrombin time inr'],
  [/\busg\b/g, 'ultrasound'],
  [/\bsulpha?\b/g, 'sulfa'],
  [/\bclavulanate\b/g, 'clavulanic acid'],
  [/\bvalaciclovir\b/g, 'valacyclovir'],
  [/\bacyclovir\b/g, 'aciclovir'],
  // An iron salt is iron to a prescriber who says "iron folic acid"; the gold names either.
  [/\bferrous (?:sulphate|sulfate|fumarate|ascorbate|gluconate|bisglycinate)\b/g, 'iron'],
  [/\bechocardiography\b/g, 'echocardiogram'],
];
const STOP = new Set('the of a an in on at with and for to over from by its his her is are was any'.split(' '));

function fold(w: string): string {
  let s = w;
  if (s.length > 4) s = s.replace(/ae/g, 'e').replace(/oe/g, 'e').replace(/our$/, 'or');
  if (s.length > 3 && s.endsWith('s') && !/(?:ss|is|us)$/.test(s)) s = s.slice(0, -1);
  if (s === 'abdominal') s = 'abdomen';
  return s;
}

// "two weeks" and "2 weeks" are the same words to a reader.
const NUMBER_WORDS: Record<string, string> = Object.fromEntries(
  'one two three four five six seven eight nine ten eleven twelve'.split(' ').map((w, i) => [w, String(i + 1)]),
);

function words(s: string): string[] {
  let t = s.toLowerCase().replace(/[-_]/g, ' ').replace(/\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/g, (w) => NUMBER_WORDS[w]!);
  for (const [re, to] of SYNONYMS) t = t.replace(re, to);
  return t
    // "chest pressure/discomfort" names either: a slash between words parts them (not "50/25", kept whole).
    .replace(/(?<=[a-z])\/(?=[a-z])/g, ' ')
    .replace(/[^a-z0-9+/ ]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !STOP.has(w))
    .map(fold);
}

/** The ways a gold or predicted name may be read: "cervicalgia (mechanical neck pain)" is either half or both. */
function readings(name: string): string[][] {
  const m = /^(.*?)\s*\(([^)]*)\)\s*(.*)$/.exec(name);
  const out = [words(name)];
  if (m) out.push(words(`${m[1]} ${m[3]}`), words(m[2]!));
  return out.filter((r) => r.length);
}

function setsMatch(a: string[], b: string[], overlap: number): boolean {
  const A = new Set(a);
  const B = new Set(b);
  const inter = [...A].filter((x) => B.has(x)).length;
  if (!inter) return false;
  if (inter === A.size || inter === B.size) return true;
  return inter / new Set([...A, ...B]).size >= overlap;
}

export function namesMatch(a: string, b: string, overlap = 0.6): boolean {
  return readings(a).some((ra) => readings(b).some((rb) => setsMatch(ra, rb, overlap)));
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}
const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });

/** Where score() writes what it missed (-) and added (+), per item, for --per-dictation. */
type Notes = string[] | undefined;

/**
 * Greedy one-to-one matching; returns the matched pairs and adds to the counts. With `prefer`, pairs that also
 * satisfy it are made first (a taper's 25 mg step pairs with the output's 25 mg, not with its 50 mg).
 */
function pair<G, P>(
  gold: G[], pred: P[], match: (g: G, p: P) => boolean, c: Counts,
  notes?: Notes, label?: string, show?: (x: G | P) => string, prefer?: (g: G, p: P) => boolean,
): [G, P][] {
  const used = new Set<number>();
  const partner = new Map<number, number>();
  for (const pass of prefer ? [prefer, null] : [null]) {
    gold.forEach((g, gi) => {
      if (partner.has(gi)) return;
      const k = pred.findIndex((p, i) => !used.has(i) && match(g, p) && (!pass || pass(g, p)));
      if (k >= 0) {
        used.add(k);
        partner.set(gi, k);
      }
    });
  }
  const pairs = gold.flatMap((g, gi): [G, P][] => (partner.has(gi) ? [[g, pred[partner.get(gi)!]!]] : []));
  c.tp += pairs.length;
  c.fp += pred.length - pairs.length;
  c.fn += gold.length - pairs.length;
  if (notes && label && show) {
    gold.forEach((g, gi) => partner.has(gi) || notes.push(`-${label} ${show(g)}`));
    pred.forEach((p, i) => used.has(i) || notes.push(`+${label} ${show(p)}`));
  }
  return pairs;
}

/** An attribute of matched items: a stated value must be right; one stated on one side only is a miss. */
function attribute<T>(c: Counts, gold: T | null | undefined, pred: T | null | undefined, eq: (a: T, b: T) => boolean, notes?: Notes, label?: string): void {
  const g = gold ?? null;
  const p = pred ?? null;
  if (g === null && p === null) return;
  if (g !== null && p !== null && eq(g, p)) c.tp++;
  else {
    if (p !== null) c.fp++;
    if (g !== null) c.fn++;
    notes?.push(`~${label} ${JSON.stringify(g)} -> ${JSON.stringify(p)}`);
  }
}

const same = (a: number, b: number): boolean => Math.abs(a - b) < 1e-6;
const UNIT: Record<string, string> = { milligram: 'mg', percent: '%', gram: 'g', microgram: 'mcg', millilitre: 'ml', milliliter: 'ml' };
const unit = (u: string): string => {
  const x = u.toLowerCase().trim();
  const one = UNIT[x] ?? x.replace(/s$/, '');
  return UNIT[one] ?? one;
};

/** What the service_emr_template says, in the gold annotation's shape. */
export interface Predicted {
  chief_complaints: { name: string; duration_days: number | null }[];
  vitals: Record<string, number | { value: number; unit: string }>;
  diagnoses: { name: string; icd10: string | null; certainty: string }[];
  medications: GoldMedication[];
  investigations: { name: string }[];
  allergies: string[];
  advice: string[];
  follow_up_days: number | null;
}

const DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
type Dur = { value: number; unit: string } | undefined;
// Hours are days to three places, as the fixtures write them ("a couple of hours" → 0.083).
const days = (d: Dur): number | null => (d ? Math.round(d.value * (DAYS[d.unit] ?? 1) * 1000) / 1000 : null);
// Counting units ("1 tablet") are how much to take, not a strength; ml, drops, puffs and units are (README).
const COUNT_UNIT = /^(?:tablet|capsule|sachet|lozenge|pessary|suppository|patch|teaspoon)$/;

export function emrToPredicted(emr: Record<string, any>): Predicted {
  const v = emr.vitals ?? {};
  const vitals: Predicted['vitals'] = {};
  if (v.bp) {
    vitals.bp_systolic = v.bp.systolic;
    vitals.bp_diastolic = v.bp.diastolic;
  }
  for (const k of ['pulse_bpm', 'spo2_percent', 'respiratory_rate', 'weight_kg', 'height_cm', 'blood_glucose_mg_dl', 'temperature']) {
    if (v[k] !== undefined) vitals[k] = v[k];
  }
  return {
    chief_complaints: (emr.chief_complaints ?? []).map((c: any) => ({ name: c.name, duration_days: days(c.duration) })),
    vitals,
    diagnoses: (emr.diagnoses ?? []).map((d: any) => ({ name: d.name, icd10: d.codes?.[0]?.code ?? null, certainty: d.certainty })),
    medications: (emr.medications ?? []).map((m: any) => {
      const amount = m.strength ?? (m.dose && !COUNT_UNIT.test(m.dose.unit) ? m.dose : undefined);
      return {
        name: m.name,
        brand: m.brand ?? null,
        strength_value: amount?.value ?? null,
        strength_unit: amount?.unit ?? null,
        form: m.form ?? null,
        frequency_per_day: m.frequency ? m.frequency.per_day : null,
        frequency_text: m.frequency?.text ?? null,
        as_needed: m.frequency?.as_needed ?? false,
        duration_days: days(m.duration),
        timing: m.timing ?? null,
      };
    }),
    investigations: (emr.investigations ?? []).map((i: any) => ({ name: i.name })),
    allergies: emr.history?.allergies ?? [],
    advice: emr.advice ?? [],
    follow_up_days: days(emr.follow_up?.after),
  };
}

function drugsMatch(g: GoldMedication, p: GoldMedication): boolean {
  const parts = (n: string): string => n.toLowerCase().split(/\s*(?:\+|\band\b|\bplus\b)\s*/).map((x) => words(x).join(' ')).sort().join('+');
  if (parts(g.name) === parts(p.name)) return true;
  return !!g.brand && !!p.brand && words(g.brand).join('') === words(p.brand).join('');
}

export const FIELDS = [
  'complaints', 'complaint duration', 'vitals', 'diagnoses', 'diagnosis certainty', 'icd10', 'medications',
  'med strength', 'med form', 'med frequency/day', 'med as-needed', 'med duration', 'med timing', 'investigations',
  'follow-up', 'allergies', 'advice',
] as const;
export type Field = (typeof FIELDS)[number];

export interface Score {
  counts: Record<Field, Counts>;
  /** Share of gold ICD-10 codes predicted exactly. */
  icd10Exact: number;
}

const showName = (x: { name: string } | string): string => (typeof x === 'string' ? x : x.name);
const strengthOf = (m: GoldMedication): { v: number; u: string } | null =>
  m.strength_value === null ? null : { v: m.strength_value, u: unit(m.strength_unit ?? '') };

function sameStrength(g: GoldMedication, q: GoldMedication): boolean {
  const a = strengthOf(g);
  const b = strengthOf(q);
  return a === null ? b === null : b !== null && same(a.v, b.v) && a.u === b.u;
}

function scoreOne(gold: Gold, p: Predicted, c: Record<Field, Counts>, notes?: Notes): { goldCodes: number; exactCodes: number } {
  for (const [g, q] of pair(gold.chief_complaints, p.chief_complaints, (g, q) => namesMatch(g.name, q.name), c.complaints, notes, 'complaint', showName)) {
    attribute(c['complaint duration'], g.duration_days, q.duration_days, same, notes, `duration of ${g.name}`);
  }
  const gv = gold.vitals;
  for (const k of new Set([...Object.keys(gv), ...Object.keys(p.vitals)])) {
    const eq = (a: any, b: any): boolean => (typeof a === 'number' ? same(a, b) : same(a.value, b.value) && a.unit === b.unit);
    attribute(c.vitals, gv[k] as any, p.vitals[k] as any, eq, notes, k);
  }
  const dx = pair(gold.diagnoses, p.diagnoses, (g, q) => namesMatch(g.name, q.name) || g.icd10 === q.icd10, c.diagnoses, notes, 'diagnosis', showName);
  for (const [g, q] of dx) attribute(c['diagnosis certainty'], g.certainty ?? 'confirmed', q.certainty, (a, b) => a === b, notes, `certainty of ${g.name}`);
  const predCodes = p.diagnoses.map((d) => d.icd10).filter((x): x is string => !!x);
  pair(gold.diagnoses.map((d) => d.icd10), predCodes, (a, b) => a === b, c.icd10, notes, 'icd10', (x) => x);
  for (const [g, q] of pair(gold.medications, p.medications, drugsMatch, c.medications, notes, 'medication', showName, sameStrength)) {
    const of = ` of ${g.name}`;
    attribute(c['med strength'], strengthOf(g), strengthOf(q), (a, b) => same(a.v, b.v) && a.u === b.u, notes, `strength${of}`);
    attribute(c['med form'], g.form, q.form, (a, b) => namesMatch(a, b, 0.5), notes, `form${of}`);
    attribute(c['med frequency/day'], g.frequency_per_day, q.frequency_per_day, same, notes, `frequency${of}`);
    attribute(c['med as-needed'], g.as_needed, q.as_needed, (a, b) => a === b, notes, `as-needed${of}`);
    attribute(c['med duration'], g.duration_days, q.duration_days, same, notes, `duration${of}`);
    attribute(c['med timing'], g.timing, q.timing, (a, b) => namesMatch(a, b, 0.5), notes, `timing${of}`);
  }
  pair(gold.investigations, p.investigations, (g, q) => namesMatch(g.name, q.name), c.investigations, notes, 'investigation', showName);
  attribute(c['follow-up'], gold.follow_up_days, p.follow_up_days, same, notes, 'follow-up days');
  pair(gold.allergies, p.allergies, (g, q) => namesMatch(g, q), c.allergies, notes, 'allergy', showName);
  pair(gold.advice, p.advice, (g, q) => namesMatch(g, q, 0.4), c.advice, notes, 'advice', showName);
  return { goldCodes: gold.diagnoses.length, exactCodes: gold.diagnoses.filter((d) => predCodes.includes(d.icd10)).length };
}

export const emptyCounts = (): Record<Field, Counts> => Object.fromEntries(FIELDS.map((f) => [f, zero()])) as Record<Field, Counts>;

/** What one dictation's output missed (-), added (+) and got wrong (~), field by field. */
export function misses(gold: Gold, predicted: Predicted): string[] {
  const notes: string[] = [];
  scoreOne(gold, predicted, emptyCounts(), notes);
  return notes;
}

export function score(items: { gold: Gold; predicted: Predicted }[]): Score {
  const c = emptyCounts();
  let goldCodes = 0;
  let exactCodes = 0;
  for (const { gold, predicted } of items) {
    const r = scoreOne(gold, predicted, c);
    goldCodes += r.goldCodes;
    exactCodes += r.exactCodes;
  }
  return { counts: c, icd10Exact: goldCodes ? exactCodes / goldCodes : 1 };
}

/** Micro-average over every field: the counts summed, then P/R/F1 of the sums. */
export function overall(counts: Record<Field, Counts>): Counts {
  const sum = zero();
  for (const f of FIELDS) {
    sum.tp += counts[f].tp;
    sum.fp += counts[f].fp;
    sum.fn += counts[f].fn;
  }
  return sum;
}

export function prf(c: Counts): { precision: number; recall: number; f1: number } {
  const precision = c.tp + c.fp ? c.tp / (c.tp + c.fp) : 1;
  const recall = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

export type Mode = 'text' | 'asr' | 'unlabelled' | 'spoken';
export const MODES: readonly Mode[] = ['text', 'asr', 'unlabelled', 'spoken'];

/** A safety flag as the service_emr_template JSON carries it (`flags`, additive; absent means none). */
export interface EmrFlag {
  code: string;
  message: string;
  pointer: string;
}

export interface UnsafeItem {
  /** Index in the output's medications. */
  index: number;
  name: string;
  reasons: string[];
}

/**
 * Issue 12's unsafe items: medications in the output, not flagged (no flag pointer at or under /medications/<i>),
 * that (a) match a gold medication but with a strength off by a factor of 2 or more or in another unit, (b) conflict
 * with an allergy gold lists, or (c) are not in gold at all. Medications are matched as score() matches them.
 */
export function unsafeMedications(gold: Gold, predicted: Predicted, flags: EmrFlag[]): UnsafeItem[] {
  const reasons = predicted.medications.map((): string[] => []);
  const matched = new Map(pair(gold.medications, predicted.medications, drugsMatch, zero(), undefined, undefined, undefined, sameStrength).map(([g, q]) => [q, g]));
  predicted.medications.forEach((q, i) => {
    const g = matched.get(q);
    if (!g) reasons[i]!.push('not in gold');
    else {
      const a = strengthOf(g);
      const b = strengthOf(q);
      if (a && b && a.u !== b.u) reasons[i]!.push(`unit ${b.u}, gold ${a.u}`);
      else if (a && b && (Math.min(a.v, b.v) <= 0 ? a.v !== b.v : Math.max(a.v, b.v) / Math.min(a.v, b.v) >= 2)) reasons[i]!.push(`strength ${b.v} ${b.u}, gold ${a.v} ${a.u}`);
    }
    for (const allergy of gold.allergies) {
      const why = allergyConflict(allergy, q.name);
      if (why) reasons[i]!.push(`allergy to ${allergy}: ${why}`);
    }
  });
  const flagged = (i: number): boolean => flags.some((f) => f.pointer === `/medications/${i}` || f.pointer.startsWith(`/medications/${i}/`));
  return predicted.medications
    .map((q, i) => ({ index: i, name: q.name, reasons: reasons[i]! }))
    .filter((u) => u.reasons.length && !flagged(u.index));
}

/**
 * A figure of one mode that a target or floor is set on: an F1, ICD-10 exact, unsafe items, flags per dictation,
 * advice precision or the most advice items one case got.
 */
export type Figure = Field | 'overall' | 'icd10Exact' | 'unsafe' | 'flagsPerDictation' | 'advicePrecision' | 'adviceItemsMax';

export interface Target {
  label: string;
  mode: Mode;
  figure: Figure | 'every field';
  op: '>=' | '<=' | '<';
  value: number;
}

/** The targets issues 11, 12 and 23 set on our own 80 development dictations (structuring time is added by run.ts). */
export const TARGETS: Target[] = [
  { label: 'text overall F1', mode: 'text', figure: 'overall', op: '>=', value: 0.95 },
  { label: 'text every field F1', mode: 'text', figure: 'every field', op: '>=', value: 0.85 },
  { label: 'asr overall F1', mode: 'asr', figure: 'overall', op: '>=', value: 0.92 },
  { label: 'spoken overall F1', mode: 'spoken', figure: 'overall', op: '>=', value: 0.55 },
  { label: 'text ICD-10 exact', mode: 'text', figure: 'icd10Exact', op: '>=', value: 0.9 },
  { label: 'text unsafe items', mode: 'text', figure: 'unsafe', op: '<=', value: 0 },
  { label: 'asr unsafe items', mode: 'asr', figure: 'unsafe', op: '<=', value: 0 },
  { label: 'spoken unsafe items', mode: 'spoken', figure: 'unsafe', op: '<=', value: 2 },
  { label: 'text flags per dictation', mode: 'text', figure: 'flagsPerDictation', op: '<', value: 1 },
];

/** Issue 23's targets on the real development cases (dictations-real-dev.jsonl), as written and in recogniser form. */
export const REAL_TARGETS: Target[] = [
  { label: 'text overall F1', mode: 'text', figure: 'overall', op: '>=', value: 0.85 },
  { label: 'text every field F1', mode: 'text', figure: 'every field', op: '>=', value: 0.75 },
  { label: 'asr overall F1', mode: 'asr', figure: 'overall', op: '>=', value: 0.8 },
  { label: 'text advice precision', mode: 'text', figure: 'advicePrecision', op: '>=', value: 0.7 },
  { label: 'text advice items in a case', mode: 'text', figure: 'adviceItemsMax', op: '<=', value: 6 },
  { label: 'asr advice items in a case', mode: 'asr', figure: 'adviceItemsMax', op: '<=', value: 6 },
  { label: 'text unsafe items', mode: 'text', figure: 'unsafe', op: '<=', value: 0 },
  { label: 'asr unsafe items', mode: 'asr', figure: 'unsafe', op: '<=', value: 0 },
];

/** Issue 23's targets on a real recogniser's own output of real encounters (dictations-real-dev-asr.jsonl). */
export const REAL_ASR_TARGETS: Target[] = [
  { label: 'overall F1', mode: 'text', figure: 'overall', op: '>=', value: 0.75 },
  { label: 'advice items in a case', mode: 'text', figure: 'adviceItemsMax', op: '<=', value: 6 },
  { label: 'unsafe items', mode: 'text', figure: 'unsafe', op: '<=', value: 0 },
];

export function meets(value: number, op: Target['op'], bound: number): boolean {
  return op === '>=' ? value >= bound - 1e-9 : op === '<=' ? value <= bound + 1e-9 : value < bound;
}

/** A figure of one mode that must not drop: overall and per-field F1, ICD-10 exact. */
export interface Floors {
  overall: number;
  icd10Exact: number;
  fields: Partial<Record<Field, number>>;
}

/**
 * What test/clinical-nlp/eval.test.ts holds the structurer to on the 80 dev dictations, per mode: the figures measured
 * when the floors were last set (commit 861d04d), less 0.02. Raise them as the structurer improves; never lower
 * them to pass.
 */
export const FLOORS: Record<'text' | 'asr', Floors> = {
  text: {
    overall: 0.936,
    icd10Exact: 0.967,
    fields: {
      complaints: 0.857, 'complaint duration': 0.893, vitals: 0.98, diagnoses: 0.97, 'diagnosis certainty': 0.973,
      icd10: 0.97, medications: 0.952, 'med strength': 0.967, 'med form': 0.934, 'med frequency/day': 0.971,
      'med as-needed': 0.968, 'med duration': 0.953, 'med timing': 0.95, investigations: 0.964, 'follow-up': 0.98,
      allergies: 0.942, advice: 0.796,
    },
  },
  asr: {
    overall: 0.902,
    icd10Exact: 0.885,
    fields: {
      complaints: 0.798, 'complaint duration': 0.842, vitals: 0.97, diagnoses: 0.923, 'diagnosis certainty': 0.966,
      icd10: 0.923, medications: 0.941, 'med strength': 0.953, 'med form': 0.933, 'med frequency/day': 0.965,
      'med as-needed': 0.957, 'med duration': 0.948, 'med timing': 0.942, investigations: 0.954, 'follow-up': 0.98,
      allergies: 0.86, advice: 0.574,
    },
  },
};
