/**
 * Advice: what the patient is told to do, from the plan. A clause is advice when no other fact was read from it (a
 * prescription, a test, a diagnosis, a vital, the follow-up), it is not the doctor's own intention ("we may start …",
 * "I'll give you …") and it has words enough to be an instruction. A conditional ("if you get any bleeding, …, go to
 * the emergency") stays one item with its consequence; list fragments ("…, trouble breathing, or drooling") stay with
 * the clause they belong to.
 */
import type { Span } from './facts.js';
import { DIAGNOSIS_CUE, type Doc, type Sentence } from './sections.js';

const VITAL_CLAUSE = /\b(?:bp|blood pressure|pulse|heart rate|temperature|temp|spo2|oxygen saturation|saturation|respiratory rate|weight|height|sugar|glucose)\b[^,]*\d/;
// A return said with its condition ("come back if not better", "call sooner if …") is advice; the follow-up is not.
const NOT_ADVICE =
  /\b(?:diagnosis|impression|assessment|this is|review|follow[ -]?up|recheck|see me|show me|investigations?|imaging|tests? (?:needed|required)|reports?)\b|\b(?:come back|return)\b(?!.*\b(?:if|sooner|earlier|immediately|anytime|any time)\b)|^(?:plan|advice|advised|rx|number \d+)\s*:?\s*$|^number \d+\b/;
// Why, not what to do: "since she is allergic to penicillin", "it can make you drowsy", "hypertension is controlled".
const EXPLANATION =
  /^(?:since|because|as|which|who|so that|that's|that is|it's|it is|it can|it will|it may|it takes|this is|this can|there is|there's|no change|for the short term|for the|no (?:sign|signs|evidence|need)|no antibiotics?|okay|ok|thank you|thanks|\d+ to \d+ times)\b|\b(?:is|are) not (?:needed|required|indicated)\b|\b(?:no|do not|don't) need\b|^for [a-z]+(?: [a-z]+)?$|\b(?:should|will)$|^(?:[a-z]+\s+){0,3}(?:is|are)\s+(?:controlled|stable|normal|fine|better|worse|expected)\b/;
