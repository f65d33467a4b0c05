/**
 * What the recording adds to the facts structured from its transcript: the seconds at which each fact was said, and
 * a LOW_CONFIDENCE flag on a medication name or strength, a vital sign or a diagnosis built from words the
 * recogniser was unsure of. A transcript without times (typed or pasted text) leaves the facts as they are.
 *
 * Character offsets come from the transcript's own construction: a segment's text is its words joined by single
 * spaces, and the transcript is its segments' texts joined by spaces, so each word is found in order.
 */
import type { Transcript } from '../scribe/contracts.js';
import type { ClinicalFacts, Flag, Span, Vitals } from './facts.js';
import { NUMBER_RUN } from './numbers.js';

/**
 * Below this posterior a word counts as unclear. On the 80 dev dictations spoken by espeak-ng and recognised by
 * PocketSphinx it flags about half of the misheard medications (69 of 127) at 1.5 flags per dictation, three in four
 * of them on items that were misheard; 0.2 flags 63% at 2.0 per dictation (docs/SCRIBE.md, "What the recogniser
 * was unsure of").
 */
export const LOW_CONFIDENCE = 0.1;

/**
 * A recording with more than this share of its words below the threshold was recognised poorly throughout: there
 * the recogniser's language model fills the gaps with likely words, drug names among them, that it is sure of. On
 * the 80 espeak-ng dev dictations 13–40% of words are unclear, and of the medications left unflagged by the
 * per-word check, 42 of 152 were wrong (a drug never said, or a strength off) with no word feature that tells them
 * apart. So past this share no drug is vouched for (docs/SCRIBE.md, "What the recogniser was unsure of").
 */
export const POOR_RECOGNITION = 0.15;
/** Fewer scored words than this say too little about the recording as a whole. */
const MIN_WORDS_FOR_SHARE = 20;

/** A stretch of the transcript text and when it was said: one word with its confidence, or a whole segment. */
interface Piece {
  from: number;
  to: number;
  start: number;
  end: number;
  conf?: number;
}

function piecesOf(t: Transcript): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (const seg of t.segments) {
    const text = seg.text.trim();
    const from = text ? t.text.indexOf(text, at) : -1;
    if (from < 0) continue;
    at = from + text.length;
    if (!seg.words?.length) {
      pieces.push({ from, to: at, start: seg.start, end: seg.end });
      continue;
    }
    let w = from;
    for (const word of seg.words) {
      const i = t.text.indexOf(word.word, w);
      if (i < 0 || i + word.word.length > at) continue;
      w = i + word.word.length;
      pieces.push({ from: i, to: w, start: word.start, end: word.end, conf: word.conf });
    }
  }
  return pieces;
}

/** The pieces a span overlaps (pieces are in text order and do not overlap one another). */
function overlapping(pieces: Piece[], span: Span): Piece[] {
  let lo = 0;
  let hi = pieces.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pieces[mid]!.to <= span.start) lo = mid + 1;
    else hi = mid;
  }
  const out: Piece[] = [];
  for (let i = lo; i < pieces.length && pieces[i]!.from < span.end; i++) out.push(pieces[i]!);
  return out;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

const SPAN_KEYS = new Set(['start', 'end', 'start_s', 'end_s']);

function isSpan(v: object): v is Span {
  const o = v as Record<string, unknown>;
  return typeof o.start === 'number' && typeof o.end === 'number' && Object.keys(o).every((k) => SPAN_KEYS.has(k));
}

/**
 * A copy of `value` with seconds on every Span inside it. Found by shape rather than by field name, so evidence
 * that other passes add to the facts later gets its seconds too.
 */
function withSeconds<T>(value: T, pieces: Piece[]): T {
  if (Array.isArray(value)) return value.map((v: unknown) => withSeconds(v, pieces)) as T;
  if (value === null || typeof value !== 'object') return value;
  if (isSpan(value)) {
    const hit = overlapping(pieces, value);
    if (!hit.length) return { ...value } as T;
    return { ...value, start_s: round2(hit[0]!.start), end_s: round2(Math.max(...hit.map((p) => p.end))) } as T;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSeconds(v, pieces)])) as T;
}

const VITAL_NAMES: Record<keyof Vitals, string> = {
  bp: 'blood pressure',
  pulse_bpm: 'pulse',
  temperature: 'temperature',
  spo2_percent: 'oxygen saturation',
  respiratory_rate: 'respiratory rate',
  weight_kg: 'weight',
  height_cm: 'height',
  blood_glucose_mg_dl: 'blood glucose',
};

function vitalValue(v: Vitals, key: keyof Vitals): string {
  switch (key) {
    case 'bp':
      return `${v.bp!.systolic}/${v.bp!.diastolic}`;
    case 'temperature':
      return `${v.temperature!.value} °${v.temperature!.unit}`;
    default:
      return String(v[key]);
  }
}

export interface AnnotateOptions {
  /** Words below this confidence are unclear (default LOW_CONFIDENCE). */
  threshold?: number;
}

/**
 * The facts with seconds on every evidence span and LOW_CONFIDENCE flags for what was unclear in the recording.
 * Returns `facts` itself when the transcript has no timed segments (it did not come from audio).
 */
