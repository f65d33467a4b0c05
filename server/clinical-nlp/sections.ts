/**
 * The transcript as the extractors see it: normalised sentences, who said each (in a consultation), and where the
 * note moves from history to findings to plan. Dictations rarely say "history" or "plan" aloud, so the parts are
 * found from cue phrases and from what a sentence holds (a vital sign, a diagnosis cue).
 */
import { Type } from 'typebox';
import HEADINGS_FILE from './vocab/section-headings.json' with { type: 'json' };
import { checkedData, Provenance } from './vocab/data-file.js';
import { FORMULARY } from './vocab/formulary.js';
import type { Span } from './facts.js';
import { escapeRegExp, normalizeMapped, tokenize, type Token } from './lexicon.js';
import { Mapped } from './mapped.js';
import { isVitalLabel } from './vitals.js';

export type Speaker = 'doctor' | 'patient' | null;

const SECTION_KINDS = [
  'complaint', 'history', 'past_history', 'medications', 'allergies', 'family', 'social', 'review', 'vitals', 'exam',
  'results', 'assessment', 'plan',
] as const;
/** The part of a note a heading names: what the sentences under it can hold (a drug under "medications" is history). */
export type SectionKind = (typeof SECTION_KINDS)[number];

const HeadingsSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  speakerRoles: Type.Array(Type.String({ minLength: 2 })),
  findingsEnd: Type.Array(Type.String({ minLength: 3 })),
  visitOpeners: Type.Array(Type.String({ minLength: 3 })),
  clinicianOnly: Type.Array(Type.String({ minLength: 3 })),
  kinds: Type.Array(Type.String()),
  headings: Type.Array(
    Type.Object({
      kind: Type.Union(SECTION_KINDS.map((k) => Type.Literal(k))),
      subheading: Type.Optional(Type.Boolean()),
      inPlan: Type.Optional(Type.Boolean()),
      names: Type.Optional(Type.Array(Type.String({ minLength: 2 }))),
      pattern: Type.Optional(Type.String({ minLength: 1 })),
    }),
  ),
});
const HEADINGS_DATA = checkedData('section-headings.json', HeadingsSchema, HEADINGS_FILE);
const HEADINGS = HEADINGS_DATA.headings;
const SPEAKER_ROLE = new RegExp(String.raw`^(?:${HEADINGS_DATA.speakerRoles.map(escapeRegExp).join('|')})\b`, 'i');
const FINDINGS_END = new RegExp(String.raw`\b(?:${HEADINGS_DATA.findingsEnd.map((p) => escapeRegExp(p).replace(/\s+/g, String.raw`\s+`)).join('|')})\b`, 'i');
const VISIT_OPENER = new RegExp(String.raw`\b(?:${HEADINGS_DATA.visitOpeners.map((p) => escapeRegExp(p).replace(/\s+/g, String.raw`\s+`)).join('|')})\b`, 'i');
const CLINICIAN_ONLY = new RegExp(String.raw`\b(?:${HEADINGS_DATA.clinicianOnly.map((p) => escapeRegExp(p).replace(/\s+/g, String.raw`\s+`)).join('|')})\b`, 'i');

interface Heading {
  kind: SectionKind;
  subheading: boolean;
  inPlan: boolean;
}
const HEADING_BY_NAME = new Map<string, Heading>();
for (const h of HEADINGS) for (const n of h.names ?? []) HEADING_BY_NAME.set(headingKey(n), { kind: h.kind, subheading: !!h.subheading, inPlan: !!h.inPlan });
const HEADING_PATTERNS = HEADINGS.flatMap((h) => (h.pattern ? [{ re: new RegExp(`^(?:${h.pattern})$`), heading: { kind: h.kind, subheading: !!h.subheading, inPlan: !!h.inPlan } }] : []));

/** A heading's words as compared: lower case, report exports' stray commas and spacing around "/" gone. */
function headingKey(name: string): string {
  return name.toLowerCase().replace(/\s*\/\s*/g, '/').replace(/[\s,]+/g, ' ').trim();
}

const nameSource = (n: string): string => escapeRegExp(n).replace(/\s*\/\s*/g, String.raw`\s*/\s*`).replace(/\s+/g, String.raw`[\s,]+`);
const HEADING_NAMES = [...new Set(HEADINGS.flatMap((h) => h.names ?? []))].sort((a, b) => b.length - a.length).map(nameSource);
const HEADING_NAME = [...HEADING_NAMES, ...HEADINGS.flatMap((h) => (h.pattern ? [h.pattern] : []))].join('|');
/** A heading said or written: its name then a colon, at the start of a line, a sentence or a list part. */
const HEADING = new RegExp(String.raw`(?:^|(?<=[.,;:!?]\s*)|(?<=\s\s))(${HEADING_NAME})\s*:\s*,?`, 'g');
const HEADING_AT_START = new RegExp(String.raw`^(${HEADING_NAME})\s*:`);
/** A heading dictated after a paragraph command, without a colon ("paragraph, plan."). */
const HEADING_SENTENCE = new RegExp(String.raw`^(?:(?:new |next )?paragraph\s*,?\s*)?(${HEADING_NAMES.join('|')})$`);
const PARAGRAPH = /^(?:new |next )?paragraph\b/;
// A numbered list's item marker ("1.  Duricef …", "2) cold packs"): each item is a sentence of its own.
const LIST_ITEM = /(^\s*|(?<!\d)[.;]\s*|,\s*)\d{1,2}[.)]\s+(?=[a-z])/g;
// The marker as LIST_ITEM reads it, seen in the transcript just before a sentence ("Pulse: 72.  Temperature" is none).
const ITEM_MARK_BEFORE = /(?:(?<!\d)[.;]\s*|[,\n]\s*)\d{1,2}[.)]\s+$/;
const opensItem = (raw: string, at: number): boolean => ITEM_MARK_BEFORE.test(`\n${raw.slice(Math.max(0, at - 12), at)}`);

export function headingOf(words: string): Heading | undefined {
  const key = headingKey(words);
  return HEADING_BY_NAME.get(key) ?? HEADING_PATTERNS.find((p) => p.re.test(key))?.heading;
}

/** The section a heading opens, given the one it appears in: a body system stays inside a review of systems. */
function sectionAfter(h: Heading, current: SectionKind | null): SectionKind {
  if (h.inPlan && current === 'plan') return current;
  return h.subheading && (current === 'review' || current === 'exam') ? current : h.kind;
}

/**
 * The text cut before its headings: each piece with the section it falls under (`current` before the first
 * heading). A heading stays at its piece's start, where it is also a cue ("assessment: influenza a").
 */
function sectioned(text: Mapped, current: SectionKind | null): { piece: Mapped; section: SectionKind | null }[] {
  const out: { piece: Mapped; section: SectionKind | null }[] = [];
  let section = current;
  let pos = 0;
  HEADING.lastIndex = 0;
  for (let m = HEADING.exec(text.text); m; m = HEADING.exec(text.text)) {
    const h = headingOf(m[1]!);
    if (!h) continue;
    out.push({ piece: text.slice(pos, m.index), section });
    section = sectionAfter(h, section);
    pos = m.index;
  }
  out.push({ piece: text.slice(pos), section });
  return out.filter((p) => p.piece.text.trim());
}

export interface Sentence {
  index: number;
  text: string;
  tokens: Token[];
  speaker: Speaker;
  turn: number;
  /** The heading (written or dictated) the sentence falls under, or null where none was given. */
  section: SectionKind | null;
  /** Cut at a semicolon ("continue niacin …; aspirin 81 mg daily; …"): the next sentence may be a list's next item. */
  semicolon?: boolean;
  /** Opens a numbered list's item ("2.  Hypercholesterolemia."): the sentences up to the next item are about it. */
  item?: boolean;
  /** The transcript span of text[from, to): evidence for a fact found there. */
  span(from: number, to: number): Span;
}

