import { sql } from 'kysely';
import type { Executor } from '../../server/db/tx.js';

/**
 * Terminates the database's sessions of the service (application_name 'clinic-desk', this one's excepted) every
 * 3-15 ms until `stop`, through `e`: a PostgreSQL that keeps cutting connections, so that every step of a worker
 * that can fail after a claim does, many times. `terminated` counts the sessions ended; `beyond` waits for enough.
 */
export function terminateSessions(e: Executor) {
  let running = true;
  let terminated = 0;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const done = (async () => {
    while (running) {
      const { rows } = await sql<{ n: number }>`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'clinic-desk'`.execute(e.k)
        .catch(() => ({ rows: [{ n: 0 }] }));
      terminated += rows[0]!.n;
      await sleep(3 + Math.random() * 12);
    }
  })();
  return {
    get terminated() {
      return terminated;
    },
    /**
     * Waits, up to `timeoutMs`, until more than `count` sessions were ended: on a loaded machine the schedule a test
     * runs on may pass with fewer, though the test needs that many cuts to mean anything.
     */
    async beyond(count: number, timeoutMs: number) {
      const until = Date.now() + timeoutMs;
      while (terminated <= count && Date.now() < until) await sleep(50);
    },
    async stop() {
      running = false;
      await done;
    },
  };
}
