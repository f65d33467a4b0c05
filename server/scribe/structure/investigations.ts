/**
 * Investigations ordered or done at this visit, by full name ("c b c" → complete blood count). Not orders: negated
 * tests ("no need for an x-ray", "CT is not needed"), earlier results ("her last HbA1c was 8", "reports show TSH
 * 11.5", "echo last year"), conditional ones ("if it persists we will do an MRI"), home monitoring ("check fasting
 * sugar every morning") and fingerstick glucose (a vital). A test done in the clinic today is an investigation
 * ("urine dipstick today is positive").
 *
 * Every cue is looked for next to the test or its list ("CBC, ESR and x-ray", joined by "and", commas or "with"),
 * never across the whole sentence: a recogniser's sentence may run on for a paragraph without punctuation.
 */
import { INVESTIGATIONS, type Investigation as Test } from '../vocab/investigations.js';
import type { Investigation } from './facts.js';
import { BODY_PART, normalizeText, PhraseIndex, type Match, type Token } from './lexicon.js';
import type { Doc, Sentence } from './sections.js';

/** What a matched phrase names: the test, the name to show (its own, or the alias said when that is a name too). */
export interface TestTerm {
  name: string;
  loinc?: string;
  test: Test;
  /** A word that names the test only inside a list of tests ("HIV" among "CBC, HIV, HBsAg"). */
  inListOnly: boolean;
}

type Hit = Match<{ name: string; loinc?: string }>;

export const INVESTIGATION_INDEX = new PhraseIndex<TestTerm>();
// One-word names ("cbc", "lft", "kft"), for a recogniser's run of spelled letters joined into one word.
const ONE_WORD = new Map<string, TestTerm>();

function addPhrase(phrase: string, term: TestTerm): void {
  INVESTIGATION_INDEX.add(phrase, term);
  const word = normalizeText(phrase).trim();
  if (/^[a-z0-9]{3,}$/.test(word) && !term.inListOnly && !ONE_WORD.has(word)) ONE_WORD.set(word, term);
  // Plural of the last word ("blood cultures", "knee x rays", "hearing and vision screens").
  if (!term.inListOnly && /[a-z]{3}$/.test(phrase) && !/[sy]$/.test(phrase)) INVESTIGATION_INDEX.add(`${phrase}s`, term);
}

const BY_NAME = new Map<string, TestTerm>();
for (const test of INVESTIGATIONS) {
  const own: TestTerm = { name: test.name, ...(test.loinc ? { loinc: test.loinc } : {}), test, inListOnly: false };
  BY_NAME.set(test.name, own);
  addPhrase(test.name, own);
  for (const alias of test.aliases) {
    const listOnly = test.inListOnly.includes(alias);
    const shown = test.namedAs.includes(alias) ? alias : test.name;
    addPhrase(alias, shown === test.name && !listOnly ? own : { ...own, name: shown, inListOnly: listOnly });
  }
}

// structure.ts hands back the payloads of findInvestigationMatches, typed by their common fields only.
const termOf = (h: Hit): TestTerm => h.payload as TestTerm;

const CONJUNCTION = new Set(['and', 'or', '&']);

/**
 * The phrase index's matches, plus tests named by coordination: "hearing and vision screens" (one head for two
 * tests), "liver and kidney function tests", "urine routine and culture" (one specimen for two).
 */