export function annotateFromAudio(facts: ClinicalFacts, transcript: Transcript, opts: AnnotateOptions = {}): ClinicalFacts {
  const pieces = piecesOf(transcript);
  if (!pieces.length) return facts;
  const threshold = opts.threshold ?? LOW_CONFIDENCE;
  const out = withSeconds(facts, pieces);

  /**
   * What was heard over the span when one of its words is unclear; null when all are clear or none has a confidence.
   * With `numbersOnly`, only its number words count, when it has any.
   */
  const unclear = (span: Span | undefined, numbersOnly = false): string | null => {
    if (!span) return null;
    const words = overlapping(pieces, span).filter((p) => p.conf !== undefined);
    const numbers = numbersOnly ? [...transcript.text.slice(span.start, span.end).matchAll(NUMBER_RUN)].map((m) => ({ from: span.start + m.index, to: span.start + m.index + m[0].length })) : [];
    const counted = numbers.length ? words.filter((p) => numbers.some((n) => p.from < n.to && p.to > n.from)) : words;
    if (!counted.some((p) => p.conf! < threshold)) return null;
    return transcript.text.slice(Math.min(span.start, words[0]!.from), Math.max(span.end, words.at(-1)!.to)).trim();
  };
  // A test the recogniser was unsure of word after word is most often its language model's guess at a stretch it
  // could not hear ("micturating cystourethrogram" in a pregnancy visit): like an item tied to no words, it is not
  // output. On the 80 espeak-ng dictations this makes 6 in 10 of the tests it outputs right instead of 4 in 10, at the
  // cost of 4 in 100 of the tests said (docs/SCRIBE.md).
  out.investigations = out.investigations.filter((inv) => {
    const ws = inv.evidence ? overlapping(pieces, inv.evidence).filter((p) => p.conf !== undefined) : [];
    return !ws.length || ws.reduce((a, p) => a + p.conf!, 0) / ws.length >= threshold;
  });
  const flags: Flag[] = [];
  const flag = (pointer: string, message: string) => flags.push({ code: 'LOW_CONFIDENCE', pointer, message: `${message} was unclear in the recording — check.` });

  out.medications.forEach((m, i) => {
    const name = m.field_evidence?.name ?? m.evidence;
    const strengthSpan = m.field_evidence?.strength ?? m.evidence;
    const heardName = unclear(name);
    // The strength's number, not its unit: "milligrams" is often heard unsure, and a unit that does not fit the drug
    // is the dose checks' to catch (safety.ts).
    const heardStrength = m.strength ? unclear(strengthSpan, true) : null;
    const strength = m.strength ? `${m.strength.value} ${m.strength.unit}` : '';
    if (heardName !== null) {
      // One flag per drug: a doubtful name makes its strength doubtful too.
      if (heardStrength !== null) {
        const both = { start: Math.min(name!.start, strengthSpan!.start), end: Math.max(name!.end, strengthSpan!.end) };
        flag(`/medications/${i}`, `The drug ${m.name} ${strength} (heard "${unclear(both)}")`);
      } else flag(`/medications/${i}`, `The drug ${m.name} (heard "${heardName}")`);
    } else if (heardStrength !== null) {
      flag(`/medications/${i}/strength`, `The strength of ${m.name} (${strength}, heard "${heardStrength}")`);
    }
  });
  // A vital's label is often heard unsure ("bp", "heart rate") while its number is clear; the number is what the
  // doctor acts on.
  for (const key of Object.keys(out.vitals) as (keyof Vitals)[]) {
    const heard = unclear(out.evidence.vitals[key], true);
    if (heard !== null) flag(`/vitals/${key}`, `The ${VITAL_NAMES[key]} (${vitalValue(out.vitals, key)}, heard "${heard}")`);
  }
  out.diagnoses.forEach((d, i) => {
    const heard = unclear(d.evidence);
    if (heard !== null) flag(`/diagnoses/${i}`, `The diagnosis ${d.name} (heard "${heard}")`);
  });

  const already = new Set(out.flags.filter((f) => f.code === 'LOW_CONFIDENCE').map((f) => f.pointer));
  out.flags = [...out.flags, ...flags.filter((f) => !already.has(f.pointer))];

  const scored = pieces.filter((p) => p.conf !== undefined);
  const unclearShare = scored.filter((p) => p.conf! < threshold).length / Math.max(1, scored.length);
  if (scored.length >= MIN_WORDS_FOR_SHARE && unclearShare > POOR_RECOGNITION) {
    const percent = Math.round(unclearShare * 100);
    const flagged = (i: number) => out.flags.some((f) => f.pointer === `/medications/${i}` || f.pointer.startsWith(`/medications/${i}/`));
    out.medications.forEach((m, i) => {
      if (flagged(i)) return;
      const span = m.evidence ?? m.field_evidence?.name;
      const heard = span ? transcript.text.slice(span.start, span.end).trim() : m.name;
      const strength = m.strength ? ` ${m.strength.value} ${m.strength.unit}` : '';
      out.flags.push({
        code: 'LOW_CONFIDENCE',
        pointer: `/medications/${i}`,
        message: `The drug ${m.name}${strength} (heard "${heard}") comes from a recording the recogniser heard poorly (${percent}% of its words unclear) — check it against the recording.`,
      });
    });
  }
  return out;
}
