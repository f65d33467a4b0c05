import type { Bundle } from '@medplum/fhirtypes';
import type { AppointmentService } from '../appointments/service.js';
import type { RequestContext } from '../auth/permissions.js';
import type { AuthService } from '../auth/service.js';
import type { Tx } from '../db/tx.js';
import { formatMobile } from '../patients/mobile.js';
import { type PatientService, allergyList } from '../patients/service.js';
import type { SessionRow } from '../scribe/store.js';
import { ServiceError } from '../shared/errors.js';
import { buildFhirBundle } from './fhir.js';
import type { Emr } from './schemas.js';

/** Whom a note is of, as the note records it at signing. */
export interface NoteLink {
  patient_id: string | null;
  appointment_id: string | null;
}

/** One version of a note: 0 the scribe's draft (nobody signed it), 1 signed, 2… amendments. */
export interface BundleVersion {
  version: number;
  emr: Emr;
  created_by: string | null;
  created_at: string;
}

/**
 * One version of a session's note as a FHIR R4 document (fhir.ts), with the patient, the doctor who signed, the
 * clinic and the appointment read through their services (so each read is audited as the caller's). The export
 * route, the MCP tool and the note events' fhir option all build it here, so they give the same document. A note
 * event's bundle is built inside the signing's transaction (`tx`), and every read goes through it: on SQLite a
 * read through the service's executor would wait for that transaction to end, for ever, and on PostgreSQL it would
 * run on another connection, not seeing the note's own changes.
 */
export async function noteBundle(
  { auth, patients, appointments }: { auth: AuthService; patients: PatientService; appointments: AppointmentService },
  ctx: RequestContext, s: SessionRow, link: NoteLink, v: BundleVersion, tx?: Tx,
): Promise<Bundle> {
  const workspace = (await auth.workspace(s.workspace_id, tx))!;
  let patient;
  try {
    patient = link.patient_id ? await patients.get(ctx, link.patient_id, tx) : undefined;
  } catch (e) {
    // A session may name a patient id of the caller's own system, unknown here: the document says it without a name.
    if (!(e instanceof ServiceError) || e.status !== 404) throw e;
  }
  const appointment = link.appointment_id ? (await appointments.get(ctx, link.appointment_id, false, tx)).appointment : undefined;
  const signer = v.created_by ? await auth.user(v.created_by, tx) : undefined;
  return buildFhirBundle({
    emr: v.emr,
    note: { id: s.id, version: v.version, date: v.created_at },
    patient: patient
      ? {
        id: patient.id, first_name: patient.first_name, middle_name: patient.middle_name, last_name: patient.last_name, gender: patient.gender,
        dob: patient.dob, dob_estimated: patient.dob_estimated === 1, mobile: formatMobile({ cc: patient.mobile_cc, national: patient.mobile_national }),
        allergies: allergyList(patient),
      }
      : { ...(link.patient_id ? { id: link.patient_id } : {}) },
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
