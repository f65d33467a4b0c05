/**
 * The service's database behind one interface, SQLite or PostgreSQL (issue 17).
 *
 * Stores write their SQL once with Kysely's `sql` tag, `sql<Row>\`SELECT … WHERE workspace_id = ${ws}\`.execute(db)`,
 * because the tag compiles its placeholders per dialect at ~3 µs a query where the query builder costs ~24 µs (our
 * patients search); the builder is fine where speed does not matter. The schema keeps SQLite's value types on both
 * (ISO timestamps and JSON as TEXT, booleans as 0/1, ids and counts as JS numbers), so a row read through the tag is
 * the same JS value on both and the interface's bytes never depend on the database. What the dialects cannot share
 * is said once here, not in every store: the insertion order of tables without an integer key (`insertionOrder`),
 * constraint errors (`dbErrorKind`) and transactions (`transaction`: SQLite takes the write lock at BEGIN, as
 * better-sqlite3's `.immediate()` does, so a transaction that writes late cannot fail on a lock it could have waited
 * for). Generated ids come back with RETURNING, never from a driver's last insert id, and a boolean expression must
 * be selected as `CASE WHEN … THEN 1 ELSE 0 END` (PostgreSQL would answer true/false). On SQLite everything runs on
 * the connection openDatabase opened (its pragmas, file modes and synchronous migrations unchanged), one query at a
 * time through Kysely's mutex: while stores are being converted, a synchronous better-sqlite3 write made while an
 * async transaction is open on that connection becomes part of that transaction, so convert a domain's writes
 * together.
 */
import { Kysely, PostgresDialect, SqliteDialect, sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import type { Db } from './database.js';
import { type GroupCommit, groupCommit } from './group-commit.js';

export type Dialect = 'sqlite' | 'postgres';

export interface SqlDatabase {
  readonly dialect: Dialect;
  readonly db: Kysely<any>;
  /**
   * Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws.
   * A durable one resolves once its commit is on disk (SQLite: `flushed`, below). `durable: false` commits without
   * waiting for the disk (SQLite: no flush waited for, or synchronous=NORMAL for this commit on a connection without
   * group commit; PostgreSQL: synchronous_commit off): a crash of the machine, or of PostgreSQL, may lose it, never
   * half of it, and the next durable commit takes it along. Only for writes that may be lost and done again (the
   * webhook dispatcher's attempt log: a lost result means the delivery is sent again, which at-least-once allows).
   */
  transaction<T>(fn: (trx: Kysely<any>) => Promise<T>, opts?: { durable?: boolean }): Promise<T>;
  /**
   * Null when every commit made so far is on disk, else a promise of it (SQLite's group commit, db/group-commit.ts;
   * always null on PostgreSQL, whose COMMIT answers once it is durable). A durable `transaction` resolves only
   * after it; an answer that may show a change made outside one (a single statement's own commit) waits for it.
   */
  flushed(): Promise<void> | null;
  /** Runs a script of several statements (migrations) inside `trx`, a transaction of this database. */
  script(trx: Kysely<any>, text: string): Promise<void>;
  /** Ends the PostgreSQL pool. A SQLite connection stays open: it belongs to whoever called openDatabase. */
  close(): Promise<void>;
  /** True once close() was called: background loops ask before touching the database while the service stops. */
  readonly closed: boolean;
}

export type OpenSqlOptions =
  | { sqlite: Db; statementCacheSize?: number }
  | { postgresUrl: string; poolSize?: number; onIdleClientError?: (e: Error) => void };

export function openSql(opts: OpenSqlOptions): SqlDatabase {
  if ('sqlite' in opts) return openSqlite(opts.sqlite, opts.statementCacheSize ?? 500);
  return openPostgres(opts.postgresUrl, opts.poolSize ?? 10, opts.onIdleClientError);
}

function openSqlite(raw: Db, cacheSize: number): SqlDatabase {
  // The connection's own level (FULL for a clinic's database). A file in WAL mode at FULL gets group commit instead:
  // the connection commits at NORMAL and a durable commit is answered once groupCommit's flush has covered it.
  const level = Number(raw.pragma('synchronous', { simple: true }));
  const group = level >= SQLITE_FULL && !raw.memory && !raw.readonly && raw.pragma('journal_mode', { simple: true }) === 'wal'
    ? groupCommit(raw.name) : null;
  if (group) raw.pragma('synchronous = NORMAL');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: cachingStatements(raw, cacheSize, group) }) });
  let closed = false;
  // Without group commit, a commit that need not be durable lowers the level for itself; it can only change outside
  // a transaction.
  const restore = sql.raw(`PRAGMA synchronous = ${level}`);
  return {
    dialect: 'sqlite',
    db,
    transaction: async (fn, opts) => {
      const durable = opts?.durable !== false;
      const lower = !durable && !group && level > SQLITE_NORMAL;
      const result = await db.connection().execute(async (conn) => {
        if (lower) await sql`PRAGMA synchronous = NORMAL`.execute(conn);
        try {
          await sql`BEGIN IMMEDIATE`.execute(conn);
          try {
            const result = await fn(conn);
            await sql`COMMIT`.execute(conn);
            if (durable) group?.committed();
            return result;
          } catch (e) {
            // A failed COMMIT or a statement error may already have ended the transaction (SQLite rolls back on
            // some errors by itself); rolling back again would hide the first error behind "no transaction".
            if (raw.inTransaction) await sql`ROLLBACK`.execute(conn);
            throw e;
          }
        } finally {
          if (lower) await restore.execute(conn);
        }
      });
      // Outside the connection's lock: the next requests' transactions commit while this flush runs.
      if (durable) await group?.flushed();
      return result;
    },
    flushed: () => group?.flushed() ?? null,
    // better-sqlite3 prepares one statement at a time; exec runs a script, on the connection the transaction holds.
    script: async (_trx, text) => {
      raw.exec(text);
    },
    get closed() {
      return closed;
    },
    async close() {
      closed = true;
      await db.destroy();
      await group?.close();
    },
  };
}

