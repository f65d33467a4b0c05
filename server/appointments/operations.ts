import { type Static, Type } from 'typebox';
import { z } from 'zod';
import { DrEnvelope, drErrors, security } from '../http/dr.js';
import { formatMobile } from '../patients/mobile.js';
import { fullName } from '../patients/service.js';
import { arg, optionalArg } from '../shared/app-method.js';
import { invalid } from '../shared/errors.js';
import { guard, operation } from '../shared/operation.js';
import {
  Appointment, AppointmentDetail, AppointmentParams, Board, BookBody, CallNextQuery, ChangeStatusBody, DayList, DayQuery, OptionalPartnerQuery,
  RequiredPartnerQuery, StatusChangeResult, StatusHistoryEntry, StatusSchema, UndoResult,
} from './schemas.js';
import { type StatusChange, toAppointment, undoUntil } from './service.js';
import { STATUS_NAMES, type Status } from './states.js';
import type { AppointmentListRow } from './store.js';

/**
 * The appointments domain's operations, each declared once (server/shared/operation.ts): its access, its
 * implementation over the appointment service, and how the dr routes, the app (window.clinic) and the MCP tools
 * offer it. The order is the routes' (and the OpenAPI document's). The live board's event stream is a route of its
 * own (routes.ts): a stream is not a request and an answer.
 */

// The route family's refusals (docs/API.md): a missing write permission is COMPLETE_NOT_ALLOWED on the appointment endpoints.
const write = guard('appointments:write', { code: 'COMPLETE_NOT_ALLOWED', audit: 'appointment.write' });
const read = guard('appointments:read', { code: 'UNAUTHORIZED_ACCESS', audit: 'appointment.read' });
export const boardRead = guard('queue:board', { code: 'UNAUTHORIZED_ACCESS', audit: 'queue.board' });

/** A day-list row (the store joins the patient's name and mobile) as GET /dr/v1/appointments, the app and the MCP tools show it. */
export const toDayEntry = (a: AppointmentListRow, now: Date) => ({
  ...toAppointment(a),
  patient_name: fullName(a),
  patient_mobile: formatMobile({ cc: a.mobile_cc, national: a.mobile_national }),
  undo_until: undoUntil(a, now),
});

/** A change of status as the app shows it: the appointment's new status, the one it left and its token. */
export const StatusChangeSchema = Type.Object({
  appointment_id: Type.String(),
  status: StatusSchema,
  previous_status: StatusSchema,
  token: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
});
const toStatusChange = (r: StatusChange) =>
  ({ appointment_id: r.appointment.id, status: r.appointment.status, previous_status: r.previous_status, token: r.appointment.token });

/** An appointment as addressed: by the service's id, or by the partner's (partner_id=1 on the dr routes, id_type on the tools). */
export interface Addressed {
  id: string;
  partner: boolean;
}
const byPartner = (partnerId: string | undefined) => partnerId === '1';
const pathId = (request: { params: { appointment_id: string }; query: { partner_id?: string } }): Addressed =>
  ({ id: request.params.appointment_id, partner: byPartner(request.query.partner_id) });
/** The app addresses appointments by the service's ids. */
const appointmentId = arg('appointmentId', AppointmentParams.properties.appointment_id);
const ownId = (id: string): Addressed => ({ id, partner: false });

/** A change's result on the dr routes: the interface's appointment_id is the id the caller addressed it by. */
const drChange = (r: StatusChange, addressed: Addressed) => ({
  appointment_id: addressed.partner ? addressed.id : r.appointment.id,
  partner_appointment_id: r.appointment.partner_appointment_id,
  status: r.appointment.status,
  previous_status: r.previous_status,
  token: r.appointment.token,
});

// ---- the MCP tools' shapes ------------------------------------------------------------------------------------

const StatusEnum = z.enum(Object.keys(STATUS_NAMES) as [Status, ...Status[]]);
const ToolAppointmentRef = {
  appointment_id: z.string().min(1).max(128).describe('The appointment\'s id (from list_todays_appointments)'),
  id_type: z.enum(['service', 'partner']).default('service')
    .describe('partner: appointment_id is your own system\'s appointment id (partner_appointment_id)'),
};
const toolAddressed = (args: { appointment_id: string; id_type: 'service' | 'partner' }): Addressed =>
  ({ id: args.appointment_id, partner: args.id_type === 'partner' });
const ToolStatusChange = {
  appointment_id: z.string(),
  partner_appointment_id: z.string().nullable(),
  status: StatusEnum,
  previous_status: StatusEnum,
  changed: z.boolean().describe('false when the appointment already had this status (nothing was changed)'),
};
const toolChange = (r: StatusChange) => ({
  appointment_id: r.appointment.id, partner_appointment_id: r.appointment.partner_appointment_id, status: r.appointment.status,
  previous_status: r.previous_status, changed: r.changed,
});

