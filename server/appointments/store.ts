import type { Db } from '../db/database.js';
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
}

/** An appointment with the patient fields a front-desk list shows. */
export interface AppointmentListRow extends AppointmentRow {
  first_name: string;
  middle_name: string;
  last_name: string;
  mobile_cc: string;
  mobile_national: string;
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
}

/** All SQL of the appointments domain. */
export function appointmentStore(db: Db) {
  const q = {
    insert: db.prepare(`INSERT INTO appointments (id, workspace_id, patient_id, partner_appointment_id, doctor_id,
      scheduled_at, local_date, reason, status, created_at, updated_at) VALUES (@id, @workspace_id, @patient_id,
      @partner_appointment_id, @doctor_id, @scheduled_at, @local_date, @reason, @status, @created_at, @updated_at)`),
    byId: db.prepare('SELECT * FROM appointments WHERE id = ? AND workspace_id = ?'),
    byPartnerId: db.prepare('SELECT * FROM appointments WHERE partner_appointment_id = ? AND workspace_id = ?'),
    setStatus: db.prepare('UPDATE appointments SET status = ?, updated_at = ? WHERE id = ?'),
    day: db.prepare(`SELECT a.*, p.first_name, p.middle_name, p.last_name, p.mobile_cc, p.mobile_national
      FROM appointments a JOIN patients p ON p.id = a.patient_id
      WHERE a.workspace_id = ? AND a.local_date = ? ORDER BY a.scheduled_at, a.id`),
    insertChange: db.prepare(`INSERT INTO appointment_status_changes (appointment_id, workspace_id, from_status,
      to_status, actor_type, actor_id, request_id, changed_at) VALUES (@appointment_id, @workspace_id, @from_status,
      @to_status, @actor_type, @actor_id, @request_id, @changed_at)`),
    history: db.prepare(`SELECT * FROM appointment_status_changes WHERE appointment_id = ? ORDER BY id`),
  };
  return {
    insert: (a: AppointmentRow) => q.insert.run(a),
    find: (workspaceId: string, id: string, byPartner: boolean) =>
      (byPartner ? q.byPartnerId : q.byId).get(id, workspaceId) as AppointmentRow | undefined,
    setStatus: (id: string, status: Status, at: string) => q.setStatus.run(status, at, id),
    day: (workspaceId: string, date: string) => q.day.all(workspaceId, date) as AppointmentListRow[],
    insertChange: (c: StatusChangeRow) => q.insertChange.run(c),
    history: (id: string) => q.history.all(id) as (StatusChangeRow & { id: number })[],
  };
}
