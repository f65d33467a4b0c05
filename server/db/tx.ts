import { type Kysely, sql } from 'kysely';
import type { Db } from './database.js';
import type { Dialect, SqlDatabase } from './sql.js';

/**
 * What a store runs its statements on (issue 17): the service's database, or one open transaction of it (`Tx`).
 * Stores write their SQL with Kysely's `sql` tag and run it on `k` (server/db/sql.ts says how); `dialect` is for the
 * few statements the two databases spell differently. Code that must run inside the transaction of a change takes
 * the `Tx` as its first parameter (audit.inTransaction, events.emit, …) and builds its stores from it (`xStore(tx)`):
 * on PostgreSQL a transaction is one pooled connection, and a statement sent through the service's executor instead
 * would run on another connection, outside it — on SQLite it would wait for the transaction to end, for ever.
 */
export class Executor {
  constructor(
    readonly database: SqlDatabase,
    /** The database's Kysely, or the open transaction's. */
    readonly k: Kysely<any>,
    /**
     * SQLite's connection, null on PostgreSQL: whether it is still open, and whether an error already ended the
     * transaction (SQLite does so by itself on some), which Kysely does not tell.
     */
    readonly raw: Db | null,
  ) {}

  get dialect(): Dialect {
    return this.database.dialect;
  }

  /** False once the service began closing its database: background loops stop touching it. */
  get open(): boolean {
    return !this.database.closed && (this.raw?.open ?? true);
  }
}

/** An open transaction's executor. Made by `transaction` only; `depth` counts the savepoints open inside it. */
export class Tx extends Executor {
  constructor(
    database: SqlDatabase, k: Kysely<any>, raw: Db | null, readonly depth: number,
    /** What `afterCommit` queued in this transaction, savepoints included. */
    readonly committed: (() => void)[] = [],
    /** Whether its commit waits until it is on disk (`durable`, the default): then `afterCommit` work runs after that. */
    readonly durable = true,
  ) {
    super(database, k, raw);
  }
}

/**
 * Runs `fn` once the outermost transaction of `tx` has committed, never when it rolls back: a hint for work that
 * must see the committed rows (another process or connection would not see them before). Registered inside a
 * savepoint that is rolled back, it is dropped with the savepoint's writes (the webhook outbox hands the rows it
 * wrote to the dispatcher this way: rows rolled back must not be sent). It must not throw: the transaction has
 * committed, and its caller is told so.
 */
export function afterCommit(tx: Tx, fn: () => void) {
  tx.committed.push(fn);
}

/** The executor of a database: what createService hands the domain services. */
export const rootExecutor = (database: SqlDatabase, raw: Db | null) => new Executor(database, database.db, raw);

/**
 * Runs `body` in one transaction: committed when it resolves, rolled back when it throws (the error is rethrown).
 * Given the database's executor it opens a transaction (SQLite: BEGIN IMMEDIATE, see sql.ts); given a transaction's,
 * it nests: a SAVEPOINT, released on success and rolled back to on error, so the outer transaction goes on (`opts`
 * then is the outer transaction's). `durable: false`: see SqlDatabase.transaction. A durable one resolves, and its
 * `afterCommit` work runs, once the commit is on disk (SQLite's group commit, db/group-commit.ts): a wake-up or an
 * event never tells of a change that a power cut could still take back.
 *
 * On SQLite one connection serves every request and Kysely's driver lends it to one holder at a time: another
 * chain's transaction, or its statement through `k`, waits until this one ends, so a body must not await real I/O
 * (a timer, a file, the network, scrypt) between BEGIN and COMMIT — compute hashes and read files before. A body
 * must also never use the service's executor for a statement of its own transaction: on SQLite that waits for the
 * transaction to end, which never comes (`npm run lint` refuses it: lint/clinic-plugin.js).
 */
export async function transaction<T>(e: Executor, body: (tx: Tx) => Promise<T>, opts?: { durable?: boolean }): Promise<T> {
  if (e instanceof Tx) return savepoint(e, body);
  const committed: (() => void)[] = [];
  const result = await e.database.transaction((trx) => body(new Tx(e.database, trx, e.raw, 0, committed, opts?.durable !== false)), opts);
  for (const fn of committed) fn();
  return result;
}

async function savepoint<T>(tx: Tx, body: (tx: Tx) => Promise<T>): Promise<T> {
  const name = sql.raw(`nested_${tx.depth + 1}`);
  await sql`SAVEPOINT ${name}`.execute(tx.k);
  const queued = tx.committed.length;
  try {
    const result = await body(new Tx(tx.database, tx.k, tx.raw, tx.depth + 1, tx.committed, tx.durable));
    await sql`RELEASE ${name}`.execute(tx.k);
    return result;
  } catch (err) {
    // SQLite ends the whole transaction on some errors by itself; then there is no savepoint left to go back to.
    if (!tx.raw || tx.raw.inTransaction) {
      await sql`ROLLBACK TO ${name}`.execute(tx.k);
      await sql`RELEASE ${name}`.execute(tx.k);
    }
    // What the savepoint queued is rolled back with it.
    tx.committed.length = queued;
    throw err;
  }
}

/**
 * Waits until every change committed so far is on disk (SQLite's group commit; at once on PostgreSQL, and inside a
 * transaction, whose own commit waits). For answers given outside the HTTP layer, which waits for every answer by
 * itself (http/durable-answers.ts), after writes made outside `transaction`: the OpenID provider's, the desktop app's.
 */
export async function durable(e: Executor): Promise<void> {
  if (!(e instanceof Tx)) await e.database.flushed();
}

/** A statement's round trip: the health checks' proof that the database answers. */
export async function ping(e: Executor): Promise<void> {
  await sql`SELECT 1`.execute(e.k);
}