export function findInvestigationMatches(s: Sentence): Match<TestTerm>[] {
  const tokens = s.tokens;
  const found = INVESTIGATION_INDEX.findAll(tokens);
  const extra: Match<TestTerm>[] = [];
  tokens.forEach((t, k) => {
    if (t.text.length < 6 || found.some((m) => m.from <= k && m.to > k)) return;
    for (const payload of splitRun(t.text) ?? []) extra.push({ from: k, to: k + 1, start: t.start, end: t.end, payload, key: t.text });
  });
  for (let k = 1; k + 1 < tokens.length; k++) {
    if (!CONJUNCTION.has(tokens[k]!.text)) continue;
    const a = tokens[k - 1]!;
    const right = found.find((m) => m.from === k + 1);
    const left = found.find((m) => m.to === k);
    // Shared head: the word before "and" plus the words after the right-hand test's first word.
    if (right && right.to - right.from >= 2 && !left) {
      const head = tokens.slice(right.from + 1, right.to);
      const m = exactPhrase([a, ...head]);
      if (m) extra.push({ from: k - 1, to: k, start: a.start, end: right.end, payload: m.payload, key: m.key });
    }
    // Shared specimen: the left-hand test's first word(s) before the word after "and" (imaging takes its sites
    // itself: "ultrasound abdomen and pelvis" is one study).
    if (left && left.to - left.from >= 2 && !left.payload.test.takesSite) {
      for (let p = 1; p < left.to - left.from; p++) {
        const prefix = tokens.slice(left.from, left.from + p);
        const m = longestPhrase([...prefix, ...tokens.slice(k + 1)]);
        if (!m || m.to <= p) continue;
        const to = k + 1 + m.to - p;
        if (right && right.to > to) continue;
        extra.push({ from: k + 1, to, start: tokens[k + 1]!.start, end: tokens[to - 1]!.end, payload: m.payload, key: m.key });
        break;
      }
    }
  }
  if (!extra.length) return found;
  // A test read through coordination replaces the bare word it starts at ("culture" → "urine culture").
  return [...found.filter((m) => !extra.some((e) => e.from === m.from && e.to >= m.to)), ...extra].sort((x, y) => x.from - y.from);
}

/** "cbclftkft" → CBC, LFT, KFT: a word made only of one-word test names, each at least three letters long. */
function splitRun(word: string): TestTerm[] | undefined {
  if (!/^[a-z0-9]+$/.test(word)) return undefined;
  const best: (TestTerm[] | undefined)[] = [[]];
  for (let end = 3; end <= word.length; end++) {
    for (let start = end - 3; start >= 0 && !best[end]; start--) {
      const term = ONE_WORD.get(word.slice(start, end));
      if (term && best[start]) best[end] = [...best[start]!, term];
    }
  }
  const parts = best[word.length];
  return parts && parts.length >= 2 ? parts : undefined;
}

function longestPhrase(tokens: Token[]): Match<TestTerm> | undefined {
  return INVESTIGATION_INDEX.matchAt(tokens, 0);
}

function exactPhrase(tokens: Token[]): Match<TestTerm> | undefined {
  const m = longestPhrase(tokens);
  return m && m.to === tokens.length ? m : undefined;
}

// What imaging looks at, and how: "x-ray of both knees AP and lateral", "MRI brain with epilepsy protocol".
const SITE = new Set([
  ...BODY_PART,
  ...('cervical lumbar lumbosacral ls thoracic dorsal spine kub pns skull sacroiliac si ap pa lateral view views oblique ' +
    'standing weight bearing right left both bilateral pelvic pelvis region thyroid soft tissue tissues whole transvaginal ' +
    'transabdominal contrast plain protocol epilepsy brain orbit orbits sinus sinuses paranasal mastoid mastoids ' +
    'nasopharynx adenoid adenoids kidney kidneys renal ureter ureters bladder prostate scrotum testes testis uterus ' +
    'ovary ovaries liver gallbladder gall hepatobiliary axillary lower upper extremity extremities femur tibia fibula ' +
    'humerus radius ulna clavicle ribs rib cervix lumbar lateral coccyx sacrum shoulders hip knees elbows wrists ' +
    'ankles hands feet joints dorsolumbar lumbosacral cspine').split(' '),
]);
const SITE_LINK = new Set(['and', 'of', 'the', 'with', '&']);
// Said before a test and part of its name: "repeat ultrasound", "two D echo", "point of care A1c".
const QUALIFIER = ['point of care', 'finger stick', 'fingerstick', 'bedside', 'repeat', '2 d', '2d', '3d', 'sleep deprived'].map((q) => q.split(' '));

