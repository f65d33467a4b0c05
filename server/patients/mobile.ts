import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/*
 * The mobile rule, shared by the service (HTTP, IPC, MCP) and the register form (before submit): a patient's mobile
 * must be one the 10-digit search can find and the clinic can call. The 'mobile' metadata of libphonenumber-js
 * knows only mobile number ranges, so "valid" there means "a mobile", not a landline.
 */

export interface Mobile {
  /** Country calling code digits, e.g. "91". */
  cc: string;
  /** National significant number, e.g. "9876543210": what search by 10 digits matches. */
  national: string;
}

export type MobileCheck = { ok: true; mobile: Mobile } | { ok: false; reason: string };

/**
 * Mobile plans that we state ourselves instead of taking libphonenumber's list of allocated ranges: India's
 * numbering plan gives mobiles 10 digits starting 6-9, and libphonenumber's ranges lag new series (it refuses about
 * 15% of such numbers today), which would turn away real patients.
 */
const PLANS: Record<string, { cc: string; pattern: RegExp; says: string }> = {
  IN: { cc: '91', pattern: /^[6-9][0-9]{9}$/, says: 'An Indian mobile number has 10 digits and starts with 6, 7, 8 or 9' },
};
const planOfCc = (cc: string) => Object.values(PLANS).find((p) => p.cc === cc);

const regionName = (region: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(region) ?? region;
  } catch {
    return region;
  }
};

const digitCount = (s: string) => s.replace(/\D/g, '').length;

const planRefusal = (plan: (typeof PLANS)[string], text: string, national: string, after = '') => {
  const n = national.length;
  return `${plan.says}; ${text} ${n === 10 ? 'does not' : `has ${n} digit${n === 1 ? '' : 's'}${after}`}.`;
};

/**
 * Reads a mobile number as staff or an integration types it and says whether it is acceptable: either national in
 * the clinic's country (`country`, ISO 3166; India: "98765 43210", "098765 43210", "+91 98765 43210", "91 98765
 * 43210") or explicitly international (a leading +) and a mobile by libphonenumber. Spaces, dots, dashes and
 * brackets are ignored. A refusal carries a sentence a receptionist can act on.
 */
export function checkMobile(input: string, country: string): MobileCheck {
  const text = input.trim();
  if (!text) return { ok: false, reason: 'Enter the mobile number.' };
  if (!/^\+?[0-9 ().-]+$/.test(text)) return { ok: false, reason: 'A mobile number has only digits, with an optional + and country code in front.' };
  const international = text.startsWith('+');
  const phone = parsePhoneNumberFromString(text, international ? undefined : (country as CountryCode));
  const own = PLANS[country];
  if (!international && own) {
    const national = text.replace(/\D/g, '').replace(new RegExp(`^(?:0|${own.cc})(?=[0-9]{10}$)`), '');
    if (own.pattern.test(national)) return { ok: true, mobile: { cc: own.cc, national } };
    return { ok: false, reason: `${planRefusal(own, text, national)} For a number from another country, start with + and the country code.` };
  }
  const plan = phone ? planOfCc(phone.countryCallingCode) : undefined;
  if (phone && plan) {
    if (plan.pattern.test(phone.nationalNumber)) return { ok: true, mobile: { cc: plan.cc, national: phone.nationalNumber } };
    return { ok: false, reason: planRefusal(plan, text, phone.nationalNumber, ` after +${plan.cc}`) };
  }
  if (phone?.isValid()) return { ok: true, mobile: { cc: phone.countryCallingCode, national: phone.nationalNumber } };
  if (!international) {
    return { ok: false, reason: `${text} is not a mobile number in ${regionName(country)}. For a number from another country, start with + and the country code.` };
  }
  const where = phone?.country ? ` for ${regionName(phone.country)}` : '';
  return { ok: false, reason: `${text} is not a mobile number${where} (${digitCount(text)} digits with the country code). Check the number with the patient.` };
}

/** What the 10-digit search should do with what staff have typed so far (mobileToSearch). */
export type MobileSearch =
  /** Search these 10 digits; `mayGrow` when the typing could still be a longer number in front of them ("91…"). */
  | { digits: string; mayGrow: boolean }
  /** Not complete yet: `missing` digits to go, or null when the count depends on a foreign country code. */
  | { missing: number | null }
  /** It can never be a mobile: why, as checkMobile says it. */
  | { reason: string };

/**
 * Reads a search box's text as checkMobile reads a mobile, so "+91 98765 43210", "91 98765 43210", "098765 43210"
 * and "98765 43210" all search 9876543210, whether pasted or typed digit by digit: the prefix typed so far says how
 * many digits the number will have, and nothing is searched before that many are there. Only "91" without a +
 * stays ambiguous at 10 digits (9198765432 is a mobile too), hence `mayGrow`.
 */
export function mobileToSearch(input: string, country: string): MobileSearch {
  const text = input.trim();
  const digits = text.replace(/\D/g, '');
  const own = PLANS[country];
  const found = (): MobileSearch => {
    const c = checkMobile(text, country);
    if (!c.ok) return { reason: c.reason };
    return c.mobile.national.length === 10 ? { digits: c.mobile.national, mayGrow: false } : { reason: `${text} is not a number the 10-digit search can find.` };
  };
  if (!own) return checkMobile(text, country).ok ? found() : { missing: null };
  const international = text.startsWith('+');
  // A + then anything but the clinic's own code (or the start of it) is a foreign number of unknown length.
  if (international && !(digits.startsWith(own.cc) || own.cc.startsWith(digits))) return checkMobile(text, country).ok ? found() : { missing: null };
  const typedCc = international || (digits.startsWith(own.cc) && digits.length > 10);
  const needed = typedCc ? own.cc.length + 10 : digits.startsWith('0') ? 11 : 10;
  if (digits.length < needed) return { missing: needed - digits.length };
  const r = found();
  return 'digits' in r ? { ...r, mayGrow: !international && digits.length === 10 && digits.startsWith(own.cc) } : r;
}

export const formatMobile = (m: Mobile) => `+${m.cc}${m.national}`;
