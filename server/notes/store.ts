import type { Db } from '../db/database.js';
import { type Executor, perConnection } from '../db/tx.js';
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

const statements = perConnection((db) => ({
  note: db.prepare('SELECT * FROM notes WHERE session_id = ?'),
  insert: db.prepare(`INSERT INTO notes (session_id, workspace_id, patient_id, appointment_id, created_at, updated_at)
    VALUES (@session_id, @workspace_id, @patient_id, NULL, @now, @now) ON CONFLICT (session_id) DO NOTHING`),
  saveDraft: db.prepare(`UPDATE notes SET draft = @draft, draft_by = @by, draft_at = @now, updated_at = @now
    WHERE session_id = @session_id AND latest_version = 0`),
  sign: db.prepare(`UPDATE notes SET latest_version = 1, patient_id = @patient_id, appointment_id = @appointment_id, updated_at = @now
    WHERE session_id = @session_id AND latest_version = 0`),
  amend: db.prepare(`UPDATE notes SET latest_version = @version, updated_at = @now
    WHERE session_id = @session_id AND latest_version = @version - 1`),
  insertVersion: db.prepare(`INSERT INTO note_versions (session_id, version, kind, emr, reason, created_by, created_at)
    VALUES (@session_id, @version, @kind, @emr, @reason, @created_by, @created_at)`),
  version: db.prepare('SELECT * FROM note_versions WHERE session_id = ? AND version = ?'),
  versions: db.prepare('SELECT session_id, version, kind, reason, created_by, created_at FROM note_versions WHERE session_id = ? ORDER BY version'),
  db,
  signedStatements: new Map<string, ReturnType<Db['prepare']>>(),
}));

/** All SQL of the notes domain. */
export function noteStore(e: Executor) {
  const q = statements(e);
  /**
   * The sessions with a signed note, newest first (created_at, then txn_id, both descending, as the scribe's list),
   * optionally of one patient and in one status, strictly after `after`: the signed part of a history that lists
   * signed notes first.
   */
  async function signedSessions(p: { workspaceId: string; patientId?: string; status?: string; after?: { created_at: string; txn_id: string }; limit: number }) {
    const key = `${p.patientId !== undefined}/${p.status !== undefined}/${p.after !== undefined}`;
    let stmt = q.signedStatements.get(key);
    if (!stmt) {
      stmt = q.db.prepare(`SELECT s.* FROM notes n JOIN scribe_sessions s ON s.id = n.session_id
        WHERE n.workspace_id = @workspace_id AND n.latest_version > 0
        ${p.patientId !== undefined ? 'AND s.patient_id = @patient_id' : ''}
        ${p.status !== undefined ? 'AND s.status = @status' : ''}
        ${p.after !== undefined ? 'AND (s.created_at, s.txn_id) < (@after_created_at, @after_txn_id)' : ''}
        ORDER BY s.created_at DESC, s.txn_id DESC LIMIT @limit`);
      q.signedStatements.set(key, stmt);
    }
    return stmt.all({
      workspace_id: p.workspaceId, limit: p.limit,
      ...(p.patientId !== undefined ? { patient_id: p.patientId } : {}),
      ...(p.status !== undefined ? { status: p.status } : {}),
      ...(p.after !== undefined ? { after_created_at: p.after.created_at, after_txn_id: p.after.txn_id } : {}),
    }) as SessionRow[];
  }

  return {
    signedSessions,
    note: async (sessionId: string) => q.note.get(sessionId) as NoteRow | undefined,
    /** Makes the session's note row if it has none (first edit or sign). */
    ensure: async (p: { session_id: string; workspace_id: string; patient_id: string | null; now: string }) => void q.insert.run(p),
    /** false when the note was signed meanwhile (drafts end at signing). */
    saveDraft: async (p: { session_id: string; draft: string; by: string; now: string }) => q.saveDraft.run(p).changes > 0,
    /** false when it was already signed. */
    sign: async (p: { session_id: string; patient_id: string | null; appointment_id: string | null; now: string }) => q.sign.run(p).changes > 0,
    /** false when `version` is not the next one (a concurrent amendment won). */
    amend: async (p: { session_id: string; version: number; now: string }) => q.amend.run(p).changes > 0,
    insertVersion: async (row: VersionRow) => void q.insertVersion.run(row),
    version: async (sessionId: string, version: number) => q.version.get(sessionId, version) as VersionRow | undefined,
    versions: async (sessionId: string) => q.versions.all(sessionId) as Omit<VersionRow, 'emr'>[],
  };
}
export type NoteStore = ReturnType<typeof noteStore>;
