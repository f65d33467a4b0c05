import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { databaseFile, defaultDataDir } from '../config.js';
import { backupDatabase } from '../db/backup.js';
import { backupPostgres } from '../db/backup-postgres.js';
import { openDatabase } from '../db/database.js';

/** `npm run backup -- --data-dir D --out FILE` (or `--database-url URL --out FILE`): an online backup, safe while the service runs. */
async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { 'data-dir': { type: 'string' }, out: { type: 'string' }, 'database-url': { type: 'string' } },
    strict: true,
  });
  if (!values.out) throw new Error('--out FILE is required');
  const databaseUrl = values['database-url'] ?? process.env.CLINIC_DESK_DATABASE_URL;
  if (databaseUrl) {
    const { file, entries } = await backupPostgres(databaseUrl, resolve(values.out));
    console.log(`backup written to ${file} (pg_dump custom format, ${entries} entries listed by pg_restore)`);
    return;
  }
  const file = databaseFile(resolve(values['data-dir'] ?? process.env.CLINIC_DESK_DATA_DIR ?? defaultDataDir()));
  if (!existsSync(file)) throw new Error(`no database at ${file}`);
  const out = resolve(values.out);
  const db = openDatabase({ file, readonly: true });
  try {
    await backupDatabase(db, out, (done, total) => process.stdout.write(`\rbackup: ${done}/${total} pages`));
    process.stdout.write('\n');
  } finally {
    db.close();
  }
  const check = new Database(out, { readonly: true });
  const ok = (check.pragma('integrity_check', { simple: true }) as string) === 'ok';
  check.close();
  if (!ok) throw new Error(`backup at ${out} failed its integrity check`);
  console.log(`backup written to ${out} (integrity ok)`);
}

main().catch((e) => {
  console.error(`backup failed: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
});