// PRAGMA synchronous levels.
const SQLITE_NORMAL = 1;
const SQLITE_FULL = 2;

/**
 * Kysely's SQLite driver prepares every query it runs (~20 µs with better-sqlite3); stores run the same few texts
 * over and over, so each text is prepared once. The cap bounds memory for texts built per call (IN lists of varying
 * length): past it the oldest statement is dropped, to be prepared again if it comes back. With group commit, a
 * write run outside a transaction commits by itself: noted, so that the answer that follows waits for its flush. A
 * statement that leaves a transaction open (BEGIN) commits nothing: its transaction's COMMIT is noted by
 * `transaction` when it is durable. Noted too, every commit that need not be durable (the dispatcher's results) made
 * the next answers and the dispatcher's next send wait for a flush of their own.
 */
function cachingStatements(raw: Db, cap: number, group: GroupCommit | null) {
  const statements = new Map<string, ReturnType<Db['prepare']>>();
  const prepared = (text: string) => {
    let stmt = statements.get(text);
    if (!stmt) {
      stmt = raw.prepare(text);
      if (statements.size >= cap) statements.delete(statements.keys().next().value!);
      statements.set(text, stmt);
    }
    return stmt;
  };
  return {
    prepare(text: string) {
      const stmt = prepared(text);
      if (!group || stmt.readonly || raw.inTransaction) return stmt;
      // Kysely reads `reader` and calls all (RETURNING) or run.
      return {
        reader: stmt.reader,
        all(params: unknown[]) {
          const rows = stmt.all(params);
          if (!raw.inTransaction) group.committed();
          return rows;
        },
        run(params: unknown[]) {
          const info = stmt.run(params);
          if (!raw.inTransaction) group.committed();
          return info;
        },
        // A method, not an arrow function: tsx would wrap a named arrow in __name for every wrapper made.
        iterate(params: unknown[]) {
          return stmt.iterate(params);
        },
      };
    },
    // The connection is the caller's (see SqlDatabase.close).
    close() {},
  };
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * pg returns bigint and numeric as strings, so that no value loses precision; SQLite returns numbers. Ids, counts
 * and sums are numbers on both, and a value beyond 2^53 fails loudly rather than coming back rounded.
 */
const numberTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID) {
      return (text: string) => {
        const n = Number(text);
        if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${text} is beyond JavaScript's safe integers`);
        return n;
      };
    }
    if (oid === NUMERIC_OID) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

