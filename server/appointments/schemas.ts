import { type Static, Type } from 'typebox';
import { Literals } from '../shared/literals.js';
import { Text } from '../shared/text.js';
import { CHANGE_STATUS_TARGETS, STATUSES } from './states.js';

export const StatusSchema = Literals(STATUSES);

export const AppointmentParams = Type.Object({
  appointment_id: Type.String({ minLength: 1, maxLength: 128, description: 'Service id, or the partner\'s id when partner_id is 1' }),
});

const partnerId = Type.String({ maxLength: 16, description: '1: the path id is the partner\'s appointment id; anything else: the service\'s' });
export const OptionalPartnerQuery = Type.Object({ partner_id: Type.Optional(partnerId) });
export const RequiredPartnerQuery = Type.Object({ partner_id: partnerId });

export const ChangeStatusBody = Type.Object({
  status: Literals(CHANGE_STATUS_TARGETS),
});

export const StatusChangeResult = Type.Object({
  appointment_id: Type.String(),
  partner_appointment_id: Type.Union([Type.String(), Type.Null()]),
  status: StatusSchema,
  previous_status: StatusSchema,
});

export const BookBody = Type.Object({
  patient_id: Type.String({ minLength: 1, maxLength: 64 }),
  scheduled_at: Type.Optional(Type.String({
    format: 'date-time', maxLength: 40,
    description: 'ISO 8601 date-time with offset. Required unless walk_in; more than 5 minutes in the past is 400 TIME_IN_PAST',
  })),
  partner_appointment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^\\S+$' })),
  doctor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  reason: Type.Optional(Text({ maxLength: 500 })),
  duration_minutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 240, description: 'How long the doctor\'s time is held (default 15)' })),
  walk_in: Type.Optional(Type.Boolean({ description: 'The patient is here now: booked for the current time (scheduled_at may be left out)' })),
  overbook: Type.Optional(Type.Boolean({
    description: 'Book even though the doctor\'s slot is taken (409 SLOT_TAKEN) or the patient has an overlapping appointment '
      + '(409 PATIENT_DOUBLE_BOOKED); recorded in the audit log and the appointment\'s history',
  })),
});
export type BookBody = Static<typeof BookBody>;

export const Appointment = Type.Object({
  appointment_id: Type.String(),
  partner_appointment_id: Type.Union([Type.String(), Type.Null()]),
  patient_id: Type.String(),
  doctor_id: Type.Union([Type.String(), Type.Null()]),
  scheduled_at: Type.String({ description: 'ISO 8601 UTC' }),
  date: Type.String({ description: 'The clinic\'s calendar day of scheduled_at, YYYY-MM-DD' }),
  reason: Type.String(),
  status: StatusSchema,
  created_at: Type.String(),
  updated_at: Type.String(),
  duration_minutes: Type.Integer({ description: 'How long the booking holds the doctor\'s time' }),
  walk_in: Type.Boolean(),
  overbook: Type.Boolean({ description: 'Booked over a taken slot or an overlapping appointment of the patient, confirmed' }),
  token: Type.Union([Type.Integer(), Type.Null()], { description: 'Waiting-room token, given at the first check-in: per doctor per day' }),
});

export const StatusHistoryEntry = Type.Object({
  from_status: Type.Union([StatusSchema, Type.Null()]),
  to_status: StatusSchema,
  changed_at: Type.String(),
  actor_type: Type.String(),
  actor_id: Type.String(),
  correction: Type.Boolean({ description: 'This entry undoes the change before it' }),
  overbook: Type.Boolean({ description: 'The booking was confirmed over a clash' }),
  token: Type.Union([Type.Integer(), Type.Null()], { description: 'The token this change gave' }),
});

export const AppointmentDetail = Type.Intersect([Appointment, Type.Object({ status_history: Type.Array(StatusHistoryEntry) })]);

export const DayQuery = Type.Object({
  date: Type.Optional(Type.String({ format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'Defaults to today at the clinic' })),
});

export const DayEntry = Type.Intersect([Appointment, Type.Object({
  patient_name: Type.String(),
  patient_mobile: Type.String(),
  undo_until: Type.Union([Type.String(), Type.Null()], {
    description: 'Until when POST …/undo can reverse the latest change (a check-in, park or no-show); null when it cannot',
  }),
})]);
export const DayList = Type.Object({ date: Type.String(), appointments: Type.Array(DayEntry) });

export const UndoResult = Type.Object({
  appointment_id: Type.String(),
  partner_appointment_id: Type.Union([Type.String(), Type.Null()]),
  status: StatusSchema,
  previous_status: StatusSchema,
  token: Type.Union([Type.Integer(), Type.Null()]),
});

export const CallNextQuery = Type.Object({
  doctor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Default: the signed-in doctor' })),
  current: Type.Optional(Type.Literal('complete', {
    description: 'complete: the patient still with the doctor is marked done (CM) first. Without it, a patient still with the doctor is 409 PATIENT_WITH_DOCTOR',
  })),
});

const BoardEntry = Type.Object({ token: Type.Union([Type.Integer(), Type.Null()]), first_name: Type.String() });
export const Board = Type.Object({
  date: Type.String(),
  doctors: Type.Array(Type.Object({
    doctor_id: Type.Union([Type.String(), Type.Null()]),
    doctor_name: Type.String(),
    now: Type.Array(BoardEntry, { description: 'With the doctor (OG)' }),
    next: Type.Array(BoardEntry, { description: 'Checked in and waiting (CK), by token' }),
  })),
});
