/**
 * Medications prescribed or continued at this visit: formulary lookup (generic and brand names, misheard names
 * snapped by spelling or sound), then strength, dose, form, route, frequency, timing and duration from the words that
 * follow the name up to the next drug. "then" starts a new step of a taper. Stopped drugs, drugs someone else is to
 * take, and drugs merely mentioned (no dose, no instruction) are left out.
 */
import { doubleMetaphone } from 'double-metaphone';
import { FORMULARY, type Drug } from '../vocab/formulary.js';
import { snapWord } from './codify.js';
import type { Amount, Duration, Frequency, Medication } from './facts.js';
import { PhraseIndex, type Match, type Token } from './lexicon.js';
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
  oint: 'ointment', ointment: 'ointment', cream: 'cream', gel: 'gel', lotion: 'lotion', drops: 'drops',
  sachet: 'sachet', inhaler: 'inhaler', spray: 'spray',
};
const FORM_AFTER =
  /^\s*,?\s*(?:\d+(?:\.\d+)?\s*(?:mg|mcg|g|percent|%)\s+)?((?:chewable|dispersible|sublingual|nasal|eye|ear|vaginal|oral|topical|dusting)\s+)?(tablets?|capsules?|syrup|suspension|drops|spray|ointment|cream|gel|lotion|shampoo|soap|lozenges?|pessary|pessaries|suppository|sachets?|inhaler|rotacaps?|respules|injection|powder|patch|mouthwash|gargle|solution|paint)\b/;
