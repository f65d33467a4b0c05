/**
 * Moving a desktop clinic into PostgreSQL (issue 17, item 3): every table of the clinic's SQLite file copied into a
 * PostgreSQL database at the same schema version, in one PostgreSQL transaction, verified table by table before it
 * commits. Several clinics may be copied into one database (a chain), one after the other.
 *
 * The SQLite file is opened read-only and read inside one read transaction: in WAL mode that is a consistent
 * snapshot that neither blocks nor is blocked by a desktop app still running on it. It is not refused while the
 * app runs, but whatever the app writes after the snapshot is not copied, so the clinic stops the app first
 * (docs/OPERATIONS.md).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { secretBox, type SecretBox } from '../shared/secret-box.js';
import { sealContext } from '../reminders/settings.js';
import { subscriptionKeyContext } from '../webhooks/dispatcher.js';
import { readsJournalFile } from '../audit/reads-writer.js';
import { openDatabase, type Db } from './database.js';
import { migrateSql } from './migrate-sql.js';
import { migrations } from './migrations/index.js';
import { openSql } from './sql.js';

/** A refusal made before anything was written: the message says why, in the operator's words. */
export class CopyRefused extends Error {}

export interface CopyOptions {
  sqliteFile: string;
  postgresUrl: string;
  /**
   * Secrets at rest re-sealed on the way: opened with `from` (the clinic's key-encryption key) and sealed with `to`
   * (the server's). Without it they are copied as they are, and the server must run with the clinic's key.
   */
  reseal?: { from: Buffer; to: Buffer };
  /** Rows per INSERT (fewer when a table's columns would pass PostgreSQL's 65,535 parameters). */
  batchRows?: number;
  /** Progress: a line per table, and one per 100,000 rows of a long one. */
  log?: (line: string) => void;
}

export interface TableCopy {
  table: string;
  /** Rows the clinic's file holds. */
  sqliteRows: number;
  /** Rows of a service-wide table left out because the server already has a row with that key (kept as it is). */
  kept: number;
  /** Rows this copy added to PostgreSQL, read back from the database. */
  postgresRows: number;
  sqliteChecksum: string;
  postgresChecksum: string;
  ok: boolean;
}

export interface CopyResult {
  workspaces: { id: string; name: string }[];
  tables: TableCopy[];
}

/** Thrown when verification failed: the transaction was rolled back; `tables` says where. */
export class CopyMismatch extends Error {
  constructor(readonly tables: TableCopy[]) {
    super(`verification failed for ${tables.filter((t) => !t.ok).map((t) => t.table).join(', ')}: nothing was written`);
  }
}

interface SealedSite {
  column: string;
  /** The associated data the module that seals it binds in. */
  context: (row: Record<string, unknown>) => string;
  /** The sealed secret is this field of the column's JSON object (oidc-provider payloads). */
  jsonField?: string;
}

/**
 * Where the schema keeps secrets sealed with the key-encryption key (server/shared/secret-box.ts), and the context
 * each module seals them under. A column named like a sealed one but missing here stops a re-sealing copy, so a
 * secret added later is not carried over unreadable.
 */
const SEALED: Record<string, SealedSite> = {
  signing_keys: { column: 'private_jwk_sealed', context: (r) => `signing_key:${r.kid}` }, // server/auth/tokens.ts
  oidc_keys: { column: 'sealed', context: (r) => `oidc_${r.kind}:${r.kid}` }, // server/oidc/keys.ts
  oidc_models: { column: 'payload', jsonField: 'jti_sealed', context: (r) => `oidc:${r.model}:${r.key}` }, // server/oidc/adapter.ts
  scribe_keys: { column: 'sealed', context: (r) => `scribe_keys:${r.name}` }, // server/scribe/policy.ts
  fcm_credentials: { column: 'private_key_sealed', context: (r) => `fcm_private_key:${r.workspace_id}` }, // server/notifications/service.ts
  reminder_settings: { column: 'secrets_sealed', context: (r) => sealContext(String(r.workspace_id)) }, // server/reminders/settings.ts
  webhook_subscriptions: { column: 'signing_key_sealed', context: (r) => subscriptionKeyContext(String(r.id)) },
};
const looksSealed = (column: string) => column === 'sealed' || column.endsWith('_sealed');

