/*
 * Date of birth, exact or estimated from an age, shared by the service and the register form (so the form can
 * refuse before submit with the service's own sentences). Dates are the clinic's calendar dates, YYYY-MM-DD.
 */

export interface Birth {
  dob: string;
  estimated: boolean;
}

/** What a registration may say about birth: exactly one of the three. */
export interface BirthInput {
  dob?: string;
  age_years?: number;
  age_months?: number;
}

export type BirthCheck = { ok: true; birth: Birth } | { ok: false; field: 'dob' | 'age_years' | 'age_months'; reason: string };

export const EARLIEST_BIRTH_YEAR = 1900;

const pad = (n: number) => String(n).padStart(2, '0');
const parts = (date: string) => date.split('-').map(Number) as [number, number, number];

/**
 * The estimated date of birth for an age: 1 July of (this year - years) for an age in years (the middle of the
 * year), the 15th of the month `months` months ago for an infant's age in months (today, if the 15th is still to
 * come this month).
 */
export function estimateDob(today: string, age: { years: number } | { months: number }): string {
  const [y, m, d] = parts(today);
  if ('years' in age) return `${y - age.years}-07-01`;
  const index = y * 12 + (m - 1) - age.months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return age.months === 0 && d < 15 ? today : `${year}-${pad(month)}-15`;
}

/** Reads the birth fields of a registration (or of an edit that changes them) against the clinic's `today`. */
export function checkBirth(input: BirthInput, today: string): BirthCheck {
  const given = (['dob', 'age_years', 'age_months'] as const).filter((k) => input[k] !== undefined);
  if (given.length === 0) return { ok: false, field: 'dob', reason: 'Enter the date of birth, or the age if the patient does not know it.' };
  if (given.length > 1) return { ok: false, field: given[1]!, reason: 'Give either the date of birth or an age, not both.' };
  if (input.dob !== undefined) {
    const dob = input.dob;
    const date = new Date(`${dob}T00:00:00Z`);
    if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(dob) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== dob) {
      return { ok: false, field: 'dob', reason: `${dob} is not a date on the calendar.` };
    }
    if (dob > today) return { ok: false, field: 'dob', reason: 'The date of birth cannot be in the future.' };
    if (parts(dob)[0] < EARLIEST_BIRTH_YEAR) return { ok: false, field: 'dob', reason: `The year of birth must be ${EARLIEST_BIRTH_YEAR} or later.` };
    return { ok: true, birth: { dob, estimated: false } };
  }
  if (input.age_years !== undefined) {
    const years = input.age_years;
    if (!Number.isInteger(years) || years < 2) {
      return { ok: false, field: 'age_years', reason: 'Give an age in whole years, 2 or more; for a baby under 2, give the age in months.' };
    }
    const dob = estimateDob(today, { years });
    if (parts(dob)[0] < EARLIEST_BIRTH_YEAR) {
      return { ok: false, field: 'age_years', reason: `An age of ${years} years means born before ${EARLIEST_BIRTH_YEAR}: check the age with the patient.` };
    }
    return { ok: true, birth: { dob, estimated: true } };
  }
  const months = input.age_months!;
  if (!Number.isInteger(months) || months < 0 || months > 23) {
    return { ok: false, field: 'age_months', reason: 'Give an age in months from 0 to 23; from 2 years on, give the age in years.' };
  }
  return { ok: true, birth: { dob: estimateDob(today, { months }), estimated: true } };
}

/**
 * The age to show: "45 y", "7 mo". An estimated date counts from the estimated year (or month, for an infant), so a
 * patient registered as 45 shows 45 all that year; an exact date counts birthdays.
 */
export function ageOf(dob: string, estimated: boolean, today: string): string {
  const [y, m, d] = parts(dob);
  const [ty, tm, td] = parts(today);
  const months = (ty - y) * 12 + (tm - m) - (!estimated && td < d ? 1 : 0);
  if (months < 24) return `${Math.max(0, months)} mo`;
  if (estimated && m === 7 && d === 1) return `${ty - y} y`;
  return `${Math.floor(months / 12)} y`;
}
