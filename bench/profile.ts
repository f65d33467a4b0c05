/**
 * `npx tsx bench/profile.ts FILE.cpuprofile [--top N] [--match TEXT] [--root DIR] [--skip S] [--requests N]`: where
 * a served process spent its CPU, from a V8 profile (`node --cpu-prof --cpu-prof-dir D --import tsx
 * server/cli/serve.ts ...` under load, then stop it).
 * Prints self time by area (our code per folder, each package, Node's internals, GC, idle), self time by function,
 * and inclusive time (the function and everything it called, recursion counted once) of the functions in our
 * own code, or of those whose name or file contains --match. Shares are of the busy (non-idle) time. `--root`
 * is the checkout the profiled process ran from (default this one): paths under it count as our own code.
 * `--skip S` leaves out the first S seconds (start-up: module loading and compiling is not a request's cost);
 * `--requests N`, the requests served in the rest, adds CPU µs per request to every line.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT } from './common.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  options: {
    top: { type: 'string', default: '25' }, match: { type: 'string' }, root: { type: 'string', default: ROOT },
    skip: { type: 'string', default: '0' }, requests: { type: 'string' },
  },
  allowPositionals: true,
  strict: true,
});
if (positionals.length !== 1) {
  console.error('usage: npx tsx bench/profile.ts FILE.cpuprofile [--top N] [--match TEXT] [--root DIR] [--skip S] [--requests N]');
  process.exit(2);
}
const top = Number(values.top);
const root = resolve(values.root!);
const skipUs = Number(values.skip) * 1e6;
const requests = values.requests ? Number(values.requests) : null;
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;

const path = (url: string) => {
  if (!url) return '';
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  return file.startsWith(root) ? relative(root, file) : file;
};
/** What a frame belongs to: a package, a folder of ours, Node's internals, or V8's pseudo-frames. */
function area(node: ProfileNode) {
  const { functionName, url } = node.callFrame;
  if (!url) return `(${functionName.replace(/[()]/g, '') || 'native'})`;
  const file = path(url);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1]!;
  if (file.startsWith('node:')) return 'node internals';
  const dir = file.split('/').slice(0, -1).join('/');
  return dir || file;
}
const label = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url ? `${path(url)}:${lineNumber + 1}` : ''}`.trim();
};

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const selfUs = new Map<number, number>();
let elapsed = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  elapsed += dt;
  if (elapsed >= skipUs) selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
});
const idle = [...selfUs].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const busy = total - idle;

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
const selfByArea = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const inclusive = new Map<string, number>();
const ours = (n: ProfileNode) => /^(server|bench)\//.test(path(n.callFrame.url));
const wanted = (n: ProfileNode) => (values.match ? label(n).includes(values.match) : ours(n));
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  if (node.callFrame.functionName === '(idle)') continue;
  add(selfByArea, area(node), us);
  add(selfByFunction, label(node), us);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const n = byId.get(at)!;
    const key = label(n);
    if (wanted(n) && !seen.has(key)) {
      seen.add(key);
      add(inclusive, key, us);
    }
  }
}

const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms${requests ? ` ${(us / requests).toFixed(1).padStart(6)} µs/req` : ''}`;
const print = (title: string, m: Map<string, number>, n = Infinity) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${ms(us)} ${pct(us)}  ${k}`);
};
console.log(`${positionals[0]}: ${(total / 1e6).toFixed(1)} s sampled${skipUs ? ` after the first ${values.skip} s` : ''}, `
  + `${(busy / 1e6).toFixed(1)} s busy (${((busy / total) * 100).toFixed(0)}%)${requests ? `, ${(busy / requests).toFixed(1)} µs per request` : ''}`);
print('self time by area', selfByArea);
print(`self time by function (top ${top})`, selfByFunction, top);
print(`inclusive time, ${values.match ? `functions matching "${values.match}"` : 'our own functions'} (top ${top})`, inclusive, top);
