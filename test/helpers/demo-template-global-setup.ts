// Once per test run: the folder the test processes keep their demo templates in (test/helpers/demo-template.ts),
// removed when the run ends. A test process is stopped by Vitest rather than left to exit, so it cannot remove its
// own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-desk-demo-templates-'));
  project.provide('demoTemplates', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
