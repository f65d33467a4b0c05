import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers/server.js';
import { speak } from './scribe-support.js';

/** `npx clinic-desk …` in the repository: the package.json bin dispatching to the TypeScript CLIs. */

const dir = tempDir('scribe-cli');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const npxWith = (input: string | undefined, ...args: string[]) => {
  const r = spawnSync('npx', ['--no-install', 'clinic-desk', ...args], {
    cwd: ROOT, encoding: 'utf8', timeout: 60_000, input, env: { ...process.env, CLINIC_DESK_DATA_DIR: join(dir, 'data') },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const npx = (...args: string[]) => npxWith(undefined, ...args);

describe('npx clinic-desk', () => {
  it('lists its commands; an unknown one is exit 2', () => {
    const help = npx('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: clinic-desk <command>/);
    expect(help.stdout).toMatch(/structure/);
    expect(help.stdout).toMatch(/transcribe/);
    const bad = npx('dance');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown command "dance"/);
  });

  it('transcribe FILE prints the transcript of spoken audio', () => {
    const wav = speak(dir, 'note.wav', 'Patient advised to drink plenty of water and rest for three days.');
    const r = npx('transcribe', wav, '--json');
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t).toMatchObject({ text: expect.any(String), language: 'en-IN', engine: expect.stringMatching(/^pocketsphinx/), segments: expect.any(Array) });
    expect(t.text.split(' ').length).toBeGreaterThan(3);
    // Without --json: the transcript alone, one line (the recogniser is deterministic on the same file).
    const plain = npx('transcribe', wav);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(`${t.text}\n`);
  });

  it('structure --jsonl answers each line in order, with an error line for a bad one, and exits 1 if any failed', () => {
    const lines = [
      { id: 'a', transcript: 'Fever for three days. Diagnosis viral fever. Tablet paracetamol 650 milligrams three times a day for three days.' },
      'not json',
      { id: 'c', transcript: 42 },
      { id: 'd', transcript: 'Blood pressure one thirty over eighty five. Diagnosis hypertension.', locale: 'en-US' },
    ].map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
    const r = npxWith(`${lines}\n`, 'structure', '--template', 'service_emr_template', '--codify', '--jsonl');
    expect(r.code).toBe(1);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out.map((o) => o.id)).toEqual(['a', null, 'c', 'd']);
    expect(out[1]).toEqual({ id: null, error: 'line is not JSON' });
    expect(out[2]).toEqual({ id: 'c', error: 'transcript must be a string' });
    expect(out[0].output.medications.map((m: { name?: string; generic_name?: string }) => JSON.stringify(m)).join(' ')).toMatch(/paracetamol/i);
    expect(JSON.stringify(out[0].output.diagnoses)).toMatch(/viral fever/i);
    expect(out[3].output.language).toBe('en-US');
    expect(JSON.stringify(out[3].output.vitals)).toMatch(/130/);
    const good = npxWith(`${JSON.stringify({ id: 'only', transcript: 'Cough for two days.' })}\n`, 'structure', '--template', 'clinical_notes_template', '--jsonl');
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ id: 'only', output: { template_id: 'clinical_notes_template' } });
  });

  it('structure turns dictation text on stdin into a template', () => {
    const text = 'Cough and cold for two days. Diagnosis common cold. Tablet cetirizine ten milligrams at night for five days.';
    const r = npxWith(text, 'structure', '--template', 'service_emr_template', '--codify');
    expect(r.code).toBe(0);
    const emr = JSON.parse(r.stdout);
    expect(emr).toMatchObject({ template_id: 'service_emr_template', language: 'en-IN', medications: expect.any(Array), diagnoses: expect.any(Array) });
    // Upstream's name of the EMR template works here as it does over HTTP.
    const upstream = npxWith(text, 'structure', '--template', 'eka_emr_template');
    expect(upstream.code).toBe(0);
    expect(JSON.parse(upstream.stdout)).toMatchObject({ template_id: 'service_emr_template', medications: expect.any(Array) });
    const bad = npx('structure', '--template', 'nope');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown template: nope/);
  });
});
