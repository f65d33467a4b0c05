import { randomUUID } from 'node:crypto';
import type { AuthService } from '../auth/service.js';
import type { RequestContext } from '../auth/permissions.js';
import type { AuditLog } from '../audit/service.js';
import { dbErrorKind } from '../db/sql.js';
import { type Executor, type Tx, transaction } from '../db/tx.js';
import { ServiceError, invalid } from '../shared/errors.js';
import { type Clock, isoNow, localDate } from '../shared/time.js';
import { type Birth, type BirthInput, checkBirth } from './birth.js';
import { checkMobile, formatMobile } from './mobile.js';
import type { CreatePatientBody, PatientEntry, UpdatePatientBody } from './schemas.js';
import { type PatientRow, patientStore } from './store.js';

export const fullName = (p: Pick<PatientRow, 'first_name' | 'middle_name' | 'last_name'>) =>
  [p.first_name, p.middle_name, p.last_name].map((s) => s.trim()).filter(Boolean).join(' ');

/** The record's allergies, from the JSON they are stored as. */
export const allergyList = (p: Pick<PatientRow, 'allergies'>): string[] => JSON.parse(p.allergies ?? '[]') as string[];

/** The record's allergies as stored: each trimmed, and each once (a form's "penicillin, Penicillin" is one allergy). */
function storedAllergies(list: string[]): string {
  const seen = new Set<string>();
  const kept = list.map((a) => a.trim()).filter((a) => {
    const key = a.normalize('NFKC').toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return JSON.stringify(kept);
}

/**
 * The allergies in a patient's record, for the scribe's safety net, like notes' noteReader: a read of one
 * workspace's patients that needs no request context (the scribe session that asks is audited itself). An id that
 * is no patient of the workspace (an integration's own patient id) has none.
 */
export function patientAllergyReader(db: Executor) {
  const store = patientStore(db);
  return async (workspaceId: string, patientId: string): Promise<string[]> => {
    const row = await store.byId(workspaceId, patientId);
    return row ? allergyList(row) : [];
  };
}

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
      dob_estimated: p.dob_estimated === 1,
      gender: p.gender,
      mobile: formatMobile({ cc: p.mobile_cc, national: p.mobile_national }),
      email: p.email ?? '',
      created_at: p.created_at,
      allergies: allergyList(p),
    },
  };
}

const notFound = () => new ServiceError(404, 'PATIENT_NOT_FOUND', 'No patient with this id in your clinic');
const duplicate = () =>
  new ServiceError(409, 'PATIENT_ALREADY_EXISTS', 'A patient with this mobile, name and date of birth is already registered');

/** A patient whose stored mobile breaks the mobile rule, with why (Settings lists them for correction). */
export interface MobileReviewItem {
  patient: PatientRow;
  problem: string;
}

