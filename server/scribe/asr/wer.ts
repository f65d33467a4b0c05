/**
 * Word error rate: word-level Levenshtein distance / reference words, after text.ts normalisation and the
 * scoring canonicalisation below, applied alike to the reference and the hypothesis.
 */
import { normalizeWords } from './text.js';

export interface WerResult {
  wer: number;
  errors: number;
  refWords: number;
  substitutions: number;
  deletions: number;
  insertions: number;
}

/** British spellings of medical words → American, so "anaemia" and "anemia" (one pronunciation) score as one word. */
const SPELLINGS: [RegExp, string][] = [
  [/aem/g, 'em'], // anaemia, haemoglobin, ischaemia, leukaemia, septicaemia, hypoglycaemia
  [/^paed/, 'ped'],
  [/^orthopaed/, 'orthoped'],
  [/^oe(?=dem|soph|strog|stradiol)/, 'e'],
  [/^foet/, 'fet'],
  [/(?<=rrh|pn)oea/, 'ea'], // diarrhoea, amenorrhoea, dyspnoea, apnoea
];

/**
 * Words as they are scored: a letter-by-letter abbreviation is one word however it is written ("c b c", "cbc"), and
 * British and American spellings of one word are one word. "a" and "i" stay words of their own: they are also
 * the article and the pronoun. Punctuation ends a run of letters ("C B C, L F T" is two words); a recogniser
 * writes none, so there two abbreviations side by side become one word.
 */
export function scoringWords(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.split(/[,;:!?()\n]|\.(?!\d)/)) {
    let letters = '';
    const flush = () => {
      if (letters) out.push(letters);
      letters = '';
    };
    for (const raw of normalizeWords(chunk)) {
      if (raw.length === 1 && raw !== 'a' && raw !== 'i') {
        letters += raw;
        continue;
      }
      flush();
      out.push(SPELLINGS.reduce((w, [re, rep]) => w.replace(re, rep), raw));
    }
    flush();
  }
  return out;
}

export function wordErrors(reference: string, hypothesis: string): WerResult {
  const ref = scoringWords(reference);
  const hyp = scoringWords(hypothesis);
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
