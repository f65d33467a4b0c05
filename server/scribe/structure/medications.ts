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
import { FORMULARY, type Drug } from '../vocab/formulary.js';
import { snapWord } from './codify.js';
import { findInvestigationMatches } from './investigations.js';
import type { Amount, Duration, Frequency, Medication, MedicationField, Span } from './facts.js';
import { PhraseIndex, type Token } from './lexicon.js';
import type { Doc, Sentence } from './sections.js';

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
};
const FORM_WORDS = String.raw`tablets?|capsules?|syrup|suspension|liquid|elixir|drops|spray|ointment|cream|gel|emulgel|lotion|shampoo|soap|face wash|lozenges?|pessary|pessaries|suppository|sachets?|inhaler|rotacaps?|respules|injection|powder|patch|mouthwash|gargle|solution|paint|paste|chewing gum|gum`;
const FORM_MODIFIER = String.raw`chewable|dispersible|sublingual|orally disintegrating|nasal|eye|ear|vaginal|oral|topical|dusting|metered dose|dry powder`;
// "spiriva handihaler", "albuterol hfa inhaler", "tobrex eye drops": product words may sit between name and form.
const FORM_AFTER = new RegExp(
  String.raw`^\s*,?\s*(?:(?!(?:once|twice|daily|for|if|when|and|then|with|in|the|at|after|before|to|on|of)\b)[a-z]+\s+)?(?:(?:\d+(?:\.\d+)?|point \d+)\s*(?:mg|mcg|micrograms?|g|percent|%)\s*,?\s+)?(?:(?:hfa|mdi|dpi|respimat|handihaler|diskus|accuhaler|ds|forte|xr|sr|er|cr|plus)\s+)*((?:${FORM_MODIFIER})\s+)?(${FORM_WORDS})\b`,
);
const DEVICE_FORM: [RegExp, string][] = [[/\b(?:handihaler|respimat|hfa|mdi|diskus|accuhaler)\b/, 'inhaler'], [/\bemulgel\b/, 'gel']];
const SHORT_BRAND_CONTEXT = /\b(?:tab|tabs|tablet|cap|capsule|syp|syrup|inj|injection|start|continue|give)\s*$/;