const CONTRACTIONS: [RegExp, string][] = [
  [/\bdon't\b/g, 'do not'], [/\bdoesn't\b/g, 'does not'], [/\bcan't\b/g, 'cannot'], [/\bwon't\b/g, 'will not'],
  [/\bshouldn't\b/g, 'should not'], [/\bisn't\b/g, 'is not'], [/\byou're\b/g, 'you are'],
];
const DOCTOR_INTENT = /^(?:if\b.*\b(?:we|i)\s+(?:will|may|might|can|could)\b|(?:we|i)\s*(?:will|'ll|may|might|can|could|am going to)\b|we'll\b|i'll\b)/;
const LEAD_IN = /^(?:(?:plan|advice|advised|and|also|rx|so|then)\s*:?\s+|(?:the\s+)?(?:main|most important)\s+(?:treatment\s+|thing\s+)?is\s+)+/;
const DRUG_AMOUNT = /\b\d+(?:\.\d+)?\s*(?:mg|milligrams?|mcg|micrograms?|ml|units?|iu|tablets?|capsules?|puffs?|doses?)\b|\brepeat (?:it|the dose)\b|\b(?:tab|tabs|tablet|cap|capsule|syrup|syp|inj|injection)\s+[a-z]/;
// Where a clause is only the rest of the one before: "or drooling", "trouble breathing" after "for stridor at rest".
const FRAGMENT = /^(?:or|nor)\b/;
const IMPERATIVE =
  'drink|avoid|keep|use|wear|stop|empty|cut|take|try|walk|learn|stay|do|don\'t|come|go|sip|eat|get|wash|apply|continue|sleep|raise|finish|limit|reduce|call|return|check|bring|elevate|urinate|rest|gargle|watch|see';
// "drink plenty of water and urinate after intercourse": two instructions joined by "and".
// Without punctuation (a recogniser's text) each instruction starts at its verb or at "no …":
// "stop the pill use condoms instead keep walking elevate the leg", "walk at every stop no driving when drowsy".
// A determiner or possessive makes the next word a noun: "after each use", "at every rest stop", "your walk".
const STAYS_BEFORE_VERB = String.raw`to|not|and|or|please|you|i|we|will|should|must|can|can't|cannot|don't|do|also|then|if|only|just|would|could|the|a|an|of|for|with|before|after|when|while|keep|each|every|any|this|that|its|your|his|her|their|my|our`;
// Counselling reported as done ends its clause: "kick counts reviewed preterm labour warning signs reviewed".
const SPLIT = new RegExp(
  String.raw`\s*[,;:]\s*(?:and\s+)?|(?<=\b(?:reviewed|discussed|explained|counsell?ed)) (?!with\b|again\b|today\b)|\s+(?:and|also)\s+(?=(?:${IMPERATIVE})\b)` +
    String.raw`|(?<=\b(?!(?:${STAYS_BEFORE_VERB})\b)[a-z0-9']+)\s+(?=(?:${IMPERATIVE}|no\s+(?:[a-z]+ing|alcohol|smoking|sweets|salt|tea|coffee|fluids|screens|spicy|oily|fried|painkillers))\b)`,
  'g',
);

interface Clause {
  from: number;
  to: number;
}

function clausesOf(s: Sentence): Clause[] {
  const out: Clause[] = [];
  const re = new RegExp(SPLIT.source, 'g');
  let from = 0;
  for (let m = re.exec(s.text); ; m = re.exec(s.text)) {
    const to = m ? m.index : s.text.length;
    if (to > from) out.push({ from, to });
    if (!m) break;
    from = m.index + m[0].length;
  }
  // A condition keeps its consequence, and a fragment its clause.
  const merged: Clause[] = [];
  for (const c of out) {
    const prev = merged[merged.length - 1];
    const text = s.text.slice(c.from, c.to);
    const prevText = prev ? s.text.slice(prev.from, prev.to) : '';
    // "iron rich food, jaggery and dates": a short pair without a verb belongs to the list before it.
    const pair = text.split(' ').length <= 4 && /\band\b/.test(text) && !new RegExp(String.raw`^(?:${IMPERATIVE}|no)\b`).test(text);
    if (prev && (FRAGMENT.test(text) || pair || /^if\b/.test(prevText) || (text.split(' ').length <= 3 && /\b(?:for|like|such as|including)\b/.test(prevText)))) prev.to = c.to;
    else merged.push({ ...c });
  }
  return merged;
}

const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

// What a patient is told to do besides taking the drug, said on its prescription line: "keep a gap …", "gargle
// after each use", "rush to hospital if …". Not the verbs of taking or changing a drug (take, use, apply, continue).
const CARE_VERB = /^(?:do not |never )?(?:keep|avoid|drink|gargle|rinse|wash|rush|go|call|watch|wear|stay|elevate|sleep|eat|sip|limit|check|bring)\b/;

// A drug named as the context of an instruction ("hygiene while on empagliflozin", "a gap between thyronorm and
// calcium") leaves it advice; one the clause acts on ("stop the excedrin", "because of the amoxicillin allergy") does not.
const DRUG_AS_CONTEXT = /\b(?:while on|while taking|on|with|after|before|between|and any|from|of)\s+(?:the\s+|your\s+)?$/;

/** Where prescriptions were read: their whole lines, and within them the words each attribute came from. */
export interface Prescribed {
  lines: Span[];
  attributes: Span[];
}

/**
 * `used` are the spans other facts were read from, `named` where drugs are named; a clause touching a used span is
 * not advice, nor one that acts on a named drug, nor one on a prescription's line unless it is a care instruction
 * none of the drug's attributes were read from.
 */
export function extractAdvice(doc: Doc, used: Span[], prescribed: Prescribed, named: (s: Sentence) => { start: number; end: number }[]): { advice: string[]; evidence: Span[] } {
  const advice: string[] = [];
  const evidence: Span[] = [];
  for (const s of doc.sentences.slice(doc.planStart)) {
    if (s.speaker === 'patient' || s.text.endsWith('?') || DIAGNOSIS_CUE.test(s.text)) continue;
    const drugs = named(s);
    for (const c of clausesOf(s)) {
      const raw = s.text.slice(c.from, c.to);
      const lead = LEAD_IN.exec(raw)?.[0].length ?? 0;
      const clause = raw.slice(lead).trim();
      if (clause.split(' ').length < 2 || NOT_ADVICE.test(clause) || VITAL_CLAUSE.test(clause) || DOCTOR_INTENT.test(clause) || EXPLANATION.test(clause)) continue;
      if (DRUG_AMOUNT.test(clause)) continue;
      const span = s.span(c.from + lead, c.to);
      if (used.some((u) => overlaps(u, span))) continue;
      if (prescribed.lines.some((u) => overlaps(u, span)) && (!CARE_VERB.test(clause) || prescribed.attributes.some((u) => overlaps(u, span)))) continue;
      const drug = drugs.find((d) => d.start < c.to && d.end > c.from + lead);
      if (drug && !DRUG_AS_CONTEXT.test(s.text.slice(c.from + lead, Math.max(c.from + lead, drug.start)))) continue;
      advice.push(CONTRACTIONS.reduce((t, [re, to]) => t.replace(re, to), clause));
      evidence.push(span);
    }
  }
  return { advice, evidence };
}
