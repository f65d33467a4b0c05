/**
 * Spoken numbers → digits, with the idioms doctors use when dictating: "one thirty over eighty five" (130/85),
 * "one oh one point four" (101.4), "six fifty" (650), "fifteen hundred" (1500), and dosing patterns spoken digit by
 * digit ("one zero one" → 1-0-1). Our own rules rather than a general NLP library: these idioms need rules anyway and
 * this runs in well under a millisecond.
 */

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
};
const TEENS: Record<string, number> = {
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, lakh: 100000 };

// Longest first, so "eighty" is not read as "eight" + "y".
const byLength = (xs: string[]): string[] => [...xs].sort((a, b) => b.length - a.length);
const START = byLength([...Object.keys(UNITS), ...Object.keys(TEENS), ...Object.keys(TENS), 'hundred', 'thousand']);
const CONTINUE = byLength([...START, 'oh', 'point', 'and', 'a', 'half', 'lakh']);
// A run of number words (and the glue words that can sit inside a number), found once per text.
// A decimal may also start at "point" when a digit word follows ("point two five").
const DIGIT_WORDS = 'zero|one|two|three|four|five|six|seven|eight|nine';
export const NUMBER_RUN = new RegExp(
  `\\b(?:point(?=\\s+(?:${DIGIT_WORDS})\\b)|(?:a\\s+(?=hundred|thousand))?(?:${START.join('|')}))\\b(?:[\\s-]+(?:${CONTINUE.join('|')})\\b)*`,
  'gi',
);
// Words before a number that make "one zero one" a reading (101) rather than a dosing pattern (1-0-1).
const READING_CUE = /\b(?:temp(?:erature)?|fever(?: of)?|pulse|heart rate|bp|pressure|sugar|glucose|weight|height|saturation|spo2|rate|hr)\b[^.,;]{0,12}$/;

// Count nouns after a number: in "six fifty one tablet" the "one" counts tablets, it does not make 651.
const COUNT_NOUN = /^\s*(?:tablets?|tabs?|capsules?|caps?|puffs?|drops?|sachets?|spoons?|teaspoons?|units?|dose)\b/;
// "six fifty three times a day": nobody takes a drug 653 times a day, so past this the last word counts the times.
const TIMES_AFTER = /^\s*times\b/;
const MAX_TIMES = 24;

const digitOf = (w: string): number | undefined => (w === 'oh' ? 0 : UNITS[w]);

/** Parses number words from tokens[i]; returns the value and the index after it, or null if tokens[i] starts none. */
function parseNumber(tokens: string[], i: number): { value: number; next: number } | null {
  let j = i;
  let total = 0;
  let current = 0;
  let seen = false;
  const peek = (k: number): string => tokens[k] ?? '';

  if (peek(j) === 'a' && (peek(j + 1) === 'hundred' || peek(j + 1) === 'thousand')) {
    current = 1;
    j++;
    seen = true;
  }
  while (j < tokens.length) {
    const w = peek(j);
    if (UNITS[w] !== undefined && w !== 'oh') {
      if (current % 10 !== 0 || (current > 0 && current < 10)) break;
      if (current >= 100 && current % 100 !== 0 && current % 10 === 0 && current % 100 < 20) break;
      current += UNITS[w]!;
    } else if (TEENS[w] !== undefined) {
      if (current % 100 !== 0) {
        // "one ten" (110), "nineteen ten": a hundreds idiom only straight after a lone small number.
        if (current > 0 && current < 20 && j === i + 1) current = current * 100 + TEENS[w]!;
        else break;
      } else current += TEENS[w]!;
    } else if (TENS[w] !== undefined) {
      if (current % 100 !== 0) {
        if (current > 0 && current < 20 && j === i + 1) current = current * 100 + TENS[w]!;
        else break;
      } else current += TENS[w]!;
    } else if (SCALES[w] !== undefined) {
      const scale = SCALES[w]!;
      if (scale === 100) current = (current || 1) * 100;
      else {
        total += (current || 1) * scale;
        current = 0;
      }
    } else if (w === 'and' && seen && (current >= 100 || total > 0) && current % 100 === 0) {
      const n = peek(j + 1);
      if (UNITS[n] === undefined && TEENS[n] === undefined && TENS[n] === undefined) break;
    } else if (w === 'oh' && current > 0 && current < 10 && j === i + 1 && digitOf(peek(j + 1)) !== undefined) {
      // "one oh one" → 101, "two oh six" → 206.
      current = current * 100 + digitOf(peek(j + 1))!;
      j += 2;
      seen = true;
      continue;
    } else break;
    seen = true;
    j++;
  }
  if (!seen) return null;
  let value = total + current;
  if (peek(j) === 'point' && digitOf(peek(j + 1)) !== undefined) {
    let frac = '';
    j++;
    while (digitOf(peek(j)) !== undefined) frac += String(digitOf(peek(j++)));
    value = Number(`${value}.${frac}`);
  } else if (peek(j) === 'and' && peek(j + 1) === 'a' && peek(j + 2) === 'half') {
    value += 0.5;
    j += 3;
  }
  return { value, next: j };
}

