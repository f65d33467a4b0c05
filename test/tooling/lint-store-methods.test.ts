import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/server.js';

/**
 * lint/clinic-plugin.js `store-methods`, run by the real oxlint with the project's .oxlintrc.json on small sources:
 * a store is made per transaction, and under tsx an arrow-function property costs a defineProperty every time
 * (issue 27), so a store's statements are methods.
 */
function lint(source: string): { code: number | null; out: string } {
  const file = join(tempDir('lint-store'), 'store.ts');
  writeFileSync(file, source);
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/oxlint/bin/oxlint'), '-c', join(ROOT, '.oxlintrc.json'), '-f', 'unix', file],
    { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe('lint: store-methods', () => {
  it('refuses an arrow-function property of the object a store returns, or keeps to return', () => {
    const returned = lint(`
export function noteStore(e: { k: string }) {
  return {
    async put(id: string) { return id + e.k; },
    get: async (id: string) => id + e.k,
  };
}
`);
    expect(returned.code, returned.out).not.toBe(0);
    expect(returned.out).toMatch(/`get` in noteStore: declare it as a method/);
    const kept = lint(`
export function noteStore(e: { k: string }) {
  const self = { find: (id: string) => id + e.k };
  return self;
}
`);
    expect(kept.code, kept.out).not.toBe(0);
    expect(kept.out).toMatch(/`find` in noteStore/);
  });

  it('lets through methods, arrow functions passed as arguments, and objects of functions not named …Store', () => {
    const r = lint(`
export function noteStore(e: { k: string[] }) {
  return {
    async put(id: string) { return e.k.map((x) => x + id); },
    list() { return e.k.filter((x) => x.length > 0); },
  };
}
export function handlers() {
  return { onClick: () => 1 };
}
`);
    expect(r.code, r.out).toBe(0);
  });
});