// ---- the operations -------------------------------------------------------------------------------------------

export const appointmentOperations = {
  parkAppointment: operation({
    access: write,
    run: ({ service, ctx }, a: Addressed) => service.appointments.park(ctx, a.id, a.partner),
    route: {
      method: 'POST', url: '/dr/v1/appointment/:appointment_id/parked', errors: 'dr-bare',
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
      input: pathId,
      status: 204,
    },
    app: { args: [appointmentId], result: StatusChangeSchema, input: ownId, output: toStatusChange },
    tool: {
      name: 'park_appointment',
      title: 'Park an appointment',
      description: 'Move an appointment to parked (PK): the patient stepped out and will be seen later. Allowed from booked, checked in '
        + 'and ongoing; parking a parked appointment changes nothing.',
      input: ToolAppointmentRef,
      output: ToolStatusChange,
      readOnly: false,
      idempotent: true,
      toInput: toolAddressed,
      toOutput: toolChange,
    },
  }),

  setAppointmentStatus: operation({
    access: write,
    run: ({ service, ctx }, a: Addressed & Static<typeof ChangeStatusBody>) =>
      service.appointments.changeStatus(ctx, a.id, a.partner, a.status),
    route: {
      method: 'POST', url: '/dr/v1/appointment/:appointment_id/change-status', errors: 'dr-bare',
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
      input: (request) => ({ ...pathId(request), status: request.body.status }),
      status: 200,
      // The interface's change-status answer has no token.
      body: (r, request) => {
        const { token: _token, ...change } = drChange(r, pathId(request));
        return change;
      },
    },
    app: {
      args: [appointmentId, arg('status', ChangeStatusBody.properties.status)], result: StatusChangeSchema,
      input: (id, status) => ({ ...ownId(id), status }), output: toStatusChange, viaRoute: { query: { partner_id: '0' } },
    },
    tool: {
      name: 'mark_no_show',
      title: 'Mark an appointment as a no-show',
      description: 'Mark an appointment as no-show (NS): the patient did not come. Allowed from booked, checked in and parked.',
      input: ToolAppointmentRef,
      output: ToolStatusChange,
      readOnly: false,
      idempotent: true,
      toInput: (args) => ({ ...toolAddressed(args), status: 'NS' as const }),
      toOutput: toolChange,
    },
  }),

  bookAppointment: operation({
    access: write,
    run: ({ service, ctx }, input: BookBody) => service.appointments.book(ctx, input),
    route: {
      method: 'POST', url: '/dr/v1/appointment', errors: 'dr-envelope',
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
      input: (request) => request.body,
      status: 201,
      body: ({ appointment, history }) => ({ ...toAppointment(appointment), status_history: history }),
    },
    app: { args: [arg('input', BookBody)], result: Appointment, input: (input) => input, output: ({ appointment }) => toAppointment(appointment) },
  }),

  getAppointment: operation({
    access: read,
    run: ({ service, ctx }, a: Addressed) => service.appointments.get(ctx, a.id, a.partner),
    route: {
      method: 'GET', url: '/dr/v1/appointment/:appointment_id', errors: 'dr-envelope',
      schema: {
        operationId: 'getAppointment',
        tags: ['appointments'],
        summary: 'Get an appointment with its status history',
        security,
        params: AppointmentParams,
        querystring: OptionalPartnerQuery,
        response: { 200: DrEnvelope(AppointmentDetail), ...drErrors('envelope', [401, 403, 404, 500]) },
      },
      input: pathId,
      status: 200,
      body: ({ appointment, history }) => ({ ...toAppointment(appointment), status_history: history }),
    },
  }),

  /** One appointment's status history, oldest first: what GET /dr/v1/appointment/:id answers beside the appointment. */
  appointmentHistory: operation({
    access: read,
    run: async ({ service, ctx }, id: string) => (await service.appointments.get(ctx, id, false)).history,
    app: { args: [appointmentId], result: Type.Array(StatusHistoryEntry), input: (id) => id, output: (history) => history },
  }),

  dayAppointments: operation({
    access: read,
    async run({ service, ctx }, date: string | undefined) {
      const r = await service.appointments.day(ctx, date);
      const now = service.clock.now();
      return { date: r.date, appointments: r.rows.map((a) => toDayEntry(a, now)) };
    },
    route: {
      method: 'GET', url: '/dr/v1/appointments', errors: 'dr-envelope',
      schema: {
        operationId: 'listDayAppointments',
        tags: ['appointments'],
        summary: 'List a day\'s appointments, in time order',
        security,
        querystring: DayQuery,
        response: { 200: DrEnvelope(DayList), ...drErrors('envelope', [400, 401, 403, 500]) },
      },
      input: (request) => request.query.date,
      status: 200,
      body: (day) => day,
    },
    app: { args: [optionalArg('date', DayQuery.properties.date)], result: DayList, input: (date) => date, output: (day) => day, viaRoute: {} },
    tool: {
      name: 'list_todays_appointments',
      title: 'List today\'s appointments',
      description: 'The clinic\'s appointments for today (the clinic\'s own time zone), in time order, with each patient\'s name and '
        + 'mobile and the appointment\'s status (BK booked, CK checked in, OG ongoing, PK parked, CM completed, CN cancelled, NS no-show). '
        + 'Pass date (YYYY-MM-DD) for another day.',
      input: { date: z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'date must be YYYY-MM-DD').optional().describe('Defaults to today at the clinic') },
      output: {
        date: z.string(),
        count: z.number().int(),
        appointments: z.array(z.object({
          appointment_id: z.string(),
          partner_appointment_id: z.string().nullable(),
          patient_id: z.string(),
          patient_name: z.string(),
          patient_mobile: z.string(),
          doctor_id: z.string().nullable(),
          scheduled_at: z.string().describe('ISO 8601 UTC'),
          status: StatusEnum,
          status_name: z.string(),
          reason: z.string(),
        })),
      },
      readOnly: true,
      idempotent: true,
      toInput: ({ date }) => {
        if (date !== undefined && Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw invalid(`${date} is not a calendar date`);
        return date;
      },
      toOutput: (day) => ({
        date: day.date,
        count: day.appointments.length,
        appointments: day.appointments.map((a) => ({
          appointment_id: a.appointment_id, partner_appointment_id: a.partner_appointment_id, patient_id: a.patient_id, patient_name: a.patient_name,
          patient_mobile: a.patient_mobile, doctor_id: a.doctor_id, scheduled_at: a.scheduled_at, status: a.status, status_name: STATUS_NAMES[a.status],
          reason: a.reason,
        })),
      }),
    },
  }),

  /** Undoes the latest check-in, park or no-show within 10 minutes (409 NOTHING_TO_UNDO / UNDO_WINDOW_PASSED). */
  undoAppointment: operation({
    access: write,
    run: ({ service, ctx }, a: Addressed) => service.appointments.undo(ctx, a.id, a.partner),
    route: {
      method: 'POST', url: '/dr/v1/appointment/:appointment_id/undo', errors: 'dr-envelope',
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
      input: pathId,
      status: 200,
      body: (r, request) => drChange(r, pathId(request)),
    },
    app: { args: [appointmentId], result: StatusChangeSchema, input: ownId, output: toStatusChange, viaRoute: {} },
  }),

  /** The doctor's next checked-in patient goes in (OG); without a doctor id, the signed-in doctor's; 'complete' marks the one still in done first. */
  callNextPatient: operation({
    access: write,
    run: ({ service, ctx }, q: Static<typeof CallNextQuery>) => service.appointments.callNext(ctx, q.doctor_id, q.current),
    route: {
      method: 'POST', url: '/dr/v1/queue/call-next', errors: 'dr-envelope',
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
      input: (request) => request.query,
      status: 200,
      body: (r) => drChange(r, ownId(r.appointment.id)),
    },
    app: {
      args: [optionalArg('doctorId', CallNextQuery.properties.doctor_id), optionalArg('current', CallNextQuery.properties.current)],
      result: StatusChangeSchema,
      input: (doctorId, current) => ({ doctor_id: doctorId, current }),
      output: toStatusChange,
      viaRoute: {},
    },
  }),

  /** The waiting-room board (GET /dr/v1/queue/board): per doctor, first names and tokens only. */
  queueBoard: operation({
    access: boardRead,
    run: ({ service, ctx }, _input: undefined) => service.appointments.board(ctx),
    route: {
      method: 'GET', url: '/dr/v1/queue/board', errors: 'dr-envelope',
      schema: {
        operationId: 'queueBoard',
        tags: ['appointments'],
        summary: 'Today\'s waiting-room board: per doctor, the tokens with the doctor now and next (first names only)',
        security,
        response: { 200: DrEnvelope(Board), ...drErrors('envelope', [401, 403, 500]) },
      },
      input: () => undefined,
      status: 200,
      body: (board) => board,
    },
    app: { args: [], result: Board, input: () => undefined, output: (board) => board, viaRoute: {} },
  }),
};
