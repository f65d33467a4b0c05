/**
 * Vital signs measured at this visit. Readings the patient brings (home BP, an old report, "last visit", a fever
 * "last night") are left out: a reading counts when nothing just before it, or between its label and its value,
 * says it was taken elsewhere or earlier, unless the words say it was taken here ("BP today is …").
 */
import type { Span, Vitals } from './facts.js';
import type { Doc, Sentence } from './sections.js';

const NUM = String.raw`(\d{1,3}(?:\.\d+)?)`;
const LABEL_WORDS =
  'bp|blood|pressure|pulse|heart|rate|temperature|temp|spo2|sp02|oxygen|saturation|sats?|respiratory|respirations?|rr|weight|weighs|wt|height|length|ht|sugar|glucose|grbs|rbs|fbs|cbg';
const ELSEWHERE_WORD =
  'home|self|outside|earlier|previous|previously|old|last|report|reports|diary|records?|log|showed|shows|brought|machine|birth|yesterday|ago|night|fetal|foetal|gain|loss|lost|gained|tolerance|challenge';
const THIS_VISIT = /\b(?:today|here|now|in (?:the )?(?:clinic|office|opd)|on examination|this visit|measured|recorded)\b/;
// Words a doctor puts between a label and its value: "BP today in the clinic is", "sats are", "came out at". The
// gap is checked after the match (BAD_GAP) rather than word by word inside it, which kept long run-on recogniser
// sentences slow; the shortest gap is tried first, and a longer one only adds words.
const GAP = String.raw`((?:,?\s+(?:[a-z]+|\d+ min(?:ute)?s?)){0,10}?),?\s*:?\s*`;
const BAD_GAP = new RegExp(String.raw`\b(?:${LABEL_WORDS}|${ELSEWHERE_WORD}|and|no|not)\b`);
const RULES = {
  bp: new RegExp(String.raw`\b(?:bp|blood pressure)${GAP}(\d{2,3})\s*(?:\/|over|by)\s*(\d{2,3})`, 'g'),
  pulse: new RegExp(String.raw`\b(?:pulse(?: rate)?|(?<!(?:fetal|foetal)\s)heart rate|hr|pr)${GAP}${NUM}`, 'g'),
  temperature: new RegExp(String.raw`\b(?:temperature|temp|febrile at|fever of)${GAP}${NUM}\s*(?:degrees?\s*)?(f|c|fahrenheit|celsius|centigrade)?\b`, 'g'),
  spo2: new RegExp(String.raw`\b(?:spo2|spo 2|sp02|oxygen saturation|o2 saturation|oxygen level|oxygen|saturation|sats?|saturating)${GAP}${NUM}`, 'g'),
  rr: new RegExp(String.raw`\b(?:respiratory rate|resp rate|rr|respirations?)${GAP}${NUM}`, 'g'),
  weight: new RegExp(String.raw`\b(?:weight|weighs|wt)${GAP}${NUM}\s*(kg|kgs|kilos?|kilograms?|lbs?|pounds?)?`, 'g'),
  // "he's 16.5 kilograms and 103 centimeters": a child's measurements said without their labels.
  measures: new RegExp(String.raw`\b()(?:he's|she's|he is|she is|weighing)\s+${NUM}\s*(?:kg|kgs|kilos?|kilograms?)\b(?:\s+and\s+${NUM}\s*(?:cm|cms|centimet(?:er|re)s?)\b)?`, 'g'),
  height: new RegExp(String.raw`\b(?:height|length|ht)${GAP}${NUM}\s*(cm|cms|centimet(?:er|re)s?|m|met(?:er|re)s?|inch(?:es)?|feet|ft)?`, 'g'),
  glucose: new RegExp(String.raw`\b(?:(?:random|fasting|post ?prandial|pp|capillary)\s+)?(?:blood\s+)?(?:sugar|glucose|grbs|rbs|fbs|cbg)${GAP}${NUM}(?!\s*(?:g|gm|grams?|mg)\b)`, 'g'),
};
const ELSEWHERE_BEFORE = new RegExp(String.raw`\b(?:${ELSEWHERE_WORD}|came with|at home|last (?:visit|week|month|time))\b[^,;:]*$`);
// A sentence that opens on results reads them from a report: none of its numbers are this visit's vitals.
const REPORT_SENTENCE = /^(?:(?:his|her|the|old|outside|previous)\s+)?(?:reports?|labs?|lab results|results|investigations|blood tests?)\b/;
const RUN_ON_TAIL = /\b(?:at home|last (?:week|month|year|night)|yesterday|ago)\s*$/;
const ELSEWHERE_AFTER = /^[^,;:]{0,20}\b(?:last night|yesterday|at home|ago|back|earlier|last week)\b/;

