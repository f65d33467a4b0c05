import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { z } from 'zod';
import { DrEnvelope, drErrorBody, drErrors, security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { arg } from '../shared/app-method.js';
import { invalid } from '../shared/errors.js';
import { guard, operation } from '../shared/operation.js';
import { type Violation, violationMessage } from '../shared/violations.js';
import { fromEntry } from './app-shapes.js';
import { CreatePatientBody, MobileReview, PatientEntry, PatientParams, PatientProfile, SearchQuery, UpdatePatientBody } from './schemas.js';
import { toEntry } from './service.js';
import type { PatientRow } from './store.js';

/**
 * The patients domain's operations, each declared once (server/shared/operation.ts): endpoint 1 and the patient
 * record routes (dr envelope), the admins' list of patients whose mobile needs correcting, the front desk's app
 * methods and the assistants' patient tools. The order is the routes' (and the OpenAPI document's).
 */

const read = guard('patients:read', { code: 'UNAUTHORIZED_ACCESS', audit: 'patient.read' });
const write = guard('patients:write', { code: 'UNAUTHORIZED_ACCESS', audit: 'patient.write' });

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

const NO_PATIENTS = drErrorBody('envelope', {
  status: 404, code: 'PATIENTS_NOT_FOUND', message: 'No patients found with the provided mobile number',
});

// ---- the MCP tools' shapes ------------------------------------------------------------------------------------

const ToolPatient = z.object({
  patient_id: z.string(),
  name: z.string(),
  first_name: z.string(),
  middle_name: z.string(),
  last_name: z.string(),
  dob: z.string().describe('YYYY-MM-DD'),
  dob_estimated: z.boolean().describe('true when dob was estimated from an age (1 July of the year; the 15th of the month for an infant)'),
  gender: z.enum(['M', 'F', 'O']),
  mobile: z.string().describe('International form, e.g. +919876543210'),
  email: z.string(),
  allergies: z.array(z.string()).describe("Allergies in the patient's record; [] when none are recorded"),
  created_at: z.string(),
});

// The app's flat patient (app-shapes.ts), named by patient_id as every tool names its ids.
function toolPatient(r: PatientRow): z.infer<typeof ToolPatient> {
  const { id, ...p } = toPatient(r);
  return { patient_id: id, ...p };
}

// The HTTP route's schema checks the tool's arguments, so names, dates and email follow the same rules everywhere.
const createBody = Compile(CreatePatientBody);

// ---- the operations -------------------------------------------------------------------------------------------

export const patientOperations = {
  searchPatients: operation({
    access: read,
    run: ({ service, ctx }, mobile: string) => service.patients.search(ctx, mobile),
    route: {
      method: 'GET', url: '/dr/v1/business/patients/search', errors: 'dr-envelope',
      schema: {
        operationId: 'searchPatientsByMobile',
        tags: ['patients'],
        summary: 'Search patient profiles by 10-digit mobile number',
        description: 'Matches the national number of each patient\'s mobile; families sharing a number are all returned, newest first.',
        security,
        querystring: SearchQuery,
        response: {
          200: DrEnvelope(Type.Object({ profiles: Type.Array(PatientEntry) })),
          ...drErrors('envelope', [400, 401, 403, 404, 500]),
        },
      },
      input: (request) => request.query.mobile,
      status: 200,
      // A number nobody has is an everyday answer, not a failure: sent as it stands rather than thrown through the
      // error handler (an Error's stack trace and the handler cost as much as the search itself).
      refuse: (rows) => (rows.length === 0 ? { status: 404, body: NO_PATIENTS } : null),
      body: (rows) => ({ profiles: rows.map(toEntry) }),
    },
    app: {
      args: [arg('mobile', SearchQuery.properties.mobile)], result: Type.Array(PatientSchema), input: (mobile) => mobile,
      output: (rows) => rows.map(toPatient), inTransport: true,
    },
    tool: {
      name: 'search_patients_by_mobile',
      title: 'Search patients by mobile number',
      description: 'Find the clinic\'s patients registered with a 10-digit mobile number (without country code). Families often '
        + 'share a number, so several patients may come back, newest first. An empty list means nobody is registered with it.',
      input: { mobile: z.string().regex(/^[0-9]{10}$/, 'mobile must be exactly 10 digits, without country code or spaces').describe('Exactly 10 digits, e.g. 9876543210') },
      output: { mobile: z.string(), count: z.number().int(), patients: z.array(ToolPatient) },
      readOnly: true,
      idempotent: true,
      toInput: ({ mobile }) => mobile,
      toOutput: (rows, { mobile }) => ({ mobile, count: rows.length, patients: rows.map(toolPatient) }),
    },
  }),

  createPatient: operation({
    access: write,
    run: ({ service, ctx }, input: CreatePatientBody) => service.patients.create(ctx, input),
    route: {
      method: 'POST', url: '/dr/v1/patient', errors: 'dr-envelope',
      schema: {
        operationId: 'createPatient',
        tags: ['patients'],
        summary: 'Register a patient',
        description: '409 PATIENT_ALREADY_EXISTS when a patient with the same mobile, first and last name and date of birth exists.',
        security,
        body: CreatePatientBody,
        response: { 201: DrEnvelope(PatientEntry), ...drErrors('envelope', [400, 401, 403, 409, 500]) },
      },
      input: (request) => request.body,
      status: 201,
      body: toEntry,
    },
    app: { args: [arg('input', CreatePatientBody)], result: PatientSchema, input: (input) => input, output: toPatient, inTransport: true },
    tool: {
      name: 'register_patient',
      title: 'Register a patient',
      description: 'Register a new patient of the clinic. Give the date of birth, or when it is not known an age: age_years (2 or more) '
        + 'or age_months for a baby under 2; the service then stores an estimated date of birth (1 July of the year, the 15th of '
        + 'the month for a baby) and marks it dob_estimated. The mobile must be one the clinic can search: for an Indian clinic 10 '
        + 'digits starting 6-9 (a +91 or 0 in front is fine), or + and the country code for a mobile of another country. A refusal '
        + 'names the field and says what is wrong; PATIENT_ALREADY_EXISTS means the same mobile, name and date of birth is registered.',
      input: {
        first_name: z.string().describe('Given name'),
        middle_name: z.string().optional(),
        last_name: z.string().describe('Family name'),
        dob: z.string().optional().describe('Date of birth, YYYY-MM-DD'),
        age_years: z.number().int().optional().describe('Age in years, instead of dob (2 or more)'),
        age_months: z.number().int().optional().describe('Age in months for a baby under 2, instead of dob'),
        gender: z.enum(['M', 'F', 'O']),
        mobile: z.string().describe('e.g. 9876543210, +91 98765 43210, or +44 7911 123456'),
        email: z.string().optional(),
      },
      output: ToolPatient.shape,
      readOnly: false,
      idempotent: false,
      toInput: (args) => {
        if (!createBody.Check(args)) throw invalid(violationMessage('input', [...createBody.Errors(args)] as Violation[]));
        return args;
      },
      toOutput: toolPatient,
    },
  }),

  getPatient: operation({
    access: read,
    run: ({ service, ctx }, id: string) => service.patients.get(ctx, id),
    route: {
      method: 'GET', url: '/dr/v1/patient/:patient_id', errors: 'dr-envelope',
      schema: {
        operationId: 'getPatient',
        tags: ['patients'],
        summary: 'Get a patient',
        security,
        params: PatientParams,
        response: { 200: DrEnvelope(PatientEntry), ...drErrors('envelope', [401, 403, 404, 500]) },
      },
      input: (request) => request.params.patient_id,
      status: 200,
      body: toEntry,
    },
    app: { args: [patientId], result: PatientSchema, input: (id) => id, output: toPatient },
  }),

  updatePatient: operation({
    access: write,
    run: ({ service, ctx }, u: { id: string; patch: UpdatePatientBody }) => service.patients.update(ctx, u.id, u.patch),
    route: {
      method: 'PATCH', url: '/dr/v1/patient/:patient_id', errors: 'dr-envelope',
      schema: {
        operationId: 'updatePatient',
        tags: ['patients'],
        summary: 'Update a patient',
        description: 'Send only the fields that change.',
        security,
        params: PatientParams,
        body: UpdatePatientBody,
        response: { 200: DrEnvelope(PatientEntry), ...drErrors('envelope', [400, 401, 403, 404, 409, 500]) },
      },
      input: (request) => ({ id: request.params.patient_id, patch: request.body }),
      status: 200,
      body: toEntry,
    },
    app: { args: [patientId, arg('patch', UpdatePatientBody)], result: PatientSchema, input: (id, patch) => ({ id, patch }), output: toPatient },
  }),

  /** Admins: patients whose stored mobile breaks the mobile rule (search cannot find them), for correction. */
  mobileReview: operation({
    access: guard('admin', { code: 'FORBIDDEN', audit: 'patient.mobile_review' }),
    run: ({ service, ctx }, _input: undefined) => service.patients.mobileReview(ctx),
    route: {
      method: 'GET', url: '/api/v1/patients/mobile-review', errors: 'plain',
      schema: {
        operationId: 'listPatientsWithBadMobiles',
        tags: ['patients'],
        summary: 'Patients whose mobile breaks the mobile rule, for correction (admins)',
        description: 'Registered before the rule or imported: search cannot find them, or the number is not a mobile. Oldest first, '
          + 'up to 500, with the total. Correct each with PATCH /dr/v1/patient/{patient_id}; nothing is changed here.',
        security,
        response: { 200: MobileReview, ...plainErrors([401, 403, 500]) },
      },
      input: () => undefined,
      status: 200,
      body: ({ items, total }) => ({ data: items.map((i) => ({ ...toEntry(i.patient), problem: i.problem })), total }),
    },
    app: {
      args: [], result: MobileReviewSchema, input: () => undefined,
      output: ({ items, total }) => ({ patients: items.map((i) => ({ ...toPatient(i.patient), problem: i.problem })), total }),
    },
  }),
};