// What the words before a drug say about it; the cue nearest the drug decides.
type Intent = 'prescribe' | 'stop' | 'past' | 'consider' | 'allergy';
const CUES: [Intent, RegExp][] = [
  [
    'prescribe',
    /\b(?:start|starting|begin|add|adding|continue|continuing|give|take|use|apply|instil|instill|insert|inhale|spray|put|increase|increasing|reduce|reducing|decrease|decreasing|taper|restart|resume|switch(?:ed)? to|change(?:d)? to|replace with|prescribe|prescribing|rx|advised|keep (?:taking|using|on)|stay on|go on|cut|dispense|i am starting|we are starting|plan)\b|\binstead\b(?!\s+of)|\bdo not stop\b|\bdon't stop\b/g,
  ],
  [
    'stop',
    /\b(?:stop|stopped|stopping|discontinue|discontinued|hold|withhold|held|withdraw|don't take|do not take|do not restart|don't restart|do not give|don't give|do not use|don't use|never|no more|instead of|switch(?:ed)? from|come off|leave off|avoid)\b|\b(?:no|not)\b(?=(?:\s+[a-z]+){0,2}\s*$)/g,
  ],
  [
    'past',
    /\b(?:was on|were on|is on|are on|been on|already on|currently on|still on|remains on|^on|takes|taking|took|had taken|had been given|was given|were given|received|needed|tried|previously|earlier|started|was started|while on|while taking|current (?:regimen|medications?|meds)|home medications?|got|bought|from the (?:chemist|pharmacy|medical (?:shop|store))|(?:ic|ive|oid|tic) on|known case of [a-z ]{1,30}?on)\b/g,
  ],
  [
    'consider',
    /\b(?:may|might|could|would)\s+(?:(?:also|then|later|need to|have to|want to|like to)\s+)*(?:add|start|give|switch|change|begin|try|put|use|increase|consider|need|go)\b|\bconsider(?:ing|ed)?\b|\b(?:option of|discussed|thinking of|think about)\b|\bif\b[^.;]*?\b(?:we|i)\s*(?:'ll|will|shall|would|can)\s+(?:\w+\s+)?(?:add|start|give|switch|change|begin|try|put|use|increase|step up)\b|\bafter the (?:report|results?)\b/g,
  ],
  ['allergy', /\b(?:allergic to|allergy to|reaction to|intolerant to|sensitive to)\b/g],
];
// Drugs for someone else ("all family members should take albendazole"): the whole sentence before the drug counts.
const SOMEONE_ELSE =
  /\b(?:everyone|everybody|all family members|family members|other members|household contacts|others at home|rest of the family|all at home)\b|\b(?:husband|wife|partner|friend|neighbou?r|brother|sister)\b(?:'s)?\s+(?:also\s+)?(?:should|must|can|needs? to|takes|is taking|uses|is on|was on|has been on)\b/;
const AFTER_ALLERGY = /^\s*(?:allergy|allergic|reaction|intolerance|sensitivity)\b/;
const AFTER_STOPPED = /^\s*(?:is|was|has been|to be|will be|should be)?\s*(?:stopped|discontinued|withheld|held|off)\b/;
const CONTINUE = /\b(?:continue|continued|same dose|the same|keep taking|keep using)\b/;
const RESTART = /\b(?:restart|resume|start again|switch(?:ed)? to|change(?:d)? to|instead)\b/;
// A sentence cannot end on these words: the segmenter cut a clause ("… we may | give injection …").
const DANGLING = /\b(?:may|might|could|would|will|shall|can|we|i|to|and|then|if|not)\s*$/;
const LIST_LINK = /(?:,|\band|\bor|\balso|\bplus|\bas well as)\s*$/;
// "start amoxicillin, no sorry, azithromycin": the drug before the correction is withdrawn.
const CORRECTION = /^[\s,]*(?:(?:\d+(?:\.\d+)?\s*[a-z]*|point \d+\s*[a-z]*)\s*,?\s*)?(?:(?:oh\s+)?no|sorry|i'm sorry|i am sorry|correction|i mean|i meant|rather|scratch that|make (?:that|it)|not that)(?:[\s,]+(?:no|sorry|i'm sorry|i am sorry|i mean|make (?:that|it)))*[\s,]*$/;
// "seventy five no sorry fifty mg", "650, correction, 1,300 milligrams": the number before is blanked out.
const NUMBER_CORRECTION =
  /(?:\d[\d,]*(?:\.\d+)?|point \d+)\s*(?:[a-z]+\s*)?,?\s*\b(?:(?:oh\s+)?no|sorry|i'm sorry|i am sorry|correction|i mean|i meant|rather|make (?:that|it))\b(?:[\s,]+(?:no|sorry|i'm sorry|i am sorry|i mean|make (?:that|it)))*[\s,]+(?:(?:to|up to)\s+)?(?=\d|point \d|\.\d)/g;