interface TablePlan {
  name: string;
  /** The SQLite columns, copied under the same names. */
  columns: string[];
  primaryKey: string[];
  parents: string[];
  /** PostgreSQL's `seq`, filled from SQLite's rowid so the insertion order is kept. */
  seqFromRowid: boolean;
  /** Identity columns of the PostgreSQL table among `columns` (plus seq), shifted by `offsets` when rows exist. */
  identities: string[];
  /** No workspace reaches it (keys of the whole service): a row whose key the server has is kept as the server has it. */
  serviceWide: boolean;
  /** PostgreSQL text columns: ordered with COLLATE "C" (integers take no collation). */
  text: Set<string>;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

// PostgreSQL refuses statements with more bind parameters than this.
const MAX_PARAMETERS = 65_535;
// Any fixed number, distinct from migrate-sql.ts's: two copies into one database run one after the other.
const COPY_LOCK = 0x636f7079;

/** Values as text, the same on both sides: integers in decimal, NULL as null; a JSON array per row. */
type Row = (string | null)[];

function sqliteText(value: unknown, where: string): string | null {
  if (value === null) return null;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw new Error(`${where} holds a U+0000 character, which PostgreSQL's text cannot store`);
    return value;
  }
  if (typeof value === 'bigint' || typeof value === 'number') return String(value);
  throw new Error(`${where} holds a ${value instanceof Uint8Array ? 'binary' : typeof value} value, which the PostgreSQL schema has no column for`);
}

/** SQLite file → PostgreSQL database. Throws CopyRefused or CopyMismatch (nothing written) or the database's error. */
export async function copyToPostgres(opts: CopyOptions): Promise<CopyResult> {
  const log = opts.log ?? (() => undefined);
  const sqlite = openDatabase({ file: opts.sqliteFile, readonly: true });
  try {
    sqlite.exec('BEGIN');
    // The first read fixes the snapshot every later read of this transaction sees.
    checkSchemaVersion(sqlite, opts.sqliteFile);
    checkReadsJournal(opts.sqliteFile);
    const pgDatabase = openSql({ postgresUrl: opts.postgresUrl, poolSize: 1 });
    try {
      await migrateSql(pgDatabase);
    } finally {
      await pgDatabase.close();
    }
    // Every value as PostgreSQL's text, so both sides are compared as the same strings.
    const client = new pg.Client({
      connectionString: opts.postgresUrl,
      application_name: 'clinic-desk migrate-to-postgres',
      types: { getTypeParser: () => (text: string) => text } as unknown as pg.CustomTypesConfig,
    });
    await client.connect();
    try {
      return await copyInTransaction(sqlite, client, opts, log);
    } finally {
      await client.end();
    }
  } finally {
    if (sqlite.inTransaction) sqlite.exec('COMMIT');
    sqlite.close();
  }
}

/**
 * Read entries a service that did not stop cleanly left in its audit journal (audit/reads-worker.ts) are not in
 * audit_log yet: the copy waits for the next start of the service, which moves them.
 */
function checkReadsJournal(file: string) {
  const journal = readsJournalFile(file);
  if (!existsSync(journal)) return;
  const j = openDatabase({ file: journal, readonly: true });
  try {
    const waiting = j.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'batches'`).get()
      && j.prepare('SELECT 1 FROM batches LIMIT 1').get();
    if (waiting) {
      throw new CopyRefused(`${file} has read-audit entries still waiting in ${journal} (the service did not stop cleanly): `
        + 'start the desktop app or `npm run serve -- --data-dir <its folder>` once and stop it, which moves them into the audit log, then copy');
    }
  } finally {
    j.close();
  }
}

function checkSchemaVersion(sqlite: Db, file: string) {
  const hasTable = sqlite.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`).get();
  if (!hasTable) throw new CopyRefused(`${file} is not a Clinic Desk database (it has no schema_migrations table)`);
  const versions = new Set((sqlite.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]).map(Number));
  const known = migrations.map((m) => m.version);
  const newest = Math.max(...known);
  const unknown = [...versions].filter((v) => !known.includes(v));
  if (unknown.length > 0) {
    throw new CopyRefused(`${file} has schema version ${Math.max(...unknown)}, newer than this Clinic Desk's ${newest}: `
      + 'copy it with the Clinic Desk version that last opened it');
  }
  const missing = known.filter((v) => !versions.has(v));
  if (missing.length > 0) {
    const at = versions.size ? Math.max(...versions) : 0;
    throw new CopyRefused(`${file} is at schema version ${at}, older than this Clinic Desk's ${newest}: start the desktop app `
      + 'or `npm run serve -- --data-dir <its folder>` once on it to upgrade it, stop it, then run migrate-to-postgres again');
  }
}

