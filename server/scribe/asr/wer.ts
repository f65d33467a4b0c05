/** Word error rate: word-level Levenshtein distance / reference words, after text.ts normalisation. */
import { normalizeWords } from './text.js';

export interface WerResult {
  wer: number;
  errors: number;
  refWords: number;
  substitutions: number;
  deletions: number;
  insertions: number;
}

export function wordErrors(reference: string, hypothesis: string): WerResult {
  const ref = normalizeWords(reference);
  const hyp = normalizeWords(hypothesis);
  // dp over hyp for each ref prefix, keeping (cost, sub, del, ins) to report the kinds of error.
  type Cell = [number, number, number, number];
  let prev: Cell[] = hyp.map((_, j) => [j + 1, 0, 0, j + 1] as Cell);
  prev.unshift([0, 0, 0, 0]);
  for (let i = 1; i <= ref.length; i++) {
    const cur: Cell[] = [[i, 0, i, 0]];
    for (let j = 1; j <= hyp.length; j++) {
      const diag = prev[j - 1]!;
      const up = prev[j]!;
      const left = cur[j - 1]!;
      const same = ref[i - 1] === hyp[j - 1];
      const options: Cell[] = [
        [diag[0] + (same ? 0 : 1), diag[1] + (same ? 0 : 1), diag[2], diag[3]],
        [up[0] + 1, up[1], up[2] + 1, up[3]],
        [left[0] + 1, left[1], left[2], left[3] + 1],
      ];
      cur.push(options.reduce((a, b) => (b[0] < a[0] ? b : a)));
    }
    prev = cur;
  }
  const [errors, substitutions, deletions, insertions] = prev[hyp.length]!;
  return { wer: ref.length === 0 ? (hyp.length ? 1 : 0) : errors / ref.length, errors, refWords: ref.length, substitutions, deletions, insertions };
}
