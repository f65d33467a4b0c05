import type { Db } from '../db/database.js';

export interface PatientRow {
  id: string;
  workspace_id: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  dob: string;
  /** 1: dob was estimated from an age given at registration. Absent on bulk-imported rows: exact (0). */
  dob_estimated?: number;
  gender: 'M' | 'F' | 'O';
  mobile_cc: string;
  mobile_national: string;
  email: string | null;
  /** JSON array of the record's allergies. Absent on bulk-imported rows: none recorded ('[]'). */
  allergies?: string;
  created_at: string;
  updated_at: string;
}

export const isUniqueViolation = (e: unknown) =>
  e instanceof Error && (e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

/** The duplicate rule's view of a name: Unicode-normalised and case-folded, first and last apart (U+001F: migration 14). */
export const nameKey = (p: Pick<PatientRow, 'first_name' | 'last_name'>) =>
  `${p.first_name.normalize('NFKC').toLowerCase()}\u001f${p.last_name.normalize('NFKC').toLowerCase()}`;

/** All SQL of the patients domain. */
export function patientStore(db: Db) {
  const q = {
    insert: db.prepare(`INSERT INTO patients
      (id, workspace_id, first_name, middle_name, last_name, dob, dob_estimated, gender, mobile_cc, mobile_national, email, allergies, name_key, created_at, updated_at)
      VALUES (@id, @workspace_id, @first_name, @middle_name, @last_name, @dob, @dob_estimated, @gender, @mobile_cc, @mobile_national, @email, @allergies, @name_key, @created_at, @updated_at)`),
    // Served by the patients_identity index; the handful of family members per number are sorted in memory.
    // rowid breaks ties between patients registered in the same millisecond: it grows with insertion.
    byMobile: db.prepare(`SELECT * FROM patients WHERE workspace_id = ? AND mobile_national = ?
      ORDER BY created_at DESC, rowid DESC LIMIT 200`),
    byId: db.prepare('SELECT * FROM patients WHERE id = ? AND workspace_id = ?'),
    update: db.prepare(`UPDATE patients SET first_name = @first_name, middle_name = @middle_name, last_name = @last_name,
      dob = @dob, dob_estimated = @dob_estimated, gender = @gender, mobile_cc = @mobile_cc, mobile_national = @mobile_national, email = @email,
      allergies = @allergies, name_key = @name_key, updated_at = @updated_at WHERE id = @id AND workspace_id = @workspace_id`),
    // Bulk import: positional parameters (cheaper to bind than named ones). A row whose id or identity is taken
    // is skipped; ON CONFLICT (unlike OR IGNORE) covers only uniqueness, so a CHECK or NOT NULL breach still fails.
    insertOrIgnore: db.prepare(`INSERT INTO patients
      (id, workspace_id, first_name, middle_name, last_name, dob, gender, mobile_cc, mobile_national, email, name_key, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
    // Candidates for the mobile review: every row except the Indian mobiles that plainly pass (10 digits from 6-9),
    // which are nearly all rows of an Indian clinic; the service applies the whole rule to the few left.
    mobileReviewCandidates: db.prepare(`SELECT * FROM patients WHERE workspace_id = ?
      AND NOT (mobile_cc = '91' AND mobile_national GLOB '[6-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]')
      ORDER BY created_at, rowid`),
  };
  const bind = (p: PatientRow) => ({ ...p, dob_estimated: p.dob_estimated ?? 0, allergies: p.allergies ?? '[]', name_key: nameKey(p) });
  return {
    insert: (p: PatientRow) => q.insert.run(bind(p)),
    byMobile: (workspaceId: string, national: string) => q.byMobile.all(workspaceId, national) as PatientRow[],
    byId: (workspaceId: string, id: string) => q.byId.get(id, workspaceId) as PatientRow | undefined,
    update: (p: PatientRow) => q.update.run(bind(p)),
    /** Inserts unless the id or the identity (mobile, names, dob) is taken; true when a row was added. */
    insertOrIgnore: (p: PatientRow) =>
      q.insertOrIgnore.run(p.id, p.workspace_id, p.first_name, p.middle_name, p.last_name, p.dob, p.gender, p.mobile_cc,
        p.mobile_national, p.email, nameKey(p), p.created_at, p.updated_at).changes > 0,
    /** Rows whose mobile may break the mobile rule, oldest first (see the statement). */
    mobileReviewCandidates: (workspaceId: string) => q.mobileReviewCandidates.iterate(workspaceId) as IterableIterator<PatientRow>,
  };
}
export type PatientStore = ReturnType<typeof patientStore>;
