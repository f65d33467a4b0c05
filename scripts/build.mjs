// npm run build: the renderer with Vite, the Electron main process and preload with esbuild.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';

// preload/app-methods.ts (the names the preload's object and the IPC channels are made from) is generated from the
// methods' declarations: written afresh first, so a build never ships a list older than the methods it bundles.
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/app-methods.ts'], { stdio: 'inherit' });

execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });

/** One entry point bundled as an ES module for Node, every npm package left to node_modules. */
const esm = (entry, outfile) => build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

// Main is ESM (Electron runs ESM main processes) with every npm package left to node_modules, where
// electron-builder packs them and packages that read their own files (swagger-ui assets) find them.
await esm('main/main.ts', 'dist/main/main.mjs');

// The scribe's worker runs in its own process (server/scribe/pipeline/runner.ts starts it: a child_process.fork headless,
// an Electron utility process in the app (main/worker-launch.ts)). The runner looks for it beside the bundle that
// holds the runner: dist/main/.
await esm('server/scribe/pipeline/worker.ts', 'dist/main/scribe-worker.mjs');

// The read-audit writer thread (server/audit/reads-writer.ts starts it): found beside the bundle that starts it.
await esm('server/audit/reads-worker.ts', 'dist/main/audit-reads-worker.mjs');

// The WAL checkpoint thread (server/db/checkpointer.ts starts it): found beside the bundle that starts it.
await esm('server/db/checkpoint-worker.ts', 'dist/main/db-checkpoint-worker.mjs');

// A sandboxed preload cannot be an ES module.
await build({
  entryPoints: ['preload/preload.ts'],
  outfile: 'dist/preload/preload.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['electron'],
  logLevel: 'warning',
});
console.log('built dist/renderer, dist/main/main.mjs, dist/main/scribe-worker.mjs, dist/main/audit-reads-worker.mjs, dist/main/db-checkpoint-worker.mjs, dist/preload/preload.cjs');
