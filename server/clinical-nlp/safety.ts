/**
 * Safety checks on the extracted medications, from the drug knowledge table (vocab/drug-knowledge.ts): a strength
 * in a unit the drug does not come in or far outside its range, a daily total above the maximum, a drug the patient
 * is allergic to (or to its class), two drugs of one class, and a name matched only by sound or not at all. Each
 * finding is a flag for the doctor pointing at the medication; a strength is corrected only when the spoken number
 * is exactly one usual strength of the drug in another unit, and the flag says so.
 */
import {
  allergyHit,
  CLASSES,
  classesOf,
  components,
  doseKnowledge,
  type DoseKnowledge,
  type FormGroup,
  type Strength,
} from './vocab/drug-knowledge.js';
import { PATIENT_LABEL_PRESCRIBES_RULE, STATUS_UNCLEAR_RULE, STRENGTH_CONFLICT_RULE, type Amount, type ClinicalFacts, type Flag, type Medication } from './facts.js';

export interface SafetyOptions {
  /** Allergies in the patient's record, as written there. */
  patientAllergies?: string[];
  weightKg?: number;
  ageYears?: number;
}

// A strength more than this many times the largest usual strength (or under the smallest divided by it) is not a
// dose anyone prescribes, unless the drug's maximum a day says otherwise.
const RANGE_FACTOR = 4;
// Children's doses are rounded to what can be measured (half tablets, whole millilitres).
const CHILD_TOLERANCE = 1.1;
const CHILD_AGE = 12;
// Without an age, a weight under this is a child's.
const CHILD_WEIGHT_KG = 40;

const MASS: Record<string, number> = { g: 1000, mg: 1, mcg: 0.001 };

/** The amount in the base unit of its dimension (mg for masses), and the dimension. */
function base(a: Strength): { value: number; dim: string } {
  const f = MASS[a.unit];
  if (f !== undefined) return { value: a.value * f, dim: 'mass' };
  return { value: a.value, dim: a.unit === 'IU' ? 'unit' : a.unit };
}

function show(a: Strength): string {
  return `${+a.value.toPrecision(6)} ${a.unit === 'unit' ? 'units' : a.unit}`;
}

function formGroups(med: Medication): FormGroup[] | undefined {
  const form = med.form ?? '';
  const route = med.route ?? '';
  if (/\beye\b/.test(form) || route === 'ophthalmic') return ['eye'];
  if (/\bear\b/.test(form) || route === 'otic') return ['ear'];
  if (/\bnasal\b/.test(form) || route === 'nasal') return ['nasal'];
  if (/respule|nebul/.test(form)) return ['neb'];
  if (/inhaler|rotacap|spray/.test(form)) return ['inhaler'];
  if (route === 'inhalation') return ['inhaler', 'neb'];
  if (/injection/.test(form) || /^(?:intravenous|intramuscular|subcutaneous)$/.test(route)) return ['inj'];
  if (/syrup|suspension|solution|elixir/.test(form)) return ['liquid'];
  if (/drops/.test(form)) return ['drops'];
  if (/cream|ointment|gel|lotion|shampoo|paint|mouthwash|gargle|dusting/.test(form) || route === 'topical') return ['topical'];
  if (/patch/.test(form)) return ['patch'];
  if (/pessary|suppository/.test(form) || route === 'vaginal') return ['vaginal'];
  if (/tablet|capsule|sachet|lozenge|powder/.test(form)) return ['oral'];
  // A percentage is a cream's or a lotion's strength.
  if (med.strength?.unit === '%') return ['topical'];
  return undefined;
}

/** The usual strengths for the medication's form, or for every form when the form was not said. */
function usualStrengths(k: DoseKnowledge, groups: FormGroup[] | undefined): Strength[] {
  return (groups ?? (Object.keys(k.strengths) as FormGroup[])).flatMap((g) => k.strengths[g] ?? []);
}

function unitsOf(k: DoseKnowledge, groups: FormGroup[] | undefined): string[] {
  return [...new Set((groups ?? (Object.keys(k.units) as FormGroup[])).flatMap((g) => k.units[g] ?? []))];
}

