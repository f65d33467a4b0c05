import { type QueryResult, type RawBuilder, sql } from 'kysely';
import type { Executor } from '../db/tx.js';

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

/** Whether an UPDATE or DELETE touched a row (Kysely counts them as a bigint on both databases). */
const changed = (r: QueryResult<unknown>) => (r.numAffectedRows ?? 0n) > 0n;

/**
 * A session a runner may claim at `now`: queued and due, or processing under a lease that ran out (its runner died
 * or lost touch). The same condition picks the candidates and guards the claim, so the claim is a compare-and-set.
 */
const claimable = (now: string) => sql`((status = 'queued' AND next_attempt_at <= ${now})
  OR (status = 'processing' AND (lease_until IS NULL OR lease_until <= ${now})))`;

/** The order due sessions are taken in; NULLS FIRST is SQLite's default for ASC and must be said to PostgreSQL. */
const dueOrder = sql`ORDER BY next_attempt_at NULLS FIRST, initialized_at NULLS FIRST, id`;

/** The same order in JS, for the rows an UPDATE … RETURNING gives back in no particular order (ids are ASCII). */
function byDueOrder(a: SessionRow, b: SessionRow): number {
  for (const k of ['next_attempt_at', 'initialized_at', 'id'] as const) {
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * All SQL of the scribe, in one place, for both databases (server/db/sql.ts). They differ here in two places only:
 * claims lock their candidates with FOR UPDATE SKIP LOCKED on PostgreSQL (several instances share the table), and
 * keys are inserted with ON CONFLICT DO NOTHING, which both accept.
 */
export function scribeStore(e: Executor) {
  const k = e.k;
  const postgres = e.dialect === 'postgres';

  /**
   * A workspace's sessions newest first (created_at, then txn_id, both descending), optionally of one patient
   * and in one status, strictly after the cursor `after` (the last row of the previous page). Only the filters
   * given are in the text (at most eight texts, each prepared once): an optional filter written as
   * "(? IS NULL OR col = ?)" would keep the database from using the indexes of migration 0007.
   */
  async function list(p: { workspaceId: string; patientId?: string; status?: SessionStatus; after?: { created_at: string; txn_id: string }; limit: number }) {
    const where: RawBuilder<unknown>[] = [sql`workspace_id = ${p.workspaceId}`];
    if (p.patientId !== undefined) where.push(sql`patient_id = ${p.patientId}`);
    if (p.status !== undefined) where.push(sql`status = ${p.status}`);
    if (p.after !== undefined) where.push(sql`(created_at, txn_id) < (${p.after.created_at}, ${p.after.txn_id})`);
    const { rows } = await sql<SessionRow>`SELECT * FROM scribe_sessions WHERE ${sql.join(where, sql` AND `)}
      ORDER BY created_at DESC, txn_id DESC LIMIT ${p.limit}`.execute(k);
    return rows;
  }

  return {
    async session(workspaceId: string, txnId: string) {
      return (await sql<SessionRow>`SELECT * FROM scribe_sessions WHERE workspace_id = ${workspaceId} AND txn_id = ${txnId}`.execute(k)).rows[0];
    },
    async sessionById(id: string) {
      return (await sql<SessionRow>`SELECT * FROM scribe_sessions WHERE id = ${id}`.execute(k)).rows[0];
    },
    async insertSession(row: Pick<SessionRow, 'id' | 'workspace_id' | 'txn_id' | 'action' | 'folder_path' | 'extra_data' | 'patient_id' | 'created_by_type' | 'created_by' | 'created_at'>) {
      await sql`INSERT INTO scribe_sessions
        (id, workspace_id, txn_id, action, folder_path, extra_data, patient_id, created_by_type, created_by, status, stage, created_at, updated_at)
        VALUES (${row.id}, ${row.workspace_id}, ${row.txn_id}, ${row.action}, ${row.folder_path}, ${row.extra_data}, ${row.patient_id},
          ${row.created_by_type}, ${row.created_by}, 'uploading', 'uploading', ${row.created_at}, ${row.created_at})`.execute(k);
    },
    async updateExtraData(id: string, extraData: string, patientId: string | null, action: string, now: string) {
      return changed(await sql`UPDATE scribe_sessions SET extra_data = ${extraData}, patient_id = ${patientId}, action = ${action}, updated_at = ${now}
        WHERE id = ${id} AND status = 'uploading'`.execute(k));
    },
    /** uploading → queued; false when the session was already initialized (a concurrent init won). */
    async initialize(p: { id: string; request: string; additional_data: string; patient_id: string | null; started_by_type: OwnerType; started_by: string; now: string }) {
      return changed(await sql`UPDATE scribe_sessions SET status = 'queued', stage = 'queued', percent = 0, request = ${p.request},
        additional_data = ${p.additional_data}, patient_id = ${p.patient_id}, started_by_type = ${p.started_by_type}, started_by = ${p.started_by},
        initialized_at = ${p.now}, next_attempt_at = ${p.now}, updated_at = ${p.now}
        WHERE id = ${p.id} AND status = 'uploading'`.execute(k));
    },
    list,
    async files(sessionId: string) {
      return (await sql<FileRow>`SELECT * FROM scribe_files WHERE session_id = ${sessionId} ORDER BY created_at, id`.execute(k)).rows;
    },
    async file(sessionId: string, name: string) {
      return (await sql<FileRow>`SELECT * FROM scribe_files WHERE session_id = ${sessionId} AND name = ${name}`.execute(k)).rows[0];
    },
    /** Audio files and bytes already held by a session, leaving out `exceptName` (a file about to be replaced). */
    async usage(sessionId: string, exceptName: string) {
      return (await sql<{ count: number; bytes: number }>`SELECT COUNT(*) AS count, COALESCE(SUM(size), 0) AS bytes FROM scribe_files
        WHERE session_id = ${sessionId} AND kind = 'audio' AND name <> ${exceptName}`.execute(k)).rows[0]!;
    },
    async deleteFile(id: string) {
      await sql`DELETE FROM scribe_files WHERE id = ${id}`.execute(k);
    },
    async insertFile(row: FileRow) {
      await sql`INSERT INTO scribe_files (id, session_id, kind, name, stored_name, content_type, size, sha256, created_at)
        VALUES (${row.id}, ${row.session_id}, ${row.kind}, ${row.name}, ${row.stored_name}, ${row.content_type}, ${row.size}, ${row.sha256},
          ${row.created_at})`.execute(k);
    },
    /** The ids of sessions claimable at `now`, in the order they are taken (support and tests; runners use claimDue). */
    async due(now: string, limit: number) {
      return (await sql<{ id: string }>`SELECT id FROM scribe_sessions WHERE ${claimable(now)} ${dueOrder} LIMIT ${limit}`.execute(k)).rows.map((r) => r.id);
    },
    /**
     * Takes up to `limit` claimable sessions for `owner` until `leaseUntil`, counting the run, leaving out `exclude`
     * (sessions this runner still runs), and returns them as claimed, in due order. One statement: the UPDATE takes
     * only rows still claimable (compare-and-set). On PostgreSQL, where several instances claim from one table,
     * the candidates are locked with FOR UPDATE SKIP LOCKED, so an instance passes over rows another is claiming
     * at that moment and takes the next ones, rather than waiting for them and then finding them gone.
     */
    async claimDue(p: { owner: string; now: string; leaseUntil: string; limit: number; exclude?: readonly string[] }) {
      const exclude = p.exclude?.length ? sql`AND id NOT IN (${sql.join(p.exclude)})` : sql``;
      // PostgreSQL would plan "id IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)" as a semi join that runs the
      // subquery again for each row, taking every due session; a MATERIALIZED CTE picks the candidates once.
      const { rows } = await sql<SessionRow>`WITH picked AS ${postgres ? sql`MATERIALIZED` : sql``} (
          SELECT id FROM scribe_sessions WHERE ${claimable(p.now)} ${exclude} ${dueOrder} LIMIT ${p.limit}
          ${postgres ? sql`FOR UPDATE SKIP LOCKED` : sql``})
        UPDATE scribe_sessions SET status = 'processing', attempts = attempts + 1,
        lease_until = ${p.leaseUntil}, lease_owner = ${p.owner}, started_at = COALESCE(started_at, ${p.now}),
        stage = CASE WHEN checkpoint IS NULL THEN 'starting' ELSE stage END, updated_at = ${p.now}
        WHERE id IN (SELECT id FROM picked) AND ${claimable(p.now)}
        RETURNING *`.execute(k);
      return rows.sort(byDueOrder);
    },
    /** Takes one session if it is claimable, as claimDue does; false if it is not (any more). */
    async claim(id: string, owner: string, now: string, leaseUntil: string) {
      return changed(await sql`UPDATE scribe_sessions SET status = 'processing', attempts = attempts + 1, lease_until = ${leaseUntil},
        lease_owner = ${owner}, started_at = COALESCE(started_at, ${now}), stage = CASE WHEN checkpoint IS NULL THEN 'starting' ELSE stage END,
        updated_at = ${now}
        WHERE id = ${id} AND ${claimable(now)}`.execute(k));
    },
    async renew(id: string, owner: string, now: string, leaseUntil: string) {
      return changed(await sql`UPDATE scribe_sessions SET lease_until = ${leaseUntil}, updated_at = ${now}
        WHERE id = ${id} AND status = 'processing' AND lease_owner = ${owner}`.execute(k));
    },
    async progress(id: string, owner: string, stage: string, percent: number, now: string) {
      await sql`UPDATE scribe_sessions SET stage = ${stage}, percent = ${percent}, updated_at = ${now}
        WHERE id = ${id} AND status = 'processing' AND lease_owner = ${owner}`.execute(k);
    },
    async checkpoint(id: string, owner: string, checkpoint: string, now: string) {
      await sql`UPDATE scribe_sessions SET checkpoint = ${checkpoint}, updated_at = ${now}
        WHERE id = ${id} AND status = 'processing' AND lease_owner = ${owner}`.execute(k);
    },
    async finish(p: { id: string; owner: string; status: 'completed' | 'partial' | 'failed'; stage: string; output: string; errors: string; now: string }) {
      return changed(await sql`UPDATE scribe_sessions SET status = ${p.status}, stage = ${p.stage}, percent = 100, output = ${p.output}, errors = ${p.errors},
        lease_until = NULL, lease_owner = NULL, next_attempt_at = NULL, finished_at = ${p.now}, updated_at = ${p.now}
        WHERE id = ${p.id} AND status = 'processing' AND lease_owner = ${p.owner}`.execute(k));
    },
    async retry(p: { id: string; owner: string; next_attempt_at: string; last_error: string; now: string }) {
      return changed(await sql`UPDATE scribe_sessions SET status = 'queued', stage = 'queued', lease_until = NULL, lease_owner = NULL,
        next_attempt_at = ${p.next_attempt_at}, last_error = ${p.last_error}, updated_at = ${p.now}
        WHERE id = ${p.id} AND status = 'processing' AND lease_owner = ${p.owner}`.execute(k));
    },
    /** An interrupted run (the service is stopping) goes back to the queue without counting against the session. */
    async giveBack(id: string, owner: string, now: string) {
      await sql`UPDATE scribe_sessions SET status = 'queued', stage = 'queued',
        attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END,
        lease_until = NULL, lease_owner = NULL, next_attempt_at = ${now}, updated_at = ${now}
        WHERE id = ${id} AND status = 'processing' AND lease_owner = ${owner}`.execute(k);
    },
    /** Runs in processing under `owner` (a runner looking for its own claims that a failure left with nobody running them). */
    async mine(owner: string) {
      return (await sql<{ id: string }>`SELECT id FROM scribe_sessions WHERE status = 'processing' AND lease_owner = ${owner}
        ORDER BY id`.execute(k)).rows.map((r) => r.id);
    },
    /**
     * Runs in processing under another owner. On SQLite (one service per data directory) they are a previous
     * instance's, left by a crash, and nobody runs them now; with several instances on PostgreSQL they may be
     * another live instance's (the runner does not ask there: pipeline/runner.ts start).
     */
    async orphans(owner: string) {
      return (await sql<{ id: string }>`SELECT id FROM scribe_sessions WHERE status = 'processing' AND (lease_owner IS NULL OR lease_owner <> ${owner})
        ORDER BY id`.execute(k)).rows.map((r) => r.id);
    },
    /** Makes a run left by a dead instance claimable at once (its lease no longer protects anybody). */
    async release(id: string, owner: string, now: string) {
      await sql`UPDATE scribe_sessions SET lease_until = NULL, updated_at = ${now}
        WHERE id = ${id} AND status = 'processing' AND (lease_owner IS NULL OR lease_owner <> ${owner})`.execute(k);
    },
    async key(name: string) {
      return (await sql<{ sealed: string }>`SELECT sealed FROM scribe_keys WHERE name = ${name}`.execute(k)).rows[0]?.sealed;
    },
    /** Keeps the first key stored under `name`: a concurrent insert (another request, another instance) loses quietly. */
    async insertKey(name: string, sealed: string, now: string) {
      await sql`INSERT INTO scribe_keys (name, sealed, created_at) VALUES (${name}, ${sealed}, ${now})
        ON CONFLICT (name) DO NOTHING`.execute(k);
    },
  };
}
export type ScribeStore = ReturnType<typeof scribeStore>;
