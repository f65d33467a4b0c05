// Once per test run: the folder the test processes build the scribe's domain language model in
// (test/helpers/speech-model.ts), removed when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-desk-speech-model-'));
  project.provide('speechModel', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
