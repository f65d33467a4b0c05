import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { RawBuilder } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { createService, type Service, type ServiceOptions } from '../../server/service.js';
import { type TestDatabase, freshPostgresDatabase } from './postgres.js';
import { TEST_KEK, tempDir } from './server.js';

/**
 * A service of its own (no HTTP, no demo) on an empty database of the kind a suite runs on: a SQLite file in a temp
 * folder, or a fresh PostgreSQL database with its data folder; `close` closes the service and removes both.
 */
export async function startService(db: TestDatabase, label: string, opts: Omit<ServiceOptions, 'dataDir' | 'databaseUrl'> = {}) {
  const dataDir = tempDir(label);
  const pg = db.name === 'postgres' ? await freshPostgresDatabase(label) : null;
  const service: Service = await createService({ kek: TEST_KEK, ...opts, dataDir, databaseUrl: pg?.url });
  return {
    service, dataDir,
    async close() {
      await service.close();
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The rows of a query a test reads or writes directly, through the service's executor (the database the service
 * runs on, SQLite or PostgreSQL), written once with Kysely's `sql` tag in SQL both dialects take:
 *
 *   await rowsOf(srv.service, sql`SELECT status FROM appointments WHERE id = ${id}`)
 */
export async function rowsOf<T = any>(service: Service, query: RawBuilder<unknown>): Promise<T[]> {
  return (await query.execute(service.sql.k)).rows as T[];
}

/** The first row of such a query, or undefined. */
export async function rowOf<T = any>(service: Service, query: RawBuilder<unknown>): Promise<T | undefined> {
  return (await rowsOf<T>(service, query))[0];
}

/**
 * A copy of a PostgreSQL test database (one made by freshPostgresDatabase and no longer connected to), by
 * CREATE DATABASE … TEMPLATE: what a suite prepares once (the demo clinics cost seconds of scrypt) and starts each
 * test on, as SQLite suites copy a data folder.
 */
export async function copyPostgresDatabase(templateUrl: string, label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = inject('postgres')?.url;
  if (!admin) throw new Error('no PostgreSQL for tests');
  const template = decodeURIComponent(new URL(templateUrl).pathname.slice(1));
  const name = `t_${label.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 40)}_${randomBytes(6).toString('hex')}`;
  const asAdmin = async (text: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  // A pool that has just ended may still be leaving the template ("being accessed by other users"): wait a little.
  for (let attempt = 0; ; attempt++) {
    try {
      await asAdmin(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      break;
    } catch (e) {
      if (attempt >= 50 || !/being accessed by other users/.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
