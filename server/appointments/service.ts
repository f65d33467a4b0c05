import { randomUUID } from 'node:crypto';
import type { ChangeBus } from '../db/change-bus.js';
import type { AuditLog } from '../audit/service.js';
import type { RequestContext } from '../auth/permissions.js';
import type { AuthService } from '../auth/service.js';
import { type Executor, transaction, type Tx } from '../db/tx.js';
import type { PatientService } from '../patients/service.js';
import { ServiceError, invalid } from '../shared/errors.js';
import { type Clock, isoNow, localDate } from '../shared/time.js';
import type { EventSink } from '../webhooks/outbox.js';
import { type AppointmentListRow, type AppointmentRow, type ClashRow, type StatusChangeRow, appointmentStore } from './store.js';
import {
  CORRECTABLE, type ChangeStatusTarget, STATUS_NAMES, type Status, UNDO_WINDOW_MS, describe, roleMayMoveTo, transitionError,
} from './states.js';

export interface BookInput {
  patient_id: string;
  /** Required unless walk_in: a walk-in is booked for now. */
  scheduled_at?: string;
  partner_appointment_id?: string;
  doctor_id?: string;
  reason?: string;
  duration_minutes?: number;
  walk_in?: boolean;
  /** Confirms booking over a taken doctor's slot or the patient's own overlapping appointment. */
  overbook?: boolean;
}

/** The slot a booking holds when it does not say (the front desk books in 15-minute steps). */
export const DEFAULT_DURATION_MIN = 15;
/** How far back "now" reaches: a time picked a few minutes ago on the form is still now, not the past. */
export const PAST_GRACE_MS = 5 * 60_000;
/** A walk-in is for now: a time sent with it may differ from the service's clock by this much. */
export const WALK_IN_SLACK_MS = 15 * 60_000;
/** How far ahead a booking may be by default: two years (a year 9999 date is a typing slip, not a plan). */
export const BOOKING_HORIZON_DAYS = 730;
const LONGEST_MIN = 240;

export interface StatusChange {
  appointment: AppointmentRow;
  previous_status: Status;
  changed: boolean;
}

const notFound = () => new ServiceError(404, 'APPOINTMENT_NOT_FOUND', 'The specified appointment ID does not exist');

/** An appointment as every transport returns it (the interface's fields, then ours). */
export const toAppointment = (a: AppointmentRow) => ({
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
  duration_minutes: a.duration_min,
  walk_in: a.walk_in === 1,
  overbook: a.overbook === 1,
  token: a.token,
});

/** Until when the latest change of a day-list row can be undone, or null when it cannot (any more). */
export function undoUntil(a: AppointmentListRow, now: Date): string | null {
  if (!a.undoable_change_at) return null;
  const until = new Date(a.undoable_change_at).getTime() + UNDO_WINDOW_MS;
  return until > now.getTime() ? new Date(until).toISOString() : null;
}

export const toHistoryEntry = (c: StatusChangeRow) => ({
  from_status: c.from_status,
  to_status: c.to_status,
  changed_at: c.changed_at,
  actor_type: c.actor_type,
  actor_id: c.actor_id,
  correction: c.correction === 1,
  overbook: c.overbook === 1,
  token: c.token,
});

/** The waiting-room board: per doctor, who is with the doctor now and the tokens waiting, by first name only. */
export interface Board {
  date: string;
  doctors: { doctor_id: string | null; doctor_name: string; now: BoardEntry[]; next: BoardEntry[] }[];
}
export interface BoardEntry { token: number | null; first_name: string }

/** What a board listener (onChange) is told instead of a clinic when any clinic's appointments may have changed. */
export const EVERY_CLINIC = '*';

const hhmm = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