export interface Doc {
  sentences: Sentence[];
  consultation: boolean;
  female: boolean;
  /** First sentence of examination or vitals: complaints are told before it. */
  findingsStart: number;
  /** First sentence that states a diagnosis: the plan follows it. */
  planStart: number;
}

const SPEAKER = /^\s*([a-z][a-z .'-]{0,20}?)\s*:\s*/i;
const DOCTOR = /^(?:doctor|dr|physician|consultant|nurse|clinician|provider)\b/i;

// "sorry, make that acute nasopharyngitis", "no, make it five days", "I mean": the words after replace the item before.
// "make it" alone is ordinary speech ("light makes it worse"): a correction only after sorry/no/…, or before a number.
// "let's change it to candesartan", "we'll make it 40" is the doctor switching a drug or a dose, not correcting a word.
const CORRECTION =
  /,?\s*\b(?:(?:(?:sorry|no|oh no|correction|oops)\s*,?\s*)(?:make (?:that|it)|i mean|i meant|change (?:that|it) to|scratch that,?)|make(?<!\b(?:let's|let us|we'll|we will|i'll|i will|to|gonna|can|could|should|would|might|may|and)\s+make) (?:that|it)(?=\s+\d)|change(?<!\b(?:let's|let us|we'll|we will|i'll|i will|to|gonna|can|could|should|would|might|may|and)\s+change) (?:that|it) to|i mean|i meant|scratch that,?)\s+([^,.;]+)/;
const AMOUNT = /(\d+(?:\.\d+)?)\s*([a-z]+)/;
const FREQUENCY_SAID = /^\s*((?:once|twice|thrice|\d+ times) (?:a|per|in a) (?:day|week)|every \d+(?: to \d+)? hours|daily|nightly|at night|at bedtime|bid|tid|qid|qds|tds|bd|od)\b/;

function applyCorrections(sentence: Mapped): Mapped {
  let s = sentence;
  for (let guard = 0; guard < 3; guard++) {
    const m = CORRECTION.exec(s.text);
    if (!m) break;
    const before = s.slice(0, m.index);
    const b = before.text;
    const end = m.index + m[0].length;
    const replacement = s.slice(end - m[1]!.length, end).trim();
    const after = s.slice(end);
    const space = Mapped.literal(' ', s, m.index, end);
    const amount = AMOUNT.exec(replacement.text);
    let fixed: Mapped;
    if (amount && /^\d/.test(replacement.text)) {
      // The new amount replaces the number said just before the correction ("atorvastatin 20 sorry make that 40
      // milligrams"), else the last amount with the same unit ("7 days" → "5 days"), else the last number. Only the
      // amount is the correction: a run-on recogniser sentence goes on after it.
      const said = replacement.slice(0, amount.index! + amount[0].length);
      let rest = Mapped.concat([replacement.slice(said.length), after]);
      const unit = amount[2]!.replace(/s$/, '');
      const justBefore = /(\d+(?:\.\d+)?)(?:\s*[a-z]+)?\s*,?\s*$/.exec(b);
      const same = [...b.matchAll(new RegExp(`\\d+(?:\\.\\d+)?\\s*${unit}s?\\b`, 'g'))].pop();
      const anyNum = [...b.matchAll(/\d+(?:\.\d+)?/g)].pop();
      const target = justBefore ?? same ?? anyNum;
      // "500 mg three times a day, actually make that 875 mg twice a day": a frequency said with the new amount
      // replaces the one said with the old, or the old one would be printed with the new strength.
      let tail = target ? before.slice(target.index! + target[0].length) : before.slice(0, 0);
      const newFrequency = FREQUENCY_SAID.exec(rest.text);
      const oldFrequency = newFrequency && new RegExp(FREQUENCY_SAID.source.slice(1)).exec(tail.text);
      if (newFrequency && oldFrequency) {
        const from = oldFrequency.index + oldFrequency[0].length - oldFrequency[1]!.length;
        tail = Mapped.concat([tail.slice(0, from), rest.slice(newFrequency[0].length - newFrequency[1]!.length, newFrequency[0].length), tail.slice(from + oldFrequency[1]!.length)]);
        rest = rest.slice(newFrequency[0].length);
      }
      fixed = target ? Mapped.concat([before.slice(0, target.index), said, tail]) : Mapped.concat([before, space, said]);
      s = Mapped.concat([fixed.replace(/\s+$/, ''), rest.text.startsWith(' ') ? rest : Mapped.concat([space, rest])]);
      continue;
    } else {
      // A phrase replaces the last coordinated item: the words after the last "with", "and", comma or colon.
      const cut = Math.max(b.lastIndexOf(' with '), b.lastIndexOf(' and '), b.lastIndexOf(','), b.lastIndexOf(':'));
      const head = cut >= 0 ? before.slice(0, cut + (b[cut] === ',' || b[cut] === ':' ? 1 : 0)) : before.slice(0, 0);
      const link = cut >= 0 && b[cut] === ' ' ? before.slice(cut, cut + b.slice(cut + 1).indexOf(' ') + 2) : space;
      // No list before it: the correction replaces what follows the last cue word ("diagnosis", "tab").
      const cue = [...b.matchAll(/\b(?:diagnosis|impression|assessment|dx|is|tab|cap|syrup|syp|inj|injection|start|give|advised|continue)\b/g)].pop();
      const kept = cue ? before.slice(0, cue.index! + cue[0].length) : before.slice(0, 0);
      fixed = cut >= 0 ? Mapped.concat([head, link, replacement]) : Mapped.concat([kept, space, replacement]).trim();
    }
    s = Mapped.concat([fixed.replace(/\s+$/, ''), after]);
  }
  return s;
}

// "Lisinopril 20 mg. one p.o. twice a day": a unit's period before the dose said next ends no sentence.
const SENTENCE_END = /(?<=[.?!;])\s+(?!\s)(?!(?<=\b(?:mg|mcg|ml|gm|g|units?)\.\s+)(?:\d|po\b|p\.o\.|by mouth\b|tabs?\b|tablets?\b|caps?\b|capsules?\b))|(?<!\d)\.(?=[a-z])|\s*\n\s*/;
const VITALS_CUE = /\b(?:bp|blood pressure|pulse|heart rate|temperature|temp|spo2|oxygen saturation|saturation|respiratory rate|weight|height|glucometer)\b/;
const EXAM_CUE = /\b(?:on examination|examination|o\/e|exam|tenderness|tender|palpable|congested|looks|clear|auscultation|crepitations|crackles|vesicles|bulging|spasm|reflexes|normal|soft|non tender|pallor|icterus|oedema|edema|inflamed|erythematous|swollen|discharge seen|purulent)\b/;
// "diagnosed 9 years ago" is history and "this is his 4 year checkup" a visit, not a diagnosis.
// A reading, not a vital named in the history ("here for follow up of high blood pressure", "weight loss of 6 kg").
const VITAL_READING =
  /\b(?:bp|blood pressure|pulse|heart rate|temperature|temp|spo2|oxygen saturation|saturation|sats|respiratory rate|weight|height)\b(?!\s+(?:loss|gain|log|machine|readings?|diary|record|chart))[^.;]{0,30}?\d/;
const EXAM_START = /^(?:on examination|examination|o\/e|on exam|exam|general examination|local examination|systemic examination)\b/;

// Where a plan without a heading opens: a prescription, an order, an instruction ("I'd like you to cut out caffeine");
// in a letter "In the meantime I have advised her to …", "I have given her a prescription for …".
const PLAN_START =
  /^(?:(?:so|okay|now|and|first|then|next|in the meantime|meanwhile)[\s,]+){0,2}(?:tab|tabs|cap|caps|syrup|syp|inj|injection|start|continue|stop|prescribe|plan|advice|advised|rx|i(?: have|'ve)? (?:advised|given|prescribed|started|arranged|recommended|suggested|referred)|let's (?:start|try|check|do|get|cut|give|stop|add|keep|switch|change|increase|reduce|use|put)|(?:i am|i'm|we are|we're|i will|i'll|we will|we'll) (?:giving|prescribing|starting|start|give|prescribe|sending|send|check|do|order|ordering|refer|referring)|(?:i'd|i would|i)(?: also| really)? (?:like|want) you to (?:cut|stop|avoid|drink|keep|try|reduce|limit))\b/;

// "you have (got) a …": what the patient has, whether the doctor diagnoses it or tells back the history.
const HAS = String.raw`you have (?:got )?(?:a |an )?(?=[a-z]{4,})`;
// "if you have …", "or you have trouble breathing": what to watch for, no condition told.
const CONDITION_OPENS = 'if|or|when|whenever|unless|until';
/** What the patient has, said by the doctor: diagnosed, or told back ("i see you have a history of …"). No instruction. */
export const TELLS_CONDITION = new RegExp(String.raw`\b${HAS}(?<!\b(?:do|did|${CONDITION_OPENS})\s${HAS})`);
// A diagnosis said, not the history told back ("i know you have a history of …", "you mentioned that you have …", "her
// history includes a presumed diagnosis of …"), nor
// "this is" introducing the speaker or a remark ("this is Doctor …", "this is not a place of judgement").
export const DIAGNOSIS_CUE = new RegExp(
  String.raw`\b(?:diagnosis(?<!\b(?:history|previous|prior|presumed|past|earlier|original|initial|known)\s+(?:[a-z]+\s+){0,3}diagnosis)|diagnosed(?!\s+(?:\d+|a few|many|several)\s+(?:years?|months?)|\s+in\s+\d|\s+at\s+(?:age|\d))|impression|assessment|this is(?<!\b(?:whether|if)\sthis is)(?!\s+(?:his|her|my|your|for|\d+|doctor|dr|nurse|not|becoming|getting|going|gonna|just|all|really|different|great|good|fine|okay|ok|important|what|why|how|where|when|because|something|(?:a|an|the)\s+(?:no|\d+|routine|follow|review|check|visit|new|first|second|third|last|next|same|place|question|time|day|reason|way|thing|dictation|letter|recording|telephone|phone|video))\b|\s*$|\s+\w+\s+(?:from|speaking|calling)\b)|this looks like|(?:(?:this|it) sounds|(?:these|they) sound) like(?!\s*$|\s+(?:you (?:were|did|do|don't|had|already|know|need|want|went)|you're (?:not|doing|able)|we|i|a (?:weird|strange|silly|good|great) question)\b)|these are(?!\s+(?:your|his|her|their|the|my|just|all|not)\b)|${HAS}(?<!\b(?:do|did|${CONDITION_OPENS}|(?:(?:see|know|say|said|says|mentioned|think|noticed)(?: here)?(?: that)?))\s${HAS})(?!(?:history|past|quite|them|these|those|tried|loved|injured|suggested|birthday|appointment|questions?|choices?|options?|chance|plenty|lots|insurance|family|kids|children)\b)|i think (?:(?:it's|it is)(?!\s+(?:a (?:good|great|bad)|good|great|important|like|fine|okay|ok|best|better|worth|time|reasonable|sensible|safe)\b)|this is|you have|she has|he has)|suggestive of|consistent with|rule out|r\/o|provisional)\b`,
);

/*
 * Where a recogniser's unpunctuated words start a new sentence: at a section word ("impression", "plan", "on
 * examination") and at a prescription line ("tab", "cap", "syrup", "inj", with the verb before it: "continue tab
 * …", "stop tab …"). Not where the word before makes it part of the phrase ("no past history", "one tablet",
 * "treatment plan", "was advised").
 */
const SECTION =
  String.raw`(?:on examination|o\/e|examination|impression|diagnosis|diagnoses|provisional diagnosis|differential diagnosis|final diagnosis|assessment|plan|advice|advised|investigations|rx|prescription|medications|chief complaints?|presenting complaints?|complaints|(?:past|medical|surgical|drug) history(?!\s+of)|family history|history(?!\s+of)|allergies|follow up|review)`;
const STAYS_BEFORE_SECTION =
  'no|all|current|home|usual|regular|outpatient|tested|discharge|admission|admitting|preoperative|postoperative|secondary|principal|seasonal|environmental|food|not|any|the|a|an|of|for|with|on|in|and|or|her|his|my|your|their|our|this|that|to|further|detailed|clinical|local|general|systemic|physical|working|provisional|final|differential|presumed|presumptive|possible|probable|likely|suspected|tentative|definitive|confirmed|known|past|medical|surgical|drug|under|without|regular|will|we|i|please|after|before|next|at|repeat|same|was|were|is|are|been|has|have|had|be|being|neurological|cardiovascular|respiratory|abdominal|per|from|by|as|also|initial|last|previous|urgent|routine|treatment|management|diet|dietary|ent|eye|cardiology|specialist|orthopaedic|surgical|careful|close|sos|early|immediate|regular|periodic|annual|thorough|complete|full|menstrual|obstetric|birth|personal|social|family|travel|vaccination|immunisation|immunization|contact|sexual|occupational|this|stool|urine|blood|sputum|pelvic|rectal|breast|fundus|microscopic|lamp|ray|eye|dental|skin|foot|ultrasound|its|their|delayed|backup|case|paper|written|electronic|separate|another';
// Full words (tablet, capsule, ointment) also follow a drug's name ("1 albendazole tablet"): only the prefixes start a line.
const FORM_START = String.raw`(?:tab|tabs|cap|caps|syp|syrup|inj|injection|oint)`;
const PRESCRIBE_VERB =
  String.raw`(?:(?:and|also|plus|then|next)\s+)?(?:(?:start(?:ed)?(?: on| with)?|continue(?: on| with| the)?|add|give|stop|discontinue|increase|reduce|decrease|restart|resume|prescribe|prescribed|(?:change|switch|shift) to|(?:i am|we are|i'm|we're) (?:starting|giving|adding)|(?:i|we) will (?:start|give|add)|(?:i'll|we'll) (?:start|give|add))\s+)?`;
const STAYS_BEFORE_FORM =
  String.raw`\d+(?:\.\d+)?|one|two|three|four|half|a|an|the|this|that|these|those|per|each|of|same|other|his|her|my|your|their|in|dispersible|chewable|sublingual|vaginal|oral|film|coated|sr|er|xr|cr|mr|od|plain|cough|effervescent|free|mouth|dissolving|enteric|release|which|start|started|starting|continue|add|give|stop|discontinue|increase|reduce|decrease|restart|resume|prescribe|prescribed|take|to|on|with|and|also|then|plus|next|please|giving|adding|will|i|we|or|any|no|as|by|insulin|iron|vitamin|calcium|antacid|pain|sleeping|blood|thyroid|sugar|bp`;
// Advice after a prescription: "… for 14 days continue normal diet avoid packaged juices watch for danger signs".
const ADVICE_START =
  String.raw`(?:avoid|drink|eat|keep|wear|watch for|sleep with|raise|finish|cut down|cut back|come back|come and see|come immediately|come earlier|come straight|go to the|stop smoking|clean the|wash (?:your|the|his|her|all)|stay (?:home|away|off)|do not (?:share|rub|scratch|pick|squeeze|burst|put|stop|take|drive|lift|apply)|don't (?:share|rub|scratch|pick|squeeze|burst|put|stop|take|drive|lift|apply)|limit|sip|elevate|gargle|return if|call (?:us|me)? ?if|no (?:driving|alcohol|smoking|tea|coffee|spicy|oily|fried)|continue (?:normal|the same|feeds|breastfeeding|diet)|plenty of|small (?:frequent )?meals)`;
const FAILED = String.raw`\bif (?:it|this|that|they|these|those) (?:doesn't|does not|don't|do not) (?:help|work|improve|settle)`;
// An adjective makes the cue a noun: "have a sugary drink", "a brisk walk".
const STAYS_BEFORE_ADVICE = String.raw`drink|take|have|eat|with|of|lots|some|more|sugary|fizzy|sweetened|energy|sports|isotonic|brisk|to|not|and|or|please|i|you|we|will|should|must|can|can't|cannot|couldn't|won't|don't|wouldn't|shouldn't|didn't|doesn't|do|does|did|also|then|if|the|a|do|never|always|only|just|he'll|she'll|i'll|you'll|would|could`;
// Each boundary is whitespace before a cue: the cue is checked first (the lookbehind over the word before, tried at
// every position, cost more than the rest of the sentence splitting); what matches is unchanged.
// "… in their forties discharge medications one aspirin …": a section word with its qualifier starts there, not after it.
// "continue present medications", "continue all other medications": the section word is the object of "continue".
const CONTINUE_THE = String.raw`\b(?:continue|keep|resume|restart)\s+(?:(?:on|with)\s+)?(?:(?:all|her|his|your|their|the)\s+)?(?:present|other)`;
// "Sanctura prescription is provided": a section word that a passive verb follows is the sentence's noun; so are the
// complaints a list of findings follows ("no constitutional complaints such as fevers or chills").
const NOUN_NOT_HEADING = String.raw`(?:(?:prescriptions?|medications|rx)\s+(?:(?:is|was|were|are|has been|have been)\s+)?(?:provided|given|written|sent|called in|renewed|refilled|printed|faxed)|complaints,?\s+(?:such as|of|like|including))\b`;
// "here for a 3 month follow up of diabetes", "for a scheduled follow up": how often or that it was planned makes the
// follow-up the sentence's noun ("… up to 9 per week | allergies …" still starts a heading).
const QUALIFIED_FOLLOW_UP = String.raw`(?:\b(?:a|an)\s+\d+\s+(?:day|week|month|year)|\bscheduled)(?=\s+follow up\b)`;
const SECTION_QUALIFIER = String.raw`(?:discharge|admission|admitting|preoperative|postoperative|secondary|principal)`;
const BOUNDARY = new RegExp(
  String.raw`(?=\s+${SECTION}\b)(?:(?<=\b(?!(?:${STAYS_BEFORE_SECTION})\b)[a-z0-9]+)(?<!${CONTINUE_THE})(?<!${QUALIFIED_FOLLOW_UP})|(?<=[,:]))\s+(?=${SECTION}\b)(?!${NOUN_NOT_HEADING})` +
    String.raw`|(?=\s+${SECTION_QUALIFIER}\s+(?:${SECTION}|condition|instructions|summary)\b)(?<=\b(?!(?:${STAYS_BEFORE_SECTION}|pre|post|all|resume|restart|continue)\b)[a-z0-9]+)\s+(?=${SECTION_QUALIFIER}\s)` +
    String.raw`|(?=\s+${PRESCRIBE_VERB}${FORM_START}\s)(?:(?<=\b(?!(?:${STAYS_BEFORE_FORM})\b)[a-z0-9]+)|(?<=[,:]))\s+(?=${PRESCRIBE_VERB}${FORM_START}\s+(?!\d|(?:last|and|or|for|with|twice|once|at|in|the|is|was|daily|every|before|after|since|that|which|if)\b)[a-z])` +
    // The word before is read whole, apostrophe and all: "don't | keep taking it" would make "keep taking it" advice.
    // "… once a day if that doesn't help | come back and we can try …": a failed treatment's condition is the next step's.
    String.raw`|(?=\s+${ADVICE_START}\b)(?<=(?<![a-z0-9'])(?!(?:${STAYS_BEFORE_ADVICE})(?![a-z0-9']))[a-z0-9']+)(?<!${FAILED})\s+(?=${ADVICE_START}\b)`,
  'g',
);

/*
 * A consultation transcribed without speaker labels: the doctor's questions start a turn ("any fever", "how long",
 * "do you smoke") and a short yes/no after a question starts the answer. Who says a turn is read from it.
 */
const QUESTION_START =
  String.raw`(?:any|(?:anyone|anybody)(?=\s+(?:in|at|else|who|with|close|around))|do you|does (?:he|she|it)|did (?:you|he|she)|are you|is (?:he|she|it|there)|have you|has (?:he|she|it)|how (?:long|many|much|often|old)|how is|what|when (?:did|do|does|is|was|were|are|will|would|has|have|had)|where (?:is|are|was|were|do|does|did|exactly)|since when|which(?!\s+(?:has|have|had|means|meant|makes|made|will|would|can|could|should|helps|contains|includes|gives|works|is why|is a|is an|is the|was a|was the|is (?:a bit |slightly |quite |very )?(?:high|low|raised|normal|fine|good|okay|ok|great|reassuring))\b)|tell me|can you|could you|was there|were there)`;
// "how old | is she", "how often | do you", "now how | are you doing": a how-question's own verb does not start another,
// nor "any" after a verb it is the object of ("not skiing or doing | any gymnastics");
// nor does a causative "have you" after its modal ("I'm going to | have you check your weights", "we'll have you …":
// "'ll" and "ll" too, as word boundaries fall inside "we'll").
const STAYS_BEFORE_QUESTION = 'how|why|old|long|often|many|much|far|bad|no|not|without|have|has|had|take|taking|took|for|of|in|with|don\'t|didn\'t|doesn\'t|never|hardly|than|and|or|at|is|was|the|by|if|but|know|matter|from|get|gets|getting|got|develop|develops|notice|notices|experience|need|want|find|having|lost|gained|there|doing|do|does|did|done|use|using|try|trying|avoid|avoiding|play|playing|to|na|gonna|wanna|will|would|i\'ll|we\'ll|you\'ll|\'ll|ll|can|could|should|might|may|must';
const QUESTION_BOUNDARY = new RegExp(
  String.raw`(?=\s+${QUESTION_START}\b)(?<=\b(?!(?:${STAYS_BEFORE_QUESTION})\b)[a-z0-9']+)\s+(?=${QUESTION_START}\b)`,
  'g',
);
const QUESTION_AT_START = new RegExp(String.raw`^${QUESTION_START}\b`);
// "a little", but not "let's talk a little bit about …".
const ANSWER = /^((?:[a-z0-9']+\s+){2,}?)(?=(?:no|yes|yeah|yep|nope|not really|nothing|never|sometimes|a little(?!\s+(?:bit\s+)?(?:about|more|of|further|longer|while|later)\b)|only)\b)/;
// "what kind of pain meds did you | ibuprofen 800 milligrams a day": a question cut off at its end is answered next,
// unless what follows asks again ("do you | does it cause you heartburn").
const ASKED_AT_END = /\b(?:did|do|does|are|have|has|were|was|can|could|will|would) you$/;
// "i've got a temperature on and off": a vital's word said of the speaker's own symptoms is no reading taken.
const OWN_SYMPTOMS = /\b(?:my|i've (?:had|got|been))\b/;
const FIRST_PERSON = /\b(?:i|i'm|i've|my|me|mine|we|our)\b/;
// Told to the patient without a word of the speaker's own: "here you've a nonhealing foot ulcer", "your knee is swollen".
const SECOND_PERSON = /\b(?:you|your|you've|you're|yours|yourself)\b/;
// The doctor telling the patient what to do, what they will do or what helps: "i want you to take …", "i'm going to
// start you on …", "you can also try antihistamines", "something called emollients, which can help".
// "I'll take ibuprofen for that", "I'll use that": a patient's habit, not the doctor's plan ("I'll take a look" is).
// "lie down", "sit down" ask for an examination; "it's worse when i lie down" tells a symptom.
const DOCTOR_WORDS =
  /\b(?:i (?:do )?(?:want|would like|need) you to|i'd like you to|(?<!\bto )bring (?:her|him|them) (?:straight |back |right )?(?:to (?:a and e|a&e|the emergency|the er|(?:the )?hospital|casualty)|in (?:if|straight|right away))\b|you (?:can|may|could|might) (?:also )?(?:try|take|use|get|buy|continue)|we can (?:try|give|start|prescribe|offer)|i can (?:give|prescribe|offer) you|something called|(?:can|will) (?:also |sometimes )?help|(?:start|put|treat|prescribe|give|refer|send|switch|keep|have) you (?:on|with|to|off)\b|(?:start|treat|prescribe|give|refer|send|switch) you\b|i(?: want to| wanna| wan na|'d like to| would like to) (?:just )?(?:go ahead and )?(?:increase|decrease|continue|start|prescribe|order|refer|refill|put you|give you|switch you|try you|double|halve|raise|lower|bump|adjust|change|stop|add)|you(?:'re| are) (?:currently |still |already )?on (?:the |your )?[a-z]+ \d|i(?:'d| would) (?:stop|hold|avoid)|have you (?:continue|start|stop|take|use|try)\b|if you(?:'re| are)? (?:having|get|getting|have|feel|feeling|start|notice|develop)\b|(?:i'm|we're|i am|we are) (?:going to|gonna) go ahead|what (?:i|we)(?:'d| would)? (?:like|want|need) (?:you )?to do is|what (?:i|we)(?:'d| would)? (?:recommend|suggest|advise)|(?:good|nice|great|lovely) to (?:see|meet) you(?! too)|(?:in|at) (?:my|your) (?:notes|chart|records?)|(?:so|now|okay|and) for your|on (?:physical )?exam(?:ination)?|i (?:hear|appreciate|palpate)|(?:your|the) (?:lungs|heart) sounds?|(?:lower|upper) extremit(?:y|ies)|hey,? dragon|my (?:impression|assessment|plan)|(?:first|second|third|next|last) problem|i (?:do )?think (?:you|you're|this is|it's(?! been)|that's)\b|i(?:'m| am) (?:also )?(?:going to|gonna) (?:start|put|prescribe|give|refer|send|order|increase|reduce|change|switch|stop|recommend|suggest|advise|refill|renew|continue|add|adjust|bump|lower|double|halve|go up|go down|step (?:up|down))|i(?: would|'d)? (?:recommend|suggest|advise)|let me|let's|(?<!\b(?:i|we|can't|cannot|couldn't|unable to)\s)(?:lie|sit) down|examine|examination|tab|tablet|cap|capsule|syrup|prescribe|diagnosis|this is|this looks|looks like|sounds like|i think(?!\s*$(?<=^(?:\S+\s+){0,5}i think\s*)| (?:i|i'm|i've|i'd|my|me|mine|so|it was|it's been|it has been|that was|he|she|they|we were)\b)|i will|i'll(?! (?:just |also |then |sometimes )?(?:take|use)\b(?! a (?:look|listen)))|we will|we'll|take this|you should|you need|come back|review|bp is|blood pressure is|pulse is|temperature is|your (?:sugar|bp|pressure|weight|temperature))\b/;

/**
 * Words only the prescriber says of a drug ("you can continue to use the albuterol inhaler", "we'll get you started
 * on …", "I'd also like to start propranolol"): in a line labelled the patient's they say the recogniser gave the
 * doctor's words to the wrong speaker.
 */
export const PRESCRIBER_VOICE =
  /\b(?:you (?:can|may) (?:also |still )?(?:continue|keep|take|use)|i(?:'ll| will| can|'m going to|'m gonna| am going to| am gonna) (?:prescribe|send in|give you|start you|put you)|we(?:'ll| will| can|'re going to|'re gonna| are going to| are gonna) (?:get you (?:started )?on|start you|put you on|prescribe|send in|give you|have you (?:start|take|use|continue))|i(?:'d| would)? (?:like|want) you to (?:take|use|start|continue|keep)|i(?:'d| would)(?: also)? like to (?:start|prescribe|add|put you on|try you on|give you))\b/;

// Instructions are the doctor's: "check your sugar every morning", "come after fifteen days", "call me back if …".
const IMPERATIVE = /^(?:okay\s+|so\s+)?(?:check|take|come|avoid|apply|continue|stop|start|drink|eat|walk|use|keep|don't|do not|get|wear|wash|bring|give|put|reduce|increase|order|call|ring|phone|let (?:me|us) know|seek)\b/;

// Hesitations and the commas around them stand between the words that tell who speaks: "i would, uh, suggest".
const HESITATION = /,|\b(?:uh|um|er|erm|ah)\b/g;

/** Whether a line says what a doctor says: a question, a history question, the plan or an instruction. */
function soundsLikeDoctor(line: string): boolean {
  const text = line.toLowerCase().replace(HESITATION, ' ').replace(/\s+/g, ' ').trim();
  return text.endsWith('?') || DOCTOR_WORDS.test(text) || HISTORY_QUESTION.test(text) || STARTS_QUESTION.test(text) || IMPERATIVE.test(text);
}

function whoSays(said: string, previous: Sentence | undefined): Speaker {
  if (said.endsWith('?')) return 'doctor';
  const text = said.replace(HESITATION, ' ').replace(/\s+/g, ' ');
  if (DOCTOR_WORDS.test(text) || HISTORY_QUESTION.test(text) || IMPERATIVE.test(text) || (VITALS_CUE.test(text) && /\d/.test(text) && !/\b(?:home|last|yesterday|ago)\b/.test(text) && !OWN_SYMPTOMS.test(text))) return 'doctor';
  if (previous?.speaker === 'doctor' && (previous.text.endsWith('?') || HISTORY_QUESTION.test(previous.text) || (ASKED_AT_END.test(previous.text) && !QUESTION_AT_START.test(text)))) return 'patient';
  // "did you ever start that" – "no the insurance wouldn't cover it": a yes or a no after a question is its answer.
  if (previous?.speaker === 'doctor' && YES_NO_ASKED.test(previous.text) && YES_OR_NO.test(text)) return 'patient';
  if (FIRST_PERSON.test(text) || /\b(?:doctor|sir|madam)$|\b(?:thank you|thanks)\b/.test(text)) return 'patient';
  if (SECOND_PERSON.test(text.replace(/\byou know\b/g, ''))) return 'doctor';
  return previous?.speaker === 'patient' ? 'patient' : 'doctor';
}

// "hello how can i help today hi doctor i've had …": the opening question, then the patient's first words.
const OPENING_QUESTION =
  /^((?:(?:hello|hi|good morning|good afternoon|okay|ok|so|right)\s+)*(?:how can i help(?: you)?|what can i do for you|what brings you(?: in| here)*|how are you(?: doing)?)(?: today)?\s+)(?=(?:hi|hello|yes|yeah|well|so|um|uh|i|i'm|i've|my|it's|doctor)\b)/;
/** Splits an unlabelled consultation sentence into question and answer turns; the questions end in "?". */
function turns(part: Mapped): Mapped[] {
  const out: Mapped[] = [];
  for (const piece of part.replace(QUESTION_BOUNDARY, '\n').split(/\n/)) {
    const q = QUESTION_AT_START.test(piece.text) && !piece.text.endsWith('?') && !STATES_PLAN.test(piece.text);
    const a = q ? ANSWER.exec(`${piece.text} `) : OPENING_QUESTION.exec(piece.text);
    if (a) {
      const cut = a[1]!.length;
      out.push(Mapped.concat([piece.slice(0, cut).trim(), Mapped.literal('?', piece, cut - 1, cut)]), piece.slice(cut));
    } else out.push(piece);
  }
  return out;
}

const QUESTION_OPENERS = String.raw`(?:(?:okay|ok|so|and|alright|now|um|uh|well|right|then)\s+)*`;
const STARTS_QUESTION = new RegExp(String.raw`^(?:okay\s+|so\s+|and\s+)?${QUESTION_START}\b`);
// A question a yes or a no answers ("did you ever start that"); "what's causing this …" is not one.
const YES_NO_ASKED = new RegExp(String.raw`^${QUESTION_OPENERS}(?:do|does|did|are|is|was|were|have|has|had|can|could|would|will|should)\s+(?:you|he|she|it|they|there|your|his|her|the)\b`);
// What a doctor asks in taking the history, which a patient does not ask back: the asker is the doctor, "?" or not.
const HISTORY_QUESTION = new RegExp(
  String.raw`^${QUESTION_OPENERS}(?:any|anyone|anybody|have you (?:had|been|noticed|got|gotten|tried|taken|ever|felt|lost)|do you (?:ever|have|smoke|drink|take|get|feel|notice|remember|use|live|work|drive)|does (?:it|that|this|the pain|anything) (?:hurt|get|feel|make|help|go|come|spread|radiate|move)|is there any|is it (?:on|in|at|worse|better|constant|sharp|dull|painful|tender)|has anything|where exactly|(?:when|if) i (?:press|push|touch|feel)|when you (?:flex|bend|move|touch|turn|lift|raise|push|straighten)|(?:are you|is (?:he|she)) (?:taking|on|having|allergic|feeling|still|able|pregnant|currently|eating|drinking|sleeping|up to date)|how long (?:have|has|did|does|ago)|how old (?:is|are|was|were)|how (?:are|is) (?:you|things|it|that|the [a-z]+|your [a-z]+) (?:doing|going|working|getting on)|how (?:often|many|much) (?:do|does|did|have|are)|when did (?:it|this|the|you)|did you (?:have|notice|try|take|get|feel|see)|what brings|tell me)\b`,
);
// "what I want you to do is …", "what we'll do is …": a wh-word that opens a statement of the plan.
// A statement the doctor checks with the patient: "i think you've got an allergy to penicillin is that correct".
const ASKS_AT_END = /\b(?:is that (?:right|correct|true|so)|is that what i'm hearing|am i right|isn't it|correct)$/;
const STATES_PLAN = /^(?:okay\s+|so\s+|and\s+)?what\s+(?:i|we)(?:'d| would|'ll| will|'m| am|'re| are)?\s+(?:want|like|going to|gonna|need|recommend|suggest|do|think)\b/;

// Words that open a topic asked about: "okay, coughing? headache?", "and shortness of breath?".
const TOPIC_OPENER = /^(?:(?:okay|ok|alright|and|so|also|how about|what about|any)\s+)*/;
const TOPIC_NOT = /^(?:in|on|at|for|since|about|around|from|to|with|just|only|like|it|it's|that|this|there|yes|yeah|no|not)\b/;
const YES_OR_NO = /^(?:no|nope|nah|yes|yeah|yep|not)\b/;
/** Words in a topic the answer says back: the answer is to that topic. */
const MAX_TOPIC_WORDS = 4;

/**
 * In an unlabelled consultation a bare topic the doctor asks after the patient's last answer ("no chest pain" /
 * "shortness of breath" / "no shortness of breath") was read as the patient's still, so its symptom was theirs.
 * A short topic with no word of the speaker's own, between the patient's sentences, answered by a no or yes that
 * is bare or says it back, is the doctor's question. Turns are then counted again.
 */
function askedTopics(sentences: Sentence[]): void {
  let changed = false;
  sentences.forEach((s, i) => {
    const prev = sentences[i - 1];
    const next = sentences[i + 1];
    if (s.speaker !== 'patient' || prev?.speaker !== 'patient' || next?.speaker !== 'patient' || s.text.endsWith('?')) return;
    const topic = s.text.replace(TOPIC_OPENER, '');
    const words = topic.split(/\s+/).filter(Boolean);
    if (!words.length || words.length > MAX_TOPIC_WORDS || TOPIC_NOT.test(topic) || FIRST_PERSON.test(topic) || SECOND_PERSON.test(topic)) return;
    // "no / okay, coughing? headache?": a topic opened after the patient's bare answer asks the next thing.
    const opened = topic.length < s.text.length && YES_OR_NO.test(prev.text) && prev.tokens.length <= 2;
    if (!opened) {
      if (!YES_OR_NO.test(next.text)) return;
      const saysBack = words.some((w) => w.length >= 4 && new RegExp(String.raw`\b${escapeRegExp(w)}\b`).test(next.text));
      if (!saysBack && next.tokens.length > 2) return;
    }
    s.speaker = 'doctor';
    s.text = `${s.text}?`;
    changed = true;
  });
  if (!changed) return;
  const said = sentences.map((s) => s.turn);
  let turn = 0;
  sentences.forEach((s, i) => {
    if (i === 0 || sentences[i - 1]!.speaker !== s.speaker || said[i - 1] !== said[i]) turn++;
    s.turn = turn;
  });
}

/**
 * A recogniser writes no "?": the doctor's last sentence before the patient answers is a question when it starts
 * like one or is a bare topic ("fever", "caffeine alcohol").
 */
function markQuestions(sentences: Sentence[]): void {
  sentences.forEach((s, i) => {
    const next = sentences[i + 1];
    if (s.speaker !== 'doctor' || s.text.endsWith('?') || next?.speaker !== 'patient') return;
    if ((STARTS_QUESTION.test(s.text) && !STATES_PLAN.test(s.text)) || s.tokens.length <= 3 || ASKS_AT_END.test(s.text)) s.text = `${s.text}?`;
  });
}

export interface DocOptions {
  /** "consultation" when the request says so: an unlabelled transcript is then read as turns. */
  mode?: string;
}

/** Labelled lines per speaker, fewer than which a label's share of doctor's words says little. */
const SWAP_MIN_LINES = 8;
/** How much more often the lines labelled the patient's say a doctor's words than the doctor's own, for a swap. */
const SWAP_MARGIN = 0.12;

/**
 * A recogniser that labels speakers sometimes labels them the wrong way round for a whole consultation (ACI-Bench
 * has several: "Patient: what can I do for you today" / "Doctor: well my knee has been hurting"). Then the lines
 * labelled the patient's ask the questions and give the plan: read with their labels, every complaint would be the
 * doctor's and every prescription the patient's own. Only two speakers, each with enough lines, are judged.
 */
function labelsSwapped(lines: RegExpMatchArray[]): boolean {
  const labels = new Set<string>();
  const doctor = { lines: 0, asks: 0 };
  const patient = { lines: 0, asks: 0 };
  for (const line of lines) {
    const sm = speakerLabel(line[0]);
    if (!sm) continue;
    labels.add(sm[1]!.toLowerCase());
    const c = DOCTOR.test(sm[1]!) ? doctor : patient;
    c.lines++;
    if (soundsLikeDoctor(line[0].slice(sm[0].length))) c.asks++;
  }
  const enough = doctor.lines >= SWAP_MIN_LINES && patient.lines >= SWAP_MIN_LINES;
  return labels.size === 2 && enough && patient.asks / patient.lines - doctor.asks / doctor.lines >= SWAP_MARGIN;
}

export function buildDoc(raw: string, opts: DocOptions = {}): Doc {
  const sentences: Sentence[] = [];
  let turn = 0;
  let speakers = 0;
  let section: SectionKind | null = null;
  const lines = [...raw.matchAll(/[^\r\n]+/g)];
  const labelled = lines.filter((l) => speakerLabel(l[0])).length;
  const unlabelledConsultation = opts.mode === 'consultation' && labelled < 2;
  const swapped = labelled >= 2 * SWAP_MIN_LINES && labelsSwapped(lines);
  for (const line of lines) {
    if (!line[0].trim()) continue;
    let body = Mapped.of(line[0], line.index);
    let speaker: Speaker = null;
    const sm = speakerLabel(line[0]);
    if (sm && (labelled >= 2 || namesSpeaker(sm[1]!))) {
      speaker = DOCTOR.test(sm[1]!) !== swapped || CLINICIAN_ONLY.test(line[0]) ? 'doctor' : 'patient';
      body = body.slice(sm[0].length);
      speakers++;
    }
    turn++;
    for (const { piece, section: under } of sectioned(normalizeMapped(body), section)) {
      section = under;
      const text = piece.replace(/^[\s,;:.]+/, '').replace(/^([^:]{2,40}:)\s*,\s*/, '$1 ');
      // The heading itself is not cut at the section words inside it ("current medications:").
      const at = HEADING_AT_START.exec(text.text);
      const head = at && headingOf(at[1]!) ? at[0].length : 0;
      const parts = Mapped.concat([text.slice(0, head), text.slice(head).replace(LIST_ITEM, '$1\n').replace(BOUNDARY, '\n')]).split(SENTENCE_END);
      for (const part of unlabelledConsultation ? parts.flatMap(turns) : parts) {
        const whole = part.trim();
        const m = applyCorrections(whole).replace(/^[,;:]+\s*/, '').replace(/[.!;,]+$/, '').trim();
        if (!m.text) continue;
        const said = HEADING_SENTENCE.exec(m.text);
        if (said && (PARAGRAPH.test(m.text) || PARAGRAPH.test(sentences[sentences.length - 1]?.text ?? ''))) section = sectionAfter(headingOf(said[1]!)!, section);
        // The one labelled line of an otherwise unlabelled consultation keeps its label.
        const who = unlabelledConsultation && !speaker ? whoSays(m.text, sentences[sentences.length - 1]) : speaker;
        if (unlabelledConsultation && who !== sentences[sentences.length - 1]?.speaker) turn++;
        sentences.push({
          index: sentences.length,
          text: m.text,
          tokens: tokenize(m.text),
          speaker: who,
          turn,
          section,
          ...(whole.text.endsWith(';') ? { semicolon: true } : {}),
          ...(opensItem(raw, m.source(0, 0).start) ? { item: true } : {}),
          span: (from, to) => m.source(from, to),
        });
      }
    }
  }
  const consultation = speakers >= 2 || unlabelledConsultation;
  if (consultation) endSpokenFindings(sentences);
  if (unlabelledConsultation) askedTopics(sentences);
  if (consultation) markQuestions(sentences);
  const all = sentences.map((s) => s.text).join(' ');
  const female = /\b(?:female|woman|lady|girl|she|her|madam|mrs|pregnan\w*|periods?)\b/.test(all);
  const isObjective = (s: Sentence): boolean => s.speaker !== 'patient' && VITAL_READING.test(s.text);
  const isExam = (s: Sentence): boolean =>
    (s.speaker === 'doctor' && EXAM_CUE.test(s.text) && !s.text.endsWith('?')) || (s.speaker === null && EXAM_START.test(s.text));
  let findingsStart = sentences.findIndex((s) => isObjective(s) || isExam(s));
  let planStart = sentences.findIndex((s, i) => s.speaker !== 'patient' && DIAGNOSIS_CUE.test(s.text) && !toldBack(sentences, i));
  // No diagnosis said: the plan starts with the first prescription, order or instruction after the findings.
  if (planStart < 0) planStart = sentences.findIndex((s, i) => i >= Math.max(0, findingsStart) && s.speaker !== 'patient' && PLAN_START.test(s.text));
  if (planStart < 0) planStart = sentences.length;
  // A report's headings say where its parts are: a cue word in the history or an examination ("consistent with")
  // does not start the plan there.
  const headedPlan = sentences.findIndex((s) => s.section === 'assessment' || s.section === 'plan');
  if (headedPlan >= 0) planStart = headedPlan;
  const headedFindings = sentences.findIndex((s) => s.section === 'vitals' || s.section === 'exam' || s.section === 'results');
  if (headedFindings >= 0) findingsStart = headedFindings;
  if (findingsStart < 0 || findingsStart > planStart) findingsStart = planStart;
  if (consultation) findingsStart = sentences.length;
  return { sentences, consultation, female, findingsStart, planStart };
}

// Section words and vital labels at a line's start are not speakers ("Diagnosis: acute bronchitis", "SUBJECTIVE:", "BP: 112/74").
const NOT_A_SPEAKER = new RegExp(String.raw`^\s*${SECTION}\s*:`, 'i');

function speakerLabel(line: string): RegExpExecArray | null {
  const sm = SPEAKER.exec(line);
  return sm && sm[1]!.split(/\s+/).length <= 3 && !NOT_A_SPEAKER.test(line) && !headingOf(sm[1]!) && !isVitalLabel(sm[1]!) ? sm : null;
}

/** Sentences after a condition told back within which the clinician's question about the visit makes it history. */
const VISIT_OPENER_WITHIN = 4;

/**
 * A condition said before the clinician asks, in the same turn, what the visit is for ("you have some chronic back
 * pain, some depression. why am i seeing you today?") is the history told back, no diagnosis of this visit.
 */
export function toldBack(sentences: readonly Sentence[], i: number): boolean {
  const s = sentences[i]!;
  return sentences.slice(i + 1, i + 1 + VISIT_OPENER_WITHIN).some((t) => t.turn === s.turn && t.speaker === s.speaker && VISIT_OPENER.test(t.text));
}
const SPOKEN_FINDINGS: ReadonlySet<SectionKind | null> = new Set<SectionKind | null>(['exam', 'vitals', 'results']);

/**
 * A consultation whose clinician dictates findings aloud ("physical exam: carotids are normal …") goes on talking to
 * the patient after them, with no heading for the plan: the findings end where the examination is said to be over or
 * the clinician tells a diagnosis or a prescription, so the plan told after them is not read as findings.
 */
function endSpokenFindings(sentences: Sentence[]): void {
  let ended = false;
  let heading: SectionKind | null = null;
  for (const s of sentences) {
    if (s.section !== heading) ended = false;
    heading = s.section;
    if (!ended && SPOKEN_FINDINGS.has(s.section) && s.speaker === 'doctor' && (FINDINGS_END.test(s.text) || DIAGNOSIS_CUE.test(s.text) || PRESCRIBER_VOICE.test(s.text))) ended = true;
    if (ended) s.section = null;
  }
}

/** A label on the only labelled line is a speaker only when it names one: otherwise it is a heading we do not know. */
const namesSpeaker = (label: string): boolean => DOCTOR.test(label) || SPEAKER_ROLE.test(label);

// Under a heading, only these parts tell the present complaint; the rest is background, findings or plan.
const STORY: ReadonlySet<SectionKind | null> = new Set<SectionKind | null>([null, 'complaint', 'history']);

/** Sentences where the patient's complaints are told. */
export function historySentences(doc: Doc): Sentence[] {
  if (doc.consultation) return doc.sentences.filter((s) => s.speaker === 'patient' && (s.index < doc.planStart || askedBackInPlan(doc, s)));
  return doc.sentences.slice(0, Math.min(doc.findingsStart, doc.planStart)).filter((s) => STORY.has(s.section));
}

// "I meant to ask you on your history, have you had a fever?": the doctor going back to the history after the plan has
// started; the answer, in the next turn, tells complaints.
const BACK_TO_HISTORY = /\b(?:(?:i|we) (?:meant|forgot|wanted|need|needed) to ask|forgot to ask|before i forget|one more question|one other question|one last question|on your history)\b/;

function askedBackInPlan(doc: Doc, s: Sentence): boolean {
  const asked = doc.sentences.slice(0, s.index).findLast((q) => q.turn !== s.turn);
  return !!asked && asked.speaker === 'doctor' && doc.sentences.some((q) => q.turn === asked.turn && BACK_TO_HISTORY.test(q.text));
}

// A heading said inside a sentence is one of two words or more: one word ("history", "plan", "neck") is ordinary
// speech too (at a sentence's start, see inlineHeadings), and so is "<any words> history" ("any history", "a
// history of") unless it names the kind of history.
const NAMED_HISTORY = /^(?:past|family|social|surgical|medical|personal|obstetric\w*|gyn\w*|immuni[sz]ation|drug|medication)\b/;
// Headings that are also ordinary speech in a story: "here for follow up of …".
const SPOKEN_NOT_HEADING = new Set(['follow up', 'followup', 'treatment plan', 'test results', 'lab tests']);
const MAX_HEADING_WORDS = 6;
// The words a heading name starts with: only there can one start (looked up once per word, not per span).
const HEADING_FIRST_WORDS = new Set(HEADINGS.flatMap((h) => (h.names ?? []).map((n) => n.toLowerCase().split(/[\s,/]+/)[0]!)));

/**
 * The report headings inside a sentence that was read without its colons (a recogniser's report: "… since
 * yesterday past medical history hypertension review of systems positive for fatigue …"): where each starts and
 * the kind of section it opens, from the section-heading vocabulary.
 */
export interface SpokenHeading {
  at: number;
  end: number;
  kind: SectionKind;
}
const headingCache = new WeakMap<Sentence, SpokenHeading[]>();
export function inlineHeadings(s: Sentence): SpokenHeading[] {
  let out = headingCache.get(s);
  if (!out) headingCache.set(s, (out = findInlineHeadings(s)));
  return out;
}

function findInlineHeadings(s: Sentence): SpokenHeading[] {
  const words = s.tokens.filter((t) => /^[a-z]/.test(t.text));
  const out: SpokenHeading[] = [];
  for (let i = 0; i < words.length; i++) {
    if (!HEADING_FIRST_WORDS.has(words[i]!.text) && !NAMED_HISTORY.test(words[i]!.text)) continue;
    // A one-word heading counts where the recogniser's text was cut into a sentence before it ("allergies penicillin
    // …"), unless it is a body part a complaint can start with ("chest pain …") or a word a story also ends a
    // clause with ("… taking some medications the patient had …").
    // Inside a run-on line "plan" alone is a heading where a drug's name follows it ("… in the past plan gabapentin 300 mg
    // at bedtime"), not where it is a word of the sentence ("the plan is …", "our plan").
    const planOpens = i > 0 && words[i]!.text === 'plan' && !PLAN_AS_WORD.test(words[i - 1]!.text) && opensDrugList(s, words[i]!);
    for (let n = Math.min(MAX_HEADING_WORDS, words.length - i); n >= (i === 0 || planOpens ? 1 : 2); n--) {
      const name = words.slice(i, i + n).map((t) => t.text).join(' ');
      const h = headingOf(name);
      if (!h || (n === 1 && (h.subheading || (h.kind === 'medications' && !opensList(s, words[i]!))))) continue;
      if (SPOKEN_NOT_HEADING.has(name) || (/ history$/.test(name) && !NAMED_HISTORY.test(name))) continue;
      out.push({ at: words[i]!.start, end: words[i + n - 1]!.end, kind: h.kind });
      i += n - 1;
      break;
    }
  }
  return out;
}

// The first words of the formulary's names (not its brands that are everyday words): what a medication list opens on.
const DRUG_FIRST_WORDS: ReadonlySet<string> = new Set(
  FORMULARY.flatMap((d) => [d.name, d.us, d.uk, ...d.aliases, ...d.brands]).flatMap((n) => (n ? [n.toLowerCase().split(/[\s-]+/)[0]!] : [])),
);

const PLAN_AS_WORD = /^(?:the|a|our|my|your|his|her|their|this|that|treatment|care|management|birth|meal|diet|action|care|game|back-up|backup)$/;
/** Whether a drug's name is the next word. */
function opensDrugList(s: Sentence, word: { start: number }): boolean {
  const k = s.tokens.findIndex((t) => t.start === word.start);
  const next = s.tokens[k + 1]?.text;
  return !!next && DRUG_FIRST_WORDS.has(next);
}

/**
 * "medications one lisinopril …", "medications albuterol premix via nebulizer …": a word straight before a list's
 * first number or a drug's name is that list's heading.
 */
function opensList(s: Sentence, word: { start: number }): boolean {
  const k = s.tokens.findIndex((t) => t.start === word.start);
  const next = s.tokens[k + 1]?.text;
  return next === '1' || (!!next && DRUG_FIRST_WORDS.has(next));
}

/**
 * A report read without its colons still opens with its first heading ("history of present illness the patient …",
 * "subjective mom brings …"); a one-word heading counts when it can only be one ("complaints of fever" is a dictation).
 */
export function opensWithHeading(doc: Doc): boolean {
  const words = doc.sentences[0]?.text.split(/\s+/).slice(0, 6) ?? [];
  return words.some((_, k) => {
    const h = headingOf(words.slice(0, k + 1).join(' '));
    return !!h && (k > 0 || (h.kind === 'history' && words[0] !== 'history'));
  });
}

const ASSESSMENT_WORD = /\b(?:assessment|impression|diagnosis|diagnoses)\b/;
// "who has a past medical history of hypertension … who presented for …", "because of family history of breast
// cancer we will try …": a heading said as part of the story covers its own clause only.
const NARRATIVE_HEADING = /\b(?:a|an|his|her|their|your|has|had|with|of|for|no|any)\s*$/;
const STORY_GOES_ON = /\b(?:who|presents?|presented|presenting|comes|came|is here|here for|referred|we will|we'll|i will|i'll|we are going|i am going|plan)\b/;

export interface SpokenSection {
  from: number;
  to: number;
  kind: SectionKind;
}

/**
 * In a dictated report read without its colons (a recogniser's: "… past medical history positive for elevated
 * cholesterol diabetes glaucoma current medications …"), the parts of each sentence under each spoken heading, up to
 * the next heading; a report that opens with a heading carries the last one into the next sentences. A one-word
 * assessment heading inside a sentence is not found as a heading but ends the part all the same ("no known drug
 * allergies … assessment influenza a"). Empty where headings were written, and in a consultation.
 */
export function spokenSections(doc: Doc): Map<Sentence, SpokenSection[]> {
  const out = new Map<Sentence, SpokenSection[]>();
  if (doc.consultation || doc.sentences.some((s) => s.section !== null)) return out;
  const report = opensWithHeading(doc);
  let carried: SectionKind | null = null;
  for (const s of doc.sentences) {
    let kind = report ? carried : null;
    let narrative = false;
    let from = 0;
    const parts: SpokenSection[] = [];
    for (const h of [...inlineHeadings(s), { at: s.text.length, end: s.text.length, kind: null }]) {
      const turn = kind !== null ? (narrative ? STORY_GOES_ON : ASSESSMENT_WORD).exec(s.text.slice(from, h.at)) : null;
      if (kind !== null) parts.push({ from, to: turn ? from + turn.index : h.at, kind });
      if (turn && !narrative) carried = null;
      from = h.end;
      narrative = h.kind !== null && NARRATIVE_HEADING.test(s.text.slice(0, h.at));
      kind = h.kind;
      if (h.kind !== null && !narrative) carried = h.kind;
    }
    if (parts.length) out.set(s, parts);
  }
  return out;
}
