// Once per test run: `npm run serve`'s entry (server/cli/serve.ts) bundled, with the worker scripts it starts beside
// it, into test-results/serve-bundle/, made from the sources at the start of every run so it is never older than
// they are. The tests start the service as a separate process dozens of times (signals, kill -9, the chain of
// instances); the bundle is ready in about 2 s where the sources under tsx take about 3 (resolving and loading some
// 600 modules through the loader), which had brought CI over its 15 minutes.
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleNode, bundleWorkers } from '../../scripts/bundle-node.mjs';

const ROOT = join(import.meta.dirname, '..', '..');

export default async function setup(project: TestProject) {
  const dir = join(ROOT, 'test-results', 'serve-bundle');
  await Promise.all([bundleNode(join(ROOT, 'server/cli/serve.ts'), join(dir, 'serve.mjs')), bundleWorkers(ROOT, dir)]);
  project.provide('serveEntry', join(dir, 'serve.mjs'));
}
