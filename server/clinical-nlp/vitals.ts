/**
 * Vital signs measured at this visit, read from a label, at most a few words, then a value and its unit: "BP:
 * 112/74", "Pulse: 64", "Height = 72 in", "T: 98", "Ht: 5' 5\"", "your blood pressure today it's about 122 over 80".
 * The labels, units and the words that place a reading elsewhere are data (vocab/vitals.json).
 *
 * Readings the patient brings (home BP, an old report, "last visit", a fever "last night"), targets ("target BP is
 * 130"), a pulse the patient counts or a weight the patient states in a consultation, and anything in a remote
 * consultation are left out: a reading counts when nothing just before it, or between its label and its value,
 * says it was taken elsewhere or earlier, unless the words say it was taken here ("BP today is …").
 *
 * A unit that was not said is read by the conventions of ../shared/fixtures/README.md (a temperature is °F from 50,
 * °C below 45; a US weight is pounds), and a reading whose unit had to be assumed is returned in `assumed`, so it is
 * never shown as if the unit had been said.
 */
import { escapeRegExp } from './lexicon.js';
import { type Static, Type } from 'typebox';
import VITALS_FILE from './vocab/vitals.json' with { type: 'json' };
import { checkedData, Provenance } from './vocab/data-file.js';
import type { Span, Vitals } from './facts.js';
import type { Doc, Sentence } from './sections.js';

type Key = keyof Vitals;
const KEYS = ['bp', 'pulse_bpm', 'temperature', 'spo2_percent', 'respiratory_rate', 'weight_kg', 'height_cm', 'blood_glucose_mg_dl'] as const satisfies readonly Key[];

const Words = Type.Array(Type.String({ minLength: 1 }));
const KeySchema = Type.Unsafe<Key>(Type.Union(KEYS.map((k) => Type.Literal(k))));
const Range = Type.Object({ min: Type.Number(), max: Type.Number() });
const UnitSchema = Type.Object({
  names: Words,
  factor: Type.Number({ exclusiveMinimum: 0 }),
  unit: Type.Optional(Type.Union([Type.Literal('F'), Type.Literal('C')])),
  /** The smaller unit said after this one's number: "5 ft 5 (in)", "11 stone 4 (lb)". */
  then: Type.Optional(Type.String()),
  /** The unit names the vital without its label: "72 beats per minute", "98.6 °F". */
  alone: Type.Optional(Type.Boolean()),
});
const VitalSchema = Type.Object({
  key: KeySchema,
  labels: Words,
  misheard_labels: Type.Optional(Words),
  /**
   * Labels that read a value only with its unit said and nothing between: "he's 16.5 kg", "kg and 103 cm"; for a BP,
   * whose pair of numbers says what it is, only with a pair no other measure has: "it's 138 over 86".
   */
  unit_labels: Type.Optional(Words),
  short_labels: Type.Optional(Words),
  not_before: Words,
  not_after: Words,
  units: Type.Array(UnitSchema),
  range: Range,
  diastolic_range: Type.Optional(Range),
});
export const VitalsFileSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  vitals: Type.Array(VitalSchema),
  elsewhere_words: Words,
  change_words: Words,
  posture_phrases: Words,
  gap_words_of_labels: Words,
  this_visit_phrases: Words,
  elsewhere_before_phrases: Words,
  earlier_visit_phrases: Words,
  findings_openers: Words,
  fronted_openers: Words,
  run_on_place_or_time: Words,
  elsewhere_after_phrases: Words,
  report_openings: Words,
  ambiguous_units: Words,
  not_a_reading_after: Words,
  change_after: Words,
  self_measured: Words,
  clinician_measures: Words,
  self_measured_vitals: Type.Record(Type.String(), Type.Array(KeySchema)),
  remote_consultation: Words,
});
type VitalRow = Static<typeof VitalSchema>;
type UnitRow = Static<typeof UnitSchema>;

