import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../server/db/database.js';
import { openSql } from '../../server/db/sql.js';
import { type Executor, type Tx, rootExecutor, transaction } from '../../server/db/tx.js';
import { tempDir } from '../helpers/server.js';

/**
 * server/db/tx.ts on a real database file: commit and rollback, nesting through the handle (savepoints), and
 * transactions of different promise chains taking turns on the one connection.
 */
describe('transaction (server/db/tx.ts)', () => {
  let db: Db;
  let e: Executor;
  const insert = (tx: Tx | Executor, v: string) => tx.raw!.prepare('INSERT INTO t (v) VALUES (?)').run(v);
  const values = () => (db.prepare('SELECT v FROM t ORDER BY id').all() as { v: string }[]).map((r) => r.v);

  beforeAll(() => {
    db = openDatabase({ file: join(tempDir('tx'), 'tx.sqlite'), migrate: false });
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    e = rootExecutor(openSql({ sqlite: db }), db);
  });
  afterAll(() => db.close());

  it('commits what the body did when it resolves, and answers its result', async () => {
    db.exec('DELETE FROM t');
    expect(await transaction(e, async (tx) => {
      insert(tx, 'a');
      return 'done';
    })).toBe('done');
    expect(values()).toEqual(['a']);
    expect(db.inTransaction).toBe(false);
  });

  it('rolls everything back and rethrows when the body throws', async () => {
    db.exec('DELETE FROM t');
    await expect(transaction(e, async (tx) => {
      insert(tx, 'a');
      await Promise.resolve();
      insert(tx, 'b');
      throw new Error('refused');
    })).rejects.toThrow('refused');
    expect(values()).toEqual([]);
    expect(db.inTransaction).toBe(false);
  });

  it('nests through the handle: a failed inner part is undone, the outer transaction goes on and commits', async () => {
    db.exec('DELETE FROM t');
    await transaction(e, async (tx) => {
      insert(tx, 'outer');
      await expect(transaction(tx, async (inner) => {
        insert(inner, 'inner');
        throw new Error('inner refused');
      })).rejects.toThrow('inner refused');
      await transaction(tx, async (inner) => {
        insert(inner, 'kept');
        await transaction(inner, async (deeper) => void insert(deeper, 'deeper'));
      });
      expect(db.inTransaction).toBe(true);
    });
    expect(values()).toEqual(['outer', 'kept', 'deeper']);
  });

  it('lets a second chain\'s transaction wait until the first has committed, never run inside it', async () => {
    db.exec('DELETE FROM t');
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = transaction(e, async (tx) => {
      order.push('first begins');
      insert(tx, 'first');
      await held;
      order.push('first ends');
    });
    const second = transaction(e, async (tx) => {
      order.push('second begins');
      // It sees the first one's row as committed, and its own failure cannot take that row with it.
      expect(values()).toEqual(['first']);
      insert(tx, 'second');
      throw new Error('second refused');
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['first begins']);
    // Expected before the first is awaited: a durable commit resolves after its flush (group commit), by which time
    // the second may already have failed, and a rejection nobody handles yet is reported as unhandled.
    const refused = expect(second).rejects.toThrow('second refused');
    release();
    await first;
    await refused;
    expect(order).toEqual(['first begins', 'first ends', 'second begins']);
    expect(values()).toEqual(['first']);
  });

  it('leaves nothing to flush after a commit that need not be durable; a write on its own and a durable commit are flushed', async () => {
    const pending = () => e.database.flushed();
    await pending();
    expect(pending()).toBeNull();
    // Its BEGIN, run while no transaction is open, is no commit of its own either.
    await transaction(e, (tx) => sql`INSERT INTO t (v) VALUES (${'not durable'})`.execute(tx.k), { durable: false });
    expect(pending()).toBeNull();
    await sql`INSERT INTO t (v) VALUES (${'on its own'})`.execute(e.k);
    const flush = pending();
    expect(flush).not.toBeNull();
    await flush;
    expect(pending()).toBeNull();
    await transaction(e, (tx) => sql`INSERT INTO t (v) VALUES (${'durable'})`.execute(tx.k));
    // Resolved after its flush.
    expect(pending()).toBeNull();
  });

  it('goes on after a failed transaction: the queue is not left waiting on it', async () => {
    db.exec('DELETE FROM t');
    await expect(transaction(e, async () => {
      throw new Error('first fails');
    })).rejects.toThrow('first fails');
    await transaction(e, async (tx) => void insert(tx, 'after'));
    expect(values()).toEqual(['after']);
  });
});