function maxDaily(k: DoseKnowledge, groups: FormGroup[] | undefined): Strength | undefined {
  const own = groups?.map((g) => k.maxDaily[g]).find(Boolean);
  if (own) return own;
  // A maximum stated for one form only does not hold for the others, nor for an unknown form.
  if (!groups && Object.keys(k.maxDaily).some((g) => g !== 'all')) return undefined;
  return k.maxDaily.all;
}

interface Range {
  lo: number;
  hi: number;
}

function plausibleRange(usual: Strength[], dim: string, max: Strength | undefined): Range | undefined {
  const values = usual.map(base).filter((b) => b.dim === dim).map((b) => b.value);
  if (!values.length) return undefined;
  let hi = Math.max(...values) * RANGE_FACTOR;
  if (max && base(max).dim === dim) hi = Math.min(hi, Math.max(base(max).value, Math.max(...values)));
  return { lo: Math.min(...values) / RANGE_FACTOR, hi };
}

function describeUsual(usual: Strength[], units: string[]): string {
  const byUnit = new Map<string, number[]>(units.map((u) => [u, []]));
  for (const s of usual) byUnit.set(s.unit, [...(byUnit.get(s.unit) ?? []), s.value]);
  return [...byUnit]
    .map(([unit, vs]) => {
      const sorted = [...new Set(vs)].sort((a, b) => a - b);
      return sorted.length ? `${sorted.join(', ')} ${unit === 'unit' ? 'units' : unit}` : unit === 'unit' ? 'units' : unit;
    })
    .join('; ');
}

function drugLabel(med: Medication, groups: FormGroup[] | undefined): string {
  const form = groups && med.form && !/^(?:tablet|capsule)$/.test(med.form) ? ` ${med.form}` : '';
  return `${med.name}${form}`;
}

interface StrengthCheck {
  strength?: Amount;
  flag?: Omit<Flag, 'pointer'>;
  /** The strength is usable for the daily total (plausible, or corrected). */
  usable: boolean;
}

function checkStrength(med: Medication, k: DoseKnowledge, groups: FormGroup[] | undefined): StrengthCheck {
  const s = med.strength;
  const units = unitsOf(k, groups);
  // "increase his dose until his heart rate will drop to twenty five percent": a percentage for a drug that comes in
  // no cream, drops or spray is no strength of it.
  if (s?.unit === '%' && !units.length && !(Object.keys(k.strengths) as FormGroup[]).some((g) => LOCAL_GROUPS.has(g))) {
    return { usable: false, flag: { code: 'DOSE_UNIT', message: `Strength heard as ${show(s)}; ${drugLabel(med, undefined)} comes in ${describeUsual(usualStrengths(k, undefined), unitsOf(k, undefined))} — check the unit.` } };
  }
  if (!s || !units.length) return { usable: !!s };
  const usual = usualStrengths(k, groups);
  const label = drugLabel(med, groups);
  const heard = show(s);
  const { value, dim } = base(s);
  if (!(value > 0)) return { usable: false, flag: { code: 'DOSE_RANGE', message: `Strength heard as ${heard} for ${label} is not a dose — check.` } };
  const range = plausibleRange(usual, dim, maxDaily(k, groups));
  if (range && value >= range.lo && value <= range.hi) return { usable: true };
  // A unit the drug comes in without usual numbers (insulin in units): only the most at one time is known.
  if (!range && units.some((u) => base({ value: 1, unit: u }).dim === dim)) return { usable: true, flag: overDose(med, s, k) };
  const exact = [...new Set(usual.filter((u) => u.value === s.value && u.unit !== s.unit).map((u) => u.unit))];
  if (exact.length === 1) {
    const fixed = { value: s.value, unit: exact[0]! };
    return {
      strength: fixed,
      usable: true,
      flag: {
        code: 'DOSE_UNIT',
        message: `Strength heard as ${heard}; ${label} comes as ${show(fixed)}, changed to ${show(fixed)} — check.`,
      },
    };
  }
  const otherUnitFits = usual.some((u) => {
    if (u.unit === s.unit) return false;
    const r = plausibleRange(usual, base(u).dim, maxDaily(k, groups));
    const v = base({ value: s.value, unit: u.unit }).value;
    return !!r && v >= r.lo && v <= r.hi;
  });
  if (!range || otherUnitFits) {
    return {
      usable: false,
      flag: { code: 'DOSE_UNIT', message: `Strength heard as ${heard}; ${label} comes in ${describeUsual(usual, units)} — check the unit.` },
    };
  }
  const where = value > range.hi ? 'far above' : 'far below';
  return {
    usable: false,
    flag: { code: 'DOSE_RANGE', message: `Strength ${heard} is ${where} the usual for ${label} (${describeUsual(usual, units)}) — check.` },
  };
}

