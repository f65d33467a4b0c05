import { sql } from 'kysely';
import type { Executor } from '../db/tx.js';

export type Provider = 'whatsapp' | 'twilio';
export type JobStatus = 'pending' | 'sending' | 'sent' | 'delivered' | 'read' | 'failed' | 'cancelled' | 'skipped';
export type Reply = 'confirmed' | 'cancelled' | 'reschedule';

export interface SettingsRow {
  workspace_id: string;
  provider: Provider;
  enabled: number;
  config: string;
  secrets_sealed: string;
  created_at: string;
  updated_at: string;
}

export interface JobRow {
  id: string;
  workspace_id: string;
  appointment_id: string;
  point: string;
  due_at: string;
  status: JobStatus;
  attempts: number;
  in_doubt: number;
  next_attempt_at: string;
  lease_until: string | null;
  provider: Provider | null;
  to_number: string | null;
  provider_message_id: string | null;
  body: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** What a reminder says: the appointment with its patient, doctor and clinic. */
export interface MessageFacts {
  appointment_id: string;
  workspace_id: string;
  status: string;
  scheduled_at: string;
  token: number | null;
  first_name: string;
  last_name: string;
  mobile_cc: string;
  mobile_national: string;
  doctor_name: string | null;
  clinic_name: string;
  timezone: string;
}

export interface ReplyRow {
  appointment_id: string;
  workspace_id: string;
  reply: Reply;
  from_number: string;
  received_at: string;
}

/** A past appointment as the no-show report counts it. */
export interface NoShowRow { local_date: string; status: string; reply: Reply | null; reminded: number }

/** What a finished job records besides its status. */
export interface FinishFields { provider?: Provider; to?: string; messageId?: string | null; body?: string; error?: string | null }

/** Jobs still to be sent: waiting, or being sent (in doubt once their lease has run out). */
const OPEN = sql`status IN ('pending', 'sending')`;

/** All SQL of the reminders domain, for SQLite and PostgreSQL alike; a store made from a transaction writes inside it. */
export function reminderStore(e: Executor) {
  const k = e.k;
  return {
    async settings(workspaceId: string) {
      return (await sql<SettingsRow>`SELECT * FROM reminder_settings WHERE workspace_id = ${workspaceId}`.execute(k)).rows[0];
    },
    async upsertSettings(r: SettingsRow) {
      await sql`INSERT INTO reminder_settings (workspace_id, provider, enabled, config, secrets_sealed, created_at, updated_at)
        VALUES (${r.workspace_id}, ${r.provider}, ${r.enabled}, ${r.config}, ${r.secrets_sealed}, ${r.created_at}, ${r.updated_at})
        ON CONFLICT (workspace_id) DO UPDATE SET provider = excluded.provider, enabled = excluded.enabled, config = excluded.config,
         secrets_sealed = excluded.secrets_sealed, updated_at = excluded.updated_at`.execute(k);
    },
    async deleteSettings(workspaceId: string) {
      await sql`DELETE FROM reminder_settings WHERE workspace_id = ${workspaceId}`.execute(k);
    },

    /**
     * What a reminder's message says, in one read of the appointment, its patient, doctor and clinic: a deliberate
     * exception to domains reading only their own tables (docs/ARCHITECTURE.md, "Domains"), once per message sent.
     */
    async facts(appointmentId: string) {
      return (await sql<MessageFacts>`SELECT a.id AS appointment_id, a.workspace_id, a.status, a.scheduled_at, a.token, p.first_name,
        p.last_name, p.mobile_cc, p.mobile_national, u.display_name AS doctor_name, w.name AS clinic_name, w.timezone
        FROM appointments a JOIN patients p ON p.id = a.patient_id JOIN workspaces w ON w.id = a.workspace_id
        LEFT JOIN users u ON u.id = a.doctor_id WHERE a.id = ${appointmentId}`.execute(k)).rows[0];
    },

    /** A job per schedule point; a point cancelled earlier (the appointment was parked, then booked again) is reopened. */
    async schedule(r: Pick<JobRow, 'id' | 'workspace_id' | 'appointment_id' | 'point' | 'due_at' | 'created_at'>) {
      await sql`INSERT INTO reminder_jobs (id, workspace_id, appointment_id, point, due_at, status, next_attempt_at,
        created_at, updated_at) VALUES (${r.id}, ${r.workspace_id}, ${r.appointment_id}, ${r.point}, ${r.due_at}, 'pending',
        ${r.due_at}, ${r.created_at}, ${r.created_at})
        ON CONFLICT (appointment_id, point) DO UPDATE SET status = 'pending', due_at = excluded.due_at,
         next_attempt_at = excluded.next_attempt_at, attempts = 0, last_error = NULL, finished_at = NULL, updated_at = excluded.updated_at
         WHERE reminder_jobs.status = 'cancelled'`.execute(k);
    },
    async cancelFor(appointmentId: string, now: string, reason: string) {
      await sql`UPDATE reminder_jobs SET status = 'cancelled', lease_until = NULL, last_error = ${reason}, updated_at = ${now},
        finished_at = ${now} WHERE appointment_id = ${appointmentId} AND status = 'pending'`.execute(k);
    },

    /** Due jobs not held by a live lease, by due time. */
    async due(now: string, limit: number) {
      return (await sql<JobRow>`SELECT * FROM reminder_jobs WHERE ${OPEN} AND next_attempt_at <= ${now}
        AND (lease_until IS NULL OR lease_until <= ${now}) ORDER BY next_attempt_at, id LIMIT ${limit}`.execute(k)).rows;
    },
    /**
     * Takes a job for sending (compare-and-set: false when someone else did). A job taken while already 'sending' was
     * in doubt (its sender died between asking the provider and recording the answer): in_doubt counts that.
     */
    async lease(j: JobRow, now: string, leaseUntil: string) {
      return Number((await sql`UPDATE reminder_jobs SET status = 'sending', lease_until = ${leaseUntil}, attempts = attempts + 1,
        in_doubt = in_doubt + ${j.status === 'sending' ? 1 : 0}, updated_at = ${now}
        WHERE id = ${j.id} AND status = ${j.status} AND attempts = ${j.attempts}
          AND (lease_until IS NULL OR lease_until <= ${now})`.execute(k)).numAffectedRows ?? 0n) === 1;
    },
    /**
     * Gives back a job leased (by `lease` from the row `j` as it was read, until `leaseUntil`) and not sent: as it was
     * before the lease, so that the attempt is not counted nor the job taken for in doubt. Only while that lease holds.
     */
    async unlease(j: JobRow, leaseUntil: string) {
      await sql`UPDATE reminder_jobs SET status = ${j.status}, lease_until = NULL, attempts = attempts - 1,
        in_doubt = in_doubt - ${j.status === 'sending' ? 1 : 0} WHERE id = ${j.id} AND status = 'sending' AND lease_until = ${leaseUntil}`.execute(k);
    },
    /** SQLite has one process: at its start, a lease of the process that died is over. */
    async releaseLeases() {
      await sql`UPDATE reminder_jobs SET lease_until = NULL WHERE status = 'sending'`.execute(k);
    },
    async finish(id: string, status: JobStatus, now: string, f: FinishFields) {
      await sql`UPDATE reminder_jobs SET status = ${status}, lease_until = NULL, provider = COALESCE(${f.provider ?? null}, provider),
        to_number = COALESCE(${f.to ?? null}, to_number), provider_message_id = COALESCE(${f.messageId ?? null}, provider_message_id),
        body = COALESCE(${f.body ?? null}, body),
        last_error = ${f.error ?? null}, updated_at = ${now}, finished_at = ${now} WHERE id = ${id}`.execute(k);
    },
    async retry(id: string, now: string, nextAttemptAt: string, error: string) {
      await sql`UPDATE reminder_jobs SET status = 'pending', lease_until = NULL, last_error = ${error},
        next_attempt_at = ${nextAttemptAt}, updated_at = ${now} WHERE id = ${id}`.execute(k);
    },
    /** A provider's delivery status; never moves a job back (a late "sent" after "read"). */
    async deliveryStatus(workspaceId: string, messageId: string, status: 'delivered' | 'read' | 'failed', now: string, error: string | null) {
      return (await sql<JobRow>`UPDATE reminder_jobs SET status = ${status}, last_error = COALESCE(${error}, last_error), updated_at = ${now}
        WHERE workspace_id = ${workspaceId} AND provider_message_id = ${messageId} AND (status = 'sent' OR (status = 'delivered' AND ${status} <> 'delivered'))
        RETURNING *`.execute(k)).rows[0];
    },
    async job(id: string) {
      return (await sql<JobRow>`SELECT * FROM reminder_jobs WHERE id = ${id}`.execute(k)).rows[0];
    },
    async byMessageId(workspaceId: string, messageId: string) {
      return (await sql<JobRow>`SELECT * FROM reminder_jobs WHERE workspace_id = ${workspaceId} AND provider_message_id = ${messageId}`.execute(k)).rows[0];
    },
    /** The latest reminder that reached this number from the clinic: what an SMS keyword answers. */
    async latestTo(workspaceId: string, number: string) {
      return (await sql<JobRow>`SELECT * FROM reminder_jobs WHERE workspace_id = ${workspaceId} AND to_number = ${number}
        AND status IN ('sent', 'delivered', 'read') ORDER BY updated_at DESC, id DESC LIMIT 1`.execute(k)).rows[0];
    },
    async jobsOf(appointmentId: string) {
      return (await sql<JobRow>`SELECT * FROM reminder_jobs WHERE appointment_id = ${appointmentId} ORDER BY due_at, id`.execute(k)).rows;
    },
    async jobs(workspaceId: string, limit: number) {
      return (await sql<JobRow>`SELECT * FROM reminder_jobs WHERE workspace_id = ${workspaceId}
        ORDER BY updated_at DESC, id DESC LIMIT ${limit}`.execute(k)).rows;
    },

    /**
     * A day's appointments with their reminder's status and the patient's answer: the reminder last sent (or failed),
     * else the next one due; cancelled and skipped ones aside. One query over the day's appointments for the queue's
     * column, the deliberate exception as `facts`; so is `noShowRows`, for the report.
     */
    async day(workspaceId: string, date: string) {
      return (await sql<{ appointment_id: string; reminder: string | null; reply: Reply | null }>`SELECT a.id AS appointment_id,
        (SELECT j.status FROM reminder_jobs j WHERE j.appointment_id = a.id AND j.status NOT IN ('cancelled', 'skipped')
          ORDER BY CASE WHEN j.status IN ('pending', 'sending') THEN 1 ELSE 0 END, j.updated_at DESC, j.due_at, j.id LIMIT 1) AS reminder, r.reply
        FROM appointments a LEFT JOIN reminder_replies r ON r.appointment_id = a.id
        WHERE a.workspace_id = ${workspaceId} AND a.local_date = ${date} ORDER BY a.scheduled_at, a.id`.execute(k)).rows;
    },
    /** Appointments of [from, to) that were attended or missed, with whether a reminder reached the patient and the answer. */
    async noShowRows(workspaceId: string, from: string, to: string) {
      return (await sql<NoShowRow>`SELECT a.local_date, a.status, r.reply, (SELECT COUNT(*) FROM reminder_jobs j WHERE j.appointment_id = a.id
        AND j.status IN ('sent', 'delivered', 'read')) AS reminded
        FROM appointments a LEFT JOIN reminder_replies r ON r.appointment_id = a.id
        WHERE a.workspace_id = ${workspaceId} AND a.local_date >= ${from} AND a.local_date < ${to}
          AND a.status IN ('CK', 'OG', 'PK', 'CM', 'NS')`.execute(k)).rows.map((r) => ({ ...r, reminded: Number(r.reminded) }));
    },
    async setReply(r: ReplyRow) {
      await sql`INSERT INTO reminder_replies (appointment_id, workspace_id, reply, from_number, received_at)
        VALUES (${r.appointment_id}, ${r.workspace_id}, ${r.reply}, ${r.from_number}, ${r.received_at})
        ON CONFLICT (appointment_id) DO UPDATE SET reply = excluded.reply, from_number = excluded.from_number,
         received_at = excluded.received_at`.execute(k);
    },
    async reply(appointmentId: string) {
      return (await sql<ReplyRow>`SELECT * FROM reminder_replies WHERE appointment_id = ${appointmentId}`.execute(k)).rows[0];
    },

    async optOut(workspaceId: string, number: string, now: string) {
      await sql`INSERT INTO reminder_opt_outs (workspace_id, number, created_at) VALUES (${workspaceId}, ${number}, ${now})
        ON CONFLICT (workspace_id, number) DO NOTHING`.execute(k);
    },
    async optIn(workspaceId: string, number: string) {
      await sql`DELETE FROM reminder_opt_outs WHERE workspace_id = ${workspaceId} AND number = ${number}`.execute(k);
    },
    async optedOut(workspaceId: string, number: string) {
      return (await sql`SELECT 1 AS x FROM reminder_opt_outs WHERE workspace_id = ${workspaceId} AND number = ${number}`.execute(k)).rows.length > 0;
    },
  };
}
export type ReminderStore = ReturnType<typeof reminderStore>;
