/**
 * Tokens and phrase lookup shared by every extractor: text and vocabulary go through the same normalisation, so a
 * phrase index built once at module load finds "c b c", "CBC" and "cbc" alike in one pass over the tokens.
 */
import { Mapped } from './mapped.js';
import { NUMBER_RUN, numberWords } from './numbers.js';

export interface Token {
  text: string;
  start: number;
  end: number;
}

const TOKEN = /[a-z0-9]+(?:['./-][a-z0-9]+)*|[,;:?]/g;

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
// "t 3", "b 12", "d 3" are names; "pan d 1 capsule", "zerodol p 1 tablet twice daily" are a brand and a dose count.
const LETTER_DIGIT =
  /(?<!['’])\b([b-hj-wyz])\s+(\d{1,2})\b(?!\.\d)(?!\s+(?:tablets?|tabs?|capsules?|caps?|ml|drops?|puffs?|sachets?|once|twice|thrice|daily|bd|od|tds|tid|bid|qid|hs|sos|at|in|every|after|before|morning|night|a day|times?)\b)/g;
// A spelled name with a digit inside ("h b a one c" → "hba1c"): single letters, one digit, one letter. The last
// letter must stand alone, so a dose and its spelled frequency ("vitamin c one b d") stay apart.
const SPELLED_WITH_DIGIT = /\b[b-hj-z](?:\s+[a-z])*\s+\d\s+[a-z]\b(?!\s+(?:[a-z]|\d)\b)/g;

/**
 * Punctuation said aloud. "colon" is the bowel after "the", "of", "sigmoid" … or before "cancer", "polyp" …;
 * "period" is punctuation only where a line or paragraph command, or the end, follows it (else it is menstrual).
 */
const VOICE_COMMANDS: [RegExp, string][] = [
  [/\s*\b(?:new|next) paragraph\b\s*/g, '\n'],
  [/\s*\b(?:new|next) line\b\s*/g, '\n'],
  [/\s*\bperiod\b(?=\s*(?:\n|$))/g, '.'],
  [/\s*\bfull stop\b/g, '.'],
  [/\s*\bquestion mark\b/g, '?'],
  [/\s*\bsemi ?colon\b/g, ';'],
  [/\s*(?<!\b(?:the|of|sigmoid|ascending|descending|transverse|your|his|her|whole)\s+)\bcolon\b(?!\s+(?:cancer|carcinoma|polyps?|biopsy|mass|growth|wall|and|is|was))/g, ':'],
  [/\s*\bcomma\b/g, ','],
];

/** Lower case, voice commands as punctuation, hyphens and "+" spelled out, spoken numbers as digits, spelled letters joined. */
export function normalizeMapped(raw: Mapped): Mapped {
  let s = raw.lower().replace(/[’‘]/g, "'").replace(/[“”]/g, '"');
  for (const [re, to] of VOICE_COMMANDS) s = s.replace(re, to);
  s = s.replace(/(\d)\s*%/g, '$1 percent').replace(/\s*\+\s*/g, ' plus ');
  // ".25 mg": a decimal written without its leading zero.
  s = s.replace(/(?<![\d.])\.(?=\d)/g, '0.');
  s = s.replace(/([a-z])-(?=[a-z])/g, '$1 ').replace(/(\d)-(?=[a-z])/g, '$1 ').replace(/([a-z])-(?=\d)/g, '$1 ');
  s = s.replace(NUMBER_RUN, numberWords);
  s = s.replace(SPELLED_WITH_DIGIT, (run: string) => run.replace(/\s+/g, ''));
  s = s.replace(SPELLED, (run: string) => {
    const letters = run.split(/\s+/);
    // "a" or "i" at the edge of a run is the article or pronoun: "take a b complex" keeps "a", "do a k o h mount"
    // is "a koh", "a c b c i would" is "cbc i".
    if (letters.length === 2 && (letters[0] === 'a' || letters[0] === 'i')) return run;
    const lead = letters.length > 2 && (letters[0] === 'a' || letters[0] === 'i') ? `${letters.shift()} ` : '';
    const trail = letters.length > 2 && letters[letters.length - 1] === 'i' ? ` ${letters.pop()}` : '';
    return `${lead}${letters.join('')}${trail}`;
  });
  s = s.replace(LETTER_DIGIT, '$1$2');
  return s.replace(/[ \t]+/g, ' ');
}

export function normalizeText(raw: string): string {
  return normalizeMapped(Mapped.of(raw)).text;
}

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

  add(phrase: string, payload: T): void {
    const words = tokenize(normalizeText(phrase)).map((t) => t.text).filter((w) => !/^[,;:?]$/.test(w));
    const first = words[0];
    if (!first) return;
    const list = this.byFirst.get(first) ?? [];
    if (list.some((e) => e.words.join(' ') === words.join(' '))) return;
    list.push({ words, payload, key: words.join(' ') });
    list.sort((a, b) => b.words.length - a.words.length);
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
export const RELATIVE = String.raw`(?<!\b(?:by|with)\s+(?:(?:his|her|their|the)\s+)?)\b(father|mother|brother|sister|uncle|aunt|grandfather|grandmother|grandparents?|sibling|cousin|parents?|son|daughter|mom|dad)\b`;

export const BODY_PART = new Set(
  ('head scalp face forehead cheek cheeks eye eyes eyelid ear ears nose nostril throat neck shoulder shoulders arm arms ' +
    'elbow elbows forearm wrist wrists hand hands finger fingers thumb chest back spine abdomen belly stomach tummy ' +
    'navel umbilicus groin hip hips thigh thighs knee knees leg legs calf calves shin ankle ankles foot feet heel heels ' +
    'toe toes sole soles skin body trunk breast breasts buttock buttocks bottom jaw tooth teeth gums tongue lip lips ' +
    'mouth armpit axilla side flank loin pelvis joints joint limbs limb muscles').split(' '),
);
