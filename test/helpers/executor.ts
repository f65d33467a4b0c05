import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/database.js';
import { migrateSql } from '../../server/db/migrate-sql.js';
import { openSql } from '../../server/db/sql.js';
import { type Executor, rootExecutor } from '../../server/db/tx.js';
import { type TestDatabase, freshPostgresDatabase } from './postgres.js';
import { tempDir } from './server.js';

export interface TestExecutor {
  /** The database's executor, as createService hands it to the domain services. */
  e: Executor;
  /** PostgreSQL: the database's URL, for a test that opens connections of its own to it. */
  url?: string;
  close(): Promise<void>;
}

/**
 * An empty database at the newest schema, of the kind a suite runs on: a SQLite file in a temp folder (migrated by
 * openDatabase, as the service opens it) or a fresh PostgreSQL database (migrated by migrateSql), behind the
 * executor the stores take. For store suites written once and run on both (DATABASES).
 */
export async function openTestExecutor(db: TestDatabase, label: string): Promise<TestExecutor> {
  if (db.name === 'sqlite') {
    const dir = tempDir(label);
    const raw = openDatabase({ file: join(dir, 'clinic-desk.sqlite') });
    const database = openSql({ sqlite: raw });
    return {
      e: rootExecutor(database, raw),
      async close() {
        await database.close();
        raw.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const pg = await freshPostgresDatabase(label);
  const database = openSql({ postgresUrl: pg.url });
  await migrateSql(database);
  return {
    e: rootExecutor(database, null),
    url: pg.url,
    async close() {
      await database.close();
      await pg.drop();
    },
  };
}
