/**
 * Vital signs measured at this visit. Readings the patient brings (home BP, an old report, "last visit") are left
 * out: a reading counts only when nothing just before it in its sentence says it was taken elsewhere or earlier.
 */
import type { Vitals } from './facts.js';
import type { Doc } from './sections.js';

const NUM = String.raw`(\d{1,3}(?:\.\d+)?)`;
const GAP = String.raw`(?:\s+(?:is|was|of|at|about|around|reading|recorded|measured|today|now|noted|on\s+glucometer|by\s+glucometer|glucometer|in\s+clinic))*\s*:?\s*`;
const RULES = {
  bp: new RegExp(String.raw`\b(?:bp|blood pressure)${GAP}(\d{2,3})\s*(?:\/|over|by)\s*(\d{2,3})`, 'g'),
  pulse: new RegExp(String.raw`\b(?:pulse(?: rate)?|heart rate|hr|pr)${GAP}${NUM}`, 'g'),
  temperature: new RegExp(String.raw`\b(?:temperature|temp|febrile at|fever of)${GAP}${NUM}\s*(?:degrees?\s*)?(f|c|fahrenheit|celsius|centigrade)?\b`, 'g'),
  spo2: new RegExp(String.raw`\b(?:spo2|sp02|oxygen saturation|o2 saturation|saturation|sats?|saturating)${GAP}${NUM}`, 'g'),
  rr: new RegExp(String.raw`\b(?:respiratory rate|resp rate|rr|respirations?)${GAP}${NUM}`, 'g'),
  weight: new RegExp(String.raw`\b(?:weight|weighs|wt)${GAP}${NUM}\s*(kg|kgs|kilos?|kilograms?|lbs?|pounds?)?`, 'g'),
  height: new RegExp(String.raw`\b(?:height|ht)${GAP}${NUM}\s*(cm|cms|centimet(?:er|re)s?|m|met(?:er|re)s?|inch(?:es)?|feet|ft)?`, 'g'),
  glucose: new RegExp(String.raw`\b(?:(?:random|fasting|post ?prandial|pp|capillary)\s+)?(?:blood\s+)?(?:sugar|glucose|grbs|rbs|fbs|cbg)${GAP}${NUM}`, 'g'),
};
const ELSEWHERE = /\b(?:home|at home|self|outside|earlier|previous|previously|old|last visit|last week|last month|last time|report|reports|diary|records?|came with|showed|shows|brought)\b[^,;]*$/;

function measuredHere(text: string, at: number): boolean {
  return !ELSEWHERE.test(text.slice(Math.max(0, at - 60), at));
}

function* hits(re: RegExp, text: string): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) if (measuredHere(text, m.index)) yield m;
}

export function extractVitals(doc: Doc): Vitals {
  const v: Vitals = {};
  for (const s of doc.sentences) {
    if (s.speaker === 'patient') continue;
    const t = s.text;
    for (const m of hits(RULES.bp, t)) {
      const sys = Number(m[1]);
      const dia = Number(m[2]);
      if (sys >= 60 && sys <= 260 && dia >= 30 && dia < sys) v.bp ??= { systolic: sys, diastolic: dia };
    }
    for (const m of hits(RULES.pulse, t)) {
      const n = Number(m[1]);
      if (n >= 30 && n <= 220) v.pulse_bpm ??= n;
    }
    for (const m of hits(RULES.temperature, t)) {
      const n = Number(m[1]);
      const unit = m[2]?.startsWith('c') ? 'C' : m[2]?.startsWith('f') ? 'F' : n > 45 ? 'F' : 'C';
      if ((unit === 'F' && n >= 90 && n <= 110) || (unit === 'C' && n >= 32 && n <= 43)) v.temperature ??= { value: n, unit };
    }
    for (const m of hits(RULES.spo2, t)) {
      const n = Number(m[1]);
      if (n >= 50 && n <= 100) v.spo2_percent ??= n;
    }
    for (const m of hits(RULES.rr, t)) {
      const n = Number(m[1]);
      if (n >= 6 && n <= 80) v.respiratory_rate ??= n;
    }
    for (const m of hits(RULES.weight, t)) {
      let n = Number(m[1]);
      if (m[2] && /^(?:lb|pound)/.test(m[2])) n = Math.round(n * 0.4536 * 10) / 10;
      if (n > 0.5 && n < 300) v.weight_kg ??= n;
    }
    for (const m of hits(RULES.height, t)) {
      let n = Number(m[1]);
      const u = m[2] ?? '';
      if (/^m(?:et|$)/.test(u) || (!u && n < 3)) n = Math.round(n * 100);
      else if (/^inch/.test(u)) n = Math.round(n * 2.54);
      else if (/^(?:feet|ft)/.test(u)) n = Math.round(n * 30.48);
      if (n >= 30 && n <= 250) v.height_cm ??= n;
    }
    for (const m of hits(RULES.glucose, t)) {
      const n = Number(m[1]);
      if (n >= 20 && n <= 800) v.blood_glucose_mg_dl ??= n;
    }
  }
  return v;
}
