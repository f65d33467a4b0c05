/**
 * Chief complaints: symptoms the patient has now, with how long. A complaint is found by the complaint vocabulary
 * and the lay-phrase lexicon ("my ankles swell up" → ankle swelling, "can't keep anything down" → vomiting), by a
 * body site said with a kind of trouble ("my knee is killing me" → knee pain), or by a symptom word ("patches").
 * The name is the note's wording, not the sentence around it: "referred with a letter for breathlessness" is
 * breathlessness. Negated ones, other people's, allergic reactions and the doctor's unanswered questions are left
 * out; a "yes" to the doctor's question takes the symptoms asked about.
 */
import { ASKED_WELL, LAY_PHRASES, NOT_COMPLAINTS, REGION_ADJECTIVES, RESULT_WORDS, SITE_KINDS, SITE_PAIN_NAMES, SITES } from './vocab/lay-phrases.js';
import { JOINT_SENSATIONS, ONSET_EVENTS, REMEDY_NOUNS, SAME_COMPLAINT, SYMPTOMS, TRIGGERS } from './vocab/symptoms.js';
import { COMMON_WORD_BRANDS, FORMULARY } from './vocab/formulary.js';
import type { Complaint, Duration } from './facts.js';
import { namesIcdFrom } from './codify.js';
import { findDurations, type DurationHit } from './durations.js';
import { alternation, PhraseIndex, RELATIVE, tokenize, type Token } from './lexicon.js';
import { endsScope, negationCues, postNegationCues } from './negation.js';
import { DIAGNOSIS_CUE, headingOf, historySentences, inlineHeadings, opensWithHeading, toldBack, type Doc, type SectionKind, type Sentence } from './sections.js';

// Words a complaint does not need: articles, pronouns, hedges, "complains of", intensifiers.
const FILLER = new Set(
  ('um uh er erm hmm mm the a an his her my your their its our some mild little slight occasional occasionally sometimes also just ' +
    'complains complaining complained complaint c/o has have having had is are was were keeps keep noticed ' +
    'developed presents presented presenting came sudden onset new severe moderate episodes episode he she it i ' +
    'patient child baby any lot bit very quite much still am so really actually honestly basically literally crazy ' +
    'lately recently been being me him them myself herself himself we they you that this these those like ' +
    "i'm i've i'd he'd she'd we've they've you're you've you'd").split(' '),
);
const SIDE = new Set(['left', 'right', 'both', 'bilateral']);
const NOT_COMPLAINT = new RegExp(
  String.raw`(?<![a-z'])(?:${alternation(NOT_COMPLAINTS)})(?![a-z'])`,
  'g',
);
// Words that hold a complaint's word but say something else, wherever a sentence is read for complaints.
// "Patient also has a history of gastroparesis and impotence": the past history a sentence lists, up to where it turns
// to the present ("… with a history of stroke, who presents today with …", "… of migraines and I've had a headache").
const HISTORY_OF_LIST =
  /\b(?:has|have|had|with|significant for)\s+(?:a\s+)?(?:(?:known|past|prior|previous|significant|long|longstanding|long-standing|remote)\s+)*(?:medical\s+)?history\s+of\b(?:(?!\b(?:who|which|presents?|presented|presenting|now|currently|comes?|came|here|today|complains?|complaining|reports?|reporting|states?|c\/o|but|however|since|for (?:the (?:last|past)|\d|an?|about|over|several|a few|a couple)\b|(?:and|but) (?:i|he|she|they|we|it)\b))[^.;?])*/g;
// "a history of headaches for the last two weeks" is the story of a present complaint.
const LASTING = /^\s*(?:since|for (?:the (?:last|past)|\d|an?|about|over|several|a few|a couple))\b/;
const notComplaintSpans = (s: Sentence): [number, number][] =>
  [...s.text.matchAll(NOT_COMPLAINT), ...[...s.text.matchAll(HISTORY_OF_LIST)].filter((m) => !LASTING.test(s.text.slice(m.index + m[0].length)))].map((m) => [
    m.index,
    m.index + m[0].length,
  ]);
// "the medial side", "the outer side": the side of a knee or an ankle, not the flank.
const PART_SIDE = new Set(['medial', 'lateral', 'inner', 'outer', 'inside', 'outside']);
const sideOfAPart = (words: readonly { text: string }[], i: number): boolean => words[i]!.text === 'side' && PART_SIDE.has(words[i - 1]?.text ?? '');
const ANSWER_WORD = /^(?:no|nope|yes|yeah|yep|okay|ok|well|right|alright)$/;
const POSITION = new Set(['upper', 'lower', 'inner', 'outer', 'front', 'middle', 'mid']);

// The vocabulary and the lay phrases, matched without filler words, sides and numbers on both sides; a phrase's
// last word is also found in the plural ("headaches").
const INDEX = new PhraseIndex<string[]>();
const key = (p: string): string => p.split(' ').filter((w) => !FILLER.has(w) && !SIDE.has(w) && !/^\d/.test(w)).join(' ');
const addPhrase = (phrase: string, names: string[]): void => {
  const k = key(phrase);
  INDEX.add(k, names);
  if (!/s$/.test(k)) INDEX.add(`${k}s`, names);
};
for (const s of SYMPTOMS) {
  addPhrase(s.name, [s.name]);
  for (const v of s.variants) addPhrase(v, [s.name]);
}
for (const l of LAY_PHRASES) {
  if (l.names.length === 1) addPhrase(l.names[0]!, l.names);
  for (const p of l.phrases) addPhrase(p, l.names);
}
const KIND = new Map<string, string>();
for (const k of SITE_KINDS) for (const w of k.words) KIND.set(w, k.name);
// A kind said without a site, as a bare complaint until a site is told: "painful redness and swelling of the leg".
const KIND_NOUN: Record<string, string> = {
  '{site} pain': 'pain', 'swelling of {site}': 'swelling', 'redness of {site}': 'redness', 'itching of {site}': 'itching',
  'numbness of {site}': 'numbness', 'tingling in {site}': 'tingling', 'weakness of {site}': 'weakness',
  '{site} stiffness': 'stiffness', 'burning {site}': 'burning', '{site} cramps': 'cramps', '{site} tightness': 'tightness',
};
const HALF_BODY = new Set(['numbness of {site}', 'tingling in {site}', 'weakness of {site}']);
const NOUN_KIND = new Map(Object.entries(KIND_NOUN).map(([kind, noun]) => [noun, kind]));
// Bare kinds that are no complaint until a site is told.
const NEEDS_SITE = new Set(['pain', 'redness', 'burning', 'tightness']);