export const VITALS_VOCAB = checkedData('vitals.json', VitalsFileSchema, VITALS_FILE);
const V = VITALS_VOCAB;

// ---- Regular expressions built from the data, once. ----

/** A phrase as a regex source: its words may be split by any spacing. */
const phrase = (p: string): string => escapeRegExp(p).replace(/\s+/g, String.raw`\s+`);
/** Longest first, so "pulse rate" wins over "pulse". */
const alt = (ps: readonly string[]): string => [...new Set(ps)].sort((a, b) => b.length - a.length).map(phrase).join('|');
const START = String.raw`(?<![a-z0-9/'])`;
const END = String.raw`(?![a-z0-9])`;
const wordsRe = (ps: readonly string[]): RegExp => new RegExp(String.raw`${START}(?:${alt(ps)})${END}`);

const LABEL_ANY = alt(V.vitals.flatMap((v) => [...v.labels, ...(v.misheard_labels ?? [])]));
// A unit that is also a word or a letter ("in", "m", "c") only ends a reading: "Height = 72 in", "temp 38 c, pulse".
const UNIT_TAIL = String.raw`(?=\s*(?:$|[,;.:)]|\d|and\b|(?:${LABEL_ANY}|[tpr])${END}))`;
const AMBIGUOUS = new Set(V.ambiguous_units);
const unitAlt = (units: readonly UnitRow[]): string =>
  [...new Set(units.flatMap((u) => u.names))]
    .sort((a, b) => b.length - a.length)
    .map((n) => phrase(n) + (AMBIGUOUS.has(n) ? END + UNIT_TAIL : /[a-z0-9]$/.test(n) ? END : ''))
    .join('|');
/** What may not follow a value said without its own unit: a dose, a duration, or another vital's unit ("weight … 170 cm"). */
function notAReading(v: VitalRow): string {
  const own = new Set(v.units.flatMap((u) => u.names));
  const others = V.vitals.flatMap((o) => o.units.flatMap((u) => u.names)).filter((n) => !own.has(n) && !AMBIGUOUS.has(n) && /[a-z]$/.test(n));
  return String.raw`(?!\s*(?:${alt([...V.not_a_reading_after, ...others])})${END})`;
}
const NUM = String.raw`\d{1,3}(?:\.\d+)?(?!\d|\/\d)`;

/**
 * The value part of a rule: a pair (BP), or a number with an optional unit; after a unit with a smaller one
 * ("5 ft 5 in", "11 stone 4") a second number. A height said as two bare numbers ("ht 5 5") is feet and inches.
 */
function valueSource(v: VitalRow): string {
  const units = unitAlt(v.units);
  const unitPart = units ? String.raw`\s*(?<u>${units})` : '(?!)';
  const NOT_A_READING = notAReading(v);
  if (v.key === 'bp') return String.raw`(?<a>\d{2,3})\s*(?:\/|over|by)\s*(?<b>\d{2,3})(?![\d])(?:${unitPart}|${NOT_A_READING})`;
  const big = v.units.filter((u) => u.then);
  const small = big.flatMap((u) => v.units.filter((s) => s.names.includes(u.then!)));
  const compound = big.length
    ? String.raw`\s*(?<big>${unitAlt(big)})\s*(?<b>\d{1,2}(?:\.\d+)?)(?![\d])(?:\s*(?<small>${unitAlt(small)}))?|`
    : '';
  const barePair = v.key === 'height_cm' ? String.raw`|\s+(?<bare>\d{1,2})(?![\d.])(?=\s*(?:$|[,;.]|\s[a-z]))` : '';
  return String.raw`(?<a>${NUM})(?:${compound}${unitPart}${barePair}|${NOT_A_READING})`;
}

