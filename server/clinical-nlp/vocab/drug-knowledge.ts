/**
 * Drug knowledge for the safety checks, keyed by generic name, loaded from drug-classes.json (pharmacological
 * classes for allergy cross-reactivity and duplicate therapy, spellings, salts, same moieties) and drug-doses.json
 * (usual strengths per form, adult maximum daily dose and children's mg/kg/day). A drug or a number missing there is
 * simply not checked; a wrong entry is a false alarm or a missed one, so only label and textbook figures are listed,
 * and where labels differ (US, BNF, Indian practice) the higher maximum.
 */
import { Type } from 'typebox';
import { normalizeText, PhraseIndex, tokenize } from '../lexicon.js';
import { checkedData, Provenance, Words } from './data-file.js';
import CLASSES_FILE from './drug-classes.json' with { type: 'json' };
import DOSES_FILE from './drug-doses.json' with { type: 'json' };
import { FORMULARY, type Drug } from './formulary.js';

export const DrugClassesSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  classes: Type.Array(
    Type.Object(
      {
        id: Type.String({ pattern: '^[a-z0-9_]+$' }),
        label: Type.String({ minLength: 1 }),
        allergy: Type.Boolean(),
        duplicate: Type.Boolean(),
        needsStrength: Type.Optional(Type.Boolean()),
        names: Words,
        members: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
        note: Type.Optional(Type.String({ minLength: 1 })),
      },
      { additionalProperties: false },
    ),
  ),
  spellings: Type.Record(Type.String({ minLength: 1 }), Type.String({ minLength: 1 })),
  formSuffixes: Type.Array(Type.String({ pattern: '^[a-z]+(?: [a-z]+)*$' })),
  salts: Type.Array(Type.String({ pattern: '^[a-z]+$' })),
  sameMoiety: Type.Array(Type.Array(Type.String({ minLength: 1 }), { minItems: 2 })),
  sideChain: Type.Object({ penicillins: Words, cephalosporins: Words }, { additionalProperties: false }),
});

const KNOWLEDGE = checkedData('drug-classes.json', DrugClassesSchema, CLASSES_FILE);

export interface DrugClass {
  id: string;
  /** For the doctor: "penicillin", "proton pump inhibitor". */
  label: string;
  /** An allergy to one member is an allergy to the class (cross-reactivity the doctor must weigh). */
  allergy: boolean;
  /** Two members prescribed together are duplicate therapy. */
  duplicate: boolean;
  /** A new prescription of a member must say its strength (an anti-infective's dose decides whether it works). */
  needsStrength: boolean;
  /** Names of the class as an allergy may be stated ("sulfa drugs", "nsaids"). */
  names: string[];
  members: string[];
}

// A class's note explains it to the reader of the file; the checks do not use it.
export const CLASSES: readonly DrugClass[] = KNOWLEDGE.classes.map(({ id, label, allergy, duplicate, needsStrength, names, members }) =>
  ({ id, label, allergy, duplicate, needsStrength: needsStrength ?? false, names, members }));

/** Spellings folded to the name this table uses (US names, British spellings, older names). */
const SPELLING: Readonly<Record<string, string>> = KNOWLEDGE.spellings;

// Form words a formulary entry may carry ("ciprofloxacin eye drops", "clindamycin topical"): not part of the molecule.
const FORM_SUFFIX = new RegExp(`\\s+(?:${KNOWLEDGE.formSuffixes.join('|')})$`);

function byFormulary(): Map<string, string> {
  const m = new Map<string, string>();
  for (const d of FORMULARY) for (const n of [d.name, ...(d.us ? [d.us] : []), ...d.aliases]) if (!m.has(n)) m.set(n, d.name);
  return m;
}
const FORMULARY_NAME = byFormulary();

// Salts and esters named after the molecule ("fluticasone propionate", "losartan potassium"): the same drug for
// allergies, classes and strengths, when the molecule alone is known here.
const SALT = new RegExp(`\\s+(?:${KNOWLEDGE.salts.join('|')})$`);

