/**
 * Investigations ordered or done at this visit, by full name ("c b c" → complete blood count), also when they are to
 * be done later or elsewhere on this order ("recheck CBC in 12 weeks", "the crew will do an ECG"). Not orders: negated
 * tests ("no need for an x-ray", "CT is not needed", "I don't think you need an x-ray"), earlier results ("her last
 * HbA1c was 8", "reports show TSH 11.5", "echo last year", "the ultrasound they did at the hospital"), results gone
 * over without a word that they were done today ("I reviewed your x-ray"), conditional, considered or habitual ones
 * ("if it persists we will do an MRI", "we could consider an MRI", "we usually do an x-ray"), questions, home
 * monitoring ("check fasting sugar every morning"), fingerstick glucose and oximetry (vitals), tests the patient turns
 * down ("she declined a sigmoidoscopy", "a colonoscopy, which he has refused"), a report's dated results ("Labs dated
 * 07-11-06: …") and tests under a report's history headings. A test done at this visit is an investigation ("urine dipstick today is positive", "the
 * EKG we did in the office", "Pap smear done", a report's undated LAB section). A test named by its kind ("blood
 * work") stands only where no named test says what it is.
 *
 * Every cue is looked for next to the test or its list ("CBC, ESR and x-ray", joined by "and", commas or "with"),
 * never across the whole sentence: a recogniser's sentence may run on for a paragraph without punctuation.
 */
import { INVESTIGATIONS, type Investigation as Test } from './vocab/investigations.js';
import type { Investigation } from './facts.js';
import { BODY_PART, normalizePhrase, PhraseIndex, type Match, type Token } from './lexicon.js';
import type { Doc, SectionKind, Sentence } from './sections.js';

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
  const word = normalizePhrase(phrase).trim();
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
    const shown = test.shownAs[alias] ?? (test.namedAs.includes(alias) ? alias : test.name);
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
      // Only where a run of names already ends can the next one start: the lookup is made there alone.
      if (!best[start]) continue;
      const term = ONE_WORD.get(word.slice(start, end));
      if (term) best[end] = [...best[start]!, term];
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
const SITE_LINK = new Set(['and', 'of', 'the', 'with', '&', 'your', 'his', 'her', 'their', 'my']);
// Said before a test and part of its name: "repeat ultrasound", "two D echo", "point of care A1c".
const QUALIFIER = ['point of care', 'finger stick', 'fingerstick', 'bedside', 'repeat', '2 d', '2d', '3d', 'sleep deprived'].map((q) => q.split(' '));

const CONNECTOR = new Set([',', 'and', 'or', 'nor', '&', 'with', 'along', 'as', 'well', 'also', 'plus', 'a', 'an', 'the', 'then', 'today', 'now', 'this', 'next', 'in', 'after', 'at', 'within', 'by', 'same', 'day', 'days', 'week', 'weeks', 'month', 'months', 'time', 'urgently', 'urgent', 'stat', 'again', 'both', 'some', 'her', 'his', 'your', 'their', 'fasting']);
const TIME_UNIT = /^(?:hours?|days?|weeks?|months?|years?)$/;