// Words a doctor puts between a label and its value: "BP today in the clinic is", "sats are", "came out at". The gap
// is checked after the match rather than word by word inside it, which kept long run-on recogniser sentences slow;
// the shortest gap is tried first, and a longer one only adds words.
const GAP = String.raw`(?<gap>(?:[\s,:=-]+[a-z]+(?:'[a-z]+)?|[\s,]+\d+\s*min(?:ute)?s?){0,12}?)[\s,:=-]*`;
const notBefore = (ws: readonly string[]): string => (ws.length ? String.raw`(?<!${START}(?:${alt(ws)})\s+)` : '');
const notAfter = (ws: readonly string[]): string => (ws.length ? String.raw`(?!\s+(?:${alt(ws)})${END})` : '');
const labelSource = (v: VitalRow, labels: readonly string[]): string =>
  String.raw`${START}${notBefore(v.not_before)}(?<label>${alt(labels)})(?:'s)?${END}${notAfter(v.not_after)}`;

// Function words and qualifiers inside labels ("fever of", "glucometer reading") may sit in a gap; the other words
// of another vital's label may not, nor a word that places the reading elsewhere or makes it a change or a target
// ("weight is up 2 kg").
const GAP_OK = new Set(V.gap_words_of_labels);
const labelWords = (v: VitalRow): string[] => [...v.labels, ...(v.misheard_labels ?? [])].flatMap((l) => l.split(/\s+/));
function badGap(v: VitalRow): RegExp {
  const own = new Set(labelWords(v));
  const others = V.vitals.filter((o) => o !== v).flatMap(labelWords).filter((w) => !GAP_OK.has(w) && !own.has(w));
  return new RegExp(String.raw`${START}(?:${alt([...others, ...V.elsewhere_words, ...V.change_words, 'no', 'not'])})${END}`);
}

interface Rules {
  row: VitalRow;
  /** What may not stand between this vital's label and its value. */
  badGap: RegExp;
  labelled: RegExp;
  /** "pressure 130 over 80": a recogniser's "blood pressure" missing a word, read only with a BP-shaped value. */
  misheard?: RegExp;
  /** "he's 16.5 kilograms", "it's 138 over 86": words that are a label only when a unit (a BP's pair) follows the number. */
  withUnit?: RegExp;
  /** "T: 98.6", "P 90", "t98": a report list's letters, read only where the sentence is such a list. */
  short?: RegExp;
  /** "72 beats per minute", "120/80 mmHg": a unit that names the vital. */
  alone?: RegExp;
}
const RULES: Rules[] = V.vitals.map((v) => {
  const value = valueSource(v);
  const aloneUnits = v.units.filter((u) => u.alone);
  return {
    row: v,
    badGap: badGap(v),
    labelled: new RegExp(labelSource(v, v.labels) + GAP + value, 'g'),
    ...(v.misheard_labels?.length ? { misheard: new RegExp(labelSource(v, v.misheard_labels) + GAP + value, 'g') } : {}),
    ...(v.unit_labels?.length
      ? {
          withUnit: new RegExp(
            String.raw`${START}(?<label>${alt(v.unit_labels)})\s+` +
              (v.key === 'bp' ? String.raw`(?<a>\d{2,3})\s*(?:\/|over)\s*(?<b>\d{2,3})(?![\d.])` : String.raw`(?<a>${NUM})\s*(?<u>${unitAlt(v.units)})`),
            'g',
          ),
        }
      : {}),
    ...(v.short_labels?.length ? { short: new RegExp(String.raw`${START}(?<label>${alt(v.short_labels)})(?:\s*[:=]\s*|\s+|(?=\d))${value}`, 'g') } : {}),
    ...(aloneUnits.length
      ? {
          alone: new RegExp(
            v.key === 'bp'
              ? String.raw`(?<![\d./])(?<a>\d{2,3})\s*\/\s*(?<b>\d{2,3})\s*(?<u>${unitAlt(aloneUnits)})`
              : String.raw`(?<![\d./])(?<a>${NUM})\s*(?<u>${unitAlt(aloneUnits)})`,
            'g',
          ),
        }
      : {}),
  };
});

