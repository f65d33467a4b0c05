// Once per test run: a throwaway PostgreSQL for the suites' PostgreSQL half (test/helpers/postgres.ts), or the
// server named by CLINIC_DESK_TEST_POSTGRES_URL. When there is none, tests learn why and report themselves skipped
// with that reason; the run itself never fails for it.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { findPostgresBin, startPostgresCluster } from '../../scripts/postgres-cluster.mjs';
import type { PostgresAvailability } from './postgres.js';

async function check(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default async function setup(project: TestProject) {
  const provide = (a: PostgresAvailability) => project.provide('postgres', a);
  const external = process.env.CLINIC_DESK_TEST_POSTGRES_URL;
  if (external) {
    const failure = await check(external);
    provide(failure === null ? { url: external, skipReason: null }
      : { url: null, skipReason: `CLINIC_DESK_TEST_POSTGRES_URL does not answer: ${failure}` });
    return;
  }
  const found = findPostgresBin();
  if (found.reason !== undefined) {
    provide({ url: null, skipReason: found.reason });
    return;
  }
  try {
    const cluster = await startPostgresCluster({ bin: found.bin });
    console.log(`PostgreSQL for tests: ${found.bin}, 127.0.0.1:${cluster.port}, started in ${(cluster.startMs / 1000).toFixed(1)} s`);
    provide({ url: cluster.url, skipReason: null });
    // Ctrl-C ends vitest through process.exit without running teardowns; the exit event still comes.
    process.once('exit', cluster.stop);
    return cluster.stop;
  } catch (e) {
    provide({ url: null, skipReason: `PostgreSQL could not start here: ${(e as Error).message}` });
  }
}
