import { createHash } from 'node:crypto';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** What schema_migrations keeps of a migration, to notice one edited after it was applied. */
export const checksum = (sql: string) => createHash('sha256').update(sql).digest('hex');

/**
 * Applies pending migrations, all of them in one transaction: a start-up either reaches the newest schema or
 * leaves the database as it was. A migration already applied whose text has changed since is refused, because
 * databases in the field would then differ from fresh ones.
 */
export function migrate(db: Db, list: readonly Migration[] = migrations): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Map(
    (db.prepare('SELECT version, checksum FROM schema_migrations').all() as { version: number; checksum: string }[])
      .map((r) => [r.version, r.checksum]),
  );
  for (const m of list) {
    const sum = applied.get(m.version);
    if (sum !== undefined && sum !== checksum(m.sql)) {
      throw new Error(`migration ${m.version} (${m.name}) was changed after it was applied`);
    }
  }
  const pending = list.filter((m) => !applied.has(m.version)).sort((a, b) => a.version - b.version);
  const record = db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql);
      record.run(m.version, m.name, checksum(m.sql), new Date().toISOString());
    }
  }).immediate();
  return pending.map((m) => m.version);
}
