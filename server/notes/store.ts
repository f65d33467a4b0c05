import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../db/tx.js';
import type { SessionRow } from '../scribe/store.js';

export interface NoteRow {
  session_id: string;
  workspace_id: string;
  patient_id: string | null;
  appointment_id: string | null;
  draft: string | null;
  draft_by: string | null;
  draft_at: string | null;
  latest_version: number;
  created_at: string;
  updated_at: string;
}

export interface VersionRow {
  session_id: string;
  version: number;
  kind: 'signed' | 'amendment';
  emr: string;
  reason: string | null;
  created_by: string;
  created_at: string;
}

/** Whether an UPDATE touched a row (Kysely counts them as a bigint on both databases). */
const changed = (r: { numAffectedRows?: bigint }) => (r.numAffectedRows ?? 0n) > 0n;

/**
 * All SQL of the notes domain, for both databases (server/db/sql.ts): nothing here is spelled differently. notes and
 * note_versions have no `seq` on PostgreSQL, so `SELECT *` gives the same columns on both, and the note's draft is
 * created with ON CONFLICT DO NOTHING, which both accept.
 */
export function noteStore(e: Executor) {
  const k = e.k;

  /**
   * The sessions with a signed note, newest first (created_at, then txn_id, both descending, as the scribe's list),
   * optionally of one patient and in one status, strictly after `after`: the signed part of a history that lists
   * signed notes first. Only the filters given are in the text (at most eight texts), as in the scribe's list. It
   * joins the scribe's sessions, which notes build on: one query for a page of the list, the deliberate exception
   * to domains reading only their own tables (docs/ARCHITECTURE.md, "Domains").
   */
  async function signedSessions(p: { workspaceId: string; patientId?: string; status?: string; after?: { created_at: string; txn_id: string }; limit: number }) {
    const where: RawBuilder<unknown>[] = [sql`n.workspace_id = ${p.workspaceId}`, sql`n.latest_version > 0`];
    if (p.patientId !== undefined) where.push(sql`s.patient_id = ${p.patientId}`);
    if (p.status !== undefined) where.push(sql`s.status = ${p.status}`);
    if (p.after !== undefined) where.push(sql`(s.created_at, s.txn_id) < (${p.after.created_at}, ${p.after.txn_id})`);
    const { rows } = await sql<SessionRow>`SELECT s.* FROM notes n JOIN scribe_sessions s ON s.id = n.session_id
      WHERE ${sql.join(where, sql` AND `)}
      ORDER BY s.created_at DESC, s.txn_id DESC LIMIT ${p.limit}`.execute(k);
    return rows;
  }

  return {
    signedSessions,
    async note(sessionId: string) {
      return (await sql<NoteRow>`SELECT * FROM notes WHERE session_id = ${sessionId}`.execute(k)).rows[0];
    },
    /** Makes the session's note row if it has none (first edit or sign). */
    async ensure(p: { session_id: string; workspace_id: string; patient_id: string | null; now: string }) {
      await sql`INSERT INTO notes (session_id, workspace_id, patient_id, appointment_id, created_at, updated_at)
        VALUES (${p.session_id}, ${p.workspace_id}, ${p.patient_id}, NULL, ${p.now}, ${p.now}) ON CONFLICT (session_id) DO NOTHING`.execute(k);
    },
    /** false when the note was signed meanwhile (drafts end at signing). */
    async saveDraft(p: { session_id: string; draft: string; by: string; now: string }) {
      return changed(await sql`UPDATE notes SET draft = ${p.draft}, draft_by = ${p.by}, draft_at = ${p.now}, updated_at = ${p.now}
        WHERE session_id = ${p.session_id} AND latest_version = 0`.execute(k));
    },
    /** false when it was already signed. */
    async sign(p: { session_id: string; patient_id: string | null; appointment_id: string | null; now: string }) {
      return changed(await sql`UPDATE notes SET latest_version = 1, patient_id = ${p.patient_id}, appointment_id = ${p.appointment_id}, updated_at = ${p.now}
        WHERE session_id = ${p.session_id} AND latest_version = 0`.execute(k));
    },
    /** false when `version` is not the next one (a concurrent amendment won). */
    async amend(p: { session_id: string; version: number; now: string }) {
      return changed(await sql`UPDATE notes SET latest_version = ${p.version}, updated_at = ${p.now}
        WHERE session_id = ${p.session_id} AND latest_version = ${p.version - 1}`.execute(k));
    },
    async insertVersion(row: VersionRow) {
      await sql`INSERT INTO note_versions (session_id, version, kind, emr, reason, created_by, created_at)
        VALUES (${row.session_id}, ${row.version}, ${row.kind}, ${row.emr}, ${row.reason}, ${row.created_by}, ${row.created_at})`.execute(k);
    },
    async version(sessionId: string, version: number) {
      return (await sql<VersionRow>`SELECT * FROM note_versions WHERE session_id = ${sessionId} AND version = ${version}`.execute(k)).rows[0];
    },
    async versions(sessionId: string) {
      return (await sql<Omit<VersionRow, 'emr'>>`SELECT session_id, version, kind, reason, created_by, created_at FROM note_versions
        WHERE session_id = ${sessionId} ORDER BY version`.execute(k)).rows;
    },
  };
}
export type NoteStore = ReturnType<typeof noteStore>;