const TOLD_PAST = /\b(?:was|were)\b/;
// "heart rate is nice and slow at 67": a gap may join two words of description, not a new clause.
const GAP_AND = /\band\b((?:\s+\S+)*)$/;

const THIS_VISIT = wordsRe(V.this_visit_phrases);
const ELSEWHERE_BEFORE = new RegExp(String.raw`${START}(?:${alt([...V.elsewhere_words, ...V.elsewhere_before_phrases])})${END}[^,;:]*$`);
// Unless the words open the next clause, as in a recogniser's run-on sentence: "weight 52 kg last month it was 54".
const ELSEWHERE_AFTER = new RegExp(String.raw`^[^,;:]{0,20}${START}(?:${alt(V.elsewhere_after_phrases)})${END}(?!\s+(?:it|it's|she|he|you|they|we|i)${END})`);
// "a fever of 101 for three days" is the history of a fever, not a reading.
// "a five pound increase": a change of the vital, not a reading.
const CHANGE_AFTER = new RegExp(String.raw`^\s*(?:${alt(V.change_after)})${END}`);
const LASTED_AFTER = /^\s*(?:for|x)\s+(?:\d+|a|an|one|two|three|a few|several|a couple of)\s+(?:days?|weeks?|months?|years?|hours?)\b/;
// A sentence that opens on results reads them from a report: none of its numbers are this visit's vitals.
const REPORT_SENTENCE = new RegExp(String.raw`^(?:(?:his|her|the|old|outside|previous)\s+)?(?:${alt(V.report_openings)})${END}`);
// In a recogniser's run-on sentence a place or time just before a label ends the clause before it ("has a pet cat
// at home pulse 92", "travelled last month temperature 101"); with punctuation it would have had a comma.
const RUN_ON_TAIL = new RegExp(String.raw`${START}(?:${alt(V.run_on_place_or_time)})\s*$`);
const READING_END = new RegExp(String.raw`${START}(?:${LABEL_ANY})${END}\D{0,30}\d[\d./]*(?:\s*(?:${alt(V.vitals.flatMap((v) => v.units.flatMap((u) => u.names)))})${END})?`, 'g');
const EARLIER_VISIT = wordsRe(V.earlier_visit_phrases);
const FINDINGS_OPENER = new RegExp(String.raw`${START}(?:${alt(V.findings_openers)})${END}`, 'g');
// A clause opened by a place or time ("at last visit on april 16, her blood pressure was …") belongs to the next one.
const FRONTED = new RegExp(String.raw`^\s*(?:${alt(V.fronted_openers)})${END}`);
const SELF_MEASURED = new RegExp(String.raw`${START}(?:${alt(V.self_measured)})${END}`);
const CLINICIAN_MEASURES = new RegExp(String.raw`${START}(?:${alt(V.clinician_measures)})\s*$`);
const SELF_MEASURED_WORD = new RegExp(String.raw`${START}(?:${alt(Object.keys(V.self_measured_vitals))})${END}`, 'g');
const REMOTE = wordsRe(V.remote_consultation);
// How many sentences after a doctor asks the patient to measure or state a vital the numbers are the patient's.
const SELF_MEASURED_REACH = 12;

/**
 * Sections that hold no reading of this visit, and the review of systems, which holds one only with "today". A
 * dictated "complaints:" or "history:" runs on into the findings when no heading follows, so those are not gated.
 */
const NO_VITALS: ReadonlySet<string> = new Set(['past_history', 'family', 'social', 'medications', 'allergies', 'results']);

/**
 * The text before a label back to its clause's start: `near`, the words a place or time qualifying the reading sits
 * in, and `wide`, where an earlier visit named ("at last visit on april 16th her blood pressure …") still reaches.
 */
