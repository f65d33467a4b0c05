import { CONTEXT_RULES, type ContextRule } from './context.js';

/**
 * NegEx-style negation: a finding is negated when a negation cue comes before it in the same sentence and nothing
 * ends the cue's scope in between, or when a negation said after a list ("nausea, vomiting times zero", "chills:
 * negative") closes it. Phrases that look negative but assert a finding ("not eating well", "not able to sleep") are
 * vocabulary entries of their own and are matched before this check runs, so they are never negated.
 */

// The cues are the context rules' (vocab/context-rules.json): the NEGATED rules for findings, read before the finding
// (forward), after a list of findings ("fever, chills times zero", backward), or either way; the words a cue absorbs
// ("hasn't had any"); and the terminate rules that end a negation's scope. This module applies them NegEx-style to a
// finding's offset in its sentence, as the complaint and diagnosis readers ask.
const FINDING_RULES = CONTEXT_RULES.filter((r) => !r.allowed_types || r.allowed_types.includes('symptom'));
const NEGATED = FINDING_RULES.filter((r) => r.category === 'NEGATED');
const phrasesOf = (rules: readonly ContextRule[]): string[] => rules.flatMap((r) => r.phrases ?? []);
const alternation = (words: string[]): string =>
  [...new Set(words)].sort((a, b) => b.length - a.length).map((w) => w.replace(/[/.]/g, '\\$&')).join('|');
// A finding said as a risk ("the risks of bleeding, infection …") is not asserted either: the forward HYPOTHETICAL
// rules for symptoms are read as these cues are.
const RISK = FINDING_RULES.filter((r) => r.category === 'HYPOTHETICAL' && r.direction === 'forward' && !!r.allowed_types?.includes('symptom'));
const PRE = [...NEGATED, ...RISK].filter((r) => r.direction === 'forward' || r.direction === 'bidirectional');
const CUE = new RegExp(String.raw`\b(?:${alternation(phrasesOf(PRE))})\b(?:\s+(?:${alternation(PRE.flatMap((r) => r.absorbs ?? []))})\b)*`, 'g');
// "negative for", "to", "of" after a backward cue make it a forward one.
const POST = NEGATED.filter((r) => r.direction === 'backward' || r.direction === 'bidirectional');
const POST_CUE = new RegExp(String.raw`(?:\s*[:,-]?\s*)\b(?:${alternation(phrasesOf(POST))})\b(?!\s+(?:for|to|of)\b)`, 'g');
// Scope ends at a terminate cue for findings, or at a clause mark.
const TERMINATE = FINDING_RULES.filter((r) => r.direction === 'terminate' && (!r.terminates || r.terminates.includes('NEGATED')));
const TERMINATOR = new RegExp(String.raw`\b(?:${alternation(phrasesOf(TERMINATE))})\b|[:;]`);
// Longer phrases holding a terminate word that end nothing ("denies difficulty with chest pain or orthopnea").
const PSEUDO_TERMINATE = new RegExp(
  String.raw`\b(?:${alternation(phrasesOf(FINDING_RULES.filter((r) => r.category === 'TERMINATE' && r.direction === 'pseudo')))})\b`,
  'g',
);

// Longer phrases holding a cue word that are not negations ("not ruled out", "gram negative", the answer "no," before
// what the patient goes on to say); a phrase's comma is written after its word, as the text has it.
const PSEUDO = new RegExp(String.raw`\b(?:${alternation(phrasesOf(NEGATED.filter((r) => r.direction === 'pseudo'))).replace(/ ,/g, ',')})(?![a-z0-9])`, 'g');

/** The negation cues of a sentence, left to right, as [start, end) offsets. */
export function negationCues(sentence: string): [number, number][] {
  const pseudo = [...sentence.matchAll(PSEUDO)].map((m) => [m.index, m.index + m[0].length]);
  const out: [number, number][] = [];
  CUE.lastIndex = 0;
  for (let m = CUE.exec(sentence); m; m = CUE.exec(sentence)) {
    const [a, b] = [m.index, m.index + m[0].length];
    if (!pseudo.some(([p, q]) => p! < b && a < q!)) out.push([a, b]);
  }
  return out;
}

/** True when words between a cue and a finding end the cue's scope. */
export function endsScope(between: string): boolean {
  return TERMINATOR.test(between.replace(PSEUDO_TERMINATE, ' '));
}

/**
 * The negation cues said after the findings they negate ("cough, fever times zero"), as [start, end) offsets; the
 * caller decides which findings the list before each one holds.
 */
export function postNegationCues(sentence: string): [number, number][] {
  const out: [number, number][] = [];
  POST_CUE.lastIndex = 0;
  for (let m = POST_CUE.exec(sentence); m; m = POST_CUE.exec(sentence)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** True when the text at offset `at` of the sentence lies in the scope of a negation cue. */
export function isNegated(sentence: string, at: number): boolean {
  const last = negationCues(sentence.slice(0, at)).pop();
  return !!last && !endsScope(sentence.slice(last[1], at));
}
