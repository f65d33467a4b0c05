import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database.js';
import { migrateSql } from '../../server/db/migrate-sql.js';
import { migrations } from '../../server/db/migrations/index.js';
import { postgresMigrations } from '../../server/db/migrations-postgres/index.js';
import { dbErrorKind, insertionOrder, INSERTION_ORDERED_TABLES, openSql, type SqlDatabase } from '../../server/db/sql.js';
import { DATABASES, freshPostgresDatabase, postgresSkipReason } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

/** A database at the newest schema through the dialect layer: SQLite as openDatabase makes it, PostgreSQL by migrateSql. */
async function openFresh(name: 'sqlite' | 'postgres', label: string): Promise<{ database: SqlDatabase; raw?: Db; dispose(): Promise<void> }> {
  if (name === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'db-dialects-'));
    const raw = openDatabase({ file: join(dir, 'clinic.db') });
    const database = openSql({ sqlite: raw });
    return {
      database,
      raw,
      dispose: async () => {
        await database.close();
        raw.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const pg = await freshPostgresDatabase(label);
  const database = openSql({ postgresUrl: pg.url, poolSize: 4 });
  await migrateSql(database);
  return {
    database,
    dispose: async () => {
      await database.close();
      await pg.drop();
    },
  };
}

/** The error a promise rejects with (the test fails if it resolves). */
async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.unreachable('the statement succeeded'),
    (e: unknown) => e,
  );
}

describe('PostgreSQL migrations mirror SQLite\'s', () => {
  it('have the same versions and names', () => {
    expect(postgresMigrations.map((m) => [m.version, m.name])).toEqual(migrations.map((m) => [m.version, m.name]));
  });
});

