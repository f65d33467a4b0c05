// npm test: typecheck and lint (npm run lint), build, then every test with Vitest; then each skipped test with its
// reason, ending on the plain "N passed, N failed, N skipped" line. Each step says how long it took, so that a slow
// CI run shows where the time went. oxlint's --type-check reports the TypeScript compiler's diagnostics from the same
// program its type-aware rules build (tsgolint, TypeScript 7 like `tsc -b`): one pass instead of two, which had
// taken 95 s and 46 s one after the other in a CI run on a slow 2-core machine.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const run = (label, args) => {
  console.log(`== ${label}`);
  const started = performance.now();
  const rc = spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1;
  console.log(`== ${label}: ${rc === 0 ? 'ok' : `exit ${rc}`}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return rc;
};

if (run('typecheck and lint', ['node_modules/oxlint/bin/oxlint', '--type-aware', '--type-check', '--deny-warnings']) !== 0) process.exit(1);
if (run('build', ['scripts/build.mjs']) !== 0) process.exit(1);
mkdirSync('test-results', { recursive: true });
const rc = run('tests', ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json',
  '--outputFile.json=test-results/vitest.json', ...process.argv.slice(2)]);
try {
  const r = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
  const skipped = r.numPendingTests + r.numTodoTests;
  // test/helpers/skip.ts keeps each skip's reason in the test's meta, which the JSON report carries. A suite skipped
  // whole is one line, with its number of tests.
  const groups = [];
  for (const f of r.testResults) {
    for (const t of f.assertionResults) {
      if (t.status !== 'skipped' && t.status !== 'pending' && t.status !== 'todo') continue;
      const suite = [relative(process.cwd(), f.name), ...t.ancestorTitles].join(' > ');
      const reason = t.status === 'todo' ? 'todo' : t.meta?.skipReason ?? 'no reason given';
      const last = groups.at(-1);
      if (last && last.suite === suite && last.reason === reason) last.tests.push(t.title);
      else groups.push({ suite, reason, tests: [t.title] });
    }
  }
  if (groups.length > 0) {
    console.log('skipped:');
    for (const g of groups) {
      console.log(`  ${g.suite}${g.tests.length === 1 ? ` > ${g.tests[0]}` : ` (${g.tests.length} tests)`}: ${g.reason}`);
    }
  }
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
} catch {
  console.log('0 passed, 1 failed (no test report was written)');
}
process.exit(rc);
