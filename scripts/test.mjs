// npm test: typecheck, build, then every test with Vitest, ending on the plain "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

const run = (label, args) => {
  console.log(`== ${label}`);
  return spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1;
};

if (run('typecheck', ['node_modules/typescript/bin/tsc', '-b']) !== 0) process.exit(1);
if (run('build', ['scripts/build.mjs']) !== 0) process.exit(1);
mkdirSync('test-results', { recursive: true });
const rc = run('tests', ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json',
  '--outputFile.json=test-results/vitest.json', ...process.argv.slice(2)]);
try {
  const r = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
} catch {
  console.log('0 passed, 1 failed (no test report was written)');
}
process.exit(rc);
