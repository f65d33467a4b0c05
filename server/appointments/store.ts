import { type Executor, perConnection } from '../db/tx.js';
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

const statements = perConnection((db) => ({
  insert: db.prepare(`INSERT INTO appointments (id, workspace_id, patient_id, partner_appointment_id, doctor_id,
    scheduled_at, local_date, reason, status, created_at, updated_at, duration_min, walk_in, overbook, token)
    VALUES (@id, @workspace_id, @patient_id, @partner_appointment_id, @doctor_id, @scheduled_at, @local_date, @reason,
    @status, @created_at, @updated_at, @duration_min, @walk_in, @overbook, @token)`),
  byId: db.prepare('SELECT * FROM appointments WHERE id = ? AND workspace_id = ?'),
  byPartnerId: db.prepare('SELECT * FROM appointments WHERE partner_appointment_id = ? AND workspace_id = ?'),
  setStatus: db.prepare('UPDATE appointments SET status = ?, token = ?, updated_at = ? WHERE id = ?'),
  day: db.prepare(`SELECT a.*, p.first_name, p.middle_name, p.last_name, p.mobile_cc, p.mobile_national,
    (SELECT CASE WHEN c.from_status IS NOT NULL AND c.correction = 0 AND c.to_status IN ('CK', 'PK', 'NS') THEN c.changed_at END
      FROM appointment_status_changes c WHERE c.appointment_id = a.id ORDER BY c.id DESC LIMIT 1) AS undoable_change_at
    FROM appointments a JOIN patients p ON p.id = a.patient_id
    WHERE a.workspace_id = ? AND a.local_date = ? ORDER BY a.scheduled_at, a.id`),
  insertChange: db.prepare(`INSERT INTO appointment_status_changes (appointment_id, workspace_id, from_status,
    to_status, actor_type, actor_id, request_id, changed_at, correction, overbook, token) VALUES (@appointment_id,
    @workspace_id, @from_status, @to_status, @actor_type, @actor_id, @request_id, @changed_at, @correction, @overbook, @token)`),
  history: db.prepare(`SELECT * FROM appointment_status_changes WHERE appointment_id = ? ORDER BY id`),
  lastChange: db.prepare(`SELECT * FROM appointment_status_changes WHERE appointment_id = ? ORDER BY id DESC LIMIT 1`),
  // Overlap of [start, end) with each booking's own [scheduled_at, + duration_min); the lower bound on
  // scheduled_at (end minus the longest booking) keeps the scan to the day around it.
  clashes: db.prepare(`SELECT id, patient_id, doctor_id, scheduled_at, duration_min, status FROM appointments
    WHERE workspace_id = @ws AND (doctor_id = @doctor OR patient_id = @patient)
      AND scheduled_at < @end AND scheduled_at >= @earliest
      AND strftime('%Y-%m-%dT%H:%M:%fZ', scheduled_at, '+' || duration_min || ' minutes') > @start
      AND status IN ('BK', 'CK', 'OG', 'PK')
    ORDER BY scheduled_at`),
  nextToken: db.prepare(`SELECT coalesce(max(token), 0) + 1 AS n FROM appointments
    WHERE workspace_id = ? AND local_date = ? AND ifnull(doctor_id, '') = ifnull(?, '')`),
  nextWaiting: db.prepare(`SELECT * FROM appointments WHERE workspace_id = ? AND local_date = ? AND doctor_id = ?
    AND status = 'CK' ORDER BY token, scheduled_at LIMIT 1`),
  board: db.prepare(`SELECT a.doctor_id, u.display_name AS doctor_name, a.status, a.token, p.first_name, a.scheduled_at
    FROM appointments a JOIN patients p ON p.id = a.patient_id LEFT JOIN users u ON u.id = a.doctor_id
    WHERE a.workspace_id = ? AND a.local_date = ? AND a.status IN ('CK', 'OG')
    ORDER BY a.token IS NULL, a.token, a.scheduled_at`),
}));

/** All SQL of the appointments domain. */
export function appointmentStore(e: Executor) {
  const q = statements(e);
  return {
    insert: async (a: AppointmentRow) => void q.insert.run(a),
    find: async (workspaceId: string, id: string, byPartner: boolean) =>
      (byPartner ? q.byPartnerId : q.byId).get(id, workspaceId) as AppointmentRow | undefined,
    setStatus: async (id: string, status: Status, token: number | null, at: string) => void q.setStatus.run(status, token, at, id),
    day: async (workspaceId: string, date: string) => q.day.all(workspaceId, date) as AppointmentListRow[],
    insertChange: async (c: StatusChangeRow) => void q.insertChange.run(c),
    history: async (id: string) => q.history.all(id) as (StatusChangeRow & { id: number })[],
    lastChange: async (id: string) => q.lastChange.get(id) as (StatusChangeRow & { id: number }) | undefined,
    clashes: async (p: { ws: string; doctor: string | null; patient: string; start: string; end: string; earliest: string }) =>
      q.clashes.all(p) as ClashRow[],
    nextToken: async (workspaceId: string, date: string, doctorId: string | null) =>
      (q.nextToken.get(workspaceId, date, doctorId) as { n: number }).n,
    nextWaiting: async (workspaceId: string, date: string, doctorId: string) =>
      q.nextWaiting.get(workspaceId, date, doctorId) as AppointmentRow | undefined,
    board: async (workspaceId: string, date: string) => q.board.all(workspaceId, date) as BoardRow[],
  };
}
