import { sql } from 'kysely';
import { authStore } from '../auth/store.js';
import { type Executor, Tx, transaction } from '../db/tx.js';
import { patientStore } from '../patients/store.js';
import type { Status } from './states.js';

export interface AppointmentRow {
  id: string;
  workspace_id: string;
  patient_id: string;
  partner_appointment_id: string | null;
  doctor_id: string | null;
  scheduled_at: string;
  local_date: string;
  reason: string;
  status: Status;
  created_at: string;
  updated_at: string;
  duration_min: number;
  walk_in: 0 | 1;
  overbook: 0 | 1;
  token: number | null;
}

/** An appointment with the patient fields a front-desk list shows. */
export interface AppointmentListRow extends AppointmentRow {
  first_name: string;
  middle_name: string;
  last_name: string;
  mobile_cc: string;
  mobile_national: string;
  /** When the latest change was made, if it is one an undo may reverse (a check-in, park or no-show). */
  undoable_change_at: string | null;
}

export interface StatusChangeRow {
  appointment_id: string;
  workspace_id: string;
  from_status: Status | null;
  to_status: Status;
  actor_type: string;
  actor_id: string;
  request_id: string | null;
  changed_at: string;
  correction: 0 | 1;
  overbook: 0 | 1;
  token: number | null;
}

/** Another appointment holding the same doctor or patient at an overlapping time. */
export interface ClashRow {
  id: string;
  patient_id: string;
  doctor_id: string | null;
  scheduled_at: string;
  duration_min: number;
  status: Status;
}

/** A checked-in or ongoing appointment of today, as the waiting-room board shows it. */
export interface BoardRow {
  doctor_id: string | null;
  doctor_name: string | null;
  status: Status;
  token: number | null;
  first_name: string;
  scheduled_at: string;
}

/** How many rows a statement changed: Kysely answers a bigint on both databases. */
const changed = (r: { numAffectedRows?: bigint }) => (r.numAffectedRows ?? 0n) > 0n;

export interface FindOptions {
  /**
   * Lock the row until the caller's transaction ends (PostgreSQL: FOR NO KEY UPDATE), so that two instances changing
   * one appointment at once take turns and the second reads what the first wrote. SQLite needs nothing: a transaction
   * holds the database's write lock from BEGIN IMMEDIATE. Run it on a transaction's executor.
   */
  lock?: boolean;
}

/**
 * All SQL of the appointments domain, for SQLite and PostgreSQL alike (server/db/sql.ts says how): every statement
 * runs on `e.k`, the database's Kysely or the open transaction's, so a store made from a transaction
 * (`appointmentStore(tx)`) reads and writes inside it. appointments has no `seq` on PostgreSQL (nothing orders it by
 * insertion), so `a.*` is the same row on both.
 *
 * What several instances on one PostgreSQL need, and SQLite's write lock gave for free: a status change reads its
 * appointment locked (`find(…, { lock: true })`); a booking locks its patient and doctor first (`lockForBooking`), so
 * that two bookings of one slot cannot both see it free; a token is counted under a lock on the row that owns the
 * numbering (`setStatusGivingToken`); a partner id taken meanwhile by another booking is a refused insert (`insert`
 * answers false), not an error.
 */
