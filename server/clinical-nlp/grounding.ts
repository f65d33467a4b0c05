/**
 * Never invent: an item that cannot be tied to a span of the transcript is not output, and neither is a number
 * that was not said. Every extractor records where it read each fact; this is the last check before the safety
 * checks, so a bug in one extractor shows as a missing item, never as a made-up one.
 */
import type { Amount, ClinicalFacts, Medication, Span, Vitals } from './facts.js';
import { normalizeText } from './lexicon.js';

// A converted reading ("165 pounds" → 74.8 kg, "5 feet 6" → 168 cm, 5' 5", "11 stone 4", glucose in mmol) was
// said in another unit.
const CONVERTED = /\b(?:pounds?|lbs?|stones?|st|feet|foot|ft|inch(?:es)?|in|met(?:er|re)s?|m|mmol)\b|\d\s*['"]/;

const FRACTIONS: Record<string, string> = { half: '0.5', quarter: '0.25' };

/**
 * The numbers said around a span, as the structurer reads them. Spoken numbers read differently cut out of their
 * sentence ("six fifty one tablet" is 650 and 1, "six fifty one" alone 651), so the words just after count too, and
 * a value counts as said when its digits are part of a number there.
 */
function numbersIn(text: string): string[] {
  // A recogniser may end a sentence at a decimal point ("ninety eight. four"); the vitals reader joins it back.
  const t = normalizeText(text).replace(/(\d),(?=\d{3}\b)/g, '$1').replace(/(\d)\.\s+(\d)\b/g, '$1.$2');
  return [...t.matchAll(/\d+(?:\.\d+)?|\b(?:half|quarter)\b/g)].map((m) => FRACTIONS[m[0]] ?? m[0]);
}

export function grounded(facts: ClinicalFacts, transcript: string): ClinicalFacts {
  const said = (span: Span | undefined): string | undefined =>
    span && span.end > span.start && span.start >= 0 && span.end <= transcript.length ? transcript.slice(span.start, span.end) : undefined;
  const saysNumber = (span: Span | undefined, value: number): boolean => {
    if (said(span) === undefined) return false;
    const digits = String(value);
    const around = [transcript.slice(span!.start, span!.end), transcript.slice(span!.start, span!.end + 25)];
    return around.some((t) => numbersIn(t).some((n) => n.includes(digits)));
  };
  const has = <T extends { evidence?: Span }>(item: T): boolean => said(item.evidence) !== undefined;

  const vitals: Vitals = {};
  const vitalsEvidence: ClinicalFacts['evidence']['vitals'] = {};
  for (const key of Object.keys(facts.vitals) as (keyof Vitals)[]) {
    const span = facts.evidence.vitals[key];
    const text = said(span);
    if (text === undefined) continue;
    const v = facts.vitals[key]!;
    const values = typeof v === 'number' ? [v] : 'systolic' in v ? [v.systolic, v.diastolic] : [v.value];
    // A reading converted from a unit that was not said, only by the note's conventions, carries its VITAL_UNIT flag;
    // one read past what the recogniser wrote ("98 4" as 98.4) its LOW_CONFIDENCE flag.
    const assumed = facts.flags.some((f) => (f.code === 'VITAL_UNIT' || f.code === 'LOW_CONFIDENCE') && f.pointer === `/vitals/${key}`);
    if (!assumed && !CONVERTED.test(normalizeText(text)) && !values.every((n) => saysNumber(span, n))) continue;
    (vitals as Record<string, unknown>)[key] = v;
    vitalsEvidence[key] = span;
  }

  const amount = (m: Medication, a: Amount | undefined, span: Span | undefined): Amount | undefined =>
    a && saysNumber(span ?? m.evidence, a.value) ? a : undefined;
  const medications = facts.medications.filter(has).map((m) => {
    const { strength, dose, ...rest } = m;
    const s = amount(m, strength, m.field_evidence?.strength);
    const d = amount(m, dose, m.field_evidence?.dose);
    return { ...rest, ...(s ? { strength: s } : {}), ...(d ? { dose: d } : {}) };
  });

  const keep = <T>(items: T[], spans: Span[]): [T[], Span[]] => {
    const k = items.map((_, i) => said(spans[i]) !== undefined);
    return [items.filter((_, i) => k[i]), spans.filter((_, i) => k[i])];
  };
  const [advice, adviceEvidence] = keep(facts.advice, facts.evidence.advice);
  const [allergies, allergyEvidence] = keep(facts.history.allergies, facts.evidence.allergies);
  const out: ClinicalFacts = {
    ...facts,
    complaints: facts.complaints.filter(has),
    history: { ...facts.history, allergies },
    vitals,
    diagnoses: facts.diagnoses.filter(has),
    medications,
    investigations: facts.investigations.filter(has),
    advice,
    evidence: { vitals: vitalsEvidence, advice: adviceEvidence, allergies: allergyEvidence },
  };
  if (out.follow_up && !has(out.follow_up)) delete out.follow_up;
  out.flags = facts.flags.filter((f) => !f.pointer.startsWith('/vitals/') || f.pointer.slice(8) in vitals);
  return out;
}
