import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'clinical-nlp');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));

// docs/SCRIBE.md: the structurer is self-contained; of the rest of the server it may use only the output contracts.
const ALLOWED_OUTSIDE = new Set(['server/scribe/contracts.ts']);

describe('server/clinical-nlp is one self-contained module', () => {
  it('imports nothing of the server outside itself but the output contracts', () => {
    const outside: string[] = [];
    for (const f of files(ROOT).filter((x) => x.endsWith('.ts'))) {
      for (const m of readFileSync(f, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = resolve(dirname(f), m[1]!).replace(/\.js$/, '.ts');
        const rel = relative(resolve(ROOT, '..', '..'), target);
        if (!target.startsWith(ROOT) && !ALLOWED_OUTSIDE.has(rel)) outside.push(`${relative(ROOT, f)} → ${rel}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('names the source and licence of every vocabulary and rule file', () => {
    const data = files(join(ROOT, 'vocab')).filter((x) => x.endsWith('.json'));
    expect(data.length).toBeGreaterThan(5);
    const missing = data.filter((f) => {
      const d = JSON.parse(readFileSync(f, 'utf8')) as { source?: unknown; licence?: unknown };
      return typeof d.source !== 'string' || !d.source || typeof d.licence !== 'string' || !d.licence;
    });
    expect(missing.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