// A prescription line ends where the doctor turns to something else.
const LINE_END = new RegExp(
  [
    String.raw`\b(?:review|follow up|followup|come back|come and see|come after|see me|see him|see her|show me|return|recheck|revisit|advice|diet|investigations?|refer|referral|referred|impression|diagnosis|assessment|allerg(?:y|ies)|vitals|call (?:if|me|us)|we will (?:do|check|send|get)|i am (?:sending|ordering|referring)|i'm (?:sending|ordering|referring|also ordering))\b`,
    String.raw`\b(?:bp|blood pressure|pulse|heart rate|temperature|temp|spo2|oxygen saturation|saturation|sats|respiratory rate|weight|height)\b(?=\s+(?:is\s+|was\s+|of\s+|today\s+)?\d)`,
    String.raw`(?<!\b(?:given|give|take|use|used|apply|only)\s+)\bif\b(?=[^.;]{0,60}?\b(?:come|call|go to|rush|report|contact|see me|review|we (?:will|may|might|could|can)|we'll)\b)`,
    String.raw`\b(?:and\s+)?(?:no|avoid|stop)\b(?=\s+(?:smoking|alcohol|driving|spicy|oily|sweets|sugar|salt|junk|fried|tea|coffee)\b)`,
  ].join('|'),
);
const STEP = /,?\s*\b(?:then|followed by|after that|thereafter)\b\s*/g;
const STEP_AHEAD = /\b(?:then|followed by|after that|thereafter)\b/;
// A condition at the end of one line that belongs to the drug after it, or that leads a drug ("if fever, paracetamol").
const TRAILING_CONDITION = /\b(?:if|when|whenever|in case of)\b(?!\s+(?:needed|required|necessary))[^,;]*$/;
const LEADING_CONDITION = /\b(?:only\s+)?(?:if|when|whenever|in case of)\b[^.;]*$/;
const SAME_DRUG_BETWEEN = /^[\s,;:()-]*(?:(?:i e|ie|that is|which is|eye|ear|nasal|drops?|inhaler|gel|cream|tablets?|\d+(?:\.\d+)?\s*(?:percent|%|mg|mcg))\b[\s,]*)*$/;
// Words after a brand that name the product ("tylenol pm", "crocin ds", "augmentin duo", "metolar xr").
const BRAND_VARIANT = /^\s*((?:pm|arthritis|extra strength|xr|sr|er|cr|mr|ds|forte|plus|duo|kid|junior|xt|hfa|handihaler|respimat|emulgel|max)\b)/;