async function plan(sqlite: Db, client: pg.Client, resealing: boolean): Promise<TablePlan[]> {
  const names = sqlite.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
    AND name <> 'schema_migrations' ORDER BY name`).pluck().all() as string[];
  const { rows: pgColumns } = await client.query<{ table_name: string; column_name: string; is_identity: string; data_type: string }>(
    `SELECT table_name, column_name, is_identity, data_type FROM information_schema.columns WHERE table_schema = current_schema()`);
  const pgTables = new Map<string, Map<string, boolean>>();
  const textColumns = new Set<string>();
  for (const c of pgColumns) {
    if (!pgTables.has(c.table_name)) pgTables.set(c.table_name, new Map());
    pgTables.get(c.table_name)!.set(c.column_name, c.is_identity === 'YES');
    if (c.data_type === 'text') textColumns.add(`${c.table_name}.${c.column_name}`);
  }
  const plans = names.map((name): TablePlan => {
    const pgTable = pgTables.get(name);
    if (!pgTable) throw new Error(`PostgreSQL has no table ${name}, which the SQLite file has: its migrations lack it (server/db/migrations-postgres)`);
    const info = sqlite.prepare('SELECT name, pk FROM pragma_table_info(?)').all(name) as { name: string; pk: number }[];
    const columns = info.map((c) => c.name);
    for (const c of columns) {
      if (!pgTable.has(c)) throw new Error(`PostgreSQL's ${name} has no column ${c}, which the SQLite file has`);
    }
    const hasRowid = (sqlite.prepare('SELECT sql FROM sqlite_schema WHERE name = ?').pluck().get(name) as string)
      .search(/WITHOUT\s+ROWID\s*;?\s*$/i) < 0;
    const extra = [...pgTable.keys()].filter((c) => !columns.includes(c));
    for (const c of extra) {
      if (!(c === 'seq' && pgTable.get(c) && hasRowid)) {
        throw new Error(`PostgreSQL's ${name} has a column ${c} the SQLite file lacks; only a seq identity (filled from the rowid) is expected`);
      }
    }
    if (resealing) {
      for (const c of columns) {
        if (looksSealed(c) && SEALED[name]?.column !== c) {
          throw new Error(`${name}.${c} looks like a sealed secret this copy does not know how to re-seal (server/db/copy-to-postgres.ts, SEALED)`);
        }
      }
    }
    const parents = (sqlite.prepare('SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)').pluck().all(name) as string[])
      .filter((p) => p !== name);
    return {
      name,
      columns,
      primaryKey: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
      parents,
      seqFromRowid: extra.includes('seq'),
      identities: [...pgTable.entries()].filter(([, identity]) => identity).map(([c]) => c),
      serviceWide: false,
      text: new Set(columns.filter((c) => textColumns.has(`${name}.${c}`))),
    };
  });
  for (const p of plans) if (p.primaryKey.length === 0) throw new Error(`${p.name} has no primary key to verify its rows by`);
  const byName = new Map(plans.map((p) => [p.name, p]));
  const scoped = (p: TablePlan, seen = new Set<string>()): boolean => {
    if (p.columns.includes('workspace_id')) return true;
    seen.add(p.name);
    return p.parents.some((parent) => !seen.has(parent) && byName.has(parent) && scoped(byName.get(parent)!, seen));
  };
  for (const p of plans) p.serviceWide = !scoped(p);
  return foreignKeyOrder(plans);
}

/** Parents before children, so every row's references exist when it is inserted. */
function foreignKeyOrder(plans: TablePlan[]): TablePlan[] {
  const done = new Set<string>();
  const ordered: TablePlan[] = [];
  let remaining = plans;
  while (remaining.length > 0) {
    const ready = remaining.filter((p) => p.parents.every((parent) => done.has(parent) || !plans.some((q) => q.name === parent)));
    if (ready.length === 0) throw new Error(`the foreign keys of ${remaining.map((p) => p.name).join(', ')} form a cycle`);
    for (const p of ready) {
      done.add(p.name);
      ordered.push(p);
    }
    remaining = remaining.filter((p) => !done.has(p.name));
  }
  return ordered;
}

