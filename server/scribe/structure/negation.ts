/**
 * NegEx-style negation: a finding is negated when a negation cue comes before it in the same sentence and nothing
 * ends the cue's scope in between, or when a negation said after a list ("nausea, vomiting times zero", "chills:
 * negative") closes it. Phrases that look negative but assert a finding ("not eating well", "not able to sleep") are
 * vocabulary entries of their own and are matched before this check runs, so they are never negated.
 */

// Cues said before the finding. An auxiliary straight after a cue is part of it ("hasn't had", "not been",
// "haven't noticed any"), so the "had" that elsewhere starts a new assertion does not end its scope.
const PRE_CUES = [
  'no', 'not', 'denies', 'denied', 'deny', 'denying', 'without', 'negative for', 'never', 'nil', 'absent', 'absence of',
  'free of', 'non', 'nor', 'neither', "don't", "doesn't", "didn't", 'does not', 'did not', 'do not', "haven't",
  "hasn't", "hadn't", 'have not', 'has not', 'had not', "isn't", "aren't", "wasn't", "weren't", 'no h/o',
  'no history of', 'no known', 'ruled out', 'rules out', 'no sign of', 'no signs of', 'no evidence of',
];
const AUXILIARY = ['had', 'have', 'been', 'got', 'noticed', 'experienced', 'felt', 'seen', 'reported', 'complained of', 'any'];
const alternation = (words: string[]): string =>
  [...words].sort((a, b) => b.length - a.length).map((w) => w.replace(/[/]/g, '\\/')).join('|');
const CUE = new RegExp(String.raw`\b(?:${alternation(PRE_CUES)})\b(?:\s+(?:${alternation(AUXILIARY)})\b)*`, 'g');

// Cues said after a list of findings: "fever, chills times zero", "nausea and vomiting: negative", "dysuria x0".
const POST_CUE = /(?:\s*[:,-]?\s*)\b(?:times 0|times zero|x 0|x0|negative|none|absent|denied)\b(?!\s+(?:for|to|of)\b)/g;

// Scope ends at a contrast, or where the sentence turns to a new assertion.
const TERMINATOR = /\b(?:but|however|although|though|except|apart from|aside from|which|who|yet|still|now has|has|have|had|complains|complaining|with|since|for|started|presents?|presented)\b|[:;]/;
/** The negation cues of a sentence, left to right, as [start, end) offsets. */
export function negationCues(sentence: string): [number, number][] {
  const out: [number, number][] = [];
  CUE.lastIndex = 0;
  for (let m = CUE.exec(sentence); m; m = CUE.exec(sentence)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** True when words between a cue and a finding end the cue's scope. */
export function endsScope(between: string): boolean {
  return TERMINATOR.test(between);
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
