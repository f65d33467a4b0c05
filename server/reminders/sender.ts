import type { Executor } from '../db/tx.js';
import { DEFAULT_RETRY, type RetryPolicy, backoffMs } from '../notifications/sender.js';
import { senderLoop } from '../shared/loop.js';
import type { Clock } from '../shared/time.js';
import type { OutgoingMessage, SendOutcome } from './providers/outcome.js';
import { sendTwilio } from './providers/twilio.js';
import { sendWhatsApp } from './providers/whatsapp.js';
import { afterQuietHours } from './schedule.js';
import { type Settings, textsOf, webhookPath } from './settings.js';
import type { FinishFields, JobRow, JobStatus, ReminderStore } from './store.js';
import { fill, smsText } from './templates.js';

export interface ReminderSenderOptions {
  retry?: Partial<RetryPolicy>;
  /** How often due reminders are looked for when nothing wakes the sender. Default 5 s. */
  pollIntervalMs?: number;
  /** A reminder being sent is this process's for this long (PostgreSQL: then another instance may take it). */
  leaseMs?: number;
  /** Per provider request. Default 15 s. */
  requestTimeoutMs?: number;
  onError?: (e: unknown) => void;
}

/** The clinic's own provider. */
export const sendToProvider = (settings: Settings, message: OutgoingMessage, signal: AbortSignal): Promise<SendOutcome> =>
  settings.provider === 'whatsapp'
    ? sendWhatsApp({ ...settings.config.whatsapp!, accessToken: settings.secrets.access_token! }, message, signal)
    : sendTwilio({ ...settings.config.twilio!, authToken: settings.secrets.auth_token! }, message, signal);

/** The number a reminder goes to: the patient's mobile as stored, in international form. */
export const e164 = (cc: string, national: string) => `+${cc}${national}`;

interface Deps {
  db: Executor;
  store: ReminderStore;
  clock: Clock;
  /** The clinic's settings, opened, or null when it has none. */
  settings: (workspaceId: string) => Promise<Settings | null>;
  /** Asks the clinic's provider (the sandbox's built-in one in the sandbox). */
  send: (settings: Settings, message: OutgoingMessage, signal: AbortSignal) => Promise<SendOutcome>;
  /** Records a job's outcome (sent, failed, …) with its webhook event, in one transaction, and tells the live queue. */
  finish: (job: JobRow, status: JobStatus, f: FinishFields) => Promise<void>;
}

/**
 * Sends due reminders (reminder_jobs) on a startLoop. A job is marked 'sending' in the database before its provider
 * is asked and given its outcome after the answer, so a crash in between leaves it 'sending': it is then in doubt
 * and sent once more, at most (in_doubt), never a third time. Temporary failures (network, 429, 5xx) are retried
 * with backoff, as rows with a later next_attempt_at; permanent ones (4xx) are recorded with the provider's reason.
 */
