import { Type } from 'typebox';
import { appAccounts } from '../auth/app-accounts.js';
import { Doctor } from '../auth/app-schemas.js';
import { formatMobile } from '../patients/mobile.js';
import { fullName } from '../patients/service.js';
import { arg, appMethod, optionalArg } from '../shared/app-method.js';
import { Appointment, AppointmentParams, Board, BookBody, CallNextQuery, ChangeStatusBody, DayList, DayQuery, StatusSchema } from './schemas.js';
import { type StatusChange, toAppointment, undoUntil } from './service.js';
import type { AppointmentListRow } from './store.js';

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

const appointmentId = arg('appointmentId', AppointmentParams.properties.appointment_id);

/** The front desk's queue (server/shared/app-method.ts). The app addresses appointments by the service's ids. */
export const appointmentMethods = {
  dayAppointments: appMethod({
    args: [optionalArg('date', DayQuery.properties.date)], result: DayList, access: 'appointments:read',
    async run(c, date) {
      const r = await c.service.appointments.day(c.ctx, date);
      const now = c.service.clock.now();
      return { date: r.date, appointments: r.rows.map((a) => toDayEntry(a, now)) };
    },
  }),
  bookAppointment: appMethod({
    args: [arg('input', BookBody)], result: Appointment, access: 'appointments:write',
    run: async (c, input) => toAppointment((await c.service.appointments.book(c.ctx, input)).appointment),
  }),
  parkAppointment: appMethod({
    args: [appointmentId], result: StatusChangeSchema, access: 'appointments:write',
    run: async (c, id) => toStatusChange(await c.service.appointments.park(c.ctx, id, false)),
  }),
  setAppointmentStatus: appMethod({
    args: [appointmentId, arg('status', ChangeStatusBody.properties.status)], result: StatusChangeSchema, access: 'appointments:write',
    run: async (c, id, status) => toStatusChange(await c.service.appointments.changeStatus(c.ctx, id, false, status)),
  }),
  doctors: appMethod({
    args: [], result: Type.Array(Doctor), access: 'appointments:read',
    run: (c) => appAccounts(c.service).doctors(c.ctx),
  }),
  /** Undoes the latest check-in, park or no-show within 10 minutes (409 NOTHING_TO_UNDO / UNDO_WINDOW_PASSED). */
  undoAppointment: appMethod({
    args: [appointmentId], result: StatusChangeSchema, access: 'appointments:write',
    run: async (c, id) => toStatusChange(await c.service.appointments.undo(c.ctx, id, false)),
  }),
  /** The doctor's next checked-in patient goes in (OG); without a doctor id, the signed-in doctor's; 'complete' marks the one still in done first. */
  callNextPatient: appMethod({
    args: [optionalArg('doctorId', CallNextQuery.properties.doctor_id), optionalArg('current', CallNextQuery.properties.current)],
    result: StatusChangeSchema, access: 'appointments:write',
    run: async (c, doctorId, current) => toStatusChange(await c.service.appointments.callNext(c.ctx, doctorId, current)),
  }),
  /** The waiting-room board (GET /dr/v1/queue/board): per doctor, first names and tokens only. */
  queueBoard: appMethod({ args: [], result: Board, access: 'queue:board', run: (c) => c.service.appointments.board(c.ctx) }),
};
