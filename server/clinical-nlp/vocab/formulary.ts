/**
 * Outpatient formulary for Indian and US practice: generic names (INN, as Indian prescriptions write them), the US
 * name where it differs, other spellings and spoken forms, usual forms and strengths, and Indian and US brand names.
 * Curated by hand for this project; a brand whose product we could not confirm is left out rather than guessed,
 * because a brand read as the wrong generic is a safety defect.
 *
 * The drugs live in formulary/*.json by therapeutic area, one object a drug (schema: `DrugRow` below):
 *
 * - name: lower case. A combination is its generics joined by " + " in the order its products are usually
 *   labelled, each part a drug of its own (or another name of one). Its other orders are added as other names, so
 *   "formoterol plus budesonide" finds "budesonide + formoterol".
 * - us: the US name, only where it differs. A combination without one is given its parts' US names.
 * - aliases: other names, spellings and spoken forms.
 * - strengths: usual strengths, a number with its unit, mg when none is written: 500, 50mcg, 1g, 1%, 60000IU,
 *   10units, 10mEq, 0.5ml. With "/" it is a concentration (125mg/5ml, 100units/ml, 500mcg/spray) and goes to
 *   `concentrations`, so a number said after a brand is never read as one.
 * - brands: as said. A number is part of a brand only for combinations ("glycomet gp 2"), where it is not a
 *   strength; a single drug's number after its brand is the strength ("telma 40").
 * - commonWordBrands: brands that are also ordinary English words ("pause", "tide"): they go to `contextBrands` and
 *   COMMON_WORD_BRANDS, not `brands`, so they are a drug only where the parser sees a drug context.
 *
 * drugs-us-uk.json adds US and UK generics and brands in the same shape (a drug already here adds to it), drug
 * classes prescribed without a named drug ("antihistamine", "steroid cream") with the class of drugs they stand
 * for, and British names.
 */
import { type Static, Type } from 'typebox';
import { checkedData, Provenance, Words } from './data-file.js';
import US_UK_FILE from './drugs-us-uk.json' with { type: 'json' };
import CARDIO from './formulary/cardio.json' with { type: 'json' };
import ENDOCRINE from './formulary/endocrine.json' with { type: 'json' };
import EYE_ENT from './formulary/eye-ent.json' with { type: 'json' };
import GASTRO from './formulary/gastro.json' with { type: 'json' };
import INFECTIONS from './formulary/infections.json' with { type: 'json' };
import NEURO_PSYCH from './formulary/neuro-psych.json' with { type: 'json' };
import NUTRITION from './formulary/nutrition.json' with { type: 'json' };
import PAIN from './formulary/pain.json' with { type: 'json' };
import RESPIRATORY from './formulary/respiratory.json' with { type: 'json' };
import SKIN from './formulary/skin.json' with { type: 'json' };
import URO_RENAL from './formulary/uro-renal.json' with { type: 'json' };
import VACCINES_EMERGENCY from './formulary/vaccines-emergency.json' with { type: 'json' };
import WOMEN from './formulary/women.json' with { type: 'json' };

export interface Drug {
  name: string;
  us?: string;
  /** The British Approved Name where it differs ("chlorphenamine", "glyceryl trinitrate"), for UK English notes. */
  uk?: string;
  /** A class prescribed without a named drug ("antihistamine", "steroid cream"): named by the class. */
  kind?: 'class';
  /** For a class: the id of the drug-knowledge.ts class whose members it stands for (see `classMemberNamed`). */
  classOf?: string;
  /** The generics a combination is made of, in the name's order; a single drug's own name. */
  parts: string[];
  aliases: string[];
  forms: string[];
  /** Strength per unit taken (tablet, puff, spray, application), e.g. "500", "50mcg", "1%". */
  strengths: string[];
  /** Strength per volume or weight of a liquid, cream or insulin, e.g. "125mg/5ml", "100units/ml". */
  concentrations: string[];
  brands: string[];
  /** Brands that are also ordinary English words: drug names only in a drug context. */
  contextBrands: string[];
}

export type StrengthUnit = 'mg' | 'mcg' | 'g' | '%' | 'IU' | 'units' | 'mEq' | 'ml';

export interface Strength {
  value: number;
  unit: StrengthUnit;
  /** For a concentration: the amount it is per ("5 ml" in 125mg/5ml; 1 when only a unit is written). */
  per?: { value: number; unit: string };
}

const STRENGTH = /^(\d+(?:\.\d+)?)(mg|mcg|g|%|IU|units|mEq|ml)?(?:\/(\d+(?:\.\d+)?)?(ml|g|spray|puff))?$/;

/** A strength as the table writes it; undefined when it is not in the table's format. */
export function parseStrength(s: string): Strength | undefined {
  const m = STRENGTH.exec(s);
  if (!m) return undefined;
  const out: Strength = { value: Number(m[1]), unit: (m[2] ?? 'mg') as StrengthUnit };
  if (m[4]) out.per = { value: m[3] ? Number(m[3]) : 1, unit: m[4] };
  return out;
}

/** The unit of the drug's usual strength with this value ("thyronorm 50" is 50 mcg), if it has one. */
export function usualStrengthUnit(drug: Drug, value: number): StrengthUnit | undefined {
  for (const s of drug.strengths) {
    const p = parseStrength(s);
    if (p && p.value === value) return p.unit;
  }
  return undefined;
}

