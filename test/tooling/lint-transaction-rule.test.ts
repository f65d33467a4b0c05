import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/server.js';

/**
 * lint/clinic-plugin.js `no-outer-executor-in-transaction`, run by the real oxlint with the project's .oxlintrc.json
 * on small sources: the rule that server/db/tx.ts states (the outer executor inside a transaction waits for ever on
 * SQLite) must refuse each way of breaking it and let the right way through.
 */
function lint(source: string): { code: number | null; out: string } {
  const file = join(tempDir('lint-tx'), 'service.ts');
  writeFileSync(file, source);
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/oxlint/bin/oxlint'), '-c', join(ROOT, '.oxlintrc.json'), '-f', 'unix', file],
    { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

const header = `
import { type Executor, transaction } from '../../server/db/tx.js';
declare function noteStore(e: Executor): { put(id: string): Promise<void> };
export function notes(db: Executor) {
  const store = noteStore(db);
`;

describe('lint: no-outer-executor-in-transaction', () => {
  it('refuses the outer executor inside the callback, directly or handed on', () => {
    const r = lint(`${header}
  return (id: string) => transaction(db, async (tx) => {
    await noteStore(tx).put(id);
    await noteStore(db).put(id);
  });
}
`);
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).toMatch(/`db` is the executor this transaction was opened on/);
  });

  it('refuses a store made from the outer executor', () => {
    const r = lint(`${header}
  return (id: string) => transaction(db, async () => store.put(id));
}
`);
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).toMatch(/`store` was made from `db`/);
  });

  it('lets through stores made from tx, the same names bound inside the callback, and the executor after it', () => {
    const r = lint(`${header}
  return async (id: string) => {
    await transaction(db, async (tx) => {
      const store = noteStore(tx);
      await store.put(id);
      await transaction(tx, async (inner) => noteStore(inner).put(id));
    });
    await store.put(id);
  };
}
`);
    expect(r.out).not.toMatch(/no-outer-executor-in-transaction/);
    expect(r.code, r.out).toBe(0);
  });
});
