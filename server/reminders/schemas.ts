import { type Static, Type } from 'typebox';
import { STATUSES } from '../appointments/states.js';
import { Nullable } from '../webhooks/schemas.js';

const HHMM = { pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' };
const Language = Type.Union([Type.Literal('en'), Type.Literal('hi')], { description: 'The language of the messages: en or hi (templates/<language>.json)' });

export const ScheduleSchema = Type.Object({
  evening_before: Nullable(Type.String({ ...HHMM, description: 'The evening before at this time (HH:MM, clinic time), or null. Default 18:00' })),
  minutes_before: Type.Array(Type.Integer({ minimum: 5, maximum: 7 * 24 * 60 }), { maxItems: 4, description: 'One reminder this many minutes before. Default [120]' }),
  on_booking: Type.Boolean({ description: 'A confirmation as soon as the appointment is booked. Default false' }),
  quiet_hours: Nullable(Type.Object({ start: Type.String(HHMM), end: Type.String(HHMM) }, {
    description: 'Nothing is sent from start to end (clinic time; may wrap midnight): a reminder due then goes at the end. Default 21:00-08:00',
  })),
  states: Type.Array(Type.String({ pattern: `^(${STATUSES.join('|')})$` }), {
    minItems: 1, maxItems: 7, description: 'The appointment statuses a reminder is still sent in. Default ["BK"]',
  }),
});

const Text = (description: string) => Type.String({ minLength: 1, maxLength: 600, description });
export const TextsSchema = Type.Object({
  booking: Type.Optional(Text('The booking confirmation: {name} {doctor} {date} {time} {clinic} {address} {token}')),
  reminder: Type.Optional(Text('A reminder, with the same placeholders')),
});

const Secret = (description: string) => Type.String({ minLength: 1, maxLength: 1024, description });
const BaseUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'The provider\'s address (https, or http on a loopback address)' });

export const WhatsAppBody = Type.Object({
  phone_number_id: Type.String({ pattern: '^[0-9]{1,32}$', description: 'The clinic\'s WhatsApp phone number id' }),
  access_token: Type.Optional(Secret('A system-user access token; stored encrypted, never returned. Omit to keep the stored one')),
  app_secret: Type.Optional(Secret('The Meta app\'s secret, which signs its webhooks (X-Hub-Signature-256)')),
  verify_token: Type.Optional(Secret('What Meta\'s webhook verification (GET hub.verify_token) must send')),
  api_version: Type.Optional(Type.String({ pattern: '^v[0-9]{1,3}\\.[0-9]{1,2}$', description: 'Graph API version. Default v21.0' })),
  base_url: Type.Optional(BaseUrl),
  reminder_template: Type.Optional(Type.String({ pattern: '^[a-z0-9_]{1,512}$', description: 'Approved template for reminders. Default appointment_reminder' })),
  booking_template: Type.Optional(Type.String({ pattern: '^[a-z0-9_]{1,512}$', description: 'Approved template for the booking confirmation. Default appointment_booked' })),
});

export const TwilioBody = Type.Object({
  account_sid: Type.String({ pattern: '^AC[0-9a-fA-F]{32}$', description: 'The account SID (AC…)' }),
  auth_token: Type.Optional(Secret('The auth token; stored encrypted, never returned. Omit to keep the stored one')),
  from: Type.String({ pattern: '^(\\+[1-9][0-9]{6,14}|MG[0-9a-fA-F]{32})$', description: 'The sender: an E.164 number or a Messaging Service SID (MG…)' }),
  base_url: Type.Optional(BaseUrl),
});

export const SettingsBody = Type.Object({
  provider: Type.Union([Type.Literal('whatsapp'), Type.Literal('twilio')]),
  enabled: Type.Boolean({ description: 'false keeps the settings but sends nothing' }),
  language: Type.Optional(Language),
  clinic_address: Type.Optional(Type.String({ maxLength: 300 })),
  public_url: Type.Optional(Nullable(Type.String({ maxLength: 2048, description: 'Where the provider reaches this service (its callbacks); https, or http on loopback' }))),
  schedule: Type.Optional(Type.Partial(ScheduleSchema)),
  texts: Type.Optional(Type.Object({ en: Type.Optional(TextsSchema), hi: Type.Optional(TextsSchema) })),
  whatsapp: Type.Optional(WhatsAppBody),
  twilio: Type.Optional(TwilioBody),
}, { additionalProperties: false });
export type SettingsBody = Static<typeof SettingsBody>;

