import { randomUUID } from 'node:crypto';
import type { AuditLog } from '../audit/service.js';
import type { RequestContext } from '../auth/permissions.js';
import type { AuthService } from '../auth/service.js';
import type { Db } from '../db/database.js';
import type { PatientService } from '../patients/service.js';
import { isUniqueViolation } from '../patients/store.js';
import { ServiceError, invalid } from '../shared/errors.js';
import { type Clock, isoNow, localDate } from '../shared/time.js';
import type { EventSink } from '../webhooks/outbox.js';
import { type AppointmentRow, appointmentStore } from './store.js';
import { type ChangeStatusTarget, type Status, describe, roleMayMoveTo, transitionError } from './states.js';

export interface BookInput {
  patient_id: string;
  scheduled_at: string;
  partner_appointment_id?: string;
  doctor_id?: string;
  reason?: string;
}

export interface StatusChange {
  appointment: AppointmentRow;
  previous_status: Status;
  changed: boolean;
}

const notFound = () => new ServiceError(404, 'APPOINTMENT_NOT_FOUND', 'The specified appointment ID does not exist');

export function appointmentService(
  db: Db, clock: Clock, auth: AuthService, patients: PatientService, audit: AuditLog, events?: EventSink,
) {
  const store = appointmentStore(db);

  const timezone = (workspaceId: string) => auth.workspace(workspaceId)?.timezone ?? 'UTC';

  function book(ctx: RequestContext, input: BookInput) {
    const ws = ctx.caller.workspaceId;
    const when = new Date(input.scheduled_at);
    if (Number.isNaN(when.getTime())) throw invalid('scheduled_at is not a date-time');
    patients.get(ctx, input.patient_id); // 404 PATIENT_NOT_FOUND, including another clinic's patient
    if (input.doctor_id) {
      const doctor = auth.user(input.doctor_id);
      if (!doctor || doctor.workspace_id !== ws || doctor.role === 'reception') throw invalid('doctor_id is not a doctor of this clinic');
    }
    const now = isoNow(clock);
    const row: AppointmentRow = {
      id: randomUUID(), workspace_id: ws, patient_id: input.patient_id,
      partner_appointment_id: input.partner_appointment_id ?? null, doctor_id: input.doctor_id ?? null,
      scheduled_at: when.toISOString(), local_date: localDate(when, timezone(ws)), reason: input.reason?.trim() ?? '',
      status: 'BK', created_at: now, updated_at: now,
    };
    try {
      db.transaction(() => {
        store.insert(row);
        record(ctx, row, null, 'BK', now);
        audit.inTransaction(ctx, { action: 'appointment.book', resourceType: 'appointment', resourceIds: [row.id], outcome: 'success' });
      })();
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      audit.later(ctx, { action: 'appointment.book', resourceType: 'appointment', outcome: 'conflict' });
      throw new ServiceError(409, 'APPOINTMENT_ALREADY_EXISTS', 'An appointment with this partner_appointment_id already exists');
    }
    return { appointment: row, history: store.history(row.id) };
  }

  /** Records a real status change and raises appointment.statuschange into the outbox, in the caller's transaction. */
  function record(ctx: RequestContext, a: AppointmentRow, from: Status | null, to: Status, at: string) {
    store.insertChange({
      appointment_id: a.id, workspace_id: a.workspace_id, from_status: from, to_status: to,
      actor_type: ctx.caller.kind, actor_id: ctx.caller.id, request_id: ctx.requestId, changed_at: at,
    });
    events?.emit(a.workspace_id, 'appointment.statuschange', {
      appointment_id: a.id, partner_appointment_id: a.partner_appointment_id, patient_id: a.patient_id,
      status: to, previous_status: from, changed_at: at,
    });
  }

  function get(ctx: RequestContext, id: string, byPartner: boolean) {
    const row = store.find(ctx.caller.workspaceId, id, byPartner);
    audit.later(ctx, { action: 'appointment.read', resourceType: 'appointment', resourceIds: [row?.id ?? id], outcome: row ? 'success' : 'not_found' });
    if (!row) throw notFound();
    return { appointment: row, history: store.history(row.id) };
  }

  function day(ctx: RequestContext, date?: string) {
    const d = date ?? localDate(clock.now(), timezone(ctx.caller.workspaceId));
    const rows = store.day(ctx.caller.workspaceId, d);
    audit.later(ctx, { action: 'appointment.list', resourceType: 'appointment', resourceIds: rows.map((r) => r.id), outcome: 'success' });
    return { date: d, rows };
  }

  /**
   * Moves an appointment to `to` in one transaction with its history row and audit entry. Moving to the state it
   * is already in changes nothing and succeeds, so an integration can safely retry.
   */
  function transition(ctx: RequestContext, id: string, byPartner: boolean, to: Exclude<Status, 'BK'>, action: string): StatusChange {
    // Refusals are decided inside the transaction but thrown after it, so that their audit entry is not rolled back.
    const result = db.transaction((): StatusChange | { refused: ServiceError; outcome: 'not_found' | 'denied' | 'invalid'; appointmentId: string } => {
      const a = store.find(ctx.caller.workspaceId, id, byPartner);
      if (!a) return { refused: notFound(), outcome: 'not_found', appointmentId: id };
      if (!roleMayMoveTo(ctx.caller, to)) {
        const refused = new ServiceError(403, 'COMPLETE_NOT_ALLOWED', `Your role may not set an appointment to ${describe(to)}`);
        return { refused, outcome: 'denied', appointmentId: a.id };
      }
      if (a.status === to) return { appointment: a, previous_status: a.status, changed: false };
      const why = transitionError(a.status, to);
      if (why) return { refused: invalid(why), outcome: 'invalid', appointmentId: a.id };
      const now = isoNow(clock);
      store.setStatus(a.id, to, now);
      record(ctx, a, a.status, to, now);
      audit.inTransaction(ctx, { action, resourceType: 'appointment', resourceIds: [a.id], outcome: 'success' });
      return { appointment: { ...a, status: to, updated_at: now }, previous_status: a.status, changed: true };
    }).immediate();
    if ('refused' in result) {
      audit.later(ctx, { action, resourceType: 'appointment', resourceIds: [result.appointmentId], outcome: result.outcome });
      throw result.refused;
    }
    return result;
  }

  return {
    book,
    get,
    day,
    park: (ctx: RequestContext, id: string, byPartner: boolean) => transition(ctx, id, byPartner, 'PK', 'appointment.park'),
    changeStatus: (ctx: RequestContext, id: string, byPartner: boolean, to: ChangeStatusTarget) =>
      transition(ctx, id, byPartner, to, 'appointment.change_status'),
  };
}
export type AppointmentService = ReturnType<typeof appointmentService>;
