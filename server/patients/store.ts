import { sql } from 'kysely';
import { dbErrorKind, insertionOrder } from '../db/sql.js';
import type { Executor } from '../db/tx.js';

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

/** A uniqueness breach, on either database. Kept for appointments/service.ts; new code asks dbErrorKind(e) === 'unique'. */
export const isUniqueViolation = (e: unknown) => dbErrorKind(e) === 'unique';

/** The duplicate rule's view of a name: Unicode-normalised and case-folded, first and last apart (U+001F: migration 14). */
export const nameKey = (p: Pick<PatientRow, 'first_name' | 'last_name'>) =>
  `${p.first_name.normalize('NFKC').toLowerCase()}\u001f${p.last_name.normalize('NFKC').toLowerCase()}`;

// A row's columns in SQLite's table order (what its `SELECT *` gave, name_key included), named rather than `*`: on
// PostgreSQL patients also has `seq` (the rowid's stand-in), which no row of this domain carries.
const COLUMNS = sql.raw(`id, workspace_id, first_name, middle_name, last_name, dob, gender, mobile_cc, mobile_national, email,
  name_key, created_at, updated_at, dob_estimated, allergies`);

// The bulk import's columns; a multi-row INSERT takes at most IMPORT_ROWS rows (13 parameters each, well under both
// databases' limits on parameters), so its texts are few: the full chunk and the batches' remainders.
const IMPORT_ROWS = 500;

const REVIEW_PAGE = 1000;

/**
 * All SQL of the patients domain, for SQLite and PostgreSQL alike (server/db/sql.ts says how): every statement runs on
 * `e.k`, the database's Kysely or the open transaction's, so a store made from a transaction (`patientStore(tx)`)
 * reads and writes inside it.
 */