function clauseBefore(text: string, at: number): { near: string; wide: string } {
  const parts = text.slice(0, at).split(/[,;:]/);
  // In a run-on recogniser sentence the reading before, or "vitals", ends the clause: "… last month temperature 101
  // pulse 90", "… 2 years ago vitals temp 99.1".
  const clause = parts.pop() ?? '';
  const reading = [...clause.matchAll(READING_END), ...clause.matchAll(FINDINGS_OPENER)].sort((a, b) => a.index + a[0].length - b.index - b[0].length).pop();
  const last = reading ? clause.slice(reading.index + reading[0].length) : clause;
  const lead = parts.pop();
  const wide = (lead !== undefined && FRONTED.test(lead) ? `${lead} ${last}` : last).slice(-80);
  // A clause opened by a place or time is read whole; any other only near the label, as a long run-on sentence
  // tells many things before it.
  return { near: FRONTED.test(wide) ? wide : last.slice(-30), wide };
}

function measuredHere(s: Sentence, m: RegExpExecArray): boolean {
  const text = s.text;
  const said = m[0];
  const { near: before, wide } = clauseBefore(text, m.index);
  // Up to the next number: in a run-on sentence that starts the next reading ("pulse 96 weight 52 kg last month …").
  const after = text.slice(m.index + said.length);
  // A place said after the value outweighs a "here" before it: "I see here it was 180 over 95 when you went into the ER".
  const elsewhereAfter = ELSEWHERE_AFTER.test(after.split(/\d/)[0]!);
  // "weight today is 4 pounds down from discharge": a change, however much it is today's.
  if (CHANGE_AFTER.test(after)) return false;
  if ((THIS_VISIT.test(said) || THIS_VISIT.test(before)) && !elsewhereAfter) return true;
  const section = s.section ?? null;
  if (section && (NO_VITALS.has(section) || (section === 'review' && !THIS_VISIT.test(text)))) return false;
  if (REPORT_SENTENCE.test(text)) return false;
  const runOn = !/[,;:]/.test(text) && RUN_ON_TAIL.test(before);
  if ((!runOn && ELSEWHERE_BEFORE.test(before)) || EARLIER_VISIT.test(wide)) return false;
  return !elsewhereAfter && !LASTED_AFTER.test(after);
}

// "blood pressure sitting down was 180/80": a posture is not a change ("weight is down 2 kg").
const POSTURE = new RegExp(String.raw`${START}(?:${alt(V.posture_phrases)})${END}`, 'g');

function gapOk(r: Rules, said: string): boolean {
  const gap = said.replace(POSTURE, ' ');
  if (r.badGap.test(gap)) return false;
  const and = GAP_AND.exec(gap);
  return !and || and[1]!.trim().split(/\s+/).filter(Boolean).length <= 2;
}

/**
 * A report list's letter label reads only after a colon, with a decimal value ("T 98.6"), in a VITALS section, or
 * beside another vital's label.
 */
function shortLabelOk(s: Sentence, m: RegExpExecArray): boolean {
  if (/^[a-z]\s*[:=]/.test(m[0]) || m.groups?.a?.includes('.') || s.section === 'vitals') return true;
  return RULES.some((r) => {
    r.labelled.lastIndex = 0;
    return r.labelled.test(s.text);
  });
}

const bareBp = (systolic: number, diastolic: number): boolean => systolic >= 80 && diastolic >= 40 && systolic - diastolic <= 110;

interface Hit {
  m: RegExpExecArray;
  g: Record<string, string | undefined>;
}

const HAS_DIGIT = /\d/;

