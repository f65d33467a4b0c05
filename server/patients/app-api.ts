import { Type } from 'typebox';
import { arg, appMethod } from '../shared/app-method.js';
import { fromEntry } from './app-shapes.js';
import { CreatePatientBody, PatientParams, PatientProfile, SearchQuery, UpdatePatientBody } from './schemas.js';
import { toEntry } from './service.js';
import type { PatientRow } from './store.js';

/** The patient as the app shows it (app-shapes.ts): the interface's profile, flattened, with `id`. */
const { patient_id: _entryId, ...profile } = PatientProfile.properties;
export const PatientSchema = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'First, middle and last name joined' }),
  ...profile,
});

/** The first 500 patients (oldest first) whose mobile needs a correction, each with the problem in words; total counts all. */
export const MobileReviewSchema = Type.Object({
  patients: Type.Array(Type.Object({ ...PatientSchema.properties, problem: Type.String() })),
  total: Type.Integer(),
});

const toPatient = (r: PatientRow) => fromEntry(toEntry(r));
const patientId = arg('patientId', PatientParams.properties.patient_id);

/** The front desk's patient methods (server/shared/app-method.ts). */
export const patientMethods = {
  searchPatients: appMethod({
    args: [arg('mobile', SearchQuery.properties.mobile)], result: Type.Array(PatientSchema), access: 'patients:read',
    run: async (c, mobile) => (await c.service.patients.search(c.ctx, mobile)).map(toPatient),
  }),
  getPatient: appMethod({
    args: [patientId], result: PatientSchema, access: 'patients:read',
    run: async (c, id) => toPatient(await c.service.patients.get(c.ctx, id)),
  }),
  createPatient: appMethod({
    args: [arg('input', CreatePatientBody)], result: PatientSchema, access: 'patients:write',
    run: async (c, input) => toPatient(await c.service.patients.create(c.ctx, input)),
  }),
  updatePatient: appMethod({
    args: [patientId, arg('patch', UpdatePatientBody)], result: PatientSchema, access: 'patients:write',
    run: async (c, id, patch) => toPatient(await c.service.patients.update(c.ctx, id, patch)),
  }),
  /** Admins: patients whose stored mobile breaks the mobile rule (search cannot find them), for correction. */
  mobileReview: appMethod({
    args: [], result: MobileReviewSchema, access: 'admin',
    async run(c) {
      const { items, total } = await c.service.patients.mobileReview(c.ctx);
      return { patients: items.map((i) => ({ ...toPatient(i.patient), problem: i.problem })), total };
    },
  }),
};
