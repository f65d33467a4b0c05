/**
 * Medications prescribed or continued at this visit. A prescription line starts at a drug name (the formulary's
 * generic or brand names, a misheard name snapped by spelling or sound, or an unknown word prescribed like a drug:
 * a form word before it, a strength, dose or frequency after it) together with the form word and verb that lead it,
 * and runs to the next line or to words that start something else (review, advice, a conditional plan), so it does
 * not need punctuation to end. From the line come strength, dose, form, route, frequency, timing, duration and
 * instructions, each with the span it was said in; "then" starts a new step of a taper. What the doctor meant
 * decides what is output: stopped drugs, drugs the patient was or is on without being told to continue, drugs merely
 * considered, drugs for someone else and drugs the doctor corrected are left out, and a drug the note stops is never
 * also listed.
 */
import { doubleMetaphone } from 'double-metaphone';
import { FORMULARY, type Drug } from './vocab/formulary.js';
import { classMemberNamed } from './vocab/drug-knowledge.js';
import { matchIcdTokens, snapWord } from './codify.js';
import { findInvestigationMatches } from './investigations.js';
import { CONTEXT_RULES, contextOf, sentenceModifiers, type ContextCategory, type ContextModifier } from './context.js';
import { PATIENT_LABEL_PRESCRIBES_RULE, STATUS_UNCLEAR_RULE, STRENGTH_CONFLICT_RULE, type Amount, type ConditionalMedication, type Duration, type Frequency, type Medication, type MedicationField, type MedicationStatus, type Span } from './facts.js';
import { PhraseIndex, tokenize, type Token } from './lexicon.js';
import { inlineHeadings, PRESCRIBER_VOICE, spokenSections, type Doc, type Sentence, type SpokenSection } from './sections.js';

export interface DrugRef {
  drug: Drug;
  brand?: string;
}

export const DRUG_INDEX = new PhraseIndex<DrugRef>();
const SINGLE_WORDS = new Map<string, DrugRef>();
for (const drug of FORMULARY) {
  const generic: DrugRef = { drug };
  for (const n of [drug.name, ...(drug.us ? [drug.us] : []), ...drug.aliases]) {
    DRUG_INDEX.add(n, generic);
    if (!n.includes(' ')) SINGLE_WORDS.set(n, generic);
  }
  for (const b of drug.brands) {
    const ref = { drug, brand: b };
    DRUG_INDEX.add(b, ref);
    if (!b.includes(' ')) SINGLE_WORDS.set(b, ref);
  }
}
const SNAP_VOCAB = [...SINGLE_WORDS.keys()].filter((w) => w.length >= 5);
const SNAP_PHONETIC = new Map<string, string[]>();
for (const w of SNAP_VOCAB) {
  const [code] = doubleMetaphone(w);
  SNAP_PHONETIC.set(code, [...(SNAP_PHONETIC.get(code) ?? []), w]);
}

const FORM_PREFIX: Record<string, string> = {
  tab: 'tablet', tabs: 'tablet', tablet: 'tablet', cap: 'capsule', caps: 'capsule', capsule: 'capsule', syp: 'syrup',
  syrup: 'syrup', susp: 'suspension', suspension: 'suspension', inj: 'injection', injection: 'injection',
  oint: 'ointment', ointment: 'ointment', cream: 'cream', gel: 'gel', lotion: 'lotion', drops: 'drops', drop: 'drops',
  sachet: 'sachet', inhaler: 'inhaler', spray: 'spray', respules: 'respules', rotacap: 'rotacaps', rotacaps: 'rotacaps',
  suppository: 'suppository', pessary: 'vaginal pessary', lozenge: 'lozenge', patch: 'patch', powder: 'powder',
  pill: 'tablet', pills: 'tablet', eyedrops: 'eye drops', foam: 'foam',
};
const FORM_WORDS = String.raw`tablets?|pills?|eyedrops|foam|capsules?|syrup|suspension|liquid|elixir|drops|spray|ointment|cream|gel|emulgel|lotion|shampoo|soap|face wash|lozenges?|pessary|pessaries|suppository|sachets?|inhaler|rotacaps?|respules|injection|powder|patch|mouthwash|gargle|solution|paint|paste|chewing gum|gum`;
const FORM_MODIFIER = String.raw`chewable|dispersible|sublingual|orally disintegrating|nasal|eye|ear|vaginal|oral|topical|dusting|metered dose|dry powder`;
const FORM_NEXT = new RegExp(String.raw`^\s+(?:${FORM_WORDS})\b`);
// "spiriva handihaler", "albuterol hfa inhaler", "tobrex eye drops": product words may sit between name and form.
// The form said after the name, past a strength or a change of it ("Abilify from 7.5 mg to 5 mg tablet").
const FORM_AFTER = new RegExp(
  String.raw`^\s*,?\s*(?:(?!(?:once|twice|daily|for|if|when|and|then|with|in|the|at|after|before|to|on|of)\b)[a-z]+\s+)?(?:(?:\d+(?:\.\d+)?|point \d+)\s*(?:mg|mcg|micrograms?|g|percent|%)\s*,?\s+(?:to\s+\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g)\s+)?)?(?:(?:hfa|mdi|dpi|respimat|handihaler|diskus|accuhaler|ds|forte|xr|sr|er|cr|plus)\s+)*((?:${FORM_MODIFIER})\s+)?(${FORM_WORDS})\b`,
);
const FORM_IN_NAME = new RegExp(String.raw`(cream|ointment|gel|lotion|foam|eyedrop|drop|spray|inhaler|shampoo)s?(?:\s+[a-z]{1,3})?$`);
const COUNT_THEN_FREQUENCY = /(?:^|[\s,])(?:#\s*\d+\s+)?(?:1|2|half)\s+(?:(?:po|orally|by mouth)\s+)?(?:bid|tid|qid|qd|od|bd|tds|qhs|hs|q\s*\d+\s*h\w*)\b/;
const DEVICE_FORM: [RegExp, string][] = [[/\b(?:handihaler|respimat|hfa|mdi|diskus|accuhaler)\b/, 'inhaler'], [/\bemulgel\b/, 'gel']];
const DOSE_BEFORE = /\b(?:tablets?|tabs?|capsules?|caps?|mg|mcg|ml|\d+)\s*,?\s*$/;
const MEASURED_AFTER = /^\s*(?:levels?|troughs?|peak levels?|concentrations?|assays?|lock(?:ed)?|overdoses?|toxicity|intoxication|poisoning|induced)\b/;
const RESULT_RUN = /(?:\b[a-z][a-z0-9 ]{1,25}?\s+(?:of\s+|was\s+|is\s+)?\d+(?:\.\d+)?\s*(?:,|and)\s*(?:and\s+)?){2,}$/;
const BARE_VALUE = /^\s*(?:level\s+|of\s+|was\s+|is\s+)?\d+(?:\.\d+)?(?!\s*(?:mg|mcg|g|gm|grams?|milligrams?|micrograms?|units?|iu|meq|mmol|ml|%|percent|tablets?|tabs?|capsules?|caps?|puffs?|drops?)\b)/;
const SHORT_IN_LIST = /^\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+)$/;
const SHORT_BRAND_CONTEXT = /\b(?:tab|tabs|tablet|cap|capsule|syp|syrup|inj|injection|start|continue|give|receive|received|administer|administered)\s*$/;

// A sentence cannot end on these words: the segmenter cut a clause ("… we may | give injection …"). "Then" only
// after a verb or a link ("we'll then | start …"): "I won't give you codeine then." ends where it says.
const DANGLING = /\b(?:may|might|could|would|will|shall|can|we|i|to|and|(?:and|we|i|will|would|'ll|may|might|could|can|should|shall)\s+then|if|not)\s*$/;
// "put you on some naprosyn and some flexeril", "continue the lipitor and the aspirin": a determiner may follow the link.
// "refill your metoprolol your crestor": in unpunctuated speech a bare possessive between two drugs joins them too.
// "paracetamol, or even co-codamol", "anti-inflammatories, such as ibuprofen": a hedge or an example joins them too.
const LIST_LINK = /(?:,|\/|\band|\bor|\balso|\bplus|\bas well as|\bsuch as|\bin the form of|\blike|\bfor example|\bsay)(?:\s+(?:the|some|your|her|his|their|a|an|also|even|maybe|perhaps|possibly|tapered|tapering|oral|topical|inhaled|iv|im|intravenous|intramuscular|subcutaneous|sublingual|nebulized|nebulised))*\s*$|^\s*(?:your|her|his|their)\s*$|\b(?<!\b(?:not|never|apart)\s+)(?:together\s+)?(?<!\b(?:not|never|apart)\s+together\s+)with(?:\s+(?:the|some|a|an|topical|oral))?\s*$/;
// "we'll try benzoyl peroxide with clindamycin": a drug given with another is a second item of the list (not one the
// patient is on already: "ibuprofen with your lisinopril"; nor one to keep apart: "not together with the iron tablet").
// A sentence that goes on with the one before ("… think about paracetamol, or even co-codamol. And some
// anti-inflammatories, such as ibuprofen"): the segmenter cut a list the speaker was still saying.
const GOES_ON = /^\s*(?:(?:um|uh|er|erm|so)\b[\s,]*)*(?:and|or|plus)\b/;
const LIST_HEADING_RULE = 'historical.list-heading';
// A sentence that ends by opening a list: "which are:", "as follows", "including:".
const LIST_OPENS = /(?:\b(?:which (?:are|is|include)|as follows|including|the following)\s*:?|:)\s*$/;
const LIST_SHARES = 'med.list-shares-verb';
const OWN_LIST = /^\s*,?\s*(?:which (?:are|is|includes?|consists? of)|as follows|including|namely|the following)\b/;
const CONTINUED_UNDER_PROBLEM = 'med.continued-under-problem';
const PROBLEM_ITEM_WORDS = 6;
/**
 * The problem a plan's numbered item names before the sentence ("1. Ischemic cardiac disease. This remains stable. He
 * will continue on the same medication."): a short opening sentence of the item with no drug in it.
 */
function problemItemOf(doc: Doc, s: Sentence, namesDrug: (k: number) => boolean): boolean {
  for (let k = s.index; k >= Math.max(0, s.index - 3); k--) {
    const at = doc.sentences[k]!;
    if (at.section !== s.section) return false;
    if (at.item) return k < s.index && at.tokens.length <= PROBLEM_ITEM_WORDS && !namesDrug(k);
  }
  return false;
}
const SURE_WHEN_DOSED = new Set(CONTEXT_RULES.filter((r) => r.sure_when_dosed).map((r) => r.id));
// Only a cue's own doubt, which a strength and a schedule said with the drug settle (rule `sure_when_dosed`), told to
// the patient: a consultant's report recommends to the team that prescribes.
const doubtSettled = (doc: Doc, d: Decided, med: { strength?: Amount; frequency?: Frequency }): boolean =>
  doc.consultation && SURE_WHEN_DOSED.has(d.rules[0]!) && d.rules.every((r, i) => i === 0 || r === LIST_SHARES) && !!med.strength && !!med.frequency;
const REGIMEN_ONLY =
  /^(?:[\s,;]|\b(?:\d+(?:\.\d+)?|mg|mcg|g|units?|ml|cc|po|iv|im|sq|subcutaneous|prn|bid|tid|qid|daily|per|a|day|once|twice|three|four|times|every|other|evening|morning|am|pm|at|bedtime|night|tabs?|tablets?|caps?|capsules?|puffs?|drops?|and|with|meals|hours?|as|needed|weekly)\b)+$/;
const LIST_ITEM_LEAD = /^\s*(?:(?:number\s+)?\d+\b[\s.):,-]*)?$/;
// "start amoxicillin, no sorry, azithromycin": the drug before the correction is withdrawn.
const CORRECTION = /^[\s,]*(?:(?:\d+(?:\.\d+)?\s*[a-z]*|point \d+\s*[a-z]*)\s*,?\s*)?(?:(?:oh\s+)?no|sorry|i'm sorry|i am sorry|correction|i mean|i meant|rather|scratch that|make (?:that|it)|not that)(?:[\s,]+(?:no|sorry|i'm sorry|i am sorry|i mean|make (?:that|it)))*[\s,]*$/;
// "seventy five no sorry fifty mg", "650, correction, 1,300 milligrams": the number before is blanked out.
const NUMBER_CORRECTION =
  /(?:\d[\d,]*(?:\.\d+)?|point \d+)\s*(?:[a-z]+\s*)?,?\s*\b(?:(?:oh\s+)?no|sorry|i'm sorry|i am sorry|correction|i mean|i meant|rather|make (?:that|it))\b(?:[\s,]+(?:no|sorry|i'm sorry|i am sorry|i mean|make (?:that|it)))*[\s,]+(?:(?:to|up to)\s+)?(?=\d|point \d|\.\d)/g;