const CONNECTOR = new Set([',', 'and', 'or', 'nor', '&', 'with', 'along', 'as', 'well', 'also', 'plus', 'a', 'an', 'the', 'then', 'today', 'now', 'this', 'next', 'in', 'after', 'at', 'within', 'by', 'same', 'day', 'days', 'week', 'weeks', 'month', 'months', 'time', 'urgently', 'urgent', 'stat', 'again', 'both', 'some', 'her', 'his', 'your', 'their', 'fasting']);
const TIME_UNIT = /^(?:hours?|days?|weeks?|months?|years?)$/;

const NEG = new Set(['no', 'not', 'without', 'never', 'nor', 'neither', "don't", 'dont', "doesn't", "didn't", "won't", 'avoid', 'defer', 'skip', 'cancel', 'unnecessary', 'hold']);
const INSTEAD = /\b(?:instead of|rather than)(?: (?:a|an|the|doing|getting|ordering))?$/;
const NEG_FILLER = new Set(['need', 'needs', 'needed', 'for', 'of', 'to', 'do', 'get', 'go', 'order', 'ordering', 'send', 'sending', 'a', 'an', 'the', 'any', 'further', 'more', 'again', 'be', 'doing', 'getting', 'is', 'there', 'really', 'than', 'off', 'on', 'yet', 'urgent', 'routine', 'require', 'required', 'requires', 'repeat', 'repeating', 'we', 'i', 'will', 'would', 'it', 'off']);
const COND = new Set(['consider', 'considering', 'may', 'might', 'could', 'possibly', 'eventually', 'later', 'unless', 'if']);
const PAST = new Set(['last', 'previous', 'previously', 'prior', 'earlier', 'old', 'recent', 'recently', 'already', 'outside', 'had', 'showed', 'shows', 'reports', 'report', 'brought', 'came', 'on', 'by', 'known', 'from']);
const PAST_FILLER = new Set(['a', 'an', 'the', 'his', 'her', 'their', 'your', 'with', 'of', 'done', 'positive', 'negative', 'normal', 'abnormal', 'first', 'second', 'third', 'trimester', 'also', 'both', 'all', 'these', 'those', 'any', 'some', 'outside', 'lab', 'laboratory', 'home']);
const MONITOR = new Set(['monitor', 'monitoring', 'self', 'home']);
const OPENER = /^(?:we|we'll|i'll|then|let's|lets)$/;
const MAIN_CLAUSE = /^(?:we|we'll|will|then|get|do|consider|plan|go|need|may|might|could|should)$/;
const REFER = /\b(?:refer|referred|referral|referring)\b/;
const ORDER_VERB = new Set(['check', 'checking', 'test', 'tests', 'testing', 'screen', 'screening', 'send', 'sending', 'get', 'getting', 'do', 'order', 'ordering', 'repeat', 'recheck', 'advised', 'advise', 'investigations', 'investigation', 'plan']);
// A finding, not an order: "raised intraocular pressure", "low platelet count", "high TSH".
const FINDING = new Set(['raised', 'elevated', 'high', 'low', 'normal', 'abnormal', 'deranged', 'increased', 'decreased', 'reduced', 'borderline']);
// Pointing back at a test already ordered or done: "after the ultrasound", "once the echo confirms".
const REFERENCE = /(?:after|once|when|until|till) the$/;

const NEG_AFTER =
  /^(?:(?:is|are|was|were|will|would|be|really|also|at all|again|right|now|here|today|for now)\s+)*(?:(?:not|no longer|never)\s+(?:\w+\s+)?(?:needed|required|indicated|necessary|warranted|advised|recommended|useful|helpful|ordered|repeated|planned)\b|(?:unnecessary|not needed|deferred|can wait|can be deferred|can be avoided)\b)/;
const COND_AFTER =
  /^(?:(?:later|too|also|only)\s+)?(?:if|unless|in case|should (?:it|she|he|they|the|symptoms?)|(?:once|when|after) (?:he|she|they|you|it|he's|she's|they're|you're|it's)\b)/;
const RESULT_AFTER =
  /^(?:(?:is|was|were|are|of|level|levels|value|reading|result|at|came back|comes back|report(?:ed)?|showed?|shows|showing|revealed?|reveals|under|below|above|over|less than|more than|between|around|about|still)\s+)*(?:\d+(?:\.\d+)?(?!\s*(?:hours?|hrs?|days?|weeks?|months?|years?|samples?|specimens?|times|views?|leads?|minutes?|gram|g|mg)\b)|(?:within )?normal\b|abnormal|positive|negative|reactive|non reactive|nonreactive|(?:high|low)\b(?! (?:salt|fat|sugar|protein|potassium|sodium|carb\w*|calorie\w*|fib(?:re|er)|residue|dose|risk|oil|iodine|diet))|raised|elevated|unremarkable|suggestive|suggests|consistent|changes|findings|reports?\b|results?\b|report)/;
const PAST_AFTER =
  /^(?:\S+\s+){0,5}?(?:last (?:week|month|year|visit|time)|\d+ (?:days?|weeks?|months?|years?) (?:ago|back)|ago\b|yesterday|previously|earlier|done (?:last|outside|elsewhere|before|earlier|previously|in (?:january|february|march|april|may|june|july|august|september|october|november|december|\d{4}))|(?:at|during) (?:her|his|the) last|from (?:last|the last|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b|(?:done )?at home|at (?:intake|booking|registration))/;
const SELF_MONITORED = /\b(?:sugar|glucose|peak|ketones?|pressure)\b/;
const MONITOR_AFTER = /^(?:(?:at home|every|daily|twice|thrice|each|regularly|weekly|once a|before (?:meals|breakfast)|after (?:meals|food)|chart|diary|log)\b)/;
// A deficiency, a drug or a salt named by the same word: "vitamin D deficiency", "magnesium sulphate paste".
const NOT_TEST_AFTER =
  /^(?:problems?|disease|issues?|trouble|disorder|deficiency|insufficiency|toxicity|drops|sachets?|tablets?|capsules?|injections?|supplements?|syrup|infection|control|status|clinic|camp|sulphate|sulfate|chloride|oxide|citrate|hydroxide|carbonate|gluconate|sucrose|paste|glycerine|lotion|cream|gel|ointment)\b/;
const THIS_VISIT = /\b(?:today|here|now|in the office|in (?:the )?clinic|we (?:just )?did|i did|just did|done here|point of care|bedside|stat)\b/;
const PAST_SENTENCE = /\b(?:reports?|came with|brought|last|previous|previously|earlier|ago|old|outside|from (?:last|the last))\b/;
// Done here, whatever came before: "ECG done here today shows AF", "the bladder scan we just did shows 90 mL".
const DONE_HERE_AFTER = /^(?:\S+\s+){0,2}?(?:done (?:here|today|now|in the (?:office|clinic))|(?:we|i) (?:just )?did|today (?:is|shows|showed|was|were))\b/;
const GLUCOMETER = /\b(?:glucometer|finger ?stick|finger prick|capillary|cbg|grbs|meter|strip|sugar chart|home)\b/;
const IS_GLUCOSE = /\b(?:sugar|glucose)\b/;
const NOT_GLUCOSE_READING = /\b(?:tolerance|challenge|urine)\b/;
const SPECIMEN = new Set(['urine', 'stool', 'sputum', 'blood', 'pus', 'throat', 'wound', 'ear', 'csf']);

interface Found {
  hit: Hit;
  term: TestTerm;
  /** Token range with qualifiers and site words. */
  from: number;
  to: number;
  qualifier: string[];
  site: string[];
}

function words(tokens: Token[], from: number, to: number): string {
  return tokens
    .slice(Math.max(0, from), Math.max(0, to))
    .map((t) => t.text)
    .join(' ');
}

function extend(s: Sentence, hit: Hit, term: TestTerm, nextFrom: number): Found {
  const t = s.tokens;
  let from = hit.from;
  const qualifier: string[] = [];
  for (const q of QUALIFIER) {
    if (from - q.length < 0) continue;
    if (q.every((w, i) => t[from - q.length + i]!.text === w)) {
      qualifier.unshift(q.join('') === '2d' ? '2d' : q.join(' '));
      from -= q.length;
    }
  }
  const site: string[] = [];
  let to = hit.to;
  if (term.test.takesSite) {
    const pending: string[] = [];
    for (let i = hit.to; i < nextFrom && site.length < 8; i++) {
      let w = t[i]!.text;
      if (w === 'a' && t[i + 1]?.text === 'p' && i + 1 < nextFrom) {
        w = 'ap';
        i++;
      }
      if (SITE.has(w)) {
        site.push(...pending.filter((p) => p === 'and' || p === 'with'), w);
        pending.length = 0;
        to = i + 1;
      } else if (SITE_LINK.has(w)) pending.push(w);
      else break;
    }
    // "knee x rays": the site said before, when none follows.
    if (!site.length) {
      while (from > 0 && SITE.has(t[from - 1]!.text) && !['ap', 'pa', 'lateral', 'view', 'views', 'with'].includes(t[from - 1]!.text)) {
        site.unshift(t[from - 1]!.text);
        from--;
      }
    }
  }
  return { hit, term, from, to, qualifier, site };
}

/** Tokens between two tests of one list: only "and", commas, articles and when ("BMP in 1 week, and a repeat echo"). */
function joins(t: Token[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const w = t[i]!.text;
    if (/^\d+$/.test(w) && TIME_UNIT.test(t[i + 1]?.text ?? '')) i++;
    else if (!CONNECTOR.has(w) && !TIME_UNIT.test(w)) return false;
  }
  return true;
}

/** Walk back from token `at` over filler words; true when a cue word comes within `reach` words. */
function cueBefore(t: Token[], at: number, floor: number, cues: Set<string>, filler: Set<string>, reach: number): boolean {
  let steps = 0;
  for (let i = at - 1; i >= floor && steps < reach; i--) {
    const w = t[i]!.text;
    if (cues.has(w)) return true;
    if (!filler.has(w) && !SITE.has(w)) steps++;
    if (/^[,;:?]$/.test(w)) return false;
  }
  return false;
}

function conditional(s: Sentence, at: number, floor: number): boolean {
  const t = s.tokens;
  for (let i = at - 1; i >= Math.max(0, at - 20); i--) {
    const w = t[i]!.text;
    if (w !== 'if' && w !== 'unless' && !(w === 'case' && t[i - 1]?.text === 'in')) continue;
    // The if-clause ends at its comma or at the main clause's verb; the test must open the main clause.
    const between = t.slice(i + 1, at).map((x) => x.text);
    // The main clause starts at the if-clause's comma or at its own words ("we will", "then"); the test must be
    // what it does ("if it persists we will do an MRI"), not a new order after it ("if ... we may add amlodipine.
    // BMP in 2 weeks").
    const opens = between.findIndex((x) => x === ',' || OPENER.test(x));
    if (opens >= 0) return between.slice(opens + 1).every((x) => NEG_FILLER.has(x) || MAIN_CLAUSE.test(x));
    return at - i <= 4;
  }
  return cueBefore(t, at, floor, COND, NEG_FILLER, 2);
}

function clauseStart(t: Token[], at: number, floor: number): number {
  for (let i = at - 1; i >= floor; i--) if (/^[,;?]$/.test(t[i]!.text)) return i + 1;
  return floor;
}

type Status = 'order' | 'negated' | 'conditional' | 'past' | 'result' | 'monitor' | 'reading';

function statusBefore(s: Sentence, f: Found, floor: number): Status {
  const t = s.tokens;
  const start = clauseStart(t, f.from, floor);
  if (cueBefore(t, f.from, Math.max(floor, f.from - 6), NEG, NEG_FILLER, 1) || INSTEAD.test(words(t, f.from - 4, f.from))) return 'negated';
  if (cueBefore(t, f.from, start, FINDING, PAST_FILLER, 1)) return 'result';
  if (REFERENCE.test(words(t, f.from - 2, f.from))) return 'past';
  if (conditional(s, f.from, start)) return 'conditional';
  if (REFER.test(words(t, Math.max(start, f.from - 8), f.from))) return 'negated';
  if (cueBefore(t, f.from, start, MONITOR, NEG_FILLER, 2)) return 'monitor';
  if (cueBefore(t, f.from, start, PAST, PAST_FILLER, 2)) return 'past';
  return 'order';
}

function statusAfter(s: Sentence, f: Found, nextFrom: number): Status {
  const t = s.tokens;
  let end = f.to;
  while (end < Math.min(nextFrom, f.to + 10) && !/^[,;?]$/.test(t[end]!.text)) end++;
  let at = f.to;
  // "intraocular pressure right eye 26": the side or site before a value.
  while (at < end && SITE.has(t[at]!.text)) at++;
  const after = words(t, at, end);
  if (NEG_AFTER.test(after)) return 'negated';
  // "MRI if it persists"; but an if-clause with its own main clause starts a new thought ("PSA and a urinalysis if
  // the prostate is large we may add finasteride").
  if (COND_AFTER.test(after) && !t.slice(at + 1, at + 13).some((x) => OPENER.test(x.text))) return 'conditional';
  if (NOT_TEST_AFTER.test(after)) return 'negated';
  if (PAST_AFTER.test(after)) return 'past';
  if (MONITOR_AFTER.test(after) && SELF_MONITORED.test(f.term.test.name)) return 'monitor';
  if (RESULT_AFTER.test(after)) return 'result';
  return 'order';
}

/** A result without a word of when: done here today when the sentence says so, else an earlier report. */
function resultIsToday(s: Sentence, f: Found): boolean {
  return THIS_VISIT.test(words(s.tokens, f.from - 10, f.to + 10)) && !PAST_SENTENCE.test(words(s.tokens, f.from - 12, f.from));
}

function isReading(s: Sentence, f: Found): boolean {
  if (!IS_GLUCOSE.test(f.term.test.name) || NOT_GLUCOSE_READING.test(f.term.test.name)) return false;
  const t = s.tokens;
  return GLUCOMETER.test(words(t, f.from - 4, f.to + 5));
}

function nameOf(f: Found, previous: Found | undefined): { name: string; loinc?: string } {
  let term = f.term;
  // "urinalysis with culture": the culture of what the test before it was done on.
  if (term.test.name === 'culture' && previous) {
    const specimen = previous.term.test.name.split(' ')[0]!;
    const named = SPECIMEN.has(specimen) ? BY_NAME.get(`${specimen} culture`) : undefined;
    if (named) term = named;
  }
  const name = [...f.qualifier, term.name, ...f.site].join(' ');
  return term.loinc && !f.site.length ? { name, loinc: term.loinc } : { name };
}

/** A list-only word ("HIV", "sugar") in a list that names at least one test by a test's own name. */
function inRealList(found: Found[], linked: boolean[], i: number): boolean {
  let first = i;
  while (first > 0 && linked[first]) first--;
  for (let k = first; k < found.length && (k === first || linked[k]); k++) if (k !== i && !found[k]!.term.inListOnly) return true;
  return false;
}

export function extractInvestigations(doc: Doc, matchesOf: (s: Sentence) => Hit[]): Investigation[] {
  const out: (Investigation & { test: Test; site: string })[] = [];
  for (const s of doc.sentences) {
    if (s.speaker === 'patient' || s.text.trimEnd().endsWith('?')) continue;
    const hits = [...matchesOf(s)].sort((a, b) => a.from - b.from);
    const found: Found[] = [];
    hits.forEach((hit, i) => found.push(extend(s, hit, termOf(hit), hits[i + 1]?.from ?? s.tokens.length)));
    // Lists: tests joined only by "and", commas, articles and when they are due.
    const linked = found.map((f, i) => i > 0 && joins(s.tokens, found[i - 1]!.to, f.from));
    const status: Status[] = found.map(() => 'order');
    let head = 0;
    for (let i = 0; i < found.length; i++) {
      if (!linked[i]) head = i;
      const f = found[i]!;
      const floor = i > 0 ? found[i - 1]!.to : 0;
      const before = linked[i]
        ? // Negation reaches along "x-ray or MRI", not past a comma into the next order ("no x-ray, CBC today").
          status[head] === 'negated' && /[,]/.test(words(s.tokens, found[i - 1]!.to, f.from))
          ? statusBefore(s, f, floor)
          : status[i - 1]!
        : statusBefore(s, f, floor);
      status[i] = before;
    }
    for (let i = 0; i < found.length; i++) {
      const f = found[i]!;
      if (status[i] !== 'order') continue;
      const after = statusAfter(s, f, found[i + 1]?.from ?? s.tokens.length);
      if (after === 'order') continue;
      // "x-ray and MRI are not needed", "TSH and free T4 were normal": a plural verb speaks for the whole list.
      let first = i;
      if (/^(?:are|were)\b/.test(words(s.tokens, f.to, f.to + 1))) while (first > 0 && linked[first]) first--;
      for (let k = first; k <= i; k++) status[k] = after;
    }
    for (let i = 0; i < found.length; i++) {
      const f = found[i]!;
      let st = status[i]!;
      if (st === 'result' && resultIsToday(s, f)) st = 'order';
      if ((st === 'result' || st === 'past') && DONE_HERE_AFTER.test(words(s.tokens, f.to, f.to + 6))) st = 'order';
      if (st === 'order' && isReading(s, f)) st = 'reading';
      if (st !== 'order') continue;
      const previous = linked[i] ? found[i - 1] : undefined;
      if (f.term.inListOnly && !inRealList(found, linked, i) && !cueBefore(s.tokens, f.from, 0, ORDER_VERB, NEG_FILLER, 1)) continue;
      // "CBC with platelet count": a part of the test before it is said with it, not ordered apart.
      if (previous && previous.term.test.parts.includes(f.term.test.name) && words(s.tokens, previous.to, f.from) === 'with') {
        const whole = out.find((x) => x.test === previous.term.test);
        if (whole && !whole.name.includes(' with ')) {
          const part = s.span(s.tokens[f.from]!.start, s.tokens[f.to - 1]!.end);
          whole.name = `${whole.name} with ${f.term.name}`;
          if (whole.evidence) whole.evidence = { ...whole.evidence, end: part.end, ...(part.end_s !== undefined ? { end_s: part.end_s } : {}) };
        }
        if (whole) continue;
      }
      const { name, loinc } = nameOf(f, previous);
      const site = f.site.join(' ');
      const test = f.term.test.name === 'culture' ? (BY_NAME.get(name)?.test ?? f.term.test) : f.term.test;
      // The same test again ("repeat TSH in six weeks"), unless it looks at another site; "the ultrasound" after
      // "pelvic ultrasound" is that one.
      const generic = test.takesSite && !site && out.some((x) => x.test.takesSite && ` ${x.name} `.includes(` ${name} `));
      if (generic || out.some((x) => x.name === name || (x.test === test && (x.site === site || !site)))) continue;
      out.push({ name, ...(loinc ? { loinc } : {}), evidence: s.span(s.tokens[f.from]!.start, s.tokens[f.to - 1]!.end), test, site });
    }
  }
  return out.map(({ name, loinc, evidence }) => ({ name, ...(loinc ? { loinc } : {}), ...(evidence ? { evidence } : {}) }));
}