// A dose is often a few tablets, or half of one: a strength that is none of these of any usual strength was likely
// misheard ("320 mg" of paracetamol for 325).
const UNIT_MULTIPLES = [0.5, 1, 2, 3, 4];

/**
 * An adult's strength within the plausible range that is neither a usual strength of the drug's form nor a few of
 * one: the number may have been misheard. Combinations are left out (their strengths are listed per product).
 */
function unusualStrength(med: Medication, k: DoseKnowledge, groups: FormGroup[] | undefined): Omit<Flag, 'pointer'> | undefined {
  const s = med.strength;
  if (!s || med.name.includes(' + ')) return undefined;
  const usual = usualStrengths(k, groups);
  const { value, dim } = base(s);
  const same = usual.map(base).filter((u) => u.dim === dim);
  if (!same.length || same.some((u) => UNIT_MULTIPLES.some((x) => Math.abs(u.value * x - value) < 1e-9 * Math.max(1, value)))) return undefined;
  return {
    code: 'DOSE_RANGE',
    message: `Strength ${show(s)} is not one ${drugLabel(med, groups)} comes in (${describeUsual(usual, unitsOf(k, groups))}), nor a few of one — check the number.`,
  };
}

function overDose(med: Medication, amount: Amount, k: DoseKnowledge): StrengthCheck['flag'] {
  const max = k.maxDose;
  if (!max || base(max).dim !== base(amount).dim || base(amount).value <= base(max).value) return undefined;
  return { code: 'DOSE_RANGE', message: `${show(amount)} of ${med.name} at one time is above the usual most of ${show(max)} — check.` };
}

// "Tylenol … 3 grams per day" read as 3 g once daily: a daily total taken as one dose is more than anyone takes at once.
function aboveMostAtOnce(med: Medication, k: DoseKnowledge, groups: FormGroup[] | undefined): Omit<Flag, 'pointer'> | undefined {
  const max = k.maxDose;
  const each = med.strength && max && base(max).dim === 'mass' ? perDoseMg(med.strength, med.dose, groups) : undefined;
  if (each === undefined || each <= base(max!).value * 1.0001) return undefined;
  return { code: 'DOSE_RANGE', message: `${mgText(each)} of ${med.name} at one time is above the usual most of ${show(max!)} — check.` };
}

const COUNT_UNITS = /^(?:tablet|capsule|sachet|lozenge|pessary|suppository|patch|unit|puff|spray|respule)$/;

/** The amount taken each time in mg, when the strength and dose say it unambiguously. */
function perDoseMg(strength: Amount, dose: Amount | undefined, groups: FormGroup[] | undefined): number | undefined {
  const b = base(strength);
  if (b.dim !== 'mass') return undefined;
  const g = groups?.length === 1 ? groups[0] : undefined;
  if (!dose) return b.value;
  if (g === 'liquid' || (!g && dose.unit === 'ml')) {
    // Syrup strengths are per 5 ml.
    if (dose.unit === 'ml') return (b.value * dose.value) / 5;
    if (dose.unit === 'teaspoon') return b.value * dose.value;
    return undefined;
  }
  if (g === 'drops') return dose.unit === 'ml' ? b.value * dose.value : undefined;
  return COUNT_UNITS.test(dose.unit) ? b.value * dose.value : undefined;
}

function mgText(mg: number): string {
  return mg >= 1000 ? `${+(mg / 1000).toFixed(2)} g` : `${+mg.toFixed(mg < 1 ? 3 : 1)} mg`;
}

