import { sql } from 'kysely';
import { type Migration, checksum } from './migrate.js';
import { migrations as sqliteMigrations } from './migrations/index.js';
import { postgresMigrations } from './migrations-postgres/index.js';
import type { SqlDatabase } from './sql.js';

// Any fixed number, the same for every instance of the service ("clinic" in ASCII).
const MIGRATION_LOCK = 0x636c696e6963;

/**
 * migrate.ts's rules over either database: pending migrations applied in one transaction (a start either reaches the
 * newest schema or leaves the database as it was), an applied migration whose text changed refused, the same
 * schema_migrations table. On PostgreSQL several instances may start at once: the first to take the advisory lock
 * migrates, the others wait for its commit and then find nothing pending. SQLite databases are still migrated by
 * openDatabase; run on one, this finds the same checksums and applies nothing.
 */
export async function migrateSql(database: SqlDatabase, list: readonly Migration[] = defaultList(database)): Promise<number[]> {
  return database.transaction(async (trx) => {
    if (database.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`.execute(trx);
    const { rows } = await sql<{ version: number; checksum: string }>`SELECT version, checksum FROM schema_migrations`.execute(trx);
    const applied = new Map(rows.map((r) => [r.version, r.checksum]));
    for (const m of list) {
      const sum = applied.get(m.version);
      if (sum !== undefined && sum !== checksum(m.sql)) {
        throw new Error(`migration ${m.version} (${m.name}) was changed after it was applied`);
      }
    }
    const pending = list.filter((m) => !applied.has(m.version)).sort((a, b) => a.version - b.version);
    for (const m of pending) {
      await database.script(trx, m.sql);
      await sql`INSERT INTO schema_migrations (version, name, checksum, applied_at)
        VALUES (${m.version}, ${m.name}, ${checksum(m.sql)}, ${new Date().toISOString()})`.execute(trx);
    }
    return pending.map((m) => m.version);
  });
}

const defaultList = (database: SqlDatabase) => (database.dialect === 'postgres' ? postgresMigrations : sqliteMigrations);
