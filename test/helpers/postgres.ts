import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** What test/helpers/postgres-global-setup.ts found: a server to make test databases on, or why there is none. */
export type PostgresAvailability = { url: string; skipReason: null } | { url: null; skipReason: string };

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresAvailability;
  }
}

function availability(): PostgresAvailability {
  // Undefined when a run bypasses vitest.config.ts (another config), which is where the global setup is registered.
  return inject('postgres') ?? { url: null, skipReason: 'the PostgreSQL global setup did not run (it is registered in vitest.config.ts)' };
}

/** Null when tests have a PostgreSQL; otherwise the sentence saying why not, for skipFor. */
export function postgresSkipReason(): string | null {
  return availability().skipReason;
}

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  /** Why this database's half of a suite is skipped, or null. */
  skip: string | null;
}

/**
 * The databases a suite runs against, each test named with its database:
 *
 *   for (const db of DATABASES) describe(`patients (${db.name})`, skipFor(db.skip), () => { ... });
 */
export const DATABASES: readonly TestDatabase[] = [
  { name: 'sqlite', skip: null },
  { name: 'postgres', skip: postgresSkipReason() },
];

async function asAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new empty database on the tests' PostgreSQL, so each test file (or test) has its own; `drop` removes it even
 * while a pool the test forgot still holds connections to it.
 */
export async function freshPostgresDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { url: adminUrl, skipReason } = availability();
  if (adminUrl === null) throw new Error(`no PostgreSQL for tests: ${skipReason}`);
  // Identifiers are at most 63 bytes; the random tail keeps parallel test files (and runs) apart.
  const name = `t_${label.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 40)}_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => asAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