function openPostgres(url: string, poolSize: number, onIdleClientError?: (e: Error) => void): SqlDatabase {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: numberTypes, application_name: 'clinic-desk' });
  // An idle pooled connection that breaks (a server restart, a failover, pg_terminate_backend) is emitted here and
  // dropped by the pool; without a listener Node would end the process. The next query opens a new connection.
  pool.on('error', onIdleClientError ?? ((e) => console.error(`clinic-desk: an idle PostgreSQL connection failed: ${e.message}`)));
  // A connection in use that breaks emits on its client, which the pool listens to only while it is idle: without
  // this, the same ending of the process. Its query or transaction fails with the error itself (a 503 for a request,
  // isDatabaseUnavailable), and the pool drops the client when it is released, since it is no longer queryable.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    dialect: 'postgres',
    db,
    transaction: (fn, opts) => db.transaction().execute(async (trx) => {
      if (opts?.durable === false) await sql`SET LOCAL synchronous_commit = off`.execute(trx);
      return fn(trx);
    }),
    flushed: () => null,
    // Without parameters pg uses the simple query protocol, which takes several statements in one text.
    script: async (trx, text) => {
      await sql.raw(text).execute(trx);
    },
    get closed() {
      return closed;
    },
    async close() {
      closed = true;
      await db.destroy();
    },
  };
}

/**
 * The tables whose queries order by insertion: PostgreSQL's schema gives them a `seq` identity column where SQLite
 * has the rowid (copying a clinic in carries the rowid over into seq).
 */
export const INSERTION_ORDERED_TABLES = ['workspaces', 'patients', 'webhook_deliveries'] as const;

// Made once for each name (a builder can be used in any number of statements): stores ask at creation, a webhook
// store for every change that raises an event, and sql.ref parses its name and builds its nodes each time (about
// 9 µs of a status change in a profile).
const orders = new Map<string, RawBuilder<number>>();

/**
 * What stands for "inserted later" in an ORDER BY over one of INSERTION_ORDERED_TABLES: SQLite's rowid or
 * PostgreSQL's seq. `table` is the name or alias the query gives the table, when it needs one.
 */
export function insertionOrder(dialect: Dialect, table?: string): RawBuilder<number> {
  const column = dialect === 'sqlite' ? 'rowid' : 'seq';
  const name = table ? `${table}.${column}` : column;
  let order = orders.get(name);
  if (!order) orders.set(name, (order = sql.ref(name)));
  return order;
}

const UNREACHABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * Whether an error says the database cannot be reached right now (PostgreSQL restarting, failing over, a connection
 * terminated, the network cut), as opposed to a fault of the query: a request then answers 503 and may be retried.
 * SQLSTATE class 08 (connection exception) and 57P01–57P03 (shut down, crashed, not accepting connections yet); the
 * driver's own words for a connection that ended; the socket's errors.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (code.startsWith('08') || /^57P0[123]$/.test(code) || UNREACHABLE_SOCKET.has(code))) return true;
  const message = e instanceof Error ? e.message : '';
  return /^Connection terminated|not queryable|^timeout exceeded when trying to connect/.test(message);
}

export type DbErrorKind = 'unique' | 'foreign_key' | 'check' | 'not_null';

const SQLITE_KINDS: Record<string, DbErrorKind> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign_key',
  SQLITE_CONSTRAINT_CHECK: 'check',
  SQLITE_CONSTRAINT_NOTNULL: 'not_null',
};

// SQLSTATE class 23, integrity constraint violation (PostgreSQL's errcodes.txt).
const POSTGRES_KINDS: Record<string, DbErrorKind> = {
  '23505': 'unique',
  '23503': 'foreign_key',
  '23514': 'check',
  '23502': 'not_null',
};

/** Which constraint a database error broke, whichever the database; null for any other error. */
export function dbErrorKind(e: unknown): DbErrorKind | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  return SQLITE_KINDS[code] ?? POSTGRES_KINDS[code] ?? null;
}
