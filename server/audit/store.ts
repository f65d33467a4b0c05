import { sql } from 'kysely';
import { type Executor, transaction } from '../db/tx.js';

export interface AuditEntry {
  at: string;
  workspace_id: string | null;
  actor_type: 'user' | 'client' | 'patient' | 'system' | 'anonymous';
  actor_id: string | null;
  action: string;
  resource_type: string | null;
  resource_ids: string | null;
  outcome: 'success' | 'denied' | 'not_found' | 'invalid' | 'conflict' | 'error';
  ip: string | null;
  request_id: string | null;
}

// Named columns, in the table's order on both databases (what `SELECT *` gave on SQLite).
const COLUMNS = sql.raw('id, at, workspace_id, actor_type, actor_id, action, resource_type, resource_ids, outcome, ip, request_id');

/** An entry's values in the order of the INSERT's columns. */
export type AuditRow = [
  at: string, workspace_id: string | null, actor_type: AuditEntry['actor_type'], actor_id: string | null, action: string,
  resource_type: string | null, resource_ids: string | null, outcome: AuditEntry['outcome'], ip: string | null, request_id: string | null,
];

export const auditRow = (a: AuditEntry): AuditRow =>
  [a.at, a.workspace_id, a.actor_type, a.actor_id, a.action, a.resource_type, a.resource_ids, a.outcome, a.ip, a.request_id];

export const auditEntry = ([at, workspace_id, actor_type, actor_id, action, resource_type, resource_ids, outcome, ip, request_id]: AuditRow): AuditEntry =>
  ({ at, workspace_id, actor_type, actor_id, action, resource_type, resource_ids, outcome, ip, request_id });

const values = (a: AuditEntry) => sql`(${sql.join(auditRow(a))})`;

// Any entry: only the INSERT's text is wanted of it.
const ROW_SHAPE: AuditEntry = {
  at: '', workspace_id: null, actor_type: 'system', actor_id: null, action: '', resource_type: null, resource_ids: null,
  outcome: 'success', ip: null, request_id: null,
};

/** The most rows one INSERT of a read batch takes (10 parameters each). */
const MAX_ROWS = 128;

/**
 * A batch cut into INSERTs of power-of-two row counts, the largest first (MAX_ROWS, …, 4, 2, 1): each is one
 * statement, and the texts are at most eight whatever the batches' sizes, for SQLite's statement cache.
 */
function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  let i = 0;
  for (let size = MAX_ROWS; size >= 1; size >>= 1) {
    while (list.length - i >= size) {
      out.push(list.slice(i, i + size));
      i += size;
    }
  }
  return out;
}

const insertQuery = (entries: readonly AuditEntry[]) =>
  sql`INSERT INTO audit_log (at, workspace_id, actor_type, actor_id, action, resource_type, resource_ids, outcome, ip, request_id)
    VALUES ${sql.join(entries.map(values))}`;
const insertRows = (x: Executor, entries: readonly AuditEntry[]) => insertQuery(entries).execute(x.k);

/**
 * All SQL of the audit trail, for SQLite and PostgreSQL alike (server/db/sql.ts says how). audit_log is append-only on
 * both (triggers refuse UPDATE and DELETE, and TRUNCATE on PostgreSQL): this store only inserts and reads.
 */
export function auditStore(e: Executor) {
  return {
    /**
     * The one-row INSERT as this database's SQL text, its parameters in `auditRow`'s order: for the read-audit writer
     * thread (audit/reads-writer.ts), which prepares it on its own connection.
     */
    insertSql() {
      return insertQuery([ROW_SHAPE]).compile(e.k).sql;
    },
    async insert(entry: AuditEntry) {
      await insertRows(e, [entry]);
    },
    /** All of them, in order, together: one INSERT, or several in one transaction (nested in `e`'s when it is one). */
    async insertMany(entries: readonly AuditEntry[]): Promise<void> {
      const parts = chunks(entries);
      if (parts.length === 0) return;
      if (parts.length === 1) return void (await insertRows(e, parts[0]!));
      await transaction(e, async (tx) => {
        for (const part of parts) await insertRows(tx, part);
      });
    },
    /** A workspace's latest entries, newest first. */
    async recent(workspaceId: string, limit: number) {
      return (await sql<AuditEntry & { id: number }>`SELECT ${COLUMNS} FROM audit_log WHERE workspace_id = ${workspaceId}
        ORDER BY id DESC LIMIT ${limit}`.execute(e.k)).rows;
    },
  };
}
