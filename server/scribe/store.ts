import type { Db } from '../db/database.js';

export type SessionStatus = 'uploading' | 'queued' | 'processing' | 'completed' | 'partial' | 'failed';
export type OwnerType = 'user' | 'client';

export interface SessionRow {
  id: string;
  workspace_id: string;
  txn_id: string;
  action: string;
  folder_path: string;
  extra_data: string;
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

/** All SQL of the scribe, in one place. */
export function scribeStore(db: Db) {
  const q = {
    session: db.prepare('SELECT * FROM scribe_sessions WHERE workspace_id = ? AND txn_id = ?'),
    sessionById: db.prepare('SELECT * FROM scribe_sessions WHERE id = ?'),
    insertSession: db.prepare(`INSERT INTO scribe_sessions
      (id, workspace_id, txn_id, action, folder_path, extra_data, created_by_type, created_by, status, stage, created_at, updated_at)
      VALUES (@id, @workspace_id, @txn_id, @action, @folder_path, @extra_data, @created_by_type, @created_by, 'uploading', 'uploading', @created_at, @created_at)`),
    updateExtraData: db.prepare(`UPDATE scribe_sessions SET extra_data = @extra_data, action = @action, updated_at = @now
      WHERE id = @id AND status = 'uploading'`),
    initialize: db.prepare(`UPDATE scribe_sessions SET status = 'queued', stage = 'queued', percent = 0, request = @request,
      additional_data = @additional_data, started_by_type = @started_by_type, started_by = @started_by,
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
  };

  return {
    session: (workspaceId: string, txnId: string) => q.session.get(workspaceId, txnId) as SessionRow | undefined,
    sessionById: (id: string) => q.sessionById.get(id) as SessionRow | undefined,
    insertSession: (row: Pick<SessionRow, 'id' | 'workspace_id' | 'txn_id' | 'action' | 'folder_path' | 'extra_data' | 'created_by_type' | 'created_by' | 'created_at'>) =>
      void q.insertSession.run(row),
    updateExtraData: (id: string, extraData: string, action: string, now: string) =>
      q.updateExtraData.run({ id, extra_data: extraData, action, now }).changes > 0,
    /** uploading → queued; false when the session was already initialized (a concurrent init won). */
    initialize: (p: { id: string; request: string; additional_data: string; started_by_type: OwnerType; started_by: string; now: string }) =>
      q.initialize.run(p).changes > 0,
    files: (sessionId: string) => q.files.all(sessionId) as FileRow[],
    file: (sessionId: string, name: string) => q.file.get(sessionId, name) as FileRow | undefined,
    /** Audio files and bytes already held by a session, leaving out `exceptName` (a file about to be replaced). */
    usage: (sessionId: string, exceptName: string) => q.usage.get(sessionId, exceptName) as { count: number; bytes: number },
    deleteFile: (id: string) => void q.deleteFile.run(id),
    insertFile: (row: FileRow) => void q.insertFile.run(row),
    due: (now: string, limit: number) => (q.due.all({ now, limit }) as { id: string }[]).map((r) => r.id),
    /** Takes a due session for this runner until `leaseUntil`, counting the run; false if it is not due (any more). */
    claim: (id: string, owner: string, now: string, leaseUntil: string) =>
      q.claim.run({ id, owner, now, lease_until: leaseUntil }).changes > 0,
    renew: (id: string, owner: string, now: string, leaseUntil: string) =>
      q.renew.run({ id, owner, now, lease_until: leaseUntil }).changes > 0,
    progress: (id: string, owner: string, stage: string, percent: number, now: string) =>
      void q.progress.run({ id, owner, stage, percent, now }),
    checkpoint: (id: string, owner: string, checkpoint: string, now: string) => void q.checkpoint.run({ id, owner, checkpoint, now }),
    finish: (p: { id: string; owner: string; status: 'completed' | 'partial' | 'failed'; stage: string; output: string; errors: string; now: string }) =>
      q.finish.run(p).changes > 0,
    retry: (p: { id: string; owner: string; next_attempt_at: string; last_error: string; now: string }) => q.retry.run(p).changes > 0,
    /** An interrupted run (the service is stopping) goes back to the queue without counting against the session. */
    giveBack: (id: string, owner: string, now: string) => void q.giveBack.run({ id, owner, now }),
    orphans: (owner: string) => (q.orphans.all(owner) as { id: string }[]).map((r) => r.id),
    /** Makes a run left by a dead instance claimable at once (its lease no longer protects anybody). */
    release: (id: string, owner: string, now: string) => void q.release.run({ id, owner, now }),
    key: (name: string) => (q.key.get(name) as { sealed: string } | undefined)?.sealed,
    insertKey: (name: string, sealed: string, now: string) => void q.insertKey.run(name, sealed, now),
  };
}
export type ScribeStore = ReturnType<typeof scribeStore>;