// Also what the patient turns down: "she declined a sigmoidoscopy", "he refused an MRI".
const NEG = new Set(['no', 'not', 'without', 'never', 'nor', 'neither', "don't", 'dont', "doesn't", "didn't", "won't", 'avoid', 'defer', 'skip', 'cancel', 'unnecessary', 'hold', 'declined', 'declines', 'declining', 'refused', 'refuses', 'refusing']);
// Asking whether a test was done, in a recogniser's unpunctuated run: "did they do any x-rays", "have you had an echo";
// or how its readings have been: "how's your blood sugars been" (not "check how your kidney function is").
const ASKED_BEFORE = /\b(?:(?:did|have|has) (?:you|they|he|she|we|the \w+) (?:ever |already |recently |previously )?(?:had|have|do|done|get|got|ran|run|take|taken)(?: (?:a|an|the|any|some|your|his|her))?|how(?<!\b(?:check|see|out|know|test|monitor|at) how)(?:'s|'re| is| are| was| were| have| has)? (?:your|his|her|their|the))$/;
// "I don't think you need an x-ray", "she doesn't need any bloods", "the patient does not want a colonoscopy".
const NO_NEED = /\b(?:don't|do not|doesn't|does not|won't|will not)(?: (?:think|feel|believe))?(?: (?:you|she|he|they|we|it))?(?: really)? (?:need|needs|require|requires|have to|want|wish to have)(?: (?:a|an|the|any|another|more))?$/;
const INSTEAD = /\b(?:instead of|rather than)(?: (?:a|an|the|doing|getting|ordering))?$/;
// "I'm not going to order an x-ray", "not gonna get a scan": the verb's own words keep the negation going.
const NEG_FILLER = new Set(['going', 'gonna', 'gon', 'na', 'planning', 'have', 'has', 'had', 'need', 'needs', 'needed', 'for', 'of', 'to', 'do', 'get', 'go', 'order', 'ordering', 'send', 'sending', 'a', 'an', 'the', 'any', 'further', 'more', 'again', 'be', 'doing', 'getting', 'is', 'there', 'really', 'than', 'off', 'on', 'yet', 'urgent', 'routine', 'require', 'required', 'requires', 'repeat', 'repeating', 'we', 'i', 'will', 'would', 'it', 'off', 'think', 'feel', 'believe', 'set', 'setting', 'up', 'schedule', 'scheduling', 'arrange', 'arranging', 'obtain', 'obtaining']);
// "check your thyroid": whose test it is stands between the order and a name that is a test only when ordered.
const ORDER_FILLER = new Set([...NEG_FILLER, 'your', 'his', 'her', 'their', 'my', 'some']);
// Also what is done as a rule, not now: "we usually do an x-ray when …".
const COND = new Set(['consider', 'considering', 'possible', 'may', 'might', 'could', 'possibly', 'potentially', 'perhaps', 'maybe', 'eventually', 'later', 'unless', 'if', 'usually', 'normally', 'typically', 'generally', 'sometimes', 'often']);
const PAST = new Set(['last', 'previous', 'previously', 'prior', 'earlier', 'old', 'recent', 'recently', 'current', 'already', 'outside', 'had', 'showed', 'shows', 'reports', 'report', 'brought', 'came', 'on', 'by', 'known', 'from']);
const PAST_FILLER = new Set(['in', 'a', 'an', 'the', 'his', 'her', 'their', 'your', 'with', 'of', 'done', 'positive', 'negative', 'normal', 'abnormal', 'first', 'second', 'third', 'trimester', 'also', 'both', 'all', 'these', 'those', 'any', 'some', 'outside', 'lab', 'laboratory', 'home']);
const MONITOR = new Set(['monitor', 'monitoring', 'self', 'home']);
const OPENER = /^(?:we|we'll|i'll|then|let's|lets)$/;
const WHETHER_BEFORE = /^(?:out|see|check|know|determine|tell|ask|wonder|assess|confirm)$/;
const MAIN_CLAUSE = /^(?:we|we'll|we're|will|then|get|do|consider|plan|go|need|may|might|could|should|are|going|gonna|proceed|with|obtain|arrange|schedule|pursue|want|would|can)$/;
const REFER = /\b(?:refer|referred|referral|referring)\b/;
// "I'm going to refer you for a chest x-ray": referred for the test itself, which is its order.
const REFERRED_FOR_TEST = /\b(?:refer|referred|referring)(?: (?:you|him|her|them))? for(?: (?:a|an|the|some|your|his|her|their))?$/;
// "Patient declined the flu vaccine and the colonoscopy": turned down, however far along the clause's list.
const TURNED_DOWN = new Set(['declined', 'declines', 'declining', 'refused', 'refuses', 'refusing']);
const TAKEN_UP = new Set(['but', 'agreed', 'agrees', 'accepted', 'accepts', 'however']);
const ORDER_VERB = new Set(['check', 'checking', 'test', 'tests', 'testing', 'screen', 'screening', 'send', 'sending', 'get', 'getting', 'do', 'order', 'ordering', 'repeat', 'recheck', 'advised', 'advise', 'investigations', 'investigation', 'plan']);
// A finding, not an order: "raised intraocular pressure", "low platelet count", "high TSH".
const FINDING = new Set(['rise', 'rising', 'drop', 'fall', 'raised', 'elevated', 'high', 'low', 'normal', 'abnormal', 'deranged', 'increased', 'decreased', 'reduced', 'borderline', 'unchanged', 'unremarkable', 'reassuring']);
// Pointing back at a test already ordered or done: "after the ultrasound", "once the echo confirms", "get hold of the
// echo from her cardiologist", "the results of your x-ray".
const REFERENCE =
  /\b(?:(?:after|once|when|until|till) the|(?:hold|copy|copies|records?|results?|reports?) of(?: (?:the|his|her|your|their|this|that))?)$/;
// The examination's own manoeuvres and instruments: "negative varus and valgus stress test", "I did use the doppler",
// "pulses present via doppler".
const EXAMINED_WITH = /\b(?:(?:varus|valgus)(?: (?:and|or) (?:varus|valgus))?|(?<!\b(?:after|before) )(?:use|used|using)(?: (?:the|a|my|our))?|(?:present|heard|felt|palpable) (?:via|by|on|with))$/;
// A test named to explain another ("under fluoroscopy, which you can think of like an x-ray", "a type of x-ray").
const LIKENED = /\b(?:think of(?: it)?(?: as)?(?: (?:you know|um|uh))?|(?:a|it's a|it is a) (?:type|kind|sort) of|similar to)(?: (?:like|a|an|the))*$/;
// Watching a result over time, not ordering it now: "we will continue to follow her urinalysis", "trend the creatinine".
const MONITOR_BEFORE = /\b(?:follow|following|trend|trending|watch|watching|keep an eye on|keep track of)(?: (?:the|his|her|your|their))?$/;
// Results gone over with the patient: the tests named after it are earlier results until an order is said ("I reviewed
// your x-ray … I also want to order an MRI"), also when the doctor asks the record system for them ("show me the ECG").
const REVIEWED = /\b(?:reviewed|reviewing|review (?:of )?(?:the|your|his|her|their|all|any)|went over|go over|going over|look(?:ed|ing)? (?:at|over)|results? of|the opportunity to|show me|pull up|bring up)\b/g;
const ORDERING = /\b(?:order|ordering|advised?|recommend(?:ed)?|to have|get|getting|check|checking|obtain|send|sending|schedule|set (?:you|him|her|them) up|recheck|repeat|arrange|request|like to|want to|wanna|gonna|going to|need|plan)\b/;
// A question the doctor asks, not a statement said with a rising "?" ("they'll do an ECG?", "so that's a swab, OK?").
const ASKS = /^(?:(?:and|so|okay|ok|um|uh|now|then)\s+)*(?:do|does|did|have|has|had|are|is|was|were|can|could|would|will|shall|should|any|what|when|where|which|who|why|how)\b/;
// A purpose, not a second test: "thick and thin films to check for malaria".
const PURPOSE = /^(?:,\s*)?(?:(?:in order )?to (?:check|look|test|screen|assess) for|to (?:rule out|exclude)|for)$/;
// Said after a test named by its kind: the named tests follow ("blood work that includes the HCV RNA", "lab work including CBC").
const SPECIFIED_AFTER = /^(?:\S+\s+){0,2}?(?:including|includes|include|such as|like|namely|:)/;
// Where a report puts what was done at the visit (results section, examination) and where it tells the story before it.
const DONE_SECTIONS = new Set<SectionKind>(['results', 'exam', 'vitals']);
const HISTORY_SECTIONS = new Set<SectionKind>(['complaint', 'history', 'past_history', 'medications', 'allergies', 'family', 'social', 'review']);

const NEG_AFTER =
  /^(?:(?:(?:is|are|was|were|will|would|be|really|also|at all|again|right|now|here|today|for now)\s+)*(?:declined|refused)\b|(?:(?:is|are|was|were|will|would|be|really|also|at all|again|right|now|here|today|for now)\s+)*(?:(?:not|no longer|never)\s+(?:\w+\s+)?(?:needed|required|indicated|necessary|warranted|advised|recommended|useful|helpful|ordered|repeated|planned)\b|(?:unnecessary|not needed|deferred|can wait|can be deferred|can be avoided)\b))/;
const COND_AFTER =
  /^(?:(?:later|too|also|only)\s+)?(?:if|unless|in case|at some (?:point|stage)|in the (?:near )?future|down the (?:line|road)|later on|in due course|one day|(?:would|could|might|can|may) (?:show|tell|help|give|confirm|rule|prove|be (?:useful|helpful|an option|the next|difficult|hard|impossible|risky|dangerous))|should (?:it|she|he|they|the|symptoms?)|(?:once|when|after) (?:he|she|they|you|it|he's|she's|they're|you're|it's)\b)/;
const RESULT_AFTER =
  /^(?::\s*)?(?:(?:is|was|were|are|isn't|wasn't|aren't|weren't|not|of|level|levels|value|reading|result|test|tests|at|came back|comes back|report(?:ed)?|show|showed|shows|showing|revealed?|reveals|under|below|above|over|less than|more than|between|around|about|still|all|both|which|that|they|and they|and it|and that|and this|and those|it|essentially|otherwise|basically|completely|entirely|pretty|very|quite|relatively|fairly|slightly|mildly|a little bit|a little|a bit|little|bit|running|has been|have been|been|looks?|looked|seems?|seemed|performed|obtained|in the|you're|you are|you|he's|she's|he is|she is|they're)\s+)*(?:\d+(?:\.\d+)?(?!\s*(?:hours?|hrs?|days?|weeks?|months?|years?|samples?|specimens?|times|views?|leads?|minutes?|gram|g|mg)\b)|(?:within )?normal\b|abnormal|fine\b|(?:didn't|did not|doesn't|does not|hasn't|has not) (?:show|reveal|find)|clear\b|stable\b|reassuring|doing\b|reveals?|revealed|demonstrate[sd]?|show(?:s|ed)? (?:a|an|no|some|mild|moderate|severe|significant|evidence|signs?)\b|positive|negative|reactive|non reactive|nonreactive|(?:high|low)\b(?! (?:salt|fat|sugar|protein|potassium|sodium|carb\w*|calorie\w*|fib(?:re|er)|residue|dose|risk|oil|iodine|diet))|raised|elevated|unremarkable|suggestive|suggests|consistent|changes|findings|reports?\b|results?\b|report)/;
const PAST_AFTER =
  /^(?:\S+\s+){0,5}?(?:last (?:week|month|year|visit|time)|\d+ (?:days?|weeks?|months?|years?) (?:ago|back)|ago\b|yesterday|previously|earlier|done (?:last|outside|elsewhere|before(?! (?:her|his|your|their|the|our) next)|earlier|previously|in (?:january|february|march|april|may|june|july|august|september|october|november|december|\d{4}))|(?:at|during) (?:her|his|the) last|from (?:last|the last|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b|(?:done )?at home|at (?:intake|booking|registration)|(?:is|are) (?:up to date|current)\b|(?:that |which )?(?:they|he|she|you|we) (?:did|had|got|ran|took) (?:at|in|on|by|from|last|before|previously|earlier)|(?:was|were) (?:done|taken|performed) (?:at|in|by|elsewhere|outside)|from (?:the|your|his|her|their) (?:hospital|gp|doctor|er|emergency|urgent care|clinic|surgery|cardiologist|specialist)\b)/;
const SELF_MONITORED = /\b(?:sugar|glucose|peak|ketones?|pressure)\b/;
const MONITOR_AFTER = /^(?:(?:at home|every|daily|twice|thrice|each|regularly|weekly|once a|before (?:meals|breakfast)|after (?:meals|food)|chart|diary|log)\b)/;
// A deficiency, a drug or a salt named by the same word: "vitamin D deficiency", "magnesium sulphate paste".
// A finding of the examination: "doppler pulses are present".
// A specialty named by the same letters: "CT surgery" (cardiothoracic).
const NOT_TEST_AFTER =
  /^(?:improves|improved|improving|worsens|worsened|worsening|recovers|declines|pulses?|signals?|guided|guidance|surgery|surgeon|surgeons|surgical|(?:were |are |is )?(?:full|intact)|problems?|disease|issues?|trouble|disorder|deficiency|insufficiency|toxicity|drops|sachets?|tablets?|capsules?|injections?|supplements?|syrup|infection|control|status|clinic|camp|sulphate|sulfate|chloride|oxide|citrate|hydroxide|carbonate|gluconate|sucrose|paste|glycerine|lotion|cream|gel|ointment)\b/;
// "done here", "we did here"; not "your labs here look good" (the results on the screen).
const THIS_VISIT = /\b(?:today|(?<=\b(?:done|did|do|taken|drawn|performed|got|had|checked)\s+(?:\w+\s+)?)here(?! for)|now|in the office(?! of)|in (?:the )?clinic|we (?:just )?did|i did|just did|done here|point of care|bedside|stat|when (?:you|he|she|they) (?:came|got|arrived) in|on arrival)\b/;
// "the hospital did a ct scan", "they took an x-ray in a and e": done by someone else, before this visit.
const ELSEWHERE = String.raw`(?:hospital|a and e|a&e|er|emergency (?:room|department)|urgent care|walk in (?:centre|center|clinic)|they|gp|pcp|specialist|consultant|cardiologist|surgeon|paramedics?|ambulance(?: crew)?)`;
const DONE_ELSEWHERE = new RegExp(String.raw`\b${ELSEWHERE}\s+(?:already\s+)?(?:did|done|performed|took|ran|had|got)\b`);
const CHECKED_BEFORE = /\b(?:i|we) (?:also |already |just |recently )?(?:checked|ran|tested)\b(?![^,.;]*\b(?:and|but|so) (?:i|we)(?:'ll| will| would| want| wanna| need| are going to| 're going to)\b)/;
// "the cardiologist will probably want an echo": another team's plan, not this visit's order.
const WANTED_ELSEWHERE = new RegExp(String.raw`\b${ELSEWHERE}\s+(?:will|may|might|would|'ll|could)\s+(?:probably\s+|likely\s+|possibly\s+)?(?:want|request|suggest|arrange|do)\b`);
const PAST_SENTENCE = /\b(?:reports?|came with|brought|last|previous|previously|earlier|ago|old|outside|from (?:last|the last))\b/;
// Done here, whatever came before: "ECG done here today shows AF", "the bladder scan we just did shows 90 mL".
const DONE_HERE_AFTER =
  /^(?:\S+\s+){0,2}?(?:done (?:here|today|now|in the (?:office|clinic)(?! of))|(?:we|i) (?:just )?did|today (?:is|shows|showed|was|were)|when (?:you|he|she|they) (?:came|got|arrived) in|on arrival)\b/;
// A vital sign's measurement read out ("room air oximetry is 98 percent") is a vital, not a test.
const VITAL_MEASURE = /\boximetry\b/;
// An imaging study's date said after it ("cervical x-ray 6/4/2021", "MRI 6421"): a study done before this visit.
const DATED_AFTER = /^(?:(?:on|from|dated)\s+\d{1,2}(?:\s*[-.]\s*|\s+)\d{1,2}(?:\s*[-.]\s*|\s+)\d{2,4}\b|(?:(?:on|from|dated|of)\s+)?(?:\d{1,2}\s*\/\s*\d{1,2}(?:\s*\/\s*\d{2,4})?|\d{3,8}|(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*)\b)/;
// "Labs in chart were reviewed", "the MRI has been reviewed": results gone over, said after the test.
const REVIEWED_AFTER = /^(?:(?:in|on|from)\s+(?:the\s+)?(?:chart|system|file|record|notes)\s+)?(?:(?:was|were|is|are|has been|have been)\s+)?(?:reviewed|looked at|gone over)\b/;
// "MRI of the lumbar spine was discussed but is not indicated", "an MRI was discussed but she would like to wait": a test
// talked over, then a "but", is not ordered unless the same breath orders it ("… discussed, but we will order it").
const DISCUSSED_AFTER = /^(?:(?:was|were|has been|have been)\s+)?(?:discussed|mentioned|brought up|talked about)(?:\s+(?:with|at|in)\s+(?:the\s+)?[a-z]+(?:\s+[a-z]+)?)?\s*,?\s+(?:but|however|although|though|and\s+(?:deferred|declined|not)\b)\b(?![^.;?]{0,50}\b(?:ordered|order|scheduled|schedule|arranged|arrange|obtained|obtain|requested|request|agreed|agrees|accepted|today|will be done|to be done)\b)/;
const DATED_LEAD = /^(?:[a-z ]{2,30}:\s*)?(?:(?:dated|from|on|of)\s+)?\d{1,2}\s*\/\s*\d{1,2}\s*\/\s*\d{2,4}\b/;
// Said by someone labelled "Patient": an order only the doctor gives, where a recogniser put the wrong label on a turn.
const DOCTOR_ORDERS = /\b(?:i'm|i am|we're|we are) (?:also |just )?(?:gonna|going to) (?:go ahead and )?(?:order|send|schedule|get you|check)\b|\b(?:i'll|i will|we'll|we will) (?:go ahead and )?(?:order|send off|schedule)\b/;
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
      // "right now", "right away": not a side.
      if (w === 'right' && /^(?:now|away|here|there|then|so)$/.test(t[i + 1]?.text ?? '')) break;
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
    // "tests to rule out if there is any specific cause", "to see if": "if" as "whether" sets no condition.
    if (w === 'if' && WHETHER_BEFORE.test(t[i - 1]?.text ?? '')) continue;
    // The if-clause ends at its comma or at the main clause's verb; the test must open the main clause.
    const between = t.slice(i + 1, at).map((x) => x.text);
    // The main clause starts at the if-clause's comma or at its own words ("we will", "then"); the test must be
    // what it does ("if it persists we will do an MRI"), not a new order after it ("if ... we may add amlodipine.
    // BMP in 2 weeks").
    // "if it gets worse it will need an mri", and a note's run-on "if symptoms persist … develop will obtain mri"
    // without the comma or the subject: "will" after the if-clause's own words opens the main clause.
    const opens = between.findIndex((x, k) => x === ',' || OPENER.test(x) || (x === 'will' && k > 1 && between[k + 1] !== 'be'));
    if (opens < 0) return at - i <= 4;
    if (between.slice(opens + 1).every((x) => NEG_FILLER.has(x) || MAIN_CLAUSE.test(x))) return true;
    // Not what the if-clause's main clause does, but it may still weigh it: "…, we might think about an MRI".
    break;
  }
  return cueBefore(t, at, floor, COND, NEG_FILLER, 2);
}

function clauseStart(t: Token[], at: number, floor: number): number {
  for (let i = at - 1; i >= floor; i--) if (/^[,;?]$/.test(t[i]!.text)) return i + 1;
  return floor;
}

type Status = 'order' | 'negated' | 'conditional' | 'past' | 'result' | 'reviewed' | 'monitor' | 'reading';

function statusBefore(s: Sentence, f: Found, floor: number): Status {
  const t = s.tokens;
  const start = clauseStart(t, f.from, floor);
  if (cueBefore(t, f.from, Math.max(floor, f.from - 6), NEG, NEG_FILLER, 1) || INSTEAD.test(words(t, f.from - 4, f.from)) || NO_NEED.test(words(t, f.from - 9, f.from))) return 'negated';
  const lead = t.slice(Math.max(start, f.from - 8), f.from).map((x) => x.text);
  const down = lead.findLastIndex((w) => TURNED_DOWN.has(w));
  if (down >= 0 && !lead.slice(down).some((w) => TAKEN_UP.has(w))) return 'negated';
  if (cueBefore(t, f.from, start, FINDING, PAST_FILLER, 1)) return 'result';
  if (REFERENCE.test(words(t, f.from - 4, f.from)) || ASKED_BEFORE.test(words(t, f.from - 6, f.from)) || DONE_ELSEWHERE.test(words(t, f.from - 6, f.from))) return 'past';
  // "I also checked a lot of other pituitary hormones, iron levels …": what the doctor already checked, said as done.
  if (CHECKED_BEFORE.test(words(t, f.from - 14, f.from)) && !THIS_VISIT.test(words(t, f.from - 14, f.to + 6))) return 'past';
  if (WANTED_ELSEWHERE.test(words(t, f.from - 7, f.from))) return 'conditional';
  if (LIKENED.test(words(t, f.from - 6, f.from)) || EXAMINED_WITH.test(words(t, f.from - 4, f.from))) return 'negated';
  if (MONITOR_BEFORE.test(words(t, Math.max(start, f.from - 5), f.from))) return 'monitor';
  if (reviewedBefore(t, f.from)) return 'reviewed';
  if (conditional(s, f.from, start)) return 'conditional';
  if (REFER.test(words(t, Math.max(start, f.from - 8), f.from)) && !REFERRED_FOR_TEST.test(words(t, f.from - 6, f.from))) return 'negated';
  if (cueBefore(t, f.from, start, MONITOR, NEG_FILLER, 2)) return 'monitor';
  if (cueBefore(t, f.from, start, PAST, PAST_FILLER, 2)) return 'past';
  return 'order';
}

// Turned down, said after the test: "a colonoscopy, which he has refused", "I offered her a chest x-ray but she
// declined" (not "… and she declined the injection": something else turned down).
const CORRECTED_TO = /\b(?:nope|no,? sorry|sorry,? no|i mean|i meant|scratch that|(?:let's |let us )?(?:upgrade|change|switch) (?:that |it |this )?to|(?:let's |let us )?make (?:that|it))\b/;
// Words between a test and the one it is corrected to.
const CORRECTED_WITHIN = 16;
const REFUSED_AFTER =
  /^,?\s*(?:which|that|but|and)\s+(?:he|she|they|you|the patient|patient)\s+(?:has\s+|had\s+|have\s+)?(?:always\s+|repeatedly\s+)?(?:refused|declined|(?:did not|didn't|does not|doesn't|do not|don't) want)\b(?!\s+(?:the|a|an|his|her|their|your|any)\b)/;
// "an x-ray won't show a soft tissue injury, so we won't do one": the test named, then not done; "I'd thought about a
// stress test, but I don't think you need one".
const NOT_DONE_AFTER = /^[^;?]{0,60}?\b(?:(?:so|and|therefore)\s+(?:we|i)\s*(?:won't|will not|wouldn't|would not|don't|do not|aren't going to|are not going to|'re not going to|am not going to|'m not going to)\s+(?:need to\s+)?(?:do|get|order|arrange|send (?:you )?for)|but\s+(?:i|we)\s+(?:don't|dont|do not)\s+(?:think|feel|believe)\s+(?:(?:that\s+)?(?:you|he|she|they)\s+(?:really\s+)?(?:need|needs)|(?:we|i)\s+(?:really\s+)?need\s+to\s+(?:do|get|order))(?:\s+to\s+(?:have|get|do))?)\s+(?:one|1|it|that|them|any)\b(?!\s+(?:of|for|on|at|in|else)\b)/;

function statusAfter(s: Sentence, f: Found, nextFrom: number): Status {
  const t = s.tokens;
  if (REFUSED_AFTER.test(words(t, f.to, f.to + 8)) || NOT_DONE_AFTER.test(words(t, f.to, f.to + 20))) return 'negated';
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
  if (REVIEWED_AFTER.test(after)) return 'reviewed';
  if (DISCUSSED_AFTER.test(words(t, at, Math.min(t.length, at + 16)))) return 'conditional';
  if (MONITOR_AFTER.test(after) && SELF_MONITORED.test(f.term.test.name)) return 'monitor';
  if (RESULT_AFTER.test(after)) return 'result';
  return 'order';
}

/** The doctor goes over results before the test, and orders nothing between: "I reviewed your x-ray and the MRI". */
function reviewedBefore(t: Token[], at: number): boolean {
  const before = words(t, at - 25, at);
  let last: RegExpExecArray | undefined;
  for (const m of before.matchAll(REVIEWED)) last = m as RegExpExecArray;
  return !!last && !ORDERING.test(before.slice(last.index + last[0].length));
}

// Said of a reviewed result that was done at this visit: "the EKG we did in the office", "I reviewed your EKG today".
const REVIEWED_TODAY = /\b(?:today|right now|in the office|in (?:the )?clinic|(?:we|i) (?:just )?did|done here|when (?:you|he|she|they) (?:came|got|arrived) in|on arrival)\b/;

/** A question asked: it ends in "?" and its last clause opens like one ("have you had an x-ray?", not "…and do an ECG?"). */
function isQuestion(s: Sentence): boolean {
  if (!s.text.trimEnd().endsWith('?')) return false;
  const clauses = s.text.replace(/\?+\s*$/, '').split(/[,;:]/).map((c) => c.trim()).filter(Boolean);
  return ASKS.test(clauses[clauses.length - 1] ?? '');
}

/**
 * A dictated report's findings without a heading (between its history and its assessment, as buildDoc reads them;
 * a recogniser writes no headings). A bedside result said there in the present ("stool is guaiac negative", "strep
 * test is negative") was found at this visit; values and past results ("CMP and CBC were unremarkable", "TSH 11.5")
 * are the reports the patient brought.
 */
function inFindings(doc: Doc, s: Sentence): boolean {
  return !doc.consultation && s.index >= doc.findingsStart && s.index < doc.planStart;
}
const BEDSIDE_RESULT = /^(?:(?:is|are)\s+)?(?:\w+\s+)?(?:negative|positive)\b/;

/**
 * A result said without a word of when, where a report puts what was done at this visit: under its results or
 * examination heading ("LABORATORY: strep test is negative"), after a kind said as a label that a recogniser left
 * unpunctuated ("lab tests hgb 17.1"), or as a bedside result in its unheaded findings.
 */
function resultOfThisVisit(doc: Doc, s: Sentence, section: SectionKind | null, found: Found[], i: number): boolean {
  const f = found[i]!;
  if (section) return DONE_SECTIONS.has(section);
  const labelled = i > 0 && found[i - 1]!.term.test.generic && found[i - 1]!.to === f.from;
  return labelled || (inFindings(doc, s) && BEDSIDE_RESULT.test(words(s.tokens, f.to, f.to + 4)));
}

/** A result without a word of when: done here today when the sentence says so, else an earlier report. */
function resultIsToday(s: Sentence, f: Found): boolean {
  return THIS_VISIT.test(words(s.tokens, f.from - 10, f.to + 10)) && !PAST_SENTENCE.test(words(s.tokens, f.from - 12, f.from));
}

function isReading(s: Sentence, f: Found): boolean {
  if (VITAL_MEASURE.test(f.term.test.name)) return /\d/.test(words(s.tokens, f.to, f.to + 4));
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
  // A name shown as said may hold its site already ("Water's view x-ray of the sinuses").
  const site = f.site.filter((w) => !` ${term.name.toLowerCase()} `.includes(` ${w} `));
  const name = [...f.qualifier, term.name, ...site].join(' ');
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
  const out: (Investigation & { test: Test; site: string; rules: string[] })[] = [];
  // Tests said to be from before this visit: a later mention in a report's results section is that one.
  const before = new Set<Test>();
  // The section whose results a date said before them places before this visit.
  let datedIn: SectionKind | null | undefined;
  for (const s of doc.sentences) {
    // In a dictation a "Patient:" line is a heading, not the patient speaking.
    if ((s.speaker === 'patient' && doc.consultation && !DOCTOR_ORDERS.test(s.text)) || isQuestion(s)) continue;
    const section = s.section ?? null;
    // "LABORATORY DATA: Dated 07/05/06, hematocrit is 30.2 …": a date said before the results places them before the visit.
    if (section && DONE_SECTIONS.has(section) && DATED_LEAD.test(s.text)) datedIn = section;
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
      // A test named by its kind speaks for itself only, when nothing joins it to the name before ("stool routine
      // examination blood tests are not needed").
      const along = (k: number): boolean => linked[k]! && !(f.term.test.generic && found[k - 1]!.to === found[k]!.from);
      if (/^(?:are|were)\b/.test(words(s.tokens, f.to, f.to + 1))) while (first > 0 && along(first)) first--;
      for (let k = first; k <= i; k++) status[k] = after;
    }
    // "order something called a CT … nope, you know what, let's upgrade to an MRI", "an x-ray, no sorry, an MRI": the
    // test the doctor corrects to another is not ordered.
    for (let i = 0; i + 1 < found.length; i++) {
      const between = found[i + 1]!.from - found[i]!.to;
      if (between <= CORRECTED_WITHIN && CORRECTED_TO.test(words(s.tokens, found[i]!.to, found[i + 1]!.from))) status[i] = 'negated';
    }
    for (let i = 0; i < found.length; i++) {
      const f = found[i]!;
      let st = status[i]!;
      const said = st;
      if (st === 'result' && resultIsToday(s, f)) st = 'order';
      if (st === 'reviewed' && REVIEWED_TODAY.test(words(s.tokens, f.from - 10, f.to + 10))) st = 'order';
      if ((st === 'result' || st === 'reviewed' || st === 'past') && DONE_HERE_AFTER.test(words(s.tokens, f.to, f.to + 6))) st = 'order';
      if ((f.term.test.takesSite || f.term.test.generic) && DATED_AFTER.test(words(s.tokens, f.to, f.to + 4))) {
        st = 'past';
        // "Labs dated 07-11-06: …", "Lab on 03/15/05: Cholesterol: 251. LDL: 166.": the results after it are that day's.
        if (f.term.test.generic) datedIn = section;
      }
      if (st === 'result' && datedIn !== undefined && datedIn === section) st = 'past';
      if (st === 'past') before.add(f.term.test);
      // A reviewed result is this visit's only where the words say so (REVIEWED_TODAY above), also under a results heading.
      if (st === 'result' && !before.has(f.term.test) && resultOfThisVisit(doc, s, section, found, i)) st = 'order';
      // A report's history tells what was done before the visit.
      if (st === 'order' && section && HISTORY_SECTIONS.has(section) && !REVIEWED_TODAY.test(words(s.tokens, f.from - 10, f.to + 10))) st = 'past';
      if (st === 'order' && isReading(s, f)) st = 'reading';
      if (st !== 'order') continue;
      const previous = linked[i] ? found[i - 1] : undefined;
      if (f.term.inListOnly && !inRealList(found, linked, i) && !cueBefore(s.tokens, f.from, 0, ORDER_VERB, ORDER_FILLER, 1)) continue;
      if (f.term.inListOnly && i > 0 && PURPOSE.test(words(s.tokens, found[i - 1]!.to, f.from))) continue;
      // "blood work that includes …", or a kind said as a label before the tests themselves ("lab tests hgb 17.1").
      if (f.term.test.generic && (SPECIFIED_AFTER.test(words(s.tokens, f.to, f.to + 6)) || found[i + 1]?.from === f.to)) continue;
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
      // Provenance: ordered as said, along a list, or a result read as done at this visit.
      const rules = [said !== 'order' ? 'inv.done-this-visit' : linked[i] ? 'inv.list-shares-status' : 'inv.ordered'];
      out.push({ name, ...(loinc ? { loinc } : {}), evidence: s.span(s.tokens[f.from]!.start, s.tokens[f.to - 1]!.end), test, site, rules });
    }
  }
  return out.map(({ name, loinc, evidence, rules }) => ({ name, ...(loinc ? { loinc } : {}), ...(evidence ? { evidence } : {}), rules }));
}