export const SettingsView = Type.Object({
  provider: Type.Union([Type.Literal('whatsapp'), Type.Literal('twilio')]),
  enabled: Type.Boolean(),
  language: Language,
  clinic_address: Type.String(),
  public_url: Nullable(Type.String()),
  schedule: ScheduleSchema,
  texts: Type.Object({ en: Type.Optional(TextsSchema), hi: Type.Optional(TextsSchema) }),
  whatsapp: Type.Optional(Type.Object({
    phone_number_id: Type.String(), api_version: Type.String(), base_url: Type.String(), reminder_template: Type.String(), booking_template: Type.String(),
  })),
  twilio: Type.Optional(Type.Object({ account_sid: Type.String(), from: Type.String(), base_url: Type.String() })),
  webhook_url: Type.String({ description: 'What to give the provider as its webhook (callback) address' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type SettingsView = Static<typeof SettingsView>;

export const ReminderJob = Type.Object({
  id: Type.String(),
  appointment_id: Type.String(),
  point: Type.String({ description: 'booking, evening, or before:<minutes>' }),
  due_at: Type.String(),
  status: Type.String({ description: 'pending, sending, sent, delivered, read, failed (with the provider\'s reason), cancelled or skipped' }),
  attempts: Type.Integer(),
  provider: Nullable(Type.String()),
  to: Nullable(Type.String()),
  provider_message_id: Nullable(Type.String()),
  text: Nullable(Type.String({ description: 'What was sent: the SMS text (for WhatsApp, the template\'s facts as the SMS would read)' })),
  error: Nullable(Type.String()),
  updated_at: Type.String(),
});
export const ReplySchema = Nullable(Type.Object({
  reply: Type.Union([Type.Literal('confirmed'), Type.Literal('cancelled'), Type.Literal('reschedule')]),
  received_at: Type.String(),
}));
export const AppointmentReminders = Type.Object({ appointment_id: Type.String(), reply: ReplySchema, reminders: Type.Array(ReminderJob) });
export const ReminderLog = Type.Object({ data: Type.Array(ReminderJob) });
export const LogQuery = Type.Object({ limit: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]?|1[0-9][0-9]|200)$', description: '1-200; default 50' })) });
export const AppointmentParams = Type.Object({ appointment_id: Type.String({ minLength: 1, maxLength: 64 }) });
export const WorkspaceParams = Type.Object({ workspace_id: Type.String({ minLength: 1, maxLength: 64 }) });
export const VerifyQuery = Type.Object({
  'hub.mode': Type.Optional(Type.String({ maxLength: 64 })),
  'hub.verify_token': Type.Optional(Type.String({ maxLength: 1024 })),
  'hub.challenge': Type.Optional(Type.String({ maxLength: 256 })),
});

const Tally = Type.Object({
  appointments: Type.Integer({ description: 'Past appointments the patient came to or missed (cancelled ones are neither)' }),
  no_shows: Type.Integer(),
  no_show_rate: Nullable(Type.Number({ description: 'no_shows / appointments; null when there were none' })),
});
export const NoShowReport = Type.Object({
  weeks: Type.Array(Type.Object({
    week_start: Type.String({ description: 'Monday, clinic time' }),
    groups: Type.Object({
      confirmed: Tally,
      no_reply: Type.Object(Tally.properties, { description: 'A reminder reached the patient; no confirmation came' }),
      not_reminded: Type.Object(Tally.properties, { description: 'No reminder reached the patient' }),
    }),
  })),
});
export const DayReminders = Type.Object({
  date: Type.String(),
  appointments: Type.Array(Type.Object({
    appointment_id: Type.String(),
    reminder: Nullable(Type.String({ description: 'The status of the reminder last sent (or failed), else of the next one due; null when none' })),
    reply: Nullable(Type.Union([Type.Literal('confirmed'), Type.Literal('cancelled'), Type.Literal('reschedule')])),
  })),
});
export const ReportQuery = Type.Object({ weeks: Type.Optional(Type.String({ pattern: '^(?:[1-9]|[1-4][0-9]|5[0-2])$', description: '1-52; default 8' })) });
export const SandboxInboundBody = Type.Object({
  from: Type.String({ pattern: '^\\+[1-9][0-9]{6,14}$', description: 'The patient\'s number, E.164' }),
  text: Type.String({ maxLength: 1600, description: 'What the patient sends: C, X, R, STOP, START, or a button\'s text' }),
  payload: Type.Optional(Type.String({ maxLength: 200, description: 'A WhatsApp button\'s payload (<action>:<reminder id>)' })),
}, { additionalProperties: false });
export const SandboxInboundResult = Type.Object({ answer: Nullable(Type.String({ description: 'What the clinic answers the patient' })) });
