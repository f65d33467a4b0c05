import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Domains keep to their own tables and call each other in one direction only (docs/ARCHITECTURE.md, "Domains"):
 * the imports between the domain folders of server/ form no circle. Every folder of server/ is a domain except the
 * layers under and over them (the database, HTTP plumbing and shared helpers; the command line, demo, sandbox and
 * desktop start-up, which wire domains together), so a new folder is checked from its first file.
 */
const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '../../server');
const NOT_DOMAINS = new Set(['db', 'http', 'shared', 'cli', 'demo', 'sandbox', 'desktop']);

/**
 * The imports that go against the direction, each with why it stays. An exception no longer needed fails the test,
 * so the list only shrinks.
 */
const EXCEPTIONS: Record<string, string> = {
  // docs/ARCHITECTURE.md: the structurer imports nothing of the server but the scribe's output contracts (types).
  'clinical-nlp/confidence.ts -> scribe/contracts.ts': 'the structurer reads the Transcript type it is handed',
};

const IMPORT = /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The folder of server/ a file is in; undefined for server/'s own files (the composition root). */
const folderOf = (file: string) => {
  const parts = relative(SERVER, file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
};
const isDomain = (folder: string | undefined): folder is string => folder !== undefined && !NOT_DOMAINS.has(folder);
const name = (file: string) => relative(SERVER, file).split(sep).join('/');

/** The files of server/ a file imports (relative imports: static, re-exports and dynamic). */
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => resolve(dirname(file), (m[1] ?? m[2] ?? '').replace(/\.js$/, '.ts')));

/** Domain → domain it imports → the imports that make the edge ("from.ts -> to.ts"). */
function domainGraph() {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(SERVER)) {
    const from = folderOf(file);
    if (!isDomain(from)) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const target of importsOf(file)) {
      const to = folderOf(target);
      if (!isDomain(to) || to === from) continue;
      const edge = `${name(file)} -> ${name(target)}`;
      if (edge in EXCEPTIONS) continue;
      const edges = graph.get(from)!;
      edges.set(to, [...(edges.get(to) ?? []), edge]);
    }
  }
  return graph;
}

/** Every import that closes a circle, as the circle's path with the imports of each step. */
function circles(graph: Map<string, Map<string, string[]>>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (d: string) => {
    state.set(d, 'open');
    path.push(d);
    for (const next of graph.get(d)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...path.slice(path.indexOf(next)), next];
        found.push(loop.slice(1).map((to, i) => `${loop[i]} -> ${to} (${graph.get(loop[i]!)!.get(to)!.join('; ')})`).join('\n  '));
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(d, 'done');
  };
  for (const d of [...graph.keys()].sort()) if (!state.has(d)) visit(d);
  return found;
}

describe('imports between domains', () => {
  it('form no circle', () => {
    const graph = domainGraph();
    // The graph is read at all: the scribe's domain imports auth's permissions.
    expect(graph.get('scribe')?.has('auth')).toBe(true);
    expect(circles(graph)).toEqual([]);
  });

  it('need every exception they list', () => {
    const all = sourceFiles(SERVER).flatMap((file) => importsOf(file).map((target) => `${name(file)} -> ${name(target)}`));
    expect(Object.keys(EXCEPTIONS).filter((e) => !all.includes(e))).toEqual([]);
  });
});
