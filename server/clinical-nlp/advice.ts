/**
 * Advice: the instructions the patient is given in the plan, each a complete instruction, at most MAX_ITEMS.
 *
 * An instruction starts at a cue (vocab/advice-cues.json): after a lead-in that is dropped ("I want you to [go to the
 * hospital]", "she is to [drink extra fluids]"), at an imperative ("push fluids and rest"), at a recommended gerund
 * ("keeping a headache diary would be important" → "keep a headache diary") or a referral ("I'll refer you to
 * cardiology" → "referral to cardiology"). It runs to its clause's end, or in a recogniser's run-on turn to the first
 * word that starts another clause ("okay", "because", "I'll …"), and keeps the condition said before it ("if it is not
 * better in a week, come back"). A short plan item without a verb ("cold packs to the area", "soft diet") is advice
 * too, where the note lists its plan, and each thing said to help is one ("gargles and cold drinks will help"). One
 * instruction said twice with two conditions is one item with both. Nothing is advice that another fact was read
 * from (a prescription, a test, a diagnosis, a vital, the follow-up; but a diet may name a nutrient, one's own checks
 * a test, and a return said with its condition is advice though a follow-up was read there), the doctor's own
 * intention ("we may start …"), an explanation, the patient's words, a question, small talk or an examination
 * command ("take a deep breath").
 */
import { Type } from 'typebox';
import CUES_FILE from './vocab/advice-cues.json' with { type: 'json' };
import { checkedData, Provenance } from './vocab/data-file.js';
import type { Span } from './facts.js';
import { opensOnFinding } from './complaints.js';
import { exactIcdReach, exactIcdSpan } from './codify.js';
import { alternation, tokenize, withoutRepeats } from './lexicon.js';
import { DIAGNOSIS_CUE, headingOf, TELLS_CONDITION, type Doc, type Sentence } from './sections.js';

const Phrases = Type.Object({ about: Type.String(), phrases: Type.Array(Type.String({ minLength: 1 })) });
const Patterns = Type.Object({ about: Type.String(), patterns: Type.Array(Type.String({ minLength: 1 })) });
const CuesSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  leadIns: Patterns,
  imperatives: Phrases,
  gerunds: Phrases,
  advisableAfter: Patterns,
  notInstructions: Patterns,
  notPlanItems: Patterns,
  clauseEnds: Phrases,
  fillers: Phrases,
  keptInConditions: Phrases,
  planOnsets: Patterns,
  referrals: Patterns,
  urgentPlaces: Phrases,
  careNouns: Phrases,
  devices: Phrases,
  negativeLeadIns: Patterns,
  softPrefixes: Patterns,
  careOrders: Patterns,
  counselling: Patterns,
  thirdParties: Phrases,
  oneWord: Phrases,
});
export const ADVICE_CUES = checkedData('advice-cues.json', CuesSchema, CUES_FILE);

/** More would be the transcript again: a doctor gives a few instructions, and the note lists the firmest. */
export const MAX_ITEMS = 6;
/** An instruction longer than this in a run-on turn has lost its end: it is not kept. */
const MAX_WORDS = 22;
const ONE_WORD = new Set(ADVICE_CUES.oneWord.phrases);
/** A plan item without a verb is a short phrase ("soft diet"); one naming care may say how much ("less than 2 g of salt a day"). */
const MAX_VERBLESS = 8;
const MAX_VERBLESS_CARE = 14;

const patterns = (list: string[]): string => list.map((p) => `(?:${p})`).join('|');