export function patientStore(e: Executor) {
  const k = e.k;
  // rowid (SQLite) or seq (PostgreSQL): breaks ties between patients registered in the same millisecond.
  const order = insertionOrder(e.dialect);
  // Indian mobiles that plainly pass the mobile rule: 10 digits from 6-9 (GLOB on SQLite, a regular expression on
  // PostgreSQL, which has no GLOB; both are case-sensitive and anchored).
  const plainIndianMobile = e.dialect === 'sqlite'
    ? sql`mobile_national GLOB '[6-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'`
    : sql`mobile_national ~ '^[6-9][0-9]{9}$'`;

  const insertOrIgnoreChunk = async (rows: readonly PatientRow[]) =>
    // A row whose id or identity is taken is skipped, including a later row of the same chunk that repeats an earlier
    // one; ON CONFLICT (unlike OR IGNORE) covers only uniqueness, so a CHECK or NOT NULL breach still fails.
    Number((await sql`INSERT INTO patients
      (id, workspace_id, first_name, middle_name, last_name, dob, gender, mobile_cc, mobile_national, email, name_key, created_at, updated_at)
      VALUES ${sql.join(rows.map((p) => sql`(${p.id}, ${p.workspace_id}, ${p.first_name}, ${p.middle_name}, ${p.last_name}, ${p.dob},
        ${p.gender}, ${p.mobile_cc}, ${p.mobile_national}, ${p.email}, ${nameKey(p)}, ${p.created_at}, ${p.updated_at})`))}
      ON CONFLICT DO NOTHING`.execute(k)).numAffectedRows ?? 0n);

  return {
    async insert(p: PatientRow) {
      await sql`INSERT INTO patients (id, workspace_id, first_name, middle_name, last_name, dob, dob_estimated, gender,
        mobile_cc, mobile_national, email, allergies, name_key, created_at, updated_at) VALUES (${p.id}, ${p.workspace_id},
        ${p.first_name}, ${p.middle_name}, ${p.last_name}, ${p.dob}, ${p.dob_estimated ?? 0}, ${p.gender}, ${p.mobile_cc},
        ${p.mobile_national}, ${p.email}, ${p.allergies ?? '[]'}, ${nameKey(p)}, ${p.created_at}, ${p.updated_at})`.execute(k);
    },
    /**
     * Patients with this national mobile number, newest first. Served by the patients_identity index; the handful of
     * family members per number are sorted in memory. The hot path of search: one statement and nothing else.
     */
    async byMobile(workspaceId: string, national: string) {
      return (await sql<PatientRow>`SELECT ${COLUMNS} FROM patients WHERE workspace_id = ${workspaceId} AND mobile_national = ${national}
        ORDER BY created_at DESC, ${order} DESC LIMIT 200`.execute(k)).rows;
    },
    async byId(workspaceId: string, id: string) {
      return (await sql<PatientRow>`SELECT ${COLUMNS} FROM patients WHERE id = ${id} AND workspace_id = ${workspaceId}`.execute(k)).rows[0];
    },
    /**
     * Hold the patient's row until the transaction ends (PostgreSQL, FOR NO KEY UPDATE; nothing on SQLite, whose
     * transaction holds the write lock): the appointments domain books a patient's time one transaction at a time.
     */
    async lock(id: string) {
      if (e.dialect === 'postgres') await sql`SELECT id FROM patients WHERE id = ${id} FOR NO KEY UPDATE`.execute(k);
    },
    async update(p: PatientRow) {
      await sql`UPDATE patients SET first_name = ${p.first_name}, middle_name = ${p.middle_name}, last_name = ${p.last_name},
        dob = ${p.dob}, dob_estimated = ${p.dob_estimated ?? 0}, gender = ${p.gender}, mobile_cc = ${p.mobile_cc},
        mobile_national = ${p.mobile_national}, email = ${p.email}, allergies = ${p.allergies ?? '[]'}, name_key = ${nameKey(p)},
        updated_at = ${p.updated_at} WHERE id = ${p.id} AND workspace_id = ${p.workspace_id}`.execute(k);
    },
    /** Inserts unless the id or the identity (mobile, names, dob) is taken; true when a row was added. */
    async insertOrIgnore(p: PatientRow) {
      return (await insertOrIgnoreChunk([p])) > 0;
    },
    /**
     * Bulk import: `insertOrIgnore` for many rows, a few hundred to a statement (one round trip each on PostgreSQL);
     * returns how many were added. Rows go in in the order given (their insertion order). Run it in a transaction
     * when the rows must go in together.
     */
    async insertManyOrIgnore(rows: readonly PatientRow[]): Promise<number> {
      let added = 0;
      for (let i = 0; i < rows.length; i += IMPORT_ROWS) added += await insertOrIgnoreChunk(rows.slice(i, i + IMPORT_ROWS));
      return added;
    },
    /**
     * Candidates for the mobile review, oldest first: every row except the Indian mobiles that plainly pass, which are
     * nearly all rows of an Indian clinic; the service applies the whole rule to the few left. Read in pages after
     * the last row of the previous one (by registration time, then insertion order): a million-row clinic is never
     * in memory at once.
     */
    async *mobileReviewCandidates(workspaceId: string): AsyncGenerator<PatientRow> {
      let after = { createdAt: '', key: 0 };
      for (;;) {
        const { rows: page } = await sql<PatientRow & { page_key: number }>`SELECT ${order} AS page_key, ${COLUMNS} FROM patients
          WHERE workspace_id = ${workspaceId} AND NOT (mobile_cc = '91' AND ${plainIndianMobile})
          AND (created_at, ${order}) > (${after.createdAt}, ${after.key})
          ORDER BY created_at, ${order} LIMIT ${REVIEW_PAGE}`.execute(k);
        for (const { page_key: _key, ...row } of page) yield row;
        if (page.length < REVIEW_PAGE) return;
        const last = page.at(-1)!;
        after = { createdAt: last.created_at, key: last.page_key };
      }
    },
  };
}
export type PatientStore = ReturnType<typeof patientStore>;