/** Every reading of one vital in a sentence, in the order said. */
function hitsOf(r: Rules, s: Sentence): Hit[] {
  const out: Hit[] = [];
  // Every reading has a number: a sentence without a digit is not scanned.
  if (!HAS_DIGIT.test(s.text)) return out;
  const scan = (re: RegExp | undefined, ok: (m: RegExpExecArray) => boolean): void => {
    if (!re) return;
    re.lastIndex = 0;
    for (let m = re.exec(s.text); m; m = re.exec(s.text)) {
      const g = m.groups ?? {};
      if (g.gap !== undefined && !gapOk(r, g.gap)) {
        re.lastIndex = m.index + 1;
        continue;
      }
      if (ok(m) && measuredHere(s, m)) out.push({ m, g });
    }
  };
  scan(r.labelled, () => true);
  // A misheard label needs a value no other pressure has: a systolic of 80 or more.
  scan(r.misheard, (m) => Number(m.groups!.a) >= 80);
  // A pair said without its label is a BP only where no dose or insulin mix has it: a systolic of 80 or more, a
  // diastolic of 40 or more and a pulse pressure of at most 110 ("it's 70/30", "it's 250/50" are an insulin and an
  // inhaler).
  scan(r.withUnit, (m) => r.row.key !== 'bp' || bareBp(Number(m.groups!.a), Number(m.groups!.b)));
  scan(r.short, (m) => shortLabelOk(s, m));
  scan(r.alone, () => true);
  return out.sort((a, b) => a.m.index - b.m.index);
}

const round1 = (n: number): number => Math.round(n * 10) / 10;
const unitOf = (row: VitalRow, name: string | undefined): UnitRow | undefined =>
  name === undefined ? undefined : row.units.find((u) => u.names.some((n) => n.replace(/\s+/g, ' ') === name.replace(/\s+/g, ' ')));
const inRange = (n: number, r: { min: number; max: number }): boolean => n >= r.min && n <= r.max;

interface Reading {
  value: Vitals[Key];
  /** Why the unit was assumed, when it was not said. */
  assumed?: string;
}

/** The value of a hit in the stored unit, or null when it is not a plausible reading. */
function readingOf(row: VitalRow, g: Hit['g'], us: boolean): Reading | null {
  const a = Number(g.a);
  const unit = unitOf(row, g.u ?? g.big);
  switch (row.key) {
    case 'bp': {
      const b = Number(g.b);
      return inRange(a, row.range) && inRange(b, row.diastolic_range ?? row.range) && b < a ? { value: { systolic: a, diastolic: b } } : null;
    }
    case 'temperature': {
      // Said without a unit, the value tells it: nobody alive has 50 °C or 45 °F.
      const scale = unit?.unit ?? (a >= 50 ? 'F' : a < 45 ? 'C' : undefined);
      if (!scale) return null;
      const ok = scale === 'F' ? a >= 90 && a <= 110 : a >= 32 && a <= 43;
      return ok ? { value: { value: a, unit: scale } } : null;
    }
    case 'weight_kg': {
      if (unit) return saidIn(row, g, a, unit);
      if (!us) return readingIn(row, a);
      const r = readingIn(row, round1(a * unitOf(row, 'lb')!.factor));
      return r && { ...r, assumed: `weight said as ${g.a} without a unit; read as pounds, as in a US note` };
    }
    case 'height_cm':
      return heightOf(row, g, a, unit, us);
    case 'blood_glucose_mg_dl':
      return readingIn(row, unit && unit.factor !== 1 ? Math.round(a * unit.factor) : a);
    default:
      return readingIn(row, a);
  }
}

function readingIn(row: VitalRow, n: number): Reading | null {
  return inRange(n, row.range) ? { value: n } : null;
}

/** A value said with its unit, with the smaller unit's number after it ("5 ft 5", "11 stone 4"). */
function saidIn(row: VitalRow, g: Hit['g'], a: number, unit: UnitRow): Reading | null {
  const extra = g.b !== undefined ? Number(g.b) * (unitOf(row, unit.then)?.factor ?? 0) : 0;
  return readingIn(row, unit.factor === 1 ? a : round1(a * unit.factor + extra));
}