// Symptom words that make a phrase a complaint even when the vocabulary lacks the whole phrase.
const HEAD = new Set(
  ('pain pains ache aches swelling swellings itching patches patch blisters rash rashes discharge lesions lesion ' +
    'ulcer ulcers spots lump lumps heaviness tingling numbness burning redness bleeding stiffness weakness cramps ' +
    'tremors tremor puffiness boils boil wound growth papules plaques nodules bumps rings warts').split(' '),
);
// Skin lesions are named as described ("itchy red ring shaped patches in the groin"), so their words are kept.
const LESION = /\b(?:patch(?:es)?|papules?|rash(?:es)?|lesions?|spots|plaques?|pimples|blisters|bumps|ulcers?|boils?|nodules|lumps?|rings|warts|moles)$/;
// Words describing a symptom that the note keeps with its name ("dry cough", "yellow green sputum").
const MODIFIER = new Set(
  ('thick thin yellow green white brown red pink clear watery sticky dry wet productive barking whooping colicky ' +
    'cramping throbbing pounding splitting dull sharp stabbing shooting burning constant intermittent recurrent worsening increased ' +
    'increasing persistent itchy scaly frothy foul smelling smelly bloody painful').split(' '),
);
const CONNECTOR = new Set(['and', 'with', 'after', 'then', 'plus', 'along', 'associated', 'or', 'but', 'also', 'for', 'because']);
// Words that keep a negation's scope running over a list: "no fever, cough or vomiting", "denies any h/o fits",
// "no gross hematuria", "no documented fevers", "not particularly constipated", "haven't had any more pain".
const LIST_WORD = new Set(
  (', and or nor any ever other such including near h/o history of signs symptoms complaints episodes prior previous past known recent ' +
    'high low grade significant obvious major marked cut focal generalized generalised appreciable notable noticeable gross frank visible particular particularly specific much more further ' +
    'type types of bright dark difficulty difficulties trouble problem problems issue issues with ' +
    'new associated real true overt definite actual documented recorded measured objective confirmed report reports reported feel feels feeling felt think notice noticed get getting appear appears seem seems look looks ' +
    // Body systems qualifying the list ("no respiratory or breathing difficulty", "any urinary or bowel problems").
    'constitutional systemic respiratory nasal sinus urinary bowel bladder cardiac heart abdominal stomach gastrointestinal gi neurologic neurological visual skin joint muscle').split(' '),
);
// In a written list ("denies chest pain, shortness of breath, pnd, ankle swelling, or dizziness") an item the
// vocabulary does not know keeps the scope running when it is one word between commas.
const LIST_ITEM = /^,\s*[a-z0-9/]+\s*,?$/;
const NEGATION_WORD = /^(?:no|not|denies|denied|without|never|nil|non|nor|(?:do|does|did|have|has|had|is|are|was|were)n't)$/;

const RELATIVE_WORD = new RegExp(String.raw`^${RELATIVE}$`);
const FAMILY = new RegExp(String.raw`${RELATIVE}(?:'s)?\s+(?:also\s+)?(?:has|had|is|was|have|suffers|died|with|h\/o)\b|\bfamily history\b|\bruns in the family\b`);
// In a consultation a relative may be the one speaking about the patient ("my son has had fever"): only a relative
// said to have the same thing, or their history, is someone else's.
const CONTACT = /\b(?:also|too|same|similar|as well|died|history|treated for)\b/;
const OTHERS = /\b(?:husband|wife|roommate|room mate|friend|friends|colleague|colleagues|kids|children|neighbou?rs?|classmates?|people|anyone|everyone|someone|others)(?:'s)?(?:\s+of\s+(?:mine|ours))?\s+(?:also\s+)?(?:has|had|have|is|was|were|with|got|caught)\b/;
// A reaction to a drug is an allergy (so is the answer to a question about allergies), and an earlier episode is
// history: neither is a complaint now.
const ALLERGY = /\b(?:allerg\w*|reactions?|anaphyla\w*|gave (?:me|her|him|them)|made (?:my|her|his))\b/;
// Within a sentence, what follows a drug allergy is the reaction; "seasonal allergies" are a complaint's context.
const ALLERGY_CLAUSE = /\b(?:allerg\w* (?:to|from)|reactions? (?:to|from|with)|anaphyla\w*|gave (?:me|her|him|them)|made (?:my|her|his))\b/;
// A symptom that has gone is no complaint now: "the cough has gone away", "the vomiting stopped", fever "only on
// the first day", "a temperature when the symptoms started", "a bit of diarrhoea, but that's fine now". Said after the
// symptom, in its clause.
const RESOLVED_AFTER =
  /^(?:[^,;:.?]|,\s*(?:but|and|it|that)\b){0,40}?\b(?:(?:has|have|had|is|are|was|were)\s+(?:now\s+|all\s+|completely\s+)?)?(?:gone(?: away)?|went away|(?:seemed|seems|seem)\s+to\s+(?:go away|have gone(?: away)?|settle(?: down)?|clear(?: up)?)|resolved|settled(?: down)?|cleared(?: up)?|disappeared|subsided|stopped(?=\s*(?:$|[,;.]|now|completely|since|after|by itself|on its own|and|but|yesterday|last night|this morning|(?:a|one|two|three|\d+|a couple of|a few) (?:days?|hours?|weeks?) ago))|not been (?:there )?since|(?:that's|that is|it's|it is|they're|they are)\s+(?:all\s+)?(?:fine|ok|okay|alright|all right)\s+now|only (?:on|for) the first (?:day|night|couple of days)|at the (?:start|beginning)|now (?:i|she|he|they) (?:feel|feels|am|is|are) (?:kind of |sort of |a lot |much |absolutely |completely )?(?:fine|ok|okay|better|alright|all right|normal|well)|when (?:the symptoms|it|this|they|all this|it all) (?:started|began|first started))\b/;
// …or said in the speaker's next sentence, of the symptom told last: "So I vomited a couple of times. But then, that
// went away."
const GONE_NEXT = /^(?:(?:uh|um|er|erm|and|but|then|so|well|yeah|ok|okay),?\s+)*(?:that|it|this|they|those)\s+(?:(?:has|have|had)\s+)?(?:(?:all|completely|just)\s+)?(?:went away|gone(?: away)?|stopped|settled(?: down)?|cleared(?: up)?|disappeared|resolved|is gone|are gone|got better)\b/;
// …or said before it: "i've stopped vomiting", "got rid of the rash".
const RESOLVED_BEFORE = /\b(?:stopped|got rid of|recovered from|used to (?:have|get))\s+(?:[a-z']+\s+){0,2}$/;
const PAST =
  /\b(?:similar episode|in the past|last time|(?<!since )last year|years? ago|as a (?:small |little |young )?(?:child|baby|kid)|when (?:i|he|she) was (?:little|young|small)|days? of life|at birth|after birth)\b/;
// Put down to an old cause after it in its clause: "some pain in my knee but that's from an old injury" is background.
const OLD_CAUSE_AFTER = /^[^.?;]{0,40}?\b(?:from|since|after|because of|due to) (?:an?|my|his|her|the) old (?:injury|fracture|accident|operation|surgery|problem)\b/;
// An earlier episode told in the same answer ("i had a similar sort of thing about a month ago"): its time is not
// the complaint's.
const EARLIER_EPISODE = /\b(?:similar|same thing|before|previous|previously|again|settled|went away)\b/;
const PAST_END = new RegExp(String.raw`(?:${PAST.source})$`);
// The words PAST can end with: only after one of them is PAST_END tried.
const PAST_LAST_WORDS = new Set('episode past time year ago child baby kid little young small life birth'.split(' '));
// Words after an earlier episode's time that go on telling it: "in the past with vertigo", "years ago for a kidney stone".
const PAST_GOES_ON = new Set(['with', 'for', 'from', 'of', 'due']);
// A template's label may open it: "Timing (onset/frequency): Onset was 6 months ago."
const ONSET_OF_TOLD = /^(?:[a-z][a-z ()/-]{0,40}:\s*)?(?:(?:and|so|the|her|his|my|these|those|all (?:of )?(?:the|these|this)?)\s+)*(?:(?:symptoms?|it|this|they|these|that|all this)\s+(?:all\s+)?(?:started|began|begun|came on|first started)|onset(?: of (?:the |her |his )?symptoms)? (?:was|is)(?: about| approximately| around)?)\b/;
const ANAPHORA = /\b(?:it's been|it has been|they've been|they have been|been like this|(?:been )?feeling like this|this way|been going on|been coming|it started|this started|they started|this has been|since then|so (?:about )?\d|(?:having|had|experiencing|noticing|noticed|dealing with|dealt with|suffering with|suffering from) (?:this|it|these|that|them) (?:for|since)\b)/;
// "… chest pain … Also, shortness of breath is noted. Symptoms on and off for the last 3 to 4 days.": the symptoms of
// the last few sentences, all of them.
const SYMPTOMS_TOLD = /^(?:(?:the|these|those|his|her|all|of)\s+)*symptoms\b/;
const SYMPTOMS_WITHIN = 3;
// "since I'm a little nauseated I'm not quite as hungry and I feel … fatigued over the last week": a time said after a
// complaint of a new clause is that complaint's, not the ones told before that clause.
const NEW_CLAUSE = /\b(?:i'm|i am|i feel|i've|i have|i get|i got|since)\b/;
/** In a sentence longer than RUN_ON_REPORT tokens (a report read out without punctuation), the most words between a
 * complaint and the time it takes. */
const RUN_ON_REPORT = 80;
const DURATION_REACH = 30;
const NO = /^(?:no|not|none|nothing|never|nope|nah)\b/;
// "any abdominal trouble?" "diarrhea no", "chest pain no not really", "headaches or dizziness, no": the symptoms said
// back, then denied.
const SAID_BACK_DENIED = /^(?:[a-z']+,?\s+){1,5}(?:no|nope|nah)(?:,?\s+(?:not really|never|none|not at all|i don't(?: think so)?|i do not|i haven't|i have not))?$/;
// A denial about the present: "since I've been home", "at the moment".
const NOW = /\b(?:since (?:you've|you have|i've|i have) been|now|anymore|any more|these days|at the moment|currently|at present)\b/;
// The patient saying where "it" is: "it's in my right side", "it starts up in the right flank".
const IT_IS_WHERE = /^(?:(?:and|so|well|um|uh|yeah|it's)\s+)*it(?:'s| is| has been| starts| started| begins| began| comes| sits)\b(?:\s+(?:it|starts|coming|up|mainly|just|kind of|like|right|usually|always))*\s+(?:in|on|at|around|from)\b/;
// Where a question sentence asks again: "any nausea or diarrhea are you peeing a whole lot".
const ASKS_AGAIN = /\b(?:are you|do you|have you|did you|is there|are there)\b/g;
const HISTORY_OF_AFTER = /^[\w\s-]*\b(?:history|hx|h\/o)\s+of\b/;
const ITEM_STOP = /^(?:or|nor|and|but|then|until|that|which|who|i|you|he|she|we|they|it|me|us|him|her|them|i'm|i've|i'd)$/;
const WELL_NAME = new Map(ASKED_WELL.flatMap((w) => w.asked.map((a) => [a, w.name] as const)));
const WELL_ASKED = new RegExp(String.raw`\b(?:${alternation(WELL_NAME.keys())})\b`);
const ANSWER_NO = /^(?:(?:well|um|uh|oh|honestly|actually),?\s+)*(?:no|not|nope|nah)\b(?!\s+(?:problem|problems|issues?|complaints?)\b)/;
const PAIN_NAMES = new Set(Object.values(SITE_PAIN_NAMES));
const SITE_JOIN = /^\s*(?:,|and|,\s*and)\s*(?:(?:my|the|his|her|your)\s+)?$/;
const SIDE_ALONE = /\b(left|right) side\b/;
// The doctor asking where a pain is: the answer's site completes it.
const WHERE = /\b(?:where|whereabouts|which (?:side|part))\b/;
// The kind of trouble a "where" question names ("where are you having pain?", "where does it hurt?").
const KIND_ASKED = /\b(?:pain|ache|discomfort|swelling|rash|itch|itching|numbness|tingling|hurts?|hurting)\b/;
// An answer that is the site itself: "my left elbow", "in my lower back", "right here, the left knee".
const ANSWER_OPENS_ON_SITE = /^(?:(?:um|uh|so|well|yeah|yes|it's|its|it is|mainly|mostly|just|right here|here|all over)[\s,]+)*(?:(?:in|on|at|around)\s+)?(?:(?:my|the|his|her)\s+)?$/;
// A question about earlier episodes: what the answer tells is history ("have you had this before?" "once, 3 years ago").
const PAST_QUESTION = /\b(?:ever|before|in the past|previously|prior to|did it last|last time)\b/;
const HOW_LONG_OTHER =
  /\bhow long (?:have|has|had) (?:you|he|she|they) (?:been|had) (?:an? )?(?:diabetic|asthmatic|epileptic|hypertensive|smoker|smoking|on|taking|using|married|working|living|pregnant|diabetes|asthma|epilepsy|high blood pressure|hypertension)\b/;
const HOW_LONG = /\b(?:since when|how long|when did (?:it|this|they|that|it all|this all|all this) (?:start|begin|come on)|when (?:it|this|they) (?:started|began)|for how many days)\b/;
// A question said without punctuation starts like one.
// Said without its question mark, after the words that open a turn: "okay so were you ever told …".
const QUESTION = /^(?:(?:okay|ok|so|and|alright|all right|um|uh|now)\s+)*(?:any|anything else|do you|does (?:he|she|it|the)|did (?:you|he|she)|are you|were you|have you|has (?:he|she)|is (?:he|she|there)|how|what|when|where|which|why|can you|could you|tell me)\b/;
// The patient asking what a treatment may do ("will that make me feel sick again?", "does it cause drowsiness"): a
// side effect wondered about, not a complaint.
const EFFECT_QUESTION =
  /^(?:(?:okay|ok|so|and|but|um|uh|oh|doctor)[\s,]+)*(?:will|would|could|can|might|may|does|do|is|isn't|won't|wouldn't)\s+(?:it|that|this|they|those|these|the (?:tablets?|pills?|medicines?|medication|drug|injection|inhaler|cream|(?:higher |new |extra )?dose))\s+(?:(?:be going to|going to|ever|also|still|not|then)\s+)*(?:make|give|cause|bring on|affect)\b/;
// A yes, said as the answer opens ("two or three nights a week", "most days": how often is a yes); "I do not have any
// issues like that" is none.
const AFFIRMATIVE =
  /^(?:(?:only|just|mostly|mainly|usually|especially) (?:when|if|after|on|in the)(?! (?:i|he|she) (?:had|was)\b)|yes|yeah|yep|yup|haan|ha|(?:\d+|a couple of|a few)(?:\s+(?:or|to)\s+\d+)?\s+(?:times|nights|days|mornings|evenings)\s+(?:a|per|each|every)\s+(?:day|night|week|month)|most (?:days|nights|mornings|evenings|of the time)|all the time|daily|nightly|sometimes|a little|little bit|a bit|bit of|a few|some|quite|a lot|lots|mostly|mainly|every|now and then|on and off|once|twice|occasionally|since|for|it does|i do|i get|i've had|i have had|there's|there is|there was|he does|she does|it has|it is|it was|it did|that's right|correct|i think so|i believe so|i guess so)\b(?!\s+(?:not|no|never)\b(?!\s+as\b))|\b(?:yes|yeah)\b/;
// "i was sick once yesterday", "i've lost a bit", "about half a stone": an amount said without a denial is a yes.
const SOME_SAID = /\b(?:a bit|a little bit|once|twice|(?:\d+(?:\.\d+)?|an?|half an?|a couple of|a few)\s+(?:stones?|pounds?|lbs?|kilos?|kgs?|kilograms?))\b/;
const DENIAL = /\b(?:no|not|never|nothing)\b|n't\b/;
// A question said inside a longer sentence without its question mark: "… okay and has that been since the bite".
const ASKS = /\b(?:has|have|is|was|did|does|do|are|were) (?:that|it|this|they|you|he|she)\b[^,.]{0,60}$/;
// "Since the tick bite": as long as the complaint named by the event's words.
const SINCE_EVENT = /\bsince (?:the|that|my|his|her|this) ([a-z]+(?: [a-z]+)?)/;
// The doctor's summary of the story ("just to recap, for the last 3 days you've been having …"): its duration is
// that of every symptom it lists.
const RECAP =
  /\b(?:to recap|recap|to summari[sz]e|summari[sz]ing|in summary|so (?:for )?(?:the )?(?:last|past) \d+ \w+,? you|(?<!have )you(?:'ve| have) been (?:having|experiencing|dealing with|suffering (?:from|with)|struggling with)|so you(?:'ve| have) had|you(?: also)? mentioned|you(?:'ve| have) mentioned|you said)\b/;
// The reason for the visit the doctor says to open it ("he is here today with right elbow pain", "you're coming in
// today for some right ankle pain", "today complaining
// of shortness of breath", "the nurse told me that you're having some headaches", "I see here you're coming in, you
// had some right elbow pain"): the symptoms after the cue, up to a history it goes on to ("… and she also has a history
// of diabetes"), are complaints.
const VISIT_REASON =
  /\b(?:(?:is |are )?here (?:today )?(?:with|for|because of)(?! (?:you|him|her|me|us|them)\b)|complaining of|complains of|present(?:s|ing) (?:today )?with|(?:comes|coming|come|came) in (?:today )?(?:with|for(?= (?:some|a|an|your|her|his|the|this|that|evaluation of|follow ?up of)\b))|(?:told me|i understand|i heard|i see(?: here)?)(?: (?:you|that|you're coming in|you are coming in))* you(?:'re| are|'ve| have)?(?: been)? (?:having|experiencing|got|have|had))\b|\b(?=you(?:'ve| have)? (?:hurt|injured|twisted|sprained) (?:your|the)\b)/;
const THEN_HISTORY = /\b(?:history|pmh|background)\b/;
// What a doctor says while examining: a test of movement or touch, or an examination word.
const EXAM_TALK =
  /\b(?:on exam(?:ination)?|physical exam(?:ination)?|does (?:that|this|it) hurt|when i (?:touch|press|push|move|squeeze|tap)|(?:can|could) you (?:turn|move|bend|lift|squeeze|push|pull|raise|straighten|touch|stand on)|flexion|extension|range of motion|tender(?:ness)? (?:to|on) (?:palpation|touch))\b/;
// "What happens when you take it?", "It causes you side effects?" after an allergy is asked: the answer is the reaction.
const REACTION_QUESTION = /\bwhat (?:happens|happened|kind of reaction|reaction|does it do|did it do)\b|\bside effects?\b|\b(?:does|did) it (?:cause|give)\b|\bwhat does it (?:cause|give)\b/;
// A symptom the speaker is not sure of is no complaint: "concern about possible spider bite".
// A finding of a test, not a symptom: "microscopic hematuria".
const FINDING = /\b(?:microscopic|incidental|asymptomatic|radiological|biochemical)\s+$/;
// An umbrella the complaints are listed under: "cold symptoms consisting of nasal congestion and ear pain".
const UMBRELLA_AFTER = /^\s*(?:like )?symptoms?\s*,?\s*(?:consisting of|including|such as|with|of)\b/;
// Verbs of telling or noticing, which a complaint's description starts after: "she notices bright red bleeding".
const TELLING = new Set('notices noticed notice noting notes noted reports reported describes described complains mentions mentioned says said states stated sees saw gets got realized realised'.split(' '));
// Words of what was applied to a lesion, which its description does not keep.
const APPLIED = new Set('using used applying applied put putting given gave cream creams ointment lotion gel areas area of on to'.split(' '));
const IMAGING_FOUND = /\b(?:showed|shows|showing|revealed|reveals|revealing|demonstrated|demonstrates|demonstrating)\b(?!.*\b(?:but|however|although|otherwise)\b)/;
const HEDGED = /\b(?:possible|possibly|probable|suspected|query)\s+(?:[a-z]+\s+)?$/;
// Tails that describe a complaint but are not its name.
const TAIL = /\s+(?:radiating|which|that|when|where|worse|better|worst|increases|increased|increasing|aggravated|relieved|gradually|on and off|off and on|lasting|about|around|slowly|spreading|since|from|\d).*$/;
// How long it has been worse is not how long the complaint has lasted.
const WORSE = /\b(?:worse|worsened|worsening|increased|better|bad)\s+$/;
// What brings another complaint on, said as such: "coughing, sneezing makes it worse", "bending over makes the pain worse".
const AGGRAVATES = /^(?:[\s,]+(?:and\s+|or\s+)?[a-z]+ing)*[\s,]+(?:also\s+)?(?:(?:seems?|seemed|tends?|tended) to\s+)?(?:makes?|make|made|will make)\s+(?:it|the pain|them|that|things|my \w+)\s+(?:a lot\s+|much\s+|even\s+)?(?:worse|better)\b/;
const STAIRS = /\b(?:climb\w*|stairs?|steps|flights?)\b/;
const EXERTION = /\b(?:walk\w*|exert\w*|exercis\w*|running|effort|activity|hurry\w*|uphill)\b/;
const EXERTIONAL = new Set(['breathlessness', 'shortness of breath', 'chest tightness', 'chest pain']);
const STANDING = /\b(?:stand\w*|gets? up|getting up|sits? up|sitting up)\b/;
const POSTURAL = new Set(['dizziness', 'giddiness']);

// Weight said as kilos gained or lost ("lost about 4 kg", "put on almost 4 kilos", "up 2 kilos").
const WEIGHT_CHANGE: { re: RegExp; name: string }[] = [
  { re: /\b(?:lost|losing|lose)\b(?:\s+[a-z0-9.]+){0,3}?\s+(?:kg|kgs|kilos?|kilograms?|pounds|lbs|weight)\b/g, name: 'weight loss' },
  { re: /\b(?:put on|gained|gaining|(?<!\bi )up)\b(?:\s+[a-z0-9.]+){0,3}?\s+(?:kg|kgs|kilos?|kilograms?|pounds|lbs)\b/g, name: 'weight gain' },
];
// A vital sign's label with its value is not the symptom ("temperature 99.8").
const VITAL_CLAUSE =
  /\b(?:bp|blood pressure|pulse(?: rate)?|heart rate|temperature|temp|spo2|oxygen saturation|saturation|sats|respiratory rate|weight|height|random (?:blood )?sugar|fasting sugar|sugar|glucose)\b(?!\s+(?:loss|gain|rise))(?:\s+[a-z]+){0,4}?\s+\d[\d./]*(?:\s*(?:over|by|\/)\s*\d+)?(?:\s+(?:kg|kgs|kilos?|kilograms|cm|f|c|degrees?(?: celsius| fahrenheit)?|percent|per minute|mm hg|bpm))?/g;
// Where a dictation turns to the examination: what follows in the sentence is a finding, not a complaint.
const EXAM_START = new RegExp(
  String.raw`\b(?:on examination|examination|o\/e|on exam|exam|tender(?:ness)?|palpable|crepitations|crackles|auscultation|reflexes|` +
    String.raw`pallor|icterus|pitting|erythema|effusion|crepitus|nystagmus|sunken|dix hallpike|straight leg raise|congested|` +
    String.raw`chest (?:is )?clear|wheezes|polyphonic|expiratory|scattered|rhonchi|murmur|jvp|mucosa|fundus|eardrum|tonsils|` +
    String.raw`lymph nodes|nodes|organomegaly|guarding|rebound|retractions|indrawing|bowel sounds|skin pinch|well demarcated|maceration|` +
    String.raw`erythematous|grouped vesicles|dermatome|fontanelle)\b`,
);

const OPENS_ON_SIGN = new RegExp(`^(?:${EXAM_START.source})`);

/** True when the words open on a symptom or an examination sign ("abdominal pain", "rebound", "guarding"). */
export function opensOnFinding(words: string): boolean {
  const tokens = tokenize(words);
  return !!INDEX.matchAt(tokens, 0) || HEAD.has(tokens[0]?.text ?? '') || OPENS_ON_SIGN.test(words);
}

// One-word drug names and brands: a symptom word right after one names the product ("Tylenol cough and cold").
const DRUG_WORDS = new Set(
  FORMULARY.filter((d) => d.kind !== 'class')
    .flatMap((d) => [d.name, d.us, d.uk, ...d.aliases, ...d.brands])
    .filter((n): n is string => !!n && /^[a-z][a-z-]{3,}$/.test(n) && !COMMON_WORD_BRANDS.has(n)),
);
// What brings a pain on, said after it: "with the bowel movement", "on deep breathing", "when i'm typing".
const TRIGGER_AFTER = new RegExp(
  String.raw`^\s*,?\s*(with|on|during|when|while)\s+(?:(?:the|a|an|my|his|her|their|i'm|i|am|he|she|he's|she's|is|actually|doing|taking)\s+){0,3}` +
    String.raw`(${TRIGGERS.join('|')}|(?!(?:going|getting|having|being|feeling|doing|nothing|something|morning|evening|anything|everything)\b)[a-z]{3,}ing)\b`,
);
const TRIGGERED = /\b(?:pain|pains|ache|aches|discomfort|pressure|sore|soreness|tightness)\b/;
const TRIGGER_SAID = /\b(?:on|with|during|when|while) \w+$/;

interface Item {
  name: string;
  start: number;
  end: number;
  site?: string;
  duration?: Duration;
  /** A duration said right after it: a negated finding has none, so the complaint is asserted. */
  timed?: boolean;
}

// A number that starts how long something lasted ("for 2 days"), not a reading.
const LASTED = String.raw`[\d./]*\s*(?:days?|weeks?|months?|years?|hours?|nights?)\b`;
const TEMPERATURE_VALUE = new RegExp(String.raw`^\s*(?:\S+\s+){0,2}\d(?!${LASTED})`);
const LASTED_NEXT = new RegExp(`^${LASTED}`);

/** Where in a sentence complaints may be found: a range, without vital-sign clauses. */
interface Scope {
  from: number;
  to: number;
  masked: [number, number][];
}

const isQuestion = (s: Sentence): boolean => s.speaker !== 'patient' && (s.text.endsWith('?') || QUESTION.test(s.text));

const SITE_KEYS = Object.keys(SITES).filter((k) => k !== 'side' && k !== 'body').join('|');
// "How's your jaw doing?" – "The pain seems to have gotten worse": the pain is at the site asked after.
const THE_PAIN = /\bthe (?:pain|ache|soreness|swelling)\b/;
const ASKED_AFTER_SITE = new RegExp(
  String.raw`\b(?:how(?:'s| is| are)|what happened to|what about|what's going on with|what is going on with|tell me about) (?:your|his|her|the) ((?:(?:left|right|both|upper|lower)\s+)*(?:${SITE_KEYS}))\b`,
);
const SITE_MENTION = new RegExp(
  String.raw`\b(?:(?:left|right|both|upper|lower)\s+)*(?:${SITE_KEYS})\b`,
  'g',
);
const SITE_WORDS = new Set(Object.values(SITES));
// "left-sided weakness" is of half the body: a site.
const hasSite = (name: string): boolean => name.split(' ').some((w) => SITE_WORDS.has(w) || w.endsWith('-sided'));
// "abdominal" of "abdomen": a site named by its adjective.
const SITE_STEMS = new Set([...SITE_WORDS].filter((w) => w.length >= 5).map((w) => w.slice(0, 5)));

/** The site said with a site word: its side and position words before it ("left lower leg", "both feet"). */
function siteAt(words: Token[], i: number): string {
  let k = i;
  while (k > 0 && (SIDE.has(words[k - 1]!.text) || POSITION.has(words[k - 1]!.text))) k--;
  // "right, my right wrist": the side said twice is one side.
  return [...words.slice(k, i).map((t) => t.text), SITES[words[i]!.text]!].filter((w, j, ws) => w !== ws[j - 1]).join(' ');
}

/** A name with the side said before it: "ear pain" + left → "left ear pain". */
function withSide(name: string, side: string | undefined): string {
  if (!side || name.includes(side)) return name;
  const words = name.split(' ');
  const at = words.findIndex((w) => SITE_WORDS.has(w));
  if (at < 0) return name;
  words.splice(at, 0, side);
  return words.join(' ');
}

function siteName(kind: string, site: string): string {
  if (kind === '{site} pain') {
    const bare = site.replace(/^(?:(?:left|right|both|bilateral)\s+)+/, '');
    const named = SITE_PAIN_NAMES[bare];
    if (named) return withSide(named, site.slice(0, site.length - bare.length).trim() || undefined);
  }
  const region = site.split(' ').pop()!;
  if (REGION_ADJECTIVES.has(region) && KIND_NOUN[kind]) return `${site} ${KIND_NOUN[kind]}`;
  // "weakness on my left side", "numb on the right side": half the body, not the flank.
  const half = HALF_BODY.has(kind) ? /^(left|right) flank$/.exec(site) : null;
  if (half) return `${half[1]}-sided ${KIND_NOUN[kind]}`;
  return kind.replace('{site}', site);
}

/** The kind of a complaint said without its site ("swelling", "painful redness"), which a site completes. */
function bareKind(name: string): string | undefined {
  if (hasSite(name)) return undefined;
  const last = name.split(' ').pop()!;
  return KIND.get(last) ?? NOUN_KIND.get(last);
}

const durationCache = new WeakMap<Sentence, DurationHit[]>();
// The onset said before the day: "i started with a cough yesterday", "it came on yesterday" (findDurations reads
// "yesterday" after such a verb only as "since yesterday").
const ONSET_YESTERDAY = /\b(?:started|starting|began|begun|came on|developed|noticed|woke up with)\b(?:\s+[a-z']+){0,5}\s+(?<!\bday before\s+)(yesterday)\b/g;

function durationsOf(s: Sentence): DurationHit[] {
  let hits = durationCache.get(s);
  if (!hits) {
    hits = findDurations(s.text);
    ONSET_YESTERDAY.lastIndex = 0;
    for (let m = ONSET_YESTERDAY.exec(s.text); m; m = ONSET_YESTERDAY.exec(s.text)) {
      const start = m.index + m[0].length - m[1]!.length;
      if (!hits.some((h) => start < h.end && m!.index + m![0].length > h.start)) hits.push({ start, end: start + m[1]!.length, duration: { value: 1, unit: 'day' } });
    }
    hits.sort((a, b) => a.start - b.start);
    durationCache.set(s, hits);
  }
  return hits;
}

// A length said as an attribute of a visit or a state is no complaint's: "her 3 week postpartum checkup".
const ATTRIBUTE_AFTER = /^\s*(?:postpartum|post partum|postnatal|post ?op\w*|pregnant|gestation|check ?up|visit|follow ?up|appointment|review)\b/;

// "(his wife has had a cold for about 2 weeks)": a length told of someone else's illness, in the clause it is said in.
// A parent is the informant of a child's visit ("mother says he has had fever for 2 days"): not counted.
const SOMEONE_ELSES = /\b(?:wife|husband|partner|son|daughter|brother|sister|kids|children|boyfriend|girlfriend|friend|coworkers?|colleagues?|roommate)\s+(?:also\s+)?(?:has had|had|has been|have had|was|were)\b[^(),;.]*$/;

// "I had a similar rash five years ago": when an earlier episode was, not how long this one has lasted.
const EARLIER_EPISODE_BEFORE = /\b(?:had|got|was treated for)\s+(?:a|an|the)\s+(?:similar|same|previous|earlier)\b[^,;.]*$/;
// "I was on antibiotics for ten days but the sore throat is still there": the length of a course of treatment.
const COURSE_BEFORE =
  /\b(?:on|took|taking|taken|used|using|had|finished|completed|tried)\s+(?:(?:the|some|a|an|my|his|her|their)\s+)?(?:(?:course|dose)\s+of\s+)?(?:antibiotics?|medications?|medicines?|meds|tablets?|pills?|steroids?|painkillers?|pain killers?|treatment|inhalers?|creams?|drops)\s*$/;

function complaintDurations(s: Sentence, scope: Scope): DurationHit[] {
  return durationsOf(s).filter(
    (d) =>
      !d.episode && d.start >= scope.from && d.end <= scope.to && !scope.masked.some(([x, y]) => d.start < y && d.end > x) &&
      !WORSE.test(s.text.slice(0, d.start)) && !ATTRIBUTE_AFTER.test(s.text.slice(d.end)) && !SOMEONE_ELSES.test(s.text.slice(0, d.start)) &&
      !COURSE_BEFORE.test(s.text.slice(0, d.start)) && !EARLIER_EPISODE_BEFORE.test(s.text.slice(0, d.start)),
  );
}

/**
 * Negation for a complaint: a cue before it whose scope runs over a list of findings only ("no fever, cough or
 * vomiting"), so in unpunctuated speech "no blood vomiting since yesterday" or "no fever at home passing less urine"
 * asserts the second. A cue inside a complaint's own phrase ("not eating well") negates nothing after it.
 */
function negated(s: Sentence, it: Item, tokens: Token[], spans: { start: number; end: number }[]): boolean {
  if (it.timed) return false;
  const cue = negationCues(s.text.slice(0, it.start))
    .filter(([a, b]) => !spans.some((m) => a >= m.start && b <= m.end))
    .pop();
  if (!cue || endsScope(s.text.slice(cue[1], it.start))) return false;
  return listUpTo(s, cue[1], it.start, tokens, spans);
}

const QUALIFIER = new Set(['at', 'on', 'in', 'during', 'after', 'while', 'when']);
const ADJECTIVE = /^[a-z]{4,}(?:al|ic|ar|ous|ive|ary|ory|eal|ial)$/;

/** True when the words in [from, to) are only a list of findings and its joining words ("cough, pnd, or fever"). */
function listUpTo(s: Sentence, from: number, to: number, tokens: Token[], spans: { start: number; end: number }[]): boolean {
  const known = (t: Token): boolean =>
    FILLER.has(t.text) || SIDE.has(t.text) || !!SITES[t.text] || LIST_WORD.has(t.text) || MODIFIER.has(t.text) || spans.some((m) => t.start >= m.start && t.end <= m.end);
  const between = tokens.filter((t) => t.start >= from && t.end <= to);
  // "no constitutional complaints such as fevers or chills" (not "don't have quite as much shortness of breath").
  const suchAs = (k: number): boolean => between[k]!.text === 'as' && between[k - 1]?.text === 'such';
  // "denies abnormal bleeding such as blood in urine or nosebleed": the kind the examples are of, up to two words.
  const kindOf = (k: number): boolean => {
    for (let j = k + 1; j <= k + 2 && j + 1 < between.length; j++) {
      if (between[j]!.text === 'such' && between[j + 1]!.text === 'as') return between.slice(k, j).every((t) => /^[a-z][a-z-]*$/.test(t.text) && !ITEM_STOP.test(t.text));
    }
    return false;
  };
  // "denied any associated tonic/clonic movement, incontinence …": an item of up to three words the vocabulary lacks,
  // opening the list or after its comma, and closed by the next comma or "or".
  // Not a clause: no pronoun, no "then", no verb in -ing but one joined by a hyphen ("tongue-biting", not "without
  // sounding good, like diarrhoea").
  const itemWord = (t: Token): boolean =>
    /^[a-z][a-z0-9/'-]*$/.test(t.text) && !ITEM_STOP.test(t.text) && (!t.text.endsWith('ing') || s.text[t.start - 1] === '-');
  const inItem = new Set<number>();
  for (let p = 0; p < between.length; p++) {
    if (p > 0 && !/^(?:,|or|nor)$/.test(between[p - 1]!.text)) continue;
    let q = p;
    let unknown = 0;
    while (q < between.length && itemWord(between[q]!) && (known(between[q]!) || ++unknown <= 3)) q++;
    // "doesn't smell very, it smells a bit weird": a restart, not the next item.
    const restart = ITEM_STOP.test(between[q + 1]?.text ?? '');
    if (q > p && /^(?:,|or|nor)$/.test(between[q]?.text ?? '') && !restart) for (let k = p; k < q; k++) inItem.add(k);
  }
  // "denies any drainage or discharge", "denied any urinary disturbances, hematuria": a word the vocabulary lacks
  // is an item of the list when "or" or the list's comma follows it, as is a qualifier of an item ("… at rest,").
  const alternative = (k: number): boolean => {
    let j = k + 1;
    while (QUALIFIER.has(between[k]!.text) && j < k + 3 && j < between.length && /^[a-z]+$/.test(between[j]!.text) && !LIST_WORD.has(between[j]!.text)) j++;
    while (j < between.length && LIST_WORD.has(between[j]!.text) && !/^(?:or|nor|,)$/.test(between[j]!.text)) j++;
    // Not a speaker's aside: "no, I feel, you know, generally tired".
    const aside = /^(?:i|you|we|he|she|they)$/.test(between[k - 1]?.text ?? '');
    return /^[a-z]+$/.test(between[k]!.text) && !aside && /^(?:or|nor|,)$/.test(between[j]?.text ?? '');
  };
  // "no supraglottic edema": one word shaped like an adjective straight before the finding describes it.
  const describes = (k: number): boolean => k === between.length - 1 && ADJECTIVE.test(between[k]!.text);
  return between.every((t, k) => known(t) || suchAs(k) || kindOf(k) || inItem.has(k) || alternative(k) || describes(k) || (between[k - 1]?.text === ',' && LIST_ITEM.test(s.text.slice(between[k - 1]!.start, between[k + 1]?.start ?? to).trim())));
}

/** "Kind of" and "sort of" hedge the words after them: "the skin is kind of cracked" is the skin cracked. */
function hedgeAt(tokens: Token[], k: number): boolean {
  const t = tokens[k]!.text;
  if (t === 'kind' || t === 'sort') return tokens[k + 1]?.text === 'of';
  return t === 'of' && /^(?:kind|sort)$/.test(tokens[k - 1]?.text ?? '');
}

/** "On the left-hand side": the hand of a side, not a hand. */
function handSide(tokens: Token[], k: number): boolean {
  return tokens[k]!.text === 'hand' && tokens[k + 1]?.text === 'side' && /^(?:left|right)$/.test(tokens[k - 1]?.text ?? '');
}

// Why a drug was stopped: "she stopped her digoxin last year because of nausea", "stopped the trazodone because it made
// her groggy": the drug's side effect, told as history, not what the visit is for.
// (Not "I stopped going to the gym because of the pain in my knee": what was stopped must be a drug.)
const STOPPED_FOR = /\b(?:stopped|discontinued|came off|come off|taken off|couldn't tolerate|could not tolerate|intolerant (?:of|to))\s+([^.;?]{0,60}?)\s*\b(?:because(?: of)?|due to|owing to|as it|since it)\b[^.;?]{0,40}$/;
const STOPPED_FOR_WITHIN = 120;
const DRUG_STOPPED = /^(?:taking |using )?(?:(?:the|her|his|my|your|their|all|these|those)\s+)*(?:medications?|medicines?|meds|tablets?|pills?|drugs?|injections?|inhalers?|it|them)\b/;

// "Metformin was stopped two years ago due to diarrhea."
const STOPPED_FOR_PASSIVE = /\b([a-z-]+)\s+(?:was|were|had been|has been|got)\s+(?:stopped|discontinued|withdrawn)\b[^.;?]{0,40}\b(?:because(?: of)?|due to|owing to|as it|since it)\b[^.;?]{0,40}$/;
const DRUG_NOUN = /^(?:medications?|medicines?|meds|tablets?|pills?|drugs?|injections?|inhalers?)$/;

// What a drug once did: "he was previously on amlodipine but this caused ankle swelling", "lisinopril led to a dry
// cough": the drug's side effect, told as history. ("It's caused some diarrhoea", "has caused": still going on.)
const CAUSED_BEFORE = /(?<!\b(?:has|have|it's|that's|they've|it has)\s+)\b(?:caused|gave (?:me|her|him|them|you)|led to|resulted in|brought on)\s+(?:(?:a|an|some|bad|severe|significant|mild|marked|her|his|my|their)\s+)*$/;

const wordAt = (text: string, w: string): boolean => new RegExp(String.raw`\b${w}\b`).test(text);

/**
 * "Cold hands, tiredness, bad dreams?" – "A bit of cold hands …": the answer names one of the options listed, one the
 * vocabulary has no symptom for; its yes is for that option, not for the others. The options are the short ones said
 * in a row with a symptom the vocabulary knows; a body site they share ("any weakness or instability in the legs?" –
 * "my legs feel wobbly") picks none.
 */
const OPTION_LEAD = /^\s*(?:(?:any|some|a|an|the|or|and|how about|what about|do you have|have you had|have you got)\s+)*/;
const MAX_OPTION_WORDS = 3;

function pickedOption(question: Sentence, from: number, items: Item[], answer: string): boolean {
  const segments = [...question.text.slice(from).matchAll(/[^,;?.]+/g)].flatMap((m) => {
    let at = from + m.index;
    return m[0].split(/\b(?=or\b|and\b)/).map((part) => {
      const text = part.replace(OPTION_LEAD, '');
      const o = { text, at: at + part.length - text.length, short: text.trim().split(/\s+/).filter(Boolean).length <= MAX_OPTION_WORDS };
      at += part.length;
      return o;
    });
  });
  const holds = (o: { text: string; at: number }): boolean => items.some((it) => it.start < o.at + o.text.length && it.end > o.at);
  const k = segments.findIndex(holds);
  if (k < 0 || !segments[k]!.short) return false;
  let a = k;
  let b = k;
  while (a > 0 && segments[a - 1]!.short) a--;
  while (b + 1 < segments.length && segments[b + 1]!.short) b++;
  const options = segments.slice(a, b + 1);
  return options.length >= 2 && options.some((o) => !holds(o)
    && o.text.split(/[^a-z'-]+/).some((w) => w.length > 3 && !FILLER.has(w) && !DRUG_WORDS.has(w) && !(w in SITES) && !items.some((it) => wordsOf(it.name).includes(w)) && wordAt(answer, w)));
}

function drugCaused(before: string): boolean {
  const m = CAUSED_BEFORE.exec(before);
  return !!m && before.slice(0, m.index).split(/[.;?]/).at(-1)!.split(/[^a-z-]+/).some((w) => DRUG_WORDS.has(w));
}

// "i was taking ibuprofen … but my stomach started hurting so i stopped that": the reason a drug named before it was
// stopped, said after the symptom.
const SO_STOPPED = /^[^.;?]{0,40}?\bso\s+(?:i|she|he|we|they)\s+(?:stopped|came off|quit)\s+(?:it|that|them|taking|the)\b/;

function stoppedAfter(before: string, after: string): boolean {
  return SO_STOPPED.test(after) && before.split(/[^a-z-]+/).some((w) => DRUG_WORDS.has(w));
}

function stoppedFor(before: string): boolean {
  const m = STOPPED_FOR.exec(before);
  if (m && (DRUG_STOPPED.test(m[1]!) || m[1]!.split(/\s+/).some((w) => DRUG_WORDS.has(w)))) return true;
  const passive = STOPPED_FOR_PASSIVE.exec(before);
  return !!passive && (DRUG_WORDS.has(passive[1]!) || DRUG_NOUN.test(passive[1]!));
}

/** A symptom said to have gone (or put down to an old cause, or the reason a drug was stopped), after it in its clause or just before it. */
function resolved(s: Sentence, it: Item, next: number): boolean {
  return RESOLVED_AFTER.test(s.text.slice(it.end, next)) || OLD_CAUSE_AFTER.test(s.text.slice(it.end, next)) || RESOLVED_BEFORE.test(s.text.slice(Math.max(0, it.start - 40), it.start))
    || stoppedFor(s.text.slice(Math.max(0, it.start - STOPPED_FOR_WITHIN), it.start)) || drugCaused(s.text.slice(Math.max(0, it.start - STOPPED_FOR_WITHIN), it.start))
    || stoppedAfter(s.text.slice(Math.max(0, it.start - STOPPED_FOR_WITHIN), it.start), s.text.slice(it.end));
}

// "Once I'm on my feet all day it starts to ache": being on one's feet is standing, not where it aches.
const standingUp = (text: string, t: Token): boolean => t.text === 'feet' && /\bon (?:my|your|his|her|their|our) $/.test(text.slice(Math.max(0, t.start - 12), t.start));

/** The complaints of a sentence; a kind said without its site ("some pain") goes to `bare`, for a site said later. */
function segmentItems(s: Sentence, female: boolean, scope: Scope, lastSite?: string, bare?: Item[], denied?: Item[], askedSite?: string): Item[] {
  const inScope = (a: number, b: number): boolean => a >= scope.from && b <= scope.to && !scope.masked.some(([x, y]) => a < y && b > x);
  const durations = complaintDurations(s, scope);
  const allDurations = durationsOf(s);
  const inDuration = (t: Token): boolean => allDurations.some((d) => t.start >= d.start && t.end <= d.end);
  // "throat's", "mom's": the possessive or "is" is not part of the word.
  const tokens = s.tokens
    .filter((t, k) => inScope(t.start, t.end) && !inDuration(t) && !handSide(s.tokens, k))
    .map((t) => ({ ...t, text: t.text.replace(/'s$/, '') }));
  const content = tokens.filter((t, k) => !FILLER.has(t.text) && !SIDE.has(t.text) && !/^(?:[,;:?]|\d.*)$/.test(t.text) && !hedgeAt(tokens, k));
  // "temperature 101" is a vital sign, "fever of 102" a complaint, and so is "a temperature for 2 days".
  // An answer word is no phrase's first word: "no, I'm feeling good" holds no "no feeling".
  const stops = tokens.filter((t, k) => /^[,;:?]$/.test(t.text) && ANSWER_WORD.test(tokens[k - 1]?.text ?? ''));
  // "she falls asleep a lot during feeds": falling asleep is no fall.
  const matches = withoutRemedies(s, INDEX.findAll(content)).filter(
    (m) =>
      !(/^temp/.test(m.key) && TEMPERATURE_VALUE.test(s.text.slice(m.end))) &&
      !stops.some((t) => t.start > m.start && t.end < m.end) &&
      !(/^(?:fall|falls|fell|falling)$/.test(m.key) && /^\s+asleep\b/.test(s.text.slice(m.end))),
  );
  const inMatch = (t: Token): boolean => matches.some((m) => t.start >= m.start && t.end <= m.end);
  // Segments end at punctuation, connectors and durations that are not inside a vocabulary match.
  const segments: Token[][] = [[]];
  let lastEnd = -1;
  // A duration or a left-out part (a heading, a vital sign) between two words ends the segment.
  const gaps: (readonly [number, number])[] = [...allDurations.map((d) => [d.start, d.end] as const), ...scope.masked];
  let pastGoesOn = false;
  for (const [k, t] of tokens.entries()) {
    const afterDuration = gaps.some(([a, b]) => a >= lastEnd && b <= t.start && b > a);
    lastEnd = t.end;
    // A denial starts a clause of its own: "my skin is red i don't have any spots".
    const denial = NEGATION_WORD.test(t.text) && !inMatch(t);
    if ((afterDuration || denial) && segments[segments.length - 1]!.length) segments.push([]);
    const goesOn = pastGoesOn;
    pastGoesOn = false;
    if ((/^[,;:?]$/.test(t.text) || CONNECTOR.has(t.text)) && !inMatch(t)) {
      if (segments[segments.length - 1]!.length && !goesOn) segments.push([]);
      continue;
    }
    segments[segments.length - 1]!.push(t);
    // Said without punctuation, an earlier episode's time closes its clause: in "he had pneumonia in the past mild
    // headache since yesterday" the headache is now; but "a spinning he had in the past with vertigo" goes on.
    if (PAST_LAST_WORDS.has(t.text) && PAST_END.test(s.text.slice(Math.max(0, t.end - 40), t.end))) {
      if (PAST_GOES_ON.has(tokens[k + 1]?.text ?? '')) pastGoesOn = true;
      else segments.push([]);
    }
  }
  const items: Item[] = [];
  // A site said alone in a clause of this sentence is what "it" in a later one is ("it's mainly in my left arm, it's
  // feeling a bit painful").
  let siteSaid: string | undefined;
  let lone: { site: string; start: number; end: number } | undefined;
  for (const seg of segments) {
    if (!seg.length) continue;
    const segStart = seg[0]!.start;
    const segEnd = seg[seg.length - 1]!.end;
    const segText = s.text.slice(segStart, segEnd);
    if (PAST.test(segText)) continue;
    const segMatches = matches.filter((m) => m.start >= segStart && m.end <= segEnd);
    const words = seg.filter((t) => !FILLER.has(t.text));
    if (!words.length) continue;
    const sites = words.map((t, i) => (SITES[t.text] && !inMatch(t) && !standingUp(s.text, t) && !sideOfAPart(words, i) ? i : -1)).filter((i) => i >= 0);
    // "The left side of the chest" is the chest.
    const siteIdx = sites.find((i) => words[i]!.text !== 'side') ?? sites[0] ?? -1;
    const found: Item[] = [];
    for (const { re, name } of WEIGHT_CHANGE) {
      re.lastIndex = 0;
      const m = re.exec(segText);
      if (m) found.push({ name, start: segStart + m.index, end: segStart + m.index + m[0].length });
    }
    if (words.some((t) => LESION.test(t.text)) || segMatches.some((m) => m.payload.some((n) => LESION.test(n)))) {
      // "a CT scan revealed an intramedullary lesion at C2-3 and an extramedullary lesion at C6-7": imaging findings.
      if (IMAGING_FOUND.test(s.text.slice(0, segStart))) continue;
      const item = describedLesion(words, segMatches);
      if (item) items.push({ ...item, ...(siteIdx >= 0 ? { site: siteAt(words, siteIdx) } : {}) });
      continue;
    }
    const used = new Set<Token>();
    for (const m of segMatches) {
      if (found.some((f) => f.start <= m.start && f.end >= m.end)) continue;
      const at = words.findIndex((t) => t.start === m.start);
      // Modifiers and a side just before the phrase belong to it ("dry cough", "left ear pain").
      let k = at;
      while (k > 0 && (MODIFIER.has(words[k - 1]!.text) || SIDE.has(words[k - 1]!.text))) k--;
      const before = words.slice(Math.max(0, k), Math.max(0, at));
      before.forEach((t) => used.add(t));
      const inside = words.filter((t) => t.start >= m.start && t.end <= m.end);
      const side = [...before, ...inside].find((t) => SIDE.has(t.text))?.text;
      const mods = before.filter((t) => MODIFIER.has(t.text)).map((t) => t.text);
      const after = s.text.slice(m.end, segEnd);
      for (const n of m.payload) {
        let name = withSide(n, side);
        if (mods.length && !name.startsWith(mods.join(' '))) name = `${mods.join(' ')} ${name}`;
        if (EXERTIONAL.has(n) && STAIRS.test(after)) name += ' on climbing stairs';
        else if (EXERTIONAL.has(n) && EXERTION.test(after)) name += ' on exertion';
        if (POSTURAL.has(n) && STANDING.test(after)) name += ' on standing';
        found.push({ name, start: before.length ? before[0]!.start : m.start, end: m.end });
      }
    }
    // A site with kinds of trouble, said in either order: "my knee is killing me", "redness pain and watering in
    // the right eye", "swelling of the left leg"; "it hurts" is the site last spoken of. A pain word names the kind
    // over a describing one ("burning pain").
    const kinds = words.filter((t) => KIND.has(t.text) && !inMatch(t) && !used.has(t));
    const painWord = kinds.find((t) => KIND.get(t.text) === '{site} pain');
    const kindToks = kinds.filter((t) => !(painWord && t !== painWord && MODIFIER.has(t.text)));
    if (siteIdx >= 0 && !found.length && !kinds.length && words.every((t) => SITES[t.text] || SIDE.has(t.text) || POSITION.has(t.text))) {
      // "pain in the chest and back": a site alone after "and" is one more site of the complaint before.
      const prev = items[items.length - 1];
      if (!prev?.site) siteSaid = siteAt(words, siteIdx);
      if (!prev?.site) lone = { site: siteAt(words, siteIdx), start: segStart, end: segEnd };
      if (prev?.site) {
        // The site joins the one named ("left arm and shoulder pain"), or follows a name without one ("headache").
        const more = `${prev.site} and ${siteAt(words, siteIdx)}`;
        // A name that is no site's trouble ("seizure" of "jerking in my arm and leg") takes no site in it.
        if (!prev.name.includes(prev.site) && !PAIN_NAMES.has(prev.name.split(" and ")[0]!)) continue;
        prev.name = prev.name.includes(prev.site) ? prev.name.replace(prev.site, more) : `${prev.name} and ${siteAt(words, siteIdx)}`;
        prev.site = more;
        prev.end = segEnd;
      }
      continue;
    }
    // "Tummy pain mainly on the left side": the side of a complaint that names its own site.
    const sited = words.some((t) => SITES[t.text] && t.text !== 'side' && inMatch(t));
    const sideOf = sited && found.length && siteIdx >= 0 && words[siteIdx]!.text === 'side' ? words[siteIdx - 1]?.text : undefined;
    if (sideOf !== undefined) {
      // Only a complaint with a site takes the side: "loose stool diarrhea a bit of tummy pain mainly on the left hand
      // side" said without commas is left abdominal pain, not left loose stools.
      const sitedName = (name: string): boolean => hasSite(name) || name.split(' ').some((w) => REGION_ADJECTIVES.has(w) || SITE_STEMS.has(w.slice(0, 5)));
      if (SIDE.has(sideOf)) for (const f of found) if (!f.name.split(' ').some((w) => SIDE.has(w)) && sitedName(f.name)) f.name = `${sideOf} ${f.name}`;
      items.push(...found.sort((a, b) => a.start - b.start));
      continue;
    }
    const site = siteIdx >= 0 ? siteAt(words, siteIdx) : /\bit\b/.test(segText) ? (siteSaid ?? lastSite) : THE_PAIN.test(segText) ? askedSite : undefined;
    if (siteIdx >= 0 && !found.length && !kindToks.length && words[siteIdx]!.text !== 'side') siteSaid = site;
    for (const f of found) {
      const kind = site ? bareKind(f.name) : undefined;
      if (kind) f.name = siteName(kind, site!);
      if (site) f.site = site;
      if (siteIdx >= 0) f.end = Math.max(f.end, words[siteIdx]!.end);
    }
    const named = new Set(found.map((f) => f.name));
    const matched = found.length > 0;
    for (const t of kindToks) {
      const kind = KIND.get(t.text)!;
      const mods = t === painWord ? kinds.filter((x) => x !== t && MODIFIER.has(x.text) && x.start < t.start).map((x) => x.text) : [];
      const name = [...mods, site ? siteName(kind, site) : KIND_NOUN[kind]!].join(' ');
      // "any specific injury": a kind with no name of its own is nothing without its site.
      if (!name || named.has(name) || (!site && matched && NEEDS_SITE.has(name))) continue;
      named.add(name);
      const from = siteIdx >= 0 ? Math.min(words[siteIdx]!.start, t.start) : t.start;
      const to = siteIdx >= 0 ? Math.max(words[siteIdx]!.end, t.end) : t.end;
      found.push({ name, start: from, end: to, ...(site ? { site } : {}) });
    }
    // "Bright red bleeding": a kind that needs a site ("red") does not stand for the symptom word said with it.
    if (found.every((f) => NEEDS_SITE.has(f.name)) && words.some((t) => HEAD.has(t.text) && !KIND.has(t.text))) {
      found.length = 0;
      const item = described(words);
      if (item) found.push(item);
    }
    // Only the last complaint before the duration is the one it times: in "no fever i had a temperature last week"
    // the week is the temperature's, and the fever stays denied.
    const nextFound = (f: Item, d: DurationHit): boolean => found.some((o) => o !== f && o.start >= f.end && o.end <= d.start);
    for (const f of found) f.timed = durations.some((d) => d.start >= f.end && !/\S/.test(s.text.slice(segEnd, d.start).replace(/[,]/g, '')) && d.start - f.end < 40 && !nextFound(f, d));
    // "neck and shoulder pain", "neck and lower back pain": a site said alone just before is the complaint's too.
    // "neck and shoulder pain", "neck and lower back pain": a site said alone just before is the complaint's too.
    const joined = lone && found.find((f) => SITE_JOIN.test(s.text.slice(lone!.end, f.start)));
    const siteWord = joined && (joined.site ?? joined.name.split(' ').find((w) => SITES[w] || SITE_WORDS.has(w)));
    const painName = !!joined && PAIN_NAMES.has(joined.name) && joined.name.endsWith(' pain');
    if (lone && joined && siteWord && (painName || joined.name.includes(siteWord))) {
      // "my right wrist and hand … pain" is the right hand's too: the side is said once.
      const first = joined.name.split(' ').some((w) => SIDE.has(w)) ? lone.site.split(' ').filter((w) => !SIDE.has(w)).join(' ') : lone.site;
      joined.name = painName ? `${first} and ${joined.name}` : joined.name.replace(siteWord, `${first} and ${siteWord}`);
      joined.site = `${first} and ${siteWord}`;
      joined.start = lone.start;
    }
    lone = undefined;
    items.push(...found.sort((a, b) => a.start - b.start));
  }
  // "painful redness and swelling of the left lower leg": a bare kind shares the next complaint's site.
  items.forEach((it, k) => {
    const next = items.slice(k + 1).find((n) => n.site);
    const kind = bareKind(it.name);
    if (kind && next?.site) {
      it.name = [...it.name.split(' ').slice(0, -1), siteName(kind, next.site)].join(' ');
      it.site = next.site;
    }
  });
  joinSensations(s, items);
  withTriggers(s, items);
  // "extremely itchy watery eyes": the itching is part of the longer complaint it was said in.
  // A speaker's restart ("i've been coughing up i've been coughing up blood") says the complaint once, in full.
  const said = (it: Item): string => s.text.slice(it.start, it.end);
  const restarted = (it: Item): boolean => items.some((o) => o.start > it.start && said(o).length > said(it).length && said(o).startsWith(said(it)));
  const whole = items.filter(
    (it) => !items.some((o) => o !== it && o.start <= it.start && o.end >= it.end && o.end - o.start > it.end - it.start) && !restarted(it),
  );
  items.splice(0, items.length, ...whole);
  const spans = [...matches, ...items];
  const after = postNegationCues(s.text);
  const nextStart = (it: Item): number => items.find((n) => n.start >= it.end)?.start ?? s.text.length;
  const named = items.map((it) => (female ? { ...it, name: it.name.replace(/\bgenital itching\b/, 'vulval itching') } : it));
  const isNegated = (it: Item): boolean => {
    const others = spans.filter((m) => m.start !== it.start);
    return negated(s, it, tokens, others) || after.some(([a]) => a >= it.end && listUpTo(s, it.end, a, tokens, others));
  };
  denied?.push(...named.filter((it) => isNegated(it) || resolved(s, it, nextStart(it))));
  const kept = named
    .filter((it) => !isNegated(it))
    .filter((it) => !resolved(s, it, nextStart(it)))
    .filter((it) => !HEDGED.test(s.text.slice(Math.max(0, it.start - 30), it.start)) && !AGGRAVATES.test(s.text.slice(it.end)))
    .filter((it) => !FINDING.test(s.text.slice(Math.max(0, it.start - 30), it.start)) && !UMBRELLA_AFTER.test(s.text.slice(it.end)));
  bare?.push(...kept.filter((it) => NEEDS_SITE.has(it.name)));
  return kept.filter((it) => !NEEDS_SITE.has(it.name));
}

/**
 * Symptom words that name a remedy, not a complaint: right after a drug's name ("Tylenol cough and cold", and the
 * words joined to it) or before a remedy noun ("cough syrup", "allergy tablets").
 */
function withoutRemedies<T extends { start: number; end: number }>(s: Sentence, matches: T[]): T[] {
  const dropped: T[] = [];
  const before = (at: number): Token | undefined => s.tokens.findLast((t) => t.end <= at);
  for (const m of matches) {
    const prev = before(m.start);
    const joined = prev && /^(?:and|&|,)$/.test(prev.text) && dropped.some((d) => d.end <= prev.start && !/\S/.test(s.text.slice(d.end, prev.start)));
    const next = s.tokens.find((t) => t.start >= m.end);
    if ((prev && DRUG_WORDS.has(prev.text)) || joined || (next && REMEDY_NOUNS.has(next.text))) dropped.push(m);
  }
  return matches.filter((m) => !dropped.includes(m));
}

/** True when one name is the other's words with more around them: "rash" in "itchy rash on both arms". */
function within(short: string, long: string): boolean {
  return long.length > short.length && ` ${long} `.includes(` ${short} `);
}

/** A name without the words that only describe it ("persistent discharge" → discharge). */
function unqualified(name: string): string {
  return name.split(' ').filter((w) => !MODIFIER.has(w)).join(' ');
}

/** The sensation a complaint names ("tingling in right hand" → tingling), when it is one said together with others. */
function sensationOf(name: string): string | undefined {
  return [...JOINT_SENSATIONS].find((j) => name === j || name.startsWith(`${j} `));
}

/** Sensations said together are one complaint: "numbness and tingling in my right hand", "shaky and weak all over". */
function joinSensations(s: Sentence, items: Item[]): void {
  for (let k = items.length - 2; k >= 0; k--) {
    const a = items[k]!;
    const b = items[k + 1]!;
    const first = sensationOf(a.name);
    if (!first || !sensationOf(b.name) || (a.site && a.site !== b.site) || !/^\s*,?\s*(?:and|or|&|\/)\s*$/.test(s.text.slice(a.end, b.start))) continue;
    items.splice(k, 2, { ...b, name: `${first} and ${b.name}`, start: a.start, timed: a.timed || b.timed });
  }
}

/** A pain with what brings it on, said after it: "pain with the bowel movement" → pain with bowel movement. */
function withTriggers(s: Sentence, items: Item[]): void {
  for (const it of items) {
    if (!TRIGGERED.test(it.name) || TRIGGER_SAID.test(it.name) || / on (?:exertion|standing|climbing stairs)$/.test(it.name)) continue;
    const m = TRIGGER_AFTER.exec(s.text.slice(it.end));
    if (!m) continue;
    it.name = `${it.name} ${m[1]} ${m[2]}`;
    it.end += m[0].length;
  }
}

/**
 * A complaint named by its own words around the symptom word: "thick white vaginal discharge", "bleeding from the
 * gums", at most four words before it and its site after it.
 */
function described(words: Token[]): Item | undefined {
  const h = words.findIndex((t) => HEAD.has(t.text));
  // Only words that describe it ("thick white vaginal"): "did have a little bit of bleeding" is bleeding.
  const describes = (t: Token): boolean =>
    MODIFIER.has(t.text) || SIDE.has(t.text) || !!SITES[t.text] || /^(?:bright|dark|light|pale|deep|mild|severe|small|large|big|new|fresh|heavy)$|^[a-z]{3,}(?:al|ar|ic|ile|ous)$/.test(t.text);
  let from = h;
  while (from > Math.max(0, h - 4) && describes(words[from - 1]!)) from--;
  let to = h;
  while (to + 1 < words.length && to - h < 4 && /^(?:of|in|on|over|from|at|left|right|both|upper|lower)$|^[a-z]+$/.test(words[to + 1]!.text) && (SITES[words[to + 1]!.text] || /^(?:of|in|on|over|from|at|left|right|both|upper|lower)$/.test(words[to + 1]!.text))) to++;
  const kept = words.slice(from, to + 1);
  const name = tidy(kept.map((t) => t.text).join(' '));
  if (!name) return undefined;
  return { name, start: kept[0]!.start, end: kept[kept.length - 1]!.end };
}

const LESION_TALK = /^(?:as|well|least|must|might|may|maybe|just|really|help|helps|helped|through|me|it|this|that|these|those|i|you|we|they|which|there|there's|now|what|think|caused|causes|except|can't|cannot|could|would|should|will|ok|okay|righty|ho|know|seeing|see|saw|be|been|so|but|then|also|other|another|because|about|if|when|where|which|who|why|how|yes|yeah|no|not|get|got|getting|had|have|has|did|do|does|is|are|was|were)$/;
const LESION_VERB = /^(?:does|do|did|is|are|was|were|has|have|had|get|gets|got|getting|see|seen|saw|notice|noticed|describe|put|go|goes|come|comes|feel|feels|felt|found|find|discovered)$/;
// How many were found is no part of the description: "two lumps" is lumps.
const LESION_COUNT = /^(?:\d+|several|multiple|few|couple|of|many|numerous)$/;
const LESION_PLACE = /^(?:on|over|in|around|across|of|and|all|under|below|above|behind|near|between|along|arms?|legs?|side|sides|area|areas|body|face|trunk|torso|hands?|feet|foot|skin|part|aspect|portion|region|surface|medial|lateral|anterior|posterior|proximal|distal|dorsal|plantar|palmar|mesial|inner|outer|top|bottom)$/;
const LESION_NOUN_PLACE = /^(?:arms?|legs?|side|sides|areas?|body|face|trunk|torso|hands?|feet|foot|skin|part|aspect|portion|region|surface|top|bottom)$/;
const INTERNAL_PLACE = /^(?:in|of|on|within|involving)\s+(?:(?:the|her|his|their|both)\s+)?(?:brain|liver|lungs?|kidneys?|spine|spinal|bones?|pancreas|spleen|adrenals?|thyroid|ovar(?:y|ies)|uterus|bladder|prostate|colon|bowel|heart|mediastinum|abdomen|pelvis|stomach|cerebellum|cortex)\b/;
/** A skin lesion as described, with lay words for the lesion in the note's wording ("round rings" → ring shaped rash). */
function describedLesion(words: Token[], matches: { start: number; end: number; payload: string[] }[]): Item | undefined {
  // What was put on it is no part of its description: "cortisone cream on the areas of the rash" is the rash.
  // A lesion may be a phrase's ("canker sores" → mouth ulcers): where that phrase starts and ends.
  const lesionMatch = (t: Token) => matches.find((m) => m.start === t.start && m.payload.some((n) => LESION.test(n)));
  const lesionAt = words.findIndex((t) => LESION.test(t.text) || !!lesionMatch(t));
  const lesionEnd = lesionAt >= 0 ? (lesionMatch(words[lesionAt]!)?.end ?? words[lesionAt]!.end) : -1;
  // "a Lidoderm patch", "pain patches": the drug's form, a remedy.
  const before = words[lesionAt - 1]?.text ?? '';
  if (lesionAt > 0 && (DRUG_WORDS.has(before) || (REMEDY_NOUNS.has(words[lesionAt]!.text) && before === 'pain'))) return undefined;
  // Without full stops a segment may run long: at most five describing words, after any verb of telling.
  // Nor is what comes before a denial of it ("skin red i don't have any spots"): the denial is the context's to judge.
  const remedy = Math.max(lesionAt - 6, words.slice(0, lesionAt).findLastIndex((t) => DRUG_WORDS.has(t.text) || APPLIED.has(t.text) || TELLING.has(t.text) || NEGATION_WORD.test(t.text)));
  // Nor is talk before the description ("now what do you think caused the ulcer", "as well as a rash", "the dose might
  // help me through this patch").
  const talk = lesionAt >= 0 ? words.slice(0, lesionAt).findLastIndex((t) => LESION_TALK.test(t.text)) : -1;
  // Nor who has it: "my son has a rash" is a rash, not a "son rash".
  const who = lesionAt >= 0 ? words.slice(0, lesionAt).findLastIndex((t) => RELATIVE_WORD.test(t.text)) : -1;
  const first = words.findIndex((t, k) => k > remedy && k > talk && k > who && !NEGATION_WORD.test(t.text) && !APPLIED.has(t.text) && !(k < lesionAt && (LESION_VERB.test(t.text) || LESION_COUNT.test(t.text))));
  if (first < 0) return undefined;
  // "several lesions in her brain": a lesion inside the body is an imaging finding, not what the patient has noticed.
  if (lesionAt >= 0 && INTERNAL_PLACE.test(words.slice(lesionAt + 1, lesionAt + 4).map((t) => t.text).join(' '))) return undefined;
  // After the lesion word only where it is describes it ("rash on both arms"), not what it does or when ("does that
  // rash go away", "any rash on your body at the moment").
  let last = words.length;
  if (lesionAt >= 0) for (let k = lesionAt + 1; k < words.length && last === words.length; k++) if (words[k]!.end > lesionEnd && !SITES[words[k]!.text] && !SIDE.has(words[k]!.text) && !POSITION.has(words[k]!.text) && !LESION_PLACE.test(words[k]!.text) && !LESION.test(words[k]!.text)) last = k;
  // …and ends on a place ("rash on medial right calf"), not on a word left before one ("lesion in left anterior").
  while (last - 1 > lesionAt && lesionAt >= 0 && !SITES[words[last - 1]!.text] && !LESION_NOUN_PLACE.test(words[last - 1]!.text)) last--;
  const kept = words.slice(first, Math.max(first + 1, last));
  const parts: string[] = [];
  for (const t of kept) {
    const m = matches.find((x) => x.start === t.start);
    if (m && !(MODIFIER.has(t.text) && m.end === t.end)) parts.push(m.payload.join(' and '));
    else if (!matches.some((x) => t.start > x.start && t.end <= x.end)) parts.push(t.text);
  }
  const name = tidy(parts.join(' '));
  if (!name) return undefined;
  return { name, start: kept[0]!.start, end: Math.max(kept[kept.length - 1]!.end, lesionEnd) };
}

function tidy(name: string): string {
  const n = name
    .replace(/^(?:of|in|on|at|to)\s+/, '')
    .replace(TAIL, '')
    .replace(/^(?:since|for|from|in|on|at)\s+.*$/, '')
    .replace(/\s+(?:and|in|on|of|over|at|to)$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return /^\d/.test(n) ? '' : n;
}

/**
 * Where in the sentence other people's troubles start ("my wife's had enough", "my husband also has itching"), or -1.
 * What comes before is still the patient's: an unpunctuated note runs the story and the family history together.
 */
function othersFrom(s: Sentence, consultation: boolean, aboutOthers = false): number {
  const other = OTHERS.exec(s.text);
  if (other) return other.index;
  const family = FAMILY.exec(s.text);
  // "My son had a fever and now I've got a cough": a patient who speaks of themself after the relative is not the
  // parent telling the child's story.
  return family && (!consultation || aboutOthers || CONTACT.test(s.text) || patientAgain(s, family.index) < Infinity) ? family.index : -1;
}
// Where the patient takes the sentence back from them: "my husband has had a cough and now I have a sore throat".
const PATIENT_AGAIN = /\b(?:and|but|so|now|while)\s+(?:now\s+|then\s+|also\s+)?(?:i|i've|i'm)\b(?!\s+(?:think|guess|mean|know|don't|do not|said|told|asked|was told|heard|wonder))/g;

/** Where in the sentence, after others' troubles start at `from`, the patient's own come back, or Infinity. */
function patientAgain(s: Sentence, from: number): number {
  if (from < 0) return Infinity;
  PATIENT_AGAIN.lastIndex = from;
  return PATIENT_AGAIN.exec(s.text)?.index ?? Infinity;
}
// A sentence whose subject is someone already named: "he had a fever", "and she's got a cough too".
const OTHER_SUBJECT = /^(?:(?:and|so|but|also|then|now)\s+)*(?:he|she|they)(?:'s|'d|'ve| has| had| is| was| were| have| got| also| too| caught| started)\b/;
// "Anyone at home unwell?" – "my son had a cough last week": the answer tells of a contact, not of the patient.
const ABOUT_OTHERS = /\b(?:anyone|anybody|someone|somebody|any of your|others|family members?|people)\b[^?]{0,40}\b(?:unwell|ill|sick|similar|same|symptoms?|poorly)\b|\b(?:anyone|anybody) (?:else|at home|around you|you live with)\b/;

// Report headings that end the story, said inside a sentence when a recogniser drops the colons and full stops.
const OTHER_HEADING =
  /\b(?:past (?:medical|surgical|ocular|psychiatric|gyn\w*|obstetric\w*) history|(?:family|personal|social)(?: medical| and social)? history|review of systems|current medications|(?:physical|general) exam(?:ination)?|[a-z]+ history (?:date|findings|negative|positive|unremarkable|noncontributory))\b/;

// Sections of a report whose sentences tell the present complaints: background history, findings and the plan do
// not; the review of systems only where a sentence reports a symptom as present ("The patient does note some
// pressure in her sinuses", "Positive for fatigue and sweats"), not its list of what was asked and denied.
const COMPLAINT_SECTIONS = new Set<SectionKind>(['complaint', 'history']);
const REVIEW_POSITIVE =
  /\b(?:does note|notes|noted|reports?|reported|endorses?|endorsed|complains? of|complained of|admits? to|(?:only )?positive for|has had some|has been having|is having|c\/o)\b/;
// Inside a headed history only an explicit turn to the examination ends the story: "tender red area" is the complaint.
const EXAM_SAID_FIRST = /^(?:on examination|on exam|o\/e|examination|exam|physical exam\w*)\b/;
const SAID_EXAM = /\b(?:on examination|o\/e|on exam|examination)\b/;
// The doctor turning to the examination in a consultation: "does it hurt when I press here?" is then a finding.
const EXAM_ANNOUNCED =
  /\b(?:(?:do|perform|doing) (?:a |an |your )?(?:quick |brief |little |focused )?(?:physical )?exam(?:ination)?|examine (?:you|your|him|her|the)|(?:on|for) (?:your |the |his |her )?physical exam(?:ination)?)\b/;
// Not an examination now: "I can't examine you over the phone", "I'll examine you in a second, but first …", "we need
// to examine you, come in today".
const NOT_NOW =
  /\b(?:can't|cannot|can not|couldn't|unable to|not able to|won't|not|in a (?:second|sec|minute|moment|bit|little bit)|later|before (?:we|i) do|need to|needs to|have to|important|might|may|in person|face to face|come in)\b/;

// A heading that starts a sentence of a report: "pelvic pain history:", "location:".
const SENTENCE_HEADING = /^([a-z][a-z ,/&'-]{0,40}?)\s*:/;

/**
 * Sentences under a history heading that names a symptom ("PELVIC PAIN HISTORY:", "HEADACHE HISTORY:"), as
 * report templates give the history of each presenting complaint: they tell the complaint, though the heading reads
 * like background history.
 */
function complaintHistorySections(doc: Doc): Set<number> {
  const out = new Set<number>();
  let open = false;
  for (const s of doc.sentences) {
    const h = SENTENCE_HEADING.exec(s.text);
    if (h && headingOf(h[1]!)) {
      const named = / history$/.test(h[1]!) ? h[1]!.replace(/ history$/, '') : '';
      const words = tokenize(named).filter((t) => !FILLER.has(t.text));
      const sitePain = words.some((t) => SITES[t.text]) && words.some((t) => KIND.has(t.text));
      open = words.length > 0 && (sitePain || INDEX.findAll(words).reduce((n, x) => n + x.to - x.from, 0) === words.length);
    }
    if (open) out.add(s.index);
  }
  return out;
}

// A diagnosis said, not a past "diagnosed" nor the story told back ("you have been having …"); "this is a 58 year old
// male" introduces the patient (DIAGNOSIS_CUE lets "this is a 5 year old" pass, not two digits).
const SECTION_CUE = /^(?:diagnosis|impression|assessment)$/;
const diagnosisCue = (s: Sentence): RegExpExecArray | null =>
  DIAGNOSIS_CUE.exec(s.text.replace(/\bdiagnosed\b|\byou(?:'ve| have) been\b|\bthis is (?:a|an) \d+/g, (m) => ' '.repeat(m.length)));

function statesDiagnosis(s: Sentence): boolean {
  return diagnosisCue(s) !== null;
}

// "this is the third day", "you have somewhat of a sweet tooth": a cue that names no condition after it states none
// ("my assessment", "the diagnosis" open one whatever follows).
function namesCondition(s: Sentence): boolean {
  const cue = diagnosisCue(s);
  if (cue && SECTION_CUE.test(cue[0])) return true;
  const from = cue ? s.tokens.findIndex((t) => t.start >= cue.index) : -1;
  return from >= 0 && namesIcdFrom(s.tokens, from);
}

/** The first sentence after the patient's story in which the doctor states a diagnosis or starts examining (or the end). */
function storyEnd(doc: Doc): number {
  const firstPatient = doc.sentences.find((s) => s.speaker === 'patient')?.index ?? 0;
  const end = doc.sentences.findIndex(
    (s) =>
      s.speaker !== 'patient' &&
      s.index >= firstPatient &&
      ((namesCondition(s) && !isQuestion(s) && !toldBack(doc.sentences, s.index)) || (doc.consultation && EXAM_ANNOUNCED.test(s.text) && !NOT_NOW.test(s.text))),
  );
  return end < 0 ? doc.sentences.length : end;
}

/**
 * The sentences complaints are told in, each with the part of it that may hold them. A report with headings is read
 * under its complaint and history headings. Otherwise a dictation's history is read up to the diagnosis, leaving out
 * vital signs and what follows an examination cue; a consultation's from the patient's (or relative's) turns. A past
 * "diagnosed" is not the diagnosis.
 */
function complaintSentences(doc: Doc): { s: Sentence; scope: Scope }[] {
  const headed = doc.sentences.some((s) => s.section !== null);
  const history = new Set(historySentences(doc).map((s) => s.index));
  let end = storyEnd(doc);
  // A dictation without headings that turns to the examination ("on exam she is alert …") tells no more complaints.
  const examAt = doc.consultation ? -1 : doc.sentences.findIndex((s) => s.section === null && EXAM_SAID_FIRST.test(s.text));
  if (examAt >= 0) end = Math.min(end, examAt);
  const symptomHistory = complaintHistorySections(doc);
  const told = (s: Sentence): boolean => {
    if (symptomHistory.has(s.index)) return true;
    if (doc.consultation) return s.speaker === 'patient' && (s.index < end || (s.index >= doc.planStart && history.has(s.index))) && (s.section === null || COMPLAINT_SECTIONS.has(s.section));
    if (headed && s.section !== null) return COMPLAINT_SECTIONS.has(s.section) || (s.section === 'review' && REVIEW_POSITIVE.test(s.text));
    return s.index < end && (history.has(s.index) || s.speaker !== 'doctor');
  };
  // A report read without its colons keeps the section its last spoken heading opened into the next sentences; in
  // a dictation a heading said in passing ("family history of …") only closes the rest of its own sentence.
  const report = !doc.consultation && !headed && opensWithHeading(doc);
  let carried: SectionKind | null = null;
  const out: { s: Sentence; scope: Scope }[] = [];
  for (const s of doc.sentences) {
    const spoken = !doc.consultation && s.section === null ? inlineHeadings(s) : [];
    const opening = report ? carried : null;
    if (spoken.length) carried = spoken[spoken.length - 1]!.kind;
    if (!told(s)) continue;
    const masked: [number, number][] = [];
    // Under a written heading, only a heading the sentence opens with is left out ("chief complaint rash").
    const lead = !doc.consultation && s.section !== null ? inlineHeadings(s).find((h) => h.at === s.tokens[0]?.start) : undefined;
    if (lead) masked.push([lead.at, lead.end]);
    let to = s.text.length;
    // What is said under a spoken heading other than the complaint or its history is no complaint, and the
    // heading's own words are none ("chief complaint rash history of present illness …").
    let kind = opening;
    let from = 0;
    for (const h of [...spoken, { at: s.text.length, end: s.text.length, kind: null }]) {
      if (kind !== null && !COMPLAINT_SECTIONS.has(kind)) masked.push([from, h.at]);
      masked.push([h.at, h.end]);
      from = h.at;
      kind = h.kind;
    }
    masked.push(...notComplaintSpans(s));
    if (!doc.consultation) {
      // Read without its colons, a report runs on into its other headings: the story ends at the first.
      const heading = OTHER_HEADING.exec(s.text);
      if (heading && heading.index > 0 && !/[,:;]/.test(s.text)) to = heading.index;
      VITAL_CLAUSE.lastIndex = 0;
      for (let m = VITAL_CLAUSE.exec(s.text); m; m = VITAL_CLAUSE.exec(s.text)) {
        // "a temperature for 2 days" says how long the fever lasted: no reading.
        const lasted = /^temp/.test(m[0]) && LASTED_NEXT.test(s.text.slice(m.index + m[0].length));
        if (!lasted) masked.push([m.index, m.index + m[0].length]);
      }
      const exam = (s.section !== null ? SAID_EXAM : EXAM_START).exec(s.text);
      if (exam) to = exam.index;
    }
    if (to > 0) out.push({ s, scope: { from: 0, to, masked } });
  }
  return out;
}

/** Current complaints with durations and evidence, in the order told. */
// A question that asks about a complaint already told: "do you get any pain with it", "along with that".
const WITH_IT = /\bwith (?:it|that|this|them|those)\b/;

// A complaint described in the note's words that is a test's result: "bone scan showed right parietal lesion".
const RESULT_NAME = new RegExp(String.raw`\b(?:${alternation(RESULT_WORDS)})\b`);

const BOWEL_COMPLAINT = /\b(?:diarrho?ea|loose (?:stools?|motions?))\b/;
// Words of going to the toilet that do not say what is passed.
const TOILET_ONLY = /^(?!.*\b(?:pee|peeing|urin\w*|water|wee|bladder)\b).*\b(?:toilet|bathroom|loo)\b/;

export function extractComplaints(doc: Doc): Complaint[] {
  const out: Complaint[] = [];
  const byName = new Map<string, Complaint>();
  const said = new Map<Complaint, string>();
  let lastItems: Complaint[] = [];
  // Each complaint told, and in which sentence and section, newest last.
  const toldAt: { c: Complaint; at: number; section: Sentence['section']; turn: number }[] = [];
  // The complaint first told last, and in which sentence: "… I vomited a couple of times. But then that went away."
  let lastNew: { c: Complaint; at: number } | undefined;
  let lastSite: string | undefined;
  let askedSite: string | undefined;
  // The site of the last complaint told with one, which a kind asked about "with it" is at.
  let toldSite: string | undefined;
  let lastTurn = -1;
  let asked: Sentence | undefined;
  // Each item takes the duration said after it; else one said before it that no other complaint took, or one that
  // opens the sentence ("for the last 10 days he feels giddy"). An answer's duration is the whole answer's.
  // `rule` names, for the fact's provenance, how the complaint was told (`npm run eval -- --explain ID`).
  const attach = (s: Sentence, items: Item[], durations: DurationHit[], answer: Duration | undefined, rule: string): void => {
    const taken = new Set<DurationHit>();
    // "a 2-week history of cough and a 3-day history of fever": a time that opens a "history of" is what follows it.
    // A recogniser's run-on report is one sentence: a time told far from a complaint is some other story's.
    const runOn = s.tokens.length > RUN_ON_REPORT;
    const near = (from: number, to: number): boolean => !runOn || s.text.slice(from, to).split(/\s+/).filter(Boolean).length <= DURATION_REACH;
    const afters = items.map((it, k) => durations.find((d) => d.start >= it.end && near(it.end, d.start) && !HISTORY_OF_AFTER.test(s.text.slice(d.start, d.end + 12)) && !(items[k + 1] && items[k + 1]!.start < d.start && NEW_CLAUSE.test(s.text.slice(it.end, items[k + 1]!.start)))));
    afters.forEach((d) => d && taken.add(d));
    // "He fell about a week ago and is complaining of leg pain": the event's time is the pain's too.
    const ofEvent = (d: DurationHit): boolean => items.some((o, j) => afters[j] === d && ONSET_EVENTS.has(o.name));
    items.forEach((it, k) => {
      const before = [...durations].reverse().find((d) => d.end <= it.start && near(d.end, it.start) && (!taken.has(d) || !/\S/.test(s.text.slice(0, d.start)) || ofEvent(d)));
      it.duration = answer ?? (afters[k] ?? before)?.duration ?? it.duration;
    });
    const told: Complaint[] = [];
    for (const it of items) {
      if (RESULT_NAME.test(it.name)) continue;
      if (it.site) toldSite = it.site;
      // "breathlessness" and later "breathlessness on exertion" (or "cough" and "dry cough") are one complaint, named
      // the fuller way.
      const existing =
        byName.get(it.name) ??
        [...byName.values()].find((c) => within(c.name, it.name) || within(it.name, c.name));
      // "persistent discharge" after "vaginal discharge": the same complaint described again, named as first told.
      const head = unqualified(it.name);
      const described = existing || head === it.name || !HEAD.has(head) ? undefined : [...byName.values()].find((c) => c.name.endsWith(` ${head}`));
      if (described) {
        if (it.duration) described.duration ??= it.duration;
        told.push(described);
        continue;
      }
      if (existing) {
        if (it.name.length > existing.name.length) {
          byName.delete(existing.name);
          existing.name = it.name;
          byName.set(it.name, existing);
        }
        if (it.duration) existing.duration ??= it.duration;
        if (!existing.rules!.includes(rule)) existing.rules!.push(rule);
        // Told again, it is among what "it's been 2 months" that follows speaks of.
        told.push(existing);
        continue;
      }
      const c: Complaint = { name: it.name, evidence: s.span(it.start, it.end), ...(it.duration ? { duration: it.duration } : {}), rules: [rule] };
      lastNew = { c, at: s.index };
      said.set(c, s.text.slice(it.start, it.end));
      byName.set(it.name, c);
      out.push(c);
      told.push(c);
    }
    if (told.length) lastItems = told;
    for (const c of told) toldAt.push({ c, at: s.index, section: s.section, turn: s.turn });
  };
  // An event's duration ("since the tick bite"): that of the complaint its words name.
  const sinceEvent = (text: string): Duration | undefined => {
    const m = SINCE_EVENT.exec(text);
    const word = m?.[1]!.split(' ').pop();
    return word ? out.find((c) => c.duration && c.name.split(' ').includes(word))?.duration : undefined;
  };
  const selected = complaintSentences(doc);
  const chosen = new Set(selected.map(({ s }) => s.index));
  let allergyAt = -10;
  let pending: { item: Item; s: Sentence; duration?: Duration } | undefined;
  let floating: Duration | undefined;
  let answerTime: { d: Duration; turn: number } | undefined;
  let recapTurn = -1;
  let recapDuration: Duration | undefined;
  const storyEnds = storyEnd(doc);
  const gone = new Set<string>();
  // The patient turn that answered how long a complaint has lasted.
  const answered = new Map<Complaint, number>();
  // The patient turn in which someone else's troubles were last told.
  let othersTurn = -1;
  for (const s of doc.sentences) {
    if (isQuestion(s)) asked = s;
    if (ALLERGY.test(s.text)) allergyAt = s.index;
    const before = doc.sentences[s.index - 1];
    if (lastNew && lastNew.at === s.index - 1 && before?.speaker === s.speaker && GONE_NEXT.test(s.text)) {
      const k = out.indexOf(lastNew.c);
      if (k >= 0) {
        out.splice(k, 1);
        byName.delete(lastNew.c.name);
        gone.add(lastNew.c.name);
      }
      lastNew = undefined;
    }
    // The doctor examining ("you do have pain on flexion … you said you had some numbness") tells findings: no
    // summary of the story, and the end of one.
    if (doc.consultation && s.speaker === 'doctor' && EXAM_TALK.test(s.text)) recapTurn = -1;
    else if (doc.consultation && s.speaker === 'doctor' && !isQuestion(s) && (RECAP.test(s.text) || recapTurn === s.turn) && !statesDiagnosis(s)) {
      if (recapTurn !== s.turn) recapDuration = undefined;
      recapTurn = s.turn;
      const whole = { from: 0, to: s.text.length, masked: notComplaintSpans(s) };
      recapDuration ??= complaintDurations(s, whole).find((d) => d.duration)?.duration;
      const others = othersFrom(s, doc.consultation);
      // The summary does not bring back what the patient said is gone ("I've stopped vomiting", "no fever now").
      const back = patientAgain(s, others);
      const listed = segmentItems(s, doc.female, whole).filter((it) => (others < 0 || it.start < others || it.start >= back) && (byName.has(it.name) || !gone.has(it.name)));
      attach(s, listed, [], recapDuration, 'complaint.doctor-recap');
      continue;
    }
    const reason = doc.consultation && s.speaker === 'doctor' && !isQuestion(s) ? VISIT_REASON.exec(s.text) : null;
    // "you hurt your knee" tells the story only before the doctor's assessment: after it, "you injured the tendons"
    // explains the diagnosis.
    if (reason && (reason[0] !== '' || s.index < storyEnds)) {
      const from = reason.index + reason[0].length;
      const history = THEN_HISTORY.exec(s.text.slice(from));
      const scope = { from, to: history ? from + history.index : s.text.length, masked: notComplaintSpans(s) };
      attach(s, segmentItems(s, doc.female, scope), [], complaintDurations(s, scope).find((d) => d.duration)?.duration, 'complaint.visit-reason');
      continue;
    }
    if (!chosen.has(s.index)) continue;
    const { scope } = selected.find((x) => x.s === s)!;
    const question = doc.sentences[s.index - 1];
    if (s.turn !== lastTurn) {
      lastTurn = s.turn;
      // "How is your knee?" – "It still hurts": the site the doctor asks after is what the answer's "it" names.
      const askedAfter = doc.consultation && question && question.speaker === 'doctor' && question.turn !== s.turn
        ? ASKED_AFTER_SITE.exec(question.text)?.[1] : undefined;
      lastSite = askedAfter?.replace(/\w+$/, (w) => SITES[w] ?? w);
      askedSite = lastSite;
    }
    // The answer to a question about allergies (or about what an allergy does) tells reactions, not complaints, for
    // the whole answer; in a note, what follows an allergy is the reaction.
    const aboutAllergy = asked && (ALLERGY.test(asked.text) || (REACTION_QUESTION.test(asked.text) && asked.index - allergyAt <= 3));
    if (isQuestion(s) || EFFECT_QUESTION.test(s.text) || (aboutAllergy && s.index - asked!.index <= 3)) continue;
    const allergy = ALLERGY_CLAUSE.exec(s.text);
    if (allergy) scope.to = Math.min(scope.to, allergy.index);
    // "My husband has been sick. He had a fever and a cough last week.": he goes on being the husband.
    const stillOthers = doc.consultation && othersTurn === s.turn && OTHER_SUBJECT.test(s.text);
    const others = stillOthers ? 0 : othersFrom(s, doc.consultation, !!asked && s.index - asked.index <= 2 && ABOUT_OTHERS.test(asked.text));
    othersTurn = others >= 0 && OTHERS.test(s.text.slice(others)) ? s.turn : stillOthers ? othersTurn : -1;
    const durations = complaintDurations(s, scope);
    const bare: Item[] = [];
    const denied: Item[] = [];
    const back = patientAgain(s, others);
    const items = segmentItems(s, doc.female, scope, lastSite, bare, denied, askedSite).filter((it) => others < 0 || it.start < others || it.start >= back);
    for (const d of denied) gone.add(d.name);
    // "No shortness of breath since I've been home": a symptom told earlier (before a hospital stay) has gone.
    if (doc.consultation && denied.length && (NOW.test(s.text) || (question && NOW.test(question.text)))) {
      for (const d of denied) {
        const k = out.findIndex((c) => c.name === d.name);
        if (k >= 0) byName.delete(out.splice(k, 1)[0]!.name);
      }
    }
    const mentions = [...s.text.slice(scope.from, scope.to).matchAll(SITE_MENTION)].filter(
      (x) => !scope.masked.some(([a, b]) => scope.from + x.index < b && scope.from + x.index + x[0].length > a),
    );
    const mention = mentions.at(-1)?.[0];
    if (mention) lastSite = mention.replace(/\w+$/, (w) => SITES[w] ?? w);
    // The answer to the doctor examining ("does that hurt?" "yes, there") tells a finding, not a complaint.
    if (doc.consultation && question && question.speaker === 'doctor' && EXAM_TALK.test(question.text)) continue;
    const asking = question && question.speaker !== 'patient' && (isQuestion(question) || ASKS.test(question.text));
    if (asking && items.length && SAID_BACK_DENIED.test(s.text)) {
      for (const it of items) gone.add(it.name);
      continue;
    }
    // "Are you sleeping well?" – "Well, no, not at all.": the no tells the complaint.
    const well = asking && !items.length && question.speaker === 'doctor' && ANSWER_NO.test(s.text) ? WELL_ASKED.exec(question.text) : null;
    if (well) {
      attach(question!, [{ name: WELL_NAME.get(well[0])!, start: well.index, end: well.index + well[0].length }], [], durations[0]?.duration, 'complaint.asked-well-no');
      continue;
    }
    if (!items.length && ((asking && PAST_QUESTION.test(question.text)) || (asked && PAST_QUESTION.test(asked.text) && s.index - asked.index <= 2))) continue;
    // "I've been having some pain ever since" … "where is it?" … "in the back of my neck": the site completes the kind.
    if (doc.consultation && bare.length && !items.length) {
      // Asked of a complaint already told ("do you get a lot of pain with it?" "some pain"), the kind is at its site.
      const kind = bareKind(bare[0]!.name);
      if (kind && toldSite && asking && WITH_IT.test(question.text)) {
        attach(s, [{ ...bare[0]!, name: siteName(kind, toldSite), site: toldSite }], durations, undefined, 'complaint.site-completes-kind');
        continue;
      }
      pending = { item: bare[0]!, s, duration: durations.find((d) => d.duration)?.duration };
      continue;
    }
    // Or the patient goes on to say where it is: "I've been having pains for two weeks" … "it starts up in the right
    // flank and goes down to my groin" (where it starts, not where it spreads).
    const goesOn = !!pending && s.speaker === pending.s.speaker && s.index - pending.s.index <= 3 && IT_IS_WHERE.test(s.text);
    // "It is coming from my left side": placing the pain, a side said alone is the flank.
    const side = goesOn && !mention ? SIDE_ALONE.exec(s.text.slice(scope.from, scope.to))?.[1] : undefined;
    if (pending && !items.length && (mention || side) && ((asked && WHERE.test(asked.text) && s.index - asked.index <= 2 && s.index - pending.s.index <= 12) || goesOn)) {
      const kind = bareKind(pending.item.name);
      if (kind) {
        const said = side ? `${side} side` : goesOn ? mentions[0]![0] : mention!;
        const site = said.replace(/\w+$/, (w) => SITES[w] ?? w);
        attach(s, [{ ...pending.item, name: siteName(kind, site), start: s.text.lastIndexOf(said), end: s.text.lastIndexOf(said) + said.length, site, duration: pending.duration }], [], undefined, 'complaint.site-completes-kind');
        pending = undefined;
        continue;
      }
    }
    // "Where are you having pain?" – "My left elbow.": the doctor's question names the kind, the answer its site.
    const askedKind = !pending && !items.length && !bare.length && mention && asking && question.speaker === 'doctor' && WHERE.test(question.text)
      ? KIND_ASKED.exec(question.text) : null;
    const kind = askedKind ? bareKind(askedKind[0].startsWith('hurt') ? 'pain' : askedKind[0]) : undefined;
    if (kind && mention && ANSWER_OPENS_ON_SITE.test(s.text.slice(0, s.text.indexOf(mention)))) {
      const site = mention.replace(/\w+$/, (w) => SITES[w] ?? w);
      const at = s.text.indexOf(mention);
      attach(s, [{ name: siteName(kind, site), start: at, end: at + mention.length, site }], durations, undefined, 'complaint.site-answers-where');
      continue;
    }
    // "Any itchiness in your palms?" – "Yeah, it's itchy.": a short answer that says the kind again, naming no site of
    // its own, is the complaint the question named with its site (a longer one may tell of another time or place).
    if (items.length && asking && question.speaker === 'doctor' && !NO.test(s.text) && items.every((it) => !it.site) && s.tokens.length <= SHORT_ANSWER && !DENIAL.test(s.text) && !s.tokens.some((t) => SITES[t.text])) {
      const asked = itemsAsked(question, doc.female);
      const sited = items.map((it) => asked.find((a) => !!a.site && a.name !== it.name && wordsOf(it.name).every((w) => wordsOf(a.name).includes(w))));
      if (sited.every((a) => !!a)) {
        attach(question, sited as Item[], [], durations[0]?.duration, 'complaint.asked-site');
        continue;
      }
    }
    // An answer that says yes (or only when) takes the symptoms the doctor asked about; "it has" to "has that been
    // since the bite" takes the bite's duration.
    // An answer that names the symptom only to deny it or say it has gone ("i had a temperature last week but it's
    // gone") is no yes, whatever time it gives.
    const yes = AFFIRMATIVE.test(s.text) || (SOME_SAID.test(s.text) && !DENIAL.test(s.text));
    if (!items.length && !denied.length && asking && !NO.test(s.text) && (yes || (durations.length && !HOW_LONG.test(question.text)))) {
      const since = sinceEvent(question.text);
      if (since) for (const c of lastItems) c.duration ??= since;
      // "any nausea or diarrhea … are you peeing a whole lot?" – "yeah": the yes answers the last question asked.
      const last = Math.max(0, ...[...question.text.matchAll(ASKS_AGAIN)].map((m) => m.index));
      const all = itemsAsked(question, doc.female);
      const lastAsked = all.some((it) => it.start >= last) ? all.filter((it) => it.start >= last) : all;
      const askedItems = pickedOption(question, last, lastAsked, s.text) ? lastAsked.filter((it) => wordsOf(it.name).some((w) => w.length > 3 && wordAt(s.text, w))) : lastAsked;
      attach(question, askedItems, [], durations[0]?.duration, 'complaint.asked-yes');
      // "Okay?" – "It's been going on for three days": a question that names nothing leaves the time to what was told.
      if (askedItems.length || !durations.length) continue;
    }
    // An answer that names what was asked: "any blood in your urine?" … "there was a little bit of blood earlier"; not
    // one that tells of someone else ("my husband has a cough but I don't").
    if (!items.length && !denied.length && doc.consultation && !NO.test(s.text) && !OTHERS.test(s.text)) {
      const said = (it: Item): boolean => it.name.split(' ').some((w) => w.length > 3 && new RegExp(String.raw`\b${w}\b`).test(s.text));
      const repeated = askedInTurn(doc, s).map((q) => ({ q, items: itemsAsked(q, doc.female).filter((it) => said(it) && !gone.has(it.name)) }));
      for (const { q, items: named } of repeated) if (named.length) attach(q, named, [], durations[0]?.duration, 'complaint.asked-said-back');
      if (repeated.some((r) => r.items.length)) continue;
    }
    // "How long have you been a diabetic?", "… been taking the metformin?": the answer is no complaint's length.
    const otherLength = (question && HOW_LONG_OTHER.test(question.text)) || (asked && HOW_LONG_OTHER.test(asked.text) && s.index - asked.index <= 3);
    if (!items.length && durations.length && otherLength) continue;
    const howLong = (question && HOW_LONG.test(question.text)) || (asked && HOW_LONG.test(asked.text) && s.index - asked.index <= 3);
    if (!items.length && durations.length && (ANAPHORA.test(s.text) || SYMPTOMS_TOLD.test(s.text) || howLong || /^\d/.test(s.text))) {
      const d = durations.find((x) => x.duration)?.duration;
      // "How long have you been having some shortness of breath?" "About a week.": the question takes for granted
      // what it names, and the answer confirms it.
      const presumed = asking && question && HOW_LONG.test(question.text) && !NO.test(s.text) ? itemsAsked(question, doc.female).filter((it) => !byName.has(it.name) && !gone.has(it.name)) : [];
      if (question && presumed.length) {
        attach(question, presumed, [], d, 'complaint.asked-how-long');
        continue;
      }
      // Said again in the same answer, the later length corrects the first ("a couple of months ago … I got it
      // three, four months ago").
      const corrects = doc.consultation && !EARLIER_EPISODE.test(s.text);
      if (d && SYMPTOMS_TOLD.test(s.text)) for (const t of toldAt) if (s.index - t.at <= SYMPTOMS_WITHIN && t.section === s.section) t.c.duration ??= d;
      // "I am having constipation … I feel bloated all the time." "How long have you had this problem?" "Couple of
      // months.": the question asks after the whole answer before it, each complaint of that turn.
      const toldTurn = toldAt.at(-1)?.turn;
      if (d && howLong && doc.consultation && toldTurn !== undefined && toldTurn !== s.turn) for (const t of toldAt) if (t.turn === toldTurn) t.c.duration ??= d;
      for (const c of lastItems) if (d) c.duration = corrects && answered.get(c) === s.turn ? d : (c.duration ?? d);
      for (const c of lastItems) if (d) answered.set(c, s.turn);
      if (pending && d) pending.duration ??= d;
      // "How long have you been feeling unwell?" before anything was named: the complaints told next take it.
      if (!lastItems.length && !pending) floating = d;
      if (howLong && d) answerTime = { d, turn: s.turn };
      continue;
    }
    if (floating && items.length) {
      for (const it of items) it.duration ??= floating;
      floating = undefined;
    }
    // "How long has this been going on?" – "Two days. I have had body aches and have been feeling nauseous too.":
    // what the same answer goes on to tell has lasted as long.
    if (answerTime?.turn === s.turn && !durations.length) for (const it of items) it.duration ??= answerTime.d;
    const since = sinceEvent(s.text);
    if (since) for (const it of items) it.duration ??= since;
    // "… complaint of left otalgia and headache. Symptoms started approximately three weeks ago and …": the onset
    // told next is that of the complaints just told, before any new one in its sentence.
    const onset = ONSET_OF_TOLD.test(s.text) ? durations.find((d) => d.duration && (!items.length || d.end <= items[0]!.start))?.duration : undefined;
    if (onset && lastNew?.at === s.index - 1) for (const c of lastItems) c.duration ??= onset;
    attach(s, items, durations, undefined, 'complaint.told');
  }
  // "I keep going to the toilet very often" told of diarrhoea is how often the bowels go, not urinary frequency.
  const bowels = out.some((c) => BOWEL_COMPLAINT.test(c.name));
  const merged = oneEach(out.filter((c) => !(bowels && c.name === 'urinary frequency' && TOILET_ONLY.test(said.get(c) ?? ''))))
    .map((c) => sideAsThePatientSays(doc, c));
  // A consultation's or a written report's own words go beside the vocabulary name; a dictation keeps the name.
  if (doc.consultation || doc.sentences.some((s) => s.section !== null) || opensWithHeading(doc)) for (const c of merged) c.name = withWording(c.name, said.get(c) ?? '');
  return merged;
}

// "I see you coming in with some right elbow pain" – "it's actually my left elbow", "it's not the right knee, it's the
// left knee": the side the patient says is the complaint's, whoever said the other first.
const sideSaid = (site: string): RegExp =>
  new RegExp(String.raw`\bnot (?:the|my) (?:left|right) ${site}\b[^.?!]*?\b(left|right) ${site}\b|\bactually (?:(?:it's|it is) )?(?:my|the) (left|right) ${site}\b|^(?:(?:no|actually|sorry|well)[\s,]+)*(?:it's|it is) (?:the|my) (left|right) ${site}\b`);

function sideAsThePatientSays(doc: Doc, c: Complaint): Complaint {
  const sided = /\b(left|right) ([a-z]+)/.exec(c.name);
  if (!sided || !doc.consultation) return c;
  const said = doc.sentences.filter((s) => s.speaker === 'patient').map((s) => sideSaid(sided[2]!).exec(s.text)).find(Boolean);
  const side = said && (said[1] ?? said[2] ?? said[3]);
  return side && side !== sided[1] ? { ...c, name: c.name.replace(sided[0], `${side} ${sided[2]}`), rules: [...(c.rules ?? []), 'complaint.side-as-the-patient-says'] } : c;
}

const GROUP = new Map(SAME_COMPLAINT.flatMap((names, g) => names.map((n) => [n, g] as const)));

/** The group of a name, also said with words before it ("watery loose stools" is loose stools told more closely). */
function groupOf(name: string): number | undefined {
  const words = name.split(' ');
  for (let i = 0; i < words.length; i++) {
    const g = GROUP.get(words.slice(i).join(' '));
    if (g !== undefined) return g;
  }
  return undefined;
}

/** One complaint told twice in other words ("run down", later "very tired") is kept once, as first told. */
function oneEach(complaints: Complaint[]): Complaint[] {
  const seen = new Map<number, Complaint>();
  return complaints.filter((c) => {
    const g = groupOf(c.name);
    if (g === undefined) return true;
    const first = seen.get(g);
    if (!first) {
      seen.set(g, c);
      return true;
    }
    if (c.duration) first.duration ??= c.duration;
    return false;
  });
}

/** Words of the patient's or note's wording that say nothing of the symptom. */
const WORDING_FILLER = /^(?:um|uh|er|erm|like|feel|feels|feeling|felt|been|getting|gets|get|got|kind|sort|of|bit|is|are|am|was|a|the|my|his|her|really|very|so|quite|just|some|it|its|it's|i|i'm|i've|to|have|has|had)$/;

/**
 * The name with the words it was said in, when they differ from it: "haemoptysis (coughing up blood)", "swelling of
 * eyes (eyes puffy)". A vocabulary name stands alone when the wording shares a word's stem with it ("coughing",
 * "short of breath") or is one word of a clinical synonym ("temperature").
 */
function withWording(name: string, wording: string): string {
  const all = wording.split(/[^a-z0-9']+/).filter(Boolean);
  let a = 0;
  let b = all.length;
  while (a < b && WORDING_FILLER.test(all[a]!)) a++;
  while (b > a && WORDING_FILLER.test(all[b - 1]!)) b--;
  const kept = all.slice(a, b);
  const words = kept.filter((w) => !WORDING_FILLER.test(w) && !/^(?:and|or)$/.test(w));
  if (words.length < 2 || words.length > 6 || /^\d/.test(kept[kept.length - 1] ?? '') || /^(?:or|and|to)$/.test(kept[kept.length - 1] ?? '')) return name;
  // Every word for pain is the same word here ("throat hurts" is the sore throat).
  const stem = (w: string): string => (KIND.get(w) === '{site} pain' || w === 'ache' ? 'pain' : w.replace(/'s$/, '').slice(0, 5));
  // A site, a side or a preposition both share ("eyes", "in my right foot") does not make them say the same thing.
  const symptomWord = (w: string): boolean => !SITES[w] && !SIDE.has(w) && !POSITION.has(w) && !/^(?:in|of|on|at|with|over)$/.test(w);
  const nameStems = new Set(name.split(' ').filter(symptomWord).map(stem));
  if (!words.some(symptomWord) || words.some((w) => symptomWord(w) && nameStems.has(stem(w)))) return name;
  return `${name} (${kept.join(' ')})`;
}

const wordsOf = (name: string): string[] => name.split(/\s+/);
const SHORT_ANSWER = 8;
const askedCache = new WeakMap<Sentence, Item[]>();
/** The symptoms a question names (copies: the caller sets their durations). */
function itemsAsked(q: Sentence, female: boolean): Item[] {
  let items = askedCache.get(q);
  if (!items) askedCache.set(q, (items = segmentItems(q, female, { from: 0, to: q.text.length, masked: notComplaintSpans(q) })));
  return items.map((it) => ({ ...it }));
}

/** The doctor's questions just before a patient's sentence, since the patient last spoke. */
function askedInTurn(doc: Doc, s: Sentence): Sentence[] {
  const out: Sentence[] = [];
  for (let i = s.index - 1; i >= 0 && doc.sentences[i]!.speaker !== 'patient'; i--) if (isQuestion(doc.sentences[i]!)) out.push(doc.sentences[i]!);
  return out;
}
