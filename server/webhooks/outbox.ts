import { randomUUID } from 'node:crypto';
import { type Tx, afterCommit } from '../db/tx.js';
import { type Clock, isoNow } from '../shared/time.js';
import { encodeBody } from './signing.js';
import { type DueDelivery, type SubscriptionRow, type WebhookStore, webhookStore } from './store.js';

/** A reminder's progress (issue 29): sent, delivered, read or failed at the provider, or answered by the patient. */
export const REMINDER_EVENTS = [
  'appointment.reminder.sent', 'appointment.reminder.delivered', 'appointment.reminder.read', 'appointment.reminder.failed',
  'appointment.reminder.replied',
] as const;
export type ReminderEventName = (typeof REMINDER_EVENTS)[number];
export const EVENT_NAMES = ['appointment.statuschange', 'v2rx.completed', 'v2rx.failed', 'note.signed', 'note.amended', ...REMINDER_EVENTS] as const;
export type EventName = (typeof EVENT_NAMES)[number];
export const isEventName = (s: string): s is EventName => (EVENT_NAMES as readonly string[]).includes(s);
/** The events a subscription's fhir option applies to. */
export const NOTE_EVENTS = ['note.signed', 'note.amended'] as const;
export const isNoteEvent = (s: string): s is (typeof NOTE_EVENTS)[number] => (NOTE_EVENTS as readonly string[]).includes(s);

/** What each event carries in `data`, as decisions.md defines it. */
export interface EventData {
  'appointment.statuschange': {
    appointment_id: string;
    partner_appointment_id: string | null;
    patient_id: string;
    status: string;
    /** null when the change is the booking itself */
    previous_status: string | null;
    changed_at: string;
  };
  /** Body exactly as the interface: data {transaction_id, status: "completed", session_id}. */
  'v2rx.completed': { transaction_id: string; session_id: string };
  /** Same shape with status "failed" and the errors. */
  'v2rx.failed': { transaction_id: string; session_id: string; errors: unknown[] };
  /** A doctor signed a scribe session's note (version 1): the signed EMR JSON with its ids (docs/API.md, Notes). */
  'note.signed': NoteEventData;
  /** A signed note was amended: the new version, its reason and its EMR JSON. */
  'note.amended': NoteEventData & { reason?: string };
  'appointment.reminder.sent': ReminderEventData;
  'appointment.reminder.delivered': ReminderEventData;
  'appointment.reminder.read': ReminderEventData;
  'appointment.reminder.failed': ReminderEventData;
  'appointment.reminder.replied': ReminderEventData;
}

export interface ReminderEventData {
  appointment_id: string;
  reminder_id: string;
  /** booking, evening or before:<minutes> */
  point: string;
  /** whatsapp or twilio */
  channel: string | null;
  status: string;
  /** The provider's reason, for failed. */
  error: string | null;
  /** For replied: confirmed, cancelled, reschedule or opted_out. */
  reply: string | null;
  changed_at: string;
}

export interface NoteEventData {
  transaction_id: string;
  session_id: string;
  patient_id: string | null;
  appointment_id: string | null;
  version: number;
  signed_by: string;
  signed_at: string;
  emr: unknown;
  /**
   * The note as a FHIR R4 document Bundle, for the subscriptions that asked for it (their `fhir` option). A function
   * so that the bundle is built only when such a subscription exists, once for all of them.
   */
  fhir: () => Promise<unknown>;
}

/**
 * Where domains raise events, inside the transaction `tx` of the change that raises the event. It answers the ids
 * of the events written: none when no subscription wants it, two for a note event that goes out both with and
 * without its FHIR bundle.
 */
export interface EventSink {
  emit<E extends EventName>(tx: Tx, workspaceId: string, event: E, data: EventData[E]): Promise<string[]>;
}

