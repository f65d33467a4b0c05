import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ScribeClient } from '../../sdk/scribe-client.js';
import { copyDemoForProcess } from '../helpers/demo-template.js';
import { missing } from '../helpers/needs.js';
import { type ServerProcess, call, exited, spawnServer, tempDir, startedByTests } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { linkSpeechModelInto } from '../helpers/speech-model.js';
import { speak } from '../helpers/speech-audio.js';

/**
 * kill -9 right after a sign answer: the service runs as its own process (npm run serve), a dictation goes through
 * the real scribe, the doctor signs, and the process is killed the moment the 201 arrives. After a restart on the
 * same data directory the signed version is there, unchanged, and the status API serves it.
 */

const skip = missing('espeak-ng', 'pocketsphinx', 'ffmpeg');
const { children, dirs } = startedByTests({ perTest: false });

async function serve(dataDir: string): Promise<ServerProcess> {
  const s = await spawnServer(['--data-dir', dataDir, '--demo', '--log-level', 'warn']);
  children.add(s.child);
  return s;
}

it('kill -9 right after the sign answer, then restart: the signed version is there', { ...skipFor(skip), timeout: 240_000 }, async () => {
  const dataDir = tempDir('notes-crash');
  dirs.push(dataDir);
  // The demo clinics, copied (helpers/demo-template.ts): what this test is about comes after them.
  await copyDemoForProcess(dataDir);
  await linkSpeechModelInto(dataDir);
  const wav = join(dataDir, 'dictation.wav');
  await speak('The patient has fever for three days. Tablet paracetamol six fifty milligrams three times a day for five days.', wav);

  const first = await serve(dataDir);
  const ws = first.demo().workspaces[0]!;
  const headers = { authorization: `Bearer ${ws.users.doctor.auth_token}` };
  const client = new ScribeClient({ baseUrl: first.baseUrl, auth: ws.users.doctor.auth_token });
  const txn = 'notes-crash-1';
  await client.upload([{ name: 'dictation.wav', data: new Blob([readFileSync(wav)]) }], {
    txnId: txn, extraData: { patient_id: ws.patients[0]!.patient_id },
    outputFormat: { input_language: ['en-IN'], output_template: [{ template_id: 'eka_emr_template' }, { template_id: 'clinical_notes_template' }] },
  });
  await client.waitForSession(txn, { intervalMs: 250, timeoutMs: 120_000 });
  const draft = await call(first.baseUrl, 'GET', `/api/v1/notes/${txn}/draft`, { headers });
  expect(draft.status, draft.text).toBe(200);
  const flag_resolutions = (draft.json.emr.flags ?? []).map((f: { code: string; pointer: string }) => ({ code: f.code, pointer: f.pointer, resolution: 'kept' }));

  const signed = await call(first.baseUrl, 'POST', `/api/v1/notes/${txn}/sign`, { headers, body: { flag_resolutions } });
  first.child.kill('SIGKILL');
  expect(signed.status, signed.text).toBe(201);
  expect(await exited(first.child)).toBe('SIGKILL');

  const second = await serve(dataDir);
  const versions = await call(second.baseUrl, 'GET', `/api/v1/notes/${txn}/versions`, { headers });
  expect(versions.status, versions.text).toBe(200);
  expect(versions.json).toMatchObject({ status: 'signed', latest_version: 1 });
  const v1 = await call(second.baseUrl, 'GET', `/api/v1/notes/${txn}/versions/1`, { headers });
  expect(v1.json).toStrictEqual(signed.json);
  const status = await call(second.baseUrl, 'GET', `/voice/api/v3/status/${txn}`, { headers });
  const emr = status.json.data.output.find((o: { template_id: string }) => o.template_id === 'eka_emr_template');
  expect(JSON.parse(Buffer.from(emr.value, 'base64').toString('utf8'))).toStrictEqual(signed.json.emr);
  expect(status.json.data.additional_data.note).toStrictEqual({ status: 'signed', version: 1, latest_version: 1 });
});
