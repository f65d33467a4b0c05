import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseFile, defaultDataDir } from '../config.js';
import { CopyMismatch, CopyRefused, copyToPostgres, type TableCopy } from '../db/copy-to-postgres.js';
import { KEK_FILE, loadKek } from '../shared/secret-box.js';

const USAGE = `npm run migrate-to-postgres -- --data-dir D --database-url postgres://… [--target-kek-file F [--kek-file F]]

Copies a desktop clinic's SQLite data (every table) into a PostgreSQL database, verifies every table's row count
and checksum, and commits only when all match. Stop the desktop app (or npm run serve) on D first.

  --data-dir D          the clinic's data folder (CLINIC_DESK_DATA_DIR; default ~/.clinic-desk)
  --database-url URL    the PostgreSQL database (CLINIC_DESK_DATABASE_URL); migrated to the newest schema first
  --target-kek-file F   re-seal secrets at rest under the server's key-encryption key in F; without it they are
                        copied sealed under the clinic's key, and the server must run with that key
  --kek-file F          the clinic's key-encryption key (default D/${KEK_FILE}); read only with --target-kek-file
  --batch-rows N        rows per INSERT (default 1000)`;

/** A key file that must already exist: loadKek would make a new key, which opens nothing sealed before. */
function existingKey(file: string, what: string): Buffer {
  if (!existsSync(file)) throw new CopyRefused(`${what} ${file} does not exist`);
  return loadKek(dirname(file), { file, env: {}, warn: () => undefined });
}

/** The URL without its password, to print. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return '(the database URL)';
  }
}

function printTable(tables: TableCopy[]) {
  const rows = [['table', 'sqlite rows', 'postgres rows', 'kept', 'checksum (sha-256, first 16)', 'match'],
    ...tables.map((t) => [t.table, String(t.sqliteRows), String(t.postgresRows), String(t.kept),
      t.sqliteChecksum === t.postgresChecksum ? t.sqliteChecksum.slice(0, 16) : `${t.sqliteChecksum.slice(0, 16)} ≠ ${t.postgresChecksum.slice(0, 16)}`,
      t.ok ? 'ok' : 'MISMATCH'])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, 'kek-file': { type: 'string' },
      'target-kek-file': { type: 'string' }, 'batch-rows': { type: 'string' }, help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.CLINIC_DESK_DATA_DIR ?? defaultDataDir());
  const url = values['database-url'] ?? process.env.CLINIC_DESK_DATABASE_URL;
  if (!url) throw new CopyRefused(`--database-url (or CLINIC_DESK_DATABASE_URL) is required\n\n${USAGE}`);
  const file = databaseFile(dataDir);
  if (!existsSync(file)) throw new CopyRefused(`no clinic database at ${file}`);
  const batchRows = values['batch-rows'] === undefined ? undefined : Number(values['batch-rows']);
  if (batchRows !== undefined && !(Number.isInteger(batchRows) && batchRows > 0)) throw new CopyRefused('--batch-rows must be a positive whole number');

  let reseal: { from: Buffer; to: Buffer } | undefined;
  if (values['target-kek-file']) {
    const source = resolve(values['kek-file'] ?? join(dataDir, KEK_FILE));
    if (!values['kek-file'] && !existsSync(source) && existsSync(join(dataDir, `${KEK_FILE}.sealed`))) {
      throw new CopyRefused(`this clinic's key-encryption key is kept by the desktop app in the OS keychain (${join(dataDir, `${KEK_FILE}.sealed`)}), `
        + 'which this command cannot open: pass it with --kek-file (a file holding its base64)');
    }
    reseal = { from: existingKey(source, "the clinic's key-encryption key"), to: existingKey(resolve(values['target-kek-file']), "the server's key-encryption key") };
  }

  console.log(`copying ${file} into ${shown(url)}`);
  const result = await copyToPostgres({ sqliteFile: file, postgresUrl: url, reseal, batchRows, log: (line) => console.log(line) });
  console.log('');
  printTable(result.tables);
  console.log(`\ncopied ${result.workspaces.map((w) => `${w.name} (${w.id})`).join(', ')}: every table's rows and checksum match`);
  if (reseal) {
    console.log('secrets at rest were re-sealed under the server\'s key-encryption key (--target-kek-file)');
  } else {
    console.log('\n*** IMPORTANT: secrets at rest (token and OIDC signing keys, webhook signing keys, push keys, the upload-policy key)');
    console.log('*** were copied sealed under THIS CLINIC\'s key-encryption key. The server must run with that same key');
    console.log(`*** (--kek-file or CLINIC_DESK_KEK; this clinic's is ${existsSync(join(dataDir, KEK_FILE)) ? join(dataDir, KEK_FILE) : 'in the desktop app\'s OS keychain'}),`);
    console.log('*** or those secrets cannot be opened. To put them under the server\'s own key, copy with --target-kek-file instead.');
  }
}

main().catch((e) => {
  if (e instanceof CopyMismatch) {
    printTable(e.tables);
    console.error(`\nmigrate-to-postgres failed: ${e.message}`);
  } else if (e instanceof CopyRefused) {
    console.error(`migrate-to-postgres refused: ${e.message}`);
  } else {
    console.error(`migrate-to-postgres failed: ${e instanceof Error ? e.message : e}; nothing was written`);
  }
  process.exit(1);
});
