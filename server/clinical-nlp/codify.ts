/**
 * Codification: a diagnosis phrase → the best ICD-10 entry of the project's list, and misheard words → the nearest
 * vocabulary word. Matching is by weighted word overlap (rare words such as "maxillary" count more than "acute"),
 * after British/American spelling is folded and words the recogniser got slightly wrong are snapped to the
 * vocabulary by edit distance or by sound (double metaphone).
 */
import { doubleMetaphone } from 'double-metaphone';
import { distance } from 'fastest-levenshtein';
import { ICD10, NEVER_SNAP, type IcdEntry } from './vocab/icd10.js';
import type { CodeRef } from './facts.js';
import { BODY_PART, normalizeText, tokenize } from './lexicon.js';

/** Folds British spellings and plurals so "haemorrhoids" meets "hemorrhoid" and "oedema" meets "edema". */
export function foldWord(w: string): string {
  let s = w;
  // Every word of every name and phrase is folded: the string tests keep the regexes off the words they leave alone.
  if (s.length > 4) {
    if (s.includes('ae')) s = s.replace(/ae/g, 'e');
    if (s.includes('oe')) s = s.replace(/oe/g, 'e');
    if (s.endsWith('our')) s = `${s.slice(0, -3)}or`;
    else if (s.endsWith('isation')) s = `${s.slice(0, -7)}ization`;
  }
  if (s.length > 3 && s.endsWith('s') && !/(?:ss|is|us|ps)$/.test(s)) s = s.slice(0, -1);
  return s;
}

// Words that make a name abnormal: a phrase without them names the normal thing ("blood pressure" is not "low blood
// pressure", "blood sugar" not "low blood sugar", "vitamin d" not "vitamin d deficiency"), so a partial match may not
// leave one out.
const ABNORMAL = new Set('low high raised elevated reduced increased decreased poor abnormal excess excessive deficiency deficient loss failure insufficiency overload'.split(' '));

// Words that say how a condition is, not which one: they may stand beside a name that lacks them.
const QUALIFYING = new Set('acute chronic recurrent mild moderate severe bilateral uncontrolled controlled stable unstable history old new primary secondary simple early late persistent'.split(' '));

// Words that place a finding on the body without naming one.
const PLACE = new Set('lower upper inner outer front middle area region'.split(' '));

// Words that never decide a code: laterality, articles, links.
const IGNORED = new Set('of the a an in on at to with and or for due left right side sided type class status post'.split(' '));

function words(phrase: string): string[] {
  return tokenize(normalizeText(phrase))
    .map((t) => t.text)
    .filter((w) => !/^[,;:?]$/.test(w) && !IGNORED.has(w))
    .map(foldWord);
}

interface Syn {
  entry: IcdEntry;
  words: string[];
  weight: number;
  /** The words once each, in order, with their idf: what a phrase is scored against, computed at load. */
  unique: string[];
  idfs: number[];
  wordSet: Set<string>;
}

const SYNS: Syn[] = [];
const EXACT = new Map<string, IcdEntry>();
const POSTINGS = new Map<string, number[]>();
const DF = new Map<string, number>();
const BY_CODE = new Map(ICD10.map((e) => [e.code, e]));

for (const entry of ICD10) {
  for (const name of [...entry.synonyms, entry.display.toLowerCase()]) {
    const ws = words(name);
    if (ws.length === 0) continue;
    const key = ws.join(' ');
    if (!EXACT.has(key)) EXACT.set(key, entry);
    const unique = [...new Set(ws)];
    SYNS.push({ entry, words: ws, weight: 0, unique, idfs: [], wordSet: new Set(unique) });
  }
}
SYNS.forEach((s, i) => {
  for (const w of new Set(s.words)) {
    DF.set(w, (DF.get(w) ?? 0) + 1);
    const list = POSTINGS.get(w) ?? [];
    list.push(i);
    POSTINGS.set(w, list);
  }
});
const idf = (w: string): number => Math.log(1 + SYNS.length / (DF.get(w) ?? 0.5));
for (const s of SYNS) {
  s.weight = s.words.reduce((a, w) => a + idf(w), 0);
  s.idfs = s.unique.map(idf);
}
// Which synonyms a phrase has already been scored against: a stamp per synonym instead of a set per phrase.
const scoredAt = new Uint32Array(SYNS.length);
let scoring = 0;

