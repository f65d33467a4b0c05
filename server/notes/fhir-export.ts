import type { Bundle } from '@medplum/fhirtypes';
import type { RequestContext } from '../auth/permissions.js';
import type { UserRow, WorkspaceRow } from '../auth/store.js';
import { formatMobile } from '../patients/mobile.js';
import type { Service } from '../service.js';
import { ServiceError } from '../shared/errors.js';
import { buildFhirBundle } from './fhir.js';
import { noteReader, notesOf } from './service.js';

/**
 * A session's note as a FHIR R4 document (fhir.ts), with the patient, the doctor who signed, the clinic and the
 * appointment read through their services (so each read is audited as the caller's). `which` is a version as the
 * notes routes name them; "latest" is the newest signed version and refuses a note nobody has signed, since an
 * export stands for the clinical record: the scribe's draft is exported only when asked for ("draft" or 0).
 */
export function exportNoteFhir(service: Service, ctx: RequestContext, txnId: string, which = 'latest'): Bundle {
  const notes = notesOf(service);
  const v = notes.version(ctx, txnId, which);
  if (which === 'latest' && v.version === 0) {
    throw new ServiceError(409, 'NOT_SIGNED', `Note ${txnId} is not signed yet: sign it first, or ask for version=draft to export the scribe's draft as a preliminary document`);
  }
  const s = service.scribe.session(ctx.caller.workspaceId, txnId)!;
  const n = noteReader(service.db).note(s.id);
  const patientId = n?.patient_id ?? s.patient_id;
  const appointmentId = n?.appointment_id ?? null;
  // SELECT * rows: migration 0011's prescription columns are there, though WorkspaceRow and UserRow do not declare them yet.
  const workspace = service.auth.workspace(ctx.caller.workspaceId)! as WorkspaceRow & { address?: string | null };
  let patient;
  try {
    patient = patientId ? service.patients.get(ctx, patientId) : undefined;
  } catch (e) {
    // A session may name a patient id of the caller's own system, unknown here: the document says it without a name.
    if (!(e instanceof ServiceError) || e.status !== 404) throw e;
  }
  const appointment = appointmentId ? service.appointments.get(ctx, appointmentId, false).appointment : undefined;
  const signer = v.created_by ? service.auth.user(v.created_by) as UserRow & { qualification?: string | null; registration_number?: string | null } | undefined : undefined;
  service.audit.later(ctx, { action: 'note.export', resourceType: 'note', resourceIds: [s.id], outcome: 'success' });
  return buildFhirBundle({
    emr: v.emr,
    note: { id: s.id, version: v.version, date: v.created_at },
    patient: patient
      ? {
        id: patient.id, first_name: patient.first_name, middle_name: patient.middle_name, last_name: patient.last_name, gender: patient.gender,
        dob: patient.dob, dob_estimated: patient.dob_estimated === 1, mobile: formatMobile({ cc: patient.mobile_cc, national: patient.mobile_national }),
      }
      : { ...(patientId ? { id: patientId } : {}) },
    ...(signer ? {
      practitioner: {
        id: signer.id, name: signer.display_name,
        ...(signer.qualification ? { qualification: signer.qualification } : {}),
        ...(signer.registration_number ? { registration_number: signer.registration_number } : {}),
      },
    } : {}),
    organization: { id: workspace.id, name: workspace.name, ...(workspace.address ? { address: workspace.address } : {}) },
    encounter: appointment
      ? { kind: 'appointment', id: appointment.id, start: appointment.scheduled_at }
      : { kind: 'session', id: s.id, start: s.created_at },
    timeZone: workspace.timezone,
  });
}