const NUM = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+|point \d+)`;
const numberOf = (x: string): number => Number(x.replace(/,/g, '').replace(/^point\s+/, '.'));
const STRENGTH_UNIT = String.raw`(mg|milligrams?|mcg|µg|micrograms?|g|gm|grams?|iu|i u|international units|units?|percent|%)`;
// A per-kg dose calculation, a concentration or a stated daily maximum is not the strength.
const STRENGTH = new RegExp(
  String.raw`(?<!\b(?:more than|maximum(?: of)?|max|exceed|exceeding|under|(?<!\b(?:go|goes|going|increase|increased|titrate|titrated)\s+)up to|upto)\s+)(?<![\d.])${NUM}\s*(k\s+)?${STRENGTH_UNIT}(?![a-z])(?!\s*(?:\/|per)\s*(?:kg|ml|dl|l|litre|liter)\b)`,
  'g',
);
const FROM_TO = new RegExp(String.raw`\bfrom\s+${NUM}\s*(?:${STRENGTH_UNIT}\s+)?to\s+${NUM}\s*${STRENGTH_UNIT}?(?![a-z])`);
const DOSE_UNIT = String.raw`tablets?|tabs?|capsules?|caps?|ml|millilit(?:er|re)s?|drops?|puffs?|sprays?|units?|sachets?|teaspoons?|tsp|spoons?|lozenges?|pessar(?:y|ies)|suppositor(?:y|ies)|patch(?:es)?|pieces?|inhalations?`;
const DOSE = new RegExp(String.raw`(?<!\b(?:more than|maximum(?: of)?|max|up to|upto)\s+)(?<![\d.])(${NUM.slice(1, -1)}|\b(?:half|a|an|one))\s*(${DOSE_UNIT})\b(?!\s*(?:\/|per)\s*(?:kg|day)\b)`);
const BARE_NUMBER = new RegExp(
  String.raw`^\s*${NUM}(?![\d.])\s*(k\b)?(?!\s*(?:-|\.\d|over|by|\/|(?:times?|days?|weeks?|months?|hours?|minutes?|years?|${DOSE_UNIT}|mg|mcg|g|gm|grams?|iu|percent|%)\b))`,
);

function unitName(u: string): string {
  if (/^(?:mg|milligram)/.test(u)) return 'mg';
  if (/^(?:mcg|µg|microgram)/.test(u)) return 'mcg';
  if (/^(?:g|gm|gram)/.test(u)) return 'g';
  if (/^(?:percent|%)/.test(u)) return '%';
  if (/^(?:iu|i u|international)/.test(u)) return 'IU';
  if (/^(?:ml|millilit)/.test(u)) return 'ml';
  if (/^tab/.test(u)) return 'tablet';
  if (/^cap/.test(u)) return 'capsule';
  if (/^(?:teaspoon|tsp|spoon)/.test(u)) return 'teaspoon';
  if (/^pessar/.test(u)) return 'pessary';
  if (/^suppositor/.test(u)) return 'suppository';
  if (/^patch/.test(u)) return 'patch';
  return u.replace(/s$/, '');
}

const WEEKDAY = 'sunday|monday|tuesday|wednesday|thursday|friday|saturday';
const MEAL =
  /\b(?:(?:\d+|half an?|an?)\s*(?:minutes?|mins?|hours?|hrs?)\s+)?(?:before|after|with)\s+(?:food|meals?|breakfast|lunch|dinner|supper|feeds?)\b|\b(?:on an |on |an )?empty stomach\b|\b(?:at )?bedtime\b|\bat night\b|\bnightly\b|\b(?:in the|every|early) morning\b|\bin the evening\b|\bevery (?:night|evening)\b|\bhs\b|\bwith (?:milk|orange juice|juice)\b|\bin a glass of milk\b|\bon waking(?: up)?\b/g;
const SINGLE_MEAL = /\b(?:breakfast|lunch|dinner|supper|bedtime|night|morning|evening|hs|waking)\b/;

function timingText(t: string): string {
  if (/^(?:bedtime|hs)$/.test(t)) return 'at bedtime';
  if (/^(?:nightly|every night)$/.test(t)) return 'at night';
  if (t === 'every morning') return 'in the morning';
  if (t === 'every evening') return 'in the evening';
  if (t === 'in a glass of milk') return 'with milk';
  return t.replace(/^(?:on an |on |an )empty/, 'empty');
}

interface Hit {
  from: number;
  to: number;
}

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
  m = new RegExp(String.raw`\b(?:(?:once|one time|1 time|twice|two times|2 times|thrice|three times|3 times)\s+(?:a|per|every|in a)\s+week|weekly|every week|once weekly|every (?:${WEEKDAY})|on (?:${WEEKDAY})s?|alternate (?:days?|nights?)|every other (?:day|night)|once a fortnight|every 2 weeks|once a month|monthly)\b`).exec(t);
  if (m) return { freq: mk(null, m[0]), single: false, hit: at(m) };
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
  m = /\b(?:stat|single dose|1 dose|a dose|once only|one time only|single oral dose|given (?:today|now|in the clinic))\b/.exec(t);
  if (m) return { freq: mk(1, 'single dose'), single: true, hit: at(m) };
  m = /\b(?:od|once (?:a day|daily)|once|daily|every day|everyday|qd|every morning|every night|nightly|(?:a|per) day)\b/.exec(t);
  if (m) return { freq: mk(1, 'once daily'), single: false, hit: at(m) };
  const meals = timings.filter((x) => SINGLE_MEAL.test(x));
  if (meals.length >= 2) return { freq: mk(meals.length, meals.join(' and ')), single: false };
  if (meals.length === 1 && !/\b(?:food|meals?)\b/.test(meals[0]!)) return { freq: mk(1, `once ${meals[0]!.replace(/^\d+\s*\w+\s+/, '')}`), single: false };
  if (asNeeded) return { freq: mk(null, 'as needed'), single: false };
  return { single: false };
}

const AS_NEEDED = /\b(?:sos|prn|as needed|as required|when needed|if needed|when required|if required|on demand|as and when)\b/;
// "only if the fever is above 100", "when there is pain", "at the onset of nausea": a stated condition.
const CONDITION = /\b(?:only\s+)?(?:if|when|whenever|in case of|at (?:the )?onset of)\b(?!\s+(?:needed|required|you wake|he wakes|she wakes|you get up))[^,;]*/;
// "not more than 4 tablets in a day", "maximum twice a day", "up to 3 times a day": the stated daily maximum.
const DAILY_MAX =
  /\b(?:not more than|no more than|maximum(?: of)?|max|up to|upto|not to exceed)\s+(\d+|once|twice|thrice)\s*(?:(?:tablets?|tabs?|capsules?|doses?|times?|pieces?|sprays?|puffs?)\s+)?(?:a|in a|per|in 1|each|in 24 hours?)\s*(?:day|night|24 hours)\b/;
const TIMES: Record<string, number> = { once: 1, twice: 2, thrice: 3 };
const DURATION =
  /\b(?:(?:for|x)\s+(?:(?:about|at least|only|another|next|the next|the first|a total of|up to|upto|a maximum of|maximum of|maximum|max)\s+)*|(?:(?:for\s+)?(?:a\s+)?(?:maximum|max|up to)(?:\s+of)?\s+))(\d+(?:\.\d+)?|a|an)?\s*(day|week|month|year|night)s?\b/;
const ON_DAYS = /\bon days?\s+(\d+)(?:\s*(?:through|to|till|until|-|and)\s*(\d+))?\b/;

function durationOf(t: string): { duration: Duration; hit: Hit } | undefined {
  const m = DURATION.exec(t);
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
  [/\bsublingual(?:ly)?\b/, 'sublingual'],
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
  /\bfor\s+(?!\d|a\b|an\b|the next\b|the first\b|at least\b|about\b|only\b|up to\b|upto\b|maximum\b|max\b)(?:the\s+)?[a-z][a-z ]*?(?=,|$|\s+if\b|\s+and\b|\s+then\b)/,
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
    'start add prescribe begin continue give take increase reduce stop restart resume rx plan advice advised').split(' '),
);
const NAME_WORD = /^[a-z][a-z-]{2,}$/;
const PRESCRIBING_VERB = /\b(?:start|add|prescribe|begin|continue|give|take|increase|rx)\s+(?:(?:on|the|with)\s+)?$/;
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
  return new RegExp(String.raw`^\s*,?\s*(?:${NUM}\s*(?:${DOSE_UNIT})\b|(?:1|one|half)?\s*(?:od|bd|tds|tid|bid|qid|sos|once|twice|thrice|daily|\d+ times)\b|[0-2]-[0-2]-[0-2])`).test(head) ? j : i;
}

function mentionsIn(s: Sentence, blocked: (start: number, end: number, len: number) => boolean, planPart: boolean): Mention[] {
  const tokens = s.tokens;
  const out: Mention[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const floor = out.length ? out[out.length - 1]!.end : 0;
    const prefix = prefixAt(tokens, i, floor);
    const prev = tokens[i - 1]?.text ?? '';
    const exact = DRUG_INDEX.matchAt(tokens, i);
    let mention: Mention | undefined;
    if (exact) {
      if (blocked(exact.start, exact.end, exact.to - exact.from)) continue;
      // Short brand names ("pan", "o2") are ordinary words unless a drug context surrounds them.
      if (exact.key.length <= 3 && !SHORT_BRAND_CONTEXT.test(s.text.slice(0, exact.start)) && !/^\s*\d/.test(s.text.slice(exact.end))) continue;
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

/** The prescribing verb and connectors that lead a line ("continue tab", "and start"), so the line before ends there. */
function lineStart(text: string, formStart: number, floor: number): number {
  const m = /(?:\b(?:and|also|then|plus)\s+)?(?:\b(?:start|starting|begin|add|continue|give|take|use|apply|instil|put|increase|reduce|decrease|restart|resume|prescribe|rx|stop|discontinue|i am starting|we will add|we will start)\s+(?:(?:the|on|with|her|him|them|you)\s+)?)?$/.exec(text.slice(floor, formStart));
  return m && m[0].trim() ? floor + m.index + (m[0].length - m[0].trimStart().length) : formStart;
}

function intentOf(before: string): Intent | undefined {
  let best: { intent: Intent; end: number; len: number } | undefined;
  for (const [intent, re] of CUES) {
    re.lastIndex = 0;
    for (let m = re.exec(before); m; m = re.exec(before)) {
      const end = m.index + m[0].length;
      // The cue nearest the drug wins; at a tie the longer one ("if … we will add" over "add").
      if (!best || end > best.end || (end === best.end && m[0].length > best.len)) best = { intent, end, len: m[0].length };
    }
  }
  return best?.intent;
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
  STRENGTH.lastIndex = 0;
  const strength = STRENGTH.exec(t);
  if (fromTo) {
    med.strength = { value: numberOf(fromTo[3]!), unit: unitName(fromTo[4] ?? fromTo[2] ?? 'mg') };
    mark('strength', { from: fromTo.index, to: fromTo.index + fromTo[0].length });
  } else if (strength) {
    const unit = unitName(strength[3]!);
    const value = numberOf(strength[1]!) * (strength[2] ? 1000 : 1);
    med.strength = { value, unit: unit === 'unit' && drug && /calciferol|vitamin d/.test(drug.name) ? 'IU' : unit };
    mark('strength', { from: strength.index, to: strength.index + strength[0].length });
  } else if (first && drug) {
    // "tab razo 20", "telma forty": a bare number straight after a single drug's name is its strength in the
    // drug's usual unit; after a combination's brand ("glycomet gp 1") it is part of the brand's name, unless the
    // formulary gives the combination that one labelled strength.
    const keyNumber = /\s(\d+(?:\.\d+)?)$/.exec(m.key);
    const afterName = m.end - from;
    const labelled = (v: number): boolean => drug.strengths.some((x) => numberOf(x.replace(/\s*[a-z%]+$/i, '')) === v);
    const bare = BARE_NUMBER.exec(t.slice(afterName).replace(/^\s*(?:tablet|tab|capsule|cap)\b/, (x) => ' '.repeat(x.length)));
    if (keyNumber && (!combination || labelled(Number(keyNumber[1])))) {
      med.strength = { value: Number(keyNumber[1]), unit: unitOf(drug, keyNumber[1]!) };
      mark('strength', { from: afterName - keyNumber[1]!.length, to: afterName });
    } else if (bare && !keyNumber) {
      const at = { from: afterName + bare.index + bare[0].length - bare[0].trimStart().length, to: afterName + bare[0].length };
      const k = bare[2] ? 1000 : 1;
      const value = numberOf(bare[1]!) * k;
      if (combination && !labelled(value)) med.brandSuffix = t.slice(at.from, at.to).trim();
      // "60k" is a strength only when the drug comes in it: a misheard "d three sixty k" must not become 360000 IU.
      else if (k === 1 || labelled(value)) {
        med.strength = { value, unit: k > 1 && /calciferol|vitamin d/.test(drug.name) ? 'IU' : unitOf(drug, String(value)) };
        mark('strength', at);
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
  const mealHits = [...t.matchAll(MEAL)];
  const timings = [...new Set(mealHits.map((x) => timingText(x[0])))];
  if (mealHits.length) {
    med.timing = timings.join(' and ');
    mark('timing', { from: mealHits[0]!.index!, to: mealHits[mealHits.length - 1]!.index! + mealHits[mealHits.length - 1]![0].length });
  }
  const asNeeded = AS_NEEDED.test(t) || CONDITION.test(t) || !!condition;

  const { freq, single, hit } = frequencyOf(t, asNeeded, timings);
  let frequency = freq;
  const max = asNeeded ? DAILY_MAX.exec(t) : null;
  if (max) {
    const n = TIMES[max[1]!] ?? Number(max[1]);
    frequency = { ...(frequency ?? { as_needed: true, text: '' }), per_day: n, text: `${frequency && frequency.per_day !== null ? `${frequency.text}, ` : 'as needed, '}up to ${n} a day` };
    mark('frequency', { from: max.index, to: max.index + max[0].length });
  } else if (hit) mark('frequency', hit);
  if (frequency) med.frequency = frequency;
  const cond = CONDITION.exec(t);
  const duration = durationOf(cond ? t.slice(0, cond.index) + ' '.repeat(cond[0].length) + t.slice(cond.index + cond[0].length) : t);
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
    const x = re.exec(t);
    if (!x || parts.includes(x[0].trim())) continue;
    parts.push(x[0].trim());
    firstInstruction ??= { from: x.index, to: x.index + x[0].length };
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
    const base = after[2]!.replace(/s$/, '').replace(/^pessarie$/, 'pessary').replace(/^emulgel$/, 'gel').replace(/^(?:chewing )?gum$/, 'chewing gum');
    const mod = after[1]?.trim();
    const spoken = base === 'drop' ? 'drops' : base;
    form = form === 'tablet' && mod ? `${mod} tablet` : mod && (!form || form === spoken || form === 'drops' || form === 'spray') ? `${mod} ${spoken}` : (form ?? spoken);
    const start = m.end + after.index + after[0].length - after[2]!.length - (after[1]?.length ?? 0);
    hit = { from: start, to: m.end + after.index + after[0].length };
  }
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
  if (form === 'tablet' && /\bsublingual(?:ly)?\b/.test(line)) form = 'sublingual tablet';
  else if (form === 'tablet' && /\bchew(?:able|ed)?\b/.test(line)) form = 'chewable tablet';
  if (!form && parsed.route && INJECTED.test(parsed.route)) form = 'injection';
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
): Medication[] {
  const us = locale.toLowerCase() === 'en-us';
  type Out = Medication & { bare: boolean; sentence: number; id: string; restart: boolean };
  const meds: Out[] = [];
  const stopped: { id: string; brand?: string }[] = [];
  let previousText = '';
  for (const s of doc.sentences) {
    if (s.speaker === 'patient') continue;
    const previous = previousText;
    previousText = s.text;
    // Corrected numbers are blanked, not removed, so offsets stay the sentence's.
    const corrected = s.text.replace(NUMBER_CORRECTION, (x) => ' '.repeat(x.length));
    const { text, mentions } = mergeMentions(corrected, mentionsIn(s, blocked(s), s.index >= doc.planStart));
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
      // "… twice a week if he gets fever paracetamol drops …": a condition running into the next, unprefixed drug
      // is that drug's.
      const next = mentions[k + 1];
      const tail = TRAILING_CONDITION.exec(text.slice(m.end, lines[k]!.end));
      if (next && !next.prefixForm && tail && lines[k]!.end === nextStart && lines[k + 1]!.start === next.formStart) {
        lines[k]!.end = m.end + tail.index;
        lines[k + 1]!.condition = { from: m.end + tail.index, to: nextStart };
      }
    });
    let inherited: Intent | undefined;
    mentions.forEach((m, k) => {
      const floor = k > 0 ? mentions[k - 1]!.end : 0;
      const line = lines[k]!;
      const after = text.slice(m.end, line.end);
      const before = text.slice(floor, m.formStart);
      const window = (k === 0 && DANGLING.test(previous) ? `${previous} ` : '') + cueWindow(text, m, floor);
      const own = intentOf(window);
      // A list ("stop A and B", "continue A 10 mg daily, B 20 mg …") shares its verb; a new line does not.
      const listed = LIST_LINK.test(before);
      let intent: Intent = own ?? (k > 0 && listed && inherited !== 'allergy' ? (inherited ?? 'prescribe') : 'prescribe');
      if (SOMEONE_ELSE.test(text.slice(0, m.formStart))) return;
      if (AFTER_ALLERGY.test(text.slice(m.end, m.end + 30))) intent = 'allergy';
      else if (AFTER_STOPPED.test(after) || /^\s*[,;]?\s*(?:stop|discontinue|withdraw)\s+(?:it|this|that|them)\b/.test(after)) intent = 'stop';
      if (intent === 'past' && CONTINUE.test(text.slice(line.start, line.end))) intent = 'prescribe';
      inherited = intent;
      const variant = m.ref?.brand ? BRAND_VARIANT.exec(after)?.[1] : undefined;
      if (variant) {
        m.ref = { ...m.ref!, brand: `${m.ref!.brand} ${variant}` };
        m.end += after.indexOf(variant) + variant.length;
      }
      const id = m.ref ? m.ref.drug.name : m.key;
      if (intent === 'stop') stopped.push({ id, brand: m.ref?.brand });
      if (intent !== 'prescribe') return;
      const condition =
        line.condition ?? (!m.prefixForm ? LEADING_CONDITION.exec(before) : null) ? (line.condition ?? { from: floor + LEADING_CONDITION.exec(before)!.index, to: m.formStart }) : undefined;
      for (const med of prescription(s, text, m, line, condition, us)) {
        meds.push({ ...med, sentence: s.index, id, restart: own === 'prescribe' && RESTART.test(window) });
        if (!med.bare && !firstMed.has(s.index)) firstMed.set(s.index, line.start);
      }
    });
  }
  // A drug named without any instruction is only mentioned ("before starting methotrexate"). One the history names
  // and the plan prescribes again ("on amlodipine 5 … increase amlodipine to 10 mg") is the plan's. A drug the note
  // stops is not also prescribed, unless it is explicitly restarted.
  // A drug prescribed in two places ("continue glycomet gp 1 twice daily" after the history's list) is listed once, as
  // it was said last.
  const planned = new Set(meds.filter((m) => !m.bare && m.sentence >= doc.planStart).map((m) => m.name));
  const kept = meds.filter(
    (m) =>
      !m.bare &&
      !(m.sentence < doc.planStart && planned.has(m.name)) &&
      (m.restart || !stopped.some((x) => x.id === m.id && (!x.brand || x.brand === m.brand))),
  );
  return kept
    .filter((m, k) => {
      const later = kept.slice(k + 1).find((x) => x.name === m.name && x.sentence !== m.sentence);
      if (!later) return true;
      // "on tab X 5 mg daily … continue X": the later mention keeps what it does not restate.
      for (const f of ['strength', 'dose', 'form', 'route', 'frequency', 'timing'] as const) {
        if (later[f] === undefined && m[f] !== undefined) Object.assign(later, { [f]: m[f] });
      }
      return false;
    })
    .map(({ bare: _bare, sentence: _sentence, id: _id, restart: _restart, ...m }) => m);
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

/** Where the words that say what the doctor means by a drug can be: the clause before it, or right before its form word. */
function cueWindow(text: string, m: Mention, floor: number): string {
  const from = Math.max(floor, m.formStart - (m.prefixForm ? 40 : 90));
  const before = text.slice(from, m.formStart);
  const cut = Math.max(before.lastIndexOf('.'), before.lastIndexOf(';'), before.lastIndexOf('?'));
  return before.slice(cut + 1);
}

/** One entry per step of the prescription line (a taper has several), with the evidence of each attribute. */
function prescription(s: Sentence, text: string, m: Mention, line: { start: number; end: number }, condition: Hit | undefined, us: boolean): (Medication & { bare: boolean })[] {
  const { ref } = m;
  const name = ref ? (us && ref.drug.us) || ref.drug.name : m.key;
  // Taper steps: each "then" with a number or a frequency of its own starts a new entry.
  const pieces: Hit[] = [];
  let pieceStart = m.formStart;
  const rel = text.slice(m.end, line.end);
  for (const x of rel.matchAll(STEP)) {
    const at = m.end + x.index!;
    const rest = rel.slice(x.index! + x[0].length);
    const piece = rest.slice(0, rest.search(STEP_AHEAD) >= 0 ? rest.search(STEP_AHEAD) : rest.length);
    if (/\d|\b(?:once|twice|thrice|daily|night|bedtime|sos)\b/.test(piece) && !/^\s*(?:stop|review)\b/.test(piece)) {
      pieces.push({ from: pieceStart, to: at });
      pieceStart = at + x[0].length;
    }
  }
  pieces.push({ from: pieceStart, to: line.end });
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
    const route = parsed.route ?? carried?.route ?? (form && ORAL_FORMS.test(form) ? 'oral' : undefined);
    const brand = ref?.brand ? [ref.brand, parsed.brandSuffix].filter(Boolean).join(' ') : undefined;
    const strength = parsed.strength ?? carried?.strength;
    const dose = parsed.dose ?? carried?.dose;
    // An injection or vaccine given today is a single dose.
    const once = !parsed.frequency && !carried && form === 'injection' && /\b(?:today|now)\b/.test(text.slice(m.end, line.end));
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
    };
    previous = med;
    // A condition alone ("if the sertraline isn't enough") does not make a drug prescribed.
    const stated = parsed.strength || parsed.dose || parsed.duration || m.prefixForm || (parsed.frequency && parsed.frequency.text !== 'as needed');
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
