import { type Static, Type } from 'typebox';
import { Text } from '../shared/text.js';
import { CHANGE_STATUS_TARGETS, STATUSES } from './states.js';

const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));

export const StatusSchema = literals(STATUSES);

export const AppointmentParams = Type.Object({
  appointment_id: Type.String({ minLength: 1, maxLength: 128, description: 'Service id, or the partner\'s id when partner_id is 1' }),
});

const partnerId = Type.String({ maxLength: 16, description: '1: the path id is the partner\'s appointment id; anything else: the service\'s' });
export const OptionalPartnerQuery = Type.Object({ partner_id: Type.Optional(partnerId) });
export const RequiredPartnerQuery = Type.Object({ partner_id: partnerId });

export const ChangeStatusBody = Type.Object({
  status: literals(CHANGE_STATUS_TARGETS),
});

export const StatusChangeResult = Type.Object({
  appointment_id: Type.String(),
  partner_appointment_id: Type.Union([Type.String(), Type.Null()]),
  status: StatusSchema,
  previous_status: StatusSchema,
});

export const BookBody = Type.Object({
  patient_id: Type.String({ minLength: 1, maxLength: 64 }),
  scheduled_at: Type.String({ format: 'date-time', maxLength: 40, description: 'ISO 8601 date-time with offset' }),
  partner_appointment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^\\S+$' })),
  doctor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  reason: Type.Optional(Text({ maxLength: 500 })),
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
});

export const StatusHistoryEntry = Type.Object({
  from_status: Type.Union([StatusSchema, Type.Null()]),
  to_status: StatusSchema,
  changed_at: Type.String(),
  actor_type: Type.String(),
  actor_id: Type.String(),
});

export const AppointmentDetail = Type.Intersect([Appointment, Type.Object({ status_history: Type.Array(StatusHistoryEntry) })]);

export const DayQuery = Type.Object({
  date: Type.Optional(Type.String({ format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'Defaults to today at the clinic' })),
});

export const DayEntry = Type.Intersect([Appointment, Type.Object({ patient_name: Type.String(), patient_mobile: Type.String() })]);
export const DayList = Type.Object({ date: Type.String(), appointments: Type.Array(DayEntry) });