export function appointmentStore(e: Executor) {
  const k = e.k;
  const postgres = e.dialect === 'postgres';

  const self = {
    /**
     * Inserts a booking; false when its partner_appointment_id was taken meanwhile (by another instance's booking
     * that committed after this one looked: the caller answers the same 409 as when it saw it). Other constraint
     * errors throw.
     */
    async insert(a: AppointmentRow) {
      return changed(await sql`INSERT INTO appointments (id, workspace_id, patient_id, partner_appointment_id, doctor_id,
        scheduled_at, local_date, reason, status, created_at, updated_at, duration_min, walk_in, overbook, token)
        VALUES (${a.id}, ${a.workspace_id}, ${a.patient_id}, ${a.partner_appointment_id}, ${a.doctor_id}, ${a.scheduled_at},
        ${a.local_date}, ${a.reason}, ${a.status}, ${a.created_at}, ${a.updated_at}, ${a.duration_min}, ${a.walk_in},
        ${a.overbook}, ${a.token})
        ON CONFLICT (workspace_id, partner_appointment_id) WHERE partner_appointment_id IS NOT NULL DO NOTHING`.execute(k));
    },
    async find(workspaceId: string, id: string, byPartner: boolean, opts: FindOptions = {}) {
      return (await sql<AppointmentRow>`SELECT * FROM appointments
        WHERE ${sql.ref(byPartner ? 'partner_appointment_id' : 'id')} = ${id} AND workspace_id = ${workspaceId}${
          opts.lock && postgres ? sql` FOR NO KEY UPDATE` : sql``}`.execute(k)).rows[0];
    },
    /**
     * `token` only when it changes: writing a token, even the same one, rewrites its entry in appointments_token, a
     * page more for every commit to write (2 pages instead of 1 for this statement, of ~8 for a status change).
     */
    async setStatus(id: string, status: Status, at: string, token?: number | null) {
      await sql`UPDATE appointments SET status = ${status}${token === undefined ? sql`` : sql`, token = ${token}`}, updated_at = ${at}
        WHERE id = ${id}`.execute(k);
    },
    /**
     * Sets the status and gives the appointment the next token of its doctor's day (of the clinic's, without a
     * doctor); answers the token. On PostgreSQL instances give tokens at the same moment: each first locks the row
     * that owns the numbering (the doctor's user row, or the clinic's workspace row without a doctor, through auth's
     * store; FOR NO KEY UPDATE, which foreign-key checks do not wait for) until its transaction ends, so the next one counts after
     * the previous one's commit (READ COMMITTED: each statement sees what committed before it). Retrying on the
     * unique index instead costs a wasted round per competitor: with twelve check-ins at once, up to eleven. The
     * index appointments_token still refuses a duplicate whatever happens. SQLite: the transaction's write lock.
     */
    async setStatusGivingToken(a: Pick<AppointmentRow, 'id' | 'workspace_id' | 'local_date' | 'doctor_id'>, status: Status, at: string) {
      const give = async (x: Executor) => {
        const owners = authStore(x);
        await (a.doctor_id !== null ? owners.lockUser(a.doctor_id) : owners.lockWorkspace(a.workspace_id));
        const s = x === e ? self : appointmentStore(x);
        const n = await s.nextToken(a.workspace_id, a.local_date, a.doctor_id);
        await s.setStatus(a.id, status, at, n);
        return n;
      };
      // A lock outside a transaction would end with its statement: on the database's executor, one of its own.
      return postgres && !(e instanceof Tx) ? transaction(e, give) : give(e);
    },
    // day and board read the patients' names (and board the doctors') in the same query: one query for a list page,
    // the deliberate exception to domains reading only their own tables (docs/ARCHITECTURE.md, "Domains").
    async day(workspaceId: string, date: string) {
      return (await sql<AppointmentListRow>`SELECT a.*, p.first_name, p.middle_name, p.last_name, p.mobile_cc, p.mobile_national,
        (SELECT CASE WHEN c.from_status IS NOT NULL AND c.correction = 0 AND c.to_status IN ('CK', 'PK', 'NS') THEN c.changed_at END
          FROM appointment_status_changes c WHERE c.appointment_id = a.id ORDER BY c.id DESC LIMIT 1) AS undoable_change_at
        FROM appointments a JOIN patients p ON p.id = a.patient_id
        WHERE a.workspace_id = ${workspaceId} AND a.local_date = ${date} ORDER BY a.scheduled_at, a.id`.execute(k)).rows;
    },
    async insertChange(c: StatusChangeRow) {
      await sql`INSERT INTO appointment_status_changes (appointment_id, workspace_id, from_status, to_status,
        actor_type, actor_id, request_id, changed_at, correction, overbook, token) VALUES (${c.appointment_id},
        ${c.workspace_id}, ${c.from_status}, ${c.to_status}, ${c.actor_type}, ${c.actor_id}, ${c.request_id}, ${c.changed_at},
        ${c.correction}, ${c.overbook}, ${c.token})`.execute(k);
    },
    async history(id: string) {
      return (await sql<StatusChangeRow & { id: number }>`SELECT * FROM appointment_status_changes
        WHERE appointment_id = ${id} ORDER BY id`.execute(k)).rows;
    },
    async lastChange(id: string) {
      return (await sql<StatusChangeRow & { id: number }>`SELECT * FROM appointment_status_changes
        WHERE appointment_id = ${id} ORDER BY id DESC LIMIT 1`.execute(k)).rows[0];
    },
    /**
     * Locks what a booking checks for clashes (PostgreSQL: the patient's row, then the doctor's, FOR NO KEY UPDATE,
     * always in that order) until the caller's transaction ends, so that a second booking of the same patient or
     * doctor waits and then sees the first. Nothing on SQLite, whose transaction holds the write lock.
     */
    async lockForBooking(patientId: string, doctorId: string | null) {
      await patientStore(e).lock(patientId);
      if (doctorId !== null) await authStore(e).lockUser(doctorId);
    },
    /**
     * Bookings of the doctor or the patient in HOLDS_SLOT states overlapping [start, end), each holding its own
     * [scheduled_at, + duration_min): the query takes those starting in [earliest, end) (earliest: end minus the
     * longest booking, which keeps the scan to the day around it) and the end of each is compared here, in
     * milliseconds, the same on both databases (SQLite's strftime date arithmetic has no PostgreSQL spelling that
     * is not another).
     */
    async clashes(p: { ws: string; doctor: string | null; patient: string; start: string; end: string; earliest: string }) {
      const rows = (await sql<ClashRow>`SELECT id, patient_id, doctor_id, scheduled_at, duration_min, status FROM appointments
        WHERE workspace_id = ${p.ws} AND (doctor_id = ${p.doctor} OR patient_id = ${p.patient})
          AND scheduled_at < ${p.end} AND scheduled_at >= ${p.earliest}
          AND status IN ('BK', 'CK', 'OG', 'PK')
        ORDER BY scheduled_at, id`.execute(k)).rows;
      const start = new Date(p.start).getTime();
      return rows.filter((r) => new Date(r.scheduled_at).getTime() + r.duration_min * 60_000 > start);
    },
    async nextToken(workspaceId: string, date: string, doctorId: string | null) {
      return (await sql<{ n: number }>`SELECT coalesce(max(token), 0) + 1 AS n FROM appointments
        WHERE workspace_id = ${workspaceId} AND local_date = ${date} AND coalesce(doctor_id, '') = coalesce(${doctorId}, '')`.execute(k)).rows[0]!.n;
    },
    async nextWaiting(workspaceId: string, date: string, doctorId: string) {
      return (await sql<AppointmentRow>`SELECT * FROM appointments WHERE workspace_id = ${workspaceId} AND local_date = ${date}
        AND doctor_id = ${doctorId} AND status = 'CK' ORDER BY token NULLS FIRST, scheduled_at, id LIMIT 1`.execute(k)).rows[0];
    },
    /** The doctor's patients with them now (OG) today, longest first. */
    async withDoctor(workspaceId: string, date: string, doctorId: string) {
      return (await sql<AppointmentRow>`SELECT * FROM appointments WHERE workspace_id = ${workspaceId} AND local_date = ${date}
        AND doctor_id = ${doctorId} AND status = 'OG' ORDER BY updated_at, id`.execute(k)).rows;
    },
    async board(workspaceId: string, date: string) {
      return (await sql<BoardRow>`SELECT a.doctor_id, u.display_name AS doctor_name, a.status, a.token, p.first_name, a.scheduled_at
        FROM appointments a JOIN patients p ON p.id = a.patient_id LEFT JOIN users u ON u.id = a.doctor_id
        WHERE a.workspace_id = ${workspaceId} AND a.local_date = ${date} AND a.status IN ('CK', 'OG')
        ORDER BY CASE WHEN a.token IS NULL THEN 1 ELSE 0 END, a.token, a.scheduled_at, a.id`.execute(k)).rows;
    },
  };
  return self;
}