export function reminderSender(deps: Deps, opts: ReminderSenderOptions = {}) {
  const { db, store, clock } = deps;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  const leaseMs = opts.leaseMs ?? 60_000;
  const timeoutMs = opts.requestTimeoutMs ?? 15_000;
  const onError = opts.onError ?? ((e: unknown) => console.error('clinic-desk reminder sender:', e instanceof Error ? e.message : e));
  const usable = () => !loop.stopped && db.open;
  const iso = (ms: number) => new Date(ms).toISOString();

  // Jobs leased by this sender that a failure (the database's, mostly: a terminated session) left neither recorded nor
  // given back: settled at the next tick while their lease is still this sender's, rather than left 'sending' with
  // nobody sending them until the lease runs out, and then taken for in doubt. One not yet asked of its provider is
  // given back as it was; one the provider answered has its answer written (`write`), not sent again.
  const unsettled = new Map<string, { job: JobRow; leaseUntil: string; write?: () => Promise<void> }>();

  /** `write` settles the job: once it is done, nothing is left of it to settle. */
  async function settled(id: string, write: Promise<void>) {
    await write;
    unsettled.delete(id);
  }
  const finish = (job: JobRow, status: JobStatus, f: FinishFields) => settled(job.id, deps.finish(job, status, f));

  /** What earlier failures left (see `unsettled`); those whose lease has run out are another sender's to take. */
  async function settle() {
    for (const [id, u] of [...unsettled]) {
      if (!usable()) return;
      if (clock.now().getTime() < Date.parse(u.leaseUntil)) {
        if (!u.write) await store.unlease(u.job, u.leaseUntil);
        else {
          // Unless it was written after all (a commit whose answer was lost).
          const row = await store.job(id);
          if (row?.status === 'sending' && row.lease_until === u.leaseUntil) await u.write();
        }
      }
      unsettled.delete(id);
    }
  }

  async function deliver(job: JobRow) {
    const nowMs = clock.now().getTime();
    const leaseUntil = iso(nowMs + leaseMs);
    // Until the provider is asked, a failure gives the job back (the lease's commit may be made though its answer was lost).
    unsettled.set(job.id, { job, leaseUntil });
    if (!(await store.lease(job, iso(nowMs), leaseUntil))) return void unsettled.delete(job.id);
    if (job.status === 'sending' && job.in_doubt >= 1) {
      return finish(job, 'failed', { error: 'in doubt: two attempts ended before their answer was recorded; not sent a third time' });
    }
    const facts = await store.facts(job.appointment_id);
    const settings = await deps.settings(job.workspace_id);
    if (!facts || !settings?.enabled) return finish(job, 'cancelled', { error: 'reminders are off for this clinic' });
    const { config } = settings;
    if (!config.schedule.states.includes(facts.status)) return finish(job, 'skipped', { error: `the appointment is ${facts.status}` });
    if (new Date(facts.scheduled_at).getTime() <= nowMs) return finish(job, 'skipped', { error: 'the appointment time has passed' });
    const to = e164(facts.mobile_cc, facts.mobile_national);
    if (await store.optedOut(job.workspace_id, to)) return finish(job, 'skipped', { to, error: 'the number opted out (STOP)' });
    const later = afterQuietHours(new Date(nowMs), config.schedule.quiet_hours, facts.timezone);
    if (later.getTime() > nowMs) return settled(job.id, store.retry(job.id, iso(nowMs), later.toISOString(), 'waiting for the end of the quiet hours'));

    const texts = textsOf(config);
    const facts2 = fill(facts, texts, config.clinic_address);
    const message = {
      jobId: job.id, to, point: job.point, text: smsText(job.point, facts2, texts), facts: facts2, texts,
      statusCallback: config.public_url ? `${config.public_url}${webhookPath(settings.provider, job.workspace_id)}` : null,
    };
    const signal = AbortSignal.any([loop.signal, AbortSignal.timeout(timeoutMs)]);
    // From here a failure leaves the job 'sending', in doubt, as a crash would: the provider may have it.
    unsettled.delete(job.id);
    const outcome = await deps.send(settings, message, signal);
    // Stopping: the answer is not recorded, and the job stays 'sending' (in doubt) for the next start.
    if (!usable()) return;
    const provider = settings.provider;
    const write = async () => {
      if (outcome.kind === 'sent') return deps.finish(job, 'sent', { provider, to, messageId: outcome.messageId, body: message.text });
      if (outcome.kind === 'failed') {
        if (outcome.optedOut) await store.optOut(job.workspace_id, to, iso(clock.now().getTime()));
        return deps.finish(job, 'failed', { provider, to, error: outcome.error });
      }
      const attempt = job.attempts + 1;
      if (attempt >= retry.maxAttempts) return deps.finish(job, 'failed', { provider, to, error: `gave up after ${attempt} attempts: ${outcome.error}` });
      const next = clock.now().getTime() + backoffMs(retry, attempt, outcome.retryAfterMs);
      await store.retry(job.id, iso(clock.now().getTime()), iso(next), outcome.error);
    };
    unsettled.set(job.id, { job, leaseUntil, write });
    await settled(job.id, write());
  }

  async function tick() {
    if (unsettled.size) await settle();
    for (let round = 0; round < 20 && usable(); round++) {
      const due = await store.due(iso(clock.now().getTime()), 20);
      for (const job of due) {
        if (!usable()) return;
        try {
          await deliver(job);
        } catch (e) {
          if (db.open) onError(e);
        }
      }
      if (due.length < 20) break;
    }
  }

  const loop = senderLoop({ intervalMs: opts.pollIntervalMs ?? 5000, tick, onError: (e) => usable() && onError(e) });
  return {
    async start() {
      // One process per SQLite file: a 'sending' lease left there is the dead process's.
      if (db.dialect === 'sqlite') await store.releaseLeases();
      loop.start();
    },
    wake: () => loop.wake(),
    /** Stops at once: requests in flight are aborted and their answers not recorded (those reminders are in doubt). */
    stop: () => loop.stop(),
    /** One pass over the due reminders (tests with a moved clock). */
    runOnce: tick,
  };
}
export type ReminderSender = ReturnType<typeof reminderSender>;
