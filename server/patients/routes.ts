import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Service } from '../service.js';
import { authenticate, requireScope } from '../http/auth.js';
import { DrEnvelope, drErrorBody, drErrors, drOk, security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { CreatePatientBody, MobileReview, PatientEntry, PatientParams, SearchQuery, UpdatePatientBody } from './schemas.js';
import { toEntry } from './service.js';


const NO_PATIENTS = drErrorBody('envelope', {
  status: 404, code: 'PATIENTS_NOT_FOUND', message: 'No patients found with the provided mobile number',
});

/** Endpoint 1 and the patient record endpoints a front desk and integrations need, all in the dr envelope. */
export const patientRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  const { audit, patients } = service;
  app.addHook('onRequest', authenticate(service));
  const config = { errors: 'dr-envelope' as const };
  const read = requireScope('patients:read', 'UNAUTHORIZED_ACCESS', audit, 'patient.read');
  const write = requireScope('patients:write', 'UNAUTHORIZED_ACCESS', audit, 'patient.write');

  app.get('/dr/v1/business/patients/search', {
    config,
    preParsing: read,
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
  }, async (request, reply) => {
    const rows = await patients.search(request.ctx, request.query.mobile);
    // A number nobody has is an everyday answer, not a failure: sent as it stands rather than thrown through the
    // error handler (an Error's stack trace and the handler cost as much as the search itself). The type
    // provider types a reply by the 200 schema only, hence the plain FastifyReply.
    if (rows.length === 0) return (reply as FastifyReply).code(404).send(NO_PATIENTS);
    return drOk(reply, 200, { profiles: rows.map(toEntry) });
  });

  app.post('/dr/v1/patient', {
    config,
    preParsing: write,
    schema: {
      operationId: 'createPatient',
      tags: ['patients'],
      summary: 'Register a patient',
      description: '409 PATIENT_ALREADY_EXISTS when a patient with the same mobile, first and last name and date of birth exists.',
      security,
      body: CreatePatientBody,
      response: { 201: DrEnvelope(PatientEntry), ...drErrors('envelope', [400, 401, 403, 409, 500]) },
    },
  }, async (request, reply) => drOk(reply, 201, toEntry(await patients.create(request.ctx, request.body))));

  app.get('/dr/v1/patient/:patient_id', {
    config,
    preParsing: read,
    schema: {
      operationId: 'getPatient',
      tags: ['patients'],
      summary: 'Get a patient',
      security,
      params: PatientParams,
      response: { 200: DrEnvelope(PatientEntry), ...drErrors('envelope', [401, 403, 404, 500]) },
    },
  }, async (request, reply) => drOk(reply, 200, toEntry(await patients.get(request.ctx, request.params.patient_id))));

  app.patch('/dr/v1/patient/:patient_id', {
    config,
    preParsing: write,
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
  }, async (request, reply) =>
    drOk(reply, 200, toEntry(await patients.update(request.ctx, request.params.patient_id, request.body))));

  app.get('/api/v1/patients/mobile-review', {
    config: { errors: 'plain' },
    preParsing: requireScope('admin', 'FORBIDDEN', audit, 'patient.mobile_review'),
    schema: {
      operationId: 'listPatientsWithBadMobiles',
      tags: ['patients'],
      summary: 'Patients whose mobile breaks the mobile rule, for correction (admins)',
      description: 'Registered before the rule or imported: search cannot find them, or the number is not a mobile. Oldest first, '
        + 'up to 500, with the total. Correct each with PATCH /dr/v1/patient/{patient_id}; nothing is changed here.',
      security,
      response: { 200: MobileReview, ...plainErrors([401, 403, 500]) },
    },
  }, async (request) => {
    const { items, total } = await patients.mobileReview(request.ctx);
    return { data: items.map((i) => ({ ...toEntry(i.patient), problem: i.problem })), total };
  });
};
