import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authenticate, requireScope } from '../http/auth.js';
import { DrEnvelope, drErrors, drOk, security } from '../http/dr.js';
import { formatMobile } from '../patients/mobile.js';
import { fullName } from '../patients/service.js';
import type { Service } from '../service.js';
import {
  AppointmentDetail, AppointmentParams, BookBody, ChangeStatusBody, DayList, DayQuery, OptionalPartnerQuery,
  RequiredPartnerQuery, StatusChangeResult,
} from './schemas.js';
import type { AppointmentListRow, AppointmentRow } from './store.js';

const byPartner = (partnerId: string | undefined) => partnerId === '1';

const toAppointment = (a: AppointmentRow) => ({
  appointment_id: a.id,
  partner_appointment_id: a.partner_appointment_id,
  patient_id: a.patient_id,
  doctor_id: a.doctor_id,
  scheduled_at: a.scheduled_at,
  date: a.local_date,
  reason: a.reason,
  status: a.status,
  created_at: a.created_at,
  updated_at: a.updated_at,
});

const toDayEntry = (a: AppointmentListRow) => ({
  ...toAppointment(a),
  patient_name: fullName(a),
  patient_mobile: formatMobile({ cc: a.mobile_cc, national: a.mobile_national }),
});

/** Endpoints 2 and 3, and booking, reading and listing appointments. */
export const appointmentRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  const { audit, appointments } = service;
  app.addHook('onRequest', authenticate(service));
  const change = requireScope('appointments:write', 'COMPLETE_NOT_ALLOWED', audit, 'appointment.write');
  const read = requireScope('appointments:read', 'UNAUTHORIZED_ACCESS', audit, 'appointment.read');

  app.post('/dr/v1/appointment/:appointment_id/parked', {
    config: { errors: 'dr-bare' },
    preHandler: change,
    schema: {
      operationId: 'parkAppointment',
      tags: ['appointments'],
      summary: 'Park an appointment',
      description: 'Allowed from BK, CK and OG; parking a parked appointment changes nothing. Any request body is ignored.',
      security,
      params: AppointmentParams,
      querystring: OptionalPartnerQuery,
      response: { 204: Type.Null({ description: 'Parked' }), ...drErrors('bare', [400, 401, 403, 404, 500]) },
    },
  }, async (request, reply) => {
    appointments.park(request.ctx, request.params.appointment_id, byPartner(request.query.partner_id));
    return reply.code(204).send(null);
  });

  app.post('/dr/v1/appointment/:appointment_id/change-status', {
    config: { errors: 'dr-bare' },
    preHandler: change,
    schema: {
      operationId: 'changeAppointmentStatus',
      tags: ['appointments'],
      summary: 'Change an appointment\'s status (NS marks a no-show)',
      description: 'NS from BK, CK, PK; CK from BK, NS, PK; OG from BK, CK, PK; CM from CK, OG, PK; CN from BK, CK, PK. '
        + 'Setting the current status again changes nothing. Reception users may not set OG or CM.',
      security,
      params: AppointmentParams,
      querystring: RequiredPartnerQuery,
      body: ChangeStatusBody,
      response: { 200: DrEnvelope(StatusChangeResult), ...drErrors('bare', [400, 401, 403, 404, 500]) },
    },
  }, async (request, reply) => {
    const partner = byPartner(request.query.partner_id);
    const r = appointments.changeStatus(request.ctx, request.params.appointment_id, partner, request.body.status);
    return drOk(reply, 200, {
      // The interface's appointment_id is the id the caller addressed it by: the partner's when partner_id is 1.
      appointment_id: partner ? request.params.appointment_id : r.appointment.id,
      partner_appointment_id: r.appointment.partner_appointment_id,
      status: r.appointment.status,
      previous_status: r.previous_status,
    });
  });

  app.post('/dr/v1/appointment', {
    config: { errors: 'dr-envelope' },
    preHandler: change,
    schema: {
      operationId: 'bookAppointment',
      tags: ['appointments'],
      summary: 'Book an appointment (status BK)',
      security,
      body: BookBody,
      response: { 201: DrEnvelope(AppointmentDetail), ...drErrors('envelope', [400, 401, 403, 404, 409, 500]) },
    },
  }, async (request, reply) => {
    const { appointment, history } = appointments.book(request.ctx, request.body);
    return drOk(reply, 201, { ...toAppointment(appointment), status_history: history });
  });

  app.get('/dr/v1/appointment/:appointment_id', {
    config: { errors: 'dr-envelope' },
    preHandler: read,
    schema: {
      operationId: 'getAppointment',
      tags: ['appointments'],
      summary: 'Get an appointment with its status history',
      security,
      params: AppointmentParams,
      querystring: OptionalPartnerQuery,
      response: { 200: DrEnvelope(AppointmentDetail), ...drErrors('envelope', [401, 403, 404, 500]) },
    },
  }, async (request, reply) => {
    const { appointment, history } = appointments.get(request.ctx, request.params.appointment_id, byPartner(request.query.partner_id));
    return drOk(reply, 200, { ...toAppointment(appointment), status_history: history });
  });

  app.get('/dr/v1/appointments', {
    config: { errors: 'dr-envelope' },
    preHandler: read,
    schema: {
      operationId: 'listDayAppointments',
      tags: ['appointments'],
      summary: 'List a day\'s appointments, in time order',
      security,
      querystring: DayQuery,
      response: { 200: DrEnvelope(DayList), ...drErrors('envelope', [400, 401, 403, 500]) },
    },
  }, async (request, reply) => {
    const { date, rows } = appointments.day(request.ctx, request.query.date);
    return drOk(reply, 200, { date, appointments: rows.map(toDayEntry) });
  });
};
