/**
 * NegEx-style negation: a finding is negated when a negation cue comes before it in the same sentence and nothing
 * ends the cue's scope in between. Phrases that look negative but assert a finding ("not eating well", "not able to
 * sleep") are vocabulary entries of their own and are matched before this check runs, so they are never negated.
 */

const CUE = /\b(?:no|not|denies|denied|deny|denying|without|negative for|never|nil|absent|absence of|free of|non|nor|neither|don't|doesn't|didn't|does not|did not|do not|no h\/o|no history of|no known|ruled out|rules out)\b/g;
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

/** True when the text at offset `at` of the sentence lies in the scope of a negation cue. */
export function isNegated(sentence: string, at: number): boolean {
  const last = negationCues(sentence.slice(0, at)).pop();
  return !!last && !endsScope(sentence.slice(last[1], at));
}
