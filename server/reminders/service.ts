import { randomUUID } from 'node:crypto';
import type { AppointmentService } from '../appointments/service.js';
import { appointmentStore } from '../appointments/store.js';
import type { AuditLog } from '../audit/service.js';
import type { RequestContext } from '../auth/permissions.js';
import { authStore } from '../auth/store.js';
import { type Executor, type Tx, afterCommit, transaction } from '../db/tx.js';
import { ServiceError } from '../shared/errors.js';
import type { SecretBox } from '../shared/secret-box.js';
import { type Clock, isoNow, localDate } from '../shared/time.js';
import type { EventData, EventName, EventSink, ReminderEventName } from '../webhooks/outbox.js';
import type { Inbound, OutgoingMessage } from './providers/outcome.js';
import { sendSandbox } from './providers/sandbox.js';
import { sendWhatsAppText } from './providers/whatsapp.js';
import { type ReplyAction, interpret } from './replies.js';
import { noShowReport, weekStart } from './report.js';
import { schedulePoints } from './schedule.js';
import type { SettingsBody } from './schemas.js';
import { type ReminderSenderOptions, reminderSender, sendToProvider } from './sender.js';
import { type Settings, mergeSettings, openSettings, sealContext, textsOf, toView } from './settings.js';
import { type FinishFields, type JobRow, type JobStatus, type Reply, reminderStore } from './store.js';
import { NO_FACTS, answerText, fill, render } from './templates.js';

export interface ReminderOptions extends ReminderSenderOptions {
  /** The sandbox: messages go to the built-in stand-in provider (providers/sandbox.ts), never to the configured one. */
  sandbox?: boolean;
}

/** What the clinic answers a patient's message with. */
export interface Answer { to: string; text: string }

/** The statuses that call an appointment off: its reminders still to come are cancelled. */
const CALLED_OFF = ['CN', 'PK', 'NS'];

const notFound = () => new ServiceError(404, 'NOT_FOUND', 'This clinic has no reminder settings');

export const toJob = (j: JobRow) => ({
  id: j.id, appointment_id: j.appointment_id, point: j.point, due_at: j.due_at, status: j.status, attempts: j.attempts,
  provider: j.provider, to: j.to_number, provider_message_id: j.provider_message_id, text: j.body, error: j.last_error, updated_at: j.updated_at,
});

/**
 * Appointment reminders and confirmations by WhatsApp or SMS (issue 29). Nothing is sent unless a clinic configures
 * a provider. Reminder jobs are written in the transaction that books an appointment (and cancelled in the one that
 * calls it off) through `events`, the appointment service's event sink placed before the webhook outbox; the
 * sender works through them; the providers' webhooks bring delivery statuses and the patients' replies, which
 * change the appointment through its state machine as the patient.
 */