export function patientService(db: Executor, clock: Clock, auth: AuthService, audit: AuditLog) {
  const store = patientStore(db);

  const country = async (workspaceId: string) => (await auth.workspace(workspaceId))?.country ?? 'IN';
  const today = async (workspaceId: string) => localDate(clock.now(), (await auth.workspace(workspaceId))?.timezone ?? 'Asia/Kolkata');

  // Refusals start with the field's name, then a sentence (docs/API.md, Patient records): the app shows the
  // sentence next to that field.
  async function mobileOf(input: string, workspaceId: string) {
    const m = checkMobile(input, await country(workspaceId));
    if (!m.ok) throw invalid(`mobile: ${m.reason}`);
    return m.mobile;
  }

  async function birthOf(input: BirthInput, workspaceId: string): Promise<Birth> {
    const b = checkBirth(input, await today(workspaceId));
    if (!b.ok) throw invalid(`${b.field}: ${b.reason}`);
    return b.birth;
  }

  /** Patients whose national mobile number is these 10 digits, newest first. */
  async function search(ctx: RequestContext, mobile10: string): Promise<PatientRow[]> {
    const rows = await store.byMobile(ctx.caller.workspaceId, mobile10);
    audit.later(ctx, {
      action: 'patient.search', resourceType: 'patient', resourceIds: rows.map((r) => r.id),
      outcome: rows.length ? 'success' : 'not_found',
    });
    return rows;
  }

  /** `tx`: read inside that transaction (a note event's FHIR bundle is built in the signing's). */
  async function get(ctx: RequestContext, id: string, tx?: Tx): Promise<PatientRow> {
    const row = await (tx ? patientStore(tx) : store).byId(ctx.caller.workspaceId, id);
    audit.later(ctx, { action: 'patient.read', resourceType: 'patient', resourceIds: [id], outcome: row ? 'success' : 'not_found' });
    if (!row) throw notFound();
    return row;
  }

  const create = async (ctx: RequestContext, input: CreatePatientBody): Promise<PatientRow> => {
    const birth = await birthOf(input, ctx.caller.workspaceId);
    const m = await mobileOf(input.mobile, ctx.caller.workspaceId);
    const now = isoNow(clock);
    const row: PatientRow = {
      id: randomUUID(), workspace_id: ctx.caller.workspaceId,
      first_name: input.first_name.trim(), middle_name: (input.middle_name ?? '').trim(), last_name: input.last_name.trim(),
      dob: birth.dob, dob_estimated: birth.estimated ? 1 : 0, gender: input.gender, mobile_cc: m.cc, mobile_national: m.national, email: input.email || null,
      allergies: storedAllergies(input.allergies ?? []), created_at: now, updated_at: now,
    };
    try {
      await transaction(db, async (tx) => {
        await patientStore(tx).insert(row);
        await audit.inTransaction(tx, ctx, { action: 'patient.create', resourceType: 'patient', resourceIds: [row.id], outcome: 'success' });
      });
    } catch (e) {
      if (dbErrorKind(e) !== 'unique') throw e;
      audit.later(ctx, { action: 'patient.create', resourceType: 'patient', outcome: 'conflict' });
      throw duplicate();
    }
    return row;
  };

  const update = async (ctx: RequestContext, id: string, patch: UpdatePatientBody): Promise<PatientRow> => {
    const changesBirth = patch.dob !== undefined || patch.age_years !== undefined || patch.age_months !== undefined;
    const birth = changesBirth ? await birthOf(patch, ctx.caller.workspaceId) : undefined;
    const m = patch.mobile !== undefined ? await mobileOf(patch.mobile, ctx.caller.workspaceId) : undefined;
    try {
      return await transaction(db, async (tx) => {
        const inTx = patientStore(tx);
        const current = await inTx.byId(ctx.caller.workspaceId, id);
        if (!current) throw notFound();
        const next: PatientRow = {
          ...current,
          first_name: patch.first_name?.trim() ?? current.first_name,
          middle_name: patch.middle_name?.trim() ?? current.middle_name,
          last_name: patch.last_name?.trim() ?? current.last_name,
          dob: birth?.dob ?? current.dob,
          dob_estimated: birth ? (birth.estimated ? 1 : 0) : current.dob_estimated,
          gender: patch.gender ?? current.gender,
          mobile_cc: m?.cc ?? current.mobile_cc,
          mobile_national: m?.national ?? current.mobile_national,
          email: patch.email === undefined ? current.email : patch.email || null,
          allergies: patch.allergies === undefined ? current.allergies : storedAllergies(patch.allergies),
          updated_at: isoNow(clock),
        };
        await inTx.update(next);
        await audit.inTransaction(tx, ctx, { action: 'patient.update', resourceType: 'patient', resourceIds: [id], outcome: 'success' });
        return next;
      });
    } catch (e) {
      const taken = dbErrorKind(e) === 'unique';
      const outcome = taken ? 'conflict' : e instanceof ServiceError ? 'not_found' : 'error';
      audit.later(ctx, { action: 'patient.update', resourceType: 'patient', resourceIds: [id], outcome });
      throw taken ? duplicate() : e;
    }
  };

  /**
   * Bulk load for tools (the seed command, migrations from another system): adds `rows` to a workspace in
   * transactions of `batchSize` rows, skipping any whose id or identity (mobile, names, dob) is already taken, and
   * returns how many were added. Rows are trusted to be well formed (the schema's CHECKs still apply); no request
   * context and no audit entry per row: the tool that imports says what it did. A batch commits with the
   * connection's durability settings; a failure rolls back only the batch it happened in.
   */
  async function importPatients(
    workspaceId: string, rows: Iterable<Omit<PatientRow, 'workspace_id'>> | AsyncIterable<Omit<PatientRow, 'workspace_id'>>, batchSize = 50_000,
  ): Promise<number> {
    let inserted = 0;
    let batch: PatientRow[] = [];
    // The batch is gathered first: rows may come from an async source, which a transaction must not await.
    const commit = (list: PatientRow[]) => transaction(db, (tx) => patientStore(tx).insertManyOrIgnore(list));
    for await (const row of rows) {
      batch.push({ ...row, workspace_id: workspaceId });
      if (batch.length >= batchSize) {
        inserted += await commit(batch);
        batch = [];
      }
    }
    if (batch.length) inserted += await commit(batch);
    return inserted;
  }

  /**
   * Patients registered before the mobile rule (or imported) whose mobile search cannot find or is not a mobile,
   * oldest first, at most `limit` of them, and how many there are in all. Read only: nothing is changed.
   */
  async function mobileReview(ctx: RequestContext, limit = 500): Promise<{ items: MobileReviewItem[]; total: number }> {
    const c = await country(ctx.caller.workspaceId);
    const items: MobileReviewItem[] = [];
    let total = 0;
    for await (const row of store.mobileReviewCandidates(ctx.caller.workspaceId)) {
      const check = checkMobile(formatMobile({ cc: row.mobile_cc, national: row.mobile_national }), c);
      if (check.ok) continue;
      total++;
      if (items.length < limit) items.push({ patient: row, problem: check.reason });
    }
    audit.later(ctx, { action: 'patient.mobile_review', resourceType: 'patient', resourceIds: items.map((i) => i.patient.id), outcome: 'success' });
    return { items, total };
  }

  return { search, get, create, update, mobileReview, insertRow: store.insert, importPatients };
}
export type PatientService = ReturnType<typeof patientService>;
