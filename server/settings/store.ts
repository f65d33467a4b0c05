import { sql } from 'kysely';
import type { Executor } from '../db/tx.js';

/** SQL of workspace_settings: a clinic's settings by name, values as JSON. */
export function settingsStore(e: Executor) {
  const k = e.k;
  return {
    async get(workspaceId: string, name: string): Promise<unknown> {
      const { rows } = await sql<{ value: string }>`
        SELECT value FROM workspace_settings WHERE workspace_id = ${workspaceId} AND name = ${name}`.execute(k);
      return rows[0] === undefined ? undefined : (JSON.parse(rows[0].value) as unknown);
    },
    // ON CONFLICT … DO UPDATE with `excluded` is the same statement on both databases.
    async set(row: { workspace_id: string; name: string; value: unknown; updated_at: string; updated_by: string | null }) {
      await sql`INSERT INTO workspace_settings (workspace_id, name, value, updated_at, updated_by)
        VALUES (${row.workspace_id}, ${row.name}, ${JSON.stringify(row.value)}, ${row.updated_at}, ${row.updated_by})
        ON CONFLICT (workspace_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by`
        .execute(k);
    },
  };
}
export type SettingsStore = ReturnType<typeof settingsStore>;
