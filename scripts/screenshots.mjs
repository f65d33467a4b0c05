// npm run screenshots: refreshes the README's pictures in docs/screenshots from a run of the UI tests. The tests
// save every picture under test-results/screenshots (ignored, so npm test leaves the tree as it was); only the
// pictures the README shows are copied, and only when the tests passed and took each of them.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const FROM = join('test-results', 'screenshots');
const TO = join('docs', 'screenshots');
// The UI test files that take the README's pictures (test/helpers/browser.ts shot()).
const TESTS = ['test/ui/front-desk.test.ts', 'test/ui/settings.test.ts', 'test/ui/dictation.test.ts', 'test/ui/scribe-flags.test.ts', 'test/ui/notes.test.ts', 'test/ui/reminders.test.ts'];

const names = [...new Set([...readFileSync('README.md', 'utf8').matchAll(/docs\/screenshots\/([\w-]+)\.png/g)].map((m) => m[1]))];

const run = (label, args) => {
  console.log(`== ${label}`);
  return spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1;
};

if (run('build', ['scripts/build.mjs']) !== 0) process.exit(1);
// A picture left from an earlier run must not pass for one this run took.
rmSync(FROM, { recursive: true, force: true });
if (run('UI tests', ['node_modules/vitest/vitest.mjs', 'run', ...TESTS]) !== 0) {
  console.error('The UI tests failed: docs/screenshots is left as it was.');
  process.exit(1);
}
const missing = names.filter((n) => !existsSync(join(FROM, `${n}.png`)));
if (missing.length > 0) {
  // A skipped test takes no picture (no Chromium, espeak-ng or PocketSphinx here): the run printed why.
  console.error(`No picture was taken for ${missing.join(', ')}: docs/screenshots is left as it was.`);
  process.exit(1);
}
for (const n of names) copyFileSync(join(FROM, `${n}.png`), join(TO, `${n}.png`));
console.log(`${names.length} pictures copied to ${TO}: ${names.join(', ')}`);
