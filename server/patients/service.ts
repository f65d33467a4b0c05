import { randomUUID } from 'node:crypto';
import type { AuthService } from '../auth/service.js';
import type { RequestContext } from '../auth/permissions.js';
import type { AuditLog } from '../audit/service.js';
import type { Db } from '../db/database.js';
import { ServiceError, invalid } from '../shared/errors.js';
import { type Clock, isoNow } from '../shared/time.js';
import { formatMobile, parseMobile } from './mobile.js';
import type { CreatePatientBody, PatientEntry, UpdatePatientBody } from './schemas.js';
import { type PatientRow, isUniqueViolation, patientStore } from './store.js';

export const fullName = (p: Pick<PatientRow, 'first_name' | 'middle_name' | 'last_name'>) =>
  [p.first_name, p.middle_name, p.last_name].map((s) => s.trim()).filter(Boolean).join(' ');

/** The interface's patient profile entry. */
export function toEntry(p: PatientRow): PatientEntry {
  return {
    name: fullName(p),
    patient_id: p.id,
    patient_profile: {
      patient_id: p.id,
      first_name: p.first_name,
      middle_name: p.middle_name,
      last_name: p.last_name,
      dob: p.dob,
      gender: p.gender,
      mobile: formatMobile({ cc: p.mobile_cc, national: p.mobile_national }),
      email: p.email ?? '',
      created_at: p.created_at,
    },
  };
}

const notFound = () => new ServiceError(404, 'PATIENT_NOT_FOUND', 'No patient with this id in your clinic');
const duplicate = () =>
  new ServiceError(409, 'PATIENT_ALREADY_EXISTS', 'A patient with this mobile, name and date of birth is already registered');

function checkDob(dob: string, clock: Clock) {
  const d = new Date(`${dob}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== dob) throw invalid(`dob ${dob} is not a calendar date`);
  if (d > clock.now()) throw invalid('dob is in the future');
  if (d.getUTCFullYear() < 1890) throw invalid('dob is before 1890');
}

export function patientService(db: Db, clock: Clock, auth: AuthService, audit: AuditLog) {
  const store = patientStore(db);

  const country = (workspaceId: string) => auth.workspace(workspaceId)?.country ?? 'IN';

  function mobileOf(input: string, workspaceId: string) {
    const m = parseMobile(input, country(workspaceId));
    if (!m) throw invalid(`mobile ${JSON.stringify(input)} is not a possible phone number`);
    return m;
  }

  /** Patients whose national mobile number is these 10 digits, newest first. */
  function search(ctx: RequestContext, mobile10: string): PatientRow[] {
    const rows = store.byMobile(ctx.caller.workspaceId, mobile10);
    audit.later(ctx, {
      action: 'patient.search', resourceType: 'patient', resourceIds: rows.map((r) => r.id),
      outcome: rows.length ? 'success' : 'not_found',
    });
    return rows;
  }

  function get(ctx: RequestContext, id: string): PatientRow {
    const row = store.byId(ctx.caller.workspaceId, id);
    audit.later(ctx, { action: 'patient.read', resourceType: 'patient', resourceIds: [id], outcome: row ? 'success' : 'not_found' });
    if (!row) throw notFound();
    return row;
  }

  const create = (ctx: RequestContext, input: CreatePatientBody): PatientRow => {
    checkDob(input.dob, clock);
    const m = mobileOf(input.mobile, ctx.caller.workspaceId);
    const now = isoNow(clock);
    const row: PatientRow = {
      id: randomUUID(), workspace_id: ctx.caller.workspaceId,
      first_name: input.first_name.trim(), middle_name: (input.middle_name ?? '').trim(), last_name: input.last_name.trim(),
      dob: input.dob, gender: input.gender, mobile_cc: m.cc, mobile_national: m.national, email: input.email || null,
      created_at: now, updated_at: now,
    };
    try {
      db.transaction(() => {
        store.insert(row);
        audit.inTransaction(ctx, { action: 'patient.create', resourceType: 'patient', resourceIds: [row.id], outcome: 'success' });
      })();
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      audit.later(ctx, { action: 'patient.create', resourceType: 'patient', outcome: 'conflict' });
      throw duplicate();
    }
    return row;
  };

  const update = (ctx: RequestContext, id: string, patch: UpdatePatientBody): PatientRow => {
    if (patch.dob !== undefined) checkDob(patch.dob, clock);
    const m = patch.mobile !== undefined ? mobileOf(patch.mobile, ctx.caller.workspaceId) : undefined;
    try {
      return db.transaction(() => {
        const current = store.byId(ctx.caller.workspaceId, id);
        if (!current) throw notFound();
        const next: PatientRow = {
          ...current,
          first_name: patch.first_name?.trim() ?? current.first_name,
          middle_name: patch.middle_name?.trim() ?? current.middle_name,
          last_name: patch.last_name?.trim() ?? current.last_name,
          dob: patch.dob ?? current.dob,
          gender: patch.gender ?? current.gender,
          mobile_cc: m?.cc ?? current.mobile_cc,
          mobile_national: m?.national ?? current.mobile_national,
          email: patch.email === undefined ? current.email : patch.email || null,
          updated_at: isoNow(clock),
        };
        store.update(next);
        audit.inTransaction(ctx, { action: 'patient.update', resourceType: 'patient', resourceIds: [id], outcome: 'success' });
        return next;
      })();
    } catch (e) {
      const outcome = isUniqueViolation(e) ? 'conflict' : e instanceof ServiceError ? 'not_found' : 'error';
      audit.later(ctx, { action: 'patient.update', resourceType: 'patient', resourceIds: [id], outcome });
      throw isUniqueViolation(e) ? duplicate() : e;
    }
  };

  /**
   * Bulk load for tools (the seed command, migrations from another system): adds `rows` to a workspace in
   * transactions of `batchSize` rows, skipping any whose id or identity (mobile, names, dob) is already taken, and
   * returns how many were added. Rows are trusted to be well formed (the schema's CHECKs still apply); no request
   * context and no audit entry per row: the tool that imports says what it did. A batch commits with the
   * connection's durability settings; a failure rolls back only the batch it happened in.
   */
  function importPatients(workspaceId: string, rows: Iterable<Omit<PatientRow, 'workspace_id'>>, batchSize = 50_000): number {
    let inserted = 0;
    let batch: PatientRow[] = [];
    const commit = db.transaction((list: PatientRow[]) => {
      let n = 0;
      for (const row of list) if (store.insertOrIgnore(row)) n++;
      return n;
    });
    for (const row of rows) {
      batch.push({ ...row, workspace_id: workspaceId });
      if (batch.length >= batchSize) {
        inserted += commit.immediate(batch);
        batch = [];
      }
    }
    if (batch.length) inserted += commit.immediate(batch);
    return inserted;
  }

  return { search, get, create, update, insertRow: store.insert, importPatients };
}
export type PatientService = ReturnType<typeof patientService>;
