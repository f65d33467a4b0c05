/**
 * Scores structurer output against the fixtures' gold annotations, field by field, with the lenient matching the
 * fixtures README describes: case, punctuation, plurals, British/American spelling and common synonyms
 * (cbc / complete blood count, acetaminophen / paracetamol) are ignored; a name matches when one's words contain
 * the other's or they mostly overlap; a medication matches on its generic name or its brand.
 */

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
];
const STOP = new Set('the of a an in on at with and for to over from by its his her is are was any'.split(' '));

function fold(w: string): string {
  let s = w;
  if (s.length > 4) s = s.replace(/ae/g, 'e').replace(/oe/g, 'e').replace(/our$/, 'or');
  if (s.length > 3 && s.endsWith('s') && !/(?:ss|is|us)$/.test(s)) s = s.slice(0, -1);
  if (s === 'abdominal') s = 'abdomen';
  return s;
}

function words(s: string): string[] {
  let t = s.toLowerCase().replace(/[-_]/g, ' ');
  for (const [re, to] of SYNONYMS) t = t.replace(re, to);
  return t
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

/** Greedy one-to-one matching; returns the matched pairs and adds to the counts. */
function pair<G, P>(gold: G[], pred: P[], match: (g: G, p: P) => boolean, c: Counts): [G, P][] {
  const used = new Set<number>();
  const pairs: [G, P][] = [];
  for (const g of gold) {
    const k = pred.findIndex((p, i) => !used.has(i) && match(g, p));
    if (k >= 0) {
      used.add(k);
      pairs.push([g, pred[k]!]);
    }
  }
  c.tp += pairs.length;
  c.fp += pred.length - pairs.length;
  c.fn += gold.length - pairs.length;
  return pairs;
}

/** An attribute of matched items: a stated value must be right; one stated on one side only is a miss. */
function attribute<T>(c: Counts, gold: T | null | undefined, pred: T | null | undefined, eq: (a: T, b: T) => boolean): void {
  const g = gold ?? null;
  const p = pred ?? null;
  if (g === null && p === null) return;
  if (g !== null && p !== null && eq(g, p)) c.tp++;
  else {
    if (p !== null) c.fp++;
    if (g !== null) c.fn++;
  }
}

const same = (a: number, b: number): boolean => Math.abs(a - b) < 1e-6;
const UNIT: Record<string, string> = { milligram: 'mg', milligrams: 'mg', percent: '%', gram: 'g', grams: 'g', microgram: 'mcg' };
const unit = (u: string): string => {
  const x = u.toLowerCase().trim();
  return UNIT[x] ?? x.replace(/s$/, '');
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
const days = (d: Dur): number | null => (d ? Math.round(d.value * (DAYS[d.unit] ?? 1)) : null);
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

export function score(items: { gold: Gold; predicted: Predicted }[]): Score {
  const c = Object.fromEntries(FIELDS.map((f) => [f, zero()])) as Record<Field, Counts>;
  let goldCodes = 0;
  let exactCodes = 0;
  for (const { gold, predicted: p } of items) {
    for (const [g, q] of pair(gold.chief_complaints, p.chief_complaints, (g, q) => namesMatch(g.name, q.name), c.complaints)) {
      attribute(c['complaint duration'], g.duration_days, q.duration_days, same);
    }
    const gv = gold.vitals;
    for (const k of new Set([...Object.keys(gv), ...Object.keys(p.vitals)])) {
      const eq = (a: any, b: any): boolean => (typeof a === 'number' ? same(a, b) : same(a.value, b.value) && a.unit === b.unit);
      attribute(c.vitals, gv[k] as any, p.vitals[k] as any, eq);
    }
    const dx = pair(gold.diagnoses, p.diagnoses, (g, q) => namesMatch(g.name, q.name) || g.icd10 === q.icd10, c.diagnoses);
    for (const [g, q] of dx) attribute(c['diagnosis certainty'], g.certainty ?? 'confirmed', q.certainty, (a, b) => a === b);
    const predCodes = p.diagnoses.map((d) => d.icd10).filter((x): x is string => !!x);
    pair(gold.diagnoses.map((d) => d.icd10), predCodes, (a, b) => a === b, c.icd10);
    goldCodes += gold.diagnoses.length;
    exactCodes += gold.diagnoses.filter((d) => predCodes.includes(d.icd10)).length;
    for (const [g, q] of pair(gold.medications, p.medications, drugsMatch, c.medications)) {
      attribute(
        c['med strength'],
        g.strength_value === null ? null : { v: g.strength_value, u: unit(g.strength_unit ?? '') },
        q.strength_value === null ? null : { v: q.strength_value, u: unit(q.strength_unit ?? '') },
        (a, b) => same(a.v, b.v) && a.u === b.u,
      );
      attribute(c['med form'], g.form, q.form, (a, b) => namesMatch(a, b, 0.5));
      attribute(c['med frequency/day'], g.frequency_per_day, q.frequency_per_day, same);
      attribute(c['med as-needed'], g.as_needed, q.as_needed, (a, b) => a === b);
      attribute(c['med duration'], g.duration_days, q.duration_days, same);
      attribute(c['med timing'], g.timing, q.timing, (a, b) => namesMatch(a, b, 0.5));
    }
    pair(gold.investigations, p.investigations, (g, q) => namesMatch(g.name, q.name), c.investigations);
    attribute(c['follow-up'], gold.follow_up_days, p.follow_up_days, same);
    pair(gold.allergies, p.allergies, (g, q) => namesMatch(g, q), c.allergies);
    pair(gold.advice, p.advice, (g, q) => namesMatch(g, q, 0.4), c.advice);
  }
  return { counts: c, icd10Exact: goldCodes ? exactCodes / goldCodes : 1 };
}

export function prf(c: Counts): { precision: number; recall: number; f1: number } {
  const precision = c.tp + c.fp ? c.tp / (c.tp + c.fp) : 1;
  const recall = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/** The targets the issue sets on the development fixtures. */
export const TARGETS: { label: string; field?: Field; min: number }[] = [
  { label: 'medications F1', field: 'medications', min: 0.85 },
  { label: 'diagnoses F1', field: 'diagnoses', min: 0.85 },
  { label: 'vitals F1', field: 'vitals', min: 0.95 },
  { label: 'complaints F1', field: 'complaints', min: 0.8 },
  { label: 'ICD-10 exact', min: 0.8 },
];