async function refuseSameClinicOrUsers(sqlite: Db, client: pg.Client): Promise<{ id: string; name: string }[]> {
  const workspaces = sqlite.prepare('SELECT id, name FROM workspaces ORDER BY rowid').all() as { id: string; name: string }[];
  const { rows: present } = await client.query<{ id: string; name: string }>(
    'SELECT id, name FROM workspaces WHERE id = ANY($1::text[]) ORDER BY seq', [workspaces.map((w) => w.id)]);
  if (present.length > 0) {
    throw new CopyRefused(`this clinic is already in PostgreSQL: ${present.map((w) => `${w.name} (${w.id})`).join(', ')}; `
      + 'nothing was written');
  }
  const usernames = sqlite.prepare('SELECT username FROM users ORDER BY username').pluck().all() as string[];
  // users.username has the nocase collation there: unique across the service regardless of case.
  const { rows: taken } = await client.query<{ username: string }>(
    'SELECT username FROM users WHERE username = ANY($1::text[]) ORDER BY username', [usernames]);
  if (taken.length > 0) {
    throw new CopyRefused(`usernames are unique across the server, and these of this clinic are taken there: `
      + `${taken.map((u) => u.username).join(', ')}. Rename them in the desktop app first; nothing was written`);
  }
  return workspaces;
}

async function copyInTransaction(sqlite: Db, client: pg.Client, opts: CopyOptions, log: (line: string) => void): Promise<CopyResult> {
  const boxes = opts.reseal ? { from: secretBox(opts.reseal.from), to: secretBox(opts.reseal.to) } : null;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [COPY_LOCK]);
    const tables = await plan(sqlite, client, boxes !== null);
    const workspaces = await refuseSameClinicOrUsers(sqlite, client);
    const sums: TableCopy[] = [];
    for (const table of tables) sums.push(await copyTable(sqlite, client, table, boxes, opts.batchRows ?? 1000, log));
    for (const table of tables) await moveSequences(client, table);
    for (const sum of sums) await verify(client, tables.find((t) => t.name === sum.table)!, sum, boxes?.to ?? null);
    if (sums.some((s) => !s.ok)) throw new CopyMismatch(sums);
    await client.query('COMMIT');
    return { workspaces, tables: sums };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** The columns as PostgreSQL holds them after the copy: the SQLite ones, then seq where it is filled. */
const targetColumns = (t: TablePlan) => (t.seqFromRowid ? [...t.columns, 'seq'] : t.columns);

/**
 * A secret's value for the checksum: what it opens to (so a re-sealed one, with its new random IV, compares equal
 * to the original), or the sealed text itself when secrets are copied as they are.
 */
function comparable(t: TablePlan, row: Row, box: SecretBox | null): Row {
  const site = SEALED[t.name];
  if (!box || !site) return row;
  return withSealed(t, row, site, (sealed, context) => `opened:${createHash('sha256').update(box.open(sealed, context)).digest('hex')}`);
}

function withSealed(t: TablePlan, row: Row, site: SealedSite, change: (sealed: string, context: string) => string): Row {
  const i = t.columns.indexOf(site.column);
  const value = row[i];
  if (value === null || value === undefined) return row;
  const context = site.context(Object.fromEntries(t.columns.map((c, j) => [c, row[j]])));
  const out = [...row];
  if (site.jsonField) {
    const object = JSON.parse(value) as Record<string, unknown>;
    const sealed = object[site.jsonField];
    if (typeof sealed !== 'string') return row;
    // Kept in place, so the payload's other fields and their order are as the service wrote them.
    out[i] = JSON.stringify({ ...object, [site.jsonField]: change(sealed, context) });
  } else {
    out[i] = change(value, context);
  }
  return out;
}

