import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text as streamText } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { runStructureCli } from '../../server/cli/structure.js';
import { runTranscribeCli } from '../../server/cli/transcribe.js';
import { missing } from '../helpers/needs.js';
import { ROOT, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { speak } from '../helpers/scribe.js';
import { linkSpeechModelInto } from '../helpers/speech-model.js';

/**
 * `npx clinic-desk …` in the repository: the package.json bin dispatching to the TypeScript CLIs (through npx for the
 * command list, the bin script itself with node for the rest). A bin process starting a CLI costs about 3.5 s of CPU
 * (tsx transpiling and loading it), so what a CLI does with its flags is mostly asked of the function the bin calls,
 * in this process, on streams of the test's; each path of the bin's own (a command's stdin, stdout and stderr, its
 * answer as the exit code, 0 or not, transcribe's file argument) is still taken by a process.
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
 * start (about 1.5 s a call). Asynchronous, so that a test's independent calls run side by side.
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

/**
 * `clinic-desk structure ARGS` as the bin runs it (runStructureCli(ARGS, stdin, stdout, stderr)), in this process:
 * `input` is its stdin, and what it writes is read once it has answered.
 */
async function structure(input: string | undefined, ...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const [out, err] = [streamText(stdout), streamText(stderr)];
  const code = await runStructureCli(args, Readable.from(input === undefined ? [] : [input]), stdout, stderr);
  stdout.end();
  stderr.end();
  return { code, stdout: await out, stderr: await err };
}

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

  // The first file of a worker to link the model builds it: the time allowed covers that.
  it('transcribe FILE prints the transcript of spoken audio', { ...skipFor(missing('espeak-ng', 'pocketsphinx', 'ffmpeg')), timeout: 120_000 }, async () => {
    const wav = speak(dir, 'note.wav', 'Patient advised to drink plenty of water and rest for three days.');
    await linkSpeechModelInto(dataDir);
    // The bin's path to transcribe (the file argument, the data folder from the environment) in a process; the --json
    // form is the function it calls, on the same file and folder.
    let json = '';
    let err = '';
    const [code, plain] = await Promise.all([
      runTranscribeCli(['transcribe', wav, '--json', '--data-dir', dataDir], { write: (s: string) => (json += s) }, { write: (s: string) => (err += s) }),
      bin('transcribe', wav),
    ]);
    expect(code, err).toBe(0);
    const t = JSON.parse(json);
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
      // A process: its stdin read line by line, a failure's exit code.
      binWith(`${lines}\n`, 'structure', '--template', 'service_emr_template', '--codify', '--jsonl'),
      structure(`${JSON.stringify({ id: 'only', transcript: 'Cough for two days.' })}\n`, '--template', 'clinical_notes_template', '--jsonl'),
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
      structure(text, '--template', 'service_emr_template', '--codify'),
      structure(text, '--template', 'eka_emr_template'),
      structure(undefined, '--template', 'nope'),
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
      // A process: text on its stdin, the template on its stdout, the warnings on its stderr, exit 0.
      binWith(text, 'structure', '--template', 'service_emr_template'),
      structure(text, '--template', 'service_emr_template', '--warnings'),
      structure(`${rows}\n`, '--template', 'clinical_notes_template', '--jsonl'),
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
  });

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
      structure(text, '--template', 'service_emr_template'),
      structure(text, '--template', 'service_emr_template', '--mode', 'consultation'),
      structure(text, '--template', 'service_emr_template', '--mode', 'chat'),
      structure(`${rows}\n`, '--template', 'service_emr_template', '--jsonl', '--mode', 'consultation'),
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
  });
});
