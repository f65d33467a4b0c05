import { type Static, Type } from 'typebox';
import { Line } from '../shared/text.js';

const Name = (description: string) => Line({ minLength: 1, maxLength: 100, notBlank: true, description });

export const PatientProfile = Type.Object({
  patient_id: Type.Union([Type.String(), Type.Null()]),
  first_name: Type.String(),
  middle_name: Type.String({ description: 'May be empty' }),
  last_name: Type.String(),
  dob: Type.String({ description: 'Date of birth, YYYY-MM-DD' }),
  gender: Type.Union([Type.Literal('M'), Type.Literal('F'), Type.Literal('O')]),
  mobile: Type.String({ description: 'International form: plus sign, country code, number' }),
  email: Type.String({ description: 'Empty when not known' }),
  created_at: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
});

export const PatientEntry = Type.Object({
  name: Type.String({ description: 'First, middle and last name joined by single spaces' }),
  patient_id: Type.Union([Type.String(), Type.Null()]),
  patient_profile: PatientProfile,
});
export type PatientEntry = Static<typeof PatientEntry>;

export const SearchQuery = Type.Object({
  mobile: Type.String({ pattern: '^[0-9]{10}$', description: 'Exactly 10 digits; partial numbers are not searchable' }),
});

const dob = Type.String({ format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });
const gender = Type.Union([Type.Literal('M'), Type.Literal('F'), Type.Literal('O')]);
const mobile = Type.String({
  minLength: 7, maxLength: 24, pattern: '^\\+?[0-9 ()-]+$',
  description: 'International (+91…) or national in the clinic\'s country',
});
const email = Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], { description: 'Empty clears it' });

export const CreatePatientBody = Type.Object({
  first_name: Name('Given name'),
  middle_name: Type.Optional(Line({ maxLength: 100 })),
  last_name: Name('Family name'),
  dob,
  gender,
  mobile,
  email: Type.Optional(email),
});
export type CreatePatientBody = Static<typeof CreatePatientBody>;

export const UpdatePatientBody = Type.Partial(CreatePatientBody, { minProperties: 1 });
export type UpdatePatientBody = Static<typeof UpdatePatientBody>;

export const PatientParams = Type.Object({ patient_id: Type.String({ minLength: 1, maxLength: 64 }) });
