/**
 * Diagnoses with certainty, and the history around them (past illnesses, family history, allergies).
 *
 * A diagnosis list follows a cue ("diagnosis", "impression", "assessment", "this is", "I think it's", "this sounds
 * like"); it runs until the plan starts (a drug form, an order verb, "plan") and its items are split at commas,
 * semicolons, "also", spoken numbering ("number one … number two", "first … second"), and where one codable name
 * ends and the next begins ("primary osteoarthritis of both knees obesity and hypertension"), so it needs no
 * punctuation. A list goes on into the next sentences while they read as items ("Assessment: A; B; C", "One, A.
 * Two, B."). Outside a list, hedged phrases ("rule out …", "could be …", "probably …"), conditions said to be
 * controlled or not ("the hypertension is controlled"), known chronic conditions ("known hypertensive on telma")
 * and routine visits (well-child, antenatal) are diagnoses too, but only when they code well and are not symptoms:
 * a complaint is not a diagnosis because of where it was said. Family members' illnesses go to history.family.
 *
 * Real notes and consultations add: a report's assessment section, one problem a line, where a symptom the doctor
 * lists is the problem (R code); a problem-oriented plan ("for your second problem of hypertension …"); what is
 * said to the patient ("I believe what you have is something called …", "my suspicion is you have …"); and a
 * long-term condition the plan takes up ("for his hypertension, continue lisinopril"). History the plan does not
 * take up ("a history of asthma", sections PMH, family, medications, review of systems) is not a diagnosis. Cue
 * phrases are data (vocab/diagnosis-cues.json), and so are the allergens (vocab/allergens.json). A name is only
 * made from a vocabulary entry or after an explicit cue. Codes are made more specific from the whole note: the
 * diabetes' type said elsewhere, a kidney disease's stage, the puerperium's chapter XV codes.
 */
import { Type } from 'typebox';
import ALLERGENS_FILE from './vocab/allergens.json' with { type: 'json' };
import CUES_FILE from './vocab/diagnosis-cues.json' with { type: 'json' };
import { SYMPTOMS } from './vocab/symptoms.js';
import { checkedData, DataFileError, Provenance } from './vocab/data-file.js';
import { isChronic, puerperalCode, restatementRank, type IcdEntry } from './vocab/icd10.js';
import { CLASSES } from './vocab/drug-knowledge.js';
import { exactIcdReach, exactIcdSpan, exactIcdTokens, icdByCode, icdRef, isExactIcdWord, isIcdWord, isUnspecified, matchIcdTokens, type IcdMatch } from './codify.js';
import type { Diagnosis } from './facts.js';
import { BODY_PART, PhraseIndex, RELATIVE, tokenize, withoutRepeats, type Token } from './lexicon.js';
import { DRUG_INDEX } from './medications.js';
import { isNegated } from './negation.js';
import { headingOf, spokenSections, toldBack, type Doc, type SectionKind, type Sentence } from './sections.js';

type Certainty = Diagnosis['certainty'];

const Phrases = Type.Array(Type.String({ minLength: 1 }));
const CUES = checkedData(
  'diagnosis-cues.json',
  Type.Object({
    ...Provenance,
    about: Type.String(),
    suspected: Phrases,
    fillers: Phrases,
    naming: Phrases,
    problemNouns: Phrases,
    ordinals: Phrases,
    planAddressed: Phrases,
    visitProblem: Phrases,
    reviewQuestions: Phrases,
    nameLead: Phrases,
    nameTail: Phrases,
    nameEnd: Phrases,
    suspectedAfter: Phrases,
    notDiagnosisAfter: Phrases,
    notConditionWords: Phrases,
    deniedBefore: Phrases,
    deniedAfter: Phrases,
    resultWords: Phrases,
    passingNot: Phrases,
    backgroundTurns: Phrases,
    signCodes: Type.Array(Type.String({ pattern: '^[A-Z][0-9]{2}(?:\\.[0-9A-Z]{1,2})?$' })),
  }),
  CUES_FILE,
);
/** A regex alternation of phrases, longest first, a space matching any run of spaces. */
const alternation = (phrases: readonly string[]): string =>
  [...phrases]
    .sort((a, b) => b.length - a.length)
    .map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, String.raw`\s+`))
    .join('|');

