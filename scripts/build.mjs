// npm run build: the renderer with Vite, the Electron main process and preload with esbuild.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { bundleNode, bundleWorkers } from './bundle-node.mjs';

// preload/app-methods.ts (the names the preload's object and the IPC channels are made from) is generated from the
// methods' declarations: written afresh first, so a build never ships a list older than the methods it bundles.
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/app-methods.ts'], { stdio: 'inherit' });

execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });

// Main is ESM (Electron runs ESM main processes) with every npm package left to node_modules, where
// electron-builder packs them and packages that read their own files (swagger-ui assets) find them. The worker
// scripts the service starts are built beside it, where it looks for them.
await bundleNode('main/main.ts', 'dist/main/main.mjs');
await bundleWorkers('.', 'dist/main');

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