const VOCAB_WORDS = [...DF.keys()].filter((w) => w.length >= 4 && !/\d/.test(w));
const byMetaphone = new Map<string, string[]>();
for (const w of VOCAB_WORDS) {
  const [code] = doubleMetaphone(w);
  byMetaphone.set(code, [...(byMetaphone.get(code) ?? []), w]);
}

/**
 * The vocabulary word a misheard word most likely was: within a small edit distance (one edit for short words, two
 * for long ones), or sounding the same and within three edits. Undefined when nothing is close enough.
 */
export function snapWord(word: string, vocab: readonly string[], phonetic: Map<string, string[]>): string | undefined {
  if (word.length < 5 || /\d/.test(word)) return undefined;
  const limit = word.length >= 8 ? 2 : 1;
  let best: string | undefined;
  let bestD = Infinity;
  for (const v of vocab) {
    if (Math.abs(v.length - word.length) > limit) continue;
    const d = distance(word, v);
    if (d <= limit && d < bestD) {
      best = v;
      bestD = d;
    }
  }
  if (best) return best;
  const [code] = doubleMetaphone(word);
  for (const v of phonetic.get(code) ?? []) {
    const d = distance(word, v);
    if (d <= 3 && d < bestD) {
      best = v;
      bestD = d;
    }
  }
  return best;
}

/**
 * The same word with another ending (all but the last three letters of the vocabulary's word said, and four at
 * least), or a long word misspelt by one letter ("hypertention"): a short word one letter away is often another word
 * ("couch", "lumps").
 */
function sameStem(said: string, word: string): boolean {
  let k = 0;
  while (k < said.length && k < word.length && said[k] === word[k]) k++;
  return k >= Math.max(4, word.length - 3) || (said.length >= 8 && distance(said, word) <= 1);
}

/** "gastro enteritis" → "gastroenteritis": the recogniser sometimes splits a long word in two. */
function joinSplitWords(ws: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const joined = foldWord(`${ws[i]}${ws[i + 1] ?? ''}`);
    if (i + 1 < ws.length && DF.has(joined)) {
      out.push(joined);
      i++;
    } else out.push(ws[i]!);
  }
  return out;
}

export interface IcdMatch {
  entry: IcdEntry;
  /** 0..1: how well the phrase and the entry's best synonym cover each other. */
  score: number;
  /** Share of the phrase's weight the synonym covers. */
  coverage: number;
}

/** The score below which a phrase codes to nothing. */
const MIN_SCORE = 0.6;

// Snapping a word scans the vocabulary; a diagnosis list is scored prefix by prefix, so each word is snapped once.
const SNAPPED = new Map<string, string>();

function vocabWord(w: string): string {
  if (DF.has(w) || NEVER_SNAP.has(w)) return w;
  let snapped = SNAPPED.get(w);
  if (snapped === undefined) {
    if (SNAPPED.size > 20_000) SNAPPED.clear();
    snapped = snapWord(w, VOCAB_WORDS, byMetaphone) ?? w;
    SNAPPED.set(w, snapped);
  }
  return snapped;
}

/**
 * The entry one of whose names is exactly these words (spelling and plurals folded, link words left out), with no
 * guess at a misheard word: a name said in passing, outside any diagnosis list, counts only when said whole.
 */
export function exactIcdTokens(tokens: readonly string[]): IcdEntry | undefined {
  const ws = tokens.filter((w) => !IGNORED.has(w)).map(foldWord);
  return ws.length ? EXACT.get(ws.join(' ')) : undefined;
}