function measuredHere(text: string, m: RegExpExecArray): boolean {
  const said = m[0];
  if (THIS_VISIT.test(said)) return true;
  if (REPORT_SENTENCE.test(text)) return false;
  // The clause before the label, as far back as a few words: a report or a home reading names itself close by.
  const before = text.slice(Math.max(0, m.index - 30), m.index);
  // In a recogniser's run-on sentence a place or time just before a label ends the clause before it ("has a pet cat
  // at home pulse 92", "travelled last month temperature 101"); with punctuation it would have had a comma.
  const runOn = !/[,;:]/.test(text) && RUN_ON_TAIL.test(before);
  if (!runOn && ELSEWHERE_BEFORE.test(before)) return false;
  return !ELSEWHERE_AFTER.test(text.slice(m.index + said.length));
}

/** Matches whose gap holds no other label and no word of elsewhere; group 1 (the gap) is dropped. */
function* hits(re: RegExp, s: Sentence): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(s.text); m; m = re.exec(s.text)) {
    if (BAD_GAP.test(m[1] ?? '')) {
      re.lastIndex = m.index + 1;
      continue;
    }
    const kept = Object.assign([m[0], ...m.slice(2)], { index: m.index, input: m.input }) as unknown as RegExpExecArray;
    if (measuredHere(s.text, kept)) yield kept;
  }
}

export function extractVitals(doc: Doc): { vitals: Vitals; evidence: Partial<Record<keyof Vitals, Span>> } {
  const v: Vitals = {};
  const evidence: Partial<Record<keyof Vitals, Span>> = {};
  const put = <K extends keyof Vitals>(key: K, value: Vitals[K], s: Sentence, m: RegExpExecArray): void => {
    if (v[key] !== undefined) return;
    v[key] = value;
    evidence[key] = s.span(m.index, m.index + m[0].length);
  };
  for (const s of doc.sentences) {
    if (s.speaker === 'patient') continue;
    for (const m of hits(RULES.bp, s)) {
      const sys = Number(m[1]);
      const dia = Number(m[2]);
      if (sys >= 60 && sys <= 260 && dia >= 30 && dia < sys) put('bp', { systolic: sys, diastolic: dia }, s, m);
    }
    for (const m of hits(RULES.pulse, s)) {
      const n = Number(m[1]);
      if (n >= 30 && n <= 220) put('pulse_bpm', n, s, m);
    }
    for (const m of hits(RULES.temperature, s)) {
      const n = Number(m[1]);
      const unit = m[2]?.startsWith('c') ? 'C' : m[2]?.startsWith('f') ? 'F' : n > 45 ? 'F' : 'C';
      if ((unit === 'F' && n >= 90 && n <= 110) || (unit === 'C' && n >= 32 && n <= 43)) put('temperature', { value: n, unit }, s, m);
    }
    for (const m of hits(RULES.spo2, s)) {
      const n = Number(m[1]);
      if (n >= 50 && n <= 100) put('spo2_percent', n, s, m);
    }
    for (const m of hits(RULES.rr, s)) {
      const n = Number(m[1]);
      if (n >= 6 && n <= 80) put('respiratory_rate', n, s, m);
    }
    for (const m of hits(RULES.weight, s)) {
      let n = Number(m[1]);
      if (m[2] && /^(?:lb|pound)/.test(m[2])) n = Math.round(n * 0.4536 * 10) / 10;
      if (n > 0.5 && n < 300) put('weight_kg', n, s, m);
    }
    for (const m of hits(RULES.measures, s)) {
      const kg = Number(m[1]);
      if (kg > 0.5 && kg < 300) put('weight_kg', kg, s, m);
      if (m[2] && Number(m[2]) >= 40 && Number(m[2]) <= 250) put('height_cm', Number(m[2]), s, m);
    }
    for (const m of hits(RULES.height, s)) {
      let n = Number(m[1]);
      const u = m[2] ?? '';
      if (/^m(?:et|$)/.test(u) || (!u && n < 3)) n = Math.round(n * 100);
      else if (/^inch/.test(u)) n = Math.round(n * 2.54);
      else if (/^(?:feet|ft)/.test(u)) n = Math.round(n * 30.48);
      if (n >= 30 && n <= 250) put('height_cm', n, s, m);
    }
    for (const m of hits(RULES.glucose, s)) {
      const n = Number(m[1]);
      if (n >= 20 && n <= 800) put('blood_glucose_mg_dl', n, s, m);
    }
  }
  return { vitals: v, evidence };
}