async function copyTable(sqlite: Db, client: pg.Client, t: TablePlan, boxes: { from: SecretBox; to: SecretBox } | null,
  batchRows: number, log: (line: string) => void): Promise<TableCopy> {
  const offsets = new Map<string, bigint>();
  for (const column of t.identities) {
    // Ids keep their values in an empty table; a later clinic's come after the rows already there, in their order.
    const { rows } = await client.query<{ max: string | null }>(`SELECT max(${quote(column)}) AS max FROM ${quote(t.name)}`);
    offsets.set(column, BigInt(rows[0]!.max ?? 0));
  }
  const columns = targetColumns(t);
  const select = `SELECT ${t.columns.map(quote).join(', ')}${t.seqFromRowid ? ', rowid' : ''} FROM ${quote(t.name)}
    ORDER BY ${t.primaryKey.map((c) => `${quote(c)} COLLATE BINARY`).join(', ')}`;
  const statement = sqlite.prepare(select).raw(true).safeIntegers(true);
  const perBatch = Math.max(1, Math.min(batchRows, Math.floor(MAX_PARAMETERS / columns.length)));
  const pkIndexes = t.primaryKey.map((c) => columns.indexOf(c));
  const keyOf = (row: Row) => JSON.stringify(pkIndexes.map((i) => row[i]));
  const hash = createHash('sha256');
  const site = SEALED[t.name];
  let sqliteRows = 0;
  let kept = 0;
  let batch: Row[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const insertRows = boxes && site ? batch.map((r) => withSealed(t, r, site, (s, ctx) => boxes.to.seal(boxes.from.open(s, ctx), ctx))) : batch;
    const values = insertRows.map((_, r) => `(${columns.map((_c, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
    const text = `INSERT INTO ${quote(t.name)} (${columns.map(quote).join(', ')}) VALUES ${values}`
      + (t.serviceWide ? ` ON CONFLICT DO NOTHING RETURNING ${t.primaryKey.map(quote).join(', ')}` : '');
    let inserted: Row[] = batch;
    try {
      const result = await client.query<Record<string, string>>(text, insertRows.flat());
      if (t.serviceWide) {
        const added = new Set(result.rows.map((r) => JSON.stringify(t.primaryKey.map((c) => r[c]))));
        inserted = batch.filter((r) => added.has(keyOf(r)));
        kept += batch.length - inserted.length;
      }
    } catch (e) {
      throw new Error(`copying ${t.name}: ${(e as Error).message}`, { cause: e });
    }
    for (const row of inserted) hash.update(`${JSON.stringify(comparable(t, row, boxes?.from ?? null))}\n`);
    batch = [];
  };

  for (const raw of statement.iterate() as Iterable<unknown[]>) {
    const row = columns.map((c, i) => {
      const value = sqliteText(c === 'seq' && t.seqFromRowid ? raw[t.columns.length] : raw[i], `${t.name}.${c}`);
      const offset = offsets.get(c);
      return offset && value !== null ? String(BigInt(value) + offset) : value;
    });
    batch.push(row);
    sqliteRows++;
    if (batch.length >= perBatch) await flush();
    if (sqliteRows % 100_000 === 0) log(`${t.name}: ${sqliteRows} rows…`);
  }
  await flush();
  log(`${t.name}: ${sqliteRows - kept} rows copied${kept ? ` (${kept} kept as the server has them)` : ''}`);
  return { table: t.name, sqliteRows, kept, postgresRows: 0, sqliteChecksum: hash.digest('hex'), postgresChecksum: '', ok: false };
}

/** Identity sequences past the largest id, so the server's next insert does not collide with a copied row. */
async function moveSequences(client: pg.Client, t: TablePlan) {
  for (const column of t.identities) {
    await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), m) FROM (SELECT max(${quote(column)}) AS m FROM ${quote(t.name)}) s
      WHERE m IS NOT NULL`, [quote(t.name), column]);
  }
}

/**
 * Reads back the rows this transaction inserted (their xmin is its id), ordered by key as the SQLite side was
 * (PostgreSQL's "C" collation orders text by its bytes, as SQLite's BINARY does), through a cursor so a large
 * table is not held in memory.
 */
async function verify(client: pg.Client, t: TablePlan, sum: TableCopy, box: SecretBox | null) {
  const columns = targetColumns(t);
  const hash = createHash('sha256');
  const cursor = `verify_${t.name}`;
  await client.query(`DECLARE ${quote(cursor)} NO SCROLL CURSOR FOR
    SELECT ${columns.map(quote).join(', ')} FROM ${quote(t.name)} WHERE xmin = pg_current_xact_id()::xid
    ORDER BY ${t.primaryKey.map((c) => (t.text.has(c) ? `${quote(c)} COLLATE "C"` : quote(c))).join(', ')}`);
  let rows = 0;
  for (;;) {
    const result = await client.query<Row>({ text: `FETCH 5000 FROM ${quote(cursor)}`, rowMode: 'array' });
    if (result.rows.length === 0) break;
    for (const row of result.rows) hash.update(`${JSON.stringify(comparable(t, row, box))}\n`);
    rows += result.rows.length;
  }
  await client.query(`CLOSE ${quote(cursor)}`);
  sum.postgresRows = rows;
  sum.postgresChecksum = hash.digest('hex');
  sum.ok = rows === sum.sqliteRows - sum.kept && sum.postgresChecksum === sum.sqliteChecksum;
}