// A sentence's words folded once (null for a link word): its spans are looked up many times over.
const FOLDED = new WeakMap<readonly { text: string }[], (string | null)[]>();

function foldedWords(tokens: readonly { text: string }[]): (string | null)[] {
  let folded = FOLDED.get(tokens);
  if (!folded) {
    folded = tokens.map((t) => (IGNORED.has(t.text) ? null : foldWord(t.text)));
    FOLDED.set(tokens, folded);
  }
  return folded;
}

// Every name's first words (one, two, …): a span whose words start no name starts no longer one either.
const NAME_STARTS = new Set<string>();
for (const key of EXACT.keys()) {
  const ws = key.split(' ');
  for (let k = 1; k <= ws.length; k++) NAME_STARTS.add(ws.slice(0, k).join(' '));
}

/**
 * Where the longest span from token i (up to j) that could still be a name ends: exactIcdSpan(tokens, i, j') finds
 * nothing for any j' past it, so a scan from the longest span down starts there.
 */
export function exactIcdReach(tokens: readonly { text: string }[], i: number, j: number): number {
  const folded = foldedWords(tokens);
  let key = '';
  let reach = i;
  for (let k = i; k < Math.min(j, folded.length); k++) {
    const w = folded[k];
    if (w !== null && w !== undefined) {
      key = key ? `${key} ${w}` : w;
      if (!NAME_STARTS.has(key)) break;
    }
    reach = k + 1;
  }
  return reach;
}

/** exactIcdTokens of the words of tokens[i, j), for scans that try many spans of one sentence. */
export function exactIcdSpan(tokens: readonly { text: string }[], i: number, j: number): IcdEntry | undefined {
  const folded = foldedWords(tokens);
  let key = '';
  for (let k = i; k < Math.min(j, folded.length); k++) {
    const w = folded[k];
    if (w !== null && w !== undefined) key = key ? `${key} ${w}` : w;
  }
  return key ? EXACT.get(key) : undefined;
}

/** True when some whole name of the list is said among tokens[from, …). */
export function namesIcdFrom(tokens: readonly { text: string }[], from: number): boolean {
  for (let i = from; i < tokens.length; i++) for (let j = exactIcdReach(tokens, i, tokens.length); j > i; j--) if (exactIcdSpan(tokens, i, j)) return true;
  return false;
}

/** The ICD-10 entry that best fits a diagnosis phrase, or undefined below a useful score. */
export function matchIcd(phrase: string): IcdMatch | undefined {
  return matchIcdTokens(tokenize(normalizeText(phrase)).map((t) => t.text));
}