export function reminderService(db: Executor, clock: Clock, box: SecretBox, audit: AuditLog, outbox: EventSink, opts: ReminderOptions = {}) {
  const store = reminderStore(db);
  // The appointment and the clinic, read through their domains' stores.
  const bookings = appointmentStore(db);
  const clinics = authStore(db);
  const timezoneOf = async (workspaceId: string) => (await clinics.workspace(workspaceId))?.timezone ?? 'UTC';
  let appointments: AppointmentService | null = null;

  async function settingsOf(workspaceId: string, e: Executor = db): Promise<Settings | null> {
    const row = await reminderStore(e).settings(workspaceId);
    return row ? openSettings(row, box) : null;
  }

  const eventData = (j: JobRow, status: string, f: { error?: string | null; reply?: string | null }): EventData[ReminderEventName] => ({
    appointment_id: j.appointment_id, reminder_id: j.id, point: j.point, channel: j.provider, status,
    error: f.error ?? null, reply: f.reply ?? null, changed_at: isoNow(clock),
  });

  const STATUS_EVENTS: Partial<Record<JobStatus, ReminderEventName>> = {
    sent: 'appointment.reminder.sent', delivered: 'appointment.reminder.delivered', read: 'appointment.reminder.read',
    failed: 'appointment.reminder.failed',
  };

  async function finish(job: JobRow, status: JobStatus, f: FinishFields) {
    await transaction(db, async (tx) => {
      await reminderStore(tx).finish(job.id, status, isoNow(clock), f);
      const event = STATUS_EVENTS[status];
      if (event) await outbox.emit(tx, job.workspace_id, event, eventData({ ...job, provider: f.provider ?? job.provider }, status, f));
    });
  }

  const send = opts.sandbox ? (_s: Settings, m: OutgoingMessage) => sendSandbox(m) : sendToProvider;
  const sender = reminderSender({ db, store, clock, settings: (ws) => settingsOf(ws), send, finish }, opts);

  /**
   * The appointment service's event sink: schedules a booked appointment's reminders and cancels those of one
   * called off, inside the change's transaction, then hands the event to the webhook outbox.
   */
  const events: EventSink = {
    async emit<E extends EventName>(tx: Tx, workspaceId: string, event: E, data: EventData[E]) {
      if (event === 'appointment.statuschange') await appointmentChanged(tx, workspaceId, data as EventData['appointment.statuschange']);
      return outbox.emit(tx, workspaceId, event, data);
    },
  };

  async function appointmentChanged(tx: Tx, workspaceId: string, d: EventData['appointment.statuschange']) {
    const inTx = reminderStore(tx);
    const now = isoNow(clock);
    if (CALLED_OFF.includes(d.status)) return inTx.cancelFor(d.appointment_id, now, `the appointment became ${d.status}`);
    // Booked, or booked again by an undo of a park or no-show.
    if (d.status !== 'BK') return;
    const settings = await settingsOf(workspaceId, tx);
    if (!settings?.enabled) return;
    const facts = await inTx.facts(d.appointment_id);
    if (!facts) return;
    for (const p of schedulePoints(new Date(facts.scheduled_at), clock.now(), settings.config.schedule, facts.timezone)) {
      await inTx.schedule({ id: randomUUID(), workspace_id: workspaceId, appointment_id: d.appointment_id, point: p.point, due_at: p.due_at, created_at: now });
    }
    afterCommit(tx, () => sender.wake());
  }

  async function setSettings(ctx: RequestContext, body: SettingsBody) {
    const ws = ctx.caller.workspaceId;
    const previous = await settingsOf(ws);
    const { config, secrets } = mergeSettings(body, previous);
    const now = isoNow(clock);
    await transaction(db, async (tx) => {
      await reminderStore(tx).upsertSettings({
        workspace_id: ws, provider: body.provider, enabled: body.enabled ? 1 : 0, config: JSON.stringify(config),
        secrets_sealed: box.seal(JSON.stringify(secrets), sealContext(ws)), created_at: previous?.created_at ?? now, updated_at: now,
      });
      await audit.inTransaction(tx, ctx, {
        action: previous ? 'reminders.settings.replace' : 'reminders.settings.add', resourceType: 'reminder_settings', resourceIds: [ws], outcome: 'success',
      });
    });
    return getSettings(ctx);
  }

  async function getSettings(ctx: RequestContext) {
    const s = await settingsOf(ctx.caller.workspaceId);
    audit.later(ctx, { action: 'reminders.settings.read', resourceType: 'reminder_settings', outcome: s ? 'success' : 'not_found' });
    if (!s) throw notFound();
    return toView(s);
  }

  async function deleteSettings(ctx: RequestContext) {
    const ws = ctx.caller.workspaceId;
    if (!(await store.settings(ws))) throw notFound();
    await transaction(db, async (tx) => {
      await reminderStore(tx).deleteSettings(ws);
      await audit.inTransaction(tx, ctx, { action: 'reminders.settings.delete', resourceType: 'reminder_settings', resourceIds: [ws], outcome: 'success' });
    });
  }

  /** An appointment's reminders and the patient's answer: 404 for another clinic's appointment. */
  async function ofAppointment(ctx: RequestContext, appointmentId: string) {
    const a = await bookings.find(ctx.caller.workspaceId, appointmentId, false);
    if (!a) {
      audit.later(ctx, { action: 'reminders.read', resourceType: 'appointment', resourceIds: [appointmentId], outcome: 'not_found' });
      throw new ServiceError(404, 'APPOINTMENT_NOT_FOUND', 'The specified appointment ID does not exist');
    }
    audit.later(ctx, { action: 'reminders.read', resourceType: 'appointment', resourceIds: [a.id], outcome: 'success' });
    const reply = await store.reply(a.id);
    return {
      appointment_id: a.id, reply: reply ? { reply: reply.reply, received_at: reply.received_at } : null,
      reminders: (await store.jobsOf(a.id)).map(toJob),
    };
  }

  /** The last `weeks` weeks up to today (clinic time), oldest first. */
  async function report(ctx: RequestContext, weeks = 8) {
    const ws = ctx.caller.workspaceId;
    const today = localDate(clock.now(), await timezoneOf(ws));
    const starts = Array.from({ length: weeks }, (_, i) => {
      const d = new Date(`${weekStart(today)}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() - 7 * (weeks - 1 - i));
      return d.toISOString().slice(0, 10);
    });
    audit.later(ctx, { action: 'reminders.report', resourceType: 'appointment', outcome: 'success' });
    return { weeks: noShowReport(await store.noShowRows(ws, starts[0]!, today), starts) };
  }

  /** The queue's column: the day's appointments (default today, clinic time) with their reminder and answer. */
  async function day(ctx: RequestContext, date?: string) {
    const ws = ctx.caller.workspaceId;
    const d = date ?? localDate(clock.now(), await timezoneOf(ws));
    const appointments = await store.day(ws, d);
    audit.later(ctx, { action: 'reminders.day', resourceType: 'appointment', resourceIds: appointments.map((a) => a.appointment_id), outcome: 'success' });
    return { date: d, appointments };
  }

  async function log(ctx: RequestContext, limit = 50) {
    audit.later(ctx, { action: 'reminders.log', resourceType: 'reminder_job', outcome: 'success' });
    return (await store.jobs(ctx.caller.workspaceId, limit)).map(toJob);
  }

  /** The patient who answers, as the caller of the change their answer makes (audited as theirs). */
  const patientContext = (workspaceId: string, patientId: string, requestId: string | null): RequestContext => ({
    caller: { kind: 'patient', id: patientId, workspaceId, workspaceActive: true, role: null, scopes: new Set(['appointments:write']) },
    ip: null, requestId,
  });

  /**
   * A patient's message: STOP and START change the number's opt-out; Confirm, Cancel and Reschedule answer the
   * reminder (the button's, or the latest sent to that number) and are recorded, Cancel through the state machine.
   * Answers the text to send back, or null.
   */
  async function patientMessage(s: Settings, m: Extract<Inbound, { kind: 'message' }>, requestId: string | null): Promise<string | null> {
    const ws = s.workspaceId;
    const what = interpret(s.provider, m.text, m.payload);
    if (!what) return null;
    const now = isoNow(clock);
    if (what.action === 'stop' || what.action === 'start') {
      await (what.action === 'stop' ? store.optOut(ws, m.from, now) : store.optIn(ws, m.from));
      audit.later({ caller: null, ip: null, requestId }, { action: `reminders.${what.action === 'stop' ? 'opt_out' : 'opt_in'}`, resourceType: 'reminder_number', outcome: 'success' });
      return what.action === 'stop' ? render(textsOf(s.config).answers.stopped, { ...NO_FACTS, clinic: (await clinics.workspace(ws))?.name ?? '' }) : null;
    }
    const job = (what.jobId ? await store.job(what.jobId) : null)
      ?? (m.contextMessageId ? await store.byMessageId(ws, m.contextMessageId) : null)
      ?? await store.latestTo(ws, m.from);
    // Only a reminder this number was sent answers: a forwarded button pressed elsewhere changes nothing.
    if (!job || job.workspace_id !== ws || job.to_number !== m.from) return null;
    const facts = await store.facts(job.appointment_id);
    const a = await bookings.find(ws, job.appointment_id, false);
    if (!facts || !a) return null;
    const texts = textsOf(s.config);
    const filled = fill(facts, texts, s.config.clinic_address);
    const ctx = patientContext(ws, a.patient_id, requestId);
    const reply: Reply = ({ confirm: 'confirmed', cancel: 'cancelled', reschedule: 'reschedule' } as Record<ReplyAction, Reply>)[what.action];
    if (what.action === 'cancel') {
      try {
        await appointments!.changeStatus(ctx, a.id, false, 'CN');
      } catch (e) {
        if (e instanceof ServiceError && e.status < 500) return answerText('too_late', filled, texts);
        throw e;
      }
    } else if (!['BK', 'CK'].includes(a.status)) {
      return answerText('too_late', filled, texts);
    }
    await transaction(db, async (tx) => {
      await reminderStore(tx).setReply({ appointment_id: a.id, workspace_id: ws, reply, from_number: m.from, received_at: now });
      if (what.action !== 'cancel') {
        await audit.inTransaction(tx, ctx, { action: `appointment.${what.action}`, resourceType: 'appointment', resourceIds: [a.id], outcome: 'success' });
      }
      await outbox.emit(tx, ws, 'appointment.reminder.replied', eventData(job, job.status, { reply }));
    });
    appointments!.touched(ws);
    return answerText(reply, filled, texts);
  }

  /**
   * What a provider's (verified) webhook brought. Answers what to send back to the patient who wrote last (Twilio
   * replies with it in TwiML, WhatsApp with `answerOnWhatsApp`), or null.
   */
  async function inbound(s: Settings, items: Inbound[], requestId: string | null): Promise<Answer | null> {
    let answer: Answer | null = null;
    for (const item of items) {
      if (item.kind === 'status') {
        if (item.status === 'sent') continue;
        const job = await transaction(db, async (tx) => {
          // Only this clinic's reminders: the webhook was signed with its provider's secret.
          const j = await reminderStore(tx).deliveryStatus(s.workspaceId, item.messageId, item.status as 'delivered' | 'read' | 'failed', isoNow(clock), item.error);
          if (j) await outbox.emit(tx, j.workspace_id, STATUS_EVENTS[item.status]!, eventData(j, item.status, { error: item.error }));
          return j;
        });
        if (job) appointments!.touched(job.workspace_id);
      } else {
        const text = await patientMessage(s, item, requestId);
        if (text) answer = { to: item.from, text };
      }
    }
    return answer;
  }

  /** Sends the answer to a WhatsApp message back, in the background (Meta wants its webhook answered at once); best effort. */
  function answerOnWhatsApp(s: Settings, a: Answer) {
    if (opts.sandbox || !s.config.whatsapp) return;
    void sendWhatsAppText({ ...s.config.whatsapp, accessToken: s.secrets.access_token ?? '' }, a.to, a.text, AbortSignal.timeout(15_000)).then((o) => {
      if (o.kind !== 'sent') console.error(`clinic-desk reminders: the answer to a patient's WhatsApp message was not sent: ${o.error}`);
    });
  }

  return {
    events,
    answerOnWhatsApp,
    /** The appointment service, which replies change appointments through (made after this one: it takes `events`). */
    useAppointments: (a: AppointmentService) => void (appointments = a),
    settingsOf: (workspaceId: string) => settingsOf(workspaceId),
    setSettings,
    getSettings,
    deleteSettings,
    ofAppointment,
    log,
    day,
    report,
    inbound,
    sandbox: opts.sandbox === true,
    startSender: () => sender.start(),
    stopSender: () => sender.stop(),
    /** One pass over the due reminders now (tests move the clock, then call this). */
    runOnce: () => sender.runOnce(),
  };
}
export type ReminderService = ReturnType<typeof reminderService>;