/** One drug as the formulary files write it (fields: the header of this module). */
const DrugRow = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    us: Type.Optional(Type.String({ minLength: 1 })),
    aliases: Type.Optional(Words),
    forms: Type.Optional(Words),
    strengths: Type.Optional(Type.Array(Type.String({ pattern: STRENGTH.source }))),
    brands: Type.Optional(Words),
    commonWordBrands: Type.Optional(Words),
  },
  { additionalProperties: false },
);
type DrugRow = Static<typeof DrugRow>;

export const FormularyAreaSchema = Type.Object({ ...Provenance, about: Type.String(), drugs: Type.Array(DrugRow) });
export const UsUkSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  drugs: Type.Array(DrugRow),
  classes: Type.Array(DrugRow),
  ukNames: Type.Record(Type.String(), Type.String()),
  classMembers: Type.Record(Type.String(), Type.String()),
});

/** The therapeutic areas' files, in the order their drugs are listed. */
export const FORMULARY_FILES: Readonly<Record<string, unknown>> = {
  'pain.json': PAIN, 'infections.json': INFECTIONS, 'gastro.json': GASTRO, 'cardio.json': CARDIO, 'endocrine.json': ENDOCRINE,
  'respiratory.json': RESPIRATORY, 'skin.json': SKIN, 'eye-ent.json': EYE_ENT, 'neuro-psych.json': NEURO_PSYCH,
  'uro-renal.json': URO_RENAL, 'women.json': WOMEN, 'nutrition.json': NUTRITION, 'vaccines-emergency.json': VACCINES_EMERGENCY,
};
const AREAS = Object.entries(FORMULARY_FILES).map(([file, data]) => checkedData(`formulary/${file}`, FormularyAreaSchema, data));
const US_UK = checkedData('drugs-us-uk.json', UsUkSchema, US_UK_FILE);
const CLASS_NAMES = new Set(US_UK.classes.map((r) => r.name));

function orders(parts: string[]): string[][] {
  if (parts.length <= 1) return [parts];
  return parts.flatMap((p, i) => orders([...parts.slice(0, i), ...parts.slice(i + 1)]).map((rest) => [p, ...rest]));
}

const LISTS = ['aliases', 'forms', 'strengths', 'brands', 'commonWordBrands'] as const;
const joinLists = (a: string[] = [], b: string[] = []): string[] => [...new Set([...a, ...b])];

/** The areas' drugs, with the drugs of drugs-us-uk.json that name the same drug merged into them. */
function mergedRows(): DrugRow[] {
  const byName = new Map<string, DrugRow>();
  for (const row of [...AREAS.flatMap((a) => a.drugs), ...US_UK.drugs, ...US_UK.classes]) {
    const old = byName.get(row.name);
    if (!old) byName.set(row.name, row);
    else byName.set(row.name, { name: old.name, us: old.us || row.us, ...Object.fromEntries(LISTS.map((k) => [k, joinLists(old[k], row[k])])) });
  }
  return [...byName.values()];
}

const rows = mergedRows();
const usOf = new Map(rows.filter((r) => r.us).map((r) => [r.name, r.us!]));
const namesOf = new Map(rows.map(({ name, us, aliases = [] }) => [name, [name, ...(us ? [us] : []), ...aliases]]));

/**
 * Other ways a combination is said: its parts in any order joined by "+" (spoken "plus"), and a two-part one
 * also with nothing between ("magnesium sulphate glycerine paste", "budesonide formoterol inhaler"), each part by
 * any of its names.
 */
function combinationNames(parts: string[]): string[] {
  if (parts.length === 2) {
    const [a, b] = parts.map((p) => namesOf.get(p) ?? [p]) as [string[], string[]];
    return a.flatMap((x) => b.flatMap((y) => [`${x} + ${y}`, `${y} + ${x}`, `${x} ${y}`, `${y} ${x}`]));
  }
  return parts.length === 3 ? orders(parts).map((o) => o.join(' + ')) : [];
}

export const FORMULARY: readonly Drug[] = rows.map(({ name, us, aliases = [], forms = [], strengths: amounts = [], brands = [], commonWordBrands = [] }) => {
  const parts = name.split(' + ');
  const usParts = parts.map((p) => usOf.get(p) ?? p);
  const usName = us || (parts.length > 1 && usParts.join(' + ') !== name ? usParts.join(' + ') : undefined);
  const own = new Set([name, usName]);
  const uk = US_UK.ukNames[name];
  return {
    name,
    us: usName,
    ...(uk ? { uk } : {}),
    ...(CLASS_NAMES.has(name) ? { kind: 'class' as const } : {}),
    ...(US_UK.classMembers[name] ? { classOf: US_UK.classMembers[name] } : {}),
    parts,
    aliases: [...new Set([...aliases, ...(uk ? [uk] : []), ...combinationNames(parts), ...(usName ? combinationNames(usName.split(' + ')) : [])])].filter((n) => !own.has(n)),
    forms,
    strengths: amounts.filter((a) => !a.includes('/')),
    concentrations: amounts.filter((a) => a.includes('/')),
    brands,
    contextBrands: commonWordBrands,
  };
});

/** Brands that are also ordinary English words ("pause", "tide"): the parser should require a drug context for them. */
export const COMMON_WORD_BRANDS: ReadonlySet<string> = new Set(FORMULARY.flatMap((d) => d.contextBrands));
