import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';

export interface Mobile {
  /** Country calling code digits, e.g. "91". */
  cc: string;
  /** National significant number, e.g. "9876543210": what search by 10 digits matches. */
  national: string;
}

/**
 * Reads a mobile number as staff or an integration types it: international ("+91 98765 43210") or national
 * ("98765 43210", "098765 43210") in the clinic's country. Returns null for anything that cannot be a phone
 * number. Possibility (length) is checked, not allocation ranges, so new number series are not refused.
 */
export function parseMobile(input: string, defaultCountry: string): Mobile | null {
  const phone = parsePhoneNumberFromString(input, defaultCountry as CountryCode);
  if (!phone || !phone.isPossible()) return null;
  return { cc: phone.countryCallingCode, national: phone.nationalNumber };
}

export const formatMobile = (m: Mobile) => `+${m.cc}${m.national}`;
