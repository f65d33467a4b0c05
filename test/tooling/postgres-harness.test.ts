import { chmodSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { findPostgresBin, startPostgresCluster } from '../../scripts/postgres-cluster.mjs';
import { freshPostgresDatabase, postgresSkipReason } from '../helpers/postgres.js';
import { tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('the tests\' PostgreSQL (postgres)', skipFor(postgresSkipReason()), () => {
  const made: { drop(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const db of made) await db.drop();
  });

  it('answers on a fresh database', async () => {
    const db = await freshPostgresDatabase('answers');
    made.push(db);
    const [row] = await query<{ version: string }>(db.url, 'select version()');
    expect(row?.version).toMatch(/^PostgreSQL \d+/);
  });

  it('keeps two fresh databases apart', async () => {
    const a = await freshPostgresDatabase('apart a');
    const b = await freshPostgresDatabase('apart b');
    made.push(a, b);
    expect(a.url).not.toBe(b.url);
    await query(a.url, 'create table patients (id int primary key)');
    const where = (url: string) => query<{ t: string | null }>(url, "select to_regclass('patients')::text as t");
    expect(await where(a.url)).toEqual([{ t: 'patients' }]);
    expect(await where(b.url)).toEqual([{ t: null }]);
  });

  it('drops a database, even with a connection still open to it', async () => {
    const db = await freshPostgresDatabase('dropped');
    const forgotten = new pg.Client({ connectionString: db.url });
    forgotten.on('error', () => undefined);
    await forgotten.connect();
    await db.drop();
    await expect(query(db.url, 'select 1')).rejects.toMatchObject({ code: '3D000' });
    await forgotten.end().catch(() => undefined);
  });
});

describe('finding PostgreSQL\'s binaries', () => {
  const root = tempDir('pg-bin');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const fakeBin = (dir: string, tools: string[]) => {
    mkdirSync(dir, { recursive: true });
    for (const t of tools) {
      writeFileSync(join(dir, t), '#!/bin/sh\n');
      chmodSync(join(dir, t), 0o755);
    }
    return dir;
  };

  it('says why when there are none', () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(findPostgresBin({ path: empty, versionsRoot: empty })).toEqual({
      reason: `PostgreSQL is not installed here (no initdb and pg_ctl on PATH or in ${empty}/*/bin); CI installs Debian's postgresql package`,
    });
  });

  it('takes the newest complete version folder, by number, when PATH has none', () => {
    const versions = join(root, 'versions');
    fakeBin(join(versions, '9', 'bin'), ['initdb', 'pg_ctl']);
    const v15 = fakeBin(join(versions, '15', 'bin'), ['initdb', 'pg_ctl']);
    fakeBin(join(versions, '16', 'bin'), ['initdb']);
    expect(findPostgresBin({ path: join(root, 'nowhere'), versionsRoot: versions })).toEqual({ bin: v15 });
  });

  it('prefers PATH', () => {
    const onPath = fakeBin(join(root, 'path-bin'), ['initdb', 'pg_ctl']);
    expect(findPostgresBin({ path: `${join(root, 'nowhere')}:${onPath}`, versionsRoot: join(root, 'versions') })).toEqual({ bin: onPath });
  });
});

describe('a throwaway cluster (postgres)', skipFor(findPostgresBin().reason), () => {
  it('starts within seconds with the test settings, away from root, and stop removes it', async () => {
    const cluster = await startPostgresCluster();
    let stopped = false;
    try {
      expect(cluster.startMs).toBeLessThan(10_000);
      if (process.getuid?.() === 0) expect(statSync(cluster.dir).uid).not.toBe(0);
      const rows = await query<{ name: string; setting: string }>(cluster.url,
        "select name, setting from pg_settings where name in ('max_connections', 'fsync', 'listen_addresses', 'unix_socket_directories') order by name");
      expect(rows).toEqual([
        { name: 'fsync', setting: 'on' },
        { name: 'listen_addresses', setting: '127.0.0.1' },
        { name: 'max_connections', setting: '200' },
        { name: 'unix_socket_directories', setting: cluster.dir },
      ]);
      cluster.stop();
      stopped = true;
      expect(existsSync(cluster.dir)).toBe(false);
      await expect(query(cluster.url, 'select 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      if (!stopped) cluster.stop();
    }
  });
});