const SHORT_BRAND_CONTEXT = /\b(?:tab|tabs|tablet|cap|capsule|syp|syrup|inj|injection|start|continue|give)\s*$/;
const STOP = /\b(?:stop|stopped|stopping|discontinue|discontinued|hold|withhold|avoid|don't take|do not take|do not give|instead of|allergic to|allergy to|was on|were on|is on|has been on|had been on|had taken|took|previously on|switch(?:ed)? from|while on|no)\b(?!.*\b(?:continue|start|give|take)\b)/;
const CONTINUE = /\b(?:continue|continued|same dose|the same)\b/;
const SOMEONE_ELSE = /\b(?:everyone|everybody|all family members|family members|other members|household contacts|others at home|rest of the family|all at home)\b/;
const STEP = /,?\s*\b(?:then|followed by|after that|thereafter)\b\s*/;

const NUM = String.raw`(\d+(?:\.\d+)?)`;
const STRENGTH_UNIT = String.raw`(mg|milligrams?|mcg|micrograms?|g|gm|grams?|iu|international units|percent|%)`;
const STRENGTH = new RegExp(String.raw`\b${NUM}\s*${STRENGTH_UNIT}(?![a-z])`);
const FROM_TO = new RegExp(String.raw`\bfrom\s+${NUM}\s*(?:${STRENGTH_UNIT}\s+)?to\s+${NUM}\s*${STRENGTH_UNIT}?(?![a-z])`);
const DOSE = new RegExp(String.raw`\b(${NUM.slice(1, -1)}|half)\s*(tablets?|tabs?|capsules?|caps?|ml|millilit(?:er|re)s?|drops?|puffs?|sprays?|units?|sachets?|teaspoons?|tsp|spoons?|lozenges?|pessar(?:y|ies)|suppositor(?:y|ies)|patch(?:es)?)\b`);
const BARE_NUMBER = /^\s*(\d+(?:\.\d+)?)(?![\d.])(?!\s*(?:-|\.\d|\s*(?:times?|days?|weeks?|months?|hours?|minutes?|units?|ml|millilit(?:er|re)s?|drops?|puffs?|sprays?|tablets?|tabs?|capsules?|caps?|sachets?|teaspoons?|tsp|spoons?|lozenges?|mg|mcg|g|gm|grams?|iu|percent|%)\b))/;

function unitName(u: string): string {
  if (/^(?:mg|milligram)/.test(u)) return 'mg';
  if (/^(?:mcg|microgram)/.test(u)) return 'mcg';
  if (/^(?:g|gm|gram)/.test(u)) return 'g';
  if (/^(?:percent|%)/.test(u)) return '%';
  if (/^(?:iu|international)/.test(u)) return 'IU';
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
const MEAL = /\b(?:\d+\s*(?:minutes?|mins?)\s+)?(?:before|after|with)\s+(?:food|meals?|breakfast|lunch|dinner|supper)\b|\bempty stomach\b|\bat bedtime\b|\bbedtime\b|\bat night\b|\bin the morning\b|\bin the evening\b|\bhs\b/g;
const SINGLE_MEAL = /\b(?:breakfast|lunch|dinner|supper|bedtime|night|morning|evening|hs)\b/;

function frequencyOf(t: string, asNeeded: boolean, timings: string[]): { freq?: Frequency; single: boolean } {
  const mk = (per_day: number | null, text: string, pattern?: string): Frequency => ({
    per_day,
    ...(pattern ? { pattern } : {}),
    as_needed: asNeeded,
    text: asNeeded && !/as needed/.test(text) ? `${text} as needed`.trim() : text,
  });
  let m = /\b([0-2](?:\.5)?)-([0-2](?:\.5)?)-([0-2](?:\.5)?)\b/.exec(t);
  if (m) {
    const n = [m[1], m[2], m[3]].filter((x) => Number(x) > 0).length;
    return { freq: mk(n, `${m[0]} (${['', 'once', 'twice', 'three times'][n] ?? n} daily)`, m[0]), single: false };
  }
  m = new RegExp(String.raw`\b(?:(?:once|one time|1 time|twice|two times|2 times|thrice|three times|3 times)\s+(?:a|per|every|in a)\s+week|weekly|every week|once weekly|every (?:${WEEKDAY})|on (?:${WEEKDAY})s?|alternate days?|every other day|once a fortnight|every 2 weeks|once a month|monthly)\b`).exec(t);
  if (m) return { freq: mk(null, m[0]), single: false };
  m = /\bevery\s+(\d+)\s*(?:hours?|hrs?)\b|\bq\s?(\d+)\s?h\b|\b(\d+)\s*(?:hourly|hrly)\b/.exec(t);
  if (m) {
    const h = Number(m[1] ?? m[2] ?? m[3]);
    return { freq: mk(h > 0 && h <= 24 ? Math.round(24 / h) : null, `every ${h} hours`), single: false };
  }
  if (/\b(?:qid|qds|four times (?:a day|daily)|4 times (?:a day|daily))\b/.test(t)) return { freq: mk(4, 'four times daily'), single: false };
  if (/\b(?:tds|tid|thrice|three times (?:a day|daily)|3 times (?:a day|daily))\b/.test(t)) return { freq: mk(3, 'three times daily'), single: false };
  if (/\b(?:bd|bid|twice|two times (?:a day|daily)|2 times (?:a day|daily))\b/.test(t)) return { freq: mk(2, 'twice daily'), single: false };
  if (/\b(?:stat|single dose|1 dose|a dose|once only|one time only|single oral dose)\b/.test(t)) return { freq: mk(1, 'single dose'), single: true };
  if (/\b(?:od|once (?:a day|daily)|once|daily|every day|everyday|qd|every morning|every night)\b/.test(t)) return { freq: mk(1, 'once daily'), single: false };
  const meals = timings.filter((x) => SINGLE_MEAL.test(x));
  if (meals.length >= 2) return { freq: mk(meals.length, meals.join(' and ')), single: false };
  if (meals.length === 1 && !/\b(?:food|meals?)\b/.test(meals[0]!)) return { freq: mk(1, `once ${meals[0]!.replace(/^\d+\s*\w+\s+/, '')}`), single: false };
  if (asNeeded) return { freq: mk(null, 'as needed'), single: false };
  return { single: false };
}

const AS_NEEDED = /\b(?:sos|prn|as needed|as required|when needed|if needed|when required|if required|on demand|as and when)\b|\b(?:to be given|give|take|use)\s+(?:only\s+)?(?:if|when)\b/;
const DURATION = /\b(?:for|x)\s+(?:(?:about|at least|only|another|next|the next|a total of)\s+)*(\d+(?:\.\d+)?|a|an)\s*(day|week|month|year|night)s?\b/;

function durationOf(t: string): Duration | undefined {
  const m = DURATION.exec(t);
  if (!m) return undefined;
  const value = /^\d/.test(m[1]!) ? Number(m[1]) : 1;
  const u = m[2]!;
  return { value, unit: u === 'night' ? 'day' : (u as Duration['unit']) };
}

const ROUTES: [RegExp, string][] = [
  [/\b(?:iv|intravenous(?:ly)?)\b/, 'intravenous'],
  [/\b(?:im|intramuscular(?:ly)?)\b/, 'intramuscular'],
  [/\b(?:sc|s\/c|subcut|subcutaneous(?:ly)?)\b/, 'subcutaneous'],
  [/\bsublingual(?:ly)?\b/, 'sublingual'],
  [/\b(?:oral(?:ly)?|by mouth|po|per oral)\b/, 'oral'],
  [/\b(?:nasal|nostrils?|intranasal)\b/, 'nasal'],
  [/\b(?:vaginal(?:ly)?|per vaginum|pessary)\b/, 'vaginal'],
  [/\b(?:eyes?)\b/, 'ophthalmic'],
  [/\b(?:ears?)\b/, 'otic'],
  [/\b(?:inhal\w*|puffs?|rotacaps?|respules|nebuli[sz]\w*)\b/, 'inhalation'],
  [/\b(?:local application|apply|applied|topical(?:ly)?|locally|ointment|cream|lotion|gel|shampoo)\b/, 'topical'],
];
const ORAL_FORMS = /^(?:(?:chewable |dispersible )?tablet|capsule|syrup|suspension|sachet|lozenge|powder)$/;

function instructionsOf(t: string): string | undefined {
  const parts: string[] = [];
  for (const re of [
    /\bfor\s+(?!\d|a\b|an\b|the next\b|at least\b|about\b|only\b)(?:the\s+)?[a-z][a-z ]*?(?=,|$|\s+if\b|\s+and\b)/,
    /\b(?:to be given\s+)?if\b[^,]*/,
    /\b(?:in|into)\s+(?:each|both|the)\s+(?:nostril|eye|ear)s?\b/,
    /\bexcept\s+[a-z]+/,
    /\brepeat\s+after\s+\d+\s+\w+/,
    /\bnot on the\s+[a-z]+/,
    /\bon the\s+(?:body\s+)?[a-z]+(?:\s+plaques)?\b/,
    /\blocal application\b/,
    /\bin\s+\d+\s+lit(?:er|re)s?\s+of\s+water\b/,
  ]) {
    const m = re.exec(t);
    if (m && !parts.includes(m[0].trim())) parts.push(m[0].trim());
  }
  return parts.length ? parts.join('; ') : undefined;
}

function parseStep(t: string, name: string, drug: Drug, bareAllowed: boolean): Omit<Medication, 'name' | 'brand'> {
  const med: Omit<Medication, 'name' | 'brand'> = {};
  const fromTo = FROM_TO.exec(t);
  const strength = STRENGTH.exec(t);
  if (fromTo) med.strength = { value: Number(fromTo[4]), unit: unitName(fromTo[5] ?? fromTo[2] ?? 'mg') };
  else if (strength) med.strength = { value: Number(strength[1]), unit: unitName(strength[2]!) };
  else if (bareAllowed) {
    // "tab razo 20", "crocin 650": a bare number straight after the name is the strength in the drug's usual unit.
    const bare = BARE_NUMBER.exec(t.slice(t.indexOf(name) + name.length).replace(/^\s*(?:tablet|tab|capsule|cap)\b/, ''));
    if (bare) {
      const unit = drug.strengths.find((x) => x.startsWith(bare[1]!))?.replace(/^[\d.]+/, '') || 'mg';
      med.strength = { value: Number(bare[1]), unit: unit === '%' ? '%' : unit || 'mg' };
    }
  }
  const dose = DOSE.exec(t);
  if (dose) med.dose = { value: dose[1] === 'half' ? 0.5 : Number(dose[1]), unit: unitName(dose[2]!) } satisfies Amount;
  const timings = [...new Set([...t.matchAll(MEAL)].map((m) => m[0].replace(/^bedtime$/, 'at bedtime').replace(/^hs$/, 'at bedtime')))];
  const asNeeded = AS_NEEDED.test(t);
  const { freq, single } = frequencyOf(t, asNeeded, timings);
  if (freq) med.frequency = freq;
  if (timings.length) med.timing = timings.join(' and ');
  const duration = durationOf(t) ?? (single ? { value: 1, unit: 'day' as const } : undefined);
  if (duration) med.duration = duration;
  const instructions = instructionsOf(t);
  if (instructions) med.instructions = instructions;
  return med;
}

interface Mention {
  match: Match<DrugRef>;
  formStart: number;
  prefixForm?: string;
}

function mentionsIn(s: Sentence, blocked: (start: number, end: number, len: number) => boolean): Mention[] {
  const tokens = s.tokens;
  const out: Mention[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let m = DRUG_INDEX.matchAt(tokens, i);
    const prev = tokens[i - 1]?.text ?? '';
    if (!m && FORM_PREFIX[prev] && tokens[i]!.text.length >= 5) {
      const snapped = snapWord(tokens[i]!.text, SNAP_VOCAB, SNAP_PHONETIC);
      if (snapped) m = { from: i, to: i + 1, start: tokens[i]!.start, end: tokens[i]!.end, payload: SINGLE_WORDS.get(snapped)!, key: snapped };
    }
    if (!m) continue;
    if (blocked(m.start, m.end, m.to - m.from)) continue;
    // Short brand names ("pan", "o2") are ordinary words unless a drug context surrounds them.
    if (m.key.length <= 3 && !SHORT_BRAND_CONTEXT.test(s.text.slice(0, m.start)) && !/^\s*\d/.test(s.text.slice(m.end))) continue;
    let formStart = m.start;
    let prefixForm: string | undefined;
    const floor = out.length ? out[out.length - 1]!.match.end : 0;
    for (let k = i - 1; k >= Math.max(0, i - 3); k--) {
      const t: Token = tokens[k]!;
      if (t.start < floor) break;
      if (FORM_PREFIX[t.text]) {
        prefixForm = FORM_PREFIX[t.text];
        formStart = t.start;
        break;
      }
    }
    out.push({ match: m, formStart, prefixForm });
    i = m.to - 1;
  }
  // "tab o2, ofloxacin plus ornidazole": a generic name restating the brand just before it is the same drug.
  return out.filter((mm, k) => {
    const prev = out[k - 1];
    if (!prev || prev.match.payload.drug !== mm.match.payload.drug) return true;
    return !/^[\s,;:()-]*(?:i e|that is|ie)?[\s,]*$/.test(s.text.slice(prev.match.end, mm.match.start));
  });
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
  const meds: (Medication & { bare: boolean; sentence: number })[] = [];
  for (const s of doc.sentences) {
    if (s.speaker === 'patient') continue;
    const mentions = mentionsIn(s, blocked(s));
    mentions.forEach((mention, k) => {
      const next = mentions[k + 1];
      const spanEnd = next ? next.formStart : s.text.length;
      const span = s.text.slice(mention.match.start, spanEnd);
      const clauseStart = Math.max(s.text.lastIndexOf(',', mention.formStart - 1), k > 0 ? mentions[k - 1]!.match.end : -1, 0);
      const before = s.text.slice(k > 0 ? clauseStart : 0, mention.formStart);
      if (SOMEONE_ELSE.test(s.text.slice(0, spanEnd))) return;
      if ((STOP.test(before) && !CONTINUE.test(span)) || /\b(?:stop|discontinue|withdraw)\s+(?:it|this|that|them)\b/.test(span)) return;
      const { drug, brand } = mention.match.payload;
      const name = (us && drug.us) || drug.name;
      const spoken = mention.match.key;
      const steps = span.split(STEP);
      const pieces: string[] = [];
      for (const p of steps) {
        if (pieces.length && !/\d|\b(?:once|twice|thrice|daily|night|bedtime|sos)\b/.test(p)) pieces[pieces.length - 1] += ` then ${p}`;
        else pieces.push(p);
      }
      let previous: Omit<Medication, 'name' | 'brand'> | undefined;
      pieces.forEach((piece, n) => {
        const parsed = parseStep(piece, n === 0 ? spoken : '', drug, n === 0);
        const after = FORM_AFTER.exec(s.text.slice(mention.match.end, spanEnd));
        let form = mention.prefixForm;
        if (after) {
          const base = after[2]!.replace(/s$/, '').replace(/^pessarie$/, 'pessary').replace(/^lozenge$/, 'lozenge');
          const mod = after[1]?.trim();
          form = form === 'tablet' && mod ? `${mod} tablet` : mod && !form ? `${mod} ${base}` : (form ?? base);
        }
        if (!form && parsed.dose && /^(?:tablet|capsule|sachet|lozenge|pessary|suppository)$/.test(parsed.dose.unit)) form = parsed.dose.unit;
        if (form === 'pessary') form = 'vaginal pessary';
        const routeHit = ROUTES.find(([re]) => re.test(piece));
        const route = routeHit?.[1] ?? (form && ORAL_FORMS.test(form) ? 'oral' : undefined);
        const med: Medication & { bare: boolean; sentence: number } = {
          name,
          ...(brand ? { brand } : {}),
          ...(form ? { form } : {}),
          ...(parsed.strength ?? (n > 0 ? previous?.strength : undefined) ? { strength: parsed.strength ?? previous!.strength } : {}),
          ...(parsed.dose ? { dose: parsed.dose } : {}),
          ...(route ? { route } : {}),
          ...(parsed.frequency ? { frequency: parsed.frequency } : {}),
          ...(parsed.timing ? { timing: parsed.timing } : {}),
          ...(parsed.duration ? { duration: parsed.duration } : {}),
          ...(parsed.instructions ? { instructions: parsed.instructions } : {}),
          bare: !parsed.strength && !parsed.dose && !parsed.frequency && !parsed.duration && !mention.prefixForm,
          sentence: s.index,
        };
        previous = parsed;
        meds.push(med);
        if (!med.bare && !firstMed.has(s.index)) firstMed.set(s.index, mention.formStart);
      });
    });
  }
  // A drug named without any instruction is only mentioned ("before starting methotrexate"). One the history names
  // and the plan prescribes again ("on amlodipine 5 … increase amlodipine to 10 mg") is the plan's.
  const planned = new Set(meds.filter((m) => !m.bare && m.sentence >= doc.planStart).map((m) => m.name));
  return meds
    .filter((m) => !m.bare && !(m.sentence < doc.planStart && planned.has(m.name)))
    .map(({ bare: _bare, sentence: _sentence, ...m }) => m);
}
