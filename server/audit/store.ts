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
  const insert = db.prepare(`INSERT INTO audit_log
    (at, workspace_id, actor_type, actor_id, action, resource_type, resource_ids, outcome, ip, request_id)
    VALUES (@at, @workspace_id, @actor_type, @actor_id, @action, @resource_type, @resource_ids, @outcome, @ip, @request_id)`);
  const list = db.prepare('SELECT * FROM audit_log WHERE workspace_id = ? ORDER BY id DESC LIMIT ?');
  return {
    insert: (e: AuditEntry) => insert.run(e),
    insertMany: (entries: AuditEntry[]) => {
      db.transaction(() => {
        for (const e of entries) insert.run(e);
      })();
    },
    recent: (workspaceId: string, limit: number) => list.all(workspaceId, limit) as (AuditEntry & { id: number })[],
  };
}