/** "one zero one", "zero zero one", "one one one": three digits 0–2 spoken as a morning-noon-night pattern. */
function dosingPattern(tokens: string[], i: number): string | null {
  const ds = tokens.slice(i, i + 3).map((w) => (w === 'oh' ? undefined : UNITS[w]));
  if (ds.length < 3 || ds.some((d) => d === undefined || d > 2)) return null;
  const next = tokens[i + 3];
  if (next === 'point' || (next !== undefined && (UNITS[next] !== undefined || TENS[next] !== undefined))) return null;
  const [a, b, c] = ds as number[];
  if (!(a === 0 || b === 0 || c === 0 || (a === b && b === c))) return null;
  return `${a}-${b}-${c}`;
}

// An emergency or advice line said digit by digit after a call: "call nine nine nine", "dial one one one" (no 1-1-1
// dosing pattern).
const CALL_BEFORE = /\b(?:call|calling|dial|dialling|dialing|ring|ringing|phone|phoning)\b(?:\s+(?:us|me|\d+))?(?:,?\s+or)?\s*$/;
const EMERGENCY_LINES = new Set(['999', '911', '111', '112']);

function convertRun(run: string, before: string, after: string): string {
  if (CALL_BEFORE.test(before)) {
    const digits = run.toLowerCase().split(/[\s-]+/).map((w) => UNITS[w]).join('');
    if (EMERGENCY_LINES.has(digits)) return digits;
  }
  const reading = READING_CUE.test(before);
  // In a reading, "one zero one" is said like "one oh one".
  const tokens = run.toLowerCase().split(/[\s-]+/).filter(Boolean).map((w, k) => (reading && k > 0 && w === 'zero' ? 'oh' : w));
  // "five hundred five hundred milligrams": a number said twice over (a speaker's repetition) is said once.
  const half = tokens.length / 2;
  if (!reading && tokens.length >= 4 && Number.isInteger(half) && tokens.slice(0, half).join(' ') === tokens.slice(half).join(' ')) {
    const once = convertRun(tokens.slice(0, half).join(' '), before, after);
    if (/^\d+(?:\.\d+)?$/.test(once)) return once;
  }
  // "six fifty one zero one": a strength then a dosing pattern, said without a pause.
  if (!reading && tokens.length > 3) {
    const tail = dosingPattern(tokens, tokens.length - 3);
    if (tail) return `${convertRun(tokens.slice(0, -3).join(' '), before, '')} ${tail}`;
  }
  const last = tokens[tokens.length - 1];
  // Only after a strength of hundreds: "twenty two units" is 22 units, "six fifty one tablet" is 650 and 1 tablet.
  if (tokens.length > 1 && last !== undefined && UNITS[last] !== undefined && COUNT_NOUN.test(after)) {
    const head = convertRun(tokens.slice(0, -1).join(' '), before, '');
    if (/^\d+$/.test(head) && Number(head) >= 100) return `${head} ${UNITS[last]}`;
  }
  if (tokens.length > 1 && last !== undefined && UNITS[last] !== undefined && TIMES_AFTER.test(after)) {
    const whole = convertRun(tokens.join(' '), before, '');
    const head = convertRun(tokens.slice(0, -1).join(' '), before, '');
    if (/^\d+$/.test(whole) && Number(whole) > MAX_TIMES && /^\d+$/.test(head)) return `${head} ${UNITS[last]}`;
  }
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const pattern = reading ? null : dosingPattern(tokens, i);
    if (pattern) {
      out.push(pattern);
      i += 3;
      continue;
    }
    const n = parseNumber(tokens, i);
    if (n && n.next > i) {
      out.push(String(n.value));
      i = n.next;
    } else out.push(tokens[i++]!);
  }
  return out.join(' ');
}

// "spo two ninety eight", "d three sixty thousand units", "b twelve fifteen hundred mcg": the first number word is
// the name's (SpO2, vitamin D3, B12, K2, omega 3), not part of the number after it.
const NAME_DIGITS: [RegExp, RegExp][] = [
  [/\bsp\s?o\s*$/, /^two$/i],
  [/(?:^|[^a-z])d\s*$/, /^three$/i],
  [/(?:^|[^a-z])b\s*$/, /^(?:twelve|six)$/i],
  [/\bvitamin\s+k\s*$/, /^two$/i],
  [/\bomega\s*$/, /^three$/i],
];

/** A String.replace callback over RUN matches: number words → digits, read in their context. */
export function numberWords(run: string, offset: number, text: string): string {
  const before = text.slice(Math.max(0, offset - 40), offset).toLowerCase();
  const after = text.slice(offset + run.length, offset + run.length + 20).toLowerCase();
  const split = /^(\S+)[\s-]+(\S[\s\S]*)$/.exec(run);
  if (split && NAME_DIGITS.some(([name, digit]) => name.test(before) && digit.test(split[1]!))) {
    const digit = convertRun(split[1]!, before, split[2]!);
    return `${digit} ${convertRun(split[2]!, `${before}${digit} `, after)}`;
  }
  // "point two five mg": a decimal said without its leading zero.
  if (/^point\b/i.test(run)) return convertRun(`zero ${run}`, before, after);
  return convertRun(run, before, after);
}

/** Replaces every run of number words in text with digits; other text is untouched. */
export function normalizeNumbers(text: string): string {
  return text.replace(NUMBER_RUN, numberWords);
}

/** Parses a whole phrase of number words or digits ("six fifty", "650", "one and a half"), or null. */
export function parseSpokenNumber(phrase: string): number | null {
  const s = normalizeNumbers(phrase.trim().toLowerCase());
  return /^\d+(?:\.\d+)?$/.test(s) ? Number(s) : null;
}