function heightOf(row: VitalRow, g: Hit['g'], a: number, unit: UnitRow | undefined, us: boolean): Reading | null {
  const inch = unitOf(row, 'in')!.factor;
  if (unit) return saidIn(row, g, a, unit);
  if (g.bare !== undefined) {
    const inches = Number(g.bare);
    if (a < 3 || a > 7 || inches > 11) return null;
    const r = readingIn(row, round1((a * 12 + inches) * inch));
    return r && { ...r, assumed: `height said as ${g.a} ${g.bare} without units; read as feet and inches` };
  }
  if (a < 3) return readingIn(row, Math.round(a * 100));
  if (us && a >= 48 && a <= 84) {
    const r = readingIn(row, round1(a * inch));
    return r && { ...r, assumed: `height said as ${g.a} without a unit; read as inches, as in a US note` };
  }
  return readingIn(row, a);
}

/**
 * "normal temperature at 98. 4 which is good": a recogniser wrote the "point" of a decimal as a full stop, so the
 * sentence ends on the whole number and the next starts with its one decimal digit.
 */
function decimalSplit(s: Sentence, next: Sentence | undefined, m: RegExpExecArray): { digit: string; span: Span } | null {
  if (!next || next.speaker !== s.speaker || m.groups?.u !== undefined || m.groups?.a?.includes('.')) return null;
  if (s.text.slice(m.index + m[0].length).trim()) return null;
  const d = /^(\d)(?=\s+[a-z])/.exec(next.text);
  return d ? { digit: d[1]!, span: { start: s.span(m.index, m.index + 1).start, end: next.span(0, 1).end } } : null;
}

/**
 * "temperature at 98 4 which is good": a decimal whose point the recogniser lost. Read with its digit, since a
 * temperature of 98 with a stray 4 after it is the less likely reading, and flagged, since which was meant is unsure.
 */
function droppedPoint(s: Sentence, m: RegExpExecArray): { digit: string; end: number } | null {
  if (m.groups?.u !== undefined || m.groups?.a?.includes('.')) return null;
  const after = m.index + m[0].length;
  const d = /^\s+(\d)(?![\d.])(?=\s+[a-z])/.exec(s.text.slice(after));
  return d ? { digit: d[1]!, end: after + d[0].length } : null;
}

/** Vitals the doctor asked the patient to measure or tell ("can you count your pulse", "how much do you weigh"), by the sentence that asked. */
function selfMeasured(doc: Doc): { keys: Map<number, Set<Key>>; from: Map<number, number> } {
  const out = new Map<number, Set<Key>>();
  // Where in its own sentence the patient's measuring is first talked of: a reading before it is the clinician's
  // ("let's do a quick physical exam … your temperature is 98.7 … also weigh yourself daily").
  const from = new Map<number, number>();
  if (!doc.consultation) return { keys: out, from };
  for (const s of doc.sentences) {
    const asked = SELF_MEASURED.exec(s.text);
    if (!asked || CLINICIAN_MEASURES.test(s.text.slice(0, asked.index))) continue;
    const keys = new Set<Key>();
    for (const w of s.text.matchAll(SELF_MEASURED_WORD)) for (const k of V.self_measured_vitals[w[0]] ?? []) keys.add(k);
    if (!out.has(s.index)) from.set(s.index, asked.index);
    for (let i = s.index; i < s.index + SELF_MEASURED_REACH; i++) out.set(i, new Set([...(out.get(i) ?? []), ...keys]));
  }
  return { keys: out, from };
}

// "Wt. 198 lb": the period of an abbreviated label ended the sentence before its value.
const SHORT_ANY = alt(V.vitals.flatMap((v) => v.short_labels ?? []));
const LABEL_AT_END = new RegExp(String.raw`${START}(?:${LABEL_ANY}|${SHORT_ANY})$`);

/** The sentence joined to the next when it ends on a label and the next starts with the value. */
function withAbbreviatedLabel(s: Sentence, next: Sentence | undefined): Sentence {
  if (!next || next.speaker !== s.speaker || !/^\d/.test(next.text) || !LABEL_AT_END.test(s.text)) return s;
  const cut = s.text.length + 1;
  const text = `${s.text} ${next.text}`;
  const span = (from: number, to: number): Span => {
    if (to <= cut) return s.span(from, Math.min(to, s.text.length));
    if (from >= cut) return next.span(from - cut, to - cut);
    return { start: s.span(from, s.text.length).start, end: next.span(0, to - cut).end };
  };
  return { ...s, text, span };
}