describe('the migration runner (postgres)', skipFor(postgresSkipReason()), () => {
  const newest = postgresMigrations.map((m) => m.version);

  it('migrates a fresh database to the newest version, and a second run applies nothing', async () => {
    const pg = await freshPostgresDatabase('migrate-fresh');
    const database = openSql({ postgresUrl: pg.url });
    try {
      expect(await migrateSql(database)).toEqual(newest);
      expect(await migrateSql(database)).toEqual([]);
      const { rows } = await sql<{ version: number }>`SELECT version FROM schema_migrations ORDER BY version`.execute(database.db);
      expect(rows.map((r) => r.version)).toEqual(newest);
    } finally {
      await database.close();
      await pg.drop();
    }
  });

  it('refuses a migration changed after it was applied, and applies nothing then', async () => {
    const pg = await freshPostgresDatabase('migrate-changed');
    const database = openSql({ postgresUrl: pg.url });
    try {
      await migrateSql(database);
      const last = postgresMigrations.at(-1)!;
      const edited = [...postgresMigrations.slice(0, -1), { ...last, sql: `${last.sql}\n-- edited` },
        { version: last.version + 1, name: 'later', sql: 'CREATE TABLE later_table (a INTEGER)' }];
      await expect(migrateSql(database, edited)).rejects.toThrow(`migration ${last.version} (${last.name}) was changed after it was applied`);
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'later_table'`.execute(database.db);
      expect(rows).toStrictEqual([{ n: 0 }]);
    } finally {
      await database.close();
      await pg.drop();
    }
  });

  it('applies each migration once when two instances start together', async () => {
    const pg = await freshPostgresDatabase('migrate-race');
    const a = openSql({ postgresUrl: pg.url });
    const b = openSql({ postgresUrl: pg.url });
    try {
      const results = await Promise.all([migrateSql(a), migrateSql(b)]);
      expect(results.map((r) => r.length).sort()).toEqual([0, newest.length]);
      const { rows } = await sql<{ version: number; n: number }>`
        SELECT version, count(*) AS n FROM schema_migrations GROUP BY version ORDER BY version`.execute(a.db);
      expect(rows).toStrictEqual(newest.map((version) => ({ version, n: 1 })));
    } finally {
      await a.close();
      await b.close();
      await pg.drop();
    }
  });
});

interface TableShape {
  /** type: 'text' or 'integer' (PostgreSQL's bigint too: SQLite's integers are 64-bit), else the database's own name. */
  columns: Record<string, { type: string; notNull: boolean }>;
  /** Each unique key as its columns ('<expr>' for an expression), with ' (partial)' for one with a WHERE. */
  uniques: string[];
}

function sqliteShapes(raw: Db): Record<string, TableShape> {
  const tables = raw.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[];
  return Object.fromEntries(tables.map((table) => {
    const info = raw.prepare(`SELECT name, type, "notnull", pk FROM pragma_table_info(?)`).all(table) as
      { name: string; type: string; notnull: number; pk: number }[];
    const columns = Object.fromEntries(info.map((c) => [c.name, {
      type: c.type.toLowerCase(),
      // A PostgreSQL primary key is NOT NULL; SQLite's rowid tables let a TEXT key be NULL, which no store relies on.
      notNull: c.notnull === 1 || c.pk > 0,
    }]));
    const pk = info.filter((c) => c.pk > 0).sort((x, y) => x.pk - y.pk).map((c) => c.name).join(',');
    const indexes = raw.prepare(`SELECT name, origin, partial FROM pragma_index_list(?) WHERE "unique" = 1 AND origin <> 'pk'`).all(table) as
      { name: string; origin: string; partial: number }[];
    const uniques = indexes.map((ix) => {
      const cols = (raw.prepare('SELECT cid, name FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno').all(ix.name) as
        { cid: number; name: string | null }[]).map((c) => (c.cid === -2 ? '<expr>' : c.name)).join(',');
      return cols + (ix.partial ? ' (partial)' : '');
    });
    return [table, { columns, uniques: [pk, ...uniques].sort() }];
  }));
}

async function postgresShapes(database: SqlDatabase): Promise<Record<string, TableShape>> {
  const { rows: cols } = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>`
    SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
    WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`.execute(database.db);
  const { rows: keys } = await sql<{ table_name: string; cols: string; partial: boolean }>`
    SELECT t.relname AS table_name, i.indpred IS NOT NULL AS partial,
      (SELECT string_agg(CASE WHEN k.attnum = 0 THEN '<expr>' ELSE a.attname END, ',' ORDER BY k.ord)
         FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
         LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS cols
    FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND i.indisunique`.execute(database.db);
  const shapes: Record<string, TableShape> = {};
  for (const c of cols) {
    const shape = (shapes[c.table_name] ??= { columns: {}, uniques: [] });
    shape.columns[c.column_name] = { type: c.data_type === 'bigint' ? 'integer' : c.data_type, notNull: c.is_nullable === 'NO' };
  }
  for (const k of keys) shapes[k.table_name]!.uniques.push(k.cols + (k.partial ? ' (partial)' : ''));
  for (const shape of Object.values(shapes)) shape.uniques.sort();
  return shapes;
}

describe('the schemas match (postgres against sqlite)', skipFor(postgresSkipReason()), () => {
  let sqlite: Awaited<ReturnType<typeof openFresh>>;
  let postgres: Awaited<ReturnType<typeof openFresh>>;
  beforeAll(async () => {
    sqlite = await openFresh('sqlite', 'schema');
    postgres = await openFresh('postgres', 'schema');
  });
  afterAll(async () => {
    await sqlite?.dispose();
    await postgres?.dispose();
  });

  it('has the same tables, columns, types, NOT NULLs and unique keys; seq only where documented', async () => {
    const want = sqliteShapes(sqlite.raw!);
    const got = await postgresShapes(postgres.database);
    expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
    for (const table of INSERTION_ORDERED_TABLES) {
      expect(got[table]?.columns.seq, `${table}.seq`).toEqual({ type: 'integer', notNull: true });
      delete got[table]?.columns.seq;
    }
    for (const [table, shape] of Object.entries(want)) {
      expect(got[table]?.columns, `columns of ${table}`).toEqual(shape.columns);
      expect(got[table]?.uniques, `unique keys of ${table}`).toEqual(shape.uniques);
    }
  });
});

for (const { name, skip } of DATABASES) {
  describe(`the same behaviour on both databases (${name})`, skipFor(skip), () => {
    let fresh: Awaited<ReturnType<typeof openFresh>>;
    let database: SqlDatabase;
    beforeAll(async () => {
      fresh = await openFresh(name, 'behaviour');
      database = fresh.database;
      await sql`INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'Clinic', '2026-11-22T10:00:00.000Z')`.execute(database.db);
    });
    afterAll(async () => {
      await fresh?.dispose();
    });

    const patient = (id: string, over: Record<string, unknown> = {}) => {
      const row = {
        id, workspace_id: 'w1', first_name: 'Asha', last_name: 'Rao', dob: '1980-01-31', gender: 'F', mobile_cc: '91',
        mobile_national: '9876543210', name_key: `asha rao ${id}`, created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-22T10:00:00.000Z', ...over,
      };
      const names = Object.keys(row);
      return sql`INSERT INTO patients (${sql.join(names.map((n) => sql.ref(n)))}) VALUES (${sql.join(Object.values(row))})`.execute(database.db);
    };

    it(`keeps audit_log append-only (${name})`, async () => {
      await sql`INSERT INTO audit_log (at, actor_type, action, outcome) VALUES ('2026-11-22T10:00:00.000Z', 'system', 'test.append', 'success')`
        .execute(database.db);
      expect(String(await failure(sql`UPDATE audit_log SET outcome = 'denied'`.execute(database.db)))).toContain('audit_log is append-only');
      expect(String(await failure(sql`DELETE FROM audit_log`.execute(database.db)))).toContain('audit_log is append-only');
      const { rows } = await sql<{ outcome: string }>`SELECT outcome FROM audit_log WHERE action = 'test.append'`.execute(database.db);
      expect(rows).toStrictEqual([{ outcome: 'success' }]);
    });

    it(`refuses allergies that are not a JSON array, as a check (${name})`, async () => {
      expect(dbErrorKind(await failure(patient('p-obj', { allergies: '{"penicillin":true}' })))).toBe('check');
      expect(dbErrorKind(await failure(patient('p-bad', { allergies: '[penicillin' })))).toBe('check');
      await patient('p-arr', { allergies: '["penicillin"]' });
    });

    it(`names each broken constraint the same (${name})`, async () => {
      expect(dbErrorKind(await failure(sql`INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'Again', 'x')`.execute(database.db))))
        .toBe('unique');
      expect(dbErrorKind(await failure(patient('p-nows', { workspace_id: 'nowhere' })))).toBe('foreign_key');
      expect(dbErrorKind(await failure(patient('p-null', { first_name: null })))).toBe('not_null');
      expect(dbErrorKind(await failure(sql`SELECT * FROM no_such_table`.execute(database.db)))).toBeNull();
    });

    it(`finds and keeps usernames regardless of case, as NOCASE does (${name})`, async () => {
      await sql`INSERT INTO users (id, workspace_id, username, display_name, role, password_hash, created_at)
        VALUES ('u1', 'w1', 'Reception.Desk', 'Desk', 'reception', 'h', '2026-11-22T10:00:00.000Z')`.execute(database.db);
      const { rows } = await sql<{ id: string }>`SELECT id FROM users WHERE username = ${'reception.desk'}`.execute(database.db);
      expect(rows).toStrictEqual([{ id: 'u1' }]);
      expect(dbErrorKind(await failure(sql`INSERT INTO users (id, workspace_id, username, display_name, role, password_hash, created_at)
        VALUES ('u2', 'w1', 'RECEPTION.DESK', 'Desk', 'doctor', 'h', '2026-11-22T10:00:00.000Z')`.execute(database.db)))).toBe('unique');
    });

    it(`reads back the same JS values (${name})`, async () => {
      await patient('p-values', { middle_name: '', dob_estimated: 1, email: null, mobile_national: '9000000001' });
      const { rows } = await sql`SELECT id, email, dob_estimated, allergies, created_at, middle_name FROM patients WHERE id = ${'p-values'}`
        .execute(database.db);
      expect(rows).toStrictEqual([{ id: 'p-values', email: null, dob_estimated: 1, allergies: '[]', created_at: '2026-11-22T10:00:00.000Z', middle_name: '' }]);

      const inserted = await sql<{ id: number }>`INSERT INTO audit_log (at, actor_type, action, outcome)
        VALUES ('2026-11-22T10:00:01.000Z', 'system', 'test.values', 'success') RETURNING id`.execute(database.db);
      expect(typeof inserted.rows[0]?.id).toBe('number');

      // 2100-01-01 in unix seconds: beyond a 32-bit integer, as oidc expiries may be.
      await sql`INSERT INTO oidc_models (model, key, payload, created_at, expires_at) VALUES ('Client', 'c1', '{}', 1795000000, 4102444800)`
        .execute(database.db);
      const counted = await sql`SELECT count(*) AS n, sum(expires_at) AS total, max(created_at) AS newest FROM oidc_models`.execute(database.db);
      expect(counted.rows).toStrictEqual([{ n: 1, total: 4102444800, newest: 1795000000 }]);
    });

    it(`orders rows inserted in the same millisecond by insertion (${name})`, async () => {
      for (const id of ['p-first', 'p-second', 'p-third']) await patient(id, { mobile_national: '9111111111', created_at: '2026-11-22T11:00:00.000Z' });
      const { rows } = await sql<{ id: string }>`SELECT p.id FROM patients p WHERE p.mobile_national = '9111111111'
        ORDER BY p.created_at DESC, ${insertionOrder(database.dialect, 'p')} DESC`.execute(database.db);
      expect(rows.map((r) => r.id)).toEqual(['p-third', 'p-second', 'p-first']);
    });

    it(`commits a transaction that resolves and rolls back one that throws (${name})`, async () => {
      await database.transaction((trx) => sql`UPDATE workspaces SET name = 'Committed' WHERE id = 'w1'`.execute(trx));
      await expect(database.transaction(async (trx) => {
        await sql`UPDATE workspaces SET name = 'Rolled back' WHERE id = 'w1'`.execute(trx);
        throw new Error('changed my mind');
      })).rejects.toThrow('changed my mind');
      const { rows } = await sql<{ name: string }>`SELECT name FROM workspaces WHERE id = 'w1'`.execute(database.db);
      expect(rows).toStrictEqual([{ name: 'Committed' }]);
    });

    it(`finds nothing pending for migrateSql once the database is at the newest version (${name})`, async () => {
      expect(await migrateSql(database)).toEqual([]);
    });
  });
}