export function appointmentService(
  db: Executor, clock: Clock, auth: AuthService, patients: PatientService, audit: AuditLog, events?: EventSink, bus?: ChangeBus,
  opts: { horizonDays?: number } = {},
) {
  const horizonDays = opts.horizonDays ?? BOOKING_HORIZON_DAYS;
  const store = appointmentStore(db);

  const timezone = async (workspaceId: string, e?: Executor) => (await auth.workspace(workspaceId, e))?.timezone ?? 'UTC';

  /** A refusal decided inside a transaction and thrown after it, so that its audit entry is not rolled back. */
  type Refusal = { refused: ServiceError; outcome: 'not_found' | 'denied' | 'invalid' | 'conflict'; appointmentId: string | null };
  const refuse = (refused: ServiceError, outcome: Refusal['outcome'], appointmentId: string | null = null): Refusal =>
    ({ refused, outcome, appointmentId });

  /** When a booking is for, by the rules on the past and on walk-ins. */
  function bookingTime(input: BookInput, allowPast: boolean): Date | Refusal {
    const now = clock.now().getTime();
    const at = input.scheduled_at === undefined ? null : new Date(input.scheduled_at);
    if (at && Number.isNaN(at.getTime())) return refuse(invalid('scheduled_at is not a date-time'), 'invalid');
    if (input.walk_in) {
      if (!at) return new Date(now);
      if (Math.abs(at.getTime() - now) > WALK_IN_SLACK_MS) {
        return refuse(invalid('A walk-in is booked for now: leave scheduled_at out, or send the current time'), 'invalid');
      }
      return at;
    }
    if (!at) return refuse(invalid('scheduled_at is required unless walk_in is true'), 'invalid');
    if (!allowPast && at.getTime() < now - PAST_GRACE_MS) {
      return refuse(new ServiceError(400, 'TIME_IN_PAST', 'This time has already passed. Pick a later time, or book the patient as a walk-in (now)'), 'invalid');
    }
    if (at.getTime() > now + horizonDays * 86_400_000) {
      return refuse(new ServiceError(400, 'TIME_TOO_FAR_AHEAD',
        `Appointments can be booked at most ${horizonDays} days ahead. Check the date, or pick one within that time`), 'invalid');
    }
    return at;
  }

  /** The 409 for the first clash: the patient's own overlapping appointment first, then the doctor's taken slot. */
  async function clashError(tx: Tx, tz: string, patientId: string, clashes: ClashRow[]): Promise<ServiceError> {
    const own = clashes.find((c) => c.patient_id === patientId);
    const span = (c: ClashRow) => `${hhmm(c.scheduled_at, tz)}–${hhmm(new Date(new Date(c.scheduled_at).getTime() + c.duration_min * 60_000).toISOString(), tz)}`;
    if (own) {
      return new ServiceError(409, 'PATIENT_DOUBLE_BOOKED',
        `This patient already has an appointment at ${span(own)} (${STATUS_NAMES[own.status]}). Send overbook: true to book both`);
    }
    const taken = clashes[0]!;
    const doctor = taken.doctor_id ? (await auth.user(taken.doctor_id, tx))?.display_name ?? 'The doctor' : 'The doctor';
    return new ServiceError(409, 'SLOT_TAKEN',
      `${doctor} already has a patient at ${span(taken)} (${STATUS_NAMES[taken.status]}). Pick another time, or send overbook: true to book over it`);
  }

  /** `allowPast`: for seeding a day that has already begun (the demo clinics); requests never pass it. */
  async function book(ctx: RequestContext, input: BookInput, { allowPast = false }: { allowPast?: boolean } = {}) {
    const ws = ctx.caller.workspaceId;
    await patients.get(ctx, input.patient_id); // 404 PATIENT_NOT_FOUND, including another clinic's patient
    if (input.doctor_id) {
      const doctor = await auth.user(input.doctor_id);
      if (!doctor || doctor.workspace_id !== ws || !(doctor.role === 'doctor' || doctor.role === 'admin')) {
        throw invalid('doctor_id is not a doctor of this clinic');
      }
    }
    const tz = await timezone(ws);
    const result = await transaction(db, async (tx): Promise<{ appointment: AppointmentRow } | Refusal> => {
      const inTx = appointmentStore(tx);
      const when = bookingTime(input, allowPast);
      if (!(when instanceof Date)) return when;
      const exists = () =>
        refuse(new ServiceError(409, 'APPOINTMENT_ALREADY_EXISTS', 'An appointment with this partner_appointment_id already exists'), 'conflict');
      // Another instance booking the same patient or doctor now waits here until this booking ends (PostgreSQL).
      await inTx.lockForBooking(input.patient_id, input.doctor_id ?? null);
      if (input.partner_appointment_id && (await inTx.find(ws, input.partner_appointment_id, true))) return exists();
      const duration = input.duration_minutes ?? DEFAULT_DURATION_MIN;
      const end = new Date(when.getTime() + duration * 60_000);
      const clashes = await inTx.clashes({
        ws, doctor: input.doctor_id ?? null, patient: input.patient_id, start: when.toISOString(), end: end.toISOString(),
        earliest: new Date(when.getTime() - LONGEST_MIN * 60_000).toISOString(),
      });
      if (clashes.length > 0 && !input.overbook) return refuse(await clashError(tx, tz, input.patient_id, clashes), 'conflict');
      const now = isoNow(clock);
      const row: AppointmentRow = {
        id: randomUUID(), workspace_id: ws, patient_id: input.patient_id,
        partner_appointment_id: input.partner_appointment_id ?? null, doctor_id: input.doctor_id ?? null,
        scheduled_at: when.toISOString(), local_date: localDate(when, tz), reason: input.reason?.trim() ?? '',
        status: 'BK', created_at: now, updated_at: now, duration_min: duration, walk_in: input.walk_in ? 1 : 0,
        overbook: clashes.length > 0 ? 1 : 0, token: null,
      };
      if (!(await inTx.insert(row))) return exists(); // the partner id was taken meanwhile (another instance's booking)
      await record(tx, ctx, row, null, 'BK', now, { overbook: row.overbook });
      await audit.inTransaction(tx, ctx, { action: 'appointment.book', resourceType: 'appointment', resourceIds: [row.id], outcome: 'success' });
      if (row.overbook) {
        await audit.inTransaction(tx, ctx, {
          action: 'appointment.overbook', resourceType: 'appointment', resourceIds: [row.id, ...clashes.map((c) => c.id)], outcome: 'success',
        });
      }
      return { appointment: row };
    });
    if ('refused' in result) {
      audit.later(ctx, { action: 'appointment.book', resourceType: 'appointment', outcome: result.outcome });
      throw result.refused;
    }
    changed(result.appointment.workspace_id);
    return { appointment: result.appointment, history: (await store.history(result.appointment.id)).map(toHistoryEntry) };
  }

  /**
   * Records a real status change and raises appointment.statuschange into the outbox, in the caller's transaction.
   * The board's listeners are told by the caller once that transaction has committed (`changed`).
   */
  async function record(
    tx: Tx, ctx: RequestContext, a: AppointmentRow, from: Status | null, to: Status, at: string,
    extra: { correction?: 0 | 1; overbook?: 0 | 1; token?: number | null } = {},
  ) {
    await appointmentStore(tx).insertChange({
      appointment_id: a.id, workspace_id: a.workspace_id, from_status: from, to_status: to,
      actor_type: ctx.caller.kind, actor_id: ctx.caller.id, request_id: ctx.requestId, changed_at: at,
      correction: extra.correction ?? 0, overbook: extra.overbook ?? 0, token: extra.token ?? null,
    });
    await events?.emit(tx, a.workspace_id, 'appointment.statuschange', {
      appointment_id: a.id, partner_appointment_id: a.partner_appointment_id, patient_id: a.patient_id,
      status: to, previous_status: from, changed_at: at,
    });
  }

  /** `tx`: read inside that transaction (a note event's FHIR bundle is built in the signing's). */
  async function get(ctx: RequestContext, id: string, byPartner: boolean, tx?: Tx) {
    const s = tx ? appointmentStore(tx) : store;
    const row = await s.find(ctx.caller.workspaceId, id, byPartner);
    audit.later(ctx, { action: 'appointment.read', resourceType: 'appointment', resourceIds: [row?.id ?? id], outcome: row ? 'success' : 'not_found' });
    if (!row) throw notFound();
    return { appointment: row, history: (await s.history(row.id)).map(toHistoryEntry) };
  }

  const today = async (workspaceId: string) => localDate(clock.now(), await timezone(workspaceId));

  async function day(ctx: RequestContext, date?: string) {
    const d = date ?? (await today(ctx.caller.workspaceId));
    const rows = await store.day(ctx.caller.workspaceId, d);
    audit.later(ctx, { action: 'appointment.list', resourceType: 'appointment', resourceIds: rows.map((r) => r.id), outcome: 'success' });
    return { date: d, rows };
  }

  /**
   * Moves an appointment to `to` in one transaction with its history row and audit entry. Moving to the state it
   * is already in changes nothing and succeeds, so an integration can safely retry.
   */
  async function transition(
    e: Executor, ctx: RequestContext, id: string, byPartner: boolean, to: Exclude<Status, 'BK'>, action: string,
  ): Promise<StatusChange> {
    // Refusals are decided inside the transaction but thrown after it, so that their audit entry is not rolled back.
    const result = await transaction(e, async (tx): Promise<StatusChange | Refusal> => {
      const inTx = appointmentStore(tx);
      // Locked: a change of the same appointment through another instance waits, then finds this one's result.
      const a = await inTx.find(ctx.caller.workspaceId, id, byPartner, { lock: true });
      if (!a) return { refused: notFound(), outcome: 'not_found', appointmentId: id };
      if (!roleMayMoveTo(ctx.caller, to)) {
        const refused = new ServiceError(403, 'COMPLETE_NOT_ALLOWED', `Your role may not set an appointment to ${describe(to)}`);
        return { refused, outcome: 'denied', appointmentId: a.id };
      }
      if (a.status === to) return { appointment: a, previous_status: a.status, changed: false };
      const why = transitionError(a.status, to);
      if (why) return { refused: invalid(why), outcome: 'invalid', appointmentId: a.id };
      const now = isoNow(clock);
      // The waiting-room token is given when the patient is first seen to be here: checked in, or taken straight in.
      const given = a.token === null && (to === 'CK' || to === 'OG') ? await inTx.setStatusGivingToken(a, to, now) : null;
      const token = given ?? a.token;
      if (given === null) await inTx.setStatus(a.id, to, now);
      await record(tx, ctx, a, a.status, to, now, { token: given });
      await audit.inTransaction(tx, ctx, { action, resourceType: 'appointment', resourceIds: [a.id], outcome: 'success' });
      return { appointment: { ...a, status: to, token, updated_at: now }, previous_status: a.status, changed: true };
    });
    if ('refused' in result) {
      audit.later(ctx, { action, resourceType: 'appointment', resourceIds: result.appointmentId ? [result.appointmentId] : [], outcome: result.outcome });
      throw result.refused;
    }
    if (result.changed) changed(result.appointment.workspace_id);
    return result;
  }

  /**
   * Undoes the latest change if it was a check-in, park or no-show made less than UNDO_WINDOW_MS ago: the
   * appointment returns to exactly the state it left (booked included), a token that change gave is taken back,
   * and the history gains a correction entry with who and when.
   */
  async function undo(ctx: RequestContext, id: string, byPartner: boolean): Promise<StatusChange> {
    const action = 'appointment.undo';
    const result = await transaction(db, async (tx): Promise<StatusChange | Refusal> => {
      const inTx = appointmentStore(tx);
      const a = await inTx.find(ctx.caller.workspaceId, id, byPartner, { lock: true });
      if (!a) return refuse(notFound(), 'not_found', id);
      const last = await inTx.lastChange(a.id);
      if (!last || last.from_status === null || last.correction === 1 || !CORRECTABLE.includes(last.to_status)) {
        const what = !last || last.from_status === null ? 'it has not changed since it was booked'
          : last.correction === 1 ? 'its last change was itself an undo' : `its last change (to ${describe(last.to_status)}) is not a check-in, park or no-show`;
        return refuse(new ServiceError(409, 'NOTHING_TO_UNDO', `Nothing to undo: ${what}`), 'conflict', a.id);
      }
      const age = clock.now().getTime() - new Date(last.changed_at).getTime();
      if (age > UNDO_WINDOW_MS) {
        return refuse(new ServiceError(409, 'UNDO_WINDOW_PASSED',
          `The change to ${describe(last.to_status)} was made ${Math.floor(age / 60_000)} minutes ago; it can be undone for ${UNDO_WINDOW_MS / 60_000} minutes only`), 'conflict', a.id);
      }
      const now = isoNow(clock);
      const restored = last.from_status;
      const token = last.token !== null ? null : a.token;
      await inTx.setStatus(a.id, restored, now, token);
      await record(tx, ctx, a, a.status, restored, now, { correction: 1 });
      await audit.inTransaction(tx, ctx, { action, resourceType: 'appointment', resourceIds: [a.id], outcome: 'success' });
      return { appointment: { ...a, status: restored, token, updated_at: now }, previous_status: a.status, changed: true };
    });
    if ('refused' in result) {
      audit.later(ctx, { action, resourceType: 'appointment', resourceIds: result.appointmentId ? [result.appointmentId] : [], outcome: result.outcome });
      throw result.refused;
    }
    if (result.changed) changed(result.appointment.workspace_id);
    return result;
  }

  /**
   * "Call next patient": the doctor's checked-in patient with the lowest token today goes in (OG). A patient still
   * with the doctor is not left there beside the next one: the caller asks for them to be marked done first
   * (`current: 'complete'`), or is refused with who is still in.
   */
  async function callNext(ctx: RequestContext, doctorId?: string, current?: 'complete'): Promise<StatusChange> {
    // The role first: a caller who may not call anyone in learns nothing about the doctor_id it sent.
    if (!roleMayMoveTo(ctx.caller, 'OG')) {
      audit.later(ctx, { action: 'appointment.call_next', resourceType: 'appointment', outcome: 'denied' });
      throw new ServiceError(403, 'COMPLETE_NOT_ALLOWED', 'Your role may not call a patient in to the doctor');
    }
    const ws = ctx.caller.workspaceId;
    const self = ctx.caller.kind === 'user' && (ctx.caller.role === 'doctor' || ctx.caller.role === 'admin') ? ctx.caller.id : undefined;
    const id = doctorId ?? self;
    if (!id) throw invalid('doctor_id is required: whose next patient to call');
    const doctor = await auth.user(id);
    if (!doctor || doctor.workspace_id !== ws || !(doctor.role === 'doctor' || doctor.role === 'admin')) {
      throw invalid('doctor_id is not a doctor of this clinic');
    }
    const date = await today(ws);
    const next = await store.nextWaiting(ws, date, id);
    if (!next) {
      audit.later(ctx, { action: 'appointment.call_next', resourceType: 'appointment', outcome: 'conflict' });
      throw new ServiceError(409, 'NO_PATIENT_WAITING', `No checked-in patient is waiting for ${doctor.display_name} today`);
    }
    const inside = await store.withDoctor(ws, date, id);
    if (inside.length && current !== 'complete') {
      audit.later(ctx, { action: 'appointment.call_next', resourceType: 'appointment', resourceIds: inside.map((a) => a.id), outcome: 'conflict' });
      const tokens = inside.map((a) => (a.token === null ? 'a patient' : `token ${a.token}`)).join(' and ');
      throw new ServiceError(409, 'PATIENT_WITH_DOCTOR',
        `${tokens.charAt(0).toUpperCase()}${tokens.slice(1)} ${inside.length === 1 ? 'is' : 'are'} still with ${doctor.display_name}: mark ${inside.length === 1 ? 'them' : 'each'} done first, or call next with current=complete`);
    }
    for (const a of inside) await transition(db, ctx, a.id, false, 'CM', 'appointment.call_next');
    return transition(db, ctx, next.id, false, 'OG', 'appointment.call_next');
  }

  /** Today's board: each active doctor of the clinic (and anyone else with patients in), now and next. */
  async function board(ctx: RequestContext, audited = true): Promise<Board> {
    const ws = ctx.caller.workspaceId;
    const date = await today(ws);
    const rows = await store.board(ws, date);
    const groups = new Map<string | null, Board['doctors'][number]>();
    for (const u of await auth.users(ws)) {
      if (u.role === 'doctor' && !u.disabled_at) groups.set(u.id, { doctor_id: u.id, doctor_name: u.display_name, now: [], next: [] });
    }
    for (const r of rows) {
      let g = groups.get(r.doctor_id);
      if (!g) {
        g = { doctor_id: r.doctor_id, doctor_name: r.doctor_name ?? 'Any doctor', now: [], next: [] };
        groups.set(r.doctor_id, g);
      }
      (r.status === 'OG' ? g.now : g.next).push({ token: r.token, first_name: r.first_name });
    }
    if (audited) audit.later(ctx, { action: 'queue.board', resourceType: 'appointment', outcome: 'success' });
    return { date, doctors: [...groups.values()].sort((x, y) => x.doctor_name.localeCompare(y.doctor_name)) };
  }

  // Listeners told, after the change has committed, that a clinic's appointments changed (the board's live stream).
  // Called after `transaction` resolves: on PostgreSQL a listener reading the board on another connection before the
  // COMMIT would see the board as it was. changeStatusIn runs inside another domain's transaction, whose commit this
  // service cannot see: there the call comes when its savepoint is released, and the listeners run on the next turn
  // of the event loop, which on SQLite is after that COMMIT (a transaction body awaits no I/O) but on PostgreSQL may
  // be before it. Other instances of a chain hear of it through the change bus, and this one of theirs; when its
  // listener reconnects, changes may have been missed, so every listener is told that any clinic may have changed.
  const listeners = new Set<(workspaceId: string) => void>();
  const pending = new Set<string>();
  function changed(workspaceId: string) {
    void bus?.publish('appointments', { workspace_id: workspaceId }).catch((e: unknown) =>
      console.error(`clinic-desk: could not tell the other instances of an appointment change: ${(e as Error).message}`));
    tell(workspaceId);
  }
  bus?.subscribe('appointments', (m) => tell(m.workspace_id), { ignoreOwn: true, onResync: () => tell(EVERY_CLINIC) });
  function tell(workspaceId: string) {
    if (listeners.size === 0) return;
    if (pending.size === 0) {
      setImmediate(() => {
        const list = [...pending];
        pending.clear();
        for (const w of list) for (const l of listeners) l(w);
      });
    }
    pending.add(workspaceId);
  }
  /** `listener` gets the clinic whose appointments changed, or EVERY_CLINIC when any may have (read yours again). */
  function onChange(listener: (workspaceId: string) => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }

  return {
    book,
    get,
    day,
    undo,
    callNext,
    board,
    onChange,
    /** Tells the board's listeners that something shown beside a clinic's appointments changed (a reminder's status, a patient's answer). */
    touched: changed,
    park: (ctx: RequestContext, id: string, byPartner: boolean) => transition(db, ctx, id, byPartner, 'PK', 'appointment.park'),
    changeStatus: (ctx: RequestContext, id: string, byPartner: boolean, to: ChangeStatusTarget) =>
      transition(db, ctx, id, byPartner, to, 'appointment.change_status'),
    /** changeStatus inside the transaction `tx` of another change (a signed note completes its appointment). */
    changeStatusIn: (tx: Tx, ctx: RequestContext, id: string, byPartner: boolean, to: ChangeStatusTarget) =>
      transition(tx, ctx, id, byPartner, to, 'appointment.change_status'),
  };
}
export type AppointmentService = ReturnType<typeof appointmentService>;
