import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missing } from '../helpers/needs.js';
import { ROOT, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { speak } from '../helpers/scribe.js';
import { linkSpeechModelInto } from '../helpers/speech-model.js';

/**
 * `npx clinic-desk …` in the repository: the package.json bin dispatching to the TypeScript CLIs (through npx for the
 * command list, the bin script itself with node for the rest).
 */

const dir = tempDir('scribe-cli');
const dataDir = join(dir, 'data');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = { ...process.env, CLINIC_DESK_DATA_DIR: dataDir };
/** Through npx, as a user types it: npx finding the package.json bin. */
const npx = (...args: string[]) => {
  const r = spawnSync('npx', ['--no-install', 'clinic-desk', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

/**
 * The bin npx runs (package.json "bin": bin/clinic-desk.mjs), started with node as npx starts it, without npx's own
 * start (about 1.5 s a call, on 16 calls). Asynchronous, so that a test's independent calls run side by side.
 */
const binWith = (input: string | undefined, ...args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'clinic-desk.mjs'), ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    // A command that fails before reading its input (exit 2 for a bad flag) closes the pipe: no error of the test's.
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
const bin = (...args: string[]) => binWith(undefined, ...args);

describe('npx clinic-desk', () => {
  it('lists its commands; an unknown one is exit 2', async () => {
    const badRun = bin('dance');
    const help = npx('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: clinic-desk <command>/);
    expect(help.stdout).toMatch(/structure/);
    expect(help.stdout).toMatch(/transcribe/);
    const bad = await badRun;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown command "dance"/);
  });

  it('transcribe FILE prints the transcript of spoken audio', skipFor(missing('espeak-ng', 'pocketsphinx', 'ffmpeg')), async () => {
    const wav = speak(dir, 'note.wav', 'Patient advised to drink plenty of water and rest for three days.');
    await linkSpeechModelInto(dataDir);
    const [r, plain] = await Promise.all([bin('transcribe', wav, '--json'), bin('transcribe', wav)]);
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t).toMatchObject({ text: expect.any(String), language: 'en-IN', engine: expect.stringMatching(/^pocketsphinx/), segments: expect.any(Array) });
    expect(t.text.split(' ').length).toBeGreaterThan(3);
    // Without --json: the transcript alone, one line (the recogniser is deterministic on the same file).
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(`${t.text}\n`);
  });

  it('structure --jsonl answers each line in order, with an error line for a bad one, and exits 1 if any failed', async () => {
    const lines = [
      { id: 'a', transcript: 'Fever for three days. Diagnosis viral fever. Tablet paracetamol 650 milligrams three times a day for three days.' },
      'not json',
      { id: 'c', transcript: 42 },
      { id: 'd', transcript: 'Blood pressure one thirty over eighty five. Diagnosis hypertension.', locale: 'en-US' },
    ].map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
    const [r, good] = await Promise.all([
      binWith(`${lines}\n`, 'structure', '--template', 'service_emr_template', '--codify', '--jsonl'),
      binWith(`${JSON.stringify({ id: 'only', transcript: 'Cough for two days.' })}\n`, 'structure', '--template', 'clinical_notes_template', '--jsonl'),
    ]);
    expect(r.code).toBe(1);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out.map((o) => o.id)).toEqual(['a', null, 'c', 'd']);
    expect(out[1]).toEqual({ id: null, error: 'line is not JSON' });
    expect(out[2]).toEqual({ id: 'c', error: 'transcript must be a string' });
    expect(out[0].output.medications.map((m: { name?: string; generic_name?: string }) => JSON.stringify(m)).join(' ')).toMatch(/paracetamol/i);
    expect(JSON.stringify(out[0].output.diagnoses)).toMatch(/viral fever/i);
    expect(out[3].output.language).toBe('en-US');
    expect(JSON.stringify(out[3].output.vitals)).toMatch(/130/);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ id: 'only', output: { template_id: 'clinical_notes_template' } });
  });

  it('structure turns dictation text on stdin into a template', async () => {
    const text = 'Cough and cold for two days. Diagnosis common cold. Tablet cetirizine ten milligrams at night for five days.';
    const [r, upstream, bad] = await Promise.all([
      binWith(text, 'structure', '--template', 'service_emr_template', '--codify'),
      binWith(text, 'structure', '--template', 'eka_emr_template'),
      bin('structure', '--template', 'nope'),
    ]);
    expect(r.code).toBe(0);
    const emr = JSON.parse(r.stdout);
    expect(emr).toMatchObject({ template_id: 'service_emr_template', language: 'en-IN', medications: expect.any(Array), diagnoses: expect.any(Array) });
    // Upstream's name of the EMR template works here as it does over HTTP.
    expect(upstream.code).toBe(0);
    expect(JSON.parse(upstream.stdout)).toMatchObject({ template_id: 'service_emr_template', medications: expect.any(Array) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown template: nope/);
  });

  it('structure shows the safety flags as the service does: on stderr, in --warnings JSON, in --jsonl lines', async () => {
    // 'grams' for a tablet is a wrong unit: the flag must reach an integrator whichever way the CLI is called.
    const text = 'Sore throat for two days. Tab paracetamol six fifty grams thrice daily for three days.';
    const flag = /^DOSE_UNIT \/medications\/0\/strength: \S.*650/;
    // The notes template carries the same flags (its pointers are into the EMR JSON, as over HTTP).
    const rows = [
      { id: 'flagged', transcript: text },
      { id: 'clean', transcript: 'Cough for two days. Tab cetirizine ten milligrams at night for five days.' },
    ].map((l) => JSON.stringify(l)).join('\n');
    const [plain, inline, jl] = await Promise.all([
      binWith(text, 'structure', '--template', 'service_emr_template'),
      binWith(text, 'structure', '--template', 'service_emr_template', '--warnings'),
      binWith(`${rows}\n`, 'structure', '--template', 'clinical_notes_template', '--jsonl'),
    ]);
    expect(plain.code).toBe(0);
    const lines = plain.stderr.split('\n').filter((l) => l.startsWith('warning: ')).map((l) => l.slice('warning: '.length));
    expect(lines.filter((l) => flag.test(l))).toHaveLength(1);
    const emr = JSON.parse(plain.stdout);
    expect(emr.flags).toEqual([expect.objectContaining({ code: 'DOSE_UNIT', pointer: '/medications/0/strength' })]);

    expect(inline.code).toBe(0);
    const both = JSON.parse(inline.stdout);
    expect(Object.keys(both).sort()).toEqual(['output', 'warnings']);
    expect(both.output).toEqual(emr);
    expect(both.warnings).toEqual(lines);
    expect(inline.stderr).not.toMatch(/warning:/);

    expect(jl.code).toBe(0);
    expect(jl.stderr).not.toMatch(/warning:/);
    const out = jl.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out.map((o) => Object.keys(o).sort())).toEqual([['id', 'output', 'warnings'], ['id', 'output', 'warnings']]);
    expect(out[0].warnings.filter((w: string) => flag.test(w))).toHaveLength(1);
    expect(out[0].output.markdown).toMatch(/Check before use/);
    expect(out[1].warnings).toEqual([]);
  }, 180_000);

  it('structure --mode and a line\'s mode read an unlabelled consultation turn by turn', async () => {
    // A conversation has no dictated examination section: what the doctor says aloud stays out of it.
    const text = 'What brings you in today? I have had a cough for five days. On examination the chest is clear.';
    const exam = (r: { code: number | null; stdout: string }) => {
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout).examination as string[];
    };
    // --mode is the default that a line's own mode overrides.
    const rows = [
      { id: 'c', transcript: text },
      { id: 'd', transcript: text, mode: 'dictation' },
      { id: 'x', transcript: text, mode: 'chat' },
    ].map((l) => JSON.stringify(l)).join('\n');
    const [dictated, consulted, bad, jl] = await Promise.all([
      binWith(text, 'structure', '--template', 'service_emr_template'),
      binWith(text, 'structure', '--template', 'service_emr_template', '--mode', 'consultation'),
      binWith(text, 'structure', '--template', 'service_emr_template', '--mode', 'chat'),
      binWith(`${rows}\n`, 'structure', '--template', 'service_emr_template', '--jsonl', '--mode', 'consultation'),
    ]);
    expect(exam(dictated)).toHaveLength(1);
    expect(exam(consulted)).toEqual([]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--mode must be dictation or consultation/);

    expect(jl.code).toBe(1);
    const out = jl.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out[0].output.examination).toEqual([]);
    expect(out[1].output.examination).toHaveLength(1);
    expect(out[2]).toEqual({ id: 'x', error: 'mode must be dictation or consultation' });
  }, 180_000);
});
