/**
 * Chief complaints: symptoms the patient has now, with how long. Symptoms are found with the complaint vocabulary
 * (lay phrases become the note's wording: "stomach pain" → "abdominal pain", "can't fall asleep" → "difficulty
 * falling asleep") or by a symptom word ("patches", "pain"); negated ones and family members' are left out.
 */
import { SYMPTOMS } from '../vocab/symptoms.js';
import type { Complaint, Duration } from './facts.js';
import { findDurations } from './durations.js';
import { BODY_PART, PhraseIndex, RELATIVE, type Token } from './lexicon.js';
import { isNegated } from './negation.js';
import { historySentences, type Doc, type Sentence } from './sections.js';

// Words a complaint does not need: articles, hedges, "complains of".
const FILLER = new Set(
  ('the a an his her my your their its some mild little slight occasional occasionally sometimes also just ' +
    'complains complaining complained complaint c/o has have having had is are was were keeps keep noticed ' +
    'developed presents presented presenting came sudden onset new severe moderate episodes episode he she it i ' +
    'patient child baby any lot bit very quite much still am').split(' '),
);
// Vocabulary phrases are matched without filler words, on both sides.
const INDEX = new PhraseIndex<string>();
const withoutFillers = (p: string): string => p.split(' ').filter((w) => !FILLER.has(w)).join(' ');
for (const s of SYMPTOMS) {
  INDEX.add(withoutFillers(s.name), s.name);
  for (const v of s.variants) INDEX.add(withoutFillers(v), s.name);
}