// Not a speaker introducing themself: "this is Ida from the practice", "this is Doctor Shah"; not asked or supposed:
// "if this was a cyst that caused her pain".
const STRONG_CUE =
  /\b(?:(?:provisional|final|working|differential|clinical)\s+)?(?:diagnosis|diagnoses|dx)\b(?:\s+(?:is|of|as|was))?|\bdiagnosed\s+(?:as|with)\b|\bimpressions?\b|\b(?:assessment|impression)\b(?:\s*(?:and|\/|&)?\s*plan\b|\s+is\b)?|\b(?:this|that)\s+(?:is|was)\b(?<!\b(?:if|whether|unless)\s+(?:this|that)\s+(?:is|was))(?!\s+(?:doctor|dr|nurse)\b|\s+(?:a|an)\s+\d|\s+\w+\s+(?:speaking|calling|from\s+(?:the\s+|your\s+)?(?:\w+\s+)?(?:practice|surgery|clinic|hospital|office|team|pharmacy|gp)\b))|\bthese\s+are\b|\b(?:(?:(?:this|it|that)\s+)?(?:looks|seems|sounds)|(?:these|they)\s+(?:look|seem|sound))\s+(?:(?:more|much more|a lot more|most)\s+)?like\b|\b(?:this|it|that)\s+(?:appears|appeared|seems|seemed|looks|looked)\s+to\s+be\b|\bsuggestive\s+of\b|\bindicative\s+of\b|\bconsistent\s+with\b|\b(?:fits?|fitting)\s+(?:in\s+)?with\b|\bin\s+keeping\s+with\b|\bcompatible\s+with\b|\bi\s+(?:think|believe)\s+(?:that\s+)?(?:(?:this|it|that)\s+is|it's|that's|these\s+are|(?:you|he|she)(?:\s+(?:(?:might|may|could|probably|possibly|basically|essentially|actually|definitely|likely)\s+)?(?:have|has|'ve\s+got)|'ve\s+got)|(?:you're|you\s+are|he's|he\s+is|she's|she\s+is)\s+(?:having|describing))\b|\bwhat\s+i\s+(?:see|found|find)\s+(?:here\s+)?is\b|\bwhat\s+(?:i\s+think\s+is\s+going\s+on\s+is\s+(?:that\s+)?(?:you|he|she)\s+(?:have|has)|(?:you|he|she)\s+(?:(?:essentially|basically|actually|probably|most\s+likely|likely)\s+)?(?:have|has)\s+is|(?:you're|you\s+are|he's|she's)\s+suffering\s+from\s+(?:at\s+the\s+moment\s+)?is)\b|\bnewly\s+diagnosed\s+with\b|\b(?:we|i|doctors)\s+call\s+(?:it|this|that)\b|\b(?:it's|it\s+is|this\s+is|that's|that\s+is)\s+(?:what's\s+|what\s+is\s+)?called\b/g;
// Weaker cues: what follows is a diagnosis only when it codes well and is not a symptom ("you have fever" is not);
// "you're anaemic": said of the patient as a state, an adjective that names the condition;
// asked ("would you have any trauma to your foot"), it is none.
const WEAK_CUE =
  /\b(?<!\b(?:do|did|does|any|if|would|could|can|will|should|might|may|whether)\s+)(?:you|he|she)(?:\s+(?:(?:also|does|do|still|now|probably)\s+)?(?:have|has|'ve)|'ve)(?:\s+got)?\b(?!\s+(?:had|been|to)\b)|\b(?:it\s+is|it's)\b|\b(?<!\b(?:if|when|unless|whether|as long as)\s)(?:you're|you\s+are)(?=\s+(?:(?:a\s+)?(?:little|bit|slightly|quite|very|mildly|a\s+bit)\s+)*(?:anaemic|anemic)\b)|\bsuffering\s+from\b|\b(?:what|which)\s+(?:we|doctors)\s+(?:would\s+)?call\b|\bwhich\s+is\s+called\b|\bsomething\s+(?:that\s+)?(?:we\s+|is\s+)?called\b|\b(?:rash|cough|pain|lump|swelling|spots?|lesions?|bump|sore|headaches?|symptoms|problem)\s+(?:is|are)\s+(?!(?:a\s+)?(?:bit|little|lot|much|more|less|very|really|quite|worse|better|getting|still|not|also|just|in|on|at|from|when|after|before|there|here|itchy|dry|sore|bad|mild|severe|painful|red|worse|coming|going|gone)\b|[a-z]+(?:ive|ed|ing|ly|ful|ous|ent|ant|ible|able)\b)|\b(?:everything|it|this|that|all)\s+points?\s+(?:towards?|to)\b/g;
// Told to the patient, "the x-ray showed moderate osteoarthritis": what a test shows names the condition ("shows no …"
// names none; "if the ultrasound confirms fibroids" waits for it). A report's results section is read as data.
const TOLD_RESULT_CUE =
  /\b(?<!\b(?:if|when|whether|unless|until|once)\s)(?:your|the|his|her)\s+(?:[a-z]+\s+)?(?:x\s?rays?|scans?|ultrasound|mri|ct|ecg|ekg|blood\s+tests?|bloods|tests?|results?|biopsy|swab)\s+(?:today\s+)?(?:shows?|showed|confirms?|confirmed)\b(?!\s+(?:no|not|nothing|normal|any)\b)(?:\s+that)?(?:\s+(?:there\s+is|there's|you\s+have|you've\s+got))?/g;
const PAST_DIAGNOSIS = /^(?:diagnosed|diagnosis|diagnoses|dx)\b/;
const PAST_BEFORE = /\b(?:was|were|had been|has been|have been|been|previously|prior|last seen[^.]{0,40}with|established|made|given|received|with (?:a|the)?\s*(?:known|previous|prior|remote))\s+(?:(?:a|an|the|with|initially|originally|first|also)\s+)*$/;
const PAST_AFTER = /^[^.;]{0,60}?\b(?:was made|was established|was given|in (?:19|20)\d\d|\d+ (?:years?|months?|weeks?) ago|at (?:the )?age|as a (?:child|teenager))\b/;
// A cue that is a heading of the problem list: a symptom named there is the problem ("impression: pelvic pain").
const LIST_HEADING_CUE = /diagnos|impression|assessment|\bdx\b/;
const SUSPECT_WORDS = alternation(CUES.suspected);
const SUSPECT = new RegExp(String.raw`\b(?:${SUSPECT_WORDS})\b`);
const HEDGED_LIST = new RegExp(String.raw`^(?:(?:so|and|then|okay|ok)\s*[,:]?\s*)*(?=(?:${SUSPECT_WORDS})\b)`);
const SUSPECT_AT_START = new RegExp(String.raw`^(?:${SUSPECT_WORDS})\b`);
// "lung cancer with metastasis most likely": a hedge that closes the item is said of the name before it.
const SUSPECT_CLOSING = new RegExp(String.raw`(?:^|[\s,]+)(?:${alternation(CUES.suspectedAfter)})[\s,.;]*$`);
const SUSPECT_SCAN = new RegExp(String.raw`\b(?:${SUSPECT_WORDS})\b`, 'g');
// A problem-oriented plan: "for your second problem of hypertension", "the first diagnosis that we talk about is …".
const PROBLEM_CUE = new RegExp(
  String.raw`\b(?:(?:${alternation(CUES.planAddressed)})\s+)?(?:the|your|his|her|this|my|our)\s+(?:${alternation(CUES.ordinals)})\s+(?:${alternation(CUES.problemNouns)})\b(?:\s+(?:that\s+)?(?:we|i)(?:'re|'ll|\s+are|\s+will|\s+would)?\s+(?:(?:going\s+to|gonna|want\s+to|wanna)\s+)?(?:talk(?:ed|ing)?|discuss(?:ed|ing)?)\s+about)?(?:\s*(?:of|with|is|for|,|:))?`,
  'g',
);
// "for his hypertension, continue lisinopril": a known condition the plan addresses.
// "for his hypertension", "in terms of your diabetes", "from a depression standpoint".
const PLAN_ADDRESSED = new RegExp(
  String.raw`\b(?:(?:${alternation(CUES.planAddressed)})\s+(?:your|his|her|their|the)\s+|from\s+(?:an?|the|your|his|her)\s+(?=(?:[a-z0-9']+\s+){1,4}(?:${alternation(CUES.nameEnd)})\b))`,
  'g',
);
// Where a diagnosis list ends: the plan, a prescription, an order, or a new clause about what will be done.
const LIST_END = new RegExp(
  String.raw`[.?!]|\b(?:if|plan|advice|advised|advise|rx|treatment|management|investigations?|tab|tabs|tablets?|cap|caps|capsules?|syrup|syp|inj|injection|drops|ointment|cream|gel|lotion|inhaler|nebuli[sz]ation|x ray|xray|serum|scan|ecg|ekg|mri|ultrasound|usg|echo|start|started|starting|continue|continuing|stop|stopping|give|given|take|taking|apply|prescribe|prescribing|send|sending|order|ordering|get|getting|repeat|refer|referring|referral|increase|add|reduce|review|follow up|come back|but|rather than|instead of|as opposed to|we(?!'d\s+(?:say|call|describe)\b|\s+(?:would\s+)?(?:say|call|describe)\b)|we'll|i'll|i'm|let's|let us|(?:you|he|she|they)\s+(?:should|need|must|can)|needs? to|(?<!(?<!\bless\s+)\blikely\s+)to be|no need)\b`,
);
// Where one item ends (the list may go on after the next comma).
// "it could be anything from high blood pressure to depression": examples, not a diagnosis.
const ITEM_END =
  /\b(?:anything (?:from|like|such as)|(?:is|are|was|were)\s+(?:noted|seen|present|found)|which|who|that is|that's|than|because|since|as (?:he|she|they|you|there|the|his|her)|so|there (?:is|are|was)|now|currently|today|for (?:the )?(?:last |past )?\d+|for (?:a |the )?(?:last|past)|on(?! chronic\b)|it|we|i|you|he|she|they|from (?:the )?(?:milk|medicines?|medications?|drugs?|tablets?)|\d+(?:\.\d+)? (?:mg|ml|mcg|g|gm|iu|units?|tablets?|puffs?|drops?|percent|times|kg|cm|mm))\b/;
const LEAD = new RegExp(
  String.raw`^[\s,]*(?:(?:${alternation(CUES.naming)}|${alternation(CUES.fillers)}|${SUSPECT_WORDS}|a|an|the|of|is|are|was|as|that|it|it's|its|this|these|there's|there is|also|known|known case of|case of|k\/c\/o|and|or|with|plus|your|his|her|their|my|you|you're|he|she|i|we|do|does|have|has|got|'ve|for|i think|we think|i suspect|we suspect|diagnosis of|number \d+|\d+(?:\.\d+)?|first|firstly|second|secondly|third|thirdly|fourth|fifth|sixth)(?:\s*,)?\s+)+`,
);
const ENUMERATED_LEAD = /\b(?:number|\d+|one|first|firstly)\b/;
const LINK = /^(?:and|or|also|plus|with)$/;
// Words a diagnosis name never holds: a clause goes on after it ("hepatitis c, your initial labs are …").
const CLAUSE_LEAD = /\b(?:i|you|he|she|we|they|is|are|was|have|has|got|'ve|for|your|his|her|my|their)\b/;
const POSSESSIVE = /^(?:my|your|his|her|their|its|our)$/;
const SITE_PREPOSITION = /^(?:in|of|on|to|around|behind|under|over|near|at)$/;
const SIDE_WORD = /^(?:left|right|both|bilateral)$/;
const DETERMINER = /^(?:the|a|an|your|his|her|their|this|that|these|those)$/;
const NOT_IN_NAME = /^(?:i|you|he|she|we|they|it|my|your|his|her|our|their|is|are|was|were|be|been|have|has|had|do|does|did|will|would|can|could|should|what|that|this|there|thing|things|labs?|i'd|we'd|you'd|they'd|say)$/;
const VERB_IN_NAME = /^(?:is|are|was|were|be|been|have|has|had|do|does|did|will|would|can|could|should)$/;
const NEGATION_WORD = /^(?:no|not|don't|doesn't|didn't|haven't|hasn't|never|without|nor|n't)$/;
const NOT_CONDITION_WORD = new Set(CUES.notConditionWords);
const PERSON = /^(?:year|years|old|patient|male|female|man|woman|gentleman|lady|boy|girl|child|signs?|symptoms?)$/;
const HISTORY_ITEM = /^(?:(?:a|an|the|some|his|her|your|their)\s+)?(?:(?:past|medical|surgical|family|previous|prior)\s+)*(?:history|h\/o)\s+of\b/;
const CONNECTOR = new Set(['and', 'or', 'with', 'of', 'in', 'the', 'a', 'an', 'due', 'to', 'on', 'at', 'plus', 'also', 'as', 'well', ',', ';', ':']);
// Words that qualify a diagnosis without changing its code: laterality, site, severity said after the name, and
// its state at this visit.
const STATUS = new Set(
  'uncontrolled controlled not well poorly under treated untreated stable unstable improving improved worsening new onset newly diagnosed rate at goal target optimally suboptimally partially adequately inadequately'.split(' '),
);
const QUALIFIER = /^(?:left|right|bilateral|both|side|sides|sided|mild|moderate|severe|acute|chronic|recurrent|recent|resolving|persistent|gradual|progressive|[a-z]\d{1,2}|level|dermatome|region|upper|lower|eye|eyes|ear|ears|grade|stage|class|\d[a-z]?|i{1,3}v?|of|the|in)$/;
// A comma around a filler ("something, uh, called …") separates nothing.
const SEPARATOR = /\s*(?:[;:]|,(?!\s*(?:uh|um|er|erm)\s*,)(?<!\b(?:uh|um|er|erm)\s*,)|\s[/-]\s|\bin the (?:setting|context) of\b|\bas well as\b|\balong with\b|\bapart from (?:that|this)\b)\s*/g;
const NUMBER_WORD: Record<string, number> = { first: 1, firstly: 1, second: 2, secondly: 2, third: 3, thirdly: 3, fourth: 4, fifth: 5, sixth: 6 };
// A number that counts a list item, not one that belongs to a name ("type 2", "stage 4") or a dose ("2 mg").
const ENUMERATOR = /(?<!\b(?:type|stage|grade|class|g|p|para|gravida|level|t|c|l|s|d|at|of|since|for|over|about)\s+)\b(?:number\s+(\d)|(\d)|(first|firstly|second|secondly|third|thirdly|fourth|fifth|sixth))\b(?!\s*(?:\.\d|mg|ml|mcg|g\b|gm|iu|units?|percent|%|times|tablets?|puffs?|drops?|days?|weeks?|months?|years?|hours?|kg|cm|mm|over\b|plus\b|by\b))/g;
const MAX_WORDS = 14;
const SHORT_ITEM = 8;
const ENUMERATOR_WORD = /^(?:first|firstly|second|secondly|third|thirdly|fourth|fifth|sixth)$/;
const NEGATION_START = /^(?:no|not|without|never|nil|negative|denies|absent|doubt|doubtful)$/;
// "coronary artery disease, post ptca": a procedure's status qualifies the diagnosis before it.
const AFTER_PROCEDURE = /^(?:post|status post|s\/p|after)\b/;
const DISEASE_LIKE =
  /(?:itis|osis|emia|aemia|pathy|algia|oma)\b|\b(?:disease|syndrome|disorder|dysfunction|dementia|effusion|infection|infestation|injury|fracture|deficiency|cancer|tumou?r|carcinoma|ulcer|cyst|hernia|palsy|failure|insufficiency|stenosis|sprain|strain|allergy|poisoning|dependence|abuse|bite|burn|reflux|dehydration|diabetes|hypertension|asthma|infarction)s?\b/;
const FAMILY_RELATION = new RegExp(RELATIVE);
// A condition said to be controlled or not at this visit: "the hypertension is controlled", "your diabetes is not",
// "your migraines are much better controlled", and in a note's shorthand "migraine much better controlled".
const STATE =
  /\b(?:(?:is|are|isn't|aren't|looks|seems|remains|appears|has been|have been|hasn't been|haven't been|stays|look|seem|remain)\s+(?:(?:well|poorly|not|now|still|reasonably|fairly|very|under|adequately|inadequately|optimally|much|far|a lot|a bit|better|nicely|really|quite|pretty)\s+)*(?:controlled|uncontrolled|treated|under treated|stable|at goal|on target)|(?:much|far|a lot|now) better controlled)\b/g;
const CLAUSE_BOUNDARY = /[,;:]\s*|\b(?:and|so|but|also|which|while|whereas|though)\s+/g;

const NAMING_AT = new RegExp(String.raw`^(?:${alternation(CUES.naming)})\b`);

/** Where the clause that ends at `at` starts. */
const ASSERTED_ANEW = /^[,;]\s*(?:it's|it is|this is)\s+(?:a|an|more|actually)\b/;

function clauseStart(text: string, at: number): number {
  let from = 0;
  CLAUSE_BOUNDARY.lastIndex = 0;
  for (let m = CLAUSE_BOUNDARY.exec(text); m && m.index < at; m = CLAUSE_BOUNDARY.exec(text)) if (m.index + m[0].length <= at) from = m.index + m[0].length;
  return from;
}

/**
 * "I suspect this is …": a hedge just before the cue, in its clause, covers the whole list; so does a result still
 * awaited ("if the swab comes back positive, then it's strep throat").
 */
function hedgedBefore(text: string, cueAt: number): Certainty {
  // "I'm worried you may have torn the cartilage, what we call a meniscal tear": a name given after a comma names
  // what the clause before it said, hedge and all.
  const comma = /,\s*$/.exec(text.slice(0, cueAt));
  const from = comma && NAMING_AT.test(text.slice(cueAt)) ? clauseStart(text, comma.index) : clauseStart(text, cueAt);
  const before = text.slice(from, cueAt);
  return SUSPECT.test(before) || AWAITED_RESULT.test(before) ? 'suspected' : 'confirmed';
}
// "I don't think this is a migraine": the cue's clause denies what it names.
const DENIED_BEFORE = new RegExp(String.raw`\b(?:${alternation(CUES.deniedBefore)})\b`);
const PASSING_NOT = new RegExp(String.raw`\b(?:${alternation(CUES.passingNot)})\b`);
const AWAITED_RESULT = new RegExp(String.raw`\bif\b.*\b(?:${alternation(CUES.resultWords)})\b`);
const KNOWN =
  /\b(?:known(?: case of)?|k\/c\/o|(?:she|he) is (?:a |also )?(?:known )?)\s+((?:case of\s+)?[a-z0-9 ]+?)(?=\s+(?:on|for|since|with|and|who|came|presents?|presented|since|under)\b|[,;:.]|$)/g;
const CHRONIC_ADJECTIVE =
  /\b(?:(?:type (?:1|2) )?diabetic|hypertensive|asthmatic|epileptic|hypothyroid|hyperthyroid)\b(?=\s+(?:for|since|on|and|with|under)\b|\s*[,;:.]|$)/g;
// "not diabetic"; "are you asthmatic" asked inside a turn the recogniser did not end with a question mark.
const ADJECTIVE_NOT_SAID = /\b(?:not|no|non)\s+(?:a\s+)?$|\b(?:are|were) you\s+(?:(?:at all|ever|still|also)\s+)?$|\b(?:is|was) (?:she|he|they)\s+(?:(?:at all|ever|still|also)\s+)?$/;
const NOUN_FOR: Record<string, string> = {
  diabetic: 'diabetes mellitus',
  hypertensive: 'hypertension',
  asthmatic: 'asthma',
  epileptic: 'epilepsy',
  hypothyroid: 'hypothyroidism',
  hyperthyroid: 'hyperthyroidism',
};
const ROUTINE_VISIT =
  /\b(?:for|is)\s+(?:(?:a|an|his|her|the|their|routine|regular|annual|yearly|\d+ (?:month|year))\s+)*(check ?up|checkup|well (?:baby|child) (?:visit|check)|(?:antenatal|prenatal|ante natal) (?:visit|check ?up|care))\b|^(?:routine )?(?:antenatal|prenatal) (?:visit|check ?up)$/;
const CHILD = /\b(?:\d+ (?:month|week|day)s? old|baby|infant|toddler|newborn|neonate|child|kid|boy|girl|preschool\w*|(?:[1-9]|1[0-7]) years? (?:old|check ?up|checkup|visit))\b/;
const FIRST_PREGNANCY = /\b(?:primigravida|primi|g1|gravida 1|first pregnancy)\b/;
const LATER_PREGNANCY = /\b(?:multigravida|(?:second|third|fourth|2nd|3rd|4th) (?:gravida|pregnancy)|g[2-9]|gravida [2-9])\b/;

interface Found {
  name: string;
  certainty: Certainty;
  entry?: IcdEntry;
  s: Sentence;
  from: number;
  to: number;
  /** Named in passing, without a diagnosis cue: it says nothing of how sure the doctor is. */
  passing?: boolean;
  /** Provenance: the ways it was found (one per reading of it that was merged into it). */
  rules?: string[];
}

interface Options {
  certainty: Certainty;
  /** Where the list starts: a negation before it ("no other deficit. diagnosis …") does not reach into it. */
  from: number;
  /** Only a good code that is not a symptom makes a diagnosis. */
  strict: boolean;
  /** The item must be the name alone (a list continued into a sentence without a cue). */
  whole?: boolean;
  /** A problem list: a symptom named there is the problem the doctor treats ("assessment: pelvic pain"). */
  problems?: boolean;
  /** The name must come first in the item ("for any pain or fever, paracetamol" names none). */
  atStart?: boolean;
  /** A short line of a problem list under an assessment heading: a disease-like name the code list lacks is one too. */
  line?: boolean;
}

const SIGN_CODES = new Set(CUES.signCodes);
const unknownSign = CUES.signCodes.find((c) => !icdByCode(c));
if (unknownSign) throw new DataFileError(`diagnosis-cues.json: /signCodes: ${unknownSign} is no code of icd10.json`);
const isSymptom = (e: IcdEntry): boolean => e.code.startsWith('R') || SIGN_CODES.has(e.code);
const STRICT_SCORE = 0.8;

function tokenRange(s: Sentence, from: number, to: number): [number, number] {
  let a = s.tokens.findIndex((t) => t.start >= from);
  if (a < 0) a = s.tokens.length;
  let b = a;
  while (b < s.tokens.length && s.tokens[b]!.end <= to) b++;
  return [a, b];
}

const words = (s: Sentence, a: number, b: number): string[] => s.tokens.slice(a, b).map((t) => t.text);
const textOf = (s: Sentence, a: number, b: number): string => (a < b ? s.text.slice(s.tokens[a]!.start, s.tokens[b - 1]!.end) : '');

/**
 * The best-coded span of tokens [a, b) that starts within the first few words: ties go to the earlier start, then to
 * the longer span, so "hypertension, left" keeps its word and "right lower lobe pneumonia" is coded from "pneumonia"
 * only when that codes better than the whole.
 */
function bestSpan(s: Sentence, a: number, b: number, starts = 4): { from: number; to: number; match: IcdMatch } | undefined {
  let best: { from: number; to: number; match: IcdMatch } | undefined;
  // A span that starts or ends with a word no diagnosis name has only scores lower than the span without it.
  const known = s.tokens.slice(a, Math.min(b, a + starts + MAX_WORDS)).map((t) => isIcdWord(t.text));
  for (let i = a; i < Math.min(b, a + starts); i++) {
    if (!known[i - a]) continue;
    const end = Math.min(b, i + MAX_WORDS);
    for (let j = i + 1; j <= end; j++) {
      if (!known[j - 1 - a]) continue;
      const match = matchIcdTokens(words(s, i, j));
      if (!match) continue;
      const better = !best || match.score > best.match.score + 1e-9 || (best.from === i && match.score >= best.match.score - 1e-9);
      if (better) best = { from: i, to: j, match };
    }
  }
  return best;
}

/** A symptom said to be suspected ("rule out a urinary infection") is a working diagnosis when it codes exactly. */
function accepted(match: IcdMatch | undefined, strict: boolean, certainty: Certainty = 'confirmed', problems = false): boolean {
  if (!match || !strict) return !!match;
  return match.score >= STRICT_SCORE && (!isSymptom(match.entry) || problems || (certainty === 'suspected' && match.score >= 0.9));
}

/**
 * Diagnoses in tokens [a, b) of one list item: the best-coded name from the start, then what follows it ("… with
 * gastritis", "… and likely vitamin d deficiency", or a second name said straight after the first).
 */
function parseItem(s: Sentence, a: number, b: number, opts: Options, out: Found[], prev?: Found, link?: string): void {
  const rest = s.text.slice(s.tokens[a]?.start ?? s.text.length, s.tokens[b - 1]?.end ?? 0);
  const lead = LEAD.exec(rest);
  let certainty = opts.certainty;
  // A list continued into a sentence without a cue holds names, not a clause ("as he is allergic to penicillin, …"),
  // and so does what follows a name ("neck strain for your neck pain").
  if ((opts.whole || opts.atStart || prev) && lead && CLAUSE_LEAD.test(lead[0])) return;
  if (lead) {
    if (SUSPECT.test(lead[0])) certainty = 'suspected';
    a = tokenRange(s, s.tokens[a]!.start + lead[0].length, s.text.length)[0];
  }
  // A code written after the name ("pelvic pain (625.9)", an ICD-9 code in a US report) is not part of it.
  while (b > a && /^\(?\d{3}(?:\.\d+)?\)?$/.test(s.tokens[b - 1]!.text)) b--;
  if (a >= b) return;
  // "a history of diabetes and high blood pressure": the past, unless the assessment lists it.
  if (HISTORY_ITEM.test(s.text.slice(s.tokens[a]!.start)) && s.section !== 'assessment') return;
  const stop = ITEM_END.exec(s.text.slice(s.tokens[a]!.start, s.tokens[b - 1]!.end));
  if (stop && stop.index > 0) b = Math.min(b, tokenRange(s, s.tokens[a]!.start + stop.index, s.text.length)[0]);
  else if (stop) return;
  let codeFrom = a;
  while (codeFrom < b && STATUS.has(s.tokens[codeFrom]!.text)) codeFrom++;
  if (codeFrom >= b) {
    if (prev) extendTo(prev, s.tokens[b - 1]!.end);
    return;
  }
  const first = s.tokens[codeFrom]!.text;
  if ((opts.whole || opts.atStart) && !opts.line && !isIcdWord(first) && !QUALIFIER.test(first)) return;
  // "no sign of pneumonia" (but "non purulent cellulitis" is a kind of cellulitis).
  if ((!prev && isNegated(s.text.slice(opts.from), s.tokens[a]!.start - opts.from)) || NEGATION_START.test(s.tokens[a]!.text)) return;

  // "type 2 diabetes with peripheral neuropathy": ICD-10 codes the complication under the diabetes (E11.4), and the
  // code list names those entries "diabetic …". One diagnosis when that code is in the diabetes' own category.
  const category = prev?.entry?.code.slice(0, 3);
  if (link === 'with' && category && /^E1[0-4]$/.test(category)) {
    const tail = words(s, codeFrom, Math.min(b, codeFrom + MAX_WORDS)).filter((w) => w !== 'diabetic');
    for (let j = tail.length; j > 0; j--) {
      const combined = matchIcdTokens(['diabetic', ...tail.slice(0, j)]);
      if (combined && sameCondition(combined.entry.code, prev!.entry!.code) && !isUnspecified(combined.entry) && combined.entry.code !== prev!.entry!.code) {
        prev!.entry = combined.entry;
        extendTo(prev!, s.tokens[codeFrom + j - 1]!.end);
        return;
      }
    }
  }

  // "unstable angina" is its own code, "hypertension, controlled" is not: status words lead the span only when
  // they code better.
  // A name said first may open on qualifiers ("right distal ureteral calculus"): its code starts after them.
  let opening = 0;
  while (codeFrom + opening < b - 1 && QUALIFIER.test(s.tokens[codeFrom + opening]!.text) && !isIcdWord(s.tokens[codeFrom + opening]!.text)) opening++;
  // A problem line may name the place before the condition ("gluteal abscess", "left flank pain").
  let found = bestSpan(s, codeFrom, b, opts.atStart ? opening + (opts.line ? 3 : 1) : 4);
  if (codeFrom > a) {
    const withStatus = bestSpan(s, a, b, codeFrom - a);
    if (withStatus && withStatus.to >= (found?.to ?? 0) && withStatus.match.score > (found?.match.score ?? 0) + 1e-9) found = withStatus;
  }
  // "alcohol dependence with uncomplicated withdrawal": the tail often leaves out the head's first word.
  if (link === 'with' && prev?.entry) {
    const head = prev.name.split(' ')[0]!;
    const end = Math.min(b, codeFrom + MAX_WORDS);
    for (let j = codeFrom + 1; j <= end; j++) {
      const m = matchIcdTokens([head, ...words(s, codeFrom, j)]);
      if (m && m.score > (found?.match.score ?? 0) && m.entry.code !== prev.entry.code) found = { from: codeFrom, to: j, match: m };
    }
  }
  const strict = opts.strict || !!prev;
  if (!accepted(found?.match, strict, certainty, opts.problems)) {
    found = undefined;
    if (!strict) {
      // "… which the daily painkiller has turned into a medication overuse headache": a name further on.
      for (let k = codeFrom + 1; k < b && !found; k++) {
        if (!isIcdWord(s.tokens[k]!.text)) continue;
        const f = bestSpan(s, k, b, 1);
        if (accepted(f?.match, true, certainty, opts.problems)) {
          found = f;
          codeFrom = k;
          a = k;
        }
      }
    }
  }
  if (!found) {
    // "renal insufficiency is a chronic problem": a name read by its disease-like words ends before a verb.
    const verb = s.tokens.findIndex((t, i) => i > a && i < b && VERB_IN_NAME.test(t.text));
    if (verb > 0) b = verb;
    const phrase = textOf(s, a, b);
    if ((!strict || (opts.line && !prev && opts.atStart)) && DISEASE_LIKE.test(phrase) && b - a <= 8) out.push({ name: phrase, certainty, s, from: s.tokens[a]!.start, to: s.tokens[b - 1]!.end });
    return;
  }
  // "dietary indiscretion and some uncontrolled hypertension", "disk space due to a herniated disk", "… dysfunction and
  // moderate mitral regurgitation": words before a link word inside the coded words are another item when they name
  // one alone, the talk around it when they hold a word no condition has; "mitral and aortic regurgitation" is one.
  const joint = s.tokens.slice(a + 1, found.to - 1).findLastIndex((t, i, all) => t.text === 'and' || t.text === 'or' || (t.text === 'to' && all[i - 1]?.text === 'due'));
  if (joint >= 0) {
    const cut = a + 1 + joint;
    const headEnd = s.tokens[cut]!.text === 'to' ? cut - 1 : cut;
    const tailFrom = tokenRange(s, s.tokens[cut + 1]!.start + (LEAD.exec(s.text.slice(s.tokens[cut + 1]!.start))?.[0].length ?? 0), s.text.length)[0];
    const tail = tailFrom < found.to ? bestSpan(s, tailFrom, b, 1) : undefined;
    const head = bestSpan(s, a, headEnd);
    const headText = textOf(s, a, headEnd);
    // A head that names a condition of its own: coded apart from the tail, or disease-like where the code list lacks it.
    const named =
      !!tail &&
      ((!!head && accepted(head.match, true, certainty) && !isSymptom(head.match.entry) && !isSymptom(tail.match.entry) && head.match.entry.code.slice(0, 3) !== tail.match.entry.code.slice(0, 3)) ||
        (!head && DISEASE_LIKE.test(headText)));
    const talk = !DISEASE_LIKE.test(headText) && s.tokens.slice(a, headEnd).some((t) => !isIcdWord(t.text) && !STATUS.has(t.text) && !QUALIFIER.test(t.text) && !BODY_PART.has(t.text) && !NAME_LEAD.has(t.text));
    if (tail && accepted(tail.match, true, certainty, opts.problems) && (named || talk) && !exactAcross(s, a, cut, found.to)) {
      if (named) parseItem(s, a, headEnd, opts, out);
      a = tailFrom;
      found = tail;
    }
  }
  // "most likely representative of aortic stenosis", "one of the fun parts of covid": words before an "of" that name
  // no condition are not part of the name.
  const of = s.tokens.slice(a, found.from).findLastIndex((t) => t.text === 'of');
  if (of > 0 && !DISEASE_LIKE.test(textOf(s, a, a + of)) && s.tokens.slice(a, a + of).every((t) => !isIcdWord(t.text) || NOT_CONDITION_WORD.has(t.text))) {
    a += of + 1;
    while (a < found.from && DETERMINER.test(s.tokens[a]!.text)) a++;
  }
  let to = found.to;
  while (to < b && (STATUS.has(s.tokens[to]!.text) || QUALIFIER.test(s.tokens[to]!.text) || BODY_PART.has(s.tokens[to]!.text))) to++;
  while (to > found.to && CONNECTOR.has(s.tokens[to - 1]!.text)) to--;
  // In a list continued from the sentence before, an item is names and nothing else ("diabetic diet with …" is not).
  if (opts.whole && to < b && !CONNECTOR.has(s.tokens[to]!.text) && !accepted(bestSpan(s, to, b, 1)?.match, true, certainty, opts.problems)) return;
  // "66-year-old male with signs and symptoms of benign prostatic hypertrophy": the words up to the last one that
  // describes the patient are not the diagnosis's name.
  // "you don't have any fractures": a negation before the name, however far, is no diagnosis.
  if (s.tokens.slice(a, found.from).some((t) => NEGATION_WORD.test(t.text))) return;
  // (A word for a person inside one of the code list's own names stays: "well child check".)
  const ownName = !!exactIcdTokens(words(s, a, to));
  for (let k = to - 2; k >= a; k--) {
    // "an infection of his right ear", "a foreign body in his left eye": a possessive between a preposition and a body
    // part is the site's ("an exacerbation of your heart failure" is not).
    const sitePossessive = POSSESSIVE.test(s.tokens[k]!.text) && k > a && SITE_PREPOSITION.test(s.tokens[k - 1]!.text) && isSiteAt(s, k + 1);
    if ((!NOT_IN_NAME.test(s.tokens[k]!.text) || sitePossessive) && (ownName || !PERSON.test(s.tokens[k]!.text))) continue;
    a = k + 1;
    while (a < to - 1 && CONNECTOR.has(s.tokens[a]!.text)) a++;
    break;
  }
  const item: Found = { name: textOf(s, a, to), certainty, entry: found.match.entry, s, from: s.tokens[a]!.start, to: s.tokens[to - 1]!.end };
  out.push(item);
  // What follows the name: connectors, then another name (strict, so a tail of plan words is dropped).
  let k = to;
  let nextLink: string | undefined;
  for (; k < b && CONNECTOR.has(s.tokens[k]!.text); k++) if (nextLink !== 'with') nextLink = s.tokens[k]!.text;
  const closing = k < b ? SUSPECT_CLOSING.exec(s.text.slice(s.tokens[to]!.start, s.tokens[b - 1]!.end)) : null;
  if (closing) {
    item.certainty = 'suspected';
    b = tokenRange(s, s.tokens[to]!.start + closing.index, s.text.length)[0];
  }
  // "acute lumbar strain, a pulled muscle": an article after the name starts a restatement, not a second diagnosis.
  if (k >= b || nextLink === 'a' || nextLink === 'an') return;
  const before = out.length;
  // A second name said straight after the first must end where its words end ("… obesity and hypertension"), not
  // run on into the plan ("… diabetic diet with 6 small meals"); one after a hedge is a name of its own ("…
  // hematuria, most likely some atrophic vaginitis is noted").
  const hedge = SUSPECT_AT_START.test(s.text.slice(s.tokens[k]!.start));
  // A symptom after "with" is how the first presents ("epilepsy with breakthrough seizure"), not a problem of its own.
  const problems = opts.problems && nextLink !== 'with';
  parseItem(s, k, b, { ...opts, certainty, strict: true, whole: !nextLink && !hedge, problems }, out, hedge ? undefined : item, nextLink);
  if (out.length === before) {
    // "overactive bladder with microscopic hematuria, most likely some atrophic vaginitis": a hedged name further on.
    const hedged = s.tokens.findIndex((t, i) => i > k && i < b && SUSPECT_AT_START.test(s.text.slice(t.start)));
    if (hedged > 0) parseItem(s, hedged, b, { ...opts, certainty, strict: true, whole: false }, out);
  }
  if (out.length === before) {
    // "gout of the right big toe also hyperuricaemia": the next name comes after the next link word.
    const next = s.tokens.findIndex((t, i) => i > k && i < b - 1 && LINK.test(t.text));
    if (next > 0) parseItem(s, next + 1, b, { ...opts, certainty, strict: true, whole: true }, out, item, s.tokens[next]!.text);
  }
  // A few more words that are no diagnosis of their own stay with the name when a link word joins them ("… thrombosis
  // of the left popliteal vein"); without one they are talk ("tennis elbow | go figure", "cellulitis | around the area").
  const nameWords = !s.tokens.slice(k, b).some((t) => NOT_IN_NAME.test(t.text));
  if (out.length === before && b - k <= 4 && nextLink && nextLink !== 'and' && nextLink !== 'or' && !opts.whole && nameWords) extendTo(item, s.tokens[b - 1]!.end);
}

/** Whether a name of the code list runs from token a across the link word at `cut` ("nausea and vomiting"). */
function exactAcross(s: Sentence, a: number, cut: number, to: number): boolean {
  for (let e = cut + 2; e <= to; e++) if (exactIcdSpan(s.tokens, a, e)) return true;
  return false;
}

/** Whether a body part (after a side word) is said at token i. */
function isSiteAt(s: Sentence, i: number): boolean {
  const k = SIDE_WORD.test(s.tokens[i]?.text ?? '') ? i + 1 : i;
  return BODY_PART.has(s.tokens[k]?.text ?? '');
}

function extendTo(f: Found, end: number): void {
  if (end <= f.to) return;
  f.to = end;
  f.name = f.s.text.slice(f.from, f.to);
}

/** Character ranges of a list's items: split at separators and, in a numbered list, at the next number. */
function itemRanges(text: string, from: number, to: number, expect: { next: number }): [number, number][] {
  const cuts: number[] = [];
  const region = text.slice(from, to);
  SEPARATOR.lastIndex = 0;
  for (let m = SEPARATOR.exec(region); m; m = SEPARATOR.exec(region)) cuts.push(from + m.index, from + m.index + m[0].length);
  ENUMERATOR.lastIndex = 0;
  for (let m = ENUMERATOR.exec(region); m; m = ENUMERATOR.exec(region)) {
    const n = Number(m[1] ?? m[2] ?? NUMBER_WORD[m[3]!]);
    const atStart = !region.slice(0, m.index).trim().replace(/[,;:]/g, '');
    if (n === expect.next && (n > 1 || atStart)) {
      cuts.push(from + m.index, from + m.index);
      expect.next = n + 1;
    }
  }
  const points = [from, ...cuts.sort((x, y) => x - y), to];
  const out: [number, number][] = [];
  // Points come in pairs after the first: [start, cutStart], [cutEnd, nextCutStart] …
  let start = from;
  for (let i = 1; i < points.length; i += 2) {
    const end = points[i]!;
    if (end > start) out.push([start, end]);
    start = Math.max(start, points[i + 1] ?? to);
  }
  if (start < to) out.push([start, to]);
  return out;
}

function listEnd(s: Sentence, from: number): number {
  const m = LIST_END.exec(s.text.slice(from));
  const end = m ? from + m.index : s.text.length;
  // A drug named without its form ("… ankylosing spondylitis pred forte eye drops"), unless a diagnosis word follows
  // it ("vitamin d deficiency", "iron deficiency anaemia").
  for (let i = tokenRange(s, from, end)[0]; i < s.tokens.length && s.tokens[i]!.start < end; i++) {
    const drug = DRUG_INDEX.matchAt(s.tokens, i);
    if (drug && !isIcdWord(s.tokens[drug.to]?.text ?? 'x') && !isIcdWord(s.tokens[i]!.text)) return drug.start;
  }
  return end;
}

/** The diagnoses of a list in text[from, to). */
function parseList(s: Sentence, from: number, to: number, opts: Options, expect: { next: number }, out: Found[]): void {
  for (const [x, y] of itemRanges(s.text, from, to, expect)) {
    const [a, b] = tokenRange(s, x, y);
    if (a >= b) continue;
    const before = out.length;
    const prev = out[out.length - 1];
    const onlyQualifiers =
      s.tokens.slice(a, b).every((t) => STATUS.has(t.text) || QUALIFIER.test(t.text) || BODY_PART.has(t.text)) || AFTER_PROCEDURE.test(s.text.slice(x, y).trim());
    if (prev && prev.s === s && onlyQualifiers) {
      // "atrial fibrillation, new onset", "herpes zoster, left t6 dermatome": part of the name before.
      prev.name += `, ${textOf(s, a, b)}`;
      prev.to = s.tokens[b - 1]!.end;
      continue;
    }
    // "first, tension headache": the number alone is no item.
    if (b - a === 1 && (ENUMERATOR_WORD.test(s.tokens[a]!.text) || /^\d$/.test(s.tokens[a]!.text))) continue;
    if (!onlyQualifiers) parseItem(s, a, b, { ...opts, from: Math.max(opts.from, x) }, out);
    if (out.length === before && opts.strict && x === from && !/^(?:number\s+)?\d+$/.test(s.text.slice(x, y).trim())) return;
  }
}

// "hepatitis b second injection", "pneumonia vaccine": the name is what a vaccine or a screening is against.
const PREVENTION_AFTER = new RegExp(String.raw`^[\s,]*(?:${alternation(CUES.notDiagnosisAfter)})\b`);
// "i was worried about meningitis but you don't have any of the signs": a suspicion taken back straight after.
const DENIED_AFTER = new RegExp(String.raw`^\W*(?:[a-z']+\W+){0,4}?but\s+(?:${alternation(CUES.deniedAfter)})\b`);

function addFound(list: Found[], f: Found): void {
  // "a sprain of the right ankle, a ligament injury": an injury of no stated region restates the specific one.
  if (f.entry?.code.startsWith('T14') && list.some((d) => d.entry?.code.startsWith('S') && d.s === f.s)) return;
  if (f.entry) {
    const same = list.find((d) => d.entry?.code === f.entry!.code);
    if (same) {
      same.rules = [...new Set([...(same.rules ?? []), ...(f.rules ?? [])])];
      if (same.certainty === 'suspected' && f.certainty === 'confirmed' && !f.passing) same.certainty = 'confirmed';
      // "known asthmatic … impression: bronchial asthma, not well controlled": the fuller statement names it.
      if (f.name.split(' ').length > same.name.split(' ').length) Object.assign(same, { name: f.name, s: f.s, from: f.from, to: f.to });
      return;
    }
    // "a bladder infection, acute cystitis": one condition said twice, the more specific name kept.
    const rank = restatementRank(f.entry.code);
    const restated = rank && list.find((d) => d.s === f.s && d.entry && restatementRank(d.entry.code)?.group === rank.group);
    if (rank && restated) {
      if (rank.rank > restatementRank(restated.entry!.code)!.rank) Object.assign(restated, { entry: f.entry, name: f.name, from: f.from, to: f.to });
      return;
    }
    const sibling = list.find((d) => d.entry && d.certainty === f.certainty && d.entry.code.slice(0, 3) === f.entry!.code.slice(0, 3));
    if (sibling && (isUnspecified(f.entry) || isUnspecified(sibling.entry!))) {
      // A restatement ("vaginal yeast infection, candidiasis", "known copd … acute exacerbation of copd"): keep the
      // more specific code.
      if (isUnspecified(sibling.entry!) && !isUnspecified(f.entry)) Object.assign(sibling, { entry: f.entry, name: f.name, s: f.s, from: f.from, to: f.to });
      return;
    }
  } else if (list.some((d) => tidyName(d.name) === tidyName(f.name))) return;
  list.push(f);
}

// Sections whose conditions are history, not this visit's diagnoses (the plan may still take one up).
const NOT_DIAGNOSIS_SECTIONS = new Set<SectionKind>(['past_history', 'family', 'medications', 'allergies', 'social', 'review']);

/**
 * In a dictated report read without its colons ("… past medical history positive for elevated cholesterol diabetes
 * glaucoma current medications …"), the parts of each sentence under a spoken background heading, up to the next
 * heading; a report that opens with a heading carries the last one into the next sentences.
 */
/** The parts of each sentence under a spoken background heading (a report read without its colons). */
function spokenBackground(doc: Doc): Map<Sentence, [number, number][]> {
  const out = new Map<Sentence, [number, number][]>();
  for (const [s, parts] of spokenSections(doc)) {
    const ranges = parts.filter((p) => NOT_DIAGNOSIS_SECTIONS.has(p.kind)).map((p): [number, number] => [p.from, p.to]);
    if (ranges.length) out.set(s, ranges);
  }
  if (doc.consultation) for (const s of doc.sentences) if (s.speaker !== 'patient') addAddressedBackground(s, out);
  return out;
}

// "And for family history, it looks like there's high blood pressure, diabetes …", "looking at your family history":
// the doctor turning to a background heading in talk, up to the next thing turned to ("for your current medications,
// …") or the sentence's end.
const ADDRESSED = new RegExp(String.raw`\b(?:${alternation([...CUES.planAddressed, ...CUES.backgroundTurns])})\s+(?:(?:your|the|his|her|their)\s+)?`, 'g');
const MAX_HEADING_WORDS = 4;

function addAddressedBackground(s: Sentence, out: Map<Sentence, [number, number][]>): void {
  const turns = [...s.text.matchAll(ADDRESSED)];
  turns.forEach((m, k) => {
    const after = s.text.slice(m.index + m[0].length).split(/[\s,.:;]+/);
    const heading = [...Array(MAX_HEADING_WORDS).keys()].some((n) => {
      const kind = headingOf(after.slice(0, n + 1).join(' '))?.kind;
      return !!kind && NOT_DIAGNOSIS_SECTIONS.has(kind);
    });
    if (!heading) return;
    const range: [number, number] = [m.index, turns[k + 1]?.index ?? s.text.length];
    out.set(s, [...(out.get(s) ?? []), range]);
  });
}

function skipSentence(s: Sentence): boolean {
  return s.speaker === 'patient' || (s.section !== null && NOT_DIAGNOSIS_SECTIONS.has(s.section)) || s.text.endsWith('?') || (QUESTION_START.test(s.text) && s.tokens.length <= 12) || (FAMILY_RELATION.test(s.text.slice(0, 40)) && /\b(?:has|had|is|was)\b/.test(s.text));
}

const inside = (ranges: [number, number][], at: number): boolean => ranges.some(([x, y]) => at >= x && at < y);

const NAME_LEAD = new Set(CUES.nameLead);
const NAME_TAIL = new Set(CUES.nameTail);
const NAME_END = new Set(CUES.nameEnd);
const CUT_OFF = /^[a-z]+-$/;
const NAMED_AS = new Set(['called', 'named', 'show', 'shows', 'showed', 'reveal', 'reveals', 'revealed']);
const SPOKEN_FILLER = /(?:^|\s*,?\s+)\b(?:um+|uh+|er|erm|hmm)\b\s*,?/g;

/**
 * The name as shown: spoken fillers out, and words that opened or closed the span but name nothing trimmed ("here
 * would be lateral epicondylitis", "nicotine dependence first of all"), keeping at least one word.
 */
function tidyName(name: string): string {
  // "depression's stable": the condition, without what is said of it.
  const said = /^(.+?)'s\s+(\w+)/.exec(name);
  const base = said && STATUS.has(said[2]!) ? said[1]! : name;
  // A word cut off in speech ("that em- those emphysema changes") names nothing.
  const words = withoutRepeats(base.replace(SPOKEN_FILLER, ' ')).split(/\s+/).filter((w) => /\w/.test(w) && !CUT_OFF.test(w));
  const bare = (w: string): string => w.replace(/[,;:.]+$/, '');
  let a = 0;
  const end = words.findIndex((w, i) => i > 0 && NAME_END.has(bare(w)));
  let b = end > 0 ? end : words.length;
  while (b - a > 1 && NAME_TAIL.has(bare(words[b - 1]!))) b--;
  // "a lung problem called bronchitis", "your x-rays show bronchitis": the name is what it is called, what it shows.
  const named = words.slice(0, b).findLastIndex((w, i) => i < b - 1 && (NAMED_AS.has(w) || (w === 'as' && words[i - 1] === 'known')));
  if (named >= 0) a = named + 1;
  while (b - a > 1 && NAME_LEAD.has(bare(words[a]!))) a++;
  return words.slice(a, b).join(' ').replace(/[,;:]+$/, '') || name;
}

/** "known hypertensive", "type 2 diabetic": the adjective said as a noun becomes the condition's name. */
function nounName(name: string): string {
  const m = /^(.*?)\b(diabetic|hypertensive|asthmatic|epileptic|hypothyroid|hyperthyroid)$/.exec(name);
  if (!m) return name;
  return `${m[1]}${NOUN_FOR[m[2]!]}`;
}

interface Cue {
  at: number;
  end: number;
  text: string;
  /** strong: opens a list of names; weak/problem: one name that must code well. */
  kind: 'strong' | 'weak' | 'problem';
  problems: boolean;
}

/**
 * The diagnosis cues of a sentence in order: list cues ("impression", "I think this is"), weaker ones ("you have"),
 * and a problem-oriented plan's ("for your second problem of …"). In a history section only list cues count: "he
 * has hypertension" told in the history is no diagnosis of this visit unless the plan takes it up.
 */
function sentenceCues(text: string, history: boolean, spoken: boolean): Cue[] {
  const cues: Cue[] = [];
  const push = (m: RegExpMatchArray, kind: Cue['kind'], problems: boolean): void => {
    cues.push({ at: m.index!, end: m.index! + m[0].length, text: m[0], kind, problems });
  };
  for (const m of text.matchAll(STRONG_CUE)) {
    // In the history a diagnosis told as made before ("she was diagnosed with migraine", "a diagnosis of
    // radiculopathy was made") is history: the plan names it again where it is this visit's problem.
    if (history && PAST_DIAGNOSIS.test(m[0]) && (PAST_BEFORE.test(text.slice(Math.max(0, m.index! - 30), m.index)) || PAST_AFTER.test(text.slice(m.index! + m[0].length, m.index! + m[0].length + 80)))) continue;
    push(m, 'strong', LIST_HEADING_CUE.test(m[0]));
  }
  for (const m of text.matchAll(PROBLEM_CUE)) push(m, 'problem', true);
  if (!history) for (const m of text.matchAll(WEAK_CUE)) push(m, 'weak', false);
  if (!history && spoken) for (const m of text.matchAll(TOLD_RESULT_CUE)) push(m, 'weak', false);
  cues.sort((x, y) => x.at - y.at || y.end - x.end);
  // Overlapping cues ("the first diagnosis is", "I think you have" inside "what I think is going on is that you have"):
  // the one that starts first and reaches furthest.
  return cues.filter((c, i) => !cues.slice(0, i).some((d) => c.at < d.end));
}

/**
 * "for his hypertension, continue lisinopril", "in terms of your diabetes …": a long-term condition, named whole, that
 * the plan addresses is a diagnosis of this visit (history the plan does not address is not; "for the itching" is a
 * complaint's treatment).
 */
function scanPlanAddressed(s: Sentence, used: [number, number][], add: (list: Found[]) => void): void {
  PLAN_ADDRESSED.lastIndex = 0;
  for (let m = PLAN_ADDRESSED.exec(s.text); m; m = PLAN_ADDRESSED.exec(s.text)) {
    const from = m.index + m[0].length;
    if (inside(used, from) || isNegated(s.text, from)) continue;
    const [a] = tokenRange(s, from, s.text.length);
    for (let j = exactIcdReach(s.tokens, a, Math.min(s.tokens.length, a + WHOLE_NAME_WORDS)); j > a; j--) {
      const entry = exactIcdSpan(s.tokens, a, j);
      if (!entry || !isChronic(entry.code)) continue;
      const to = s.tokens[j - 1]!.end;
      add([{ name: s.text.slice(from, to), certainty: 'confirmed', entry, s, from, to, passing: true }]);
      used.push([from, to]);
      break;
    }
  }
}

// Where the note says the diabetes' type or that the patient has just given birth, anywhere.
const DIABETES_TYPE = /\b(?:type (?:(2|ii|two)|(1|i|one)) diabet\w*|(t2dm|niddm|dm 2|dm type 2)|(t1dm|iddm|dm 1|dm type 1)|diabetes(?: mellitus)?,? type (?:(2|ii|two)|(1|i|one)))\b/;
const PUERPERIUM =
  /\b(?:post ?partum|post ?natal|puerper\w*|after (?:the |her |my )?(?:delivery|birth|baby|c section|caesarean|cesarean)|(?:had|have had|you've had|she had) (?:a |the )?(?:baby|c section|caesarean(?: section)?|cesarean(?: section)?)|gave birth|delivered (?:a|her|the) baby)\b/;

/** The same condition at two levels of detail: one category, or diabetes of whatever type (E10–E14). */
const sameCondition = (a: string, b: string): boolean => a.slice(0, 3) === b.slice(0, 3) || (/^E1[0-4]/.test(a) && /^E1[0-4]/.test(b));

/**
 * Codes the note as a whole makes more specific: diabetes said without its type takes the type said elsewhere
 * (E14.9 → E11.9), "your kidney disease" the stage the history gave (N18.9 → N18.3), and a condition after a birth
 * its puerperal code.
 */
function refineCodes(doc: Doc, found: Found[]): void {
  const all = doc.sentences.map((s) => s.text).join(' ');
  const type = DIABETES_TYPE.exec(all);
  const puerperal = PUERPERIUM.test(all);
  const specific = found.some((f) => f.entry && isUnspecified(f.entry)) ? namedCodes(doc) : [];
  for (const f of found) {
    if (!f.entry) continue;
    if (/^E14/.test(f.entry.code) && type) f.entry = icdByCode(`${type[1] || type[3] || type[5] ? 'E11' : 'E10'}${f.entry.code.slice(3)}`) ?? f.entry;
    if (isUnspecified(f.entry)) {
      const code = f.entry.code;
      // Diabetes takes only its type from elsewhere: a complication named there ("diabetic retinopathy") is its own.
      const more = specific.find(
        (e) => e.code !== code && sameCondition(e.code, code) && !isUnspecified(e) && !/^E1[0-4]/.test(e.code) && !found.some((g) => g.entry === e),
      );
      if (more) f.entry = more;
    }
    if (puerperal) {
      // WHO ICD-10 codes a condition of the puerperium in chapter XV.
      const to = puerperalCode(f.entry.code);
      if (to) f.entry = icdByCode(to) ?? f.entry;
    }
  }
}

/** Every condition named whole anywhere in the note, history included. */
function namedCodes(doc: Doc): IcdEntry[] {
  const out: IcdEntry[] = [];
  for (const s of doc.sentences) {
    for (let i = 0; i < s.tokens.length; i++) {
      if (!isExactIcdWord(s.tokens[i]!.text)) continue;
      for (let j = exactIcdReach(s.tokens, i, Math.min(s.tokens.length, i + WHOLE_NAME_WORDS)); j > i + 1; j--) {
        const entry = exactIcdSpan(s.tokens, i, j);
        if (entry && !isNegated(s.text, s.tokens[i]!.start)) {
          out.push(entry);
          i = j - 1;
          break;
        }
      }
    }
  }
  return out;
}

export function extractDiagnoses(doc: Doc): Diagnosis[] {
  const found: Found[] = [];
  // A condition said under a spoken background heading is history; the same one said in the assessment is still found.
  const background = spokenBackground(doc);
  const addAll = (list: Found[]): void => list.forEach((f) => !inside(background.get(f.s) ?? [], f.from) && addFound(found, f));
  // Each way of finding a diagnosis names itself in the facts' provenance (`npm run eval -- --explain ID`).
  const by =
    (rule: string) =>
    (list: Found[]): void =>
      addAll(list.map((f) => ({ ...f, rules: [rule] })));
  let open = false;
  // The list that goes on was opened under a problem-list cue ("impression / diagnosis, 1. … 2. pelvic pain").
  let openProblems = false;
  const expect = { next: 1 };
  for (const s of doc.sentences) {
    if (skipSentence(s)) {
      open = false;
      continue;
    }
    const used: [number, number][] = [];
    const list = (rule: string, from: number, to: number, opts: Options, cueAt = from): number => {
      const items: Found[] = [];
      parseList(s, from, to, opts, expect, items);
      by(rule)(items);
      if (items.length || cueAt < from) used.push([cueAt, to]);
      return items.length;
    };
    const inAssessment = s.section === 'assessment';
    const history = s.section === 'history' || s.section === 'complaint' || toldBack(doc.sentences, s.index);
    const cues = sentenceCues(s.text, history, s.speaker === 'doctor');
    const hedged = cues.length ? null : HEDGED_LIST.exec(s.text);
    if (cues.length) {
      let items = 0;
      let empty = false;
      cues.forEach((c, k) => {
        // "you don't have …", "you're not suffering from …".
        // A denial before an earlier cue is that cue's ("I don't think this is a stroke … I think it's more related to …
        // now for your second problem of your diabetes").
        const before = cues[k - 1];
        const clause = Math.max(clauseStart(s.text, c.at), before && before.kind !== 'weak' ? before.end : 0);
        // "it's not a fracture, it's a sprain": a name given after the denied one's comma is asserted anew.
        const deniedBefore = c.kind === 'weak' && isNegated(s.text, c.at + 1) && !ASSERTED_ANEW.test(s.text.slice(Math.max(0, c.at - 2)));
        if (inside(used, c.at) || deniedBefore || DENIED_BEFORE.test(s.text.slice(clause, c.at))) return;
        // A list runs to the plan or to the next cue ("these are migraines, and I think … is adding a … headache").
        const to = Math.min(listEnd(s, c.end), cues[k + 1]?.at ?? Infinity);
        // A hedge said straight after the cue ("I think it's probably a UTI or a cystitis") covers the whole list too,
        // unless the list is numbered ("impression one probable sleep apnoea two hypertension"): then its first item.
        const lead = LEAD.exec(s.text.slice(c.end))?.[0] ?? '';
        const certainty = SUSPECT.test(c.text) || (SUSPECT.test(lead) && !ENUMERATED_LEAD.test(lead)) ? 'suspected' : hedgedBefore(s.text, c.at);
        expect.next = 1;
        const n = list(`dx.${c.kind}-cue`, c.end, to, { certainty, from: c.end, strict: c.kind !== 'strong', problems: c.problems || inAssessment }, c.at);
        if (c.kind !== 'strong') return;
        items += n;
        empty ||= to - c.end < 3;
        openProblems = c.problems || inAssessment;
      });
      open = items > 0 || empty;
    } else if (hedged) {
      // "So: suspected drug-induced confusion, rule out UTI, recurrent falls, hypothyroidism": a list without a cue.
      const from = hedged[0].length;
      // A hedged line inside a numbered list ("possible contribution of …") keeps the list's count.
      if (!open) expect.next = 1;
      open = list('dx.hedged-list', from, listEnd(s, from), { certainty: 'confirmed', from, strict: false, problems: inAssessment }) > 0;
    } else if (open || inAssessment) {
      // A list goes on into the next sentences, and a problem list under an assessment heading is one item a line.
      const lead = /^(?:number\s+)?(\d|[a-z]+)\b/.exec(s.text);
      const numbered = expect.next > 1 && !!lead && (Number(lead[1]) === expect.next || NUMBER_WORD[lead[1]!] === expect.next);
      const whole = !numbered && !inAssessment;
      // Under an assessment heading a short line is a problem of the list, a symptom included ("Mood swings."); a
      // longer one is the plan's prose, where only a name said first counts.
      const problems = openProblems || (inAssessment && s.tokens.length <= SHORT_ITEM);
      const line = inAssessment && s.tokens.length <= SHORT_ITEM;
      open = list(inAssessment ? 'dx.assessment-line' : 'dx.list-goes-on', 0, listEnd(s, 0), { certainty: 'confirmed', from: 0, strict: !numbered, whole, problems, atStart: inAssessment, line }) > 0;
    }
    if (!history) scanOutsideLists(s, used, by('dx.named-outside-list'), s.index < doc.planStart);
    if (s.index >= doc.planStart || inAssessment || s.section === 'plan') {
      scanProblemHeading(s, used, by('dx.problem-heading'));
      scanPlanAddressed(s, used, by('dx.plan-addressed'));
    }
    if (s.index >= doc.findingsStart) scanWholeNames(s, used, by('dx.whole-name'));
  }
  routineVisit(doc, by('dx.routine-visit'));
  if (!found.length) visitProblem(doc, by('dx.visit-problem'));
  if (!found.length && doc.consultation) reviewedCondition(doc, by('dx.review-question'));
  const all = doc.sentences.map((s) => s.text).join(' ');
  const pregnant = found.some((f) => f.entry && /^(?:Z3[34]|O)/.test(f.entry.code));
  for (const f of found) {
    if (!f.entry) continue;
    // WHO ICD-10 codes a condition of a pregnant woman in chapter XV: anaemia in pregnancy is O99.0.
    if (pregnant && /^D(?:5\d|6[0-4])/.test(f.entry.code)) f.entry = icdByCode('O99.0') ?? f.entry;
    if (/^Z3[34]/.test(f.entry.code)) {
      const code = FIRST_PREGNANCY.test(all) ? 'Z34.0' : LATER_PREGNANCY.test(all) ? 'Z34.8' : f.entry.code;
      f.entry = icdByCode(code) ?? f.entry;
    }
    if (f.entry.code === 'Z00.0' && CHILD.test(all)) f.entry = icdByCode('Z00.1') ?? f.entry;
  }
  refineCodes(doc, found);
  const refined: Found[] = [];
  // What follows the name, into the next sentence when only a space parted them (the segmenter cut the line before
  // "injection", not a full stop).
  const after = (f: Found): string => {
    const next = doc.sentences[f.s.index + 1];
    const end = f.s.text.length;
    const joined = !!next && f.s.text.slice(f.to).split(/\s+/).filter(Boolean).length <= 1 && next.span(0, 0).start - f.s.span(end, end).end <= 1;
    // The name's span may have taken an ordinal of the dose ("hepatitis b second | injection").
    const ordinal = /\b(?:first|second|third|fourth)$/.exec(f.s.text.slice(f.from, f.to))?.[0] ?? '';
    return `${ordinal} ${f.s.text.slice(f.to)} ${joined ? next.text : ''}`;
  };
  const takenBack = (f: Found): boolean => f.certainty === 'suspected' && DENIED_AFTER.test(f.s.text.slice(f.to));
  for (const f of found.sort((x, y) => x.s.index - y.s.index || x.from - y.from)) if (clinicalName(f) && !PREVENTION_AFTER.test(after(f)) && !takenBack(f)) addFound(refined, f);
  return refined.map((f) => {
    const name = nounName(tidyName(f.name));
    // "History of myocardial infarction", "family history of colon cancer": the disease's own code (I21.9, C18.9)
    // would say the patient has it now; such an item goes without a code (fixtures README). A chronic condition's
    // history ("history of coronary artery disease") is the condition, and keeps its code; a relative's never does.
    const coded = f.entry && !(ANOTHER_TIME_NAME.test(name) && (/\bfamily\b|^fh\b/.test(name) || !isChronic(f.entry.code)));
    return { name, certainty: f.certainty, evidence: f.s.span(f.from, f.to), ...(coded ? { icd10: icdRef(f.entry!) } : {}), rules: [...(f.rules ?? []), ...(f.certainty === 'suspected' ? ['dx.suspected'] : [])] };
  });
}

/**
 * A name is a diagnosis only when it has a word of the diagnosis vocabulary or reads like a disease: what follows
 * "it sounds like" or "it's" may be "awesome" or "a weird question". A code found by sound alone is enough for a
 * misheard name of several words, not for one word ("awesome" sounds like "AOM").
 */
function clinicalName(f: Found): boolean {
  // The words shown, without the spoken lead and tail the name was read with.
  const words = tokenize(tidyName(f.name)).filter((t) => /[a-z]/.test(t.text));
  const conditionWord = (t: Token): boolean => isExactIcdWord(t.text) && !NOT_CONDITION_WORD.has(t.text);
  // A clause ("the x-rays were personally reviewed by me") is no name, whatever it sounds like.
  if (words.some((t) => NOT_IN_NAME.test(t.text) || PERSON.test(t.text)) && !words.some(conditionWord)) return false;
  // "no evidence of disease": a name denied is no diagnosis (one prevented, "DVT prophylaxis", is PREVENTION_AFTER's).
  if (/^(?:no|not|without|never|negative for)\b|\b(?:has|have|had|shows?|showed)\s+no\b/.test(f.name)) return false;
  // A name of several words that is one of the code list's own ("well child check") is one, whatever its words.
  if (f.entry && words.length > 1 && exactIcdTokens(words.map((t) => t.text))) return true;
  // One word is a name only when it is one on its own ("asthma"), not a part of one ("cuboid" of "cuboid fracture").
  if (words.length === 1 && !DISEASE_LIKE.test(f.name) && !exactIcdTokens([words[0]!.text])) return false;
  if (!words.some((t) => !NOT_CONDITION_WORD.has(t.text) && !NOT_IN_NAME.test(t.text))) return false;
  // "your face and lips are not swollen": places alone name nothing.
  if (words.every((t) => BODY_PART.has(t.text) || CONNECTOR.has(t.text) || SIDE_WORD.test(t.text))) return false;
  return DISEASE_LIKE.test(f.name) || words.some(conditionWord) || (!!f.entry && words.filter((t) => !NOT_CONDITION_WORD.has(t.text)).length > 1);
}

/** Hedged phrases, conditions said to be (un)controlled, and known chronic conditions, outside a diagnosis list. */
function scanOutsideLists(s: Sentence, used: [number, number][], add: (list: Found[]) => void, beforePlan: boolean): void {
  // Negation is looked for from `clause` on: "no vomiting, known hypothyroid" is not a negated hypothyroidism.
  const strictAt = (from: number, to: number, certainty: Certainty, clause: number, noSymptom = false): void => {
    const [a, b] = tokenRange(s, from, to);
    if (a >= b) return;
    const items: Found[] = [];
    parseItem(s, a, b, { certainty, from: clause, strict: true }, items);
    if (noSymptom && items[0]?.entry && isSymptom(items[0].entry)) return;
    add(items.slice(0, 1));
    if (items.length) used.push([from, items[0]!.to]);
  };
  SUSPECT_SCAN.lastIndex = 0;
  for (let m = SUSPECT_SCAN.exec(s.text); m; m = SUSPECT_SCAN.exec(s.text)) {
    if (inside(used, m.index)) continue;
    const start = m.index + m[0].length;
    // "… and maybe a little weakness in your right leg": a symptom hedged before the plan is told, not diagnosed.
    strictAt(start, listEnd(s, start), 'suspected', clauseStart(s.text, m.index), beforePlan);
  }
  STATE.lastIndex = 0;
  for (let m = STATE.exec(s.text); m; m = STATE.exec(s.text)) {
    if (inside(used, m.index)) continue;
    const from = clauseStart(s.text, m.index);
    strictAt(from, m.index, 'confirmed', from);
  }
  if (FAMILY_RELATION.test(s.text)) return;
  KNOWN.lastIndex = 0;
  for (let m = KNOWN.exec(s.text); m; m = KNOWN.exec(s.text)) {
    const at = m.index + m[0].length - m[1]!.length;
    if (!inside(used, at)) strictAt(at, at + m[1]!.length, 'confirmed', clauseStart(s.text, m.index));
  }
  CHRONIC_ADJECTIVE.lastIndex = 0;
  for (let m = CHRONIC_ADJECTIVE.exec(s.text); m; m = CHRONIC_ADJECTIVE.exec(s.text)) {
    if (!inside(used, m.index) && !ADJECTIVE_NOT_SAID.test(s.text.slice(0, m.index))) strictAt(m.index, m.index + m[0].length, 'confirmed', m.index);
  }
}

// Where a condition named in passing is not this visit's: the past, the family, a question of it, one set aside
// ("allergic rhinitis rather than a sinus infection").
const NOT_THIS_VISIT = /\b(?:history|h\/o|past|previous|previously|prior|family|treated for|had|father|mother|brother|sister|son|daughter|husband|wife|risk of|screen(?:ing)? for|check for|test for|to prevent|prevention of|vaccine|no|rather than|instead of|as opposed to)\s+(?:\w+\s+){0,2}$/;
const WHOLE_NAME_WORDS = 6;
const AS_NEEDED_FOR = /\b(?:prn|p\.r\.n\.?|as needed|when needed|if needed|as required|when required)(?:\s+for)?\s+$/;
// Names a complaint is also said by ("back pain", "low sodium", "sore throat"), and names of tests and vaccines
// ("hepatitis b surface antigen"): neither is a diagnosis said in passing.
const SYMPTOM_WORD = /\b(?:pain|pains|ache|aches|aching|sore|low|high|raised|reduced|irregular|swelling|discharge|bleeding|loss|cough|fever|post|status)\b|^allerg(?:y|ies)$/;
const TEST_AFTER = /^\s*(?:surface|antigen|antibod(?:y|ies)|test|tests|serology|screen|screening|profile|panel|vaccines?|vaccination|titre|titer|rapid|card|pcr|ns1|igm|igg|treatment|prevention|precautions|education|warning|signs|symptoms|diet|exercises?|risk)\b/;

/**
 * A condition named whole, two words or more, outside any list: "… on examination left ear bulging drum acute
 * suppurative otitis media tab …". A recogniser often loses the cue word ("impression") that opens a list, while the
 * name itself comes through; said whole and not a symptom, it is this visit's diagnosis unless the words before it
 * put it in the past, the family or a negation.
 */
function scanWholeNames(s: Sentence, used: [number, number][], add: (list: Found[]) => void): void {
  const t = s.tokens;
  for (let i = 0; i < t.length; i++) {
    if (!isIcdWord(t[i]!.text) || inside(used, t[i]!.start)) continue;
    let best: { j: number; entry: IcdEntry } | undefined;
    for (let j = exactIcdReach(t, i, Math.min(t.length, i + WHOLE_NAME_WORDS)); j > i && !best; j--) {
      if (!isIcdWord(t[j - 1]!.text) || (j === i + 1 && !DISEASE_LIKE.test(t[i]!.text))) continue;
      const entry = exactIcdSpan(s.tokens, i, j);
      if (entry) best = { j, entry };
    }
    if (!best || /^[RZ]/.test(best.entry.code)) continue;
    const from = t[i]!.start;
    const to = t[best.j - 1]!.end;
    const name = s.text.slice(from, to);
    if (SYMPTOM_WORD.test(name) || TEST_AFTER.test(s.text.slice(to)) || NOT_THIS_VISIT.test(s.text.slice(Math.max(0, from - 40), from)) || isNegated(s.text, from)) continue;
    // "tizanidine 2 mg at bedtime prn muscle spasm": what a drug is taken for when needed, not a diagnosis made.
    if (AS_NEEDED_FOR.test(s.text.slice(Math.max(0, from - 20), from))) continue;
    if (DENIED_BEFORE.test(s.text.slice(clauseStart(s.text, from), from)) || PASSING_NOT.test(s.text.slice(0, from))) continue;
    add([{ name, certainty: 'confirmed', entry: best.entry, s, from, to, passing: true }]);
    used.push([from, to]);
    i = best.j - 1;
  }
}

/**
 * A problem-oriented plan names each problem before what is done for it: "1. Gout: continue allopurinol." The words
 * before the item's colon, when they are exactly a condition's name, are that diagnosis (a one-word name too, which
 * elsewhere needs a disease-like ending).
 */
function scanProblemHeading(s: Sentence, used: [number, number][], add: (list: Found[]) => void): void {
  const colon = s.text.indexOf(':');
  if (colon < 0 || inside(used, 0)) return;
  const b = s.tokens.findIndex((t) => t.start >= colon);
  if (b <= 0 || b > WHOLE_NAME_WORDS) return;
  const entry = exactIcdSpan(s.tokens, 0, b);
  if (!entry || /^[RZ]/.test(entry.code)) return;
  const to = s.tokens[b - 1]!.end;
  add([{ name: s.text.slice(0, to), certainty: 'confirmed', entry, s, from: 0, to }]);
  used.push([0, to]);
}

/** A routine visit is itself the diagnosis: a child's check-up, an antenatal visit. */
// "A 78-year-old female with the problem of essential hypertension": what the visit is for, told in the history.
const VISIT_PROBLEM = new RegExp(String.raw`\b(?:${alternation(CUES.visitProblem)})\s+`, 'g');

/** A note that says no diagnosis anywhere is about the problem its history says the visit is for, if it names one. */
function visitProblem(doc: Doc, add: (list: Found[]) => void): void {
  for (const s of doc.sentences.slice(0, doc.planStart)) {
    if (skipSentence(s) || (s.section !== null && s.section !== 'history' && s.section !== 'complaint')) continue;
    VISIT_PROBLEM.lastIndex = 0;
    const m = VISIT_PROBLEM.exec(s.text);
    if (!m) continue;
    const from = m.index + m[0].length;
    const items: Found[] = [];
    parseList(s, from, listEnd(s, from), { certainty: 'confirmed', from, strict: true }, { next: 1 }, items);
    if (items.length) return add(items);
  }
}

// "how's the asthma been?": the doctor opening the review of a condition the patient has.
const REVIEW_QUESTION = new RegExp(String.raw`^(?:(?:so|and|now|okay|ok|right|well)[\s,]+)*(?:${alternation(CUES.reviewQuestions)})\s+`);
const REVIEW_TAIL = /\s+(?:been|going|doing|getting on|behaving|treating you|lately|recently|these days|at the moment)\b.*$|\s*\?$/;

/** A consultation that says no diagnosis reviews the known condition its doctor asks after, if it names one. */
function reviewedCondition(doc: Doc, add: (list: Found[]) => void): void {
  for (const s of doc.sentences) {
    if (s.speaker !== 'doctor' || !s.text.endsWith('?')) continue;
    const m = REVIEW_QUESTION.exec(s.text);
    if (!m) continue;
    const from = m[0].length;
    const to = from + s.text.slice(from).replace(REVIEW_TAIL, '').length;
    const items: Found[] = [];
    parseList(s, from, to, { certainty: 'confirmed', from, strict: true }, { next: 1 }, items);
    // "how's the itching?", "how is the leg pain?": a symptom asked after is how the patient is, not a condition.
    const conditions = items.filter((f) => !f.entry?.code.startsWith('R') && !SYMPTOM_WORDS.test(f.name));
    if (conditions.length) return add(conditions);
  }
}
const SYMPTOM_WORDS = new RegExp(String.raw`\b(?:${alternation(SYMPTOMS.flatMap((x) => [x.name, ...x.variants]))})\b`);

function routineVisit(doc: Doc, add: (list: Found[]) => void): void {
  for (const s of doc.sentences) {
    if (skipSentence(s)) continue;
    const m = ROUTINE_VISIT.exec(s.text);
    if (!m) continue;
    const visit = m[1] ?? m[0];
    const code = /check ?up|checkup|well/.test(visit) && !/natal/.test(visit) ? 'Z00.0' : 'Z34.9';
    const entry = icdByCode(code);
    if (entry) add([{ name: entry.display.toLowerCase(), certainty: 'confirmed', entry, s, from: m.index, to: m.index + m[0].length }]);
  }
}

const FAMILY = new RegExp(String.raw`${RELATIVE}(?:'s)?\s+(?:also\s+)?(?:has|had|is|was|suffers from|suffered from|died of|with|h\/o)\s+(?:also\s+)?(?:a\s+|an\s+)?([^,;]+)`, 'g');
const ANOTHER_TIME_NAME = /^(?:(?:a|personal|past|prior|previous)\s+)?(?:(?:family|medical)\s+)?(?:history of|h\/o|fh of|status post|s\/p)\b/;
const FAMILY_HISTORY = /\bfamily history of\s+([^,;]+)/g;

export function extractFamilyHistory(doc: Doc): string[] {
  const out: string[] = [];
  for (const s of doc.sentences) {
    FAMILY.lastIndex = 0;
    for (let m = FAMILY.exec(s.text); m; m = FAMILY.exec(s.text)) {
      const what = m[2]!.trim();
      if (/^(?:says|said|told|noticed)\b/.test(what)) continue;
      out.push(`${m[1]}: ${what}`);
    }
    FAMILY_HISTORY.lastIndex = 0;
    for (let m = FAMILY_HISTORY.exec(s.text); m; m = FAMILY_HISTORY.exec(s.text)) out.push(m[1]!.trim());
  }
  return out;
}

const PAST = /\b(?:known(?: case of)?|k\/c\/o|h\/o|history of|past history of)\s+([^,;]+)|\b((?:type \d )?(?:diabetic|hypertensive|asthmatic|epileptic|hypothyroid)\s+(?:for|since)\s+(?:the\s+)?(?:last\s+)?\d+\s+(?:year|month)s?)\b/g;

export function extractPastHistory(doc: Doc): string[] {
  const out: string[] = [];
  for (const s of doc.sentences.slice(0, doc.planStart)) {
    if (FAMILY_RELATION.test(s.text)) continue;
    PAST.lastIndex = 0;
    for (let m = PAST.exec(s.text); m; m = PAST.exec(s.text)) {
      const item = (m[1] ?? m[2] ?? '').trim();
      if (item && !isNegated(s.text, m.index)) out.push(item);
    }
  }
  return out;
}

/** An allergy as said: the allergen's name (a drug's generic name) and the words of the sentence it came from. */
export interface AllergyMention {
  name: string;
  sentence: Sentence;
  from: number;
  to: number;
}

// Allergens that are not in the formulary: drug classes as an allergy is stated, and common non-drug allergens.
const ALLERGEN = new PhraseIndex<string>();
for (const c of CLASSES) if (c.allergy) for (const n of c.names) ALLERGEN.add(n, n);
const ALLERGENS = checkedData(
  'allergens.json',
  Type.Object({ ...Provenance, about: Type.String(), allergens: Type.Array(Type.Object({ name: Type.String({ minLength: 1 }), said: Phrases })) }),
  ALLERGENS_FILE,
);
for (const a of ALLERGENS.allergens) for (const n of a.said) ALLERGEN.add(n, a.name);

const ALLERGY_CUE = /\ballerg(?:ic|y|ies)[\s,]+(?:to|with|for)[\s,]+|\ballergies\s*(?::|,|-|are|include|to)\s*|(?<!\b(?:seasonal|her|his|my|your|their|our|the|with|of|for|any|no|food|drug|known|environmental|about|and|or|severe|bad|nasal|skin|some)\s)\ballergies\s+(?!(?:\w+\s+){0,3}(?:try|start|give|use|take|prescribe|continue|add)\b)|\b(?:reaction|reacted|rash|rashes|hives|swelling|itching|anaphylaxis)\s+(?:(?:all over|all over the body|on the body)\s+)?(?:to|with|after|from)\s+/g;
// "I can't take morphine, I'm allergic": the allergy said after the drug the speaker cannot take.
const CANNOT_TAKE_ALLERGIC = /\b(?:can't|cannot|can not|couldn't|mustn't|shouldn't)\s+(?:take|have|be given|use)\s+(?=[^.;?]{1,40}?[\s,]+(?:(?:as|because|since|cause)\s+)?(?:i'm|i am|she's|she is|he's|he is|they're|they are)\s+(?:very\s+|really\s+)?allergic\b)/;
// "an egg allergy", but not "allergy medicine" or "allergy season".
// "I'm going to give you amoxicillin …" – "I think I'm allergic to it", "I had a rash with it before": the drug of the
// doctor's turn just before.
const ALLERGIC_TO_IT =
  /\b(?:allergic to|(?:a |an )?(?:allergy|reaction) to|react(?:ed)? (?:badly )?to|(?:a )?(?:rash|hives) (?:with|from|to|after))\s+(?:it|that|that one|them|those)\b|\b(?:it|that|that one|they|those) (?:gives|gave|give|brings|brought) me (?:a |an )?(?:rash|hives|swelling|reaction|allergic reaction)\b/;
// "I'll put the doxycycline on your record as something to avoid", "add penicillin to your allergy list": recorded as one.
const ALLERGY_AFTER =
  /\s+(?:(?:allergy|allergies)\b(?!\s+(?:medicines?|medications?|tablets?|pills?|drops|sprays?|season|symptoms|problems|tests?|testing|shots?|clinic))|(?:on|to|in)\s+(?:your|her|his|the)\s+(?:(?:records?|notes)\s+as\s+(?:an?\s+)?(?:allergy|intolerance|something to avoid|drug to avoid|medicine to avoid)|allergy list|list of allergies)\b)/g;
// A question as the recogniser gives it, without its question mark.
const QUESTION_START = /^(?:is|are|do|does|did|any|have|has|had|what(?! (?:you|he|she) (?:have|has) is| (?:you're|you are) (?:describing|telling)| i (?:think|see|found|find)\b| we)|which|ever)\b/;
// The allergy question inside a turn that does not start as a question ("ok do you have any allergies to any medication").
const ALLERGY_ASKED = /\b(?:do you|does (?:he|she)|did you|have you|has (?:he|she)|are you|is (?:he|she)|any)\b[\w\s']{0,30}\ballerg\w*(?![\w\s']{0,40}\b(?:i|i'm|i've|we|we'll|i'll)\b)/;
const ALLERGY_QUESTION = /\b(?:allerg\w*|reactions?|react)\b/;
const NO_ALLERGY = /^(?:no|nil|none|not|never|nope|nkda|nothing)\b|\bno (?:known )?(?:drug )?allerg/;
// "I think there was an antibiotic called clindamycin": the hedge and the kind of drug before its name.
const ANSWER_LEAD = /^(?:(?:yes|yeah|yep|sir|madam|ma'am|doctor|doc|to|i am|i'm|she is|he is|allergic|only|just|once|one|uh|um|er|erm|oh|well|actually|really|i've|i have|got|i think|i believe|there was|there is|there's|it was|it's|i (?:cannot|can't|can not) take|(?:an? )?(?:antibiotic|medication|medicine|drug|tablet)s?,?(?:\s*(?:um|uh),?)?\s+(?:called|named))(?![a-z'])\s*|,\s*)+/;
// "No, just latex": a no that an allergen follows is the answer to "any drug allergies?", not to "any allergies?".
// "ok and do you have any allergies …": the words a spoken question may open with.
const QUESTION_FILLERS = /^(?:(?:ok|okay|and|so|right|alright|all right|um|uh|now)\s+)+/;
const ANSWER_AT_START = /^(?:yes|yeah|yep|no|nope|um|uh|i|i'm|just|only)\b/;
const ANSWER_OPENS = /\b(?:yes|yeah|yep|no|nope|um|uh|i|i'm|just|only)\b/;
const NO_THEN = /^(?:no|nope|not to (?:any )?(?:medicines?|medications?|drugs?))\b[\s,.]*(?:(?:but|only|just|really|i've|i have|i'm|apart from|except)\b[\s,]*)*/;

/** The allergen named at text offset `at` of the sentence: a formulary drug (as its generic), a class or an allergen. */
const OF_THE_DRUG = /^(?:resistance|resistant|levels?|therapy|treatment|doses?|dosing|use|course|tests?|testing|trial|prophylaxis|regimen)$/;

function allergenAt(s: Sentence, at: number, maxWords = 3): AllergyMention[] {
  const out: AllergyMention[] = [];
  const [a] = tokenRange(s, at, s.text.length);
  // `maxWords` bounds where the first allergen may start; a list, once started, goes on as long as it is linked.
  for (let i = a; i < s.tokens.length && (out.length > 0 || i < a + maxWords); i++) {
    const drug = DRUG_INDEX.matchAt(s.tokens, i);
    const other = drug ? undefined : ALLERGEN.matchAt(s.tokens, i);
    const m = drug ?? other;
    if (!m) {
      if (/^(?:and|or|,)$/.test(s.tokens[i]!.text)) continue;
      if (out.length) break;
      continue;
    }
    // "Since you reacted to Macrobid, and Bactrim resistance is high": a later item that names something of the drug's
    // starts a clause of its own, not one more allergen.
    if (out.length && OF_THE_DRUG.test(s.tokens[m.to]?.text ?? '')) break;
    out.push({ name: drug ? drug.payload.drug.name : other!.payload, sentence: s, from: m.start, to: m.end });
    // "Codeine (nausea), latex": the reaction in brackets after an allergen is its own, and the list goes on after it.
    let next = m.to;
    const bracket = /^\s*\(([^()]{0,60})\)/.exec(s.text.slice(m.end));
    if (bracket) while (next < s.tokens.length && s.tokens[next]!.start < m.end + bracket[0].length) next++;
    i = next - 1;
    // "penicillin and sulfa": a list goes on after "and"/"or"/a comma.
    if (!/^(?:and|or|,)$/.test(s.tokens[next]?.text ?? '')) break;
  }
  return out;
}

/** The allergens of an answer to the allergy question ("Uh, no just latex."), none for "no", "NKDA". */
const CONFIRMS = /^(?:(?:um|uh|well|oh)[\s,]+)*(?:yes|yeah|yep|yup|correct|that's (?:correct|right)|that is (?:correct|right)|right|i am|i do)\b/;

const ECHO_LEAD = /^(?:(?:oh|so|okay|ok|ah|um|uh)[\s,]+)*(?:(?:do |did )?you mean |is it |was it |like )?/;
const BARE_YES = new RegExp(`${CONFIRMS.source}[\\s,.!]*$`);
// "What happens when you take Lortab?" – "Really bad hives.": a reaction told in answer makes the drug asked about an
// allergy.
const REACTION_ASKED = /\bwhat happens (?:when|if) (?:you|he|she) (?:take|takes|took|use|uses|used|have|has|had|eat|eats|ate)\b/;
const REACTION_TOLD = /\b(?:rash|rashes|hives|swell\w*|itch\w*|anaphyla\w*|wheez\w*|(?:can't|cannot|couldn't|trouble) breath\w*|throat (?:closes|closed|closing|swells|swelled)|vomit\w*|throw up|throwing up|blisters?)\b/;

/** The allergens of an answer said from offset `at` of its sentence (0: a turn of its own). */
function allergyAnswer(answer: Sentence, at = 0): AllergyMention[] {
  // "uh not that i know of": a hesitation before the answer is no part of it.
  const text = answer.text.slice(at).replace(/^\s*(?:(?:uh|um|er|erm|well|oh|hmm)\b[\s,]*)*/, '');
  const start = answer.text.length - text.length;
  const no = NO_THEN.exec(text);
  const from = no ? no[0].length : 0;
  if (!no && NO_ALLERGY.test(text)) return [];
  const lead = ANSWER_LEAD.exec(text.slice(from));
  return allergenAt(answer, start + from + (lead ? lead[0].length : 0), 6);
}

/** The last drug the other speaker named in the turn just before `s`. */
function drugOfTurnBefore(doc: Doc, s: Sentence): AllergyMention[] {
  const before = doc.sentences.filter((x) => x.turn === s.turn - 1 && x.speaker !== s.speaker);
  for (const x of before.reverse()) {
    for (let i = x.tokens.length - 1; i >= 0; i--) {
      const drug = DRUG_INDEX.matchAt(x.tokens, i);
      if (drug) return [{ name: drug.payload.drug.name, sentence: x, from: drug.start, to: drug.end }];
    }
  }
  return [];
}

export function findAllergies(doc: Doc): AllergyMention[] {
  const out: AllergyMention[] = [];
  const answered = new Map<number, AllergyMention[]>();
  let lastStated = -Infinity;
  let lastCue = -Infinity;
  for (const s of doc.sentences) {
    if (FAMILY_RELATION.test(s.text) && !/\b(?:she|he|i|you)\b/.test(s.text)) continue;
    // The answer is the other speaker's next sentence ("Any allergies at all? Medication?" "No, just hay fever.").
    // Read without speaker labels the turns may be one speaker's: then the next sentence, if it opens as an answer.
    const next = doc.sentences[s.index + 1];
    const answer = doc.sentences.slice(s.index + 1, s.index + 3).find((a) => a.speaker !== s.speaker) ?? (next && ANSWER_AT_START.test(next.text) ? next : undefined);
    if (ALLERGY_QUESTION.test(s.text)) lastCue = s.index;
    if (ALLERGY_QUESTION.test(s.text) && (s.text.endsWith('?') || QUESTION_START.test(s.text.replace(QUESTION_FILLERS, '')) || ALLERGY_ASKED.test(s.text))) {
      // Read by a recogniser without speaker labels, the answer may follow the question in its sentence: "do you have
      // any allergies i'm allergic to ibuprofen".
      // ("any allergies to penicillin no": the drug asked about, then denied, is none.)
      if (!s.text.trimEnd().endsWith('?')) {
        const asked = ALLERGY_QUESTION.exec(s.text)!;
        const after = asked.index + asked[0].length;
        // The answer starts at its first answering word, after the rest of the question ("to any medications"); with
        // none, the words after the question are its own ("… allergies to any kind of cats or dogs").
        const opens = s.text.slice(after).search(ANSWER_OPENS);
        const own = opens < 0 ? [] : allergyAnswer(s, after + opens);
        if (own.length && !NO_ALLERGY.test(s.text.slice(own.at(-1)!.to).trimStart())) {
          out.push(...own);
          lastStated = s.index;
          continue;
        }
      }
      let said = answer ? allergyAnswer(answer) : [];
      if (answer) answered.set(answer.index, said);
      // "Do you have any allergies to medications?" – "Yes. Penicillin.": a bare yes, then the allergen.
      const next = answer && doc.sentences[answer.index + 1];
      if (answer && !said.length && BARE_YES.test(answer.text) && next?.turn === answer.turn) {
        said = allergyAnswer(next);
        answered.set(next.index, said);
      }
      // "you've got an allergy to penicillin, is that correct?" "that's correct": the allergen is the question's.
      if (said.length || !answer || !CONFIRMS.test(answer.text)) continue;
    }
    const reacted = REACTION_ASKED.exec(s.text);
    if (reacted && answer && REACTION_TOLD.test(answer.text) && !NO_ALLERGY.test(answer.text)) {
      const named = allergenAt(s, reacted.index + reacted[0].length, 4);
      if (named.length) {
        out.push(...named);
        lastStated = s.index;
        continue;
      }
    }
    // "I am allergic to... it's called Napro-" – "Naprosyn?" – "Yes, Naprosyn.": the drug the doctor names for an
    // allergy being told, the whole question, is the allergen once the patient confirms it.
    const echo = s.speaker === 'doctor' && s.text.endsWith('?') && s.index - lastCue <= 3 ? ECHO_LEAD.exec(s.text) : null;
    if (echo && answer && CONFIRMS.test(answer.text)) {
      const named = allergenAt(s, echo[0].length, 4);
      if (named.length && !/\w/.test(s.text.slice(named.at(-1)!.to))) {
        out.push(...named);
        lastStated = s.index;
        continue;
      }
    }
    const stated: AllergyMention[] = answered.get(s.index) ?? [];
    // "ALLERGIES: She thinks to Benadryl." Every allergen named under the heading, unless it says there are none.
    if (s.section === 'allergies' && !NO_ALLERGY.test(s.text.replace(/^allerg\w*\s*:?\s*/, ''))) stated.push(...allergenAt(s, 0, s.tokens.length));
    ALLERGY_CUE.lastIndex = 0;
    for (let m = ALLERGY_CUE.exec(s.text); m; m = ALLERGY_CUE.exec(s.text)) {
      const reaction = !/^allerg/.test(m[0]);
      // "allergic to penicillin, she had rashes with amoxicillin": the reaction, there or just after, only tells how.
      if (reaction && (stated.length || s.index - lastStated <= 2)) continue;
      if (isNegated(s.text, m.index + 1) && !reaction) continue;
      // A bare heading a recogniser gives without its colon ("allergies she thinks to benadryl") names it a little later.
      stated.push(...allergenAt(s, m.index + m[0].length, /^allergies\s*$/.test(m[0]) ? 4 : 3));
    }
    const cannot = CANNOT_TAKE_ALLERGIC.exec(s.text);
    if (cannot && !stated.length) stated.push(...allergenAt(s, cannot.index + cannot[0].length, 3));
    ALLERGY_AFTER.lastIndex = 0;
    for (let m = ALLERGY_AFTER.exec(s.text); m; m = ALLERGY_AFTER.exec(s.text)) {
      const before = s.tokens.filter((t) => t.end <= m!.index).slice(-3);
      for (let k = 0; k < before.length; k++) {
        const found = allergenAt(s, before[k]!.start, 1).filter((x) => x.to === m!.index);
        if (found.length && !isNegated(s.text, found[0]!.from)) {
          stated.push(found[0]!);
          break;
        }
      }
    }
    if (!stated.length && s.speaker === 'patient' && ALLERGIC_TO_IT.test(s.text)) stated.push(...drugOfTurnBefore(doc, s));
    if (stated.length) lastStated = s.index;
    out.push(...stated);
  }
  const seen = new Set<string>();
  return out.filter((a) => !seen.has(a.name) && seen.add(a.name));
}
