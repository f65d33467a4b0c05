import type { Db } from '../db/database.js';
import { type Executor, perConnection } from '../db/tx.js';

export type SessionStatus = 'uploading' | 'queued' | 'processing' | 'completed' | 'partial' | 'failed';
export type OwnerType = 'user' | 'client';

export interface SessionRow {
  id: string;
  workspace_id: string;
  txn_id: string;
  action: string;
  folder_path: string;
  extra_data: string;
  /** The patient the client said the session is about (history.ts patientIdOf); null when it did not say. */
  patient_id: string | null;
  created_by_type: OwnerType;
  created_by: string;
  status: SessionStatus;
  request: string | null;
  additional_data: string | null;
  started_by_type: OwnerType | null;
  started_by: string | null;
  stage: string;
  percent: number;
  attempts: number;
  next_attempt_at: string | null;
  lease_until: string | null;
  lease_owner: string | null;
  checkpoint: string | null;
  output: string | null;
  errors: string;
  last_error: string | null;
  created_at: string;
  initialized_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export interface FileRow {
  id: string;
  session_id: string;
  kind: 'audio' | 'sidecar';
  name: string;
  stored_name: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: string;
}

const statements = perConnection((db) => ({
  session: db.prepare('SELECT * FROM scribe_sessions WHERE workspace_id = ? AND txn_id = ?'),
  sessionById: db.prepare('SELECT * FROM scribe_sessions WHERE id = ?'),
  insertSession: db.prepare(`INSERT INTO scribe_sessions
    (id, workspace_id, txn_id, action, folder_path, extra_data, patient_id, created_by_type, created_by, status, stage, created_at, updated_at)
    VALUES (@id, @workspace_id, @txn_id, @action, @folder_path, @extra_data, @patient_id, @created_by_type, @created_by, 'uploading', 'uploading', @created_at, @created_at)`),
  updateExtraData: db.prepare(`UPDATE scribe_sessions SET extra_data = @extra_data, patient_id = @patient_id, action = @action, updated_at = @now
    WHERE id = @id AND status = 'uploading'`),
  initialize: db.prepare(`UPDATE scribe_sessions SET status = 'queued', stage = 'queued', percent = 0, request = @request,
    additional_data = @additional_data, patient_id = @patient_id, started_by_type = @started_by_type, started_by = @started_by,
    initialized_at = @now, next_attempt_at = @now, updated_at = @now
    WHERE id = @id AND status = 'uploading'`),
  files: db.prepare('SELECT * FROM scribe_files WHERE session_id = ? ORDER BY created_at, id'),
  file: db.prepare('SELECT * FROM scribe_files WHERE session_id = ? AND name = ?'),
  usage: db.prepare(`SELECT COUNT(*) AS count, COALESCE(SUM(size), 0) AS bytes FROM scribe_files
    WHERE session_id = ? AND kind = 'audio' AND name <> ?`),
  deleteFile: db.prepare('DELETE FROM scribe_files WHERE id = ?'),
  insertFile: db.prepare(`INSERT INTO scribe_files (id, session_id, kind, name, stored_name, content_type, size, sha256, created_at)
    VALUES (@id, @session_id, @kind, @name, @stored_name, @content_type, @size, @sha256, @created_at)`),
  due: db.prepare(`SELECT id FROM scribe_sessions
    WHERE (status = 'queued' AND next_attempt_at <= @now)
       OR (status = 'processing' AND (lease_until IS NULL OR lease_until <= @now))
    ORDER BY next_attempt_at, initialized_at, id LIMIT @limit`),
  claim: db.prepare(`UPDATE scribe_sessions SET status = 'processing', attempts = attempts + 1, lease_until = @lease_until,
    lease_owner = @owner, started_at = COALESCE(started_at, @now), stage = CASE WHEN checkpoint IS NULL THEN 'starting' ELSE stage END,
    updated_at = @now
    WHERE id = @id AND ((status = 'queued' AND next_attempt_at <= @now)
      OR (status = 'processing' AND (lease_until IS NULL OR lease_until <= @now)))`),
  renew: db.prepare(`UPDATE scribe_sessions SET lease_until = @lease_until, updated_at = @now
    WHERE id = @id AND status = 'processing' AND lease_owner = @owner`),
  progress: db.prepare(`UPDATE scribe_sessions SET stage = @stage, percent = @percent, updated_at = @now
    WHERE id = @id AND status = 'processing' AND lease_owner = @owner`),
  checkpoint: db.prepare(`UPDATE scribe_sessions SET checkpoint = @checkpoint, updated_at = @now
    WHERE id = @id AND status = 'processing' AND lease_owner = @owner`),
  finish: db.prepare(`UPDATE scribe_sessions SET status = @status, stage = @stage, percent = 100, output = @output, errors = @errors,
    lease_until = NULL, lease_owner = NULL, next_attempt_at = NULL, finished_at = @now, updated_at = @now
    WHERE id = @id AND status = 'processing' AND lease_owner = @owner`),
  retry: db.prepare(`UPDATE scribe_sessions SET status = 'queued', stage = 'queued', lease_until = NULL, lease_owner = NULL,
    next_attempt_at = @next_attempt_at, last_error = @last_error, updated_at = @now
    WHERE id = @id AND status = 'processing' AND lease_owner = @owner`),
  giveBack: db.prepare(`UPDATE scribe_sessions SET status = 'queued', stage = 'queued', attempts = MAX(0, attempts - 1),
    lease_until = NULL, lease_owner = NULL, next_attempt_at = @now, updated_at = @now
    WHERE id = @id AND status = 'processing' AND lease_owner = @owner`),
  /** Runs a previous instance of the service left in processing: nobody runs them now (one service per data directory). */
  orphans: db.prepare(`SELECT id FROM scribe_sessions WHERE status = 'processing' AND (lease_owner IS NULL OR lease_owner <> ?)`),
  release: db.prepare(`UPDATE scribe_sessions SET lease_until = NULL, updated_at = @now
    WHERE id = @id AND status = 'processing' AND (lease_owner IS NULL OR lease_owner <> @owner)`),
  key: db.prepare('SELECT sealed FROM scribe_keys WHERE name = ?'),
  insertKey: db.prepare('INSERT OR IGNORE INTO scribe_keys (name, sealed, created_at) VALUES (?, ?, ?)'),
  db,
  // One statement per combination of filters (at most eight, prepared on first use): an optional filter written
  // as "(@x IS NULL OR col = @x)" would keep SQLite from using the indexes of migration 0007.
  listStatements: new Map<string, ReturnType<Db['prepare']>>(),
}));

/** All SQL of the scribe, in one place. */
export function scribeStore(e: Executor) {
  const q = statements(e);
  /**
   * A workspace's sessions newest first (created_at, then txn_id, both descending), optionally of one patient
   * and in one status, strictly after the cursor `after` (the last row of the previous page).
   */
  async function list(p: { workspaceId: string; patientId?: string; status?: SessionStatus; after?: { created_at: string; txn_id: string }; limit: number }) {
    const key = `${p.patientId !== undefined}/${p.status !== undefined}/${p.after !== undefined}`;
    let stmt = q.listStatements.get(key);
    if (!stmt) {
      stmt = q.db.prepare(`SELECT * FROM scribe_sessions WHERE workspace_id = @workspace_id
        ${p.patientId !== undefined ? 'AND patient_id = @patient_id' : ''}
        ${p.status !== undefined ? 'AND status = @status' : ''}
        ${p.after !== undefined ? 'AND (created_at, txn_id) < (@after_created_at, @after_txn_id)' : ''}
        ORDER BY created_at DESC, txn_id DESC LIMIT @limit`);
      q.listStatements.set(key, stmt);
    }
    return stmt.all({
      workspace_id: p.workspaceId, limit: p.limit,
      ...(p.patientId !== undefined ? { patient_id: p.patientId } : {}),
      ...(p.status !== undefined ? { status: p.status } : {}),
      ...(p.after !== undefined ? { after_created_at: p.after.created_at, after_txn_id: p.after.txn_id } : {}),
    }) as SessionRow[];
  }

  return {
    session: async (workspaceId: string, txnId: string) => q.session.get(workspaceId, txnId) as SessionRow | undefined,
    sessionById: async (id: string) => q.sessionById.get(id) as SessionRow | undefined,
    insertSession: async (row: Pick<SessionRow, 'id' | 'workspace_id' | 'txn_id' | 'action' | 'folder_path' | 'extra_data' | 'patient_id' | 'created_by_type' | 'created_by' | 'created_at'>) =>
      void q.insertSession.run(row),
    updateExtraData: async (id: string, extraData: string, patientId: string | null, action: string, now: string) =>
      q.updateExtraData.run({ id, extra_data: extraData, patient_id: patientId, action, now }).changes > 0,
    /** uploading → queued; false when the session was already initialized (a concurrent init won). */
    initialize: async (p: { id: string; request: string; additional_data: string; patient_id: string | null; started_by_type: OwnerType; started_by: string; now: string }) =>
      q.initialize.run(p).changes > 0,
    list,
    files: async (sessionId: string) => q.files.all(sessionId) as FileRow[],
    file: async (sessionId: string, name: string) => q.file.get(sessionId, name) as FileRow | undefined,
    /** Audio files and bytes already held by a session, leaving out `exceptName` (a file about to be replaced). */
    usage: async (sessionId: string, exceptName: string) => q.usage.get(sessionId, exceptName) as { count: number; bytes: number },
    deleteFile: async (id: string) => void q.deleteFile.run(id),
    insertFile: async (row: FileRow) => void q.insertFile.run(row),
    due: async (now: string, limit: number) => (q.due.all({ now, limit }) as { id: string }[]).map((r) => r.id),
    /** Takes a due session for this runner until `leaseUntil`, counting the run; false if it is not due (any more). */
    claim: async (id: string, owner: string, now: string, leaseUntil: string) =>
      q.claim.run({ id, owner, now, lease_until: leaseUntil }).changes > 0,
    renew: async (id: string, owner: string, now: string, leaseUntil: string) =>
      q.renew.run({ id, owner, now, lease_until: leaseUntil }).changes > 0,
    progress: async (id: string, owner: string, stage: string, percent: number, now: string) =>
      void q.progress.run({ id, owner, stage, percent, now }),
    checkpoint: async (id: string, owner: string, checkpoint: string, now: string) => void q.checkpoint.run({ id, owner, checkpoint, now }),
    finish: async (p: { id: string; owner: string; status: 'completed' | 'partial' | 'failed'; stage: string; output: string; errors: string; now: string }) =>
      q.finish.run(p).changes > 0,
    retry: async (p: { id: string; owner: string; next_attempt_at: string; last_error: string; now: string }) => q.retry.run(p).changes > 0,
    /** An interrupted run (the service is stopping) goes back to the queue without counting against the session. */
    giveBack: async (id: string, owner: string, now: string) => void q.giveBack.run({ id, owner, now }),
    orphans: async (owner: string) => (q.orphans.all(owner) as { id: string }[]).map((r) => r.id),
    /** Makes a run left by a dead instance claimable at once (its lease no longer protects anybody). */
    release: async (id: string, owner: string, now: string) => void q.release.run({ id, owner, now }),
    key: async (name: string) => (q.key.get(name) as { sealed: string } | undefined)?.sealed,
    insertKey: async (name: string, sealed: string, now: string) => void q.insertKey.run(name, sealed, now),
  };
}
export type ScribeStore = ReturnType<typeof scribeStore>;