// Words that make a phrase a symptom even when the vocabulary lacks the whole phrase.
const HEAD = new Set(
  ('pain pains ache aches swelling swellings itching patches patch blisters rash rashes discharge lesions lesion ' +
    'ulcer ulcers spots lump lumps heaviness tingling numbness burning redness bleeding stiffness weakness cramps ' +
    'tremors tremor puffiness boils boil wound growth').split(' '),
);
const CONNECTOR = new Set(['and', 'with', 'after', 'then', 'plus', 'along', 'associated', 'or']);
const FAMILY = new RegExp(String.raw`${RELATIVE}(?:'s)?\s+(?:also\s+)?(?:has|had|is|was|have|suffers|died|with|h\/o)\b|\bfamily history\b|\bruns in the family\b`);
const ANAPHORA = /\b(?:it's been|it has been|been like this|it started|this started|this has been|since then|so about)\b/;
// Tails that describe a complaint but are not its name.
const TAIL = /\s+(?:radiating|which|that|when|worse|better|worst|increases|increased|increasing|aggravated|relieved|gradually|on and off|off and on|lasting|about|around|\d).*$/;

interface Item {
  name: string;
  start: number;
  end: number;
  duration?: Duration;
  bare: boolean;
  site?: string;
}

const NEGATION_WORD = /^(?:no|not|denies|denied|without|never|nil|non|nor)$/;

function segmentItems(s: Sentence, female: boolean): Item[] {
  // Durations end a segment and are not part of a name: "fever since 5 days, headache ..." → "fever" | "headache".
  const durations = findDurations(s.text);
  const tokens = s.tokens.filter((t) => !durations.some((d) => t.start >= d.start && t.end <= d.end));
  const matches = INDEX.findAll(tokens.filter((t) => !FILLER.has(t.text)));
  // Split the sentence at commas and connectors that are not inside a vocabulary match.
  const inMatch = (t: Token): boolean => matches.some((m) => t.start >= m.start && t.end <= m.end);
  const segments: Token[][] = [[]];
  let lastEnd = -1;
  for (const t of tokens) {
    const afterDuration = durations.some((d) => d.start >= lastEnd && d.end <= t.start);
    lastEnd = t.end;
    if (afterDuration && segments[segments.length - 1]!.length) segments.push([]);
    if ((t.text === ',' || t.text === ';' || CONNECTOR.has(t.text)) && !inMatch(t)) {
      if (segments[segments.length - 1]!.length) segments.push([]);
      continue;
    }
    segments[segments.length - 1]!.push(t);
  }
  const items: Item[] = [];
  for (const seg of segments) {
    if (!seg.length) continue;
    const segStart = seg[0]!.start;
    const segEnd = seg[seg.length - 1]!.end;
    const segMatches = matches.filter((m) => m.start >= segStart && m.end <= segEnd);
    const words = seg.filter((t) => !FILLER.has(t.text));
    if (!words.length) continue;
    if (words.every((t) => BODY_PART.has(t.text) || t.text === 'left' || t.text === 'right' || t.text === 'both')) {
      const prev = items[items.length - 1];
      if (prev && BODY_PART.has(prev.name.split(' ').pop() ?? '')) prev.name += ` and ${words.map((t) => t.text).join(' ')}`;
      continue;
    }
    if (!segMatches.length && !words.some((t) => HEAD.has(t.text))) continue;
    // The name: the segment's own words, each vocabulary phrase replaced by the complaint's name.
    const parts: string[] = [];
    for (const t of words) {
      const m = segMatches.find((x) => x.start === t.start);
      if (m) parts.push(m.payload);
      else if (!segMatches.some((x) => t.start > x.start && t.end <= x.end)) parts.push(t.text);
    }
    let name = parts.join(' ');
    for (const d of findDurations(name)) name = name.replace(name.slice(d.start, d.end), ' ');
    name = name.replace(/^of\s+/, '').replace(TAIL, '').replace(/^(?:since|for|from|in|on|at)\s+.*$/, '').replace(/\s+/g, ' ').trim();
    if (!name || /^\d/.test(name)) continue;
    if (female) name = name.replace(/\bgenital itching\b/, 'vulval itching');
    const siteMatch = / ((?:in|over|of|on) (?:(?:left|right|both|upper|lower) )*[a-z]+)$/.exec(name);
    const site = siteMatch && BODY_PART.has(siteMatch[1]!.split(' ').pop()!) ? siteMatch[1] : undefined;
    // Negation is judged where the symptom starts: a vocabulary phrase may itself begin with "not" ("not able to sleep").
    const first = segMatches[0]?.start ?? (words.find((t) => !NEGATION_WORD.test(t.text)) ?? words[0]!).start;
    items.push({ name, start: first, end: segEnd, bare: HEAD.has(name), site });
  }
  // "swelling and pain in the left calf": the bare symptom shares the next one's site.
  items.forEach((it, k) => {
    const next = items[k + 1];
    if (it.bare && next?.site) it.name = `${it.name} ${next.site}`;
  });
  return items.filter((it) => !isNegated(s.text, it.start));
}

/** Current complaints with durations, in the order told. */
export function extractComplaints(doc: Doc): Complaint[] {
  const out: Complaint[] = [];
  const byName = new Map<string, Complaint>();
  let lastTurnItems: Complaint[] = [];
  let lastTurn = -1;
  const sentences = historySentences(doc);
  for (const s of sentences) {
    if (FAMILY.test(s.text)) continue;
    if (s.turn !== lastTurn) {
      lastTurn = s.turn;
      lastTurnItems = [];
    }
    let items = segmentItems(s, doc.female);
    // A bare "yes" answers the doctor's question: the symptoms asked about are present.
    if (!items.length && /^yes\b/.test(s.text) && doc.consultation) {
      const question = doc.sentences[s.index - 1];
      if (question?.speaker === 'doctor' && question.text.endsWith('?')) items = segmentItems(question, doc.female);
    }
    const durations = findDurations(s.text);
    for (const it of items) {
      const after = durations.find((d) => d.start >= it.end);
      const before = [...durations].reverse().find((d) => d.end <= it.start);
      it.duration = (after ?? before)?.duration;
    }
    if (!items.length && durations.length && ANAPHORA.test(s.text)) {
      const open = lastTurnItems.filter((c) => !c.duration).pop();
      if (open) open.duration = durations[durations.length - 1]!.duration;
    }
    for (const it of items) {
      const existing = byName.get(it.name);
      if (existing) {
        existing.duration ??= it.duration;
        continue;
      }
      const c: Complaint = it.duration ? { name: it.name, duration: it.duration } : { name: it.name };
      byName.set(it.name, c);
      out.push(c);
      lastTurnItems.push(c);
    }
  }
  return out;
}