function checkDaily(
  med: Medication,
  strength: Amount | undefined,
  k: DoseKnowledge,
  groups: FormGroup[] | undefined,
  child: { weightKg: number } | undefined,
): Omit<Flag, 'pointer'> | undefined {
  const perDay = med.frequency?.per_day;
  if (k.weekly && perDay) {
    return { code: 'DAILY_MAX', message: `${med.name} is taken once a week; this says ${med.frequency!.text} — check.` };
  }
  if (!strength || !perDay || (groups && groups.some((g) => g === 'topical' || g === 'eye' || g === 'ear'))) return undefined;
  const each = perDoseMg(strength, med.dose, groups);
  if (each === undefined) return undefined;
  const daily = each * perDay;
  const max = maxDaily(k, groups);
  if (max && base(max).dim === 'mass' && daily > base(max).value * 1.0001) {
    return {
      code: 'DAILY_MAX',
      message: `${med.name}: ${mgText(each)} × ${perDay} a day is ${mgText(daily)}, above the adult maximum of ${show(max)} a day — check.`,
    };
  }
  if (child && k.childMgPerKgDay) {
    const perKg = daily / child.weightKg;
    if (perKg > k.childMgPerKgDay.max * CHILD_TOLERANCE) {
      const { min, max: hi } = k.childMgPerKgDay;
      const usual = min === hi ? `${hi}` : `${min}–${hi}`;
      return {
        code: 'DAILY_MAX',
        message: `${med.name}: ${mgText(daily)} a day is ${Math.round(perKg)} mg/kg/day for ${child.weightKg} kg; the usual is ${usual} mg/kg/day — check.`,
      };
    }
  }
  return undefined;
}

/** Where the same products are kept apart for duplicate therapy: an inhaled and an oral steroid are not duplicates. */
function routeKind(groups: FormGroup[] | undefined, k: DoseKnowledge | undefined): string {
  const known = groups ?? (k ? (Object.keys(k.strengths) as FormGroup[]) : []);
  const kinds = new Set(known.map((g) => (g === 'oral' || g === 'liquid' || g === 'drops' || g === 'inj' ? 'systemic' : g === 'neb' ? 'inhaler' : g)));
  return kinds.size === 1 ? [...kinds][0]! : 'systemic';
}

function duplicateFlags(meds: Medication[], kinds: string[]): Flag[] {
  const flags: Flag[] = [];
  const flagged = new Set<number>();
  for (let j = 1; j < meds.length; j++) {
    for (let i = 0; i < j; i++) {
      const a = meds[i]!;
      const b = meds[j]!;
      // One drug listed twice is a taper or a change of dose, not two therapies; alternatives are taken one or the other.
      if (a.name === b.name || kinds[i] !== kinds[j] || a.alternatives?.includes(b.name) || b.alternatives?.includes(a.name)) continue;
      const ca = components(a.name);
      const cb = components(b.name);
      const same = ca.find((c) => cb.includes(c));
      let message: string | undefined;
      if (same) message = `${a.name} and ${b.name} both contain ${same} — duplicate therapy; check the total dose.`;
      else {
        const classesA = ca.flatMap(classesOf).filter((c) => c.duplicate);
        const shared = cb.flatMap(classesOf).filter((c) => c.duplicate && classesA.includes(c));
        // Classes are listed from the narrowest (ACE inhibitor) to the widest (renin-angiotensin blocker).
        const first = shared.sort((x, y) => classOrder(x.id) - classOrder(y.id))[0];
        if (first) message = `${a.name} and ${b.name} are both ${plural(first.label)} — duplicate therapy? Check.`;
      }
      if (message) {
        // Either one may be the mistake (a drug stopped or corrected in the same breath), so both are flagged.
        for (const k of [i, j]) {
          if (flagged.has(k)) continue;
          flags.push({ code: 'DUPLICATE_THERAPY', message, pointer: `/medications/${k}` });
          flagged.add(k);
        }
      }
    }
  }
  return flags;
}

const ORDER = new Map(CLASSES.map((c, i) => [c.id, i]));
const classOrder = (id: string): number => ORDER.get(id) ?? 0;
const plural = (label: string): string => (/[A-Z0-9]$/.test(label) ? `${label}s` : label.endsWith('s') ? label : `${label}s`);