/** One molecule's name as this table keys it. */
function molecule(name: string): string {
  const n = name.trim().toLowerCase().replace(/\s+/g, ' ').replace(FORM_SUFFIX, '');
  const spelled = SPELLING[n] ?? n;
  const bare = spelled.replace(SALT, '');
  return bare !== spelled && (CLASSES_OF.has(bare) || DOSE_TABLE.has(bare)) ? bare : spelled;
}

// Names are few (the formulary's) and asked for again and again (every pair of a prescription), so each is resolved once.
const COMPONENTS = new Map<string, string[]>();

/** The molecules of a generic (or US, or other) name: "amoxicillin + clavulanic acid" → both components. */
export function components(generic: string): readonly string[] {
  let out = COMPONENTS.get(generic);
  if (!out) {
    const n = generic.trim().toLowerCase().replace(/\s+/g, ' ');
    const name = SPELLING[n] ?? FORMULARY_NAME.get(n) ?? FORMULARY_NAME.get(n.replace(FORM_SUFFIX, '')) ?? n;
    out = [...new Set(name.split(/\s+\+\s+/).flatMap((c) => (SPELLING[c]?.includes(' + ') ? SPELLING[c]!.split(' + ') : [molecule(c)])))];
    // Unrecognised names come from transcripts too: a long-running server must not keep them all.
    if (COMPONENTS.size >= 10_000) COMPONENTS.clear();
    COMPONENTS.set(generic, out);
  }
  return out;
}

const CLASSES_OF = new Map<string, DrugClass[]>();
for (const c of CLASSES) for (const m of c.members) CLASSES_OF.set(m, [...(CLASSES_OF.get(m) ?? []), c]);

/** The classes of one molecule (component). */
export function classesOf(component: string): DrugClass[] {
  return CLASSES_OF.get(component) ?? CLASSES_OF.get(molecule(component)) ?? [];
}

/**
 * Whether a drug (generic, US name or "a + b") is one the class entry stands for: "take antihistamines … Piriton,
 * loratadine" names the antihistamine meant, while a steroid cream followed by Piriton still needs its own entry.
 * False for a class entry that stands for no listed class ("cough syrup") and for an entry that is no class.
 */
export function classMemberNamed(classEntry: Drug, generic: string): boolean {
  const id = classEntry.classOf;
  return !!id && components(generic).some((c) => classesOf(c).some((k) => k.id === id));
}

/**
 * How a form is dosed, for strengths: oral = tablets, capsules, sachets (per unit); liquid = syrups and suspensions
 * (per 5 ml); drops = oral drops (per ml); inhaler and nasal per puff or spray; neb per respule; topical, eye and
 * ear in percent; inj per vial or ampoule; patch per patch; vaginal per pessary.
 */
export type FormGroup = 'oral' | 'liquid' | 'drops' | 'inhaler' | 'neb' | 'nasal' | 'topical' | 'eye' | 'ear' | 'inj' | 'patch' | 'vaginal';
export const FORM_GROUPS: readonly FormGroup[] = ['oral', 'liquid', 'drops', 'inhaler', 'neb', 'nasal', 'topical', 'eye', 'ear', 'inj', 'patch', 'vaginal'];

/** Units as the structurer writes them: mg, mcg, g, %, IU, unit. */
export interface Strength {
  value: number;
  unit: string;
}

export interface DoseKnowledge {
  /** Usual strengths per form group. */
  strengths: Partial<Record<FormGroup, Strength[]>>;
  /** The units each form group comes in, also where no usual numbers are listed (insulin: units). */
  units: Partial<Record<FormGroup, string[]>>;
  /** Adult maximum a day, for every systemic form ('all') or for one form group. */
  maxDaily: Partial<Record<FormGroup | 'all', Strength>>;
  /** Most given at one time (insulin: what a pen delivers in one injection). */
  maxDose?: Strength;
  /** Children's usual mg/kg/day. */
  childMgPerKgDay?: { min: number; max: number };
  /** Taken once a week: a daily schedule is an error (methotrexate). */
  weekly: boolean;
}

