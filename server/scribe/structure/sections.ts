/**
 * The transcript as the extractors see it: normalised sentences, who said each (in a consultation), and where the
 * note moves from history to findings to plan. Dictations rarely say "history" or "plan" aloud, so the parts are
 * found from cue phrases and from what a sentence holds (a vital sign, a diagnosis cue).
 */
import type { Span } from './facts.js';
import { normalizeText, tokenize, type Token } from './lexicon.js';

export type Speaker = 'doctor' | 'patient' | null;

export interface Sentence {
  index: number;
  text: string;
  tokens: Token[];
  speaker: Speaker;
  turn: number;
  /** The transcript span of text[from, to): evidence for a fact found there. */
  span(from: number, to: number): Span;
}

export interface Doc {
  sentences: Sentence[];
  consultation: boolean;
  female: boolean;
  /** First sentence of examination or vitals: complaints are told before it. */
  findingsStart: number;
  /** First sentence that states a diagnosis: the plan follows it. */
  planStart: number;
}

const SPEAKER = /^\s*([a-z][a-z .'-]{0,20}?)\s*:\s*/i;
const DOCTOR = /^(?:doctor|dr|physician|consultant|nurse|clinician|provider)\b/i;

// "sorry, make that acute nasopharyngitis", "no, make it five days", "I mean": the words after replace the item before.
const CORRECTION = /,?\s*\b(?:(?:sorry|no|oh no|correction|oops)\s*,?\s*)?(?:make (?:that|it)|i mean|i meant|change (?:that|it) to|scratch that,?)\s+([^,.;]+)/;
const AMOUNT = /(\d+(?:\.\d+)?)\s*([a-z]+)/;

function applyCorrections(sentence: string): string {
  let s = sentence;
  for (let guard = 0; guard < 3; guard++) {
    const m = CORRECTION.exec(s);
    if (!m) break;
    const before = s.slice(0, m.index);
    const replacement = m[1]!.trim();
    const after = s.slice(m.index + m[0].length);
    const amount = AMOUNT.exec(replacement);
    let fixed: string;
    if (amount && /^\d/.test(replacement)) {
      // Replace the last amount with the same unit ("7 days" → "5 days"), else the last number.
      const unit = amount[2]!.replace(/s$/, '');
      const same = [...before.matchAll(new RegExp(`\\d+(?:\\.\\d+)?\\s*${unit}s?\\b`, 'g'))].pop();
      const anyNum = [...before.matchAll(/\d+(?:\.\d+)?/g)].pop();
      const target = same ?? anyNum;
      fixed = target
        ? before.slice(0, target.index) + replacement + before.slice(target.index! + target[0].length)
        : `${before} ${replacement}`;
    } else {
      // A phrase replaces the last coordinated item: the words after the last "with", "and", comma or colon.
      const cut = Math.max(
        before.lastIndexOf(' with '),
        before.lastIndexOf(' and '),
        before.lastIndexOf(','),
        before.lastIndexOf(':'),
      );
      const head = cut >= 0 ? before.slice(0, cut + (before[cut] === ',' || before[cut] === ':' ? 1 : 0)) : '';
      const link = cut >= 0 && before[cut] === ' ' ? before.slice(cut, cut + before.slice(cut + 1).indexOf(' ') + 2) : ' ';
      // No list before it: the correction replaces what follows the last cue word ("diagnosis", "tab").
      const cue = [...before.matchAll(/\b(?:diagnosis|impression|assessment|dx|is|tab|cap|syrup|syp|inj|injection|start|give|advised|continue)\b/g)].pop();
      const kept = cue ? before.slice(0, cue.index! + cue[0].length) : '';
      fixed = cut >= 0 ? `${head}${link}${replacement}` : `${kept} ${replacement}`.trim();
    }
    s = `${fixed.replace(/\s+$/, '')}${after}`;
  }
  return s;
}

const SENTENCE_END = /(?<=[.?!;])\s+|(?<!\d)\.(?=[a-z])/;
const VITALS_CUE = /\b(?:bp|blood pressure|pulse|heart rate|temperature|temp|spo2|oxygen saturation|saturation|respiratory rate|weight|height|glucometer)\b/;
const EXAM_CUE = /\b(?:on examination|examination|o\/e|exam|tenderness|tender|palpable|congested|looks|clear|auscultation|crepitations|crackles|vesicles|bulging|spasm|reflexes|normal|soft|non tender|pallor|icterus|oedema|edema|inflamed|erythematous|swollen|discharge seen|purulent)\b/;
export const DIAGNOSIS_CUE = /\b(?:diagnosis|diagnosed|impression|assessment|this is|this looks like|suggestive of|consistent with|rule out|r\/o|provisional)\b/;

export function buildDoc(raw: string): Doc {
  const sentences: Sentence[] = [];
  let turn = 0;
  let speakers = 0;
  let lineStart = 0;
  for (const line of raw.split(/\r?\n/)) {
    const lineSpan: Span = { start: raw.indexOf(line, lineStart), end: 0 };
    lineSpan.end = lineSpan.start + line.length;
    lineStart = lineSpan.end;
    if (!line.trim()) continue;
    let body = line;
    let speaker: Speaker = null;
    const sm = SPEAKER.exec(line);
    if (sm && sm[1]!.split(/\s+/).length <= 3) {
      speaker = DOCTOR.test(sm[1]!) ? 'doctor' : 'patient';
      body = line.slice(sm[0].length);
      speakers++;
    }
    turn++;
    for (const part of normalizeText(body).split(SENTENCE_END)) {
      const text = applyCorrections(part.trim()).replace(/[.!;]+$/, '').trim();
      if (!text) continue;
      sentences.push({ index: sentences.length, text, tokens: tokenize(text), speaker, turn, span: () => lineSpan });
    }
  }
  const consultation = speakers >= 2;
  const all = sentences.map((s) => s.text).join(' ');
  const female = /\b(?:female|woman|lady|girl|she|her|madam|mrs|pregnan\w*|periods?)\b/.test(all);
  const isObjective = (s: Sentence): boolean => s.speaker !== 'patient' && VITALS_CUE.test(s.text) && /\d/.test(s.text);
  let findingsStart = sentences.findIndex((s) => isObjective(s) || (s.speaker === 'doctor' && EXAM_CUE.test(s.text) && !s.text.endsWith('?')));
  let planStart = sentences.findIndex((s) => s.speaker !== 'patient' && DIAGNOSIS_CUE.test(s.text));
  if (planStart < 0) planStart = sentences.length;
  if (findingsStart < 0 || findingsStart > planStart) findingsStart = planStart;
  if (consultation) findingsStart = sentences.length;
  return { sentences, consultation, female, findingsStart, planStart };
}

/** Sentences where the patient's complaints are told. */
export function historySentences(doc: Doc): Sentence[] {
  if (doc.consultation) return doc.sentences.filter((s) => s.speaker === 'patient' && s.index < doc.planStart);
  return doc.sentences.slice(0, Math.min(doc.findingsStart, doc.planStart));
}
