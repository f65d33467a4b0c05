import type { Db } from './database.js';

/**
 * The handle of an open transaction (issue 17). Code that must run inside the transaction of a change takes it as
 * its first parameter (audit.inTransaction, events.emit, …), and stores built from it (`xStore(tx)`) run their
 * statements in that transaction. Today it wraps the one better-sqlite3 connection; once stores run through Kysely
 * it becomes Kysely's transaction, and on PostgreSQL that is one pooled connection: a statement of the transaction
 * that went through the service's `db` instead would run on another connection, outside it.
 */
export class Tx {
  /** Made by `transaction` only. `depth` counts the savepoints open inside the transaction. */
  constructor(readonly connection: Db, readonly depth: number) {}
}

/** What a store runs its statements on: the service's connection, or an open transaction. */
export type Executor = Db | Tx;

export const connectionOf = (e: Executor): Db => (e instanceof Tx ? e.connection : e);

/**
 * `build` once per connection, whichever executor of it asks: stores prepare their statements here, so a store
 * made from a transaction handle (once per transaction) prepares nothing.
 */
export function perConnection<T>(build: (db: Db) => T): (e: Executor) => T {
  const made = new WeakMap<Db, T>();
  return (e) => {
    const db = connectionOf(e);
    let v = made.get(db);
    if (v === undefined) made.set(db, (v = build(db)));
    return v;
  };
}

const control = perConnection((db) => ({
  begin: db.prepare('BEGIN IMMEDIATE'),
  commit: db.prepare('COMMIT'),
  rollback: db.prepare('ROLLBACK'),
  ping: db.prepare('SELECT 1'),
  // The end of the promise chain of transactions waiting for this connection.
  tail: Promise.resolve(),
}));

/**
 * Runs `body` in one transaction: committed when it resolves, rolled back when it throws (the error is rethrown).
 * Given a connection, it opens a transaction with BEGIN IMMEDIATE, which takes SQLite's write lock at once, so a
 * transaction that writes late cannot fail on a lock it could have waited for (better-sqlite3's `.immediate()`).
 * Given a transaction handle, it nests: a SAVEPOINT, released on success and rolled back to on error, so the outer
 * transaction goes on (as better-sqlite3 nests its transactions).
 *
 * One connection serves every request, so transactions of different promise chains (two requests, a request and
 * the webhook dispatcher) take turns: a call made while another chain's transaction is open waits for it to end
 * rather than running inside it. Hence a body must never call `transaction(db, …)` with the connection it is
 * already in: that call would wait for itself. Nesting goes through `tx`.
 *
 * A body must not await real I/O (a timer, a file, the network, scrypt) between BEGIN and COMMIT: compute hashes
 * and read files before. Then a transaction ends within the macrotask that began it, since on SQLite a store call
 * resolves without I/O. That is what makes the one connection safe without a lock on every statement: a chain
 * started in a later macrotask (another request, a timer) cannot run before COMMIT, so none of its statements can
 * land inside another chain's transaction. Only chains already queued in the same macrotask can (work started
 * without being awaited, Promise.all over store calls); no statement of those may depend on running outside the
 * transaction. Running through Kysely (server/db/sql.ts) removes this condition: its SQLite driver serialises
 * every query and transaction on the connection.
 */
export async function transaction<T>(e: Executor, body: (tx: Tx) => Promise<T>): Promise<T> {
  if (e instanceof Tx) return savepoint(e, body);
  const c = control(e);
  const before = c.tail;
  let release!: () => void;
  c.tail = new Promise((resolve) => (release = resolve));
  try {
    await before;
    c.begin.run();
    try {
      const result = await body(new Tx(e, 0));
      c.commit.run();
      return result;
    } catch (err) {
      // A failed COMMIT or some statement errors end the transaction already; a second ROLLBACK would hide the error.
      if (e.inTransaction) c.rollback.run();
      throw err;
    }
  } finally {
    release();
  }
}

async function savepoint<T>(tx: Tx, body: (tx: Tx) => Promise<T>): Promise<T> {
  const db = tx.connection;
  const name = `nested_${tx.depth + 1}`;
  db.exec(`SAVEPOINT ${name}`);
  try {
    const result = await body(new Tx(db, tx.depth + 1));
    db.exec(`RELEASE ${name}`);
    return result;
  } catch (err) {
    if (db.inTransaction) db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
    throw err;
  }
}

/** A statement's round trip: the health checks' proof that the database answers. */
export async function ping(e: Executor): Promise<void> {
  control(e).ping.get();
}