/** matchIcd for words already normalised (a sentence's tokens), without normalising them again. */
export function matchIcdTokens(tokens: readonly string[]): IcdMatch | undefined {
  const raw = joinSplitWords(tokens.filter((w) => !/^[,;:?]$/.test(w) && !IGNORED.has(w)).map(foldWord));
  if (raw.length === 0) return undefined;
  const ws = raw.map(vocabWord);
  const exact = EXACT.get(ws.join(' '));
  // A one-word name heard only by its sound is no name: "standing" is not "(post) stenting", "impression" not
  // "depression", "afebrile" not "febrile" (as for a synonym below, a name heard by sound needs two words); the same
  // word with another ending or a slip of spelling is ("tachycardic", "rashes", "hypertention").
  if (exact && (ws.length > 1 || sameStem(raw[0]!, ws[0]!))) return { entry: exact, score: 1, coverage: 1 };
  const qset = new Set(ws);
  const said = new Set(raw.filter((w, k) => ws[k] === w));
  const qWeight = [...qset].reduce((a, w) => a + idf(w), 0);
  // The phrase's own diagnosis words, each of which a name must have unless it leaves none of its words out.
  const diagnosisWords = [...qset].filter((qw) => DF.has(qw) && !ABNORMAL.has(qw) && !QUALIFYING.has(qw));
  scoring = scoring === 0xffffffff ? 1 : scoring + 1;
  if (scoring === 1) scoredAt.fill(0);
  let best: IcdMatch | undefined;
  for (const w of qset) {
    for (const i of POSTINGS.get(w) ?? []) {
      if (scoredAt[i] === scoring) continue;
      scoredAt[i] = scoring;
      const s = SYNS[i]!;
      // The words shared can weigh at most the phrase's own weight: a synonym too heavy for it to reach 0.6 of
      // scores 0 (the margin keeps float rounding of the two sums from deciding).
      if (qWeight < 0.6 * s.weight * (1 - 1e-9)) continue;
      let inter = 0;
      let missesAbnormal = false;
      for (let k = 0; k < s.unique.length; k++) {
        const sw = s.unique[k]!;
        if (qset.has(sw)) inter += s.idfs[k]!;
        else if (ABNORMAL.has(sw)) missesAbnormal = true;
      }
      if (missesAbnormal) continue;
      const p = inter / s.weight;
      const r = inter / qWeight;
      // A synonym wholly inside the phrase is the usual case ("acute otitis media" in "left acute suppurative
      // otitis media"), so the synonym's coverage weighs more than the phrase's.
      const score = p < 0.6 || r === 0 ? 0 : (1.5 * p * r) / (0.5 * p + r);
      // Below the useful score a synonym can never be the answer: skipped before the costlier checks.
      if (score < MIN_SCORE) continue;
      // A name's last word is its head ("water infection", "personality disorder", "lower back pain"): without it,
      // one word ("water", "personally") or a place ("lower back") names nothing; two words of its own still do
      // ("carpal tunnel", "rotator cuff").
      const head = s.words[s.words.length - 1]!;
      const shared = s.words.filter((sw) => qset.has(sw));
      if (s.words.length > 1 && !qset.has(head) && shared.filter((sw) => !BODY_PART.has(sw) && !PLACE.has(sw)).length < 2) continue;
      // "renal artery stenosis" is not "carotid artery stenosis": a word of the name missing where the phrase says
      // another diagnosis word in its place is another condition.
      const missing = s.words.some((sw) => !qset.has(sw) && !IGNORED.has(sw));
      if (missing && diagnosisWords.some((qw) => !s.wordSet.has(qw))) continue;
      // A name heard only by its sound needs two of its words ("limiting" is not "vomiting").
      if (shared.length < 2 && !shared.some((sw) => said.has(sw))) continue;
      if (!best || score > best.score) best = { entry: s.entry, score, coverage: r };
    }
  }
  return best && best.score >= MIN_SCORE ? best : undefined;
}

/**
 * True when a sentence's token is, or was misheard for, a word of some diagnosis name (not a link word such as "of"
 * or "left"): a diagnosis name starts and ends with one.
 */
export function isIcdWord(token: string): boolean {
  if (IGNORED.has(token) || /^[,;:?]$/.test(token)) return false;
  return DF.has(vocabWord(foldWord(token)));
}

/** isIcdWord without guessing at a misheard word: for scans that only look for names said exactly. */
export function isExactIcdWord(token: string): boolean {
  return !IGNORED.has(token) && DF.has(foldWord(token));
}

/** The entry with this code, for rules that move a diagnosis to a related code (anaemia in pregnancy). */
export function icdByCode(code: string): IcdEntry | undefined {
  return BY_CODE.get(code);
}

export function icdRef(entry: IcdEntry): CodeRef {
  return { system: 'ICD-10', code: entry.code, display: entry.display };
}

/**
 * True when the code is a category's unspecified one (.9), so a sibling code says more. Not every display that says
 * "unspecified" is one: J44.1 is the exacerbation, only its organism is unspecified.
 */
export function isUnspecified(entry: IcdEntry): boolean {
  return /\.9$/.test(entry.code);
}