/** Flags for the medications of a note; the medications come back with any strength corrected. The input is not changed. */
// More than this at one time is no syrup or drops dose, whatever the drug ("calpol two fifty seven ml" heard as
// 257 ml): a misheard number, flagged even for drugs the dose table lacks.
const MAX_ML_AT_ONCE: Record<string, number> = { syrup: 30, suspension: 30, drops: 5 };

function liquidVolumeFlag(med: Medication): Omit<Flag, 'pointer'> | undefined {
  const max = med.form ? MAX_ML_AT_ONCE[med.form] : undefined;
  if (max === undefined || med.dose?.unit !== 'ml' || med.dose.value <= max) return undefined;
  return { code: 'DOSE_RANGE', message: `${med.dose.value} ml of ${med.name} ${med.form} at one time is more than any usual dose (at most ${max} ml) — check the number.` };
}

// "Advair one hundred over fifty one inhalation", "Qvar forty two puffs": numbers run together by a recogniser make
// counts nobody takes at once.
const MOST_COUNTED_AT_ONCE = 10;
const COUNTED = /^(?:tablet|capsule|puff|inhalation|spray|drop|sachet|lozenge|pessary|suppository|patch|teaspoon)s?$/;
function countedDoseFlag(med: Medication): Omit<Flag, 'pointer'> | undefined {
  if (!med.dose || !COUNTED.test(med.dose.unit) || med.dose.value <= MOST_COUNTED_AT_ONCE) return undefined;
  return { code: 'DOSE_RANGE', message: `${med.dose.value} ${med.dose.unit}s of ${med.name} at one time is more than anyone takes at once — check the number.` };
}

const LOCAL_GROUPS = new Set<FormGroup>(['topical', 'eye', 'ear', 'nasal', 'vaginal']);

/**
 * A new systemic prescription of a drug whose class needs a strength (drug-classes.json), or any change of dose, without
 * one: a request to the doctor, not a removal.
 */
function strengthMissing(med: Medication, groups: FormGroup[] | undefined): Omit<Flag, 'pointer'> | undefined {
  // A change whose new amount was not read ("put the sertraline up to …") says nothing the patient can take; one of how
  // often ("wean to twice daily") has what it changed.
  if (med.status === 'changed' && !med.strength && !med.dose && !med.frequency) {
    return { code: 'STRENGTH_MISSING', message: `${med.name}: the dose is changed, but the new strength was not read — add it.` };
  }
  if (med.strength || (med.status && med.status !== 'new') || med.match === 'unrecognised') return undefined;
  // "Vicodin 5/500": a combination's strengths are said in its product's name.
  if (med.brand && /\d\/\d/.test(med.brand)) return undefined;
  if (groups?.some((g) => LOCAL_GROUPS.has(g))) return undefined;
  if (!components(med.name).some((c) => classesOf(c).some((k) => k.needsStrength))) return undefined;
  return { code: 'STRENGTH_MISSING', message: `${med.name} is prescribed without a strength — add it.` };
}

/** A strength whose unit the speaker did not say ("amoxicillin 500"): the unit shown is the structurer's reading. */
function unitNotSaid(med: Medication): Omit<Flag, 'pointer'> | undefined {
  if (!med.strength || !med.inferred?.includes('strength')) return undefined;
  return { code: 'UNIT_NOT_SAID', message: `Strength heard as ${med.strength.value} without a unit; shown as ${show(med.strength)} — check.` };
}

function strengthConflict(med: Medication): Omit<Flag, 'pointer'> | undefined {
  if (!med.strength || !med.rules?.includes(STRENGTH_CONFLICT_RULE)) return undefined;
  return { code: 'STRENGTH_CONFLICT', message: `${med.name} ${show(med.strength)}: the recording also gives another strength for it (an old dose or a list's) — check which is meant now.` };
}

function statusUnclear(med: Medication): Omit<Flag, 'pointer'> | undefined {
  if (!med.rules?.includes(STATUS_UNCLEAR_RULE)) return undefined;
  const why = med.rules.includes(PATIENT_LABEL_PRESCRIBES_RULE)
    ? "the recording gives the words that prescribe it to the patient: its speaker labels may be wrong there"
    : 'it was said near history, a plan for later, an explanation or another prescriber';
  return { code: 'STATUS_UNCLEAR', message: `${med.name}: it is not clear that this is to be taken now (${why}) — check.` };
}

