/**
 * Text normalisation shared by the language-model generator and the WER scorer: lower case, words only,
 * digits spelled out ("650" → "six hundred fifty", "99.8" → "ninety nine point eight"), so that what we train on
 * and what we score against look like what a recogniser outputs.
 */

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** 0 ≤ n < 1e9, integer → words, without "and" ("one hundred five"). */
export function integerToWords(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1e9) throw new RangeError(`integerToWords: ${n}`);
  if (n < 20) return ONES[n]!;
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? ` ${ONES[n % 10]}` : '');
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? ` ${integerToWords(n % 100)}` : ''}`;
  if (n < 1e6) return `${integerToWords(Math.floor(n / 1000))} thousand${n % 1000 ? ` ${integerToWords(n % 1000)}` : ''}`;
  return `${integerToWords(Math.floor(n / 1e6))} million${n % 1e6 ? ` ${integerToWords(n % 1e6)}` : ''}`;
}

/** "12.5" → "twelve point five"; "0.25" → "zero point two five". */
export function numberToWords(s: string): string {
  const [int, frac] = s.split('.');
  const head = int ? integerToWords(Number(int)) : 'zero';
  if (!frac) return head;
  return `${head} point ${[...frac].map((d) => ONES[Number(d)]).join(' ')}`;
}

const SYMBOLS: [RegExp, string][] = [
  [/%/g, ' percent '],
  [/\+/g, ' plus '],
  [/&/g, ' and '],
  [/°\s*c\b/gi, ' degrees '],
  [/°\s*f\b/gi, ' degrees '],
  [/°/g, ' degrees '],
];

/** One piece of text → its words, normalised (no sentence splitting). */
export function normalizeWords(text: string): string[] {
  let t = text.normalize('NFKC').toLowerCase();
  for (const [re, rep] of SYMBOLS) t = t.replace(re, rep);
  // Digits glued to units ("500mg") come apart; then numbers become words.
  t = t.replace(/(\d)([a-z])/g, '$1 $2').replace(/([a-z])(\d)/g, '$1 $2');
  t = t.replace(/\d+(?:\.\d+)?/g, (m) => ` ${numberToWords(m)} `);
  // Apostrophes only inside words ("patient's"); everything else that is not a letter separates words.
  t = t.replace(/[’‘]/g, "'").replace(/(^|[^a-z])'+|'+(?=[^a-z]|$)/g, '$1 ');
  return t.split(/[^a-z']+/).filter(Boolean);
}

/** Text → sentences (split at . ! ? ; : and new lines) → normalised words; empty sentences dropped. */
export function normalizeSentences(text: string): string[][] {
  return text
    .split(/[.!?;:\n]+(?=\s|$)|\n/)
    .map(normalizeWords)
    .filter((s) => s.length > 0);
}
