/**
 * A written transcript as a speech recogniser would give it (the eval's `asr` mode): lower case, no punctuation,
 * numbers as the words a doctor says for them. Deterministic, and a transcript already in that form comes back
 * unchanged.
 *
 * The readings chosen, one per kind of number, so every transcript is converted the same way:
 * - 100–999 as doctors dictate them: "650" → "six fifty", "120" → "one twenty", "101" → "one oh one",
 *   "200" → "two hundred"; from 1000 the plain reading ("1,300" → "one thousand three hundred").
 * - Decimals digit by digit after "point": "98.6" → "ninety eight point six", "0.25" → "zero point two five",
 *   ".5" → "point five" (the leading zero is said only when written).
 * - "120/80" → "one twenty over eighty"; a dosing pattern "1-0-1" → "one zero one"; a range "8-10" → "eight to ten";
 *   "8:30" → "eight thirty"; "2nd" → "second"; "150s" → "one fifties"; digits inside a word come apart
 *   ("HbA1c" → "hba one c", "D3" → "d three").
 * - Symbols a recogniser writes as words: "%" → "percent", "°F" → "degrees fahrenheit", "+" → "plus", "&" → "and".
 * - Units keep the transcript's spelling, lower-cased: "mg", "mcg", "ml", "kg", "IU" → "iu", "milligrams" stays.
 *   That is how the fixtures' own recogniser-form dictations write them, and it is how an engine with these words
 *   in its vocabulary writes them (PocketSphinx's domain model has both "mg" and "milligrams"); expanding them
 *   would test a spelling nobody's recogniser is bound to.
 * - Apostrophes inside a word stay ("don't", "patient's"): recognisers spell words with them.
 * - Line breaks stay, and so does the colon of a speaker label at a line start ("Doctor: …" → "doctor: …"):
 *   consultations keep their turns. Spoken voice commands ("full stop", "next line") are already words and stay.
 */
import { integerToWords } from '../server/scribe/asr/text.js';

const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const digitWords = (s: string): string => [...s].map((d) => DIGITS[Number(d)]).join(' ');

/** An integer as a doctor dictates it: "six fifty", "one oh one", "two hundred", "forty five". */
export function spokenInteger(n: number): string {
  if (n >= 100 && n < 1000) {
    const hundreds = DIGITS[Math.floor(n / 100)]!;
    const rest = n % 100;
    if (rest === 0) return `${hundreds} hundred`;
    return rest < 10 ? `${hundreds} oh ${DIGITS[rest]}` : `${hundreds} ${integerToWords(rest)}`;
  }
  return integerToWords(n);
}

/** "98.6" → "ninety eight point six", ".5" → "point five". */
export function spokenNumber(s: string): string {
  const [int, frac] = s.split('.');
  const head = int ? spokenInteger(Number(int)) : '';
  return frac === undefined ? head : `${head} point ${digitWords(frac)}`.trim();
}

const ORDINAL: Record<string, string> = {
  one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth',
};
function ordinal(words: string): string {
  const last = words.split(' ').pop()!;
  const head = words.slice(0, words.length - last.length);
  const word = ORDINAL[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return head + word;
}
const plural = (words: string): string => (words.endsWith('y') ? `${words.slice(0, -1)}ies` : `${words}s`);

const NUM = String.raw`(?:\d+(?:\.\d+)?|\.\d+)`;
// Order matters: the shapes built from several numbers go before the single numbers they contain.
const RULES: [RegExp, (...m: string[]) => string][] = [
  // Thousands separators first, so "1,000" is one number.
  [/\b\d{1,3}(?:,\d{3})+(?!\d)/g, (m) => m.replace(/,/g, '')],
  [/°\s*f\b/gi, () => ' degrees fahrenheit '],
  [/°\s*c\b/gi, () => ' degrees celsius '],
  [/°/g, () => ' degrees '],
  [/%/g, () => ' percent '],
  [/\+/g, () => ' plus '],
  [/&/g, () => ' and '],
  // Morning-noon-night patterns are read digit by digit.
  [/\b\d(?:-\d){2,}\b/g, (m) => ` ${digitWords(m.replace(/-/g, ''))} `],
  [new RegExp(String.raw`(?<![\d.])(${NUM})\s*/\s*(${NUM})(?![\d.]*\d)`, 'g'), (_, a, b) => ` ${spokenNumber(a!)} over ${spokenNumber(b!)} `],
  [new RegExp(String.raw`(?<![\d.])(${NUM})\s*[-–]\s*(${NUM})(?![\d.]*\d)`, 'g'), (_, a, b) => ` ${spokenNumber(a!)} to ${spokenNumber(b!)} `],
  [/\b(\d{1,2}):(\d{2})\b/g, (_, h, m) => ` ${spokenInteger(Number(h))}${m === '00' ? '' : ` ${m!.startsWith('0') ? `oh ${DIGITS[Number(m)]}` : spokenInteger(Number(m))}`} `],
  [/\b(\d+)(?:st|nd|rd|th)\b/gi, (_, n) => ` ${ordinal(spokenInteger(Number(n)))} `],
  [/\b(\d+)'?s\b/g, (_, n) => ` ${plural(spokenInteger(Number(n)))} `],
  [new RegExp(NUM, 'g'), (m) => ` ${spokenNumber(m)} `],
];

// A speaker's turn label at the start of a line: a role, so that a dictated "Assessment: …" on a line of its own
// loses its colon like any other.
const SPEAKER =
  /^\s*((?:dr|doctor|physician|nurse|patient|pt|mother|mom|mum|father|dad|parent|wife|husband|son|daughter|sister|brother|grandmother|grandfather|grandma|grandpa|aunt|uncle|relative|attendant|caregiver|carer|guardian|friend|interpreter|speaker\s*\d*)(?:\s+\d+)?)\s*:\s*/i;

function convertLine(line: string): string {
  const label = SPEAKER.exec(line);
  let t = (label ? line.slice(label[0].length) : line).normalize('NFKC');
  for (const [re, to] of RULES) t = t.replace(re, to as (...m: string[]) => string);
  t = t
    .toLowerCase()
    // Dotted abbreviations ("a.m.", "e.g.") are one word to a recogniser.
    .replace(/\b(?:[a-z]\.){2,}/g, (m) => m.replace(/\./g, ''))
    .replace(/[’‘]/g, "'")
    // An apostrophe inside a word is spelling; anywhere else it is a quote mark.
    .replace(/(^|[^a-z])'+|'+(?=[^a-z]|$)/g, '$1 ')
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return label ? `${label[1]!.toLowerCase().replace(/\s+/g, ' ')}: ${t}` : t;
}

/** The words as said aloud: a recording has voices, not "Doctor:" labels. */
export function withoutSpeakerLabels(text: string): string {
  return text.split('\n').map((line) => line.replace(SPEAKER, '')).join('\n');
}

/** The transcript in recogniser form; line by line, so turns and line breaks stay where they were. */
export function toAsrForm(text: string): string {
  return text.split('\n').map(convertLine).join('\n');
}
