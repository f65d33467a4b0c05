import { type Static, Type } from 'typebox';
import { Line, Name as NameLine } from '../shared/text.js';

const Name = (description: string) => NameLine({ minLength: 1, maxLength: 100, notBlank: true, description });

export const PatientProfile = Type.Object({
  patient_id: Type.Union([Type.String(), Type.Null()]),
  first_name: Type.String(),
  middle_name: Type.String({ description: 'May be empty' }),
  last_name: Type.String(),
  dob: Type.String({ description: 'Date of birth, YYYY-MM-DD' }),
  dob_estimated: Type.Boolean({ description: 'true when dob was estimated from an age given at registration (docs/API.md, Patient records)' }),
  gender: Type.Union([Type.Literal('M'), Type.Literal('F'), Type.Literal('O')]),
  mobile: Type.String({ description: 'International form: plus sign, country code, number' }),
  email: Type.String({ description: 'Empty when not known' }),
  created_at: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
  allergies: Type.Array(Type.String(), {
    description: 'Allergies in the patient\'s record, as written; [] when none are recorded. Ours, additive (docs/API.md, Patient records): '
      + 'the scribe checks the prescriptions of this patient\'s dictations against them',
  }),
});

export const PatientEntry = Type.Object({
  name: Type.String({ description: 'First, middle and last name joined by single spaces' }),
  patient_id: Type.Union([Type.String(), Type.Null()]),
  patient_profile: PatientProfile,
});
export type PatientEntry = Static<typeof PatientEntry>;

export const MobileReview = Type.Object({
  data: Type.Array(Type.Object({ ...PatientEntry.properties, problem: Type.String({ description: 'What is wrong with the mobile, in words' }) })),
  total: Type.Integer({ description: 'How many patients need a correction (data holds the first 500)' }),
});

export const SearchQuery = Type.Object({
  mobile: Type.String({ pattern: '^[0-9]{10}$', description: 'Exactly 10 digits; partial numbers are not searchable' }),
});

const dob = Type.String({ format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });
// An age instead of a date of birth, as Indian OPDs often know only "45 years" (months for infants under 2).
const age_years = Type.Integer({ minimum: 2, maximum: 130, description: 'Age in whole years instead of dob; stored as an estimated dob' });
const age_months = Type.Integer({ minimum: 0, maximum: 23, description: 'Age in months for an infant under 2, instead of dob' });
const gender = Type.Union([Type.Literal('M'), Type.Literal('F'), Type.Literal('O')]);
// The mobile rule itself (mobile.ts) needs libphonenumber, so it runs in the service and says what is wrong in words.
const mobile = Type.String({
  minLength: 1, maxLength: 32,
  description: 'A mobile of the clinic\'s country (India: 10 digits starting 6-9, with or without +91 or 0), or + and country code for a mobile of another country',
});
const email = Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], { description: 'Empty clears it' });

export const CreatePatientBody = Type.Object({
  first_name: Name('Given name'),
  middle_name: Type.Optional(NameLine({ maxLength: 100 })),
  last_name: Name('Family name'),
  dob: Type.Optional(dob),
  age_years: Type.Optional(age_years),
  age_months: Type.Optional(age_months),
  gender,
  mobile,
  email: Type.Optional(email),
  allergies: Type.Optional(Type.Array(Line({ minLength: 1, maxLength: 100, notBlank: true }), {
    maxItems: 20, description: 'Drugs, classes or substances the patient is allergic to ("penicillin", "sulfa drugs"); on update the whole list, [] clears it',
  })),
}, { description: 'Exactly one of dob, age_years and age_months' });
export type CreatePatientBody = Static<typeof CreatePatientBody>;

export const UpdatePatientBody = Type.Partial(CreatePatientBody, { minProperties: 1 });
export type UpdatePatientBody = Static<typeof UpdatePatientBody>;

export const PatientParams = Type.Object({ patient_id: Type.String({ minLength: 1, maxLength: 64 }) });