const Amount = Type.String({ pattern: '^\\d+(?:\\.\\d+)? (?:mg|mcg|g|%|IU|units)$' });
const FormGroupSchema = Type.Union(FORM_GROUPS.map((g) => Type.Literal(g)));

export const DrugDosesSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  doses: Type.Array(
    Type.Object(
      {
        name: Type.String({ minLength: 1 }),
        strengths: Type.Array(
          Type.Object(
            { form: FormGroupSchema, values: Type.Array(Type.Number({ exclusiveMinimum: 0 })), unit: Type.Union(['mg', 'mcg', 'g', '%', 'IU', 'units'].map((u) => Type.Literal(u))) },
            { additionalProperties: false },
          ),
        ),
        maxDaily: Type.Optional(Type.Record(Type.String({ pattern: `^(?:all|${FORM_GROUPS.join('|')})$` }), Amount)),
        maxDose: Type.Optional(Amount),
        childMgPerKgDay: Type.Optional(Type.Object({ min: Type.Number({ minimum: 0 }), max: Type.Number({ minimum: 0 }) }, { additionalProperties: false })),
        weekly: Type.Optional(Type.Literal(true)),
      },
      { additionalProperties: false },
    ),
  ),
});

const UNITS: Record<string, string> = { mg: 'mg', mcg: 'mcg', g: 'g', '%': '%', IU: 'IU', units: 'unit' };

function parseAmount(text: string): Strength {
  const [value = '', unit = ''] = text.split(' ');
  return { value: Number(value), unit: UNITS[unit]! };
}

function doseTable(): Map<string, DoseKnowledge> {
  const out = new Map<string, DoseKnowledge>();
  for (const row of checkedData('drug-doses.json', DrugDosesSchema, DOSES_FILE).doses) {
    const k: DoseKnowledge = { strengths: {}, units: {}, maxDaily: {}, weekly: row.weekly === true };
    for (const { form, values, unit: written } of row.strengths) {
      const g = form as FormGroup;
      const unit = UNITS[written]!;
      if (values.length) k.strengths[g] = [...(k.strengths[g] ?? []), ...values.map((value) => ({ value, unit }))];
      k.units[g] = [...new Set([...(k.units[g] ?? []), unit])];
    }
    if (row.maxDose) k.maxDose = parseAmount(row.maxDose);
    for (const [group, amount] of Object.entries(row.maxDaily ?? {})) k.maxDaily[group as FormGroup | 'all'] = parseAmount(amount);
    if (row.childMgPerKgDay) k.childMgPerKgDay = { ...row.childMgPerKgDay };
    out.set(comboKey(row.name.split(' + ')), k);
  }
  return out;
}

// A combination is the same product whichever part is named first ("budesonide + formoterol").
const comboKey = (parts: readonly string[]): string => [...parts].sort().join(' + ');

/** Dose knowledge by generic name. */
export const DOSE_TABLE: ReadonlyMap<string, DoseKnowledge> = doseTable();

/**
 * Dose knowledge of a prescribed drug (generic, US or other name, or a combination listed as one product); undefined
 * when none, which means no dose check.
 */
export function doseKnowledge(generic: string): DoseKnowledge | undefined {
  const parts = components(generic);
  return DOSE_TABLE.get(comboKey(parts)) ?? (parts.length === 1 ? DOSE_TABLE.get(parts[0]!) : undefined);
}

// Aminopenicillins share their side chain with these cephalosporins: the one penicillin–cephalosporin pair whose
// cross-reactivity is well documented, so it is flagged in both directions.
const AMINO_PENICILLINS = new Set(KNOWLEDGE.sideChain.penicillins);
const SAME_SIDE_CHAIN_CEPHALOSPORINS = new Set(KNOWLEDGE.sideChain.cephalosporins);

// Enantiomers and metabolites: an allergy to one is an allergy to the other.
const SAME_MOIETY: readonly string[][] = KNOWLEDGE.sameMoiety;
const MOIETY = new Map<string, Set<string>>();
for (const group of SAME_MOIETY) for (const a of group) MOIETY.set(a, new Set([...(MOIETY.get(a) ?? []), ...group]));

interface Allergen {
  molecules: readonly string[];
  classes: readonly DrugClass[];
}

