// How the build bundles a Node entry point (the Electron main process, the service's worker scripts) and which
// worker scripts a bundle that runs the service needs beside it; the tests' bundle of `npm run serve`
// (test/helpers/serve-bundle-global-setup.ts) is made the same way.
import { basename, dirname, join } from 'node:path';
import { build } from 'esbuild';

/**
 * One entry point bundled as an ES module for Node, every npm package left to node_modules. A module the entry
 * imports only with import() goes into a file of its own beside it (`<name>-<module>-<hash>.mjs`), loaded when it is
 * asked for: `npm run serve` reads its flags before it loads the service (server/cli/serve.ts).
 */
export const bundleNode = (entry, outfile) => build({
  entryPoints: [entry],
  outdir: dirname(outfile),
  entryNames: basename(outfile, '.mjs'),
  chunkNames: `${basename(outfile, '.mjs')}-[name]-[hash]`,
  outExtension: { '.js': '.mjs' },
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

/**
 * The scripts the service starts in other processes and threads, each looked for beside the bundle that starts it:
 * the scribe's worker (server/scribe/pipeline/runner.ts: a child_process.fork headless, an Electron utility process
 * in the app), the read-audit writer thread (server/audit/reads-writer.ts) and the WAL checkpoint thread
 * (server/db/checkpointer.ts).
 */
export const WORKER_SCRIPTS = [
  ['server/scribe/pipeline/worker.ts', 'scribe-worker.mjs'],
  ['server/audit/reads-worker.ts', 'audit-reads-worker.mjs'],
  ['server/db/checkpoint-worker.ts', 'db-checkpoint-worker.mjs'],
];

/** The worker scripts built into `dir`, beside a bundle there. */
export const bundleWorkers = (root, dir) => Promise.all(WORKER_SCRIPTS.map(([entry, file]) => bundleNode(join(root, entry), join(dir, file))));
