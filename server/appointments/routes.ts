import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authenticate, requireScope } from '../http/auth.js';
import { DrEnvelope, drErrors, drOk, security } from '../http/dr.js';
import type { Service } from '../service.js';
import { toDayEntry } from './app-api.js';
import {
  AppointmentDetail, AppointmentParams, Board, BookBody, CallNextQuery, ChangeStatusBody, DayList, DayQuery, OptionalPartnerQuery,
  RequiredPartnerQuery, StatusChangeResult, UndoResult,
} from './schemas.js';
import { EVERY_CLINIC, type StatusChange, toAppointment } from './service.js';

const byPartner = (partnerId: string | undefined) => partnerId === '1';

/** A live board stream ends after this long and the display reconnects, so a revoked token stops being served. */
const STREAM_MAX_MS = 60 * 60_000;
/** Comment lines keep the stream's connection from looking idle (the server's idle timeout, proxies). */
const HEARTBEAT_MS = 15_000;

/** Endpoints 2 and 3, and booking, reading and listing appointments. */
export const appointmentRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  const { audit, appointments } = service;
  app.addHook('onRequest', authenticate(service));
  const change = requireScope('appointments:write', 'COMPLETE_NOT_ALLOWED', audit, 'appointment.write');
  const read = requireScope('appointments:read', 'UNAUTHORIZED_ACCESS', audit, 'appointment.read');
  const boardRead = requireScope('queue:board', 'UNAUTHORIZED_ACCESS', audit, 'queue.board');
  const changeResult = (partner: boolean, addressedAs: string, r: StatusChange) => ({
    appointment_id: partner ? addressedAs : r.appointment.id,
    partner_appointment_id: r.appointment.partner_appointment_id,
    status: r.appointment.status,
    previous_status: r.previous_status,
    token: r.appointment.token,
  });

  app.post('/dr/v1/appointment/:appointment_id/parked', {
    config: { errors: 'dr-bare' },
    preParsing: change,
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
    await appointments.park(request.ctx, request.params.appointment_id, byPartner(request.query.partner_id));
    return reply.code(204).send(null);
  });

  app.post('/dr/v1/appointment/:appointment_id/change-status', {
    config: { errors: 'dr-bare' },
    preParsing: change,
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
    const r = await appointments.changeStatus(request.ctx, request.params.appointment_id, partner, request.body.status);
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
    preParsing: change,
    schema: {
      operationId: 'bookAppointment',
      tags: ['appointments'],
      summary: 'Book an appointment (status BK)',
      description: 'Refused with 409 SLOT_TAKEN when the doctor has another booked, checked-in, ongoing or parked appointment at an '
        + 'overlapping time, and 409 PATIENT_DOUBLE_BOOKED when the patient has; overbook: true books anyway (recorded). '
        + 'A time more than 5 minutes past is 400 TIME_IN_PAST unless walk_in (booked for now).',
      security,
      body: BookBody,
      response: { 201: DrEnvelope(AppointmentDetail), ...drErrors('envelope', [400, 401, 403, 404, 409, 500]) },
    },
  }, async (request, reply) => {
    const { appointment, history } = await appointments.book(request.ctx, request.body);
    return drOk(reply, 201, { ...toAppointment(appointment), status_history: history });
  });

  app.get('/dr/v1/appointment/:appointment_id', {
    config: { errors: 'dr-envelope' },
    preParsing: read,
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
    const { appointment, history } = await appointments.get(request.ctx, request.params.appointment_id, byPartner(request.query.partner_id));
    return drOk(reply, 200, { ...toAppointment(appointment), status_history: history });
  });

  app.get('/dr/v1/appointments', {
    config: { errors: 'dr-envelope' },
    preParsing: read,
    schema: {
      operationId: 'listDayAppointments',
      tags: ['appointments'],
      summary: 'List a day\'s appointments, in time order',
      security,
      querystring: DayQuery,
      response: { 200: DrEnvelope(DayList), ...drErrors('envelope', [400, 401, 403, 500]) },
    },
  }, async (request, reply) => {
    const { date, rows } = await appointments.day(request.ctx, request.query.date);
    const now = service.clock.now();
    return drOk(reply, 200, { date, appointments: rows.map((a) => toDayEntry(a, now)) });
  });

  app.post('/dr/v1/appointment/:appointment_id/undo', {
    config: { errors: 'dr-envelope' },
    preParsing: change,
    schema: {
      operationId: 'undoAppointmentChange',
      tags: ['appointments'],
      summary: 'Undo the latest check-in, park or no-show (within 10 minutes)',
      description: 'Restores exactly the state before the change (BK included) and records a correction in the history. '
        + '409 NOTHING_TO_UNDO when the latest change is not a check-in, park or no-show (or is itself an undo); '
        + '409 UNDO_WINDOW_PASSED after 10 minutes. Any request body is ignored.',
      security,
      params: AppointmentParams,
      querystring: OptionalPartnerQuery,
      response: { 200: DrEnvelope(UndoResult), ...drErrors('envelope', [400, 401, 403, 404, 409, 500]) },
    },
  }, async (request, reply) => {
    const partner = byPartner(request.query.partner_id);
    const r = await appointments.undo(request.ctx, request.params.appointment_id, partner);
    return drOk(reply, 200, changeResult(partner, request.params.appointment_id, r));
  });

  app.post('/dr/v1/queue/call-next', {
    config: { errors: 'dr-envelope' },
    preParsing: change,
    schema: {
      operationId: 'callNextPatient',
      tags: ['appointments'],
      summary: 'Call the next patient in to the doctor',
      description: 'Moves the doctor\'s checked-in patient with the lowest token today to OG (with the doctor). '
        + '409 NO_PATIENT_WAITING when nobody is checked in for the doctor; 409 PATIENT_WITH_DOCTOR while a patient is still with the doctor, '
        + 'unless current=complete, which marks them done (CM) first; reception users get 403 COMPLETE_NOT_ALLOWED.',
      security,
      querystring: CallNextQuery,
      response: { 200: DrEnvelope(UndoResult), ...drErrors('envelope', [400, 401, 403, 409, 500]) },
    },
  }, async (request, reply) => {
    const r = await appointments.callNext(request.ctx, request.query.doctor_id, request.query.current);
    return drOk(reply, 200, changeResult(false, r.appointment.id, r));
  });

  app.get('/dr/v1/queue/board', {
    config: { errors: 'dr-envelope' },
    preParsing: boardRead,
    schema: {
      operationId: 'queueBoard',
      tags: ['appointments'],
      summary: 'Today\'s waiting-room board: per doctor, the tokens with the doctor now and next (first names only)',
      security,
      response: { 200: DrEnvelope(Board), ...drErrors('envelope', [401, 403, 500]) },
    },
  }, async (request, reply) => drOk(reply, 200, await appointments.board(request.ctx)));

  // Open board streams, ended when the server closes (an open response would otherwise hold close() up).
  const streams = new Set<() => void>();
  app.addHook('preClose', (done) => {
    for (const end of streams) end();
    done();
  });

  app.get('/dr/v1/queue/events', {
    config: { errors: 'dr-envelope' },
    preParsing: boardRead,
    schema: {
      operationId: 'queueBoardEvents',
      tags: ['appointments'],
      summary: 'The board as server-sent events: event "board" at once and after every change of the clinic\'s appointments',
      description: 'text/event-stream; each event\'s data is the board of GET /dr/v1/queue/board. A comment line every 15 s keeps '
        + 'the connection alive; the stream ends after an hour (reconnect: the token is checked again).',
      security,
      response: { 200: Type.String({ description: 'text/event-stream' }), ...drErrors('envelope', [401, 403, 500]) },
    },
  }, (request, reply) => {
    const { ctx } = request;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': request.id,
      'x-content-type-options': 'nosniff',
    });
    // The board is read after the change that prompts it; the stream may have closed by the time it is there. A board
    // that cannot be read ends the stream (the client reconnects) rather than leave it silent.
    const send = (audited: boolean) => void appointments.board(ctx, audited).then(
      (board) => void (res.writableEnded || res.write(`event: board\ndata: ${JSON.stringify(board)}\n\n`)),
      () => res.end(),
    );
    send(true);
    const off = appointments.onChange((workspaceId) => {
      if (workspaceId === ctx.caller.workspaceId || workspaceId === EVERY_CLINIC) send(false);
    });
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const end = () => res.end();
    const limit = setTimeout(end, STREAM_MAX_MS);
    streams.add(end);
    res.on('close', () => {
      off();
      clearInterval(beat);
      clearTimeout(limit);
      streams.delete(end);
    });
  });
};
