import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';

/**
 * Reads a patient-search answer in either shape the interface describes: the implemented one (`data.profiles`,
 * `gender`) and the formally declared one (`data.patients`, `gen`, plus `clinic_id`, `is_recent`, `email`).
 * Integrators and our own UI use it so that either kind of server works.
 */

const ProfilesShape = Type.Object({
  data: Type.Object({
    profiles: Type.Array(Type.Object({
      name: Type.String(),
      patient_id: Type.Union([Type.String(), Type.Null()]),
      patient_profile: Type.Object({
        patient_id: Type.Union([Type.String(), Type.Null()]),
        first_name: Type.String(),
        middle_name: Type.String(),
        last_name: Type.String(),
        dob: Type.String(),
        gender: Type.String(),
        mobile: Type.String(),
        created_at: Type.String(),
        email: Type.Optional(Type.String()),
      }),
    })),
  }),
});

const PatientsShape = Type.Object({
  data: Type.Object({
    patients: Type.Array(Type.Object({
      patient_id: Type.String(),
      name: Type.String(),
      clinic_id: Type.Union([Type.String(), Type.Null()]),
      is_recent: Type.Optional(Type.Boolean()),
      patient_profile: Type.Object({
        patient_id: Type.String(),
        first_name: Type.String(),
        middle_name: Type.String(),
        last_name: Type.String(),
        dob: Type.String(),
        email: Type.String(),
        gen: Type.String(),
        mobile: Type.String(),
        created_at: Type.String(),
      }),
    })),
  }),
});

export interface PatientMatch {
  patient_id: string | null;
  name: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  dob: string;
  gender: string;
  mobile: string;
  email: string | null;
  created_at: string;
  clinic_id: string | null;
  is_recent: boolean | null;
}

export class UnrecognisedSearchResult extends Error {}

export function parsePatientSearch(body: unknown): PatientMatch[] {
  if (Value.Check(ProfilesShape, body)) {
    return (body as Static<typeof ProfilesShape>).data.profiles.map(({ name, patient_id, patient_profile: p }) => ({
      patient_id: patient_id ?? p.patient_id, name, first_name: p.first_name, middle_name: p.middle_name,
      last_name: p.last_name, dob: p.dob, gender: p.gender, mobile: p.mobile, email: p.email || null,
      created_at: p.created_at, clinic_id: null, is_recent: null,
    }));
  }
  if (Value.Check(PatientsShape, body)) {
    return (body as Static<typeof PatientsShape>).data.patients.map(({ name, patient_id, clinic_id, is_recent, patient_profile: p }) => ({
      patient_id, name, first_name: p.first_name, middle_name: p.middle_name, last_name: p.last_name, dob: p.dob,
      gender: p.gen, mobile: p.mobile, email: p.email || null, created_at: p.created_at, clinic_id,
      is_recent: is_recent ?? null,
    }));
  }
  throw new UnrecognisedSearchResult('The search answer has neither data.profiles nor data.patients in the documented form');
}
