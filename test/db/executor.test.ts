import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations/index.js';
import { ping, transaction } from '../../server/db/tx.js';
import { type TestExecutor, openTestExecutor } from '../helpers/executor.js';
import { DATABASES } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

// The executor every store suite builds on: the newest schema, transactions and savepoints through it, on both.
for (const db of DATABASES) {
  describe(`test executor (${db.name})`, skipFor(db.skip), () => {
    let t: TestExecutor;
    beforeAll(async () => {
      t = await openTestExecutor(db, 'executor');
    });
    afterAll(async () => t?.close());

    it('answers, at the newest schema version, and undoes a failed savepoint inside a committed transaction', async () => {
      await ping(t.e);
      const { rows } = await sql<{ v: number }>`SELECT max(version) AS v FROM schema_migrations`.execute(t.e.k);
      expect(rows[0]!.v).toBe(migrations.at(-1)!.version);
      await transaction(t.e, async (tx) => {
        await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES ('w1', 'One', 'IN', 'Asia/Kolkata', 'x')`.execute(tx.k);
        await expect(transaction(tx, async (inner) => {
          await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES ('w2', 'Two', 'IN', 'Asia/Kolkata', 'x')`.execute(inner.k);
          throw new Error('inner refused');
        })).rejects.toThrow('inner refused');
      });
      const ids = await sql<{ id: string }>`SELECT id FROM workspaces ORDER BY id`.execute(t.e.k);
      expect(ids.rows.map((r) => r.id)).toEqual(['w1']);
    });
  });
}
