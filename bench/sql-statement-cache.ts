// What the dialect layer (server/db/sql.ts) costs on SQLite, on the patients search by mobile over 100,000 patients:
// the raw prepared statement stores use today, Kysely's sql tag over openSql (statements cached per text), and the
// tag over Kysely's own driver, which prepares every query. `npx tsx bench/sql-statement-cache.ts`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { openDatabase } from '../server/db/database.js';
import { openSql, insertionOrder } from '../server/db/sql.js';

const dir = mkdtempSync(join(tmpdir(), 'h2bench-'));
const raw = openDatabase({ file: join(dir, 'c.db') });
raw.prepare(`INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'C', '2026-01-01T00:00:00.000Z')`).run();
const ins = raw.prepare(`INSERT INTO patients (id, workspace_id, first_name, last_name, dob, gender, mobile_cc, mobile_national, name_key, created_at, updated_at)
  VALUES (?, 'w1', 'A', 'B', '1980-01-01', 'F', '91', ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`);
const N = 100_000;
raw.transaction(() => { for (let i = 0; i < N; i++) ins.run(`p${i}`, String(9000000000 + Math.floor(i / 3)), `k${i}`); })();
const mobiles = Array.from({ length: 4096 }, (_, i) => String(9000000000 + ((i * 7919) % (N / 3))));

const stmt = raw.prepare(`SELECT * FROM patients WHERE workspace_id = ? AND mobile_national = ? ORDER BY created_at DESC, rowid DESC LIMIT 200`);
const cached = openSql({ sqlite: raw });
const uncached = new Kysely<any>({ dialect: new SqliteDialect({ database: { prepare: (t: string) => raw.prepare(t), close() {} } }) });
const order = insertionOrder('sqlite');
const viaTag = (db: Kysely<any>, m: string) =>
  sql`SELECT * FROM patients WHERE workspace_id = ${'w1'} AND mobile_national = ${m} ORDER BY created_at DESC, ${order} DESC LIMIT 200`.execute(db);

async function time(label: string, fn: (m: string) => unknown, rounds = 5, per = 20_000) {
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < per; i++) await fn(mobiles[i & 4095]!);
    perRound.push(Number(process.hrtime.bigint() - t0) / per / 1000);
  }
  perRound.sort((a, b) => a - b);
  const [fastest, , median] = perRound as [number, number, number];
  console.log(`${label.padEnd(44)} median ${median.toFixed(2)} µs/query (best ${fastest.toFixed(2)})`);
  return median;
}
// Warm-up: the JIT and the statement cache.
for (let i = 0; i < 20000; i++) await viaTag(cached.db, mobiles[i & 4095]!);
const a = await time('raw prepared statement (sync)', (m) => stmt.all('w1', m));
const b = await time('sql tag, openSql (statement cache)', (m) => viaTag(cached.db, m));
const c = await time('sql tag, prepare per query (Kysely default)', (m) => viaTag(uncached, m));
console.log(`cache saves ${(c - b).toFixed(2)} µs/query; layer costs ${(b - a).toFixed(2)} µs/query over the raw statement`);
await cached.close(); raw.close(); rmSync(dir, { recursive: true });
