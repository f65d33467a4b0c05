import { type Executor, perConnection } from '../db/tx.js';

const statements = perConnection((db) => ({
  get: db.prepare('SELECT value FROM workspace_settings WHERE workspace_id = ? AND name = ?').pluck(),
  set: db.prepare(`INSERT INTO workspace_settings (workspace_id, name, value, updated_at, updated_by)
    VALUES (@workspace_id, @name, @value, @updated_at, @updated_by)
    ON CONFLICT (workspace_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by`),
}));

/** SQL of workspace_settings: a clinic's settings by name, values as JSON. */
export function settingsStore(e: Executor) {
  const q = statements(e);
  return {
    async get(workspaceId: string, name: string): Promise<unknown> {
      const v = q.get.get(workspaceId, name) as string | undefined;
      return v === undefined ? undefined : (JSON.parse(v) as unknown);
    },
    async set(row: { workspace_id: string; name: string; value: unknown; updated_at: string; updated_by: string | null }) {
      q.set.run({ ...row, value: JSON.stringify(row.value) });
    },
  };
}
export type SettingsStore = ReturnType<typeof settingsStore>;