const VITAL_LABEL = new RegExp(String.raw`^(?:${LABEL_ANY}|${SHORT_ANY})$`);
/** Is `words` a vital's label ("BP", "Pulse", "T")? A line "BP: 112/74" starts with one, not with a speaker's name. */
export function isVitalLabel(words: string): boolean {
  return VITAL_LABEL.test(words.trim().toLowerCase());
}

export interface VitalsResult {
  vitals: Vitals;
  evidence: Partial<Record<Key, Span>>;
  /** Readings whose unit was not said and was assumed, with why: to be shown to the doctor, never silently. */
  assumed: Partial<Record<Key, string>>;
  /** Readings whose number was read past what the recogniser wrote (a decimal point it lost), with how. */
  unheard: Partial<Record<Key, string>>;
}

/**
 * The vitals of this visit, the first reading of each stated. `locale` decides a unit left unsaid where the note's
 * country does (a US weight without a unit is in pounds).
 */
export function extractVitals(doc: Doc, locale = ''): VitalsResult {
  const v: Vitals = {};
  const evidence: VitalsResult['evidence'] = {};
  const assumed: VitalsResult['assumed'] = {};
  const unheard: VitalsResult['unheard'] = {};
  // Nothing is measured by the doctor in a consultation held by video or phone.
  if (doc.consultation && doc.sentences.some((s) => REMOTE.test(s.text))) return { vitals: v, evidence, assumed, unheard };
  const us = /^en-us$/i.test(locale);
  const patientsOwn = selfMeasured(doc);
  const told = new Set<Key>();
  for (const said of doc.sentences) {
    if (said.speaker === 'patient') continue;
    const next = doc.sentences[said.index + 1];
    const s = withAbbreviatedLabel(said, next);
    const following = s === said ? next : doc.sentences[said.index + 2];
    for (const r of RULES) {
      const key = r.row.key;
      if (v[key] !== undefined && !told.has(key)) continue;
      for (const { m, g } of hitsOf(r, s)) {
        // A reading told in the past ("your blood pressure was 200 over 90") gives way to one said to be this visit's;
        // so does the patient's own measuring talked of before ("have you bought a blood pressure cuff").
        const here = THIS_VISIT.test(m[0]) || THIS_VISIT.test(clauseBefore(s.text, m.index).near);
        const patients = !!patientsOwn.keys.get(s.index)?.has(key) && m.index >= (patientsOwn.from.get(s.index) ?? 0);
        if ((v[key] !== undefined || patients) && !here) continue;
        let span = s.span(m.index, m.index + m[0].length);
        let reading = readingOf(r.row, g, us);
        const dropped = key === 'temperature' ? droppedPoint(s, m) : null;
        if (dropped) {
          reading = readingOf(r.row, { ...g, a: `${g.a}.${dropped.digit}` }, us);
          span = s.span(m.index, dropped.end);
          unheard[key] = `temperature heard as "${g.a} ${dropped.digit}" and read as ${g.a}.${dropped.digit}: the decimal point was not heard`;
        }
        const split = key === 'temperature' ? decimalSplit(s, following, m) : null;
        if (split) {
          const joined = readingOf(r.row, { ...g, a: `${g.a}.${split.digit}` }, us);
          if (joined) [reading, span] = [joined, split.span];
        }
        if (!reading) continue;
        (v as Record<Key, unknown>)[key] = reading.value;
        evidence[key] = span;
        if (reading.assumed) assumed[key] = reading.assumed;
        else delete assumed[key];
        if (!here && TOLD_PAST.test(m.groups?.gap ?? '')) told.add(key);
        else told.delete(key);
        break;
      }
    }
  }
  return { vitals: v, evidence, assumed, unheard };
}