function body<E extends EventName>(event: E, data: EventData[E], timestamp: string, fhir?: unknown): string {
  if (event === 'v2rx.completed') {
    const d = data as EventData['v2rx.completed'];
    return encodeBody({ event, data: { transaction_id: d.transaction_id, status: 'completed', session_id: d.session_id }, timestamp });
  }
  if (event === 'v2rx.failed') {
    const d = data as EventData['v2rx.failed'];
    return encodeBody({ event, data: { transaction_id: d.transaction_id, status: 'failed', session_id: d.session_id, errors: d.errors }, timestamp });
  }
  if (event === 'note.signed' || event === 'note.amended') {
    const d = data as EventData['note.amended'];
    return encodeBody({
      event,
      data: {
        transaction_id: d.transaction_id, session_id: d.session_id, patient_id: d.patient_id, appointment_id: d.appointment_id,
        version: d.version, signed_by: d.signed_by, signed_at: d.signed_at, ...(d.reason !== undefined ? { reason: d.reason } : {}), emr: d.emr,
        ...(fhir !== undefined ? { fhir } : {}),
      },
      timestamp,
    });
  }
  if ((REMINDER_EVENTS as readonly string[]).includes(event)) {
    const d = data as ReminderEventData;
    return encodeBody({
      event,
      data: {
        appointment_id: d.appointment_id, reminder_id: d.reminder_id, point: d.point, channel: d.channel, status: d.status,
        error: d.error, reply: d.reply, changed_at: d.changed_at,
      },
      timestamp,
    });
  }
  const d = data as EventData['appointment.statuschange'];
  return encodeBody({
    event,
    data: {
      appointment_id: d.appointment_id, partner_appointment_id: d.partner_appointment_id, patient_id: d.patient_id,
      status: d.status, previous_status: d.previous_status, changed_at: d.changed_at,
    },
    timestamp,
  });
}

/**
 * Writes an event and its pending delivery to each of `to`; answers the event's id. At module scope rather than a
 * closure in `emit`: tsx wraps a named arrow function in __name each time it is made (5 µs of a change, profiled).
 */
async function write(store: WebhookStore, workspaceId: string, type: EventName, to: readonly Target[], payload: string, now: string,
  written: DueDelivery[]) {
  const id = randomUUID();
  await store.insertEvent({ id, workspace_id: workspaceId, type, payload, created_at: now });
  for (const s of to) {
    const deliveryId = randomUUID();
    await store.insertDelivery(deliveryId, id, s.id, workspaceId, now);
    written.push({ id: deliveryId, event_id: id, subscription_id: s.id, retry_step: 0, payload, endpoint: s.endpoint, signing_key_sealed: s.signing_key_sealed });
  }
  return id;
}
type Target = Pick<SubscriptionRow, 'id' | 'endpoint' | 'signing_key_sealed'>;

/**
 * The transactional outbox. `emit` writes the event and one pending delivery per live, active subscription of the
 * workspace that asked for it: fan-out happens here, at write time, so a subscription created later never receives
 * an earlier event, and a deleted one stops receiving at once. An event nobody subscribed to is not stored.
 * A note event goes to the subscriptions with the fhir option as an event of its own (its own Webhook-Id), whose
 * data also holds the bundle, and to the others without it: a delivery sends its event's stored bytes as they are.
 * `onWritten` runs once the surrounding transaction has committed (and, durable, is on disk), so the dispatcher it
 * wakes finds the deliveries (woken before, on PostgreSQL it looked on another connection, found nothing, and waited
 * for its next poll). It is handed the deliveries written, as the dispatcher would read them back (`dueFor`): on
 * SQLite the dispatcher sends them without reading them again (dispatcher.ts, `offer`). The rows are the record; this
 * is a hint, lost with the process, after which the rows are read as before. `onDisk`: the transaction was durable, so
 * its commit is on disk when `onWritten` runs (db/tx.ts).
 */
export function outbox(clock: Clock, onWritten: (written: DueDelivery[], onDisk: boolean) => void): EventSink {
  return {
    async emit(tx, workspaceId, event, data) {
      const store = webhookStore(tx);
      const subs = (await store.activeSubscriptions(workspaceId))
        .filter((s) => (JSON.parse(s.event_names) as string[]).includes(event));
      if (subs.length === 0) return [];
      const withFhir = isNoteEvent(event) ? subs.filter((s) => s.fhir === 1) : [];
      const plain = subs.filter((s) => !withFhir.includes(s));
      const now = isoNow(clock);
      const ids: string[] = [];
      const written: DueDelivery[] = [];
      if (plain.length) ids.push(await write(store, workspaceId, event, plain, body(event, data, now), now, written));
      if (withFhir.length) {
        ids.push(await write(store, workspaceId, event, withFhir, body(event, data, now, await (data as NoteEventData).fhir()), now, written));
      }
      afterCommit(tx, () => onWritten(written, tx.durable));
      return ids;
    },
  };
}