export function checkSafety(facts: ClinicalFacts, opts: SafetyOptions = {}): { medications: Medication[]; flags: Flag[] } {
  const flags: Flag[] = [];
  const weightKg = opts.weightKg ?? facts.vitals.weight_kg;
  const isChild = opts.ageYears !== undefined ? opts.ageYears < CHILD_AGE : weightKg !== undefined && weightKg < CHILD_WEIGHT_KG;
  const child = isChild && weightKg ? { weightKg } : undefined;
  const allergies = [
    ...facts.history.allergies.map((text) => ({ text, where: 'this note' })),
    ...(opts.patientAllergies ?? []).map((text) => ({ text, where: "the patient's record" })),
  ];
  const kinds: string[] = [];
  const medications = facts.medications.map((original, i) => {
    const med: Medication = { ...original };
    const at = `/medications/${i}`;
    if (med.match === 'fuzzy') {
      flags.push({ code: 'FUZZY_MATCH', message: `Heard '${med.heard ?? med.name}'; matched to ${med.name} by sound — check.`, pointer: at });
    } else if (med.match === 'unrecognised') {
      flags.push({ code: 'UNRECOGNISED_DRUG', message: `'${med.heard ?? med.name}' is not in the formulary — check the name.`, pointer: at });
    }
    const k = med.match === 'unrecognised' ? undefined : doseKnowledge(med.name);
    const groups = formGroups(med);
    kinds.push(routeKind(groups, k));
    if (k) {
      // "Units" of a drug measured in international units are IU.
      if (med.strength?.unit === 'unit' && unitsOf(k, groups).includes('IU') && !unitsOf(k, groups).includes('unit')) med.strength = { ...med.strength, unit: 'IU' };
      const s = checkStrength(med, k, groups);
      if (s.strength) med.strength = s.strength;
      if (s.flag) flags.push({ ...s.flag, pointer: `${at}/strength` });
      // A strength heard without its unit is flagged as such below, which already asks to check the number.
      const unusual = !s.flag && !isChild && !unitNotSaid(med) ? unusualStrength(med, k, groups) : undefined;
      if (unusual) flags.push({ ...unusual, pointer: `${at}/strength` });
      const doseFlag = !s.flag && med.dose ? overDose(med, med.dose, k) : undefined;
      if (doseFlag) flags.push({ ...doseFlag, pointer: `${at}/dose` });
      const single = !s.flag && !unusual && !doseFlag && s.usable ? aboveMostAtOnce(med, k, groups) : undefined;
      if (single) flags.push({ ...single, pointer: `${at}/strength` });
      const daily = checkDaily(med, s.usable ? med.strength : undefined, k, groups, child);
      if (daily) flags.push({ ...daily, pointer: at });
    }
    const unit = flags.some((f) => f.pointer === `${at}/strength`) ? undefined : unitNotSaid(med);
    if (unit) flags.push({ ...unit, pointer: `${at}/strength` });
    const missing = strengthMissing(med, groups);
    if (missing) flags.push({ ...missing, pointer: `${at}/strength` });
    const unclear = statusUnclear(med);
    if (unclear) flags.push({ ...unclear, pointer: at });
    const conflict = flags.some((f) => f.pointer === `${at}/strength`) ? undefined : strengthConflict(med);
    if (conflict) flags.push({ ...conflict, pointer: `${at}/strength` });
    const volume = liquidVolumeFlag(med);
    if (volume) flags.push({ ...volume, pointer: `${at}/dose` });
    const counted = countedDoseFlag(med);
    if (counted) flags.push({ ...counted, pointer: `${at}/dose` });
    for (const allergy of allergies) {
      const hit = med.match === 'unrecognised' ? null : allergyHit(allergy.text, med.name);
      if (!hit) continue;
      const message = hit.caution
        ? `${med.name}: ${hit.reason}; ${allergy.where} records an allergy to ${allergy.text} — check.`
        : `${med.name} conflicts with the allergy to ${allergy.text} in ${allergy.where} (${hit.reason}) — check.`;
      flags.push({ code: 'ALLERGY_CONFLICT', message, pointer: at });
      break;
    }
    return med;
  });
  flags.push(...duplicateFlags(medications, kinds));
  return { medications, flags };
}