// Another drug started ("the patient will be started on …").
const NEXT_START = /\b(?:will|would|may|should|to|is to)\s+be\s+(?:started|restarted|placed|put|switched|changed)\s+(?:on|to)\b/;
// A prescription line ends where the doctor turns to something else.
const LINE_END = new RegExp(
  [
    String.raw`\b(?:review|follow up|followup|come back|come and see|come after|see me|see him|see her|show me|return|recheck|revisit|advice|diet|investigations?|refer|referral|referred|impression|diagnosis|assessment|allerg(?:y|ies)|vitals|call (?:if|me|us)|let (?:me|us) know|we will (?:do|check|send|get)|i am (?:sending|ordering|referring)|i'm (?:sending|ordering|referring|also ordering))\b`,
    String.raw`\b(?:bp|blood pressure|pulse|heart rate|temperature|temp|spo2|oxygen saturation|oxygen level|oxygen|saturation|sats|respiratory rate|weight|height)\b(?=\s+(?:is\s+|was\s+|of\s+|today\s+)?\d)`,
    // "… tylenol as needed for breakthrough pain alright i'm gonna put you in a knee immobilizer … for the next week": in
    // a run-on turn "alright" or "okay" before the doctor's next "I'm"/"we'll" opens another instruction.
    String.raw`\b(?:alright|all right|okay|ok)\s+(?=(?:so\s+)?(?:i'm|i am|i'll|i will|we're|we are|we'll|we will|let's|let us)\b)`,
    // "… hydrochlorothiazide … i want you to check your blood pressure twice a day": how often to measure is no dose's.
    String.raw`\b(?:check|checking|monitor|monitoring|measure|measuring|record|recording|keep track of|write down)\s+(?:your|her|his|their|the)\s+(?:own\s+)?(?:blood pressures?|bp|blood sugars?|sugars?|glucose|weight|temperature|pulse|heart rate|peak flow)\b`,
    // "… ibuprofen, you can take that twice a day … i also want you to ice it three times a day": what else the doctor
    // wants done is another instruction (its "three times a day" is no dose's).
    String.raw`\b(?:i|we)\s+(?:also\s+)?(?:want|would like|'d like|wan na|need)\s+you\s+to\s+(?!(?:(?:also|just|only|still|now|then)\s+)*(?:take|use|apply|continue|start|stop|try|keep|have|give|put|increase|reduce|decrease|cut|go|hold|restart|resume|finish|complete|spray|inhale|instil|insert|rub|place|chew|swallow|dissolve|be|double|halve|split|change|switch|wean|taper|titrate)\b)[a-z]+`,
    // "… on norvasc we asked that you check it like once a week": what is checked is no dose, whatever "it" is.
    String.raw`\b(?:you|to)\s+(?:check|checking|monitor|measure|record)\s+(?:it|that|them|those)\b`,
    String.raw`(?<!\b(?:given|give|take|use|used|apply|only)\s+)\bif\b(?!\s+(?:needed|required|necessary|need be)\b)(?=[^.;]{0,60}?\b(?:come|call|go to|rush|report|contact|see me|see us|let (?:me|us) know|tell (?:me|us)|get in touch|review|we (?:will|may|might|could|can)|we'll)\b)`,
    String.raw`\b(?:and\s+)?(?:no|avoid|stop)\b(?=\s+(?:smoking|alcohol|driving|spicy|oily|sweets|sugar|salt|junk|fried|tea|coffee)\b)`,
    // "… desogestrel seventy five micrograms daily use condoms for the first seven days": what else to use is no dose's.
    String.raw`\buse\s+(?:(?:a|extra|additional|barrier)\s+)?(?:condoms?|contraception|protection|spacer|humidifier|ice|heat)\b`,
    // "… percocet and oxycontin picked up at my office he is instructed to do daily wound care": what the patient is told
    // to do next is another instruction.
    String.raw`\b(?:he|she|they|patient|the patient)\s+(?:is|was|are|were|has been|have been)\s+(?:instructed|advised|told|asked|educated|encouraged)\b`,
    // "He could benefit from increasing his metoprolol dose, however, … bradycardic in the morning": a contrast opens
    // another statement.
    String.raw`,?\s*\bhowever\b`,
    // "keep using the beclomethasone, two puffs twice a day, and the blue inhaler when you need it": another product
    // named by its form opens another line, whether or not its name is known (its "when you need it" is its own).
    String.raw`,?\s+and\s+(?:the|your|his|her|a|an)\s+(?:[a-z]+\s+){0,2}?(?:inhalers?|puffers?|creams?|ointments?|sprays?|drops|gels?|patch(?:es)?|tablets|pills|capsules|syrups?|lotions?|suppositor(?:y|ies)|pessar(?:y|ies))\b`,
    // "while she is on Enablex, and if this reveals no improvement, the patient will be started on Ventura twice daily":
    // another start opens another drug's line, whether or not its name is known.
    NEXT_START.source,
    // "we will start megace two hundred mg daily four shortness of breath we will provide oxygen prn": in a recogniser's
    // run-on plan the doctor's next "we will …" opens another instruction.
    // "continue your lisinopril and metformin as you are i'm also gonna send you to physical therapy twice a week": so does
    // "I'm gonna send …" (its "twice a week" is the therapy's).
    String.raw`\b(?:we|i)\s*(?:will|'ll|(?:'m|am|'re|are)\s+(?:also\s+)?(?:going to|gonna|gon na))\s+(?:also\s+)?(?:provide|start|add|give|begin|continue|stop|order|obtain|arrange|refer|schedule|monitor|send)\b(?!\s+(?:(?:you|him|her|them|it)\s+)?(?:\d|a dose|the dose))`,
    // "continue lisinopril, continue IV antibiotics", "Lantus 35 units at bedtime and continue the sliding scale as
    // needed": a prescribing verb after the comma or "and" opens the next instruction.
    String.raw`(?:,\s*(?:and\s+)?|\s+and\s+)(?=(?:continue|start|stop|hold|discontinue|resume|add)\s+(?!(?:it|this|that|them|the same|same|for|as|until|at|on|with|taking|to|through|while|if|when|unless|after|before|daily|twice|once)\b)[a-z])`,
    // "IV Rocephin, nebulizer treatments and oxygen as needed", "Coreg 3.125 mg p.o. twice a day, nebulizer therapy every 3
    // hours as needed": care that is no drug, after the list's comma or "and",
    // is an item of its own; its route and "as needed" are not the drug's.
    String.raw`(?:,\s*(?:and\s+)?|\s+and\s+)(?=(?:(?:nebuli[sz]er|neb|breathing|respiratory) (?:treatments?|therap(?:y|ies))|nebs|nebuli[sz]ers?(?=\s+(?:every|q\s?\d|as needed|prn)\b)|(?:supplemental |home )?oxygen|(?:iv |intravenous )?fluids|physical therapy|ice packs?|warm compresses)\b)`,
    // "aspirin as needed, and TriViFlor 25 mg", "milk of magnesia 30 cc daily and amanda 10 mg bid", "Ventolin inhaler
    // every four hours as needed, and Azmacort four puffs twice per day", "Megace 400 mg b.i.d. and Ensure t.i.d. with
    // meals", "Lumigan one drop both eyes at bed time, NitroQuick p.r.n.", "Depakote … and Fioricet on p.r.n. basis": a
    // name the formulary lacks, with its own strength, dose, frequency or "as needed", after the list's comma or "and" is
    // the next drug's line, not this one's.
    String.raw`(?:,\s*(?:and\s+)?|\s+and\s+)(?=(?!(?:${FORM_WORDS}|${FORM_MODIFIER}|extended|sustained|delayed|release|controlled|modified|slow|long|acting|then|increase|reduce|decrease|up|down|total|max|maximum|only|at|to|take|takes|taking|give|use|start|continue|add|about|around|approximately|another|maybe|even|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekdays?|weekends?|days?|mornings?|evenings?|nights?|lunchtime|noon|bedtime|other|alternate|usually|sometimes|nightly|daily|apply|applied|using|inhale|instil|spray|then|also|taken|given|used)\b)[a-z][a-z-]{3,}\s+(?:\d+(?:\.\d+)?\s*(?:mg|mcg|g|units?|%)|(?:\d+|one|two|three|four)\s+(?:puffs?|tablets?|tabs?|capsules?|caps?|drops?|sprays?|cans?|bottles?|scoops?|packets?)|(?:bid|tid|qid|qd|qhs|prn|twice daily|three times daily)(?:\s+with meals)?(?=\s*(?:[,.;]|$))|on\s+(?:an?\s+)?(?:prn|as needed)\s+basis)\b)`,
  ].join('|'),
);
// "… 150 mg daily she may increase to 300 mg daily after three to seven days": in a run-on line the next step of a
// titration said of the patient is a step too.
// "… 500 mg with breakfast, and in two weeks increase it to twice a day": a step said by when it comes.
const STEP = /,?\s*\b(?:then|followed by|after that|thereafter|(?:and\s+)?(?:an?\s+)?(?:extra|additional)(?=\s+(?:dose\s+of\s+)?\d+(?:\.\d+)?(?![\d.]|\s*(?:days?|weeks?|months?|hours?|times|more)\b))|(?:he|she|you|they)\s+(?:may|can|could|should|will)(?=\s+(?:increase|go up|titrate)\b)|(?:and\s+)?(?:in|after)\s+(?:about\s+)?(?:\d+|a|an|one|a couple of|a few)\s+(?:days?|weeks?)\s*,?\s*(?:(?:we|i|you|he|she)(?:'ll|\s+will|\s+can|\s+should)\s+)?(?=(?:increase|go up|titrate|double)\b))\b\s*/g;
// "… twice a day, and then i want you to ice the knee … three to four times a day": after "then", something else to
// do with its own object is no step of the drug's (a step changes, takes or stops the dose); its line ends there.
// "… continue on his current dose of metoprolol for now and we will reassess in 2 weeks whether to increase it to
// 50 mg": what the doctor will decide later is not said of the dose now; its line ends there.
const LATER_DECISION =
  /(?:\s*[,;]?\s*(?:and|but|then)?\s*(?:we|i)(?:'ll|\s+will|\s+shall|\s+may|\s+might|\s+could|\s+can|\s+would)\s+(?:(?:then|also|later)\s+)?(?:reassess|re-assess|re-evaluate|reevaluate|consider|discuss|think about|decide|revisit|see (?:if|whether|how)|check (?:if|whether))\b)|\s*,?\s*\bwhether to\b/;
// "we have you on norvasc 5 mg and we asked that you check your pressure once a week if you have time": what the patient
// is asked to check, and how often and on what condition, ends the drug's words.
const SELF_CHECK = /\s*[,;]?\s*(?:and\s+)?(?:(?:we|i)\s+(?:asked|ask|want|would like|'d like|need)\s+(?:that\s+)?you\s+(?:to\s+)?)?(?:check|monitor|measure|record|weigh)\s+(?:your|it|them|yourself)\b/;
// "… every six hours and then i want to see you back in two weeks": seeing the patient again is no step either.
const OTHER_ACT =
  /^\s*(?:(?:(?:i|we)\s+(?:want|would like|'d like|need)\s+you\s+to\s+|you\s+(?:should|can|need to|will need to)\s+)?(?!(?:take|use|reduce|increase|decrease|continue|go|cut|drop|taper|wean|lower|come|have|give|apply)\b)[a-z]+\s+(?:the|your|his|her|it|that|this)\b|(?:(?:i|we)(?:\s+(?:want|would like|'d like|wan na|need|will)\s+to|'ll)\s+)?(?:see|have)\s+you\s+(?:back|again|come back)\b|(?:come|coming)\s+back\b)/;
const STEP_AHEAD = new RegExp(STEP.source.replace(/^,\?\\s\*/, ''));
// A taper step that opens on a number with no unit: "then thirty for three days", "then down to 20".
const STEP_BARE = /^\s*(?:(?:go(?:ing)?\s+|come\s+|drop\s+|cut\s+)?(?:down|up)\s+to\s+|to\s+)?(\d+(?:\.\d+)?)(?![\d.]|\s*(?:%|[a-z]+\b(?<!\b(?:for|then|and|on|in|at|after|before|with|until|till))))/;
const STEP_DOSE =
  /\d(?![\d.]*\s*(?:days?|weeks?|months?|years?)\b)|\b(?:once(?!\s+(?:we|you|i|he|she|they|it|the|that|this|your|our)\b)|twice|thrice|daily|night|bedtime|sos|every)\b/;
// A condition at the end of one line that belongs to the drug after it, or that leads a drug ("if fever, paracetamol").
// A few words at most: in a recogniser's run-on turn an "if" or "when" further back is another clause's ("when you
// came in … so i'm going to prescribe some meloxicam").
// The main clause a condition's cue ran into ("if the culture is positive, we will start"): not the condition's words.
const MAIN_CLAUSE_TAIL = /,?\s*(?:\bthen\s+)?\b(?:we|i|you|she|he|they|the patient)\s*(?:'ll|will|would|should|can|may|might|could)\s+(?:(?:go ahead and|need to|have to)\s+)?[a-z]+(?:\s+(?:in|up|on))?$/;
// What was said before the condition's "only … if" ("[hold on to it and] only use it if she's no better") is the
// instruction that waits on it, not the condition.
const CONDITION_OPENS = /\bonly\s+(?:[a-z]+\s+){0,3}?(?:if|when|once|unless)\b/;
const conditionWords = (cue: string | undefined): string | undefined => {
  const words = cue?.replace(MAIN_CLAUSE_TAIL, '').replace(/^but\s+/, '').trim();
  const at = words ? words.search(CONDITION_OPENS) : -1;
  return at > 0 ? words!.slice(at) : words;
};
const CONDITION_BEFORE_CUE = /(?:,\s*|\s+)(?:and\s+|but\s+)?\b(?:if|when|whenever|unless)\b(?!\s+(?:needed|required|necessary|tolerated)\b)(?:(?!\b(?:if|when|whenever|unless)\b)[^.;]){0,80}$/;
const TRAILING_CONDITION = /\b(?:if|when|whenever|in case of)\b(?!\s+(?:needed|required|necessary))(?:[^\S]+[^\s,;]+){0,14}[^\S]*$/;
// "… call if she has problems with that we will try proctofoam": in a run-on line, a condition that a call or a
// return asked for is that instruction's, not the next drug's.
// Not past a turn of the sentence or an instruction of the condition's own ("if it gets worse, come back, but for now take …").
// "keep using it when needed and add a beclomethasone inhaler": a when-needed followed by another instruction is the
// one before's; it does not make the next drug as-needed.
const LEADING_CONDITION = /\b(?:only\s+)?(?:if|when|whenever|in case of)(?!\s+(?:needed|required|necessary)[\s,]+(?:and|then|also|plus)\b)(?<!\b(?:call|ring|phone|come back|return|contact|seek help|go back)\s+(?:(?:us|me|back|in|the office|the clinic)\s+)?(?:only\s+)?(?:if|when|whenever|in case of))\b(?:[\s,]+(?!(?:but|otherwise|meanwhile|now|come|call|return|also)\b)[^\s.;,]+){0,14}[\s,]*$/;
const SAME_DRUG_BETWEEN = /^[\s,;:()-]*(?:(?:i e|ie|that is|which is|(?:also |otherwise |better )?(?:known|sold) as|(?:also )?called|(?:what )?you (?:might|may|would)?\s*(?:call|know) it(?: as)?|or|the brand|eye|ear|nasal|drops?|inhaler|gel|cream|tablets?|\d+(?:\.\d+)?\s*(?:percent|%|mg|mcg))\b[\s,]*)*$/;
// Words after a brand that name the product ("tylenol pm", "crocin ds", "augmentin duo", "metolar xr").
const BRAND_VARIANT = /^\s*((?:pm|arthritis|extra strength|xr|sr|er|cr|mr|ds|forte|plus|duo|kid|junior|xt|hfa|handihaler|respimat|emulgel|max)\b)/;

const NUM = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+|point \d+)`;
const numberOf = (x: string): number => Number(x.replace(/,/g, '').replace(/^point\s+/, '.'));
const STRENGTH_UNIT = String.raw`(mg|milligrams?|mcg|µg|micrograms?|g|gm|grams?|grains?|iu|i u|international units|units?|meq|mmol|percent|%)`;
const AMOUNT_IN_LINE = new RegExp(String.raw`(?<!\b(?:to|from|of|up to|than|max|maximum|was|were|is|by|per|over|at|x)\s+)(?<![\d.,/-])\b${NUM}\s*(?:mg|milligrams?|mcg|micrograms?|g|grams?|units?)\b(?!\s*(?:\/|per)\s*(?:kg|ml|day)\b)`, 'g');
// A per-kg dose calculation, a concentration or a stated daily maximum is not the strength.
const STRENGTH = new RegExp(
  String.raw`(?<!\b(?:more than|maximum(?: of)?|max|exceed|exceeding|under|(?:do not|don't|never|not to|try not to) go (?:over|above)|(?<!\b(?:go|goes|going|increase|increased|titrate|titrated)\s+)up to|upto)\s+)(?<![\d.])${NUM}\s*(k\s+)?${STRENGTH_UNIT}(?![a-z])(?!\s*(?:\/|per)\s*(?:kg|ml|dl|l|litre|liter)\b)`,
  'g',
);
// A combination's strengths straight after its name: "5 mg/500 mg" (the shorthand reader gives each its unit), "500/50",
// a recogniser's "five over five hundred", "20-12.5 mg" (not a count's range: "1-2 tablets"), "Bactrim 400 mg and 80 mg".
const COMBINATION_RATIO = new RegExp(
  String.raw`^\s*${NUM}\s*(?:mg|mcg)?\s*(?:\/|over|and(?=\s*\d+(?:\.\d+)?\s*(?:mg|mcg)\b)|-(?=\s*\d+(?:\.\d+)?(?![\d.]|\s*(?:tablets?|tabs?|capsules?|caps?|puffs?|sprays?|drops?|pills?|sachets?|doses?|times)\b)))\s*${NUM}`,
);
// "eight hundred milligrams of ibuprofen", "500 mg of the amoxicillin", "twenty five milligrams per day of
// hydrochlorothiazide": a strength (and how often) said before the name, joined by "of".
// "normal saline, 20 mEq KCl": after a list's comma or "and", a strength straight before the name is its own.
const STRENGTH_OF_BEFORE = new RegExp(
  String.raw`(?<![\d.])${NUM}\s*${STRENGTH_UNIT}\s+(?:((?:(?:once|twice|three times|four times)\s+)?(?:a|per)\s+day\s+|daily\s+)?of\s+(?:the\s+|your\s+|that\s+)?|(?<=(?:[,;:]|\b(?:and|plus|add|start|give))\s+\S+\s*\S+\s+))$`,
);
// "the 2.5 of norvasc", "that 2.5 norvasc": a number without a unit before the name (only a labelled strength).
const NUMBER_BEFORE = new RegExp(String.raw`(?:^|\b(?:the|your|that|this|on|of|to)\s+)(?<![\d.])${NUM}\s+(?:of\s+(?:the\s+|your\s+|that\s+)?)?$`);
const CHANGE_TO = new RegExp(
  String.raw`\b(?:increas\w*|decreas\w*|reduc\w*|go(?:ing)? (?:up|down)|titrat\w*|chang\w*|cut|bump\w*|come down|double|halve|drop\w*|lower\w*|bring)\b(?:\s+(?:it|this|that|them|the dose|dose|her|him|you|back|up|down|gradually|slowly))*\s+to\s+${NUM}\s*${STRENGTH_UNIT}?(?![a-z])`,
);
// "Her lisinopril was increased to 40 mg": a change told, not made now.
const TOLD_CHANGE = /\b(?:was|were|been|had|got)\s+(?:(?:then|later|recently|subsequently|eventually|also|just)\s+)?$/;
const CHANGE_OF_THAT = new RegExp(
  String.raw`\b(?:increas\w*|decreas\w*|reduc\w*|titrat\w*|chang\w*|cut|bump\w*|drop\w*|lower\w*|double|halve|make(?=\s+(?:it|this|that|the dose)\s+\d)|(?:go|going|come|coming|bring|bringing|move|moving)(?=\s+(?:(?:it|this|that|the dose)\s+)?(?:up|down)\b))(?:\s+(?:it|this|that|the dose))?(?:\s+(?:back|up|down))?(?:\s+to|(?<=\bmake\s+(?:it|this|that|the dose)))\s+${NUM}\s*${STRENGTH_UNIT}?(?![a-z])`,
);
// "I see you're on amlodipine 5 mg; let's increase it.": a change of that drug whose new amount is not said.
const CHANGE_UNSAID =
  /\b(?:increase|decrease|reduce|lower|double|halve|bump|cut)\s+(?:it|this|that|the dose|your dose)(?:\s+(?:up|down|back|a little|a bit|slightly|in half))?(?=\s*(?:[.,;!?]|$|\s+(?:and|then|today|now|for you)\b))/;
const BY_STEP = new RegExp(
  String.raw`\bby\s+${NUM}\s*${STRENGTH_UNIT}(?![a-z])(?:\s+(?:every|each|a|per)\s+(?:\d+\s+|other\s+)?(?:day|week|month|fortnight)s?\b)?`,
);
const CHANGE_VERB = /\b(?:increas|decreas|reduc|taper|titrat|drop|lower|cut|wean|go(?:ing)? (?:up|down)|come down)\w*\b/;
const OLD_TO_NEW = new RegExp(
  String.raw`^\s*(?:(?:once|twice|thrice|(?:\d+|three|four) times (?:a|per) day|daily|a day|per day|bid|tid|qid|qd|od|bd|tds|at night|in the morning)\s*)*,?\s*to\s+${NUM}\s*${STRENGTH_UNIT}(?![a-z])`,
);
// "once a day", "twice a week" after the new amount is how often, not when.
// "We have started her on Coreg 6.25 mg b.i.d. This should be increased up to 25 mg b.i.d.": a change that is to be made
// of a drug prescribed now is its next step, not today's dose.
const LATER_CHANGE = /\b(?:should|can|could|may|might|will|would|is to|are to)\s+be\s+(?:gradually\s+|slowly\s+|further\s+|then\s+)?$/;
const TITRATION_WHEN = /^[^.;]{0,30}?\b(?:after|over|within|if|when|as tolerated)\b|^[^.;]{0,40}(?<!\b(?:once|twice|thrice|times|per|every)\s+)\b(?:a|an|\d+|one|two|three|four|five|six|seven|ten|few|couple of|several)\s+(?:days?|weeks?|months?)\b/;
// "from 500 twice a day to 750 twice a day": the frequency each strength is taken at may be said with it.
const FROM_TO_FREQUENCY = String.raw`(?:(?:(?:once|twice|thrice|three times|four times)\s+)?(?:a|per)\s+day|daily|bid|tid|bd|od)\s+`;
const FROM_TO = new RegExp(String.raw`\bfrom\s+${NUM}\s*(?:${STRENGTH_UNIT}\s+)?(?:${FROM_TO_FREQUENCY})?to\s+${NUM}\s*${STRENGTH_UNIT}?(?![a-z])`);
const DOSE_UNIT = String.raw`tablets?|tabs?|capsules?|caps?|ml|millilit(?:er|re)s?|drops?|puffs?|sprays?|units?|sachets?|packets?|teaspoons?|tsp|spoons?|lozenges?|pessar(?:y|ies)|suppositor(?:y|ies)|patch(?:es)?|pieces?|inhalations?`;
const DOSE_OR_FREQUENCY_NEXT = new RegExp(
  String.raw`^\s*,?\s*(?:${NUM}\s*(?:${DOSE_UNIT})\b|(?:1|one|half)?\s*(?:od|bd|tds|tid|bid|qid|sos|once|twice|thrice|daily|\d+ times)\b|[0-2]-[0-2]-[0-2])`,
);
// "#90 tablets", "dispense 30 tablets": how many the pharmacy hands out, not the dose.
// A concentration's volume ("120 mg per 5 ml", "250 mg in 5 ml", "250 mg/5 ml") is no dose: the dose is the amount
// said after it ("give 10 ml").
const DOSE = new RegExp(String.raw`(?<!\b(?:more than|maximum(?: of)?|max|up to|upto|dispense|dispensed|disp|quantity|qty)\s+)(?<!\b(?:mg|mcg|g|milligrams?|micrograms?|grams?|units?|iu)\s+(?:per|in|every|each)\s+)(?<![\d./#])(?<!#\s)(${NUM.slice(1, -1)}|\b(?:half|a|an|one))\s*(?:(?:full|whole|level|heaped)\s+)?(${DOSE_UNIT})\b(?!\s*(?:\/|per)\s*(?:kg|day)\b)`);
// "take two tablets of paracetamol 500 mg", "half a tablet of bisoprolol", "10 ml of the suspension": the amount said
// before the drug is its dose.
const HALVED = /\b(?:cut|split|break|broken|divide|divided)\s+(?:it\s+|them\s+|the\s+tablets?\s+)?in\s+(?:half|two)\b/;
const FORM_THEN_COUNT = new RegExp(
  String.raw`^\s*(lozenges?|tablets?|tabs?|capsules?|caps?|drops?|puffs?|sprays?|sachets?|pessar(?:y|ies)|suppositor(?:y|ies)|patch(?:es)?)\s*,?\s+(half|an?|one|two|three|four|\d+(?:\.\d+)?)\s+(?=(?:every|at|in the|twice|thrice|once|three times|four times|daily|a day|per day|each|before|after|with|as needed|when needed)\b)`,
);
const DOSE_OF_BEFORE = new RegExp(String.raw`(?<![\d.])(${NUM.slice(1, -1)}|\bhalf(?:\s+an?)?|\b(?:a|an|one))\s*(${DOSE_UNIT})\s+of\s+(?:the\s+|your\s+|that\s+|this\s+)?$`);
const BARE_TO = new RegExp(String.raw`^\s*to\s+${NUM}(?![\d.])(?!\s*(?:%|percent|times?|days?|weeks?|months?|hours?|years?|${DOSE_UNIT}|mg|mcg|g|gm|grams?|iu|units?|meq|mmol)\b)`);
const BARE_NUMBER = new RegExp(
  String.raw`^\s*${NUM}(?![\d.])\s*(k\b)?(?!\s*(?:-|\.\d|over|by|\/|(?:times?|days?|weeks?|months?|hours?|minutes?|years?|${DOSE_UNIT}|mg|mcg|g|gm|grams?|iu|percent|%)\b))`,
);

/** The text with a match's characters turned to spaces, so that later patterns skip it and offsets stay. */
// Words before a timing that make it a time not to take the drug: "but not at night", "never at bedtime", "avoid taking
// it in the evening".
const NOT_THEN = /\b(?:not|never|avoid|avoiding|except)\s+(?:(?:take|use|taking|using|give|giving)\s+(?:it\s+|them\s+|this\s+|that\s+)?)?$/;

function blanked(t: string, m: RegExpExecArray): string {
  return t.slice(0, m.index) + ' '.repeat(m[0].length) + t.slice(m.index + m[0].length);
}

function unitName(u: string): string {
  if (/^(?:mg|milligram)/.test(u)) return 'mg';
  if (/^(?:mcg|µg|microgram)/.test(u)) return 'mcg';
  if (/^grain/.test(u)) return 'grain';
  if (/^(?:g|gm|gram)/.test(u)) return 'g';
  if (/^(?:percent|%)/.test(u)) return '%';
  if (/^(?:iu|i u|international)/.test(u)) return 'IU';
  if (u === 'meq') return 'mEq';
  if (/^(?:ml|millilit)/.test(u)) return 'ml';
  if (/^tab/.test(u)) return 'tablet';
  if (/^packet/.test(u)) return 'sachet';
  if (/^cap/.test(u)) return 'capsule';
  if (/^(?:teaspoon|tsp|spoon)/.test(u)) return 'teaspoon';
  if (/^pessar/.test(u)) return 'pessary';
  if (/^suppositor/.test(u)) return 'suppository';
  if (/^patch/.test(u)) return 'patch';
  return u.replace(/s$/, '');
}

const WEEKDAY = 'sunday|monday|tuesday|wednesday|thursday|friday|saturday';
const LESS_THAN_DAILY = new RegExp(
  String.raw`\b(?:(?:once|one time|1 time|twice|two times|thrice|three times|four times|five times|six times|[1-6] times?)\s+(?:(?:a|per|every|in a)\s+week|weekly)|(?<=\b(?:\d+|one|two|three|four|five|six)\s+(?:${DOSE_UNIT})\s+)(?:a|per|every)\s+week|weekly|every week|once weekly|every (?:${WEEKDAY})|on (?:${WEEKDAY})s?|alternate (?:days?|nights?)|every other (?:day|night)|every (?:[2-9]|[1-9]\d) (?:days|weeks|months)|once a fortnight|once a month|monthly)\b`,
);
const ONE_WEEKDAY = new RegExp(String.raw`^on (?:${WEEKDAY})$`);
// "twice a day on Thursday, Friday, and Saturday": days in a list are the schedule's.
const MORE_WEEKDAYS = new RegExp(String.raw`^\s*(?:(?:,|and|or)\s*)?(?:and\s+)?(?:${WEEKDAY})\b`);
const SAID_DAILY = /\b(?:(?:a|per) day|daily|once a day|twice a day|(?:\d+|three|four) times a day|every (?:morning|night|day))\b/;
const MEAL =
  /\b(?:(?:\d+|half an?|an?)\s*(?:minutes?|mins?|hours?|hrs?)\s+)?(?:before|after|with)\s+(?:food|meals?|feeds?|(?:breakfast|lunch|dinner|supper)(?:(?:\s*,\s*|\s+and\s+)(?:breakfast|lunch|dinner|supper))*)\b|\b(?:on an |on |an )?empty stomach\b|\b(?:at )?bedtime\b|\bbefore (?:going to )?(?:bed|sleep)\b|\b(?:at |q\.?\s?)(?:noon|midday|lunchtime)\b|\bat lunch\b|\bat night\b|\bnightly\b|\b(?:in the|every|each|early) morning\b|\bin the evening\b|\b(?:every|each) (?:night|evening)\b|\bhs\b|\bwith (?:milk|orange juice|juice)\b|\bin a glass of milk\b|\bon waking(?: up)?\b/g;
const SINGLE_MEAL = /\b(?:breakfast|lunch|lunchtime|noon|midday|dinner|supper|bedtime|night|morning|evening|hs|waking)\b/;
const SINGLE_MEALS = new RegExp(SINGLE_MEAL.source, 'g');

function timingText(t: string): string {
  if (/^(?:bedtime|hs|before (?:going to )?(?:bed|sleep))$/.test(t)) return 'at bedtime';
  if (/^(?:nightly|(?:every|each) night)$/.test(t)) return 'at night';
  if (/^(?:every|each) morning$/.test(t)) return 'in the morning';
  if (/^(?:every|each) evening$/.test(t)) return 'in the evening';
  if (/^(?:at |q\.?\s?)(?:noon|midday|lunchtime)$/.test(t)) return `at ${t.replace(/^(?:at |q\.?\s?)/, '')}`;
  if (t === 'in a glass of milk') return 'with milk';
  return t.replace(/^(?:on an |on |an )empty/, 'empty');
}

interface Hit {
  from: number;
  to: number;
}

// "once the flare settles", "once you've finished the course", "once nadir is resolved": "once" opening a clause is a
// time, not a frequency.
// The first step of a regimen, said as given now or on its first day.
const LOADING_DOSE = /\b(?:today|now|stat|immediately|on (?:the )?first day|(?:on )?day (?:one|1)|(?:as )?(?:the|a) (?:first|loading) dose)\b/;
// "for more than a day", "within a day" is a time, not how often.
const ONCE_DAILY = /\b(?:od|once (?:a day|daily)|once(?!\s+(?:the|you|you've|you're|your|it|it's|this|that|these|those|he|she|they|we|i|i've|my|his|her|their|symptoms?|things?|everything|done|finished|healed|settled|better)\b)(?!\s+(?:[a-z']+\s+){1,3}(?:is|are|has|have|was|were|gets|comes|returns|resolves|resolved|improves|settles)\b)|daily|every day|(?:every|each) (?:morning|night)|everyday|qd|nightly|(?<!\b(?:for|than|over|within|after|whole|half|first)\s)(?<!\b(?:pounds?|lbs?|kilos?|kgs?|kilograms?)\s+(?:in\s+)?)(?:a|per) day)\b/;

const MORNING_AND_EVENING = /\b(\d+(?:\.\d+)?\s*[a-z]+\s+)?(?:every|each)\s+morning\s+and\s+(\d+(?:\.\d+)?\s*[a-z]+\s+)?(?:every|each)\s+(?:evening|night)\b/;

function frequencyOf(t: string, asNeeded: boolean, timings: string[]): { freq?: Frequency; single: boolean; hit?: Hit } {
  const mk = (per_day: number | null, text: string, pattern?: string): Frequency => ({
    per_day,
    ...(pattern ? { pattern } : {}),
    as_needed: asNeeded,
    text: asNeeded && !/as needed/.test(text) ? `${text} as needed`.trim() : text,
  });
  const at = (m: RegExpExecArray): Hit => ({ from: m.index, to: m.index + m[0].length });
  let m = /\b([0-2](?:\.5)?)-([0-2](?:\.5)?)-([0-2](?:\.5)?)\b/.exec(t);
  if (m) {
    const n = [m[1], m[2], m[3]].filter((x) => Number(x) > 0).length;
    return { freq: mk(n, `${m[0]} (${['', 'once', 'twice', 'three times'][n] ?? n} daily)`, m[0]), single: false, hit: at(m) };
  }
  m = LESS_THAN_DAILY.exec(t);
  // "5 mg a day from tomorrow … if he is to go home on Monday": one weekday said with a daily schedule is a date.
  if (m && !(ONE_WEEKDAY.test(m[0]) && SAID_DAILY.test(t) && !MORE_WEEKDAYS.test(t.slice(m.index + m[0].length)))) return { freq: mk(null, m[0]), single: false, hit: at(m) };
  m = /\bevery\s+(\d+)\s*(?:hours?|hrs?)\b|\bq\s?(\d+)\s?h\b|\b(\d+)\s*(?:hourly|hrly)\b/.exec(t);
  if (m) {
    const h = Number(m[1] ?? m[2] ?? m[3]);
    return { freq: mk(h > 0 && h <= 24 ? Math.round(24 / h) : null, `every ${h} hours`), single: false, hit: at(m) };
  }
  m = /\b(\d+)\s*times?\s+(?:a|per|in a)\s+day\b|\b(\d+)\s*times?\s+daily\b/.exec(t);
  if (m) {
    const n = Number(m[1] ?? m[2]);
    return { freq: mk(n, `${n} times a day`), single: false, hit: at(m) };
  }
  const fixed: [RegExp, number, string][] = [
    [/\b(?:qid|qds|four times (?:a day|daily))\b/, 4, 'four times daily'],
    [/\b(?:tds|tid|thrice|three times (?:a day|daily))\b/, 3, 'three times daily'],
    [/\b(?:bd|bid|twice|two times (?:a day|daily))\b/, 2, 'twice daily'],
  ];
  for (const [re, n, text] of fixed) {
    m = re.exec(t);
    if (m) return { freq: mk(n, text), single: false, hit: at(m) };
  }
  m = /\b(?:stat|single dose|1 dose|(?<!\bat )a dose(?! of\b)|once only|one time only|single oral dose|given (?:today|now|in the clinic))\b/.exec(t);
  if (m) return { freq: mk(1, 'single dose'), single: true, hit: at(m) };
  // "1 puff every morning and 1 puff every evening": morning and evening, the same dose, is twice a day.
  m = MORNING_AND_EVENING.exec(t);
  if (m && (!m[2] || m[1] === m[2])) return { freq: mk(2, 'twice daily (morning and evening)'), single: false, hit: at(m) };
  const twoDoses = !!m;
  const meals = timings.filter((x) => SINGLE_MEAL.test(x));
  const times = meals.reduce((n, x) => n + (x.match(SINGLE_MEALS)?.length ?? 0), 0);
  m = ONCE_DAILY.exec(t);
  // "q.a.m. and q. noon" (every morning and at noon): a dose at noon as well is twice a day, though "every morning"
  // alone is once; "once a day, at night", "a patch every morning and off in the evening" stay once, and so do two
  // different doses (flagged as a conflict elsewhere).
  const noonToo = times >= 2 && !twoDoses && meals.some((x) => /\b(?:noon|midday|lunchtime)\b/.test(x));
  if (m && !(noonToo && /^(?:every|each) (?:morning|night)$/.test(m[0]))) return { freq: mk(1, 'once daily'), single: false, hit: at(m) };
  if (times >= 2) return { freq: mk(times, meals.join(' and ')), single: false };
  if (meals.length === 1 && !/\b(?:food|meals?)\b/.test(meals[0]!)) return { freq: mk(1, `once ${meals[0]!.replace(/^\d+\s*\w+\s+/, '')}`), single: false };
  if (asNeeded) return { freq: mk(null, 'as needed'), single: false };
  return { single: false };
}

// As needed said as an instruction ("p.r.n.", "as needed for fever"), never a spoken condition ("if it isn't enough").
const AS_NEEDED_SAID = /\b(?:prn|sos|as needed|as required|when needed|when required|on demand|as and when)\b/;
// "Aspirin indefinitely, and Plavix 75 mg daily for six months": how long to take it, said without a number, prescribes it.
const TAKEN_FOR_GOOD = /^\s*(?:indefinitely|lifelong|for life)\b/;
// "when you need it", "whenever she needs one": as needed said to the patient, read near the drug only ("… and ice
// the knee if you need to" is another instruction's). Not enough to make a drug named without a dose a prescription:
// "just epipen for anaphylaxis when you need it" says back what the patient uses.
// "an extra dose of Lasix 20 mg if his weight goes up more than 3 pounds": an extra dose is taken when its condition is
// there, whatever the condition measures.
const EXTRA_DOSE_BEFORE = /\b(?:extra|additional)(?:\s+(?:dose|tablet|pill|puff|capsule)s?(?:\s+of)?)?\s*$/;
const OPTION_ENDED = /\b(?:and|so|then|but|because|since)\b/;
const INSTEAD = /\b(?:instead|in its place)\b(?!\s+of\b)/;
const NEED_IT_NEAR = /\b(?:when|whenever|as) (?:you|he|she|they) needs? (?:it|them|one)\b/;
const PRN_BEFORE = /\b(?:prn|sos)\s+$/;
// "titrate the dose up as needed", "which we can increase later if needed" say how the dose may change, not when to take it.
const AS_NEEDED = /(?<!\b(?:titrat[a-z]*|adjust[a-z]*|increas[a-z]*|decreas[a-z]*|go up|raise|change)\b[^.;,]{0,25})\b(?:sos|prn|as needed|as required|when needed|if needed|when required|if required|on demand|as and when)\b/;
// "only if the fever is above 100", "when there is pain", "at the onset of nausea": a stated condition.
// A preference is no condition of taking it: "… rather than the Benadryl if he would like to use that instead"; nor is
// a titration's step ("titrate to 50 mg b.i.d. if tolerated", "if no side effects"): the dose is regular.
// Nor is a trial's "see if it helps with the sleep", "if this works for her", nor the next step's "if she is unimproved
// in five days [follow up]". "Every day, even when you feel well" says the opposite of a condition: take it regardless.
const CONDITION = /\b(?:only\s+)?(?:if|when|whenever|in case of|at (?:the )?onset of)(?<!\b(?:see|check|find out|know|even)\s+(?:if|when|whenever))\b(?!\s+(?:needed|required|(?:(?:you're|you are|he's|she's|he is|she is|they're|they are|the patient is)\s+)?allergic\b|(?:(?:the|her|his|your)\s+)?(?:inr|potassium|sodium|creatinine|egfr|blood sugars?|sugars?|glucose|haemoglobin|hemoglobin|hb|platelets?|[a-z]+\s+levels?|results?|bloods|blood tests?)\b|(?:you|we|i|they) (?:could|would|can|might)\b(?!n't|'t| not)|you wake|he wakes|she wakes|you get up|(?:that|it|this)\s+(?:is|was|proves|turns out to be)\s+(?:successful|effective|helpful)\b|(?:i|we|you|he|she|they|it)\s+(?:was|were|saw|had|did|came|went|got|last saw|first saw)\b|(?:i|we)\s+[a-z]+ed\b|(?:you|he|she|they) (?:get|gets|go|goes|arrive|arrives|come|comes) (?:back )?home|(?:you|he|she|they|the patient) (?:is|are) (?:to|going to|due to)\b|(?:you|he|she|they) (?:are|is) (?:back )?home|you're (?:back )?home|(?:he|she|you|they|the patient) (?:would like|wants?|prefers?|would prefer|would rather|chooses?|likes?)\b|(?:preferred|desired|wished)\b|(?:(?:it|this|that|he|she|you|they|the patient)\s+(?:is|are|was|were|has been|have been)\s+)?(?:well\s+)?tolerat\w*|(?:it|this|that|they)\s+(?:works?|helps?)\b|(?:it|this|that|they|these|those)\s+(?:doesn't|does not|don't|do not|didn't|did not)\s+(?:help|work|improve|settle|go away|get better|clear)\b|(?:it|this|that|they)\s+(?:makes?|made)\s+(?:you|him|her|them|me)\s+(?:feel\s+)?(?:drowsy|sleepy|tired|sick|nauseous|queasy|dizzy)\b|(?:(?:(?:he|she|you|they|it|the patient|symptoms?)\s+(?:is|are|was|were|has|have|does|do)|it's|that's|he's|she's|you're|they're|things are)\s+(?:still\s+)?)?(?:unimproved|not (?:better|improved|improving|resolved|settled|clearing|getting better)|no better|worse|not improve)\b|no improvement\b|(?:there (?:are|is) )?no (?:side effects?|adverse effects?|problems?|intolerance)\b))[^,;]*/;
// ("at night if it makes you drowsy" says when to take it, not that it is taken as needed.)
// "… twice a day, but if you get wheezy stop it", "… b.i.d. x10 days if no improvement consider CT sinus": a condition
// for stopping it, calling back or a next step is no condition of taking it.
// So is "… for three days and if it grows something resistant I'll switch you to something else".
const STOPS_ON_CONDITION = /\b(?:stop|stopping|discontinue|come off|don't take|do not take|call|ring|come back|seek|return|consider|refer|order|obtain|recheck|repeat|follow up|switch|swap)\b|\b(?:i|we)(?:'ll| will| would|'d| could| can| may| might)\s+(?:try|add|give|start|increase|change|prescribe|put you)\b/;
// "… may increase to 50 mg if heart rate stays above 100": a measured value is what a dose step waits on
// (conditional.measure), not a symptom the patient takes it for.
const MEASURED = new RegExp(CONTEXT_RULES.find((r) => r.id === 'conditional.measure')!.pattern!);
// "… take it at night because it can cause people to get dizzy if they take it in the morning": an "if" inside the
// reason for a timing or a warning of a side effect is no condition of taking it.
const EXPLAINED_BEFORE = /\b(?:cause|causes|can make|may make|side effects?)\b[^,;.]{0,60}$/;
// "… and then if she starts noticing any other drooping, she needs to come back": a main clause of its own after the
// condition (its subject and "needs to", "should" …) is what the condition is for, unless it takes the drug.
const CONDITION_MAIN = /^[^,;.]*[,;]\s*(?:then\s+)?(?:she|he|you|they|the patient)\s+(?:needs? to|should|must|will need to|has to|have to|is to|are to)\b(?!\s+(?:take|use|apply|have|try|start)\b)/;
// "amlodipine 5 mg, increase to 10 mg after two weeks if the pressure is still high": the condition is the change's.
const CHANGE_THEN_CONDITION = /\b(?:increase|increasing|decrease|decreasing|reduce|reducing|go up|step up|titrate|titrating|double|switch|change)\b[^.;]{0,50}$/;
// "… three times a day but stop it if you get a rash": the condition is the stop's.
const STOP_THEN_CONDITION = /\b(?:stop|stopping|discontinue|come off|hold)\s+(?:it|them|this|that|taking it|taking them)\s*$/;
// In a recogniser's run-on line the next step comes straight after its condition: "… daily if symptoms persist beyond
// 10 days start amoxicillin …" (the drug's line ends where the next drug's begins).
const NEXT_STEP = /^\s*(?:then\s+)?(?:start|begin|add|try|switch)\b(?!\s+(?:to|it|this|that|them|again|back|up|[a-z]+ing)\b)/;
// "… when her | INR is below 2": a condition cut at the line's end (a test's name starts another) says nothing.
const CUT_SHORT = /\b(?:her|his|the|your|their|my|its|a|an)\s*$/;
const STOPPING = /\b(?:stop|stopping|discontinue|come off)\b/;
const takingCondition = (near: string, line: string, sentenceOn: string): RegExpExecArray | null => {
  const c = CONDITION.exec(near);
  // Cut where the drug's words end ("… only use it if she's"), a condition may still say in the sentence what it is
  // ("… no better by Friday", "if creatinine is stable"): no symptom. Nor one whose whole clause, read on, is for
  // stopping it ("if her symptoms stay the same then i would discontinue the prednisone").
  const whole = c ? CONDITION.exec(sentenceOn.slice(c.index)) : null;
  return c && whole?.index === 0 && !CUT_SHORT.test(c[0]) && !STOPS_ON_CONDITION.test(c[0]) && !STOPPING.test(whole[0]) && !NEXT_STEP.test(sentenceOn.slice(c.index + c[0].length)) && !CONDITION_MAIN.test(line.slice(c.index + c[0].length)) && !MEASURED.test(c[0]) && !EXPLAINED_BEFORE.test(near.slice(0, c.index)) && !CHANGE_THEN_CONDITION.test(near.slice(0, c.index)) && !STOP_THEN_CONDITION.test(near.slice(0, c.index)) ? c : null;
};
const FOR_SYMPTOM = /\bfor (?:the |any |a |her |his |your )?(?:discomfort|pain|fever|(?:high )?temperature|headaches?|aches?|itch|itching|itchiness|nausea|cramps?|cramping)\b/;
// A line that is a drug and the symptoms it is for, nothing else: "[Paracetamol] for the pain and temperature."
const SYMPTOM_WORDS = String.raw`(?:discomfort|pain|fever|(?:high )?temperature|headaches?|aches?|itch|itching|itchiness|nausea|cramps?|cramping)`;
// "Paracetamol or ibuprofen for the pain and fever, and salty water gargles can help.": one of two drugs offered for
// it, with another instruction after a comma; "Paracetamol and ibuprofen, alternating, for the fever.": how the two
// are taken together.
const DRUG_FOR_SYMPTOM_LINE = new RegExp(String.raw`^\s*,?\s*(?:(?:or|and)\s+[a-z-]+\s*)?(?:,?\s*(?:alternating|alternately|together|regularly|in combination)\s*,?\s*)?for (?:the |any |a |her |his |your )?${SYMPTOM_WORDS}(?:\s*(?:,|and|or)\s+(?:the |any |a )?${SYMPTOM_WORDS})*(?:\s*[.!]?\s*$|\s*,\s*(?:and|then)\b)`);
const OTHER_DRUG_OFFERED = /^\s*[a-z-]+\s+(?:or|and)\s+$/;
const UP_TO_TIMES = /\bup\s*to\s+(?:(?:about|around|roughly|approximately)\s+)?(?:\d+|twice|thrice)\s+(?:times\s+)?(?:a|per|in a|each)\s+day\b/;
// "not more than 4 tablets in a day", "maximum twice a day", "up to 3 times a day": the stated daily maximum.
// "do not take more than 3000 mg a day": said as a prohibition, a ceiling all the same.
const NOT_MORE = String.raw`(?:(?:do not|don't|never|not to|try not to)\s+(?:(?:take|use|have|go over|exceed)\s+(?:more than|over)|go over|go above|exceed)|(?:do not|don't|never) exceed)`;
const DAILY_MAX = new RegExp(String.raw`\b(?:${NOT_MORE}|not more than|no more than|maximum(?: of)?|max|up to|upto|not to exceed)\s+(?:(?:about|around|roughly|approximately)\s+)?(\d+|once|twice|thrice)\s*(?:(?:tablets?|tabs?|capsules?|doses?|times?|pieces?|sprays?|puffs?)\s+)?(?:a|in a|per|in 1|each|in 24 hours?)\s*(?:day|night|24 hours)\b`);
// "you can take Tylenol up to 3000 milligrams a day": a daily ceiling in weight; its "a day" is no once-daily
// schedule, and with no schedule said the drug is taken as needed. "Then go up to 50 mg a day", "bump it up to …" are
// a titration's next dose.
const DAILY_MAX_AMOUNT = new RegExp(
  String.raw`\b(?:${NOT_MORE}|not more than|no more than|maximum(?: of)?|max|(?<!\b(?:go|goes|going|went|gone|increase[ds]?|increasing|titrate[ds]?|titrating|it|that|him|her|you|them)\s+)(?:up to|upto)|not to exceed)\s+(\d[\d,]*(?:\.\d+)?)\s*(mg|milligrams?|g|grams?)\s+(?:(?:a|in a|per|each)\s+day|(?:in |per |every )?24 hours?)\b`,
);
const CHANGE_BEFORE = /\b(?:go|goes|going|increase[ds]?|increasing|titrate[ds]?|titrating|put|bring|push|move|get|bump|raise|double)\b[^.;,]{0,30}$/;
const TIMES: Record<string, number> = { once: 1, twice: 2, thrice: 3 };
const DURATION =
  /\b(?:(?:for|x)\s+(?:(?:about|at least|only|another|next|the next|the first|a total of|up to|upto|a maximum of|maximum of|maximum|max|an additional|additional|a further|further)\s+)*|(?:(?:for\s+)?(?:a\s+)?(?:maximum|max|up to)(?:\s+of)?\s+))(\d+(?:\.\d+)?|a|an)?\s*(?:(?:more|additional|extra|further)\s+)?(day|week|month|year|night)s?\b(?!\s+(?:now|so far|already)\b)/;
// "for 5 days now", "so far", "already": how long it has been taken, not the course (the negative lookahead above).
// "for 5 more days", "for a further four days": the rest of a course is the course from now.
// "a three day course", "a 5-day course of".
const COURSE = /\b(\d+)[\s-](day|week|month)s?\s+(?:course|(?:dose\s+)?pack)\b/;
const ON_DAYS = /\bon days?\s+(\d+)(?:\s*(?:through|to|till|until|-|and)\s*(\d+))?\b/;

// "you might feel a bit sick for the first week or two": how long a side effect lasts, not the course.
const EFFECT_LASTS = /\b(?:feel|feels|feeling|side effects?|nause\w*|sick|drowsy|dizzy|sleepy|jittery|headaches?|upset stomach|wears? off|settles?|settle down)\b[^,;.]*$/;

function durationOf(t: string): { duration: Duration; hit: Hit } | undefined {
  const said = DURATION.exec(t);
  const m = (said && !EFFECT_LASTS.test(t.slice(0, said.index)) ? said : null) ?? COURSE.exec(t);
  if (m) {
    const value = m[1] && /^\d/.test(m[1]) ? Number(m[1]) : 1;
    const u = m[2]!;
    return { duration: { value, unit: u === 'night' ? 'day' : (u as Duration['unit']) }, hit: { from: m.index, to: m.index + m[0].length } };
  }
  const d = ON_DAYS.exec(t);
  if (!d) return undefined;
  const first = Number(d[1]);
  const last = d[2] ? Number(d[2]) : first;
  return last >= first ? { duration: { value: last - first + 1, unit: 'day' }, hit: { from: d.index, to: d.index + d[0].length } } : undefined;
}

const ROUTES: [RegExp, string][] = [
  [/\b(?:iv|intravenous(?:ly)?)\b/, 'intravenous'],
  [/\b(?:im|intramuscular(?:ly)?)\b/, 'intramuscular'],
  [/\b(?:sc|s\/c|subcut|subcutaneous(?:ly)?|under the skin)\b/, 'subcutaneous'],
  [/\b(?:sublingual(?:ly)?|under(?:neath)? (?:the|your|his|her) tongue)\b/, 'sublingual'],
  [/\b(?:oral(?:ly)?|by mouth|po|per oral)\b/, 'oral'],
  [/\b(?:nasal|nostrils?|intranasal)\b/, 'nasal'],
  [/\b(?:vaginal(?:ly)?|per vaginum|pessary)\b/, 'vaginal'],
  [/\b(?:eyes?)\b/, 'ophthalmic'],
  [/\b(?:ears?)\b/, 'otic'],
  [/\b(?:inhal\w*|puffs?|rotacaps?|respules|nebuli[sz]\w*)\b/, 'inhalation'],
  [/\b(?:local application|apply|applied|topical(?:ly)?|locally|ointment|cream|lotion|gel|shampoo)\b/, 'topical'],
];
const ORAL_FORMS = /^(?:(?:chewable |dispersible |orally disintegrating )?tablet|capsule|syrup|suspension|sachet|lozenge|powder|liquid)$/;
const INJECTED = /^(?:intravenous|intramuscular|subcutaneous)$/;

const INSTRUCTIONS: RegExp[] = [
  // "Lovenox 1 mg per kg": a weight-based dose is no strength (the patient's weight makes it), but it is what to give.
  /\b\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|milligrams?|units?)\s*(?:\/|per)\s*(?:kg|kilogram)\b(?:\s*(?:\/|per)\s*day\b)?/,
  // What it is for, in a few words ("for pain", "for your right knee"): a longer run is the next clause's topic.
  // "would be at risk for hemorrhagic pericardial effusion recurrence" is a danger, not what it is for.
  /(?<!\b(?:risk|risks|risky|candidate|eligible|responsible|grateful|thankful|reason|reasons|indicated|contraindicated|planned|scheduled)\s+)\bfor\s+(?!\d|a\b|an\b|the next\b|the first\b|at least\b|about\b|only\b|up to\b|upto\b|maximum\b|max\b)(?:the\s+)?[a-z]+(?: [a-z]+){0,4}?(?=,|$|\s+if\b|\s+and\b|\s+then\b)/,
  CONDITION,
  /\b(?:in|into)\s+(?:each|both|the)\s+(?:nostril|eye|ear)s?\b/,
  /\bexcept\s+[a-z]+/,
  /\brepeat\s+after\s+\d+\s+\w+/,
  /\bnot on the\s+[a-z]+/,
  /\bon the\s+(?:body\s+)?[a-z]+(?:\s+plaques)?\b/,
  /\blocal application\b/,
  /\bin\s+\d+\s+lit(?:er|re)s?\s+of\s+water\b/,
  DAILY_MAX,
];

// Words that never name a drug the formulary lacks.
const NOT_NAME = new Set(
  ('a an the one two half this that these those it its them same his her their your my our some any each every both ' +
    'and or of for to in on at by with after before then also only as if when more less daily once twice thrice ' +
    'od bd tds tid bid qid qds hs sos prn stat dose doses course regular plain oral local eye ear nasal nose ' +
    'mg mcg ml gm units unit tablet tablets capsule capsules syrup drops drop spray inhaler cream gel ointment sachet ' +
    'injection powder lotion patch tab cap syp inj is was be are were not no from now today other another new ' +
    'morning night evening day days week weeks month months given taken sir madam doctor patient about under around ' +
    'over total maximum minimum least than nearly approximately almost below above extra each water milk ' +
    'between behind into onto across inside along beneath underneath throughout ' +
    'start add prescribe begin continue give take increase reduce stop restart resume rx plan advice advised ' +
    'you me him us we he she they low high small little sig disp dispense refills refill').split(' '),
);
// An adverb ("apply the cream thinly", "sparingly", "liberally") says how, never which drug.
const NAME_WORD = /^[a-z][a-z-]{2,}(?<!ly)$/;
const PRESCRIBING_VERB = /\b(?:start|add|prescribe|begin|continue|give|take|increase|rx)\s+(?:(?:on|the|with)\s+)?$/;
const MASS_BEFORE = new RegExp(String.raw`\d\s*${STRENGTH_UNIT}\s+$`);
const MASS_STRENGTH = new RegExp(String.raw`^\s*${NUM}\s*${STRENGTH_UNIT}(?![a-z])(?!\s*(?:\/|per)\s*(?:kg|ml|dl|l)\b)`);

interface Mention {
  ref?: DrugRef;
  /** The words as said. */
  key: string;
  match?: 'fuzzy' | 'unrecognised';
  from: number;
  to: number;
  start: number;
  end: number;
  formStart: number;
  prefixForm?: string;
  prefixSpan?: Hit;
}

function prefixAt(tokens: Token[], i: number, floor: number): { form: string; at: Hit } | undefined {
  for (let k = i - 1; k >= Math.max(0, i - 2); k--) {
    const t = tokens[k]!;
    if (t.start < floor) break;
    const form = FORM_PREFIX[t.text];
    // "1 tablet" is a dose of the drug before, not the form word of the next.
    if (form) return /^[\d.]+$|^half$/.test(tokens[k - 1]?.text ?? '') ? undefined : { form, at: { from: t.start, to: t.end } };
    if (!NAME_WORD.test(t.text) || NOT_NAME.has(t.text)) break;
  }
  return undefined;
}

/** "continue with the ibuprofens": a one-word drug name said in the plural. */
function pluralMatch(tokens: Token[], i: number): ReturnType<typeof DRUG_INDEX.matchAt> {
  const t = tokens[i]!;
  const ref = t.text.length > 5 && t.text.endsWith('s') ? SINGLE_WORDS.get(t.text.slice(0, -1)) : undefined;
  return ref ? { from: i, to: i + 1, start: t.start, end: t.end, payload: ref, key: t.text.slice(0, -1) } : undefined;
}

/** An unknown word run prescribed like a drug: the words from token i up to a number, dosing word or drug. */
function unknownName(s: Sentence, i: number, prefixed: boolean, planPart: boolean): number {
  const tokens = s.tokens;
  let j = i;
  while (j < tokens.length && j - i < 3 && NAME_WORD.test(tokens[j]!.text) && !NOT_NAME.has(tokens[j]!.text) && !DRUG_INDEX.matchAt(tokens, j)) j++;
  if (j === i) return i;
  const rest = s.text.slice(tokens[j - 1]!.end);
  if (MASS_STRENGTH.test(rest)) {
    if (prefixed || PRESCRIBING_VERB.test(s.text.slice(0, tokens[i]!.start))) return j;
    // A line that opens with the name ("Xyzolol 25 milligrams daily") in the plan, with a frequency too.
    const lead = s.text.slice(0, tokens[i]!.start);
    if (planPart && /^\s*(?:(?:and|also|plus)\s+)?$|[,;:]\s*$/.test(lead) && frequencyOf(rest.slice(0, 80), false, []).freq) return j;
    return i;
  }
  if (!prefixed) return i;
  const head = rest.slice(0, 40);
  return DOSE_OR_FREQUENCY_NEXT.test(head) ? j : i;
}

function mentionsIn(s: Sentence, blocked: (start: number, end: number, len: number) => boolean, planPart: boolean): Mention[] {
  const tokens = s.tokens;
  const out: Mention[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const prev = tokens[i - 1]?.text ?? '';
    const exact = DRUG_INDEX.matchAt(tokens, i) ?? pluralMatch(tokens, i);
    let mention: Mention | undefined;
    if (exact) {
      if (blocked(exact.start, exact.end, exact.to - exact.from)) continue;
      // Short brand names ("pan", "o2") are ordinary words unless a drug context surrounds them: a drug word before,
      // a number after ("MMR #1"), a form after ("GTN spray"), a strength before ("20 mEq KCl"), or the drug before in
      // the same list ("DTaP and MMR").
      const listedAfter = out.length > 0 && SHORT_IN_LIST.test(s.text.slice(out[out.length - 1]!.end, exact.start));
      if (exact.key.length <= 3 && !listedAfter && !SHORT_BRAND_CONTEXT.test(s.text.slice(0, exact.start)) && !/^\s*#?\s*\d/.test(s.text.slice(exact.end)) && !FORM_NEXT.test(s.text.slice(exact.end)) && !MASS_BEFORE.test(s.text.slice(0, exact.start))) continue;
      // "1 tablet one a day": a brand spelled like a dose ("one a day") right after a dose or form word is the dose.
      if (/^\d/.test(exact.key) && DOSE_BEFORE.test(s.text.slice(0, exact.start))) continue;
      // "yearly digoxin levels", "a vancomycin trough": the drug's level is a test, not a prescription; "digoxin overdose",
      // "heparin-induced thrombocytopenia" name what it did, "heparin lock" a line.
      if (MEASURED_AFTER.test(s.text.slice(exact.end))) continue;
      // "… LDL 158, and cyclosporine 163", "albumin 4.4, calcium 10.1": a bare number after a name at the end of a run of
      // results (no drug among them) is a measured level.
      const results = RESULT_RUN.exec(s.text.slice(0, exact.start));
      if (results && BARE_VALUE.test(s.text.slice(exact.end)) && results.index >= (out[out.length - 1]?.end ?? 0)) continue;
      mention = { ref: exact.payload, key: exact.key, from: exact.from, to: exact.to, start: exact.start, end: exact.end, formStart: exact.start };
    } else {
      const w = tokens[i]!;
      if (!NAME_WORD.test(w.text) || NOT_NAME.has(w.text) || FORM_PREFIX[w.text]) continue;
      const prefixed = !!FORM_PREFIX[prev];
      const j = unknownName(s, i, prefixed, planPart);
      const snapped = (j === i + 1 || (j === i && prefixed)) && w.text.length >= 5 ? snapWord(w.text, SNAP_VOCAB, SNAP_PHONETIC) : undefined;
      const to = snapped ? i + 1 : j;
      if (to === i) continue;
      const end = tokens[to - 1]!.end;
      if (blocked(w.start, end, to - i)) continue;
      const key = s.text.slice(w.start, end);
      mention = snapped
        ? { ref: SINGLE_WORDS.get(snapped)!, key, match: 'fuzzy', from: i, to, start: w.start, end, formStart: w.start }
        : { key, match: 'unrecognised', from: i, to, start: w.start, end, formStart: w.start };
    }
    // The form word before it ("tab"), looked for only once a drug is named here.
    const prefix = prefixAt(tokens, i, out.length ? out[out.length - 1]!.end : 0);
    if (prefix) {
      mention.prefixForm = prefix.form;
      mention.prefixSpan = prefix.at;
      mention.formStart = prefix.at.from;
    }
    out.push(mention);
    i = mention.to - 1;
  }
  return out;
}

const PLAN_HEADING_RULE = 'med.plan-heading-only';
const GIVEN_TODAY = /\b(?:today|given|administered|injected|inject)\b/;
const STOP_SWITCH = 'stopped.switch-object';
const WITHDRAWN = new Set(['negated.withdrawn', 'negated.withdrawn-after']);
const NEW_SWITCH = 'new.switch-object';
const SWITCH_SAME_DRUG = 'med.switched-to-another-form';
// What a drug is switched to when it is the same drug in another form or dose: "to the extended release", "to 1000 mg".
const SWITCH_TO_FORM = /^\s*(?:[a-z]+\s+){0,2}?to\s+(?:the\s+|a\s+|an\s+)?(?:(?:extended|sustained|modified|controlled|delayed|immediate)[ -]release|long[ -]acting|short[ -]acting|slow[ -]release|xr|er|sr|cr|xl|la|mr|once[ -](?:a[ -])?daily|liquid|syrup|suspension|tablets?|capsules?|injections?|patch(?:es)?|\d+(?:\.\d+)?\s*(?:mg|mcg|g|units?|ml|milligrams?|micrograms?))\b/;

/** The prescribing verb and connectors that lead a line ("continue tab", "and start"), so the line before ends there. */
// "oral Orapred, IV Rocephin": a route said before the drug, opening a list item, is that drug's (a route after
// the drug, "… 1 g IV vancomycin …", stays the one before's).
const FREQUENCY_BEFORE = /\b(?:as well as|also|continue|continuing|start|starting|take|taking|on|his|her|your|the)\s+((?:once|twice|thrice|\d+ times) (?:a|per) day|daily|nightly)\s+$/;
const ROUTE_BEFORE = /(?<=(?:^|[,;:(]|\b(?:and|also|then|plus|start|starting|begin|add|continue|give|restart|resume|prescribe|for|on|with))\s*)(?:iv|i\.v\.|intravenous|oral|im|i\.m\.|intramuscular|sq|subcutaneous|subq|topical|inhaled|nebuli[sz]ed)\s+$/;
function lineStart(text: string, formStart: number, floor: number): number {
  const before = text.slice(floor, formStart);
  // "80 milligrams of triamcinolone, and one milliliter of lidocaine": an amount said before the name is its line's.
  const amount = STRENGTH_OF_BEFORE.exec(before) ?? DOSE_OF_BEFORE.exec(before);
  if (amount) return floor + amount.index;
  const route = ROUTE_BEFORE.exec(before);
  const lead = route ? before.slice(0, route.index) : before;
  const m = /(?:\b(?:and|also|then|plus)\s+)?(?:\b(?:start|starting|begin|add|continue|give|take|use|apply|instil|put|increase|reduce|decrease|restart|resume|prescribe|rx|prn|sos|stop|discontinue|i am starting|we will add|we will start)\s+(?:(?:the|on|with|her|him|them|you)\s+)?)?$/.exec(lead);
  return m && m[0].trim() ? floor + m.index + (m[0].length - m[0].trimStart().length) : floor + lead.length;
}

/** Within how many words after the drug's name its instructions are said. */
const NEAR_WORDS = 24;
/** How many words an instruction the limit cut may run on by ("if she gets | worse"). */
const CUT_WORDS = 3;
/** Where the text ends `words` words on from `at`. */
const WORD_RUNS = new Map<number, RegExp>();
function nearEnd(t: string, at: number, words = NEAR_WORDS): number {
  const re = WORD_RUNS.get(words) ?? WORD_RUNS.set(words, new RegExp(String.raw`(?:\s*\S+){0,${words}}`, 'y')).get(words)!;
  re.lastIndex = at;
  re.exec(t);
  return re.lastIndex;
}

type Parsed = Omit<Medication, 'name' | 'brand' | 'match' | 'heard' | 'evidence'> & { field_evidence: Partial<Record<MedicationField, Span>> };

/** Attributes of one step, read from text[from, to) of the sentence; evidence offsets are the sentence's. */
function parseStep(s: Sentence, text: string, from: number, to: number, m: Mention, first: boolean, condition?: Hit): Parsed & { brandSuffix?: string } {
  const t = text.slice(from, to);
  const ev: Partial<Record<MedicationField, Span>> = {};
  const mark = (field: MedicationField, hit: Hit): void => {
    ev[field] = s.span(from + hit.from, from + hit.to);
  };
  const med: Parsed & { brandSuffix?: string } = { field_evidence: ev };
  const drug = m.ref?.drug;
  const combination = !!drug && drug.name.includes(' + ');
  const fromTo = FROM_TO.exec(t);
  const ratio = combination && first && m.end >= from ? COMBINATION_RATIO.exec(t.slice(m.end - from)) : null;
  // After a change ("put the metformin up to 2000 mg a day") an "up to" gives the new dose, not a ceiling.
  const changeBefore = CHANGE_BEFORE.test(text.slice(Math.max(0, m.start - 40), m.start));
  STRENGTH.lastIndex = 0;
  const strength = STRENGTH.exec(changeBefore ? t.replace(/\bup to\b/g, '   to') : t);
  if (fromTo) {
    med.strength = { value: numberOf(fromTo[3]!), unit: unitName(fromTo[4] ?? fromTo[2] ?? 'mg') };
    // "decrease from 7.5 mg to 5 mg": the strength it was on, so the old one is never read as a second drug.
    med.previous_strength = { value: numberOf(fromTo[1]!), unit: unitName(fromTo[2] ?? fromTo[4] ?? 'mg') };
    mark('strength', { from: fromTo.index, to: fromTo.index + fromTo[0].length });
    if (!fromTo[2] && !fromTo[4]) med.inferred = ['strength'];
  } else if (ratio) {
    // "Vicodin 5/500 mg", "Norco 325/10", "Advair 500/50": a combination's strengths are its product's, never one of
    // them alone the strength of all (325 mg of hydrocodone); the brand carries them.
    med.brandSuffix = `${ratio[1]}/${ratio[2]}`;
  } else if (strength) {
    const unit = unitName(strength[3]!);
    const value = numberOf(strength[1]!) * (strength[2] ? 1000 : 1);
    med.strength = { value, unit: unit === 'unit' && drug && /calciferol|vitamin d/.test(drug.name) ? 'IU' : unit };
    mark('strength', { from: strength.index, to: strength.index + strength[0].length });
    // "lisinopril 10 mg, increase to 20 mg daily", "increase amlodipine 5 mg to 10 mg": the strength said first is
    // the old regimen's. A change with a when ("increase to 50 mg after a week") is a titration step instead.
    const rest = t.slice(strength.index + strength[0].length);
    const changed = CHANGE_TO.exec(rest) ?? OLD_TO_NEW.exec(rest);
    if (changed && !TITRATION_WHEN.test(t.slice(strength.index + strength[0].length + changed.index + changed[0].length))) {
      const at = strength.index + strength[0].length + changed.index;
      med.previous_strength = med.strength;
      med.strength = { value: numberOf(changed[1]!), unit: unitName(changed[2] ?? strength[3]!) };
      mark('strength', { from: at, to: at + changed[0].length });
    }
  } else if (first && drug) {
    // "tab razo 20", "telma forty": a bare number straight after a single drug's name is its strength in the
    // drug's usual unit; after a combination's brand ("glycomet gp 1") it is part of the brand's name, unless the
    // formulary gives the combination that one labelled strength.
    const keyNumber = /\s(\d+(?:\.\d+)?)$/.exec(m.key);
    const afterName = m.end - from;
    const labelled = (v: number): boolean => drug.strengths.some((x) => numberOf(x.replace(/\s*[a-z%]+$/i, '')) === v);
    const bare = BARE_NUMBER.exec(t.slice(afterName).replace(/^\s*(?:tablet|tab|capsule|cap)\b/, (x) => ' '.repeat(x.length)));
    // "we will increase Lasix to 40 b.i.d.": the new amount of a change said without its unit, if the drug comes in it.
    const changedTo = CHANGE_VERB.test(text.slice(Math.max(0, from - 30), from)) ? BARE_TO.exec(t.slice(afterName)) : null;
    if (changedTo && !combination && labelled(numberOf(changedTo[1]!))) {
      med.strength = { value: numberOf(changedTo[1]!), unit: unitOf(drug, changedTo[1]!) };
      mark('strength', { from: afterName + changedTo.index, to: afterName + changedTo[0].length });
      med.inferred = ['strength'];
    } else if (keyNumber && (!combination || labelled(Number(keyNumber[1])))) {
      med.strength = { value: Number(keyNumber[1]), unit: unitOf(drug, keyNumber[1]!) };
      mark('strength', { from: afterName - keyNumber[1]!.length, to: afterName });
      // A unit not said is the structurer's reading, even where one of the drug's labelled strengths agrees with it.
      med.inferred = ['strength'];
    } else if (bare && !keyNumber) {
      const at = { from: afterName + bare.index + bare[0].length - bare[0].trimStart().length, to: afterName + bare[0].length };
      const k = bare[2] ? 1000 : 1;
      const value = numberOf(bare[1]!) * k;
      if (combination && !labelled(value)) med.brandSuffix = t.slice(at.from, at.to).trim();
      // "60k" is a strength only when the drug comes in it: a misheard "d three sixty k" must not become 360000 IU.
      // "continue cipro three diabetes …": in a recogniser's run-on list a small number no strength of the drug, with
      // no form before it nor dosing after it, is the next item's.
      else if (labelled(value) || (k === 1 && (value >= 10 || !!m.prefixForm || DOSE_OR_FREQUENCY_NEXT.test(t.slice(at.to))))) {
        med.strength = { value, unit: k > 1 && /calciferol|vitamin d/.test(drug.name) ? 'IU' : unitOf(drug, String(value)) };
        mark('strength', at);
        med.inferred = ['strength'];
      }
    }
  }
  const dose = DOSE.exec(t);
  if (dose && !(strength && dose.index === strength.index)) {
    const value = dose[1] === 'half' ? 0.5 : /^(?:a|an|one)$/.test(dose[1]!) ? 1 : numberOf(dose[1]!);
    const unit = unitName(dose[2]!);
    // Insulin's units are its strength (fixtures README); elsewhere a counted amount is the dose.
    if (!(unit === 'unit' && med.strength?.unit === 'unit')) {
      med.dose = { value, unit } satisfies Amount;
      mark('dose', { from: dose.index, to: dose.index + dose[0].length });
    }
  }
  // "Strepsils lozenges, one every four hours": the count said after the form named with the drug is its dose.
  const afterDrug = Math.max(0, m.end - from);
  const counted = med.dose ? null : FORM_THEN_COUNT.exec(t.slice(afterDrug));
  if (counted) {
    const value = counted[2] === 'half' ? 0.5 : (TIMES[counted[2]!] ?? (/^(?:a|an)$/.test(counted[2]!) ? 1 : numberOf(counted[2]!)));
    med.dose = { value, unit: unitName(counted[1]!) } satisfies Amount;
    const at = afterDrug + counted.index + counted[0].lastIndexOf(counted[2]!);
    mark('dose', { from: at, to: at + counted[2]!.length });
  }
  // "sudafed if she needs it but not at night": a time it is not to be taken is no timing, nor a schedule.
  const when = [...t.matchAll(MEAL)].reduce((x, h) => (NOT_THEN.test(t.slice(Math.max(0, h.index! - 30), h.index!)) ? x.slice(0, h.index!) + ' '.repeat(h[0].length) + x.slice(h.index! + h[0].length) : x), t);
  const mealHits = [...when.matchAll(MEAL)];
  const timings = [...new Set(mealHits.map((x) => timingText(x[0])))];
  if (mealHits.length) {
    med.timing = timings.join(' and ');
    mark('timing', { from: mealHits[0]!.index!, to: mealHits[mealHits.length - 1]!.index! + mealHits[mealHits.length - 1]![0].length });
  }
  // How and when to take it is said close to the drug: in a recogniser's run-on line an "if" or a "for" further on
  // starts another clause ("… metformin 500 mg once a day [and if you're doing any driving …]").
  const near = t.slice(0, nearEnd(t, Math.min(t.length, Math.max(0, m.end - from))));
  const cond = takingCondition(near, t, text.slice(from));
  const ceiling = changeBefore ? null : DAILY_MAX_AMOUNT.exec(near);
  // "you can take one tablet up to six times a day": a ceiling on how often is taken as needed.
  let asNeeded = AS_NEEDED.test(t) || NEED_IT_NEAR.test(near) || !!cond || !!condition || UP_TO_TIMES.test(near) || (EXTRA_DOSE_BEFORE.test(text.slice(Math.max(0, from - 30), from)) && CONDITION.test(near));

  let { freq, single, hit } = frequencyOf(ceiling ? blanked(when, ceiling) : when, asNeeded, timings);
  // "you can take tylenol, just don't take more than 6 tablets a day": a ceiling and no schedule of its own is taken
  // as needed, its "a day" no once-daily schedule.
  const onlyCeiling = asNeeded ? null : DAILY_MAX.exec(t);
  if (onlyCeiling && (!hit || (hit.from >= onlyCeiling.index && hit.to <= onlyCeiling.index + onlyCeiling[0].length))) {
    asNeeded = true;
    ({ freq, single, hit } = frequencyOf(ceiling ? blanked(when, ceiling) : when, true, timings));
  }
  // "may use ibuprofen or Tylenol for discomfort": a drug for a symptom with no schedule is taken when it is there.
  const forSymptom = !asNeeded && !freq && !single ? FOR_SYMPTOM.exec(near) : null;
  if (forSymptom) ({ freq, single, hit } = frequencyOf(when, true, timings));
  let frequency = freq;
  const max = asNeeded ? DAILY_MAX.exec(t) : null;
  if (max) {
    const n = TIMES[max[1]!] ?? Number(max[1]);
    // "no more than four a day" is the maximum, not also a schedule of once a day read from its "a day".
    const own = frequency && frequency.per_day !== null && !(hit && hit.from >= max.index && hit.to <= max.index + max[0].length);
    frequency = { ...(frequency ?? { as_needed: true, text: '' }), per_day: n, text: `${own ? `${frequency!.text}, ` : 'as needed, '}up to ${n} a day` };
    mark('frequency', { from: max.index, to: max.index + max[0].length });
  } else if (hit) mark('frequency', hit);
  if (ceiling) {
    const most = `up to ${ceiling[1]!.replace(/,/g, '')} ${unitName(ceiling[2]!)} a day`;
    frequency = frequency ? { ...frequency, text: `${frequency.text}, ${most}` } : { per_day: null, as_needed: true, text: `as needed, ${most}` };
    mark('frequency', { from: ceiling.index, to: ceiling.index + ceiling[0].length });
  }
  if (frequency) med.frequency = frequency;
  const duration = durationOf(cond ? blanked(t, cond) : t);
  if (duration) {
    med.duration = duration.duration;
    mark('duration', duration.hit);
  } else if (single) med.duration = { value: 1, unit: 'day' };
  const parts: string[] = [];
  let firstInstruction: Hit | undefined;
  if (condition) {
    parts.push(text.slice(condition.from, condition.to).replace(/[\s,]+$/, '').trim());
    firstInstruction = { from: condition.from - from, to: condition.to - from };
  }
  for (const re of INSTRUCTIONS) {
    const x = re.exec(near);
    if (!x) continue;
    // An instruction the word limit cut ("… or if she gets | worse") runs on a few words, to its own end.
    const cut = x.index + x[0].length === near.length && near.length < t.length ? re.exec(t.slice(x.index, nearEnd(t, near.length, CUT_WORDS))) : null;
    const said = cut?.index === 0 ? cut[0] : x[0];
    if (parts.includes(said.trim()) || CUT_SHORT.test(said)) continue;
    parts.push(said.trim());
    firstInstruction ??= { from: x.index, to: x.index + said.length };
  }
  if (parts.length) {
    med.instructions = parts.join('; ');
    mark('instructions', firstInstruction!);
  }
  const routeHit = ROUTES.map(([re, route]) => ({ m: re.exec(t), route })).find((r) => r.m);
  if (routeHit?.m) {
    med.route = routeHit.route;
    mark('route', { from: routeHit.m.index, to: routeHit.m.index + routeHit.m[0].length });
  }
  return med;
}

function unitOf(drug: Drug, value: string): string {
  const usual = drug.strengths.find((x) => numberOf(x.replace(/[a-z%]+$/i, '')) === Number(value));
  const unit = usual?.replace(/^[\d.]+\s*/, '') ?? '';
  return unit === '%' ? '%' : unit ? unitName(unit.toLowerCase()) : 'mg';
}

function formOf(text: string, m: Mention, lineEnd: number, parsed: Parsed): { form?: string; hit?: Hit } {
  let form = m.prefixForm;
  let hit = m.prefixSpan;
  const after = FORM_AFTER.exec(text.slice(m.end, lineEnd));
  if (after) {
    const base = after[2]!.replace(/s$/, '').replace(/^pill$/, 'tablet').replace(/^eyedrop$/, 'eye drops').replace(/^pessarie$/, 'pessary').replace(/^emulgel$/, 'gel').replace(/^(?:chewing )?gum$/, 'chewing gum');
    const mod = after[1]?.trim();
    const spoken = base === 'drop' ? 'drops' : base;
    form = form === 'tablet' && mod ? `${mod} tablet` : mod && (!form || form === spoken || form === 'drops' || form === 'spray') ? `${mod} ${spoken}` : (form ?? spoken);
    const start = m.end + after.index + after[0].length - after[2]!.length - (after[1]?.length ?? 0);
    hit = { from: start, to: m.end + after.index + after[0].length };
  }
  // "steroid creams", "ProctoFoam": a class whose name says the form, or a foam's brand. Other brands' form words
  // ("Mucaine gel", a suspension) are names, not forms.
  const inName = FORM_IN_NAME.exec(m.key)?.[1];
  if (!form && inName && (m.ref?.drug.kind === 'class' || inName === 'foam')) form = inName.replace(/^eyedrop$/, 'eye drops').replace(/^drop$/, 'drops');
  if (!form) {
    const device = DEVICE_FORM.find(([re]) => re.test(m.key) || re.test(text.slice(m.end, Math.min(lineEnd, m.end + 20))));
    if (device) form = device[1];
  }
  const line = text.slice(m.formStart, lineEnd);
  if (form === 'drops' || form === 'spray') {
    if (/\beyes?\b/.test(line)) form = form === 'drops' ? 'eye drops' : form;
    else if (/\b(?:nostrils?|nose|nasal)\b/.test(line)) form = `nasal ${form}`;
    else if (/\bears?\b/.test(line) && form === 'drops') form = 'ear drops';
  }
  if (!form && parsed.dose) {
    const u = parsed.dose.unit;
    if (/^(?:tablet|capsule|sachet|lozenge|pessary|suppository|patch)$/.test(u)) form = u;
    else if (u === 'puff') form = 'inhaler';
    else if (u === 'spray') form = /\b(?:nostrils?|nose|nasal)\b/.test(line) ? 'nasal spray' : 'spray';
  }
  // "nitroglycerin, it's a little pill you put under your tongue": the pill said further on is the drug's.
  if ((form === 'tablet' || (!form && /\b(?:pills?|tablets?)\b/.test(line))) && parsed.route === 'sublingual') form = 'sublingual tablet';
  if (form === 'foam' && /\b(?:procto\w*|rectal(?:ly)?|rectum|anal|anus|hemorrhoids?|haemorrhoids?|piles)\b/.test(`${m.key} ${line}`)) form = 'rectal foam';
  else if (form === 'tablet' && /\bchew(?:able|ed)?\b/.test(line)) form = 'chewable tablet';
  if (!form && parsed.route && INJECTED.test(parsed.route)) form = 'injection';
  // "metronidazole 500 mg #14 1 bid": in prescription shorthand a bare count before the frequency, after a strength,
  // is that many tablets.
  if (!form && parsed.strength && m.ref?.drug.forms.includes('tablet') && COUNT_THEN_FREQUENCY.test(text.slice(m.end, lineEnd))) form = 'tablet';
  if (form === 'pessary') form = 'vaginal pessary';
  return { form, hit };
}

/**
 * `firstMed` receives, per sentence index, where its first prescribed drug starts: the rest of that sentence is
 * the drug's instructions, not advice.
 */
export function extractMedications(
  doc: Doc,
  locale: string,
  blocked: (s: Sentence) => (start: number, end: number, len: number) => boolean,
  firstMed: Map<number, number>,
  conditional?: ConditionalMedication[],
): Medication[] {
  const lang = locale.toLowerCase();
  const meds: Out[] = [];
  const stopped: { id: string; brand?: string; sentence: number; switch: boolean }[] = [];
  const withdrawn: { id: string; sentence: number; classEntry?: Drug }[] = [];
  const excepted = new Set<string>();
  const mentioned = new Set<number>();
  let previous: Sentence | undefined;
  let carried: { s: Sentence; decided: Decided } | undefined;
  const spoken_ = spokenSections(doc);
  for (const s of doc.sentences) {
    // Corrected numbers are blanked, not removed, so offsets stay the sentence's.
    const corrected = s.text.replace(NUMBER_CORRECTION, (x) => ' '.repeat(x.length));
    const { text, mentions } = mergeMentions(corrected, mentionsIn(s, blocked(s), s.index >= doc.planStart));
    if (mentions.length) mentioned.add(s.index);
    const before = previous;
    previous = s;
    const tests = mentions.length ? findInvestigationMatches(s) : [];
    const lines = mentions.map((m, k) => {
      const floor = k > 0 ? mentions[k - 1]!.end : 0;
      return { start: lineStart(text, m.formStart, floor), end: text.length, condition: undefined as Hit | undefined };
    });
    mentions.forEach((m, k) => {
      const nextStart = k + 1 < mentions.length ? lines[k + 1]!.start : text.length;
      const endCue = LINE_END.exec(text.slice(m.end, nextStart));
      const test = tests.find((x) => x.start >= m.end && x.start < nextStart);
      lines[k]!.end = Math.min(endCue ? m.end + endCue.index : nextStart, test ? test.start : nextStart);
      // "on Enablex, and if this reveals no improvement, the patient will be started on …": a condition said just before
      // the next instruction is that instruction's.
      const ahead = endCue && lines[k]!.end === m.end + endCue.index && NEXT_START.test(endCue[0]) ? CONDITION_BEFORE_CUE.exec(text.slice(m.end, lines[k]!.end)) : null;
      if (ahead) lines[k]!.end = m.end + ahead.index;
      // "… twice a week if he gets fever paracetamol drops …": a condition running into the next, unprefixed drug
      // is that drug's.
      const next = mentions[k + 1];
      const tail = TRAILING_CONDITION.exec(text.slice(m.end, lines[k]!.end));
      if (next && !next.prefixForm && tail && lines[k]!.end === nextStart && lines[k + 1]!.start === next.formStart) {
        lines[k]!.end = m.end + tail.index;
        lines[k + 1]!.condition = { from: m.end + tail.index, to: nextStart };
      }
    });
    const list = isDrugList(text, mentions);
    const lead0 = text.slice(0, mentions[0]?.formStart ?? 0);
    // "his medications were as follows one aspirin 81 mg po daily | two multivitamin … | three fosrenol …": in a
    // recogniser's report the list's heading is said once; each item line after it, led by its number or by the
    // drug, is still the list's.
    const listGoesOn = !!carried && carried.decided.decision === 'current' && LIST_ITEM_LEAD.test(lead0)
      && (carried.decided.rules.some((r) => r === LIST_HEADING_RULE || r === LIST_SHARES) || sentenceModifiers(carried.s).some((x) => x.rule.id === LIST_HEADING_RULE));
    // (A dictation's lines are turns of their own; a list item is one.)
    const goesOn = !!carried && carried.s === before && ((carried.s.turn === s.turn && (GOES_ON.test(lead0) || (!!before.semicolon && !lead0.trim()))) || (listGoesOn && (!doc.consultation || carried.s.turn === s.turn)));
    let inherited: Decided | undefined = goesOn ? carried!.decided : undefined;
    mentions.forEach((m, k) => {
      const floor = k > 0 ? mentions[k - 1]!.end : 0;
      const line = lines[k]!;
      const after = text.slice(m.end, line.end);
      const lead = text.slice(floor, m.formStart);
      const { mods, floor: cueFloor } = drugContext(s, m, floor, k === 0 ? before : undefined);
      if (mods.some((x) => x.category === 'OTHER_PERSON')) return;
      const part = spoken_.get(s)?.find((p) => m.start >= p.from && m.start < p.to);
      const spoken = part?.kind;
      // "history he failed amitriptyline in the past plan gabapentin …": a cue said under a spoken heading before the
      // drug's own is the other section's.
      const ownMods = part && part.from > 0 ? mods.filter((x) => x.end >= part.from) : mods;
      // "abilify 15 mg po per day lyrica 100 mg po per day": in a medication list run together, the drug after the one
      // before's regimen is the list's next item.
      // "… he is on coreg 3.125 mg a day lisinopril 5 mg a day … digoxin 0.125 mg every other day lasix 80 mg": so is
      // the list the patient is said to be on, beyond the reach of its cue.
      const listNext = !!inherited && inherited.decision === 'current' && REGIMEN_ONLY.test(lead);
      let decided = decide(s, m, ownMods, cueFloor, line, k > 0 || goesOn ? inherited : undefined, k > 0 ? LIST_LINK.test(lead) || listNext : goesOn, spoken);
      // A list under ALLERGIES names what the patient must not be given: never what they take.
      // A drug list with no cue is what the patient takes (a medication list whose heading a recogniser lost), but
      // under a spoken plan heading ("discharge medications one enteric coated aspirin eighty one mg …") it may be
      // the prescription: kept, flagged.
      if (list && !decided.explicit && sectionOf(s) !== 'allergies') {
        decided = !sectionOf(s) && spoken === 'plan'
          ? { ...decided, decision: 'new', rules: ['med.spoken-plan-list'], unclear: true }
          : { ...decided, decision: 'current', rules: ['med.drug-list'], unclear: false };
      }
      // "Hypertension, she is taking lisinopril 10 mg daily …" once the assessment has begun: the named problem's
      // current treatment, continued (as under a plan heading, where a report has one).
      if (decided.decision === 'current' && !sectionOf(s) && !spoken && s.index >= doc.planStart && s.speaker !== 'patient' && problemLed(s.text, m.formStart)) {
        decided = { ...decided, decision: 'continued', rules: [...decided.rules, 'med.current-treatment-of-problem'], explicit: true };
      }
      // "She's on Eliquis 5 mg twice a day?" – "Yes.": a drug asked about and confirmed is one the patient takes, which
      // a "we'll continue that" after it continues.
      // So is the one drug the doctor asks how the patient is getting on with ("how have things been on the sertraline?").
      if (decided.decision === 'asked' && s.speaker === 'doctor' && GETTING_ON_WITH.test(s.text.slice(0, m.formStart)) && !/\b(?:and|or)\b/.test(s.text.slice(m.end))) decided = { ...decided, decision: 'current', rules: [...decided.rules, 'med.asked-how-on'] };
      if (decided.decision === 'asked' && confirmedNext(doc, s)) decided = { ...decided, decision: 'current', rules: [...decided.rules, 'med.asked-confirmed'] };
      // "change the metformin to the extended release, 1000 mg once a day", "switch his metformin to metformin XR
      // 1000 mg": the same drug switched to another form or dose is changed, not stopped.
      const switchedId = m.ref ? m.ref.drug.name : m.key;
      if (decided.decision === 'stopped' && decided.rules.includes(STOP_SWITCH) && SWITCH_TO_FORM.test(text.slice(m.end, line.end))) {
        decided = { ...decided, decision: 'changed', rules: [...decided.rules, SWITCH_SAME_DRUG] };
      } else if (decided.rules.includes(NEW_SWITCH) && stopped.some((x) => x.sentence === s.index && x.switch && x.id === switchedId)) {
        stopped.splice(stopped.findIndex((x) => x.sentence === s.index && x.switch && x.id === switchedId), 1);
        decided = { ...decided, decision: 'changed', rules: [...decided.rules, SWITCH_SAME_DRUG] };
      }
      inherited = decided;
      carried = { s, decided };
      const variant = m.ref?.brand ? BRAND_VARIANT.exec(after)?.[1] : undefined;
      if (variant) {
        m.ref = { ...m.ref!, brand: `${m.ref!.brand} ${variant}` };
        m.end += after.indexOf(variant) + variant.length;
      }
      const id = m.ref ? m.ref.drug.name : m.key;
      const { decision } = decided;
      // "Should the ultrasound be negative, enoxaparin will be discontinued", "… will be stopped once the INR is
      // therapeutic": a stop planned for later, on a result, leaves what this visit gives in place.
      if (decision === 'stopped' && stopWaits(s.text, m.formStart, m.end)) return;
      if (decision === 'stopped') stopped.push({ id, brand: m.ref?.brand, sentence: s.index, switch: decided.rules.includes(STOP_SWITCH) });
      if (decided.rules.some((r) => WITHDRAWN.has(r)) && s.speaker !== 'patient') withdrawn.push({ id, sentence: s.index, classEntry: m.ref?.drug.kind === 'class' ? m.ref.drug : undefined });
      // "Voltaren … instead of Celebrex. He may continue his other medications": the drug replaced is not continued.
      if (decided.rules.includes('negated.except') || decided.rules.includes('negated.instead')) excepted.add(id);
      const status = STATUS_OF[decision];
      if (!status || status === 'stopped') return;
      const prescribed = PRESCRIBED.has(status);
      // "if the rash spreads, stop the amoxicillin": the condition is the stop's, not one for taking the drug.
      const stopsOn = decided.rules.some((r) => STOPS_ON.has(r));
      const condition =
        prescribed && !stopsOn && (line.condition ?? (!m.prefixForm ? LEADING_CONDITION.exec(lead) : null))
          ? (line.condition ?? { from: floor + LEADING_CONDITION.exec(lead)!.index, to: m.formStart })
          : undefined;
      // "either A 100 mg twice a day or B …": the "or" is out of reach of A's scope, but answers A's "either".
      const alternatives = mods.filter((x) => x.category === 'ALTERNATIVE');
      const either = alternatives.find((x) => x.rule.id === 'alternative.either');
      // "we can either increase your amlodipine to 10 mg or add in a second tablet, ramipril": a drug in the option an
      // "or" opens after an "either" is one of the choices, however far from the "or"; not one said after the option
      // ("…, and i think we'll increase the metformin").
      const cues = sentenceModifiers(s);
      const opened = either ?? cues.find((y) => y.rule.id === 'alternative.either' && y.end <= m.start && cues.some((o) => o.rule.id === 'alternative.or' && o.start > y.end && o.end <= m.start && !OPTION_ENDED.test(s.text.slice(o.end, m.start))));
      if (opened) alternatives.push(...cues.filter((y) => y.category === 'ALTERNATIVE' && y.start >= opened.start && !alternatives.some((x) => x.start === y.start)));
      const stopIf = stopsOn ? STOP_CONDITION.exec(text.slice(m.end, line.end)) : null;
      for (const med of prescription(s, text, m, stopIf ? { ...line, end: m.end + stopIf.index } : line, condition, lang)) {
        // "your furosemide, cut it down from 40 to 20 mg a day": the old and the new strength said together are a change
        // of the drug, where no cue gave it another status.
        const fromTo = status === 'new' && decided.rules.includes('med.default-new') && !!med.previous_strength;
        meds.push({
          ...med,
          status: fromTo ? 'changed' : status,
          rules: [...decided.rules, 'med.line', ...(fromTo ? ['med.from-to'] : []), ...(med.rules ?? [])],
          sentence: s.index,
          mention: k,
          id,
          restart: decided.restart,
          current: decision === 'current',
          explicit: decided.explicit,
          unclear: decided.unclear && !doubtSettled(doc, decided, med),
          groups: alternatives.map((x) => `${s.index}:${x.start}`),
          condition: decided.cue,
          recognised: !!m.ref,
          classEntry: m.ref?.drug.kind === 'class' ? m.ref.drug : undefined,
        });
        if (prescribed && (!med.bare || decided.explicit) && !firstMed.has(s.index)) firstMed.set(s.index, line.start);
      }
    });
    shareListRegimen(meds.filter((m) => m.sentence === s.index), (k) => text.slice(mentions[k]!.end, mentions[k + 1]!.formStart));
  }
  // "I'll give you penicillin V …" – "I'm allergic" – "in that case we won't use penicillin": taken back after it was given.
  // A stop the history tells ("his carvedilol was held on admission") is over once the plan names the drug again
  // ("continue carvedilol at current dose"), which then takes what the medication list said of it.
  const stoppedAs = (x: { id: string; brand?: string }, m: Out): boolean => x.id === m.id && (!x.brand || x.brand === m.brand);
  const stopOver = (x: { sentence: number }, m: Out): boolean =>
    x.sentence < doc.planStart && m.sentence >= doc.planStart && !!m.rules?.some((r) => PRESCRIBING_CUE.test(r));
  const resumedInPlan = (m: Out): boolean => stopped.some((x) => stoppedAs(x, m) && stopOver(x, m));
  const isStopped = (m: Out): boolean =>
    (!m.restart && stopped.some((x) => stoppedAs(x, m) && !stopOver(x, m))) ||
    withdrawn.some((x) => x.sentence > m.sentence && (x.id === m.id || (!!x.classEntry && classMemberNamed(x.classEntry, m.name))));
  // A drug named without any instruction is only mentioned ("before starting methotrexate"), unless a cue prescribes
  // it by name ("continue the albuterol inhaler", "you may use ibuprofen"): drugs without a spoken strength are
  // prescriptions too.
  // A class ("an anti-inflammatory") is an entry only where a cue prescribes it surely: said alone or recommended it
  // describes a drug or a procedure ("that's really an anti-inflammatory", "place some anti-inflammatory medication at
  // the spot", "recommend a spinal injection with a strong anti-inflammatory").
  const named = (m: Out): boolean => (!m.bare || (m.explicit && m.recognised)) && (!m.classEntry || (m.explicit && !m.unclear));
  const history = meds.filter((m) => m.status === 'history' && !isStopped(m));
  const listedBefore = meds.filter((m) => m.status === 'history');
  let prescribed = meds.filter((m) => PRESCRIBED.has(m.status!) && named(m) && !isStopped(m));
  followOnDosing(doc, prescribed, mentioned, firstMed);
  // "I recommend the influenza vaccine and Shingrix. She did defer this.": a refusal said next, of the drugs just offered.
  prescribed = prescribed.filter((m) => !(REFUSED_NEXT.test(doc.sentences[m.sentence + 1]?.text ?? '') && doc.sentences[m.sentence + 1]!.speaker !== 'patient'));
  // "I can give you some chlorphenamine for the itch if you want" – "No, I don't like drowsy ones": the drug the
  // doctor's turn ends on, turned down in the patient's answer, is kept for the doctor to confirm, flagged.
  for (const m of prescribed) {
    const s = doc.sentences[m.sentence]!;
    const next = doc.sentences[m.sentence + 1];
    if (doc.consultation && s.speaker !== 'patient' && OFFER.test(s.text) && !OTHER_QUESTION.test(s.text) && next?.speaker === 'patient' && next.turn !== s.turn && DECLINED_ANSWER.test(next.text)) {
      m.unclear = true;
      m.rules = [...(m.rules ?? []), 'med.declined-next'];
    }
  }
  // "Continue current medications": every drug the patient is said to take now is continued, as the history gave it.
  const continueAll = doc.sentences.find((s) => s.speaker !== 'patient' && sentenceModifiers(s).some((x) => x.category === 'CONTINUED_ALL'));
  if (continueAll) {
    const cue = sentenceModifiers(continueAll).find((x) => x.category === 'CONTINUED_ALL')!;
    const rule = cue.rule.id;
    // "continue her current regimen, which includes the following: basal rate …": what it continues is what it lists.
    const listsItsOwn = OWN_LIST.test(continueAll.text.slice(cue.end));
    // "2. Hypertension. She is advised to continue with the same medication.": the drugs of that problem only, which the
    // list does not say: each is kept, for the doctor to check.
    const problem = problemItemOf(doc, continueAll, (k) => meds.some((m) => m.sentence === k));
    // A drug the story names and the medication list gives with its dose is one drug: the fullest mention of it.
    const current = history
      .filter((m) => m.current && m.recognised && !prescribed.some((x) => x.name === m.name))
      .filter((m, _, all) => !all.some((o) => o !== m && o.name === m.name && (fullness(o) > fullness(m) || (fullness(o) === fullness(m) && all.indexOf(o) < all.indexOf(m)))));
    // "… except metformin", "… with the exception of lisinopril" (negated.except), a drug replaced: those are not.
    prescribed = [
      ...prescribed,
      ...current
        .filter((m) => !excepted.has(m.id) && !listsItsOwn)
        .map((m) => ({ ...m, status: 'continued' as const, rules: [...(m.rules ?? []), rule, ...(problem ? [CONTINUED_UNDER_PROBLEM] : [])], sentence: continueAll.index, unclear: m.unclear || problem })),
    ];
    // "… discharged home to continue her previous home medications, which are: 1. Actos 45 mg a day. 2. …": the list
    // it opens is what is continued (a change said in an item stays a change).
    if (LIST_OPENS.test(continueAll.text)) {
      for (let i = continueAll.index + 1; meds.some((x) => x.sentence === i); i++) {
        for (const m of prescribed) {
          if (m.sentence === i && m.status === 'new' && m.rules?.includes('med.default-new')) m.rules = [...m.rules, rule];
        }
        const item = doc.sentences[i]!;
        const changes = sentenceModifiers(item).filter((x) => x.category === 'CHANGED' && x.rule.direction !== 'pseudo').map((x) => item.span(x.start, x.end));
        const changed = (m: Out): boolean => changes.some((x) => !!m.evidence && x.start >= m.evidence.start && x.end <= m.evidence.end);
        prescribed = prescribed.map((m) => (m.sentence === i && m.status === 'new' && m.rules?.includes(rule) ? { ...m, status: changed(m) ? ('changed' as const) : ('continued' as const) } : m));
      }
    }
  }
  // "on tab thyronorm 75 mcg once daily. Continue the same.", "I take my metformin. – Keep taking that.": a continue
  // said of "that" (or alone: "…; continue.") continues the drugs of the sentence or two before.
  // So does one said after the drugs of its own sentence that it does not prescribe ("he is on warfarin, INR 2.5 today,
  // continue the current dose").
  for (const s of doc.sentences) {
    if (s.speaker === 'patient' || meds.some((m) => m.sentence === s.index && PRESCRIBED.has(m.status!))) continue;
    // A pseudo cue is no continue: "we will continue to follow this" watches a problem.
    const cue = sentenceModifiers(s).find((x) => x.category === 'CONTINUED' && x.rule.direction !== 'pseudo'
      && (ANAPHORA.test(s.text.slice(x.end)) || (s.tokens.length <= 4 && BARE_TAIL.test(s.text.slice(x.end)))));
    if (!cue) continue;
    const cueAt = s.span(cue.start, cue.end).start;
    // In a consultation "that" reaches back over the patient's answer ("you're on X" – "yes" – "okay, keep taking those").
    const near = (m: Out): boolean => m.sentence >= s.index - 2 || (doc.consultation && doc.sentences[m.sentence]!.turn >= s.turn - 2);
    // Not one whose sentence also stops "it" ("… but stopped it in March"): which drug "it" was is not read.
    const stoppedThere = (m: Out): boolean => {
      const there = doc.sentences[m.sentence]!;
      return sentenceModifiers(there).some((x) => x.category === 'STOPPED' && x.rule.direction !== 'pseudo' && STOPS_IT.test(there.text.slice(x.end)));
    };
    const before = (m: Out): boolean => m.sentence < s.index || (m.sentence === s.index && !!m.evidence && m.evidence.end <= cueAt);
    // A drug named twice before it ("and my allopurinol?" – "the allopurinol 300 mg every day", one turn without speaker
    // labels) is continued once, as said most fully.
    const said = history.filter((m) => before(m) && near(m) && m.recognised && !prescribed.some((x) => x.name === m.name) && !stoppedThere(m))
      .filter((m, _, all) => !all.some((o) => o !== m && o.name === m.name && (fullness(o) > fullness(m) || (fullness(o) === fullness(m) && all.indexOf(o) < all.indexOf(m)))));
    prescribed = [...prescribed, ...said.map((m) => ({ ...m, status: 'continued' as const, rules: [...(m.rules ?? []), cue.rule.id, 'med.continue-that'], sentence: s.index }))];
  }
  // "She was on metoprolol 25 mg twice daily; we will increase it to 50 mg.", "Continue atorvastatin 20 mg. Increase
  // to 40 mg at night.": a change said without a drug changes the one drug the sentence or two before named with its
  // strength, history or prescription; the strength said before is the previous one.
  // "You're on lisinopril 10 mg, let's go up to 20 mg": so does one said after the history drug of its own sentence.
  for (const s of doc.sentences) {
    const own = meds.filter((m) => m.sentence === s.index);
    if (s.speaker === 'patient' || own.some((m) => m.status !== 'history')) continue;
    const change = CHANGE_OF_THAT.exec(s.text);
    const unsaid = change ? null : CHANGE_UNSAID.exec(s.text);
    const cue = change ?? unsaid;
    if (!cue) continue;
    const said = s.span(cue.index, cue.index + cue[0].length).start;
    // In a consultation the drug may be two turns back, over the patient's answer ("you're taking the levothyroxine 75
    // micrograms?" – "yes, with my coffee" – "take it on an empty stomach … I'm going to increase the dose to 100").
    const recent = (m: Out): boolean =>
      (m.sentence === s.index ? (m.field_evidence?.name?.end ?? Infinity) <= said
        : m.sentence < s.index && (m.sentence >= s.index - 2 || (doc.consultation && doc.sentences[m.sentence]!.turn >= s.turn - 2))) && m.recognised && !!m.strength;
    const names = new Set([...prescribed, ...history].filter(recent).map((m) => m.name));
    const given = names.size === 1 ? prescribed.find(recent) : undefined;
    const old = names.size === 1 ? (given ?? history.find(recent)!) : onStrengthSaid(doc, s, cue.index, history);
    if (!old) continue;
    if (!change) {
      // The new amount is the doctor's to add: no strength, dose or frequency is carried over, and safety asks for it.
      if (!saidForNow(s, cue.index, cue.index + cue[0].length) || TOLD_CHANGE.test(s.text.slice(0, cue.index))) continue;
      const { strength: _s, dose: _d, frequency: _f, ...rest } = old;
      const { strength: _se, dose: _de, frequency: _fe, ...evidence } = old.field_evidence ?? {};
      prescribed = [...prescribed.filter((m) => m !== given), {
        ...rest, field_evidence: evidence, status: 'changed', previous_strength: old.strength, rules: [...(old.rules ?? []), 'changed.dose', 'med.change-that-unsaid'], sentence: s.index,
      }];
      continue;
    }
    // A step of a taper or a titration ("… for 5 days. Then reduce to 20 mg", "Increase to 100 mg after two weeks")
    // comes after the dose before it: that one is not replaced.
    const after = s.text.slice(change.index + change[0].length);
    if (old.duration || STEP_BEFORE.test(s.text.slice(0, change.index)) || TITRATION_WHEN.test(after) || (given?.status === 'new' && LATER_CHANGE.test(s.text.slice(0, change.index)))) {
      // "Wellbutrin XL 150 mg daily. She may increase to 300 mg daily after three to seven days.": a step of a drug
      // prescribed now is an entry of its own after it (the fixtures' one entry per step); the time before the step
      // is the first one's course.
      if (given && change[2]) prescribed.splice(prescribed.indexOf(given) + 1, 0, titrationStep(s, change, given));
      continue;
    }
    if (!saidForNow(s, change.index, change.index + change[0].length) || TOLD_CHANGE.test(s.text.slice(0, change.index))) continue;
    const strength = { value: numberOf(change[1]!), unit: change[2] ? unitName(change[2]) : old.strength!.unit };
    const at = change.index + change[0].lastIndexOf(change[1]!, change[2] ? change[0].length - change[2].length - 1 : undefined);
    const changed: Out = {
      ...old,
      field_evidence: { ...old.field_evidence, strength: s.span(at, change.index + change[0].length) },
      status: 'changed',
      strength,
      // Its own line has already read a change said in its sentence: the strength before that one is the old one.
      previous_strength: (old.sentence === s.index && old.previous_strength) || old.strength,
      ...(change[2] ? {} : { inferred: ['strength' as const] }),
      rules: [...(old.rules ?? []), 'changed.dose', 'med.change-that'],
      sentence: s.index,
    };
    prescribed = [...prescribed.filter((m) => m !== given), changed];
  }
  // One the history names and the plan prescribes again ("on amlodipine 5 … increase amlodipine to 10 mg") is the
  // plan's; one prescribed in two places is listed once, as it was said last, keeping what the later one does not
  // restate. A drug continued or changed by name takes what the history said about it.
  const planned = new Set(prescribed.filter((m) => !m.bare && m.sentence >= doc.planStart).map((m) => m.name));
  const kept = prescribed.filter((m) => !(m.sentence < doc.planStart && planned.has(m.name) && !m.bare));
  // "we could either increase the metformin or add something like jardiance … I think we'll increase the metformin
  // to 1000": a choice the doctor then makes by naming one of its drugs again leaves the others unsure: kept, flagged.
  const chosen = new Map<string, string>();
  kept.forEach((m, k) => {
    if (kept.slice(k + 1).some((x) => x.name === m.name && !x.groups.some((g) => m.groups.includes(g)))) for (const g of m.groups) chosen.set(g, m.name);
  });
  const deduped = kept.filter((m, k) => {
    const later = kept.slice(k + 1).find((x) => sameProduct(x, m) && (x.sentence !== m.sentence || (x.mention !== m.mention && sameOrNoStrength(x, m))));
    if (!later) return true;
    // "increase your Lasix from 20 to 60 mg for four days … so let's use the Lasix": named again without a strength,
    // a drug already changed or continued is the same order restated, not a new one.
    // "we can start you on Flomax 0.4 mg … let's just stick with Flomax": what this visit started, kept, is still new.
    // "let's continue you on the lisinopril, 10 milligrams a day … do you need a refill? … hey dragon, order lisinopril
    // 10 milligrams po daily": an order with no word of its own for what it does, at the strength said, restates it too.
    const restated = (later.status === 'new' && (m.status === 'changed' || m.status === 'continued') && !later.strength && !later.dose)
      || (later.status === 'new' && (m.status === 'changed' || m.status === 'continued') && !!later.rules?.includes('med.default-new') && sameOrNoStrength(later, m))
      || (later.status === 'continued' && m.status === 'new');
    if (restated) {
      Object.assign(later, { status: m.status, ...(m.previous_strength ? { previous_strength: m.previous_strength } : {}), ...(m.duration && !later.duration ? { duration: m.duration } : {}) });
      later.rules = [...(later.rules ?? []), 'med.restated'];
    }
    // "… the lantus to 24 units at bedtime … if you're getting lows, cut the lantus back by two units": named again
    // without a strength, the drug keeps the schedule said with its strength.
    if (!later.strength && !later.dose && m.strength && m.frequency) {
      const { frequency: _f, ...evidence } = later.field_evidence ?? {};
      later.frequency = m.frequency;
      later.field_evidence = m.field_evidence?.frequency ? { ...evidence, frequency: m.field_evidence.frequency } : evidence;
    }
    fill(later, m);
    return false;
  });
  for (const m of deduped) {
    if (!m.groups.some((g) => chosen.has(g) && chosen.get(g) !== m.name)) continue;
    m.unclear = true;
    m.rules = [...(m.rules ?? []), 'med.choice-made'];
  }
  for (const m of deduped) {
    const before = (resumedInPlan(m) ? listedBefore : history).filter((h) => h.sentence < m.sentence || (h.sentence === m.sentence && h.mention < m.mention));
    // "Metoprolol succinate 50 mg daily" in the list, "continue metoprolol" in the plan: the one salt or form listed.
    const forms = new Set(before.filter((h) => !m.brand && h.name.startsWith(`${m.name} `)).map((h) => h.name));
    const said = [...before].reverse().find((h) => sameProduct(h, m) || (forms.size === 1 && forms.has(h.name)));
    if (!said || m.status === 'new') continue;
    if (m.status === 'changed') {
      if (!m.previous_strength && said.strength && m.strength && !sameAmount(said.strength, m.strength)) m.previous_strength = said.strength;
    } else if (fill(m, said)) m.rules = [...(m.rules ?? []), 'med.history-attributes'];
  }
  // "anti-inflammatories, Motrin 600 mg", "a course of antibiotics … something called nitrofurantoin": a class the
  // doctor then names a drug for is that drug, not an entry of its own.
  const namedLater = (m: Out): boolean =>
    deduped.some(
      (x) =>
        !x.classEntry &&
        ((x.sentence === m.sentence && x.mention > m.mention) ||
          (x.sentence > m.sentence &&
            ((x.sentence - m.sentence <= CLASS_NAMED_WITHIN && !!x.rules?.includes(NAMED_CUE)) ||
              (x.sentence - m.sentence <= CLASS_MEMBER_WITHIN && classMemberNamed(m.classEntry!, x.name))))),
    );
  const listed = deduped.filter((m) => !m.classEntry || !namedLater(m));
  linkAlternativeSentences(doc, listed);
  markAlternatives(listed);
  // "May use ibuprofen or Tylenol for discomfort": a condition said after the last alternative is all of theirs; so is
  // a regimen ("either nitrofurantoin or trimethoprim … one tablet twice a day for three days").
  listed.forEach((m, i) => {
    if (m.frequency || !m.alternatives) return;
    const alternative = (x: Out): boolean => m.alternatives!.includes(x.name) && !!x.frequency;
    const regimen = m.dose || m.duration ? undefined : listed.slice(i + 1).find(alternative);
    const shared = regimen ?? listed.find((x) => alternative(x) && x.frequency!.as_needed && x.frequency!.per_day === null);
    if (!shared) return;
    const fields = regimen ? (['frequency', 'dose', 'duration'] as const) : (['frequency'] as const);
    for (const f of fields) {
      if (!shared[f]) continue;
      Object.assign(m, { [f]: structuredClone(shared[f]) });
      const said = shared.field_evidence?.[f];
      if (said) m.field_evidence = { ...m.field_evidence, [f]: said };
    }
    m.rules = [...(m.rules ?? []), regimen ? 'med.alternatives-share-regimen' : 'med.alternatives-share-condition'];
  });
  for (const m of listed) {
    if (m.bare) m.rules = [...(m.rules ?? []), 'med.named-without-strength'];
    // Nothing said makes it a prescription: no prescribing cue and no frequency or course, in the plan or not (an
    // amount alone is none: "with 1:200,000 epinephrine, approximately 1.5 mL total volume"). A drug named in the
    // story, an explanation or a procedure is then as likely history as a prescription: kept, flagged.
    if (m.rules?.includes('med.default-new') && !m.frequency && !m.duration) m.unclear = true;
    // So is a drug whose only cue is the plan's heading and which nothing doses or gives today ("PLAN: The risks of
    // prednisone were discussed."; not "PLAN: MMR #1 and Varivax #1 today.", "PLAN: A 1 g of Rocephin IM was given.").
    if (m.rules?.includes(PLAN_HEADING_RULE) && !m.strength && !m.dose && !m.frequency && !m.duration && !GIVEN_TODAY.test(doc.sentences[m.sentence]!.text)) m.unclear = true;
    // … and so is one the plan's line only goes over ("PLAN: Amlodipine 5 mg was reviewed."), dosed or not.
    if (m.rules?.includes(PLAN_HEADING_RULE) && MEDS_REVIEWED.test(doc.sentences[m.sentence]!.text)) m.unclear = true;
    // In a conversation, a drug named with only how often, nothing that prescribes, doses or courses it ("he buys some
    // ibuprofen every week", "and the Bactroban is also three times a day"), may be what the patient does, described.
    if (doc.consultation && m.rules?.includes('med.default-new') && !m.rules.includes('med.spoken-item') && !m.strength && !m.dose && !m.duration) m.unclear = true;
    // In a dictated note, a drug said before the plan with nothing that prescribes it may be a medication list whose
    // heading the recogniser lost ("medications currently include … lisinopril 10 mg daily …"): kept, flagged.
    if (m.rules?.includes('med.default-new') && !doc.consultation && m.sentence < doc.planStart && doc.planStart < doc.sentences.length && !PLAN_SECTIONS.has(sectionOf(doc.sentences[m.sentence]!) ?? '')) m.unclear = true;
    // "These include trazodone, Seroquel and methadone … perhaps consider doing the same with Seroquel": a drug kept
    // with no cue, or only because the plan names it as current treatment, weighed or made conditional later on, may
    // not go on.
    if (m.rules?.some((r) => r === 'med.current-treatment-in-plan' || r === 'med.default-new') && meds.some((x) => x.id === m.id && x.sentence > m.sentence && CONDITIONAL.has(x.status!))) m.unclear = true;
    // "He has been taking ibuprofen 800 mg three times a day. Start Mobic 7.5 mg daily instead.": a drug kept only
    // because the plan names it as current treatment, with a new one started "instead" just after, may be the one
    // replaced: kept, flagged.
    if (m.rules?.includes('med.current-treatment-in-plan') && meds.some((x) => x.status === 'new' && x.sentence > m.sentence && x.sentence <= m.sentence + 2 && INSTEAD.test(doc.sentences[x.sentence]!.text))) m.unclear = true;
    // "I'm going to give you some naproxen. Do you have any stomach problems?" – "I had an ulcer." – "Ah, then we'd
    // better not.": a drug the doctor takes back, in a sentence of no other drug soon after it with none between, may
    // not be prescribed after all: kept, flagged.
    if (m.status === 'new' && retractedAfter(doc, mentioned, m)) m.unclear = true;
    // "Patient: I'm taking digoxin … Doctor: you take digoxin.": a drug the patient takes, named again after only "take"
    // and with nothing that doses it, may be the history repeated rather than prescribed: kept, flagged.
    if (m.status === 'new' && m.rules?.includes(TAKE_CUE) && !m.strength && !m.dose && !m.frequency && !m.duration && meds.some((x) => x.id === m.id && x.sentence < m.sentence && x.current)) m.unclear = true;
    // "so you take the lisinopril 20 mg every morning" – "yes": the doctor checking what the patient takes, and the
    // patient confirming it, reads like an instruction: kept, flagged.
    if (doc.consultation && m.status === 'new' && m.rules?.includes(TAKE_CUE) && checkedBack(doc, m.sentence)) m.unclear = true;
    if (m.unclear) m.rules = [...(m.rules ?? []), STATUS_UNCLEAR_RULE];
    // "lisinopril 20 mg" in the history and "taking lisinopril 10 mg" in the plan: a strength the recording also
    // gives otherwise, not as a change, a step or another dose prescribed now, may be the old one: kept, flagged.
    const strength = m.strength;
    if (strength && m.status !== 'changed') {
      const prescribedAt = (a: Amount): boolean => listed.some((y) => y.name === m.name && !!y.strength && sameAmount(y.strength, a));
      if (meds.some((x) => x.name === m.name && x.strength && !sameAmount(x.strength, strength) && !prescribedAt(x.strength))) m.rules = [...(m.rules ?? []), STRENGTH_CONFLICT_RULE];
    }
  }
  const names = new Set(listed.map((m) => m.name));
  conditional?.push(
    ...meds
      .filter((m, k) => CONDITIONAL.has(m.status!) && m.recognised && !names.has(m.name) && meds.findIndex((x) => x.name === m.name && CONDITIONAL.has(x.status!)) === k)
      // "we might consider gabapentin": a cue that is all main clause leaves no condition; the status says it instead.
      .map((m) => ({ ...strip(m), condition: conditionWords(m.condition) || m.status! })),
  );
  return listed.map(strip);
}

// "Flovent 44 mcg two puffs b.i.d. … restarting Flonase daily": two brands of one generic are two products (an inhaler
// and a nasal spray), each with its own regimen; a brand and its generic name are one, and so is a brand with what its
// name may carry after it ("Glucovance 1.25/250").
const brandWord = (m: Medication): string | undefined => m.brand?.split(' ')[0];
const sameProduct = (x: Medication, m: Medication): boolean => x.name === m.name && (!x.brand || !m.brand || brandWord(x) === brandWord(m));

type Out = Medication & {
  bare: boolean;
  sentence: number;
  mention: number;
  id: string;
  restart: boolean;
  current: boolean;
  explicit: boolean;
  unclear: boolean;
  /** The alternative cues ("either", "or") whose scope holds the drug: drugs sharing one are alternatives. */
  groups: string[];
  condition?: string;
  recognised: boolean;
  /** The formulary's entry for a drug class said as such ("antihistamines"). */
  classEntry: Drug | undefined;
};
// Sentences after a drug class within which a drug the doctor names ("something called …") is the one it meant.
const CLASS_NAMED_WITHIN = 2;
// "… give you anti-inflammatory medication to help with the pain. Does that sound good? … hey dragon, order meloxicam
// 15 mg once a day": a member of the class prescribed later in the visit is the one it meant.
const CLASS_MEMBER_WITHIN = 8;
const NAMED_CUE = 'new.called';
const TAKE_CUE = 'new.take';


function strip(m: Out): Medication {
  const { bare: _b, sentence: _s, mention: _m, id: _i, restart: _r, current: _c, explicit: _e, unclear: _u, groups: _g, condition: _d, recognised: _n, classEntry: _k, ...med } = m;
  return med;
}

const sameAmount = (a: Amount, b: Amount): boolean => a.value === b.value && a.unit === b.unit;
const sameOrNoStrength = (a: Medication, b: Medication): boolean => !a.strength || !b.strength || sameAmount(a.strength, b.strength);
/** Of one drug read twice, the reading that says more: its strength first, then how often. */
const fullness = (m: Medication): number => (m.strength ? 2 : 0) + (m.frequency ? 1 : 0);

/** Copies into `to` the attributes it lacks, with where each was said (grounding keeps no number without it). */
function fill(to: Medication, from: Medication): boolean {
  let any = false;
  for (const f of ['strength', 'dose', 'form', 'route', 'frequency', 'timing'] as const) {
    if (to[f] === undefined && from[f] !== undefined) {
      Object.assign(to, { [f]: from[f] });
      const said = from.field_evidence?.[f];
      if (said && !to.field_evidence?.[f]) to.field_evidence = { ...to.field_evidence, [f]: said };
      any = true;
    }
  }
  if (!to.brand && from.brand) to.brand = from.brand;
  return any;
}

const YOU_TAKE = /^(?:(?:so|and|okay|ok|now|right|um|uh)\s+)*you (?:take|use|are taking|'re taking|are using|'re using)\b/;
const CONFIRMED = /^(?:yes|yeah|yep|yup|mhm|uh huh|correct|right|that's right|that is right|that's correct)\b/;
// A yes that goes on to take something back ("yes, but I stopped it", "yeah, when I remember") is no plain yes.
const YES_BUT = /\b(?:but|not|no|never|n't|stopped|stop|ran out|run out|off|forget|forgot|miss|missed|sometimes|when|if|only|except|used to|no longer)\b/;
// "yes and the glipizide five in the morning …": a yes that goes on to add something has answered the question,
// however long it runs without punctuation.
const YES_AND = /^(?:yes|yeah|yep|yup|correct|that's right)\s*,?\s+and\b/;

// A question on how the patient is getting on with a drug, which takes for granted that they take it.
const GETTING_ON_WITH = /\bhow\s+(?:have|has|are|is|'s|did|do)\s+(?:things|you|she|he|it)?\s*(?:been|going|getting on|doing|finding|found|get on|managing)?\s*(?:so far\s+)?(?:on|with)\s+(?:the|your|her|his)\s+(?:new\s+)?$/;
// "You've been on 50 mg for six weeks now": the strength the patient takes, said without the drug's name.
const ON_STRENGTH = new RegExp(String.raw`\b(?:you've|you have|you're|you are|she's|he's|she has|he has|been|on)\s+(?:been\s+)?on\s+(?:the\s+)?${NUM}\s*(${STRENGTH_UNIT})(?![a-z])`);

/**
 * "How have things been on the sertraline?" … "You've been on 50 mg for six weeks now, so I think we should go up to
 * 100 mg": in a consultation, the one drug of the history named without a strength a few turns back, with the strength
 * the doctor says the patient is on before the change.
 */
function onStrengthSaid(doc: Doc, s: Sentence, before: number, history: Out[]): Out | undefined {
  const on = doc.consultation ? ON_STRENGTH.exec(s.text.slice(0, before)) : null;
  if (!on) return undefined;
  const named = history.filter((m) => m.sentence < s.index && doc.sentences[m.sentence]!.turn >= s.turn - ON_STRENGTH_TURNS && m.recognised && !m.strength && !m.classEntry);
  if (new Set(named.map((m) => m.name)).size !== 1) return undefined;
  const m = named[named.length - 1]!;
  return { ...m, strength: { value: numberOf(on[1]!), unit: unitName(on[2]!) }, field_evidence: { ...m.field_evidence, strength: s.span(on.index, on.index + on[0].length) } };
}
// How many turns back the drug may have been named: a review opens on it, then asks about side effects and mood.
const ON_STRENGTH_TURNS = 8;

/** The doctor's sentence answered by the patient's plain yes in the next turn ("yes", "yes, with my coffee usually"). */
function confirmedNext(doc: Doc, s: Sentence): boolean {
  const next = doc.sentences[s.index + 1];
  const words = next?.text.split(' ').length ?? 0;
  return s.speaker === 'doctor' && next?.speaker === 'patient' && next.turn !== s.turn && CONFIRMED.test(next.text)
    && (words <= 4 || (words <= 8 && !YES_BUT.test(next.text)) || YES_AND.test(next.text));
}

/** The doctor's "you take …" answered by the patient's bare yes: a check of the history, not an order. */
function checkedBack(doc: Doc, at: number): boolean {
  const s = doc.sentences[at]!;
  return YOU_TAKE.test(s.text) && confirmedNext(doc, s);
}

// A rule of a cue that prescribes, continues or changes the drug by name ("continue carvedilol", "start …").
const PRESCRIBING_CUE = /^(?:new|continued|changed)\./;
const STOPS_ON = new Set(['current.stop-when', 'current.stop-until']);
const STOP_CONDITION = /\s(?:if|when|whenever|once|as soon as|until|in case)\b/;
const STOP_LATER = /^[^.;?]{0,30}?\b(?:will|would|can|could|should|may|is to|are to)\s+(?:then\s+)?be\s+(?:stopped|discontinued|held|weaned(?: off)?)\b/;
const WAITS_ON = /\b(?:once|when|if|after|until|unless|as soon as|pending)\b/;
// "if potassium remains above 5.0, will stop spironolactone": the stop is the main clause of a condition said first.
const CONDITION_FIRST = /^(?:(?:and|but|so|then|otherwise)\s+)?(?:if|should|once|when|unless|as soon as)\b(?:[^.;?]|\.\d){0,80},/;

/**
 * A stop that waits: said in the passive future on a condition or a later time ("… will be discontinued once …"), or
 * as what a condition said first leads to.
 */
function stopWaits(text: string, drugStart: number, drugEnd: number): boolean {
  return (STOP_LATER.test(text.slice(drugEnd)) && WAITS_ON.test(text)) || CONDITION_FIRST.test(text.slice(0, drugStart));
}

// A sentence that opens by offering another choice: "Alternatively amoxicillin 500 mg BID if preferred".
const OPENS_ALTERNATIVE = /^(?:(?:or|and|but)\s+)?(?:alternatively|as an alternative)\b/;

/**
 * "Penicillin VK 500 mg BID x 10 days. Alternatively amoxicillin 500 mg BID x 10 days.": a sentence opened by
 * "alternatively" offers its drugs instead of those the sentence before prescribed (new or changed), so they share its
 * group.
 */
function linkAlternativeSentences(doc: Doc, meds: Out[]): void {
  for (const m of meds) {
    for (const g of m.groups) {
      const [at, start] = g.split(':').map(Number) as [number, number];
      const s = doc.sentences[at]!;
      if (at !== m.sentence || !OPENS_SENTENCE.test(s.text.slice(0, start)) || !OPENS_ALTERNATIVE.test(s.text.slice(start))) continue;
      const before = meds.filter((x) => x.sentence < at && (x.status === 'new' || x.status === 'changed') && doc.sentences[x.sentence]!.speaker === s.speaker);
      const last = Math.max(...before.map((x) => x.sentence));
      if (at - last > 1) continue;
      for (const x of before) if (x.sentence === last && !x.groups.includes(g)) x.groups = [...x.groups, g];
    }
  }
}

const RETRACTED = /^(?:(?:ah|oh|okay|ok|right|well|hmm|actually|in that case)\s*,?\s*)*(?:(?:then|so)\s*,?\s*)?(?:(?:we'd|we had|you'd|you had|i'd|i had)\s+better\s+not|(?:let's|let us|we'll|we will|i'll|i will)\s+(?:not|leave (?:that|it|them))|(?:maybe|perhaps|probably|better)\s+not|no,?\s+scrap that|scrap that|forget (?:that|it)|on second thoughts?|(?:i|we)\s+(?:won't|will not|shouldn't|should not|can't|cannot|wouldn't|would not)\s+(?:give|prescribe|use|start)\s+(?:you\s+)?(?:that|it|them|this|those)(?:\s+(?:then|after all|now))?\s*[.!]?$)\b/;
const NEXT_CLAUSE = /^\s*[,.;]?\s*(?:we'll|we will|let's|let us|i'll|i will|instead|so|and|but|she|he|you|it|that|this)\b/;
// Sentences after a drug within which a doctor's taking it back is about it.
const RETRACTED_WITHIN = 3;

function retractedAfter(doc: Doc, mentioned: Set<number>, m: Out): boolean {
  for (let j = m.sentence + 1; j <= m.sentence + RETRACTED_WITHIN && j < doc.sentences.length; j++) {
    const s = doc.sentences[j]!;
    if (j > m.sentence + 1 && mentioned.has(j - 1)) return false;
    const back = s.speaker === 'patient' ? null : RETRACTED.exec(s.text);
    // In a recogniser's run-on sentence the next clause may name what is given instead ("… we'd better not we'll
    // stick with paracetamol"); a drug straight after the words is what they take back ("let's not use the ibuprofen").
    if (back) return !mentioned.has(j) || NEXT_CLAUSE.test(s.text.slice(back[0].length));
  }
  return false;
}

/** Drugs offered as alternatives in one breath ("either nitrofurantoin or trimethoprim") name each other. */
function markAlternatives(meds: Out[]): void {
  for (const m of meds) {
    // "not going to change your amlodipine or lisinopril": drugs kept on are both taken, never one or the other.
    if (!m.groups.length || m.status === 'continued') continue;
    // Drugs linked through shared cues, transitively ("either A, B or C").
    const linked = new Set<Out>([m]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const x of meds) {
        if (!linked.has(x) && x.status !== 'continued' && x.groups.some((g) => [...linked].some((y) => y.groups.includes(g)))) {
          linked.add(x);
          grew = true;
        }
      }
    }
    const others = [...new Set([...linked].map((x) => x.name))].filter((n) => n !== m.name);
    if (!others.length) continue;
    m.alternatives = others;
    m.rules = [...(m.rules ?? []), 'med.alternatives'];
  }
}

// What the note does with a drug, from the category of the cue that decides it. CURRENT is history the patient
// takes now (a plan may continue it); ALLERGY, ASKED, NEGATED and OTHER_PERSON are never prescriptions.
type Decision = MedicationStatus | 'current' | 'allergy' | 'asked' | 'negated';
const DECISION: Partial<Record<ContextCategory, Decision>> = {
  NEW: 'new', CONTINUED: 'continued', CONTINUED_ALL: 'continued', CHANGED: 'changed', STOPPED: 'stopped', HISTORICAL: 'history', CURRENT: 'current',
  CONSIDERED: 'considered', CONDITIONAL: 'conditional', ALLERGY: 'allergy', ASKED: 'asked', NEGATED: 'negated',
};
const STATUS_OF: Partial<Record<Decision, MedicationStatus>> = {
  new: 'new', continued: 'continued', changed: 'changed', stopped: 'stopped', history: 'history', current: 'history',
  considered: 'considered', conditional: 'conditional',
};
const PRESCRIBED = new Set<MedicationStatus>(['new', 'continued', 'changed']);
// A change said of the past, by another prescriber, as an option, on a condition or in a question changes nothing now.
const NOT_NOW = new Set<ContextCategory>(['HISTORICAL', 'CONSIDERED', 'CONDITIONAL', 'HYPOTHETICAL', 'NEGATED', 'ASKED', 'OTHER_PERSON']);
const CONDITIONAL = new Set<MedicationStatus>(['considered', 'conditional']);
// What a cue may govern a prescribing verb with, and what may stand between them (subject, modal, commas).
const GOVERNING = new Set<Decision>(['negated', 'considered', 'conditional']);
const GOVERNED_GAP = /^(?:[\s,]|\b(?:then|we|i|you|he|she|they|the patient|will|'ll|we'll|i'll|can|could|would|should|to|be|go ahead and)\b)*$/;
// "if this shows no improvement, the patient will be started on …": a condition's clause, to its comma, governs the
// instruction after it.
const TRAILING_GAP = new RegExp(`${GOVERNED_GAP.source.slice(1, -1)}$`);
const CONDITION_CLAUSE_GAP = new RegExp(String.raw`^[^.;,?]{0,60},${GOVERNED_GAP.source.slice(1)}`);
// "if the culture is positive, stop the amoxicillin and start ciprofloxacin": a condition that opens the sentence governs
// every instruction of the clause after its comma, unless the sentence turns from it ("…, but for now take …").
const OPENING_CONDITION_GAP = /^[^.;?,]{0,60},(?![^.;?]*\b(?:but|otherwise|meanwhile|for now|in the meantime|until then|whatever)\b)[^.;?]*$/;
// Said without punctuation ("… for five days if the culture shows it's resistant i'll call you and switch you to …
// cephalexin") the condition's end is not heard: one that opens the sentence, or any in a recogniser's unpunctuated
// run-on turn, governs a prescribing cue a few words on.
// Nor past the condition's own instruction, a call for help ("if it's still there after 5 minutes call 999 i'll also
// start you on aspirin").
const RUN_ON_CONDITION_GAP = /^(?![^.;?]*\b(?:but|otherwise|meanwhile|for now|in the meantime|until then|whatever)\b|[^.;?]*\b(?:call|ring|phone|dial)\s+(?:999|911|111|112|9|nine|1|one|an ambulance)\b)[^.;?,]{0,60}$/;
const PUNCTUATION = /[,.;:?!]/;
// Only a clause opened by its conjunction ("if …", not "… pending the results") is a condition said before its instruction.
const IF_CLAUSE = /^(?:if|when|once|unless|should)\b/;
const OPENS_SENTENCE = /^(?:(?:so|and|but|okay|ok|now|then|um|uh|well|right)[\s,]+)*$/;
const opensSentence = (s: Sentence, x: ContextModifier): boolean => OPENS_SENTENCE.test(s.text.slice(0, x.start));
// Cues after the drug that overrule the one before it ("amlodipine is stopped", "penicillin allergy").
const OVERRULING = new Set<Decision>(['allergy', 'stopped', 'negated', 'asked', 'continued']);
const UNDOING = new Set<Decision>(['allergy', 'stopped', 'negated']);
const RESTARTS = new Set(['new.restart', 'new.restart-after', 'new.switch']);
const HISTORY = new Set<Decision>(['history', 'current']);
// Decisions a cue gives every drug in its scope, also one said without a comma after another: "allergies benadryl
// phenobarbitone morphine lasix" names four allergens (a prescribing cue is never shared this way).
const SHARED_CUE = new Set<Decision>([...HISTORY, 'allergy']);
// Where a drug said without any cue is what the patient takes or took, not what the plan gives.
const HISTORY_SECTIONS = new Set(['complaint', 'history', 'past_history', 'medications', 'allergies', 'family', 'social', 'review', 'vitals', 'exam', 'results']);
// Sections where a drug the patient "is taking" is the current treatment of an assessed problem: continued.
const PLAN_SECTIONS = new Set(['assessment', 'plan']);

// A sentence that opens on a problem's name and a comma or colon: "hypertension, …", "type 2 diabetes: …".
const PROBLEM_LEAD = /^((?:[a-z0-9'-]+\s+){0,3}[a-z0-9'-]+)\s*[,:]/;
function problemLed(text: string, before: number): boolean {
  const lead = PROBLEM_LEAD.exec(text);
  if (!lead || lead[0].length > before) return false;
  const match = matchIcdTokens(tokenize(lead[1]!).map((t) => t.text));
  return !!match && match.score >= 0.9 && match.coverage >= 0.9;
}

// What may stand before a drug that opens a plan's item: its route or form ("IV Rocephin", "tab azithromycin").
const PLAN_ITEM_OPENING = /^\s*(?:(?:iv|intravenous|oral|po|p\.o\.|topical|im|intramuscular|sq|subcutaneous|inhaled|nebuli[sz]ed|tab|tabs|tablet|cap|capsule|syrup|inj|injection)\s+)?$/;

// Characters between such a cue and the drug within which the cue may still be meant for it.
const UNCLEAR_WITHIN = 40;
// "lisinopril 10 mg daily, to be continued": how far after a drug of the history a continue is still said of it (a
// recogniser's run-on line may reach a "continue on her present medications" many clauses on).
const CONTINUED_AFTER_WITHIN = 80;
/** A cue's scope that reaches only the drug named right after it. */
const ADJACENT_SCOPE = 2;

const sectionOf = (s: Sentence): string | null => (s as Sentence & { section?: string | null }).section ?? null;

interface Decided {
  decision: Decision;
  rules: string[];
  /** A cue of the drug's own decided it (not a default). */
  explicit: boolean;
  restart: boolean;
  unclear: boolean;
  cue?: string;
  /** Where the cue before the drug that decided it starts: a later drug in its scope may share it. */
  cueAt?: number;
  /** A cue after the drug decided it ("Lipitor 80 mg discontinued today, Monopril …"): the next drug of a list does
   * not share it; its scope reaches back over the drugs it is said of. */
  backward?: boolean;
}

const MEDS_REVIEWED = /\b(?:reviewed|reconciled|reconciliation|went over|gone over|noted|listed|documented)\b/;

/** How far before the drug, in characters, the prescriber's words of a line labelled the patient's are looked for. */
const PRESCRIBER_VOICE_WITHIN = 60;

/**
 * What the note does with the drug of mention m. The cue nearest before the drug and after the drug before it
 * decides; a cue after the drug that stops, continues or refuses it overrules; a list ("stop A and B") shares the
 * verb of its first drug; without any, a patient's words and the history sections are history, the rest is new.
 */
const TOLD_AGO = /\b(?:\d+|an?|few|several|couple of)\s+(?:days?|weeks?|months?|years?)\s+ago\b|\b(?:last|past) (?:week|month|year)\b/;
// What a stop said before a drug acts on first: "the excedrin for the attacks", a named thing and more words.
const STOP_HAS_OBJECT = /^\s*(?:the|your|his|her|their|that|this|those|these|all)\s+[a-z]+\s+(?:\S+\s+){2,}$/;

function decide(
  s: Sentence,
  m: Mention,
  mods: ContextModifier[],
  floor: number,
  line: { start: number; end: number },
  inherited: Decided | undefined,
  listed: boolean,
  /** The spoken heading the drug was said under, in a report read without its colons. */
  spoken?: SpokenSection['kind'],
): Decided {
  const section = sectionOf(s);
  // A spoken heading counts for the history sections only: where a recogniser's report turns to its plan is less sure.
  const inHistory = (!!section && HISTORY_SECTIONS.has(section)) || (!section && !!spoken && HISTORY_SECTIONS.has(spoken));
  // Only under an assessment or plan heading: where no heading was said, where the plan starts is a guess.
  const inPlan = !!section && PLAN_SECTIONS.has(section);
  // Under a plan heading "was started on" is today's start, unless the sentence says when before today it was.
  const today = inPlan && !TOLD_AGO.test(s.text);
  const status = (x: ContextModifier): Decision | undefined => DECISION[(inHistory && x.rule.in_history_section) || (today && x.rule.in_plan_section) || x.category];
  // "PLAN: Her lisinopril was increased … by her cardiologist last week": the plan's heading read as a cue ("plan …")
  // decides only where nothing else is said of the drug.
  const heading = (x: ContextModifier): boolean =>
    x.rule.id === 'new.start' && x.text === 'plan' && (/^\s*:/.test(s.text.slice(x.end)) || inlineHeadings(s).some((h) => h.at === x.start && h.kind === 'plan'));
  const nearest = mods.find((x) => status(x) && x.end <= m.formStart && x.start >= floor && !(heading(x) && mods.some((y) => y !== x && status(y))));
  // "would not recommend | starting", "we can consider | a trial of", "if no improvement, will | switch to": a cue
  // that refuses, weighs or conditions the prescribing verb straight after it decides for the drug. (Not a stop: "…
  // then stop | continue tiotropium", run together by a recogniser, is two instructions.)
  const governor = nearest && PRESCRIBED.has(STATUS_OF[status(nearest)!]!)
    ? mods.find((x) => GOVERNING.has(status(x)!) && x.end <= nearest.start && (x.start >= Math.max(0, floor) || opensSentence(s, x))
      && (GOVERNED_GAP.test(s.text.slice(x.end, nearest.start)) || (status(x) === 'conditional' && CONDITION_CLAUSE_GAP.test(s.text.slice(x.end, nearest.start)))
        || (status(x) === 'conditional' && opensSentence(s, x) && OPENING_CONDITION_GAP.test(s.text.slice(x.end, nearest.start)))
        || (status(x) === 'conditional' && IF_CLAUSE.test(x.text) && (opensSentence(s, x) || !PUNCTUATION.test(s.text)) && RUN_ON_CONDITION_GAP.test(s.text.slice(x.end, nearest.start)))))
    : undefined;
  const own = governor ?? nearest;
  // A cue after the drug that would prescribe it ("paracetamol would be beneficial") decides over one that does not
  // ("taking"), never over one that already prescribes or continues it, nor over stopping it ("stopping the aspirin
  // would be beneficial" is advice to stop).
  const overrules = (x: ContextModifier): boolean =>
    !!x.rule.overrules && !!status(x) && !(x.category === 'NEW' && own && (PRESCRIBED.has(STATUS_OF[status(own)!]!) || status(own) === 'stopped'));
  // "Flonase was recommended but the patient declined": a refusal or stop said after the drug undoes a prescribing cue
  // said between them.
  const backward = (x: ContextModifier): boolean => x.start >= m.end && x.rule.direction !== 'forward';
  const undone = mods.find((x) => backward(x) && UNDOING.has(status(x)!));
  // "your Coumadin was held for the procedure, and we'll resume it tonight": a restart said after the stop ends it.
  const resumed = undone && mods.find((x) => backward(x) && x.start >= undone.end && RESTARTS.has(x.rule.id) && status(x) === 'new');
  const back = resumed ?? undone ?? mods.find((x) => backward(x) && (OVERRULING.has(status(x)!) || overrules(x)));
  // "steroid creams I can give you": a cue after the drug decides when none comes before it.
  const after = mods.find((x) => x.start >= m.end && x.rule.direction !== 'forward' && status(x));
  let out: Decided;
  if (back) out = { decision: status(back)!, rules: [back.rule.id], explicit: true, restart: back === resumed, unclear: !!back.rule.uncertain, cue: back.text, backward: true };
  else if (own && status(own) === 'stopped' && STOP_HAS_OBJECT.test(s.text.slice(own.end, m.formStart)) && /^\s*\d/.test(s.text.slice(m.end))) {
    // "stop the excedrin for the attacks sumatriptan 50 milligrams …": the stop has its own object (a drug we may not
    // know) and this drug comes with its dose, as a new line: kept, flagged, never dropped in silence.
    out = { decision: 'new', rules: [own.rule.id, 'med.stop-has-object'], explicit: false, restart: false, unclear: true };
  } else if (own) {
    // A condition is all of its clause ("if this shows no improvement"), where its cue stopped at the first word it needs.
    const gap = governor ? s.text.slice(governor.end, nearest!.start) : '';
    // A condition opening the sentence ends at its comma, before the instructions it governs.
    const to = governor && !GOVERNED_GAP.test(gap) && !CONDITION_CLAUSE_GAP.test(gap) ? governor.end + gap.indexOf(',') : nearest?.start;
    const clause = governor ? s.text.slice(governor.start, to).replace(TRAILING_GAP, '') : '';
    const cue = clause.length > own.text.length ? clause : own.text;
    out = { decision: status(own)!, rules: heading(own) ? [own.rule.id, PLAN_HEADING_RULE] : [own.rule.id], explicit: true, restart: RESTARTS.has(own.rule.id), unclear: !!own.rule.uncertain, cue, cueAt: own.start };
  }
  else if (inherited && listed && inherited.decision !== 'allergy' && !inherited.backward) out = { ...inherited, rules: [...inherited.rules.filter((r) => r !== LIST_SHARES), LIST_SHARES] };
  else if (inherited?.cueAt !== undefined && SHARED_CUE.has(inherited.decision) && mods.some((x) => x.start === inherited.cueAt)) {
    // A history cue whose scope holds several drugs said without commas ("medications lisinopril 20 mg metoprolol 50
    // mg …") is all of theirs; a prescribing cue is not shared this way, so a misread list never prints a drug.
    out = { ...inherited, rules: [...inherited.rules, 'med.shared-cue'] };
  } else if (after) out = { decision: status(after)!, rules: [after.rule.id], explicit: true, restart: false, unclear: !!after.rule.uncertain, cue: after.text };
  else if (s.speaker === 'patient' || inHistory) out = { decision: section === 'allergies' ? 'history' : 'current', rules: ['med.history-section'], explicit: false, restart: false, unclear: false };
  else {
    // A cue further back (before another drug) that would make it history or a plan for later: kept, flagged.
    const far = mods.find((x) => status(x) && x.end <= m.formStart && m.formStart - x.end <= UNCLEAR_WITHIN && !PRESCRIBED.has(STATUS_OF[status(x)!]!));
    // An item of a headed plan that opens on the drug ("2. Azithromycin 5-day dose pack.", "Nystatin swish and
    // swallow.") is the plan giving it, with or without a strength.
    const item = inPlan && !far && PLAN_ITEM_OPENING.test(s.text.slice(0, m.formStart));
    // So is the doctor's own line that is only the drug and what it is for: "Paracetamol for the pain and temperature."
    const lead = s.text.slice(0, m.formStart);
    const spoken = !item && !far && s.speaker === 'doctor' && (PLAN_ITEM_OPENING.test(lead) || OTHER_DRUG_OFFERED.test(lead)) && DRUG_FOR_SYMPTOM_LINE.test(s.text.slice(m.end));
    out = { decision: 'new', rules: item ? ['med.default-new', 'med.plan-item'] : spoken ? ['med.default-new', 'med.spoken-item'] : ['med.default-new'], explicit: item || spoken, restart: false, unclear: !!far };
  }
  // A prescribing cue in the prescriber's own words, in a line labelled the patient's, keeps the drug, flagged: the
  // recogniser's speaker labels are wrong there.
  const mislabelled = out.explicit && PRESCRIBER_VOICE.test(s.text.slice(Math.max(0, m.formStart - PRESCRIBER_VOICE_WITHIN), m.formStart));
  if (s.speaker === 'patient' && PRESCRIBED.has(STATUS_OF[out.decision]!)) {
    out = mislabelled ? { ...out, rules: [...out.rules, PATIENT_LABEL_PRESCRIBES_RULE], unclear: true } : { ...out, decision: 'current', rules: [...out.rules, 'med.patient-says'] };
  }
  // "cetirizine 10 mg can cause drowsiness", "the side effects of sertraline": a drug named in an explanation or a
  // warning may not be prescribed at all; kept when something else prescribes it, but flagged for the doctor.
  const explained = mods.find((x) => x.category === 'HYPOTHETICAL');
  if (explained && PRESCRIBED.has(STATUS_OF[out.decision]!)) out = { ...out, rules: [...out.rules, explained.rule.id], unclear: true };
  if (out.decision === 'history' || out.decision === 'current') {
    // A pseudo cue ("he continued to complain") is the sentence's, not the drug's; nor is one a heading stands
    // between ("… a multivitamin daily family social history unchanged").
    const cues = sentenceModifiers(s);
    const headed = (x: ContextModifier): boolean => cues.some((t) => t.rule.direction === 'terminate' && !!t.rule.terminates?.includes('CONTINUED') && t.start >= m.end && t.end <= x.start);
    // Nor one that reaches only the words right after it ("keep the salbutamol"): "warfarin …, which is to keep her port
    // patent" says nothing of the warfarin.
    const cont = cues.find((x) => x.category === 'CONTINUED' && x.rule.direction !== 'pseudo' && status(x) === 'continued' && x.start >= m.end && x.start < Math.min(line.end, m.end + CONTINUED_AFTER_WITHIN) && !headed(x) && (x.rule.max_scope ?? Infinity) > ADJACENT_SCOPE);
    if (cont) out = { ...out, decision: 'continued', rules: [...out.rules, cont.rule.id], explicit: true };
    else if (out.decision === 'current' && inPlan && s.speaker !== 'patient') {
      // "The patient's home medications were reviewed, including lisinopril …": gone over, not continued: kept, flagged.
      out = { ...out, decision: 'continued', rules: [...out.rules, 'med.current-treatment-in-plan'], explicit: true, unclear: out.unclear || MEDS_REVIEWED.test(s.text) };
    }
  }
  return out;
}

// "Something called either nitrofurantoin or trimethoprim. … So, one tablet, twice a day, for three days.", "… called
// Singulair 10 milligrams. – You take that once daily.": a
// sentence that is only a dose, a frequency or a course, said by the doctor soon after drugs were prescribed
// without them, gives them those; a field a drug already has is never replaced.
// "We will restart lisinopril at half the previous dose. He will be on 20 mg p.o. daily.": so does a strength said
// for the patient to be on, to the one drug prescribed before it without one.
const PATIENT_TO_TAKE = String.raw`(?:(?:he|she|they|you|the patient|patient)(?:'ll\s+|\s+(?:will|should|is to|are to|can|needs to|will need to)\s+)(?:be on|take|receive|use|start on|be started on|be restarted on)|(?:we|i)(?:'ll|\s+will)\s+give\s+(?:you|her|him|them))\s+`;
const DOSING_ONLY = new RegExp(
  String.raw`^(?:(?:uh|um|er|so|and|okay|ok|right|then|now|it's|it is|that's|that is|it will be|it'll be|that will be|that'll be|the dose (?:is|will be)|normally|usually|just|you)[\s,]+)*(?:(?:(?:can|should|will|'ll|need to|have to)\s+)?(?:take|use)\s+(?:(?:it|that|this|them|those)\s+)?(?:(?:about|around|roughly|approximately)\s+)?|${PATIENT_TO_TAKE}(?=${NUM}\s*${STRENGTH_UNIT}\b))?(?:${NUM}\s*${STRENGTH_UNIT}\b|(?:one|two|three|half|a|an|\d+)(?:\s*(?:-|to|or)\s*(?:one|two|three|four|\d+))?\s+(?:${DOSE_UNIT})\b|(?:once|twice|thrice|(?:\d+|three|four) times)\s+(?:(?:a|per)\s+day|daily)\b|every\s+\d+(?:\s*(?:-|to)\s*\d+)?\s+hours\b|(?:a\s+)?(?:\d+|one|two|three|five|seven|ten)[\s-](?:day|week)\s+course\b|for\s+(?:the\s+next\s+|another\s+|a\s+total\s+of\s+)?(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|fourteen)\s+(?:days?|weeks?|months?)\b)`,
);
const FOLLOW_ON_WITHIN = 2;
const NO_MENTION: Mention = { key: '', from: 0, to: 0, start: 0, end: 0, formStart: 0 };
function followOnDosing(doc: Doc, prescribed: Out[], mentioned: Set<number>, firstMed: Map<number, number>): void {
  for (const s of doc.sentences) {
    // "It will be 500 mg every eight hours and I would also like to add Levaquin …": the words before the sentence's
    // own first prescription.
    const end = mentioned.has(s.index) ? (firstMed.get(s.index) ?? 0) : s.text.length;
    if (s.speaker === 'patient' || end === 0 || !DOSING_ONLY.test(s.text.slice(0, end))) continue;
    // The drugs of the nearest sentence before that named any, if no more than FOLLOW_ON_WITHIN back.
    let k = s.index - 1;
    while (k >= 0 && k >= s.index - FOLLOW_ON_WITHIN && !mentioned.has(k)) k--;
    const targets = prescribed.filter((m) => m.sentence === k && s.index - k <= FOLLOW_ON_WITHIN);
    if (!targets.length) continue;
    // "doxycycline, 100 milligrams twice a day. You have to take it for three weeks.": a dosed drug takes only a course.
    const dosed = targets.some((m) => m.frequency || m.dose);
    // "i'm gonna start you on prednisone. forty milligrams for three days, then thirty for three days, then twenty": a
    // taper said after its one drug gives that drug one entry a step.
    const steps = targets.length === 1 ? taperSteps(s.text, 0, 0, end) : [{ from: 0, to: end }];
    const parsed = parseStep(s, s.text, steps[0]!.from, steps[0]!.to, NO_MENTION, false);
    // A strength is one drug's: said after two, or after one that has its own, it is no one's.
    const strength = parsed.strength && !parsed.previous_strength && targets.length === 1 && !targets[0]!.strength ? parsed.strength : undefined;
    if (parsed.strength && !strength) continue;
    if (!strength && !parsed.dose && !parsed.frequency && !parsed.duration) continue;
    if (dosed) {
      if (parsed.strength || parsed.dose || parsed.frequency || !parsed.duration || steps.length > 1 || targets.some((m) => m.duration)) continue;
      for (const m of targets) {
        m.duration = parsed.duration;
        if (parsed.field_evidence?.duration) m.field_evidence = { ...m.field_evidence, duration: parsed.field_evidence.duration };
        m.rules = [...(m.rules ?? []), 'med.follow-on-course'];
      }
      continue;
    }
    const { form } = formOf(s.text, NO_MENTION, end, parsed);
    for (const m of targets) {
      if (strength) {
        m.strength = strength;
        if (parsed.inferred?.includes('strength')) m.inferred = [...(m.inferred ?? []), 'strength'];
      }
      if (parsed.dose) m.dose = parsed.dose;
      if (parsed.frequency) m.frequency = parsed.frequency;
      if (parsed.duration && !m.duration) m.duration = parsed.duration;
      if (form && !m.form) m.form = form;
      if (!m.route && parsed.route) m.route = parsed.route;
      else if (!m.route && form && ORAL_FORMS.test(form)) m.route = 'oral';
      m.bare = false;
      m.rules = [...(m.rules ?? []), 'med.follow-on-dosing'];
    }
    let before = targets[0]!;
    for (const piece of steps.slice(1)) {
      const step = parseStep(s, s.text, piece.from, piece.to, NO_MENTION, false);
      bareStepStrength(s, s.text, piece, step, before.strength);
      const next: Out = {
        ...before,
        strength: step.strength,
        dose: step.dose,
        frequency: step.frequency ?? before.frequency,
        duration: step.duration,
        inferred: step.inferred,
        field_evidence: { ...before.field_evidence, ...step.field_evidence },
        rules: [...(targets[0]!.rules ?? []), 'med.follow-on-step'],
      };
      prescribed.splice(prescribed.indexOf(before) + 1, 0, next);
      before = next;
    }
    if (!firstMed.has(s.index)) firstMed.set(s.index, 0);
  }
}

// Said before a change, it makes the change a later step: "then", "after a week", "in two weeks we'll increase it".
const STEP_BEFORE = /\b(?:then|after|later|next)\b|\b(?:in|over)\s+(?:about\s+|another\s+)?(?:\d+|a|an|one|two|three|four|a couple of|a few)\s+(?:days?|weeks?|months?)\b/;
// When the next step of a titration starts: "after three to seven days" (the upper bound, as the fixtures count a range).
const STEP_AFTER = /\b(?:after|in|over)\s+(?:about\s+|another\s+)?(?:(?:\d+)\s*(?:to|-)\s*)?(\d+|a|an|one)\s+(day|week|month)s?\b/;

/** The step a titration sentence gives the drug prescribed just before it; sets that one's course where it is said. */
function titrationStep(s: Sentence, change: RegExpExecArray, given: Out): Out {
  const end = change.index + change[0].length;
  const at = change.index + change[0].lastIndexOf(change[1]!, change[0].length - change[2]!.length - 1);
  const when = STEP_AFTER.exec(s.text.slice(0, change.index)) ?? STEP_AFTER.exec(s.text.slice(end));
  if (when && !given.duration) {
    given.duration = { value: /^\d/.test(when[1]!) ? Number(when[1]) : 1, unit: when[2] as Duration['unit'] };
    given.rules = [...(given.rules ?? []), 'med.titration-course'];
  }
  const parsed = parseStep(s, s.text, end, s.text.length, NO_MENTION, false);
  return {
    ...given,
    evidence: s.span(change.index, s.text.length),
    field_evidence: { name: given.field_evidence?.name, strength: s.span(at, end), ...(parsed.frequency ? { frequency: parsed.field_evidence.frequency } : {}) },
    strength: { value: numberOf(change[1]!), unit: unitName(change[2]!) },
    frequency: parsed.frequency ?? given.frequency,
    duration: undefined,
    rules: [...(given.rules ?? []).filter((r) => r !== 'med.titration-course'), 'med.titration-step'],
  };
}

// A drug offered ("… if you want", "would you like", "shall I give you"), not a sentence that ends on another question
// ("any questions?", "does that sound okay?") that the answer may be about.
const OFFER = /\b(?:if you (?:want|like|wish|prefer)|would you like|do you want|shall i|should i|how about|what about|i can give you|i could give you|we can give you|we could give you|is it okay if|are you happy|would you be happy|happy to try|want to try|would you be open)\b/;
const OTHER_QUESTION = /\b(?:any (?:other )?questions|does that (?:sound|make sense)|sound (?:ok|okay|good|alright)|is that (?:ok|okay|alright))\b/;
// A patient's answer that turns an offer down: "no", "no thanks", "no, I don't like drowsy ones", "I'd rather not".
const DECLINED_ANSWER = /^(?:(?:um|uh|er|erm|well),?\s+)*(?:(?:no|nah)(?:,?\s+(?:thanks?|thank you))?\s*(?:[,.!]\s*)?$|(?:(?:no|nah),?\s+)?(?:not really|i'd rather not|i would rather not|i'd prefer not|i don't want|i do not want|i'm not keen|i am not keen|i don't like|i do not like)\b)/;
// "… he could benefit from a loop diuretic such as furosemide. I did not start this as he is going home tomorrow.":
// the doctor's own "not started" said next, of the drug just named.
const REFUSED_NEXT = /^(?:(?:number \d+|\d+)\s*[,.:]?\s*)?(?:(?:but|however|unfortunately)\s*,?\s*)?(?:(?:she|he|they|the patient|patient)\s+(?:did\s+|has\s+|have\s+)?(?:defer|deferred|defers|decline|declined|declines|refuse|refused|refuses)(?:\s+(?:this|that|it|them|these|those|both|at this time|for now|today))*\s*[.!]?$|(?:i|we)\s+(?:did not|didn't|have not|haven't|will not|won't|am not going to|are not going to)\s+(?:start|prescribe|give|begin)\s+(?:this|that|it|them)\b)/;

const ANAPHORA = /^\s*(?:with\s+)?(?:(?:the|that|this|your|his|her)\s+course\b|(?:at\s+)?(?:the\s+|his\s+|her\s+|your\s+)?(?:current|present|usual)\s+(?:dose|doses|dosing|dosage|regimen|strength)\b|(?:(?:both|all|each|either)\s+(?:of\s+)?)?(?:the same|same|that|it|them|those|these|this)\b(?!\s+(?:is|was|has|test|report|one|exercises?|stretch(?:es|ing)?|measures|instructions|recommendations|changes|activities|steps|habits|modifications|strategies|techniques|positions|movements|efforts|things)\b)|both\b(?!\s+(?:is|are|was|were|of (?:the|your|his|her) [a-z]+)))/;
// "Tamsulosin … was prescribed by urology; continue.": a short sentence that is the cue alone continues them too.
const BARE_TAIL = /^\s*(?:for now|as is|as before|as it is|unchanged)?\s*[.!]?\s*$/;
// A stop said of a pronoun ("stopped it"), whose drug is not read.
const STOPS_IT = /^\s*(?:it|that|them|those|this|these)\b/;

// Three drugs or more named one after another with nothing said about any: the patient's list of medications.
const LIST_GAP = /^[\s,;]*(?:(?:and|also|plus)\s+)?$/;
// "Tylenol and Motrin p.r.n.", "either nitrofurantoin or trimethoprim, one tablet twice a day for three days",
// "nitrofurantoin or trimethoprim for 3 days": a regimen said after a list of drugs named bare is each one's (their
// strengths stay their own).
const BARE_LIST_GAP = /^\s*(?:,|and|or|and\/or|&)\s*$/;

function shareListRegimen(said: Out[], gap: (mention: number) => string): void {
  for (let k = said.length - 2; k >= 0; k--) {
    const [m, next] = [said[k]!, said[k + 1]!];
    if (!m.bare || m.frequency || next.bare || !(next.frequency || next.dose || next.duration) || next.mention !== m.mention + 1 || next.status !== m.status || !BARE_LIST_GAP.test(gap(m.mention))) continue;
    for (const f of ['frequency', 'dose', 'duration'] as const) {
      if (!next[f] || m[f]) continue;
      Object.assign(m, { [f]: structuredClone(next[f]) });
      const said = next.field_evidence?.[f];
      if (said) m.field_evidence = { ...m.field_evidence, [f]: said };
    }
    m.bare = false;
    m.rules = [...(m.rules ?? []), 'med.list-shares-regimen'];
  }
}

function isDrugList(text: string, mentions: Mention[]): boolean {
  if (mentions.length < 3) return false;
  const gaps = mentions.slice(1).map((m, k) => text.slice(mentions[k]!.end, m.formStart));
  return gaps.every((g) => LIST_GAP.test(g)) && !/\d/.test(text.slice(mentions[0]!.formStart));
}

/**
 * The cues that modify the drug of mention m, in the sentence's offsets, and the offset from which a cue is the
 * drug's own. "… we may | give injection …": a sentence cut after a dangling word is read with the one before it,
 * whose cues then have negative offsets.
 */
/** No cue over or governing the words [start, end) puts them in the past, in another's hands, or off until later. */
function saidForNow(s: Sentence, start: number, end: number): boolean {
  const acting = (m: ContextModifier): boolean => NOT_NOW.has(m.category) && m.rule.direction !== 'pseudo' && m.rule.direction !== 'terminate';
  return !sentenceModifiers(s).some((m) => acting(m) && m.start < end && start < m.end) && !contextOf(s, start, end, 'drug').some(acting);
}

function drugContext(s: Sentence, m: Mention, floor: number, previous: Sentence | undefined): { mods: ContextModifier[]; floor: number } {
  if (!previous || !DANGLING.test(previous.text)) return { mods: contextOf(s, m.formStart, m.end, 'drug'), floor };
  const off = previous.text.length + 1;
  const text = `${previous.text} ${s.text}`;
  const joined = { text, tokens: tokenize(text) };
  const mods = contextOf(joined, off + m.formStart, off + m.end, 'drug').map((x) => ({ ...x, start: x.start - off, end: x.end - off }));
  return { mods, floor: -off };
}

/**
 * Withdraws a drug the doctor corrected ("start amoxicillin, no sorry, azithromycin 500") and joins a drug named
 * twice ("Start Jardiance, empagliflozin, 10 milligrams", "tobrex eye drops, tobramycin").
 */
function mergeMentions(original: string, all: Mention[]): { text: string; mentions: Mention[] } {
  let text = original;
  const out: Mention[] = [];
  for (const m of all) {
    const prev = out[out.length - 1];
    const between = prev ? text.slice(prev.end, m.formStart) : '';
    if (prev && CORRECTION.test(between)) {
      out.pop();
      // The withdrawn name and the correction words say nothing about the drug that replaces it.
      text = text.slice(0, prev.start) + ' '.repeat(m.formStart - prev.start) + text.slice(m.formStart);
      if (!m.prefixForm && prev.prefixForm) {
        m.prefixForm = prev.prefixForm;
        m.prefixSpan = prev.prefixSpan;
        m.formStart = prev.formStart;
      }
    } else if (prev?.ref && m.ref && prev.ref.drug === m.ref.drug && SAME_DRUG_BETWEEN.test(between)) {
      if (!prev.ref.brand && m.ref.brand) prev.ref = m.ref;
      prev.end = m.end;
      continue;
    }
    out.push(m);
  }
  return { text, mentions: out };
}

/**
 * Taper steps of the words text[start, end), read for "then" and the like from `scan` on: each with a number or a
 * frequency of its own starts a new piece; a step that does something else ends the last one.
 */
function taperSteps(text: string, start: number, scan: number, end: number): Hit[] {
  const pieces: Hit[] = [];
  let pieceStart = start;
  let lineEnd = end;
  const rel = text.slice(scan, end);
  for (const x of rel.matchAll(STEP)) {
    const at = scan + x.index!;
    const rest = rel.slice(x.index! + x[0].length);
    const piece = rest.slice(0, rest.search(STEP_AHEAD) >= 0 ? rest.search(STEP_AHEAD) : rest.length);
    if (OTHER_ACT.test(piece)) {
      lineEnd = at;
      break;
    }
    // "… x14 days, then discontinue, #30 days supply given", "then q.6 h. thereafter, dispensed 180 ampules": the end
    // of a taper and what the pharmacy hands out are no steps; nor is a piece whose only number is a length of time
    // ("then finally three weeks i'd like you to return") or whose "once" is a conjunction ("once we assess …").
    // Nor is the first "then" after words with no dose of their own ("skip tonight's warfarin, then go down to 3 mg"):
    // what follows it is the only step's dose.
    if (STEP_DOSE.test(piece) && STEP_DOSE.test(text.slice(pieceStart, at)) && !/^[\s,]*(?:(?:stop|review|discontinue|d\/c|off|dispensed|dispense|disp|qty|quantity)\b|#)/.test(piece)) {
      pieces.push({ from: pieceStart, to: at });
      pieceStart = at + x[0].length;
    }
  }
  pieces.push({ from: pieceStart, to: lineEnd });
  return pieces;
}

/**
 * "forty milligrams for three days, then thirty for three days, then twenty": a taper step's bare number is its
 * strength in the step before's unit, which the recording did not say again (inferred, so the note flags it).
 */
function bareStepStrength(s: Sentence, text: string, piece: Hit, parsed: Parsed, before: Amount | undefined): void {
  const stepBare = before && !parsed.strength && !parsed.dose ? STEP_BARE.exec(text.slice(piece.from, piece.to)) : null;
  if (!before || !stepBare) return;
  parsed.strength = { value: numberOf(stepBare[1]!), unit: before.unit };
  parsed.inferred = [...(parsed.inferred ?? []), 'strength'];
  const at = piece.from + stepBare[0].length - stepBare[1]!.length;
  parsed.field_evidence.strength = s.span(at, at + stepBare[1]!.length);
}

/** One entry per step of the prescription line (a taper has several), with the evidence of each attribute. */
function prescription(s: Sentence, said: string, m: Mention, line: { start: number; end: number }, condition: Hit | undefined, lang: string): (Medication & { bare: boolean })[] {
  const { ref } = m;
  // "Decrease prednisone by 5 mg every week until off": the step of a change is neither a strength nor how often.
  const by = BY_STEP.exec(said.slice(m.end, line.end));
  const stepped = by && CHANGE_VERB.test(said.slice(0, m.end + by.index));
  const text = stepped ? said.slice(0, m.end + by.index) + ' '.repeat(by[0].length) + said.slice(m.end + by.index + by[0].length) : said;
  // The generic name the note's country uses: acetaminophen in the US, cefalexin in the UK.
  const name = ref ? (lang === 'en-us' && ref.drug.us) || (lang === 'en-gb' && ref.drug.uk) || ref.drug.name : m.key;
  const routeBefore = ROUTE_BEFORE.exec(said.slice(line.start, m.formStart));
  const rest = text.slice(m.end, line.end);
  const ends = [LATER_DECISION.exec(rest), SELF_CHECK.exec(rest)].flatMap((x) => (x ? [m.end + x.index] : []));
  const pieces = taperSteps(text, routeBefore ? line.start + routeBefore.index : m.formStart, m.end, Math.min(line.end, ...ends));
  const end = line.start + text.slice(line.start, line.end).trimEnd().replace(/[,;:]$/, '').length;
  const out: (Medication & { bare: boolean })[] = [];
  let previous: Medication | undefined;
  pieces.forEach((piece, n) => {
    const parsed = parseStep(s, text, piece.from, piece.to, m, n === 0, n === 0 ? condition : undefined);
    const { form, hit: formHit } = formOf(text, m, line.end, parsed);
    const ev = parsed.field_evidence;
    ev.name = s.span(m.start, m.end);
    if (form && formHit) ev.form = s.span(formHit.from, formHit.to);
    // Later steps of a taper restate what changes; form, route, frequency and timing carry over.
    const carried = n > 0 ? previous : undefined;
    bareStepStrength(s, text, piece, parsed, carried?.strength);
    const route = parsed.route ?? carried?.route ?? (form && ORAL_FORMS.test(form) ? 'oral' : undefined);
    const brand = ref?.brand ? [ref.brand, parsed.brandSuffix].filter(Boolean).join(' ') : undefined;
    const before = n === 0 && !parsed.strength ? STRENGTH_OF_BEFORE.exec(text.slice(Math.max(0, m.formStart - 40), m.formStart)) : null;
    if (before) {
      parsed.strength = { value: numberOf(before[1]!), unit: unitName(before[2]!) };
      ev.strength = s.span(m.formStart - before[0].length, m.formStart);
      const often = before[3] && !parsed.frequency ? frequencyOf(before[3], false, []).freq : undefined;
      if (often) {
        parsed.frequency = often;
        ev.frequency = ev.strength;
      }
    } else if (n === 0 && !parsed.strength && ref && ref.drug.kind !== 'class') {
      const bare = NUMBER_BEFORE.exec(text.slice(Math.max(0, m.formStart - 40), m.formStart));
      if (bare && ref.drug.strengths.some((x) => numberOf(x.replace(/\s*[a-z%]+$/i, '')) === numberOf(bare[1]!))) {
        parsed.strength = { value: numberOf(bare[1]!), unit: unitOf(ref.drug, bare[1]!) };
        parsed.inferred = ['strength'];
        ev.strength = s.span(m.formStart - bare[0].length + bare[0].indexOf(bare[1]!), m.formStart);
      }
    }
    // Insulin's units are its strength (fixtures README), never a dose said before it.
    // "the Lexapro 20 mg that she can cut in half": half a tablet is the dose (the whole one would be twice it).
    const halved = n === 0 && !parsed.dose ? HALVED.exec(text.slice(m.end, line.end)) : null;
    if (halved) {
      parsed.dose = { value: 0.5, unit: 'tablet' };
      ev.dose = s.span(m.end + halved.index, m.end + halved.index + halved[0].length);
    }
    const doseBefore = n === 0 && !parsed.dose ? DOSE_OF_BEFORE.exec(text.slice(Math.max(0, m.formStart - 40), m.formStart)) : null;
    if (doseBefore && unitName(doseBefore[2]!) !== 'unit') {
      const v = doseBefore[1]!;
      parsed.dose = { value: v.startsWith('half') ? 0.5 : /^(?:a|an|one)$/.test(v) ? 1 : numberOf(v), unit: unitName(doseBefore[2]!) };
      const at = m.formStart - doseBefore[0].length;
      ev.dose = s.span(at, at + doseBefore[0].search(/\s+of\s/));
    }
    // "… as well as twice a day gabapentin", "continue daily aspirin": how often, said before the drug after a verb or
    // "as well as". After a number or a list's "and" it may be the drug before's ("metformin 500 mg twice a day
    // gabapentin …").
    const oftenBefore = n === 0 && !parsed.frequency ? FREQUENCY_BEFORE.exec(text.slice(Math.max(0, m.formStart - 40), m.formStart)) : null;
    const often = oftenBefore ? frequencyOf(oftenBefore[1]!, false, []).freq : undefined;
    if (often) {
      parsed.frequency = often;
      const at = m.formStart - oftenBefore![0].length + oftenBefore![0].indexOf(oftenBefore![1]!);
      ev.frequency = s.span(at, at + oftenBefore![1]!.length);
    }
    // "p.r.n. nitroglycerin for chest pain": the shorthand written before the drug is its own.
    const prnBefore = n === 0 && !parsed.frequency ? PRN_BEFORE.exec(text.slice(Math.max(line.start, m.formStart - 8), m.formStart)) : null;
    if (prnBefore) {
      parsed.frequency = { per_day: null, as_needed: true, text: 'as needed' };
      const at = m.formStart - prnBefore[0].length;
      ev.frequency = s.span(at, at + prnBefore[0].trimEnd().length);
    }
    const strength = parsed.strength ?? carried?.strength;
    const dose = parsed.dose ?? carried?.dose;
    // An injection or vaccine given today is a single dose; so is the first step of a regimen given now ("500 mg today,
    // then 250 mg daily for 4 days", "2 tablets now, then 1 tablet daily", "500 mg on the first day, then …").
    const loading = n === 0 && pieces.length > 1 && LOADING_DOSE.test(text.slice(piece.from, piece.to));
    const once = !parsed.frequency && !carried && (loading || (form === 'injection' && /\b(?:today|now)\b/.test(text.slice(m.end, line.end))));
    const frequency = parsed.frequency ?? carried?.frequency ?? (once ? { per_day: 1, as_needed: false, text: 'single dose' } : undefined);
    if (once && !parsed.duration) parsed.duration = { value: 1, unit: 'day' };
    const timing = parsed.timing ?? carried?.timing;
    const med: Medication = {
      name,
      ...(m.match ? { match: m.match, heard: m.key } : {}),
      evidence: pieces.length === 1 ? s.span(line.start, end) : s.span(n === 0 ? line.start : piece.from, Math.min(piece.to, end)),
      field_evidence: ev,
      ...(brand ? { brand } : {}),
      ...(form ? { form } : {}),
      ...(strength ? { strength } : {}),
      ...(dose ? { dose } : {}),
      ...(route ? { route } : {}),
      ...(frequency ? { frequency } : {}),
      ...(timing ? { timing } : {}),
      ...(parsed.duration ? { duration: parsed.duration } : {}),
      ...(parsed.instructions ? { instructions: parsed.instructions } : {}),
      ...(n === 0 && parsed.previous_strength ? { previous_strength: parsed.previous_strength } : {}),
      ...(parsed.inferred && parsed.strength ? { inferred: parsed.inferred } : {}),
    };
    // "furosemide 40 mg in the morning and 20 mg at lunchtime", "warfarin 3 mg on mondays, 2 mg on the other days": a
    // second amount in the line is a dose this entry does not hold: kept, flagged for the doctor.
    const amounts = pieces.length === 1 && strength && !parsed.previous_strength ? [...text.slice(m.end, piece.to).matchAll(AMOUNT_IN_LINE)] : [];
    if (amounts.some((x) => numberOf(x[1]!) !== strength!.value)) med.rules = [STRENGTH_CONFLICT_RULE];
    previous = med;
    // A condition alone ("if the sertraline isn't enough") does not make a drug prescribed; an instruction to take it
    // as needed does ("Tylenol and Motrin p.r.n.", "Motrin as needed for fever").
    const stated = parsed.strength || parsed.dose || parsed.duration || m.prefixForm || prnBefore || TAKEN_FOR_GOOD.test(text.slice(m.end, piece.to)) || (parsed.frequency && (parsed.frequency.text !== 'as needed' || AS_NEEDED_SAID.test(text.slice(piece.from, piece.to))));
    out.push({ ...med, bare: !stated });
  });
  // "500 mg on day 1, then 250 mg daily on days 2 through 5": a step without a frequency takes its neighbour's.
  if (out.length > 1) {
    out.forEach((med, n) => {
      if (med.frequency) return;
      const near = out.slice(n + 1).find((x) => x.frequency);
      if (near?.frequency) med.frequency = near.frequency;
    });
  }
  return out;
}
