/**
 * Tokens and phrase lookup shared by every extractor: text and vocabulary go through the same normalisation, so a
 * phrase index built once at module load finds "c b c", "CBC" and "cbc" alike in one pass over the tokens.
 */
import { Type } from 'typebox';
import ABBREVIATIONS_FILE from './vocab/abbreviations.json' with { type: 'json' };
import { checkedData, Provenance } from './vocab/data-file.js';
import { Mapped } from './mapped.js';
import { NUMBER_RUN, numberWords } from './numbers.js';

export interface Token {
  text: string;
  start: number;
  end: number;
}

// A slash joins abbreviations and units ("h/o", "s/p", "mg/dl", "beats/min") into one word; between two longer words
// ("plantar fasciitis/heel spur syndrome", "gastroenteritis/dehydration") it separates them.
const TOKEN = /[a-z0-9]+(?:(?:['.-]|\/(?![a-z]{4})|(?<![a-z]{4})\/)[a-z0-9]+)*|[,;:?]/g;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) out.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

// Single letters spelled out ("c b c", "s o s", "b d") are joined into one word; "a" and "i" are words themselves
// unless they sit inside a longer run.
// A letter followed by an apostrophe is a word's start ("i'm", "it's"), not a spelled letter.
const SPELLED = /(?<!['’])\b[a-z](?:\s+[a-z]\b(?!['’]))+/g;
// "a" before a unit of time is the article of a rate ("vitamin d a day", "x a week").
const A_PER = /^\s+(?:day|week|month|year|night)\b/;
// "t 3", "b 12", "d 3" are names; "pan d 1 capsule", "zerodol p 1 tablet twice daily" are a brand and a dose count,
// "vitamin k 10 mg" a name and its strength, "vitamin d 50,000 iu" one with its thousands.
const LETTER_DIGIT =
  /(?<!['’])\b([b-hj-wyz])\s+(\d{1,2})\b(?![.,]\d)(?!\s+(?:mg|mcg|micrograms?|milligrams?|grams?|g|units?|iu|mmol|meq|percent|tablets?|tabs?|capsules?|caps?|ml|drops?|puffs?|sachets?|once|twice|thrice|daily|bd|od|tds|tid|bid|qid|hs|sos|at|in|every|after|before|morning|night|a day|times?|hours?|hrs?)\b)/g;
// A spelled name with a digit inside ("h b a one c" → "hba1c"): single letters, one digit, one letter. The last
// letter must stand alone, so a dose and its spelled frequency ("vitamin c one b d") stay apart.
const SPELLED_WITH_DIGIT = /\b[b-hj-z](?:\s+[a-z])*\s+\d\s+[a-z]\b(?!\s+(?:[a-z]|\d)\b)/g;

// A short word said again straight after itself in speech ("ring the, the support team", "i, i think", "you you're"):
// said once. Longer words said twice are a list's items ("protein/creatinine, creatinine clearance").
const STUTTER = /\b([a-z]{1,4}(?:'[a-z]+)?)(?:,?\s+\1\b)+/g;
// Two short words said again the same way: "what you're, what you're describing", "it is, it is".
const STUTTER_PAIR = /\b([a-z]{1,4}(?:'[a-z]+)?\s+[a-z]{1,4}(?:'[a-z]+)?)(?:,?\s+\1\b)+/g;

/**
 * Punctuation said aloud. "colon" is the bowel after "the", "of", "sigmoid" … or before "cancer", "polyp" …;
 * "period" is punctuation only where a line or paragraph command, or the end, follows it, and no word that makes it
 * menstrual comes before it ("a missed period", "her last period").
 */
const VOICE_COMMANDS: [RegExp, string][] = [
  [/\s*\b(?:new|next) paragraph\b\s*/g, '\n'],
  [/\s*\b(?:new|next) line\b\s*/g, '\n'],
  [/\s*(?<!\b(?:missed|late|first|last|heavy|light|painful|irregular|my|her|your|the|a|next|no|monthly)\s+)\bperiod\b(?=\s*(?:\n|$))/g, '.'],
  [/\s*\bfull stop\b/g, '.'],
  [/\s*\bquestion mark\b/g, '?'],
  [/\s*\bsemi ?colon\b/g, ';'],
  [/\s*(?<!\b(?:the|of|sigmoid|ascending|descending|transverse|your|his|her|whole)\s+)\bcolon\b(?!\s+(?:cancer|carcinoma|polyps?|biopsy|mass|growth|wall|and|is|was))/g, ':'],
  [/\s*\bcomma\b/g, ','],
];

// Every voice command has one of these words; a text without any has none to replace (and a replacement adds none).
const VOICE_COMMAND_WORD = /\b(?:paragraph|line|period|stop|mark|semi ?colon|colon|comma)\b/;

const AbbreviationsSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  dotted: Type.Array(
    Type.Object({
      id: Type.String(),
      written: Type.Array(Type.String({ pattern: '^[a-z]+(?:\\.[a-z]+)*\\.?$' })),
      as: Type.String(),
      afterNumber: Type.Optional(Type.String()),
      alone: Type.Optional(Type.String()),
      meaning: Type.String(),
    }),
  ),
  words: Type.Array(
    Type.Object({
      id: Type.String(),
      written: Type.Array(Type.String({ pattern: '^[a-z]+(?: [a-z]+)*$' })),
      as: Type.String(),
      after: Type.Optional(Type.Union([Type.Literal('dose'), Type.Literal('frequency')])),
      notAfter: Type.Optional(Type.Union([Type.Literal('dose'), Type.Literal('frequency')])),
      before: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    }),
  ),
  durationUnits: Type.Record(Type.String(), Type.Union([Type.Literal('days'), Type.Literal('nights'), Type.Literal('weeks'), Type.Literal('months')])),
  ukFractions: Type.Record(Type.String({ pattern: '^\\d+$' }), Type.Union([Type.Literal('days'), Type.Literal('weeks'), Type.Literal('months')])),
  singleDoseAfter: Type.Array(Type.String({ minLength: 1 })),
  hourWords: Type.Array(Type.String({ minLength: 1 })),
  units: Type.Record(Type.String(), Type.String()),
  amounts: Type.Record(Type.String(), Type.String({ pattern: '^\\d+$' })),
  titles: Type.Array(Type.String({ pattern: '^[a-z]+$' })),
  numberTitles: Type.Array(Type.String({ pattern: '^[a-z]+$' })),
});
/** Prescription shorthand ("b.i.d.", "q.h.s.", "x7 days", "IM x 1") as data: vocab/abbreviations.json. */
export const ABBREVIATIONS = checkedData('abbreviations.json', AbbreviationsSchema, ABBREVIATIONS_FILE);

/** A literal phrase as a regular expression's source. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Literal phrases as one alternation, longest first (so the longest match wins). */
export const alternation = (xs: Iterable<string>): string => [...xs].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
const NUM_SRC = String.raw`\d+(?:\.\d+)?`;

// "b.i.d." as written: each stop may have a space after it and the last one may be missing.
const DOTTED_AS = new Map<string, { as: string; afterNumber?: string; alone?: string }>();
for (const d of ABBREVIATIONS.dotted) for (const w of d.written) DOTTED_AS.set(w.replace(/\.$/, ''), d);
const DOTTED = new RegExp(
  String.raw`(?<![a-z0-9.])(?:${[...DOTTED_AS.keys()].sort((a, b) => b.length - a.length).map((w) => w.split('.').map(escapeRegExp).join(String.raw`\.\s?`)).join('|')})\.?(?![a-z0-9])`,
  'gi',
);
// "Dr. Smith", "vs. placebo": a title's full stop does not end the sentence.
const TITLE = new RegExp(
  String.raw`\b(?:(${alternation(ABBREVIATIONS.titles)})\.(?=[ \t]+[A-Za-z0-9])|(${alternation(ABBREVIATIONS.numberTitles)})\.(?=[ \t]*\d))`,
  'gi',
);
// The full stop of "… p.r.n. Return in 2 weeks" and of "… q.d. PLAN: …" (a heading) also ends the sentence; before a
// lower-case word it does not.
const SENTENCE_AFTER = /^(?:\s*$|\s+[A-Z][a-z]|\s+[A-Z]{2,}(?:[ \t]+[A-Z]{2,})*[ \t]*:)/;

// "every a.m.", "in the a.m.", "q. a.m.", "evaluation in a.m.": the words before already say which part of the day.
const ALONE_NOT_AFTER = /\b(?:every|each|in the|in|this|the|per|q\.?)\s*$/i;

function dotted(match: string, offset: number, text: string): string {
  const rule = DOTTED_AS.get(match.toLowerCase().replace(/\s/g, '').replace(/\.$/, ''));
  if (!rule) return match;
  const before = text.slice(Math.max(0, offset - 12), offset);
  const as = rule.afterNumber && /\d\s*$/.test(before) ? rule.afterNumber : rule.alone && !ALONE_NOT_AFTER.test(before) ? rule.alone : rule.as;
  return match.endsWith('.') && SENTENCE_AFTER.test(text.slice(offset + match.length)) ? `${as}.` : as;
}

const HOURS = alternation(ABBREVIATIONS.hourWords);
// "q4h", "q.6h", "q 4-6 hrs", "every 4 to 6 hours", "4-6 hourly": the shorter interval, the most doses a day. "q point
// eight h": a recogniser's reading of "q.8h." ("q 0.8 h" once its numbers are digits).
const HOUR_INTERVAL_SRC = String.raw`\b(?:(?:q\.?\s?(?:0\.(?=\d+\s*(?:${HOURS})\b))?|every\s+)(\d+)(?:\s*(?:-|to|or)\s*(\d+))?\s*(?:${HOURS})|(\d+)\s*(?:-|to|or)\s*(\d+)\s*hourly)\b`;
// As written ("q.4h."), the last stop is the abbreviation's; once spoken numbers are digits, a stop ends a sentence.
// "q.3.d.", "q3d": every 3 days; "q 6 p.r.n.", "q.6. p.r.n." (the hours left unsaid before as-needed): every 6 hours.
const Q_DAYS = /\bq\.?\s?(\d{1,2})\.?\s?d\b\.?/gi;
const Q_PRN = /\bq\.?\s?(\d{1,2})\.?(?=\s*(?:prn|as needed)\b)/gi;
const HOUR_INTERVAL = new RegExp(String.raw`${HOUR_INTERVAL_SRC}\.?`, 'gi');
const HOUR_INTERVAL_SPOKEN = new RegExp(HOUR_INTERVAL_SRC, 'g');
function hourInterval(match: string, ...args: unknown[]): string {
  const [a, b, c, d] = args as (string | undefined)[];
  const hours = Math.min(Number(a ?? c), Number(b ?? d ?? a ?? c));
  const out = `every ${hours} hours`;
  if (match.toLowerCase() === out) return match;
  const [offset, text] = args.slice(-2) as [number, string];
  return match.endsWith('.') && SENTENCE_AFTER.test(text.slice(offset + match.length)) ? `${out}.` : out;
}

const CONTEXT: Record<'dose' | 'frequency', RegExp> = {
  dose: /(?:\d\s*(?:mg|mcg|g|gm|ml|units?|iu|percent|tablets?|tabs?|capsules?|caps?|puffs?|drops?)?|\b(?:tablets?|tabs?|capsules?|caps?|drops?|po|im|iv))\s*,?\s*$/,
  frequency: /\b(?:bid|tid|qid|qds|tds|bd|od|qd|daily|once|twice|thrice|times a day|(?:every|q) ?\d+ ?h\w*)\s*,?\s*(?:and\s+)?$/,
};
const WORDS = ABBREVIATIONS.words.map((w) => {
  const before = (w.before ?? []).filter((x) => x !== '*ing');
  const ing = w.before?.includes('*ing');
  const follow = w.before ? String.raw`(?=\s+(?:${[alternation(before), ...(ing ? [String.raw`[a-z]+ing`] : [])].join('|')})\b)` : '';
  return {
    // Not a letter of a dotted form ("q.h.s."), nor a word with an apostrophe; a full stop that ends the line is no part.
    re: new RegExp(String.raw`\b(?:${alternation(w.written)})\b(?!'|\.(?=[a-z0-9]))${follow}`, 'g'),
    as: w.as,
    after: w.after ? CONTEXT[w.after] : undefined,
    notAfter: w.notAfter ? CONTEXT[w.notAfter] : undefined,
  };
});
const ANY_WORD = new RegExp(String.raw`\b(?:${alternation(ABBREVIATIONS.words.flatMap((w) => w.written))})\b`);
function readWord(w: (typeof WORDS)[number], match: string, offset: number, all: string): string {
  const before = all.slice(Math.max(0, offset - 30), offset);
  return (!w.after || w.after.test(before)) && !w.notAfter?.test(before) ? w.as : match;
}

const COURSE_UNITS = ABBREVIATIONS.durationUnits;
// "x7d", "x 1 week", "times 2 weeks", "for 10/7": a course length, written as the parser reads it ("for 7 days").
const COURSE = new RegExp(
  String.raw`(?<!\d\s*)\b(x|times|for)\s*(${NUM_SRC})\s*(?:(${alternation(Object.keys(COURSE_UNITS))})|\/\s*(${alternation(Object.keys(ABBREVIATIONS.ukFractions))}))\b(?!\s*\/)`,
  'g',
);
function course(match: string, lead: string, n: string, unit?: string, fraction?: string): string {
  const u = unit ? COURSE_UNITS[unit]! : ABBREVIATIONS.ukFractions[fraction!]!;
  // "for 2 nights" is already read: only shorthand after "for" ("for 7d", "for 5/7") is rewritten.
  if (lead === 'for' && unit && unit.replace(/s$/, '') === u.replace(/s$/, '')) return match;
  return `for ${n} ${Number(n) === 1 ? u.replace(/s$/, '') : u}`;
}

// "IM x 1", "Solu-Medrol 125 mg x1", "injection times 1": one dose only.
// The "x 1" is looked for before the words behind it (a lookbehind tried at every position).
const SINGLE_DOSE = new RegExp(
  String.raw`(?=(?:x|times)\s*1\b)(?<=\b(?:${alternation(ABBREVIATIONS.singleDoseAfter)})\s*,?\s*)\b(?:x|times)\s*1\b(?!\s*(?:\.?\d|\/|(?:${alternation(Object.keys(COURSE_UNITS))}|doses?|bd|bid|tds|tid|qid|od|daily|once|twice|a day|every)\b))`,
  'g',
);
// "50/25 mg": a combination's strengths, each with its unit, so the second is not read alone as the strength.
const COMBINED_STRENGTH = new RegExp(String.raw`(?<![\d./])(${NUM_SRC})\s*\/\s*(${NUM_SRC})\s*(mg|mcg)\b(?!\s*\/)`, 'g');
// "3 to 5 days", "3-5 days", "three, four weeks": the upper bound (fixtures' conventions), so one number is parsed.
// Said with a comma, only neighbouring numbers are a range ("three, four weeks"; not "day 1, 10 days later").
const COURSE_RANGE = new RegExp(String.raw`\b(\d+)\s*(to|-|or|,)\s*(\d+)\s*((?:day|night|week|month)s)\b`, 'g');
function upperBound(match: string, a: string, sep: string, b: string, unit: string): string {
  const ok = sep === ',' ? Number(b) === Number(a) + 1 : Number(b) > Number(a);
  return ok ? `${b} ${unit}` : match;
}
const AMOUNT = new RegExp(String.raw`\b(?:${alternation(Object.keys(ABBREVIATIONS.amounts))})(?=\s+(?:days|nights|weeks|months|years|hours)\b)`, 'g');
const UNIT_SPELLING = new RegExp(String.raw`(\d)\s*(${alternation(Object.keys(ABBREVIATIONS.units))})\b(?![.'])`, 'g');

/** Shorthand written without full stops, read once spoken numbers are digits. */
function expandShorthand(text: Mapped): Mapped {
  let s = text.replace(HOUR_INTERVAL_SPOKEN, hourInterval);
  // Nothing to read when no shorthand word is written at all (each rule then scans for nothing).
  if (ANY_WORD.test(s.text)) for (const w of WORDS) s = s.replace(w.re, (match: string, offset: number, all: string) => readWord(w, match, offset, all));
  s = s.replace(AMOUNT, (m: string) => ABBREVIATIONS.amounts[m]!).replace(COURSE_RANGE, upperBound);
  s = s.replace(COURSE, course).replace(SINGLE_DOSE, 'once only');
  s = s.replace(COMBINED_STRENGTH, '$1 $3/$2 $3');
  return s.replace(UNIT_SPELLING, (_m: string, d: string, u: string) => `${d} ${ABBREVIATIONS.units[u]}`);
}

// Runs of spaces and tabs become one space: a single space is left alone, it is one already.
const SPACING = /[ \t]{2,}|\t/g;

const DIGIT_WORD = 'zero|one|two|three|four|five|six|seven|eight|nine';
// After a teen the stop is read as a point only before a unit ("aldactone twelve. five milligrams"): "she's fifteen.
// Five days ago …" is two sentences.
const SPOKEN_DECIMAL_STOP = new RegExp(
  String.raw`\b(${DIGIT_WORD}|(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)(?=\. (?:${DIGIT_WORD}) (?:milligrams?|mg|micrograms?|mcg|millilit(?:er|re)s?|ml|grams?|g|units?|percent|%)\b))\. (?=(?:${DIGIT_WORD})\b)`,
  'g',
);

/** Lower case, voice commands as punctuation, hyphens and "+" spelled out, spoken numbers as digits, spelled letters joined. */
// "1/2 tab", "1-1/2 tabs", "1 1/2 tablets", "3/4 tablet", a recogniser's "one over two tab": a fraction of a tablet is a
// decimal count.
const WRITTEN_FRACTION = /(?<![\d./])(?:(\d)(?:-|\s+))?([13])(?:\/|\s+over\s+)([24])(?<=1(?:\/|\s+over\s+)2|[13](?:\/|\s+over\s+)4)(?=\s*(?:tabs?|tablets?|caps?|capsules?|pills?)\b)/g;

const fraction = (_m: string, whole: string | undefined, part: string, of: string): string => String(Number(whole ?? 0) + Number(part) / Number(of));
// "half a tablet", "half a tab at night": the amount said before its unit in words.
const PRODUCT_NUMBER = /\b(tylenol|codeine)\s*#\s?([2-4])(?!\d)/g;
const HALF_A = /\bhalf an? (?=(?:tabs?|tablets?|caps?|capsules?|pills?)\b)/g;

export function normalizeMapped(raw: Mapped, voiceCommands = true): Mapped {
  // Latin written with full stops goes first: its stops would otherwise end sentences and become decimals ("q.4h").
  let s = raw.replace(DOTTED, dotted).replace(TITLE, '$1$2').replace(HOUR_INTERVAL, hourInterval).replace(Q_DAYS, 'every $1 days').replace(Q_PRN, 'every $1 hours').lower().replace(/[’‘]/g, "'").replace(/[“”]/g, '"');
  if (voiceCommands && VOICE_COMMAND_WORD.test(s.text)) for (const [re, to] of VOICE_COMMANDS) s = s.replace(re, to);
  // "two. five of norvasc": a recogniser writes the spoken "point" of a decimal as a full stop between number words.
  s = s.replace(SPOKEN_DECIMAL_STOP, '$1 point ');
  s = s.replace(/(\d)\s*%/g, '$1 percent').replace(/\s*\+\s*/g, ' plus ');
  // "Tylenol #3": the product's number, written as "number 3" or "no. 3" elsewhere (codeine in it; not three tablets).
  s = s.replace(PRODUCT_NUMBER, '$1 number $2');
  // ".25 mg": a decimal written without its leading zero.
  s = s.replace(/(?<![\d.])\.(?=\d)/g, '0.');
  s = s.replace(WRITTEN_FRACTION, fraction);
  s = s.replace(/([a-z])-(?=[a-z])/g, '$1 ').replace(/(\d)-(?=[a-z])/g, '$1 ').replace(/([a-z])-(?=\d)/g, '$1 ');
  // "q four h p r n": the interval is read before spelled letters are joined, or "h p r n" would become one word.
  s = s.replace(NUMBER_RUN, numberWords).replace(HOUR_INTERVAL_SPOKEN, hourInterval).replace(WRITTEN_FRACTION, fraction).replace(HALF_A, '0.5 ');
  s = s.replace(SPELLED_WITH_DIGIT, (run: string) => run.replace(/\s+/g, ''));
  s = s.replace(SPELLED, (run: string, at: number, all: string) => {
    const letters = run.split(/\s+/);
    // "a" or "i" at the edge of a run is the article or pronoun: "take a b complex" keeps "a", "do a k o h mount"
    // is "a koh", "a c b c i would" is "cbc i", "vitamin d a day" is "d a day".
    if (letters.length === 2 && (letters[0] === 'a' || letters[0] === 'i')) return run;
    const lead = letters.length > 2 && (letters[0] === 'a' || letters[0] === 'i') ? `${letters.shift()} ` : '';
    const article = letters.at(-1) === 'a' && A_PER.test(all.slice(at + run.length));
    const trail = (letters.length > 2 && letters.at(-1) === 'i') || article ? ` ${letters.pop()}` : '';
    return `${lead}${letters.join('')}${trail}`;
  });
  s = s.replace(LETTER_DIGIT, '$1$2');
  s = s.replace(STUTTER_PAIR, '$1').replace(STUTTER, '$1');
  return expandShorthand(s).replace(SPACING, ' ');
}

export function normalizeText(raw: string): string {
  return normalizeMapped(Mapped.of(raw)).text;
}

/**
 * Words as a speaker meant them, for a name or an instruction shown to the doctor: a recogniser keeps the repeats
 * ("the the pop", "rotator cuff rotator cuff tendinopathy"), restarts over an article ("lateral a lateral ligament
 * strain") and words cut off and said again ("radicul radiculopathy").
 */
export function withoutRepeats(words: string): string {
  return words
    .replace(/\b([a-z']+(?: [a-z']+){0,2})(?: \1\b)+/g, '$1')
    .replace(/\b([a-z']+) (?:a|an|the) (?=\1\b)/g, '')
    .replace(/\b([a-z]{4,}) (?=\1[a-z])/g, '');
}

/**
 * A vocabulary phrase read as the transcript is, but with no voice commands: "missed period" ends on the word, not
 * on a full stop said aloud (which would make "I missed it." a missed period).
 */
export function normalizePhrase(phrase: string): string {
  let normal = normalizedPhrases.get(phrase);
  if (normal === undefined) normalizedPhrases.set(phrase, (normal = normalizeMapped(Mapped.of(phrase), false).text));
  return normal;
}
// The vocabularies name a third of their phrases more than once (a drug in the formulary, the codes and the
// interactions): each is read once a process, which was a third of the structurer's start.
const normalizedPhrases = new Map<string, string>();

export interface Match<T> {
  /** Token indexes [from, to). */
  from: number;
  to: number;
  start: number;
  end: number;
  payload: T;
  key: string;
}

/** Longest-match lookup of multi-word phrases over tokens. */
export class PhraseIndex<T> {
  private readonly byFirst = new Map<string, { words: string[]; payload: T; key: string }[]>();
  private readonly keys = new Set<string>();

  /** The first payload given for a phrase stays; among phrases of one first word the longest is tried first. */
  add(phrase: string, payload: T): void {
    const words = tokenize(normalizePhrase(phrase)).map((t) => t.text).filter((w) => !/^[,;:?]$/.test(w));
    const first = words[0];
    const key = words.join(' ');
    if (!first || this.keys.has(key)) return;
    this.keys.add(key);
    const list = this.byFirst.get(first) ?? [];
    // After every phrase as long or longer, as a stable sort by length would put it.
    const at = list.findIndex((e) => e.words.length < words.length);
    list.splice(at === -1 ? list.length : at, 0, { words, payload, key });
    this.byFirst.set(first, list);
  }

  /** The longest phrase starting at token i, if any. */
  matchAt(tokens: Token[], i: number): Match<T> | undefined {
    const list = this.byFirst.get(tokens[i]?.text ?? '');
    if (!list) return undefined;
    for (const e of list) {
      if (i + e.words.length > tokens.length) continue;
      let ok = true;
      for (let k = 1; k < e.words.length; k++) {
        if (tokens[i + k]!.text !== e.words[k]) {
          ok = false;
          break;
        }
      }
      if (ok) {
        const to = i + e.words.length;
        return { from: i, to, start: tokens[i]!.start, end: tokens[to - 1]!.end, payload: e.payload, key: e.key };
      }
    }
    return undefined;
  }

  /** Non-overlapping longest matches, left to right. */
  findAll(tokens: Token[]): Match<T>[] {
    const out: Match<T>[] = [];
    for (let i = 0; i < tokens.length; ) {
      const m = this.matchAt(tokens, i);
      if (m) {
        out.push(m);
        i = m.to;
      } else i++;
    }
    return out;
  }

  has(phrase: string): boolean {
    return this.byFirst.has(phrase.split(' ')[0] ?? '') && this.byFirst.get(phrase.split(' ')[0]!)!.some((e) => e.key === phrase);
  }
}

/** Body parts and sites: they qualify a complaint ("pain in the right heel") but are not complaints alone. */
/**
 * A relative, as a regular-expression source with one capture group for the word. Not when the relative brought
 * the patient ("brought by mother with ear pain", "came with her husband"): that is who is speaking, not family
 * history.
 */
const RELATIVES = String.raw`father|mother|brother|sister|uncle|aunt|grandfather|grandmother|grandparents?|sibling|cousin|parents?|son|daughter|mom|dad`;
// The word is looked for before the words behind it (a lookbehind tried at every position).
export const RELATIVE = String.raw`\b(?=(?:${RELATIVES})\b)(?<!\b(?:by|with)\s+(?:(?:his|her|their|the)\s+)?)(${RELATIVES})\b`;

export const BODY_PART = new Set(
  ('head scalp face forehead cheek cheeks eye eyes eyelid ear ears nose nostril throat neck shoulder shoulders arm arms ' +
    'elbow elbows forearm wrist wrists hand hands finger fingers thumb chest back spine abdomen belly stomach tummy ' +
    'navel umbilicus groin hip hips thigh thighs knee knees leg legs calf calves shin ankle ankles foot feet heel heels ' +
    'toe toes sole soles skin body trunk breast breasts buttock buttocks bottom jaw tooth teeth gums tongue lip lips ' +
    'mouth armpit axilla side flank loin pelvis joints joint limbs limb muscles').split(' '),
);