// "I don't necessarily recommend …", "we would not advise …": a cue said negated prescribes nothing to do.
const NOT_SAID = String.raw`(?<!\b(?:don't|do not|didn't|did not|wouldn't|would not|not|never)\s(?:(?:necessarily|really|usually|always|generally)\s)?)`;
// Not a lead-in when it is the doctor's own plan, a purpose, denied or in a relative clause: "let's try and flush it",
// "to make sure you tolerate it", "I don't think you need to start on any medication", "a job where you can elevate it",
// "a refill if you need to" (but "if you can drink plenty of water, that would help" is one).
const LEAD_IN = new RegExp(
  String.raw`(?<![a-z'])(?<!\b(?:let's|to|ta|na|gotta|gonna|wanna|we|i|they|can|could|will|we'll|i'll|would|do|did|does|should|shall|and then we|so we|where|which|who|whom|whose)\s)(?<!\b(?:if|when|unless)\s(?=you (?:really |also |just )?(?:need to|have to|must|should)\b))(?<!\b(?:don't|do not|didn't|did not) think\s)${NOT_SAID}(?:${patterns(ADVICE_CUES.leadIns.patterns)})(?![a-z'])\s*`,
);
const LEAD_IN_AT_END = new RegExp(`(?:${LEAD_IN.source})$`);
// Lead-ins said one after another: "what I want you to do is let's rest it", "I want you to try and …".
const CHAINED = new RegExp(String.raw`^(?:let's\s+|do is(?: to)?\s+|(?:${LEAD_IN.source}))`);
// What an instruction after a lead-in cannot start with: "I'd recommend [that in the first days] …" is no instruction;
// being seen or assessed is one ("I would like you to be seen in a clinic today"); what the patient will feel or notice
// ("you should feel calm enough to …") is a prediction.
const NOT_AN_ACTION = /^(?:the|a|an|in|on|at|for|that|this|it|some|any|to|of|with|by|from|after|before|during|until|even|what|which|so|and|or|but|if|you|i|we|he|she|they|my|your|his|her|there|here|first|second|is|are|be(?! (?:seen|assessed|examined|checked|reviewed|referred)\b)|as|because|well|think|know|understand|feel(?! free)|notice|expect|have (?:been|had|gotten|got|done|taken|seen))\b/;
const CARE_NOUN = new RegExp(String.raw`\b(?:${alternation([...ADVICE_CUES.careNouns.phrases, ...ADVICE_CUES.devices.phrases])})s?\b`);
// "we'll get you some crutches", "put you in a boot for two weeks": an order naming a thing to wear or use, and
// how long or what for, is written as using it.
const DEVICE_GIVEN = new RegExp(String.raw`^(?:(?:the|your|this|that|new|[a-z]+-[a-z]+)\s+)*(?:[a-z]+\s+){0,2}(?:${alternation(ADVICE_CUES.devices.phrases)})s?(?:$|\s+(?:for|to help|to stabili[sz]e|to support|at night|during|while|when|until)\b)`);
const ARTICLE_TAKEN = /\s(some|an?)\s*$/;
// "if your symptoms don't improve": a negative said after a condition's subject is the condition's verb, not an
// instruction.
const NEGATIVE_LEAD_IN = new RegExp(String.raw`(?<![a-z'])(?<!\b(?:if|when|unless|until|once)\s+(?:(?:the|your|my|his|her|their|this|that|these|those)\s+[a-z']+|it|they|you|he|she|we|i)\s+)(?:${patterns(ADVICE_CUES.negativeLeadIns.patterns)})(?![a-z'])\s*`);
// A cue is whole words: "recommend" is not the start of "recommended".
const cue = (list: { patterns: string[] }): RegExp => new RegExp(String.raw`(?<![a-z'])${NOT_SAID}(?:${patterns(list.patterns)})(?:(?<=\s)|(?![a-z']))\s*`);
// Counselling on results, risks or options is the doctor's account of the visit, not an instruction.
const NOT_A_TOPIC = /\b(?:risks?|benefits?|results?|options?|findings?|history|diagnosis|conditions?|problems?|labs?|x rays?|plan|treatment|medications?|this|that|it)\b/;
// Counselling is advice when its topic is care ("ways to improve her potty training", "avoiding triggers"), not a
// subject told about ("the side effects in detail", "her menarche", "vasomotor rhinitis").
const COUNSELLED_CARE = /\b(?:ways? to|how to|importance of|need to|[a-z]{3,}ing)\b/;
const LEAD_IN_BEFORE = /^\s*[,;:]\s*(?:then\s+)?(?:i|we|he|she|they|you|there|it|the patient)\s+[a-z']+/;
const COUNSELLED_BEFORE = /\b(?:reviewed|discussed|explained|counsell?ed)\s*$/;
/** Acts of the doctor that are advice, each written with its head word; `what` must hold for the words after it. */
const REFERRAL = 'referral ';
// "refer you to the emergency department": the patient is to go there now.
const URGENT_PLACE = new RegExp(String.raw`^to (?:the )?(?:${alternation(ADVICE_CUES.urgentPlaces.phrases)})(?![a-z])`);
const ACTS: { re: RegExp; head: string; what?: RegExp; named?: boolean }[] = [
  { re: cue(ADVICE_CUES.referrals), head: REFERRAL },
  { re: cue(ADVICE_CUES.careOrders), head: '', what: CARE_NOUN, named: true },
  { re: cue(ADVICE_CUES.counselling), head: '', what: new RegExp(String.raw`^(?!.*${NOT_A_TOPIC.source})(?=.*(?:${CARE_NOUN.source}|${COUNSELLED_CARE.source}))`) },
];
const THIRD_PARTY = new RegExp(String.raw`^(?:(?:the|her|his|your|their)\s+)?(?:${alternation(ADVICE_CUES.thirdParties.phrases)})\b`);
// Words that open a clause without being the instruction: "so", "and then", "okay".
const OPENERS = String.raw`(?:(?:plan|advice|advised|recommendations?|instructions?|so|and|also|then|okay|ok|alright|all right|now|just|well|um|uh|but|or|right|yeah|first|firstly|secondly|finally|at this point|for now|right now|in the meantime|meanwhile|definitely|certainly|really|please|probably)\s*,?\s+)*`;
// "let's cut milk down": the doctor speaking for both, an imperative all the same.
const OPENING = new RegExp(`^${OPENERS}`);
const IMPERATIVE = new RegExp(String.raw`^${OPENERS}(?:let's\s+)?(?=(?:${alternation(ADVICE_CUES.imperatives.phrases)})(?![a-z']))`);
const GERUNDS = alternation(ADVICE_CUES.gerunds.phrases);
const LEADING_GERUND = new RegExp(String.raw`^${OPENERS}(${GERUNDS})(?![a-z'])`);
const GERUND_AT_START = new RegExp(String.raw`^(${GERUNDS})(?![a-z'])`);
// "consider taking out your tonsils could help", "thinking about using …": a gerund after a preposition or "consider"
// is a possibility talked about, not a recommendation.
const GERUND = new RegExp(String.raw`(?<![a-z'])(?<!\b(?:consider|considering|considered|about|of|for|by|from|without|maybe)\s)(${GERUNDS})\s+(.{2,60}?)\s+(?:${patterns(ADVICE_CUES.advisableAfter.patterns)})(?![a-z])`);
// Care said as what will help: "warm salt water gargles will help", "cranberry juice can sometimes help".
const HELPS = new RegExp(String.raw`^${OPENERS}(.{3,60}?)\s+(?:${patterns(ADVICE_CUES.advisableAfter.patterns)})(?![a-z])`);
const SOFT_PREFIX = new RegExp(String.raw`^(?:(?:${patterns(ADVICE_CUES.softPrefixes.patterns)})\s+)+(?=[a-z])`);
const SOONER = /^(?:or |and )?(?=(?:earlier|sooner) (?:if|in case)\b)/;
const NOT_INSTRUCTION = new RegExp(patterns(ADVICE_CUES.notInstructions.patterns));
const NOT_PLAN_ITEM = new RegExp(patterns(ADVICE_CUES.notPlanItems.patterns));
// "I" starts a clause, but not as a letter of a spelled abbreviation ("i v fluids").
const CLAUSE_END = new RegExp(String.raw`\s*[,;:]?\s+(?:(?:${alternation(ADVICE_CUES.clauseEnds.phrases)})(?![a-z'])|i(?=\s+[a-z']{2,}))|\s*[;:]`, 'g');
// "if you feel like harming yourself", "foods like rice": "like" there is no filler.
const LIKE_MEANT = String.raw`(?<!\b(?:feel|feels|felt|feeling|things|something|anything|stuff|foods?|drinks?)\s+like)`;
const fillerOf = (phrases: string[]): RegExp => new RegExp(String.raw`(?<![a-z'])(?:${alternation(phrases)})(?![a-z'])${LIKE_MEANT}\s*,?\s*`, 'g');
const FILLER = fillerOf(ADVICE_CUES.fillers.phrases);
const KEPT_IN_CONDITIONS = new Set(ADVICE_CUES.keptInConditions.phrases);
const CONDITION_FILLER = fillerOf(ADVICE_CUES.fillers.phrases.filter((p) => !KEPT_IN_CONDITIONS.has(p)));
const CONDITION_START = /\b(?:if|when|unless|until|once)\b/;
const KEPT_IN_CONDITION_WORDS = new RegExp(String.raw`(?<![a-z'])(?:${alternation(ADVICE_CUES.keptInConditions.phrases)})(?![a-z'])`, 'g');
const PLAN_ONSET = new RegExp(patterns(ADVICE_CUES.planOnsets.patterns));

// A gerund's imperative: "keeping" → "keep", "taking" → "take", "using" → "use".
const IMPERATIVE_WORDS = new Set(ADVICE_CUES.imperatives.phrases.filter((p) => !p.includes(' ')));
function imperativeOf(gerund: string): string {
  const stem = gerund.replace(/ing$/, '');
  if (IMPERATIVE_WORDS.has(stem)) return stem;
  if (IMPERATIVE_WORDS.has(`${stem}e`)) return `${stem}e`;
  if (/(.)\1$/.test(stem)) return stem.slice(0, -1);
  // One short vowel before one consonant lost an "e": "taking" → "take", "using" → "use" ("eating" keeps "eat").
  return /^[^aeiou]*[aeiou][^aeiouwxy]$/.test(stem) ? `${stem}e` : stem;
}

const VITAL_CLAUSE = /\b(?:bp|blood pressure|pulse|heart rate|temperature|temp|spo2|oxygen saturation|saturation|respiratory rate|weight|height|sugar|glucose)\b[^,]*\d/;
// A return said with its condition ("come back if not better", "call sooner if …", "return to the ER for any chest
// pain") is advice; the follow-up is not.
const NOT_ADVICE =
  /\b(?:diagnosis|impression|assessment|this is|review|follow[ -]?up(?! with)|recheck|see me|show me|investigations?|imaging|tests? (?:needed|required)|reports?)\b(?!.*\b(?:if|sooner|earlier|immediately|straight away|anytime|any time)\b)|\b(?:come back|return)\b(?!.*\b(?:if|sooner|earlier|immediately|straight away|anytime|any time|in case|for any)\b)|^(?:plan|advice|advised|rx|number \d+)\s*:?\s*$|^number \d+\b/;
// Why, not what to do: "since she is allergic to penicillin", "it can make you drowsy", "hypertension is controlled".
const EXPLANATION =
  /^(?:since|because|as|which|who|so that|that's|that is|it's|it is|it can|it will|it may|it takes|this is|this can|there is|there's|no change|for the short term|for the|no (?:sign|signs|evidence|need)|no antibiotics?|okay|ok|thank you|thanks|\d+ to \d+ times)\b|\b(?:is|are) not (?:needed|required|indicated)\b|\b(?:no|do not|don't) need\b|^for [a-z]+(?: [a-z]+)?$|\b(?:should|will)$|^(?:[a-z]+\s+){0,3}(?:is|are)\s+(?:controlled|stable|normal|fine|better|worse|expected)\b/;
const CONTRACTIONS: [RegExp, string][] = [
  [/\bdon't\b/g, 'do not'], [/\bdoesn't\b/g, 'does not'], [/\bcan't\b/g, 'cannot'], [/\bwon't\b/g, 'will not'],
  [/\bshouldn't\b/g, 'should not'], [/\bisn't\b/g, 'is not'], [/\byou're\b/g, 'you are'], [/\bthey're\b/g, 'they are'], [/\bhasn't\b/g, 'has not'],
  [/\bhaven't\b/g, 'have not'], [/\baren't\b/g, 'are not'], [/\bit's\b/g, 'it is'], [/\bdidn't\b/g, 'did not'],
  [/\bwanna\b/g, 'want to'], [/\bgonna\b/g, 'going to'],
];
const DOCTOR_INTENT = /^(?:if\b.*\b(?:we|i)\s+(?:will|may|might|can|could)\b|(?:we|i)\s*(?:will|'ll|may|might|can|could|am going to|'m going to|'m gonna|am gonna|wanna|want to|would like to|'d like to|did|have|had|'ve)\b|we'll\b|i'll\b|let's\b|let me\b(?! know (?:if|when|once|straight away|right away|immediately|as soon as)\b))/;
const NUTRIENTS = 'sodium|potassium|salt|sugar|glucose|calcium|iron|protein|fat|cholesterol|fibre|fiber|caffeine';
// "less than 1,000 milligrams of sodium a day": an amount of a nutrient is a diet's, not a dose.
const NUTRIENT_AMOUNT = new RegExp(String.raw`\b\d[\d,.]*\s*(?:mg|milligrams?|g|grams?)\s+(?:of\s+)?(?:${NUTRIENTS})\b`);
// "under 14 units a week", "units of alcohol": an amount of alcohol is a limit on drinking, not a dose.
const ALCOHOL_UNITS = /\b\d+\s*units?\s+(?:of\s+alcohol\s+)?(?:a|per|each|every)\s+week\b|\bunits?\s+of\s+alcohol\b|\balcohol\b[^.;]{0,30}\b\d+\s*units?\b/;
const DRUG_AMOUNT = /\b\d+(?:\.\d+)?\s*(?:mg|milligrams?|mcg|micrograms?|ml|units?|iu|tablets?|capsules?|puffs?|doses?|packets?|sachets?|capfuls?|scoops?)\b|\brepeat (?:it|the dose)\b|\b(?:tab|tabs|tablet|cap|capsule|syrup|syp|inj|injection)\s+[a-z]/;
// Where a clause is only the rest of the one before: "or drooling", "trouble breathing" after "for stridor at rest".
const FRAGMENT = /^(?:or|nor)\b/;
// The rest of a list from one of its items: short items parted by commas, the last after "or" or "and".
const LIST_TAIL = /^(?:[^,;:.]{1,25},\s*)*(?:or|and)\s+([^,;:.]{1,25})$/;
const LIST_LAST = /^\s*,\s*(?:or|and)\s+$/;
// In a consultation a plan item without a verb names no one: "he", "her" there are the talk about someone.
const THIRD_PERSON = /\b(?:he|she|him|her|they|them)\b/;
// A report's statement about the patient, or an assessment read on past its heading: "he denies any blood thinners".
const REPORTED = /\b(?:he|she|they|patient)\s+(?!should\b|to\b|also\b)[a-z]+s\b|^(?:assessment|impression|diagnosis)\b|^plan (?!for\b|to\b)/;
// A plan item without a verb says no one's words and states nothing: "cold packs to the area", not "she was cautioned".
const STATEMENT =
  /\b(?:i|we|me|my|us|our|you|it|this|that|there|these|those|is|are|was|were|be|been|has|have|had|will|would|can|could|may|might|did|does|gonna|going|okay|yeah|yes|um|uh|know|think|thank|thanks|if)\b|\(\s*\d|\d{3}\.\d/;
// Words a complete instruction does not end on ("call me" ends on its object; "otherwise" opens what follows).
const DANGLING = /\s+(?:and|or|to|not|the|a|an|of|for|with|if|that|so|your|my|his|her|their|in|on|at|you|we|i|is|be|like|some|any|then|but|as|about|from|by|when|until|into|(?<!\b(?:call|ring|phone|contact|email|text|tell|for)\s+)me|it|once|(?<!\b(?:straight|right|soon|immediately|shortly)\s)after|before|while|because|since|where|do|may|might|will|should|would|they|he|she|there|just|make sure|to see|wan na|gon na|want to|need to|over|doing|otherwise)$/;
// "ring" and "phone" are verbs where whom or what to ring follows ("ring the surgery", "phone 111"), not "a wedding ring".
const CARE_IMPERATIVE = String.raw`drink|avoid|keep|use|wear|stop|empty|cut|take|try|walk|learn|stay|do|don't|come|go|sip|eat|get|wash|apply|continue|sleep|raise|finish|limit|reduce|call|(?:ring|phone)(?=\s+(?:us|me|the|111|999|911|back|an?|for|your))|return|check|bring|elevate|urinate|rest|gargle|watch|see|review|recheck|hold|push`;
const STARTS_WITH_VERB = new RegExp(String.raw`^(?:${CARE_IMPERATIVE}|no)\b`);
// "drink plenty of water and urinate after intercourse": two instructions joined by "and".
// Without punctuation (a recogniser's text) each instruction starts at its verb or at "no …":
// "stop the pill use condoms instead keep walking elevate the leg", "walk at every stop no driving when drowsy".
// A determiner, possessive or adjective makes the next word a noun: "after each use", "at every rest stop", "your
// walk", "a sugary drink"; an adverb said before a verb ("we can really get …", "we usually do not …") and a recogniser's "gon na" / "wan na" keep the verb theirs;
// so do a subject ("things get stuck and they don't go down", "we also don't like strokes"), "help" ("that will help reduce the swelling") and
// "make" ("alcohol makes sleep worse") and "get" ("if you can't get hold of that"): the verb says what happens or what a
// treatment does, not what to do.
// "breathless at rest": a verb after "at" is a noun, unless the patient is to stay there ("remain at | rest").
const STAYS_BEFORE_VERB = String.raw`to|not|and|or|please|you|i|we|will|should|must|can|can't|cannot|don't|do|also|then|if|only|just|would|could|the|a|an|of|for|with|before|after|when|while|keep|each|every|any|this|that|its|your|his|her|their|my|our|gonna|wanna|'ll|i'll|we'll|you'll|he'll|she'll|they'll|let's|me|us|him|them|didn't|did|doesn't|does|haven't|hasn't|isn't|aren't|wasn't|weren't|won't|wouldn't|couldn't|shouldn't|never|i've|you've|we've|was|were|been|why|how|where|what|regular|good|more|less|enough|fixed|adequate|proper|daily|plenty|bed|warm|cold|hot|gentle|light|normal|extra|healthy|strict|complete|total|voice|sugary|fizzy|sweetened|energy|sports|isotonic|brisk|na|really|usually|normally|generally|typically|probably|definitely|certainly|actually|basically|still|already|frequent|kinda|sorta|ta|gotta|they|he|she|people|patients|someone|somebody|things|help|helps|helping|make|makes|made|making|get|gets|got|getting|child|baby|infant`;
// Counselling reported as done ends its clause: "kick counts reviewed preterm labour warning signs reviewed".
// A thousands separator is no clause's end: "less than 1,000 milligrams of sodium a day".
const SPLIT = new RegExp(
  String.raw`(?:\s*;|\s*,(?!(?<=\d,)\d{3}(?!\d))|(?<!\d)\s*:(?!\d))\s*(?:and\s+)?|(?<=\bas (?:much|often|long) as (?:possible|(?:you|she|he|they) can))\s+(?=(?:${CARE_IMPERATIVE})\b)|(?<=\b(?:reviewed|discussed|explained|counsell?ed)) (?!with\b|again\b|today\b)|(?<!\b(?:should|must|will|can|could|would|may|might|to|come|come back|go|try|we|i|you|they|he|she|it))\s+(?:and|also)\s+(?=(?:${CARE_IMPERATIVE})\b)` +
    // The verb after the whitespace is checked before the word behind it (a lookbehind tried at every position).
    // "if your symptoms don't improve": a verb right after a condition's subject is the condition's own ("when drowsy
    // return …" has none); one after "what we need to do is" is the doctor's plan.
    String.raw`|(?=\s+(?:${CARE_IMPERATIVE}|no\s))(?<!\b(?:if|when|unless|until|once)\s+(?:(?:the|your|my|his|her|their|this|that|these|those)\s+[a-z']+|it|they|you|he|she|we|i))(?<!\b(?:we|i)(?:'d| would)? (?:need|want|like|have) to do is)(?<!\bhave (?:my|the|our|a|an|your) [a-z]+)(?<!(?<!\b(?:remain|remains|stay|stays|be|kept|keep)\s)\bat)(?<=(?<![a-z0-9'])(?!(?:${STAYS_BEFORE_VERB})(?![a-z0-9']))[a-z0-9']+)\s+(?=(?:${CARE_IMPERATIVE}|no\s+(?:[a-z]+ing|alcohol|smoking|sweets|salt|tea|coffee|fluids|screens|spicy|oily|fried|painkillers))\b)`,
  'g',
);

// A condition that has its verb: a pronoun subject and the word after it, or a verb said after a noun subject.
const CONDITION_HAS_VERB = /\b(?:if|when|unless|until|once)\s+(?:(?:he|she|it|they|you|we|i|things)\s+\S+|(?:\S+\s+){1,2}(?:is|are|was|were|gets|got|becomes|stays|has|have|does|doesn't|don't|isn't|aren't|keeps|persists|continues|worsens|returns|comes)\b)/;

interface Clause {
  from: number;
  to: number;
  /** Items of a list were joined to it ("avoid lifting, driving, stairs, or intercourse"). */
  list?: boolean;
}

function clausesOf(s: Sentence): Clause[] {
  const out: Clause[] = [];
  const re = SPLIT;
  re.lastIndex = 0;
  let from = 0;
  let label = -1;
  for (let m = re.exec(s.text); ; m = re.exec(s.text)) {
    const to = m ? m.index : s.text.length;
    // A report's label before a colon is no clause of its own: a heading names where we are ("discharge plan:"), any
    // other label, or a heading that is one of a plan's own ("diet:"), what its value is about ("physical activity:
    // with assistance").
    const labelled = !!m && m[0].trim().startsWith(':') && to > from;
    const heading = labelled ? headingOf(s.text.slice(from, to)) : undefined;
    if (heading && !heading.inPlan) label = -1;
    else if (labelled && label < 0 && s.text.slice(from, to).split(' ').length <= 3) label = from;
    else if (to > from) {
      out.push({ from: label >= 0 ? label : from, to });
      label = -1;
    }
    if (!m) break;
    from = m.index + m[0].length;
  }
  // A fragment stays with its clause.
  const merged: Clause[] = [];
  for (const c of out) {
    const prev = merged[merged.length - 1];
    const text = s.text.slice(c.from, c.to);
    const prevText = prev ? s.text.slice(prev.from, prev.to) : '';
    // "iron rich food, jaggery and dates": a short pair without a verb belongs to the list before it.
    const pair = text.split(' ').length <= 4 && /\band\b/.test(text) && !STARTS_WITH_VERB.test(text);
    // "come back if the headaches | get worse": a verb after an open condition is the condition's, not an instruction.
    // "if he gets worse | bring him back": one that has its verb is whole.
    const conditionGoesOn = /\b(?:if|when|unless|until|once)\b(?:\s+\S+){1,3}$/.test(prevText) && !CONDITION_HAS_VERB.test(prevText) && text.split(' ').length <= 4 && prev !== undefined && !/\S/.test(s.text.slice(prev.to, c.from));
    // "avoid lifting, | driving, | stairs, or intercourse": short items without a verb that run to the list's "or"/"and"
    // are the list of the clause before.
    const tail = LIST_TAIL.exec(s.text.slice(c.from));
    const listGoesOn = prevText.split(' ').length >= 2 && text.split(' ').length <= 3 && !STARTS_WITH_VERB.test(text)
      && ((!!tail && !STARTS_WITH_VERB.test(tail[1]!)) || (!!prev?.list && LIST_LAST.test(s.text.slice(prev.to, c.from))));
    if (prev && (FRAGMENT.test(text) || pair || conditionGoesOn || listGoesOn || (text.split(' ').length <= 3 && /\b(?:for|like|such as|including)\b/.test(prevText)))) {
      prev.to = c.to;
      prev.list ||= listGoesOn;
    }
    else merged.push({ ...c });
  }
  return merged;
}

const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

// What a patient is told to do besides taking the drug, said on its prescription line: "keep a gap …", "gargle
// after each use", "rush to hospital if …". Not the verbs of taking or changing a drug (take, use, apply, continue).
const CARE_VERB = /^(?:do not |never )?(?:keep|avoid|drink|gargle|rinse|wash|rush|go|call|watch|wear|stay|elevate|sleep|eat|sip|limit|check|bring)\b/;

// A drug named as the context of an instruction ("hygiene while on empagliflozin", "a gap between thyronorm and
// calcium") leaves it advice; one the clause acts on ("stop the excedrin", "because of the amoxicillin allergy") does not.
const DRUG_AS_CONTEXT = /\b(?:while on|while taking|on|with|after|before|between|and any|from|of|if)\s+(?:the\s+|your\s+)?$/;
// Holding or not taking a drug that was not prescribed now is an instruction: "hold the norvasc for now".
const DRUG_WITHHELD = /^(?:hold(?: off)?(?: on)?|(?:do not|don't|never) (?:take|give|use|restart)|stop taking|avoid)\b/;

/** Where prescriptions were read: their whole lines, and within them the words each attribute came from. */
export interface Prescribed {
  lines: Span[];
  attributes: Span[];
}

/** One instruction found in a clause: where its words are in the sentence, how it is written, how firm its cue. */
interface Candidate {
  text: string;
  /** 3 a lead-in ("I want you to"), 2 an imperative or a referral, 1 a plan item without a verb. */
  strength: number;
  span: Span;
  order: number;
}

const CONDITION_OF_NEXT = /\s+(?:and|or|but)\s+(?=(?:if|when|unless)\s)(?!.*\s(?:and|or|but)\s+(?:if|when|unless)\s)/;

/** Where the instruction that starts at `from` ends: the clause's end or the next clause's first word. */
function endOf(text: string, from: number, to: number, minWords = 2): number {
  const re = CLAUSE_END;
  re.lastIndex = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    // The cue's own first words never end it ("so that" after "keep it dry" does, "okay" as the first word does not).
    // Nor does the patient's or the problem's subject of a condition: "come back if [it is] not better".
    const before = text.slice(from, m.index);
    if (before.trim().split(/\s+/).length >= minWords && !(/\b(?:if|unless)$/.test(before) && /^[\s,]*(?:it|that|this|they|you|she|he)\b/.test(m[0]))) return m.index;
  }
  // "drink plenty of water and if you get a fever or back pain call us right away": said without punctuation, a
  // condition at the clause's end is the next instruction's; so is one before a comma ("weigh yourself every morning
  // and if your weight goes up by more than two kilos, ring us").
  const next = CONDITION_OF_NEXT.exec(text.slice(from, to));
  return next && STARTS_WITH_VERB.test(text.slice(to).replace(/^[\s,]+/, '')) ? from + next.index : to;
}

/** A condition of an instruction: its words, and where they were said (in the sentence, or a span before it). */
interface Condition {
  text: string;
  from?: number;
  span?: Span;
}

// "… which got stretched when you fell": a "when" told in the past is what happened, not when to act ("once you have
// finished the course" is).
const TOLD_PAST = /\b(?<!\b(?:have|has|'ve|had|been|be|is|are|'re|am|'m|get|gets|feel|feels|look|looks)\s)(?:fell|was|were|came|got|did|went|saw|told|said|[a-z]{3,}ed)\b/;

/** A condition the words before an instruction say there is, but that could not be read: the instruction is not written. */
const UNSAID: Condition = { text: '' };

// "warning signs … were discussed, in which case [he should go to …]": the clause before is the condition, without the
// words that say it was talked about.
const IN_WHICH_CASE = /([^.;?:]*?)\s*,?\s*in (?:which|that) case,?\s*$/;
// Its lazy clause is tried from every character before the words: looked for only where the words end the text.
const ENDS_IN_WHICH_CASE = /in (?:which|that) case,?\s*$/;
const TALKED_ABOUT = /^(?:(?:we|i)\s+)?(?:discussed|reviewed|explained|went over|talked about)\s+|\s+(?:were|was|have been|has been|had been)\s+(?:discussed|reviewed|explained|given|gone over)$|\b(?:that|which)\s+(?:were|are|would be|could be|is)\s+/g;

// "it can cause ankle swelling, so let me know if that happens.": the condition of a report back said just before it.
const REPORT_BACK_BEFORE = /\b(?:let (?:me|us|the (?:surgery|practice|clinic)) know|tell (?:me|us)|(?:call|ring|phone|contact) (?:me|us|the (?:surgery|practice|clinic))|get in touch|come (?:back|and see (?:me|us))|see (?:me|us))\s*$/;

/** The condition said just before an instruction in the same sentence: "if it is not better in a week, [come back]". */
function conditionBefore(text: string, at: number): Condition | null {
  const from = Math.max(0, at - 200);
  const before = text.slice(from, at);
  const inCase = ENDS_IN_WHICH_CASE.test(before) ? IN_WHICH_CASE.exec(before) : null;
  if (inCase) {
    const words = inCase[1]!.replace(TALKED_ABOUT, ' ').replace(/\s+/g, ' ').trim();
    return ownCondition(words) ? { text: `if ${words}`, from: from + inCase.index + inCase[0].indexOf(inCase[1]!) } : UNSAID;
  }
  const m = /(?:^|[\s,])(if|unless|when|once)\s+((?:(?!\bif\b)[^.;?])*?)\s*,?\s*(?:then\s+)?$/.exec(before);
  if (!m || !ownCondition(m[2]!) || (m[1] !== 'if' && m[1] !== 'unless' && TOLD_PAST.test(m[2]!))) return null;
  if (REPORT_BACK_BEFORE.test(before.slice(0, m.index))) return null;
  // "take paracetamol if you have a temperature, and drink …": joined by ", and", the next instruction has none of its own.
  if (/,\s*and$/.test(m[2]!)) return null;
  // "if you can't get hold of that cefalexin would do instead": one with a main clause of its own ("would do") has had
  // what it is for.
  if (/\b(?:would|will|'ll|'d|could|should|might)\s+(?:do|be)\b|\binstead\b/.test(m[2]!)) return null;
  // Only what is left once a lead-in of the instruction's own is taken off: "if x i want you to" → "if x".
  return { text: `${m[1]} ${m[2]!.replace(LEAD_IN_AT_END, '').trim()}`, from: from + m.index + m[0].indexOf(m[1]!) };
}

// A safety net's condition may list what to come back for ("if …, or …, or …"); one that long without a list, or
// with another clause in it ("… after 1 or 2 pills i want you to go to the hospital call 911 and"), has run on.
const MAX_LISTED_CONDITION = 32;
const CLAUSE_INSIDE = new RegExp(CLAUSE_END.source);
const listed = (condition: string): boolean => /\bor\b/.test(condition) && !CLAUSE_INSIDE.test(condition);
// A condition is the patient's: "if we need to make any adjustments" is the doctor's own plan; a few words at most.
function ownCondition(words: string): boolean {
  const n = words.trim().split(/\s+/).length;
  return n >= 2 && (n <= MAX_WORDS || (n <= MAX_LISTED_CONDITION && listed(words))) && !/^(?:we|i)\b/.test(words) && !/\b(?:we|i)(?:'ll| will| may| might| can| could| would)\b/.test(words);
}

/** A condition cut off at a sentence's end before its instruction: "… if she is unimproved in 5 days | follow up …". */
const SETTLED_CONDITION = /\b(?:but|hadn't|had not)\b/;
const OWN_MAIN_CLAUSE = /\b(?:would|will|'ll|could|should|can|might)\b|\binstead\b/;

const DOCTOR_WILL = /\b(?:we|i)(?:'ll|'d| will| would| could| can| may| might| shall)\b/;

function conditionEnding(s: Sentence, next: string): Condition | null {
  const c = conditionBefore(s.text, s.text.length);
  if (!c || c.from === undefined) return null;
  // "I want you to come back if …" is that instruction's condition already.
  const before = s.text.slice(0, c.from);
  if (LEAD_IN.test(before) || NEGATIVE_LEAD_IN.test(before) || IMPERATIVE.test(before)) return null;
  // "tab X 5 mg when there is nausea": a dose's condition; "if A, go to B": the condition has had its instruction.
  if (DRUG_AMOUNT.test(before) || c.text.split(/\s*,\s*/).slice(1).some((part) => IMPERATIVE.test(part))) return null;
  // "I was going to suggest montelukast if things hadn't improved, but we don't need that now": a condition that did
  // not come about, or that the sentence answers, waits for nothing.
  // "If you can't get hold of that, cefalexin would do instead.": a condition that opens its sentence has its own main
  // clause after the comma.
  if (SETTLED_CONDITION.test(c.text) || c.text.split(/\s*,\s*/).slice(1).some((part) => OWN_MAIN_CLAUSE.test(part))) return null;
  // "We could think about reducing the propranolol in six months if things stay settled.": the doctor's own next step
  // is the condition's, unless the next instruction is a return or a call ("i will see you in two weeks if you have a
  // lot of pain | come back in"), which is what a condition that ends a sentence is most often said for.
  if (DOCTOR_WILL.test(before) && !SAFETY_NET_START.test(next)) return null;
  return { text: c.text, span: s.span(c.from, s.text.length) };
}

// "come back to see me if the pain, you know, still there": a condition that lost its verb at a clause's end says nothing,
// and its instruction is not written without it.
const CUT_CONDITION = /\s+(?:if|when|unless|until)\s+(?:the|your|this|that|his|her|my|their)\s+[a-z]+$/;

// "come back and see me": the return says it; "come back and see" would be what is left of it once "me" dangles.
// Read forward from the return: a lookbehind with ".*?" would rescan the line behind every space.
const SEE_THE_DOCTOR = /\b(come back|come in|return)\b(.*?)\s+(?:and|to)\s+see\s+(?:me|us)\b/;

// "check make sure are you having any chest pain": a question said after the words in a recogniser's run-on line.
const ASKED = /\s+(?:(?:are|do|did|does|were|was) you|(?:have|has) you (?:been|had|got|noticed|tried|ever|taken|seen))\b.*$/;

/** The words of an instruction as written: no fillers, no contractions, no dangling end. */
function written(words: string): string {
  const when = CONDITION_START.exec(words)?.index ?? words.length;
  let t = `${words.slice(0, when).replace(FILLER, ' ')} ${words.slice(when).replace(CONDITION_FILLER, ' ')}`.replace(ASKED, '').replace(/[^a-z0-9'.,&\s-]/g, ' ').replace(/\s+/g, ' ').trim();
  t = withoutRepeats(t).replace(SOFT_PREFIX, '');
  t = CONTRACTIONS.reduce((x, [re, to]) => x.replace(re, to), t);
  t = t.replace(SEE_THE_DOCTOR, '$1$2');
  t = t.replace(/^[,.\s]+|[,.\s]+$/g, '');
  // Without its condition the instruction would say something else ("call me" for "call me if the pain …").
  if (CUT_CONDITION.test(t)) return '';
  for (let guard = 0; guard < 4 && DANGLING.test(t); guard++) t = t.replace(DANGLING, '');
  return t;
}

/** Where a plan item without a verb is read: 'any' in a listed plan, 'care' (naming care) in a doctor's short line. */
type PlanItem = 'any' | 'care' | 'none';

// A plan item reported as done is a record, not an instruction: "samples provided", "mother signed consent".
const DONE = /\b(?!(?:need|bed|red|fed|seed|speed|feed|bleed|advanced|informed|reviewed|discussed|explained|counselled|counseled|taught|balanced|mixed|boiled|cooled|dried|frozen|fried|salted|sweetened|added|combined|recommended|supervised|marked|raised|elevated)\b)[a-z]{2,}ed\b|\b(?:done|given|written|seen|taken|made|sent|drawn|obtained|signed|shown|told)\b/;

interface Found {
  /** The words said, in the sentence: the instruction and a condition said before it in the same sentence. */
  from: number;
  to: number;
  /** A condition said in the sentence before. */
  also?: Span;
  text: string;
  strength: number;
}

/** The instructions in a clause of sentence text `t`: a run-on turn gives several ("wear it at night, I want you to …"). */
function instructionsIn(t: string, c: Clause, planItem: PlanItem, conditionSaid: Condition | null, subjectSaid: boolean): Found[] {
  const out: Found[] = [];
  for (let at = c.from, first = true; at < c.to; first = false) {
    const { found, next } = instructionIn(t, { from: at, to: c.to }, first ? planItem : 'none', first ? conditionSaid : null, first && subjectSaid);
    if (found) out.push(found);
    if (next <= at) break;
    at = next;
  }
  return out;
}

const TRAILING_CONDITION = /\s+(?:if|unless)\s+((?:(?!\b(?:if|unless)\b)[^,.;?])+)$/;
const SAFETY_NET_START = /^(?:come|call|return|ring|phone|contact|page|go|see|seek|bring|get in touch|feel free|let (?:me|us) know)\b/;
const TAKES_CONDITION_NEXT = new RegExp(String.raw`^\s+(?:(?:then|so)\s+)?(?:(?:we|i)(?:'ll|\s+will|\s+can|\s+may|\s+might|\s+would|'d|\s+shall)\b|let's\b|let us\b|(?:${CARE_IMPERATIVE}|see)\b)`);
const EARLIER_VISIT = /\b(?:last time|last visit|at your last (?:visit|appointment)|previously)\s+(?:\S+\s+){0,2}$/;

const OWN_SUBJECT_HESITATED = /\b(?:i|we|i'll|we'll|i will|we will|i'd|we'd|i would|we would|i'm going to|we're going to|i'm gonna|we're gonna)(?:\s*,?\s*(?:um+|uh+|er|erm|ah)\b)+\s*,?\s*$/;
const OWN_SUBJECT_WITHIN = 40;

/** The first instruction in a clause, if one reads as complete, and where to look for the next. */
function instructionIn(t: string, c: Clause, planItem: PlanItem, conditionSaid: Condition | null, subjectSaid: boolean): { found: Found | null; next: number } {
  const clause = t.slice(c.from, c.to);
  let start = -1;
  let strength = 0;
  let head = '';
  const negative = NEGATIVE_LEAD_IN.exec(clause);
  const positive = LEAD_IN.exec(clause);
  const lead = negative && (!positive || negative.index <= positive.index) ? negative : positive;
  const imperative = IMPERATIVE.exec(clause);
  const whole = (found: Found | null): { found: Found | null; next: number } => ({ found, next: c.to });
  // The doctor's own act that is advice: a referral, care ordered, counselling given; the earliest cue in the clause.
  const act = ACTS.map((a) => ({ ...a, m: a.re.exec(clause) }))
    // "I would recommend not skiing": said against, the recommendation is no care ordered.
    .filter((a) => a.m && (!lead || a.m.index < lead.index || (a.m.index === lead.index && lead !== negative)) && !(imperative && imperative[0].length <= a.m.index))
    .sort((a, b) => a.m!.index - b.m!.index)[0];
  if (act) {
    start = c.from + act.m!.index + act.m![0].length;
    // "last time we talked a little bit about …": what an earlier visit said.
    if (EARLIER_VISIT.test(t.slice(Math.max(0, c.from + act.m!.index - 40), c.from + act.m!.index))) return { found: null, next: start };
    // "I'm going to order a sling and you can wear this while you're awake": an instruction of its own ends the care.
    const own = LEAD_IN.exec(t.slice(start, c.to));
    // Its first word is the care's, not a cue's: "some crutches and hopefully you can …" ends after one.
    const end = endOf(t, start, own && own.index > 0 ? start + own.index : c.to, 1);
    const what = written(t.slice(start, end));
    // "I'll prescribe that, I'm also going to prescribe some physical therapy": the care is a thing named.
    if (act.named && NOT_AN_ACTION.test(what)) return { found: null, next: start };
    if (act.what && !act.what.test(what)) return { found: null, next: end };
    const head = act.head === REFERRAL && URGENT_PLACE.test(what) ? 'go ' : act.named && DEVICE_GIVEN.test(what) ? `use ${ARTICLE_TAKEN.exec(act.m![0])?.[1] ?? ''} `.replace(/\s+/g, ' ') : act.head;
    return { found: complete(t, start, end, `${head}${what}`, 2), next: Math.max(end, start + 1) };
  } else if (lead && !(imperative && imperative[0].length <= lead.index)) {
    start = c.from + lead.index + lead[0].length;
    for (let m = CHAINED.exec(t.slice(start, c.to)); m && m[0]; m = CHAINED.exec(t.slice(start, c.to))) start += m[0].length;
    if (NOT_AN_ACTION.test(t.slice(start, c.to))) return { found: null, next: start };
    strength = 3;
    // "Parents will call in two weeks": someone other than the patient is named with the instruction.
    const who = THIRD_PARTY.exec(lead[0]);
    if (lead === negative) head = 'do not ';
    else if (who) head = `${who[0]} to `;
  } else if (imperative || subjectSaid) {
    // "I'll, um, book another appointment": the clinician's own act, cut from its subject at a hesitation's comma.
    if (imperative && OWN_SUBJECT_HESITATED.test(t.slice(Math.max(0, c.from - OWN_SUBJECT_WITHIN), c.from))) return whole(null);
    start = c.from + (imperative?.[0].length ?? 0);
    strength = 2;
  } else if (SOONER.test(clause)) {
    // "review after 5 days, earlier if unable to swallow": the return said with its condition.
    start = c.from + SOONER.exec(clause)![0].length;
    strength = 2;
    head = 'come ';
  } else {
    // "keeping a diary would be important": the gerund recommended ends before what is said of it.
    const gerund = GERUND.exec(clause);
    const leadingGerund = gerund ? null : LEADING_GERUND.exec(clause);
    const helps = leadingGerund || gerund ? null : HELPS.exec(clause);
    if (leadingGerund) {
      start = c.from + leadingGerund[0].length - leadingGerund[1]!.length;
      strength = 2;
    } else if (gerund) {
      const to = c.from + gerund.index + gerund[1]!.length + 1 + gerund[2]!.length;
      return whole(complete(t, c.from + gerund.index, to, `${imperativeOf(gerund[1]!)} ${gerund[2]}`, 2));
    } else if (helps) {
      // "warm salt water gargles and cold drinks will help": each thing that helps is an item.
      const at = c.from + clause.indexOf(helps[1]!);
      const and = / and (?=\S+ \S)/.exec(helps[1]!);
      const first = and && and.index > 0 && helps[1]!.slice(0, and.index).includes(' ') ? helps[1]!.slice(0, and.index) : helps[1]!;
      const found = complete(t, at, at + first.length, first, 2, { verbless: true });
      return first === helps[1] ? whole(found) : { found, next: at + first.length + and![0].length };
    } else if (planItem !== 'none') {
      // "After-hours, he can go to …", "at present, we are going to add …": words before a clause with its own subject
      // are that clause's lead-in; "discussed | different options": a result, risk or option discussed is the doctor's
      // account of the visit.
      if (!CARE_NOUN.test(clause) && (LEAD_IN_BEFORE.test(t.slice(c.to)) || (COUNSELLED_BEFORE.test(t.slice(0, c.from)) && NOT_A_TOPIC.test(clause)))) return whole(null);
      const opener = OPENING.exec(clause)![0].length;
      return whole(complete(t, c.from + opener, c.to, clause.slice(opener), 1, { needsCare: planItem === 'care' }));
    }
  }
  if (start < 0) return { found: null, next: c.to };
  let end = endOf(t, start, c.to);
  // "drink plenty of fluids if you get a fever or back pain see a doctor the same day": said without a break, a
  // condition at an instruction's end is the next instruction's, or the doctor's next step's ("… if the cough is not
  // better in 6 weeks we'll get a chest x-ray").
  const trailing = TRAILING_CONDITION.exec(t.slice(start, end));
  // A return or a call keeps its own ("call us if it worsens …").
  if (trailing && ownCondition(trailing[1]!) && TAKES_CONDITION_NEXT.test(t.slice(end)) && !SAFETY_NET_START.test(t.slice(start))) end = start + trailing.index;
  const condition = strength > 1 && !/\bif\b/.test(t.slice(start, end)) ? (conditionBefore(t, c.from + (lead && strength === 3 ? lead.index : 0)) ?? conditionSaid) : null;
  // "I recommend increasing …": the gerund is written as the imperative; so is each one advised against ("I would
  // recommend not skiing or doing any gymnastics").
  const against = lead === negative && !!negative && / not\s*$/.test(negative[0]);
  const words = against
    ? t.slice(start, end).replace(/(^|\b(?:or|and|nor) (?:not )?)([a-z]{2,}ing)\b/g, (_m, before: string, g: string) => `${before}${imperativeOf(g)}`)
    : t.slice(start, end).replace(GERUND_AT_START, (g) => imperativeOf(g));
  // Without its condition the instruction would be told as always to be done.
  if (condition === UNSAID) return { found: null, next: Math.max(end, start + 1) };
  const found = complete(t, start, end, `${head}${words}`, strength, { condition: condition?.text, conditionInSentence: !!condition && condition !== conditionSaid });
  if (found && condition) {
    if (condition.from !== undefined) found.from = Math.min(found.from, condition.from);
    found.also = condition.span;
  }
  return { found, next: Math.max(end, start + 1) };
}

interface Reading {
  /** A plan item without a verb in talk: only one that names care ('steam inhalation') is advice. */
  needsCare?: boolean;
  /** Care without a verb, said as what will help. */
  verbless?: boolean;
  /** The condition said before the instruction, written after it. */
  condition?: string;
  /** Said in the instruction's own sentence: a safety net's list of what to come back for makes it longer. */
  conditionInSentence?: boolean;
}

const HABIT_CODE = /^(?:Z|F1)/;
const MAX_FINDING_ITEM = 4;
const FINDING_QUALIFIERS = /^(?:(?:the|a|an|his|her|their|severe|mild|moderate|chronic|acute|central|obstructive|mucosal|recurrent|possible|probable)\s+)+/;

/** True when the words are, all of them, a condition's name in the ICD-10 list. */
function namesCondition(words: string): boolean {
  const tokens = tokenize(words);
  return tokens.length > 0 && exactIcdReach(tokens, 0, tokens.length) === tokens.length && !!exactIcdSpan(tokens, 0, tokens.length);
}

/** True when the words open on a symptom, an examination sign or a condition's name. */
function namesFinding(words: string): boolean {
  if (opensOnFinding(words)) return true;
  const tokens = tokenize(words);
  // A habit named as a condition ("smoking" as tobacco use, "alcohol") is something to go without.
  for (let j = exactIcdReach(tokens, 0, tokens.length); j > 0; j--) if (!HABIT_CODE.test(exactIcdSpan(tokens, 0, j)?.code ?? 'Z')) return true;
  return false;
}

/** True when the words are a list of which two or more, and at least half, open on a symptom, sign or condition. */
function findingList(words: string): boolean {
  const parts = words.split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/).filter(Boolean);
  const findings = parts.filter((p) => namesFinding(p.replace(FINDING_QUALIFIERS, ''))).length;
  return parts.length >= 2 && findings >= 2 && findings * 2 >= parts.length;
}

const NEGATED = /^(?:no|not|negative for) /;
// Words before a finding that name where it is: "no ankle edema", "no breast tenderness"; not an activity and its
// condition ("no driving when drowsy").
const SITE_WORDS_BEFORE_FINDING = 2;
const NOT_A_SITE = /^(?:[a-z]+ing|when|if|while|after|before|until|unless|for|with|without|in|on|at|during|and|or|to|the|a|an|any|more|than)$/;

/** True when the words deny a finding, after up to SITE_WORDS_BEFORE_FINDING words of its site. */
function negatedFinding(said: string): boolean {
  const denied = NEGATED.exec(said);
  if (!denied) return false;
  const words = said.slice(denied[0].length).split(' ');
  for (let k = 0; k <= Math.min(SITE_WORDS_BEFORE_FINDING, words.length - 1); k++) {
    if (k > 0 && NOT_A_SITE.test(words[k - 1]!)) return false;
    if (namesFinding(words.slice(k).join(' '))) return true;
  }
  return false;
}

// "let me know if you have any questions", "… if you'd like me to put in a new order": talk, or the doctor's offer
// ("call me if you have any questions" is a report's safety net).
const NOT_A_SAFETY_NET = /^(?:if|when) (?:you )?(?:(?:have|had|get|got|need|there are|think of) )?(?:any )?(?:(?:other|more|further|additional) )?questions?\b|^if you(?:'d| would) (?:like|want)\b/;

// "reach out to me if he needs anything": an offer of help, not what to watch for.
const ANYTHING_NEEDED = /\bif (?:you|he|she|they) (?:need|needs|want|wants) anything\b/;

const BARE_CONJUNCTION = /^(?:if|when|unless|until|once|whenever)$/;

/** An instruction as written, if it reads as complete and is advice. */
function complete(t: string, from: number, to: number, words: string, strength: number, how: Reading = {}): Found | null {
  const { needsCare = false, verbless = false } = how;
  const said = written(words);
  // A condition whose words were all dangling ("if it's not" → "if") says nothing: the instruction stands alone.
  const condition = how.condition ? written(how.condition) : '';
  const text = condition && !BARE_CONJUNCTION.test(condition) ? `${said} ${condition}` : said;
  // Counted without the words a condition keeps ("again", "still"): how long an instruction may run is said of its content.
  const n = text.split(' ').length - (text.match(KEPT_IN_CONDITION_WORDS) ?? []).length;
  const alone = strength > 1 && ONE_WORD.has(said);
  // A listed condition said with it leaves room for a short instruction: "come back straight away if …, or …".
  const most = how.conditionInSentence && how.condition && listed(how.condition) ? MAX_LISTED_CONDITION + MAX_WORDS / 2 : MAX_WORDS;
  // An emergency number is the call's object ("call 999", "dial 911"), as a word would be.
  if (!alone && (n < 2 || n > most || (said.match(/[a-z]{2,}|\b(?:999|911|112|111)\b/g) ?? []).length < 2)) return null;
  // The instruction's words decide; a condition may name a dose ("if it does not go away after 2 tablets").
  // "call if the weight goes up by 2 kg": a reading in the condition is what to watch for, not a vital.
  if (NOT_INSTRUCTION.test(said) || VITAL_CLAUSE.test(said.replace(/\b(?:if|when|unless)\b.*$/, '')) || DOCTOR_INTENT.test(said) || EXPLANATION.test(said) || (DRUG_AMOUNT.test(said) && !NUTRIENT_AMOUNT.test(said) && !ALCOHOL_UNITS.test(said))) return null;
  if (NOT_ADVICE.test(text) || ANYTHING_NEEDED.test(text) || (how.condition && /\blet (?:me|us) know$/.test(said) && NOT_A_SAFETY_NET.test(how.condition))) return null;
  // "no abdominal pain", "no rebound", "no high blood pressure", "no calf tenderness", "not nauseated": a finding said
  // to be absent, nothing to go without.
  if (negatedFinding(said)) return null;
  // "be seen by them", "be seen if not": being seen is an instruction where it says by whom, where or how soon.
  if (TO_BE_SEEN.test(said) && !SEEN_WHERE.test(said)) return null;
  // "2. Severe central sleep apnea, on CPAP …", "3. Mucosal candidiasis.": a plan item that only names a condition is
  // the assessment's, not advice.
  if (strength === 1 && n <= MAX_FINDING_ITEM && !CARE_NOUN.test(said) && namesCondition(said.replace(FINDING_QUALIFIERS, ''))) return null;
  // "… has the risk of osteoporosis, gynecomastia, hot flashes and impotency": a list of conditions is no plan.
  if (strength === 1 && !CARE_NOUN.test(said) && findingList(said)) return null;
  if ((strength === 1 || verbless) && (n > (CARE_NOUN.test(said) ? MAX_VERBLESS_CARE : MAX_VERBLESS) || STATEMENT.test(t.slice(from, to)) || REPORTED.test(text) || DONE.test(text) || NOT_PLAN_ITEM.test(said) || (needsCare && (!CARE_NOUN.test(text) || THIRD_PERSON.test(text))))) return null;
  return { from, to, text, strength };
}

/**
 * Where a consultation's plan starts: the doctor's first words of assessment or plan after the history ("so for your
 * first problem", "what I'd recommend"), at a sentence and a character in it. A report's plan is its headed part.
 */
function planStart(doc: Doc): { sentence: number; at: number } {
  if (!doc.consultation) return { sentence: doc.planStart, at: 0 };
  const n = doc.sentences.length;
  // Words of assessment in the greeting or the history ("the nurse told me you have …") are not yet the plan.
  const early = Math.floor(n / 5);
  const onset = doc.sentences.find((s) => s.index >= early && s.speaker !== 'patient' && !s.text.endsWith('?') && PLAN_ONSET.test(s.text));
  const said = doc.planStart >= early && doc.planStart < n;
  if (onset && !(said && doc.planStart < onset.index)) return { sentence: onset.index, at: PLAN_ONSET.exec(onset.text)!.index };
  return said ? { sentence: doc.planStart, at: 0 } : { sentence: Math.floor(n / 2), at: 0 };
}

// "Just make sure you call support to book that appointment, OK?": a tag asks for agreement, not a question.
const TAG_QUESTION = /,\s*(?:ok|okay|alright|all right|yeah|right|yes|yep|yes or no)\s*\?$/;

/** Words past which a sentence is a recogniser's run-on turn rather than one sentence. */
const RUN_ON_WORDS = 40;
const DOCTOR_SUBJECT_END = /(?:^|\s)(?:i|we|i'll|we'll|i'm|we're|(?:i|we) (?:will|would|are going to|am going to|are gonna|am gonna))$/;
// The patient's subject cut off the same way is a report's lead-in: "he'll | continue his home exercise program".
const PATIENT_SUBJECT_END = /^(?:(?:and|also|then)\s+)?(?:he|she|they|the patient|patient|he'll|she'll|they'll)(?:\s+(?:will|should|is to|needs to|will need to|also))*$/;

const DETERMINER = new Set(['a', 'an', 'the', 'your', 'some', 'this', 'that', 'these', 'those', 'any']);

// "rest if she develops chest pain" and "call us if she develops chest pain": the condition both share says nothing of
// whether they are one instruction; what is to be done does.
const CONDITION_PART = /\s+(?:if|unless|when|in case)\s.*$/;

/** Two items that say the same: one's words hold the other's. */
function sameItem(a: string, b: string): boolean {
  const [doA, doB] = [a.replace(CONDITION_PART, ''), b.replace(CONDITION_PART, '')];
  if (doA !== a && doB !== b && a.slice(doA.length) === b.slice(doB.length)) return sameWords(doA, doB);
  return sameWords(a, b);
}

function sameWords(a: string, b: string): boolean {
  // "use a breathing treatment" and "use the breathing treatments" say the same: the determiners differ, not the care.
  const A = new Set(a.split(' ').filter((w) => !DETERMINER.has(w)));
  const B = new Set(b.split(' ').filter((w) => !DETERMINER.has(w)));
  const inter = [...A].filter((w) => B.has(w)).length;
  return inter >= Math.min(A.size, B.size) * 0.8;
}

// What the patient has, diagnosed or told back, is no instruction.
const statesCondition = (text: string): boolean => DIAGNOSIS_CUE.test(text) || TELLS_CONDITION.test(text);

/**
 * Where a sentence's instructions may start: 0 if it states no condition; in talk, after the clause that states one;
 * else -1 (a report's sentence of assessment is no plan).
 */
function afterCondition(text: string, talk: boolean): number {
  const cue = DIAGNOSIS_CUE.exec(text) ?? TELLS_CONDITION.exec(text);
  if (!cue) return 0;
  if (!talk) return -1;
  const re = CLAUSE_END;
  re.lastIndex = cue.index + cue[0].length;
  const end = re.exec(text);
  return end ? end.index : -1;
}

/**
 * `used` are the spans other facts were read from, `named` where drugs are named; an instruction touching a used span
 * is not advice, nor one that acts on a named drug (unless it withholds one not prescribed), nor one on a
 * prescription's line unless it has a cue of its own (or a care verb) and none of the drug's attributes were read from.
 */
export function extractAdvice(doc: Doc, used: Span[], prescribed: Prescribed, named: (s: Sentence) => readonly { start: number; end: number }[]): { advice: string[]; evidence: Span[] } {
  const start = planStart(doc);
  const candidates: Candidate[] = [];
  for (const s of doc.sentences.slice(start.sentence)) {
    // A run-on turn that names the diagnosis goes on to the plan: there only the clause naming it is not advice.
    const runOn = s.tokens.length > RUN_ON_WORDS;
    if (s.speaker === 'patient' || (s.text.endsWith('?') && !TAG_QUESTION.test(s.text))) continue;
    // "it sounds like you're depressed i'll refer you to talking therapies": in a recogniser's unpunctuated line the
    // plan may follow the diagnosis after a clause's first words; only what comes after them is read.
    const after = runOn ? 0 : afterCondition(s.text, doc.consultation);
    if (after < 0) continue;
    if (s.section && s.section !== 'plan' && s.section !== 'assessment') continue;
    // A plan item without a verb is read where a plan is listed: a report's plan, a dictation, a doctor's short line.
    const planItem: PlanItem = s.section === 'plan' || (!s.section && !doc.consultation) ? 'any' : !s.section && s.text.split(' ').length <= 14 ? 'care' : 'none';
    const from = s.index === start.sentence ? start.at : 0;
    const taken = takenWords(s, runOn, used, prescribed, named(s));
    // A sentence cut off its subject at a section word ("we'll | follow up with him") does not open with an imperative.
    const prev = doc.sentences[s.index - 1];
    const subjectBefore = prev?.turn === s.turn && DOCTOR_SUBJECT_END.test(prev.text);
    const patientBefore = prev?.turn === s.turn && PATIENT_SUBJECT_END.test(prev.text);
    const clauses = clausesOf(s);
    for (const [k, c] of clauses.entries()) {
      if (c.to <= from || (k === 0 && subjectBefore)) continue;
      // Only filler before it in the sentence ("uh, you know, I want you to …"): the instruction is the first said.
      const first = clauses.slice(0, k).every((b) => written(s.text.slice(b.from, b.to)).split(' ').filter(Boolean).length <= 1);
      const condition = first && prev?.turn === s.turn ? conditionEnding(prev, s.text) : null;
      for (const found of instructionsIn(s.text, { from: Math.max(c.from, from), to: c.to }, planItem, condition, k === 0 && patientBefore)) {
        // Before the clause end after the diagnosis only when the diagnosis is in between: "i think this is angina so put
        // one under your tongue … if it does not settle … i want you to go to the hospital" keeps its instructions.
        if ((found.from < after && statesCondition(s.text.slice(found.from, after))) || ((runOn || after > 0) && statesCondition(found.text)) || taken(found)) continue;
        // A condition said in the sentence before is part of the evidence, not of the words that decide.
        const span = s.span(found.from, found.to);
        const evidence = found.also ? { start: Math.min(span.start, found.also.start), end: Math.max(span.end, found.also.end) } : span;
        candidates.push({ text: found.text, strength: found.strength, span: evidence, order: candidates.length });
      }
    }
  }
  return pick(withDeviceNamed(candidates));
}

// A nutrient in a diet instruction ("a low sodium diet", "under 2 g of sodium a day") is no test of it.
const NUTRIENT = new RegExp(String.raw`^(?:${NUTRIENTS})$`);
const INTAKE = /\b(?:diet|intake|grams?|g|mg|a day|per day|foods?|rich|low|less|more|avoid|limit|reduce|cut|under|restrict\w*|eat|drink)\b/;
// Checking one's own sugar or pressure at home is advice, not the test ordered: "check your fasting sugar every morning".
const SELF_CHECK = /^(?:check|monitor|measure|record|keep checking|keep a (?:record|log|chart) of)\b.*\b(?:every|each|daily|at home|twice|once)\b/;

// A return said with its condition is advice, though the follow-up was read from the same words: "if it is not
// better, come back and see me next week" (a conditional return is no follow-up date).
const CONDITIONAL_RETURN = /^(?:come|call|return|ring|phone|go|see|contact|give (?:us|me) a call|seek)\b.*\b(?:if|in case|unless)\b/;
const RETURN_WORDS = /\b(?:come|back|see|review|follow|return|visit|appointment|weeks?|days?|months?|tomorrow|earlier|sooner)\b/;

// "I would like you to be assessed in a clinic today": where and how soon to be seen is advice, though the follow-up
// was read from the same words.
const TO_BE_SEEN = /^be (?:seen|assessed|examined|checked|reviewed)\b/;
const SEEN_WHEN = /\b(?:today|tonight|clinic|urgently|now)\b/;
const SEEN_WHERE = /\b(?:clinic|hospital|a and e|a&e|surgery|emergency|today|tonight|tomorrow|urgently|doctors?|gp|specialist|nurse|[a-z]+ologists?|(?:the )?same day|straight away|right away|immediately|as soon as possible|within \d+ (?:hours?|days?))\b/;

/** Whether an instruction keeps words another fact was read from: a diet's nutrient, one's own checks, a conditional return. */
function sharedWith(found: Found, words: string): boolean {
  return (
    (INTAKE.test(found.text) && NUTRIENT.test(words)) ||
    (SELF_CHECK.test(found.text) && found.strength > 1) ||
    (TO_BE_SEEN.test(found.text) && (RETURN_WORDS.test(words) || SEEN_WHEN.test(words))) ||
    (CONDITIONAL_RETURN.test(found.text) && RETURN_WORDS.test(words))
  );
}

/** The sentence's words that a transcript span covers. */
function wordsAt(s: Sentence, u: Span): string {
  const at: number[] = [];
  for (let k = 0; k < s.text.length; k++) {
    const x = s.span(k, k + 1);
    if (x.start >= u.start && x.end <= u.end) at.push(k);
  }
  return at.length ? s.text.slice(at[0], at[at.length - 1]! + 1).trim() : '';
}

/** Whether another fact took an instruction's words: a test, diagnosis, vital or follow-up, a prescription, a drug. */
function takenWords(s: Sentence, runOn: boolean, used: Span[], prescribed: Prescribed, drugs: readonly { start: number; end: number }[]): (found: Found) => boolean {
  return (found) => {
    const span = s.span(found.from, found.to);
    if (used.some((u) => overlaps(u, span) && !sharedWith(found, wordsAt(s, u)))) return true;
    // A run-on turn is one "line" from its first drug to its end: there only the drug's own words count. On a
    // prescription's line of a dictation, an instruction with a cue of its own or a care verb is advice.
    const onLine = !runOn && prescribed.lines.some((u) => overlaps(u, span));
    if (onLine && found.strength < 2 && !CARE_VERB.test(found.text)) return true;
    if ((runOn || onLine) && prescribed.attributes.some((u) => overlaps(u, span))) return true;
    const drug = drugs.find((d) => d.start < found.to && d.end > found.from);
    return !!drug && !DRUG_AS_CONTEXT.test(s.text.slice(found.from, Math.max(found.from, drug.start))) && !DRUG_WITHHELD.test(found.text);
  };
}

// "I'd like to put you in a splint … I would like you to wear that at night": the next instruction wears or uses the
// thing just given, and is the one item, naming it.
const DEVICE_ITEM = /^use (?:an?|some) (.+)$/;
const WEARS_IT = /^((?:wear|use|put on|keep on) )(?:that|it|this|them|those)\b/;
const DEVICE_NEXT_WITHIN = 200;

function withDeviceNamed(candidates: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const [k, c] of candidates.entries()) {
    const device = DEVICE_ITEM.exec(c.text);
    const next = candidates[k + 1];
    if (device && next && WEARS_IT.test(next.text) && next.span.start - c.span.end <= DEVICE_NEXT_WITHIN) {
      next.text = next.text.replace(WEARS_IT, `$1the ${device[1]!.replace(/\s+(?:for|to|at|during|while|when|until)\b.*$/, '')}`);
      next.span = { start: c.span.start, end: next.span.end };
      continue;
    }
    out.push(c);
  }
  return out;
}

/** An instruction and its condition: "come back | if it spreads". */
const SOONER_SAID = /\s+(?:sooner|earlier)$/;
const CONDITIONAL = /^(.+?) ((?:if|in case|when|unless) .+)$/;

/**
 * One instruction told again with another condition is one item with both: "come back if not better in a week" and
 * later "come back if it spreads" are "come back if not better in a week or if it spreads".
 */
function withConditionsJoined(candidates: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const c of candidates) {
    const m = CONDITIONAL.exec(c.text);
    const head = m ? m[1]!.replace(SOONER_SAID, '') : '';
    const k = m ? out.find((o) => CONDITIONAL.exec(o.text)?.[1]?.replace(SOONER_SAID, '') === head) : undefined;
    if (!m || !k) {
      out.push({ ...c });
      continue;
    }
    // "come back sooner if it spreads" after "come back if not better in a week": "… or sooner if it spreads".
    const sooner = m[1]!.slice(head.length).trim();
    if (!k.text.includes(m[2]!)) k.text = `${k.text} or ${sooner ? `${sooner} ` : ''}${m[2]}`;
    k.strength = Math.max(k.strength, c.strength);
    // Its evidence runs from the first saying to the second.
    k.span = { start: Math.min(k.span.start, c.span.start), end: Math.max(k.span.end, c.span.end) };
  }
  return out;
}

/** The firmest instructions, one per thing said, at most MAX_ITEMS, in the order they were said. */
function pick(said: Candidate[]): { advice: string[]; evidence: Span[] } {
  const candidates = withConditionsJoined(said);
  const kept: Candidate[] = [];
  for (const c of [...candidates].sort((a, b) => b.strength - a.strength || a.order - b.order)) {
    if (kept.length >= MAX_ITEMS) break;
    if (kept.some((k) => sameItem(k.text, c.text))) continue;
    kept.push(c);
  }
  kept.sort((a, b) => a.order - b.order);
  return { advice: kept.map((k) => k.text), evidence: kept.map((k) => k.span) };
}