// Built on the first allergy read, not at import: the service imports this module for its note checks, and the
// index was a sixth of every start, most of which never read an allergy.
let allergenIndex: PhraseIndex<Allergen> | undefined;
function allergenIndexOf(): PhraseIndex<Allergen> {
  if (allergenIndex) return allergenIndex;
  const index = new PhraseIndex<Allergen>();
  for (const c of CLASSES) for (const n of c.names) index.add(n, { molecules: [], classes: [c] });
  for (const d of FORMULARY) {
    const ref = { molecules: components(d.name), classes: [] };
    for (const n of [d.name, ...(d.us ? [d.us] : []), ...d.aliases, ...d.brands]) index.add(n, ref);
  }
  for (const c of CLASSES) for (const m of c.members) index.add(m, { molecules: [m], classes: [] });
  for (const [spelling, name] of Object.entries(SPELLING)) index.add(spelling, { molecules: components(name), classes: [] });
  return (allergenIndex = index);
}

// Where an allergy as extracted runs on into the plan ("penicillin we will use azithromycin"): what follows is the
// alternative, not the allergen.
const PLAN_CUE = /\b(?:we will|we'll|i will|i'll|will|so|use|using|give|giving|start|starting|prescrib\w*|instead|switch\w*|hence|therefore|better)\b/;

/** What an allergy as stated ("sulfa drugs", "augmentin, gets a rash") names: molecules and classes. */
export function allergens(allergy: string): Allergen {
  const text = normalizeText(allergy);
  const cue = PLAN_CUE.exec(text);
  const found = allergenIndexOf().findAll(tokenize(cue ? text.slice(0, cue.index) : text));
  return { molecules: [...new Set(found.flatMap((f) => f.payload.molecules))], classes: [...new Set(found.flatMap((f) => f.payload.classes))] };
}

export interface AllergyHit {
  /** Short reason: "penicillin class", "same drug". */
  reason: string;
  /** A caution rather than a contraindication (cross-reactivity is possible, not expected). */
  caution: boolean;
}

/** Whether a drug (generic, US name, or "a + b") conflicts with an allergy as stated; the first conflict found. */
export function allergyHit(allergy: string, generic: string): AllergyHit | null {
  const named = allergens(allergy);
  if (!named.molecules.length && !named.classes.length) return null;
  const allergicClasses = new Set(named.classes.filter((c) => c.allergy));
  for (const m of named.molecules) for (const c of classesOf(m)) if (c.allergy) allergicClasses.add(c);
  for (const comp of components(generic)) {
    if (named.molecules.includes(comp)) return { reason: 'same drug', caution: false };
    if (named.molecules.some((m) => MOIETY.get(m)?.has(comp))) return { reason: 'same active substance', caution: false };
    const own = classesOf(comp);
    const shared = own.find((c) => allergicClasses.has(c));
    if (shared) return { reason: `${shared.label} class`, caution: false };
    const sideChain =
      (AMINO_PENICILLINS.has(comp) && named.molecules.some((m) => SAME_SIDE_CHAIN_CEPHALOSPORINS.has(m))) ||
      (SAME_SIDE_CHAIN_CEPHALOSPORINS.has(comp) && named.molecules.some((m) => AMINO_PENICILLINS.has(m)));
    if (sideChain) return { reason: 'shares its side chain with the allergen: cross-reactivity likely', caution: false };
    const ids = new Set(own.map((c) => c.id));
    const allergicIds = new Set([...allergicClasses].map((c) => c.id));
    if (ids.has('cephalosporin') && allergicIds.has('penicillin')) return { reason: 'cephalosporin after a penicillin allergy: cross-reactivity possible', caution: true };
    if (ids.has('carbapenem') && allergicIds.has('penicillin')) return { reason: 'carbapenem after a penicillin allergy: cross-reactivity possible', caution: true };
  }
  return null;
}

/** A short reason ("penicillin class") when the drug conflicts with the stated allergy, else null. */
export function allergyConflict(allergy: string, generic: string): string | null {
  return allergyHit(allergy, generic)?.reason ?? null;
}
