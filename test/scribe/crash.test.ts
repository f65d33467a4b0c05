import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { ScribeClient } from '../../sdk/scribe-client.js';
import { copyDemoForProcess } from '../helpers/demo-template.js';
import { missing } from '../helpers/needs.js';
import { SCRIBE_WORKER_COMMAND, type ServerProcess, exited, spawnServer, tempDir, startedByTests } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { linkSpeechModelInto } from '../helpers/speech-model.js';
import { sleep, speak, until } from '../helpers/scribe.js';

/**
 * kill -9 of the service in the middle of a transcription: the service runs as its own process (npm run serve),
 * its worker is recognising a long dictation when the service is killed. The worker and everything it started
 * must go with it; after a restart on the same data directory the session runs again and completes, and the
 * recording is still there.
 */

const PARAGRAPH = 'Follow up visit for a sixty year old man with long standing diabetes and high blood pressure. '
  + 'He reports tingling in both feet at night and occasional dizziness on standing. '
  + 'Home sugar readings are between one fifty and two hundred before breakfast. No chest pain, no breathlessness. '
  + 'On examination blood pressure is one fifty over ninety five, pulse eighty two, weight eighty one kilograms. '
  + 'Diagnosis type two diabetes with peripheral neuropathy and uncontrolled hypertension. '
  + 'Increase metformin to one gram twice daily after meals. Start telmisartan forty milligrams once daily in the morning. '
  + 'Check kidney function and urine albumin. Walk thirty minutes every day and reduce salt. Review after four weeks with the reports.';

const { children, dirs } = startedByTests();

async function serve(dataDir: string): Promise<ServerProcess> {
  const s = await spawnServer(['--data-dir', dataDir, '--demo', '--log-level', 'warn']);
  children.add(s.child);
  return s;
}

/** Processes whose parent is `ppid`, from /proc (Linux). */
function childrenOf(ppid: number): { pid: number; pgrp: number; cmd: string }[] {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== ppid) continue;
      out.push({ pid: Number(name), pgrp: Number(fields[2]), cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Whether any process is still in process group `pgrp`. */
function groupAlive(pgrp: number): boolean {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgrp && fields[0] !== 'Z') return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

it('kill -9 mid-transcription, then restart: the worker goes with the service, the session runs again and completes', { ...skipFor(missing('espeak-ng', 'pocketsphinx', 'ffmpeg')), timeout: 180_000 }, async () => {
  const dataDir = tempDir('scribe-crash');
  const audioDir = tempDir('scribe-crash-audio');
  dirs.push(dataDir, audioDir);
  // The demo clinics, copied (helpers/demo-template.ts): what this test is about comes after them.
  await copyDemoForProcess(dataDir);
  await linkSpeechModelInto(dataDir);
  // About 45 s of speech: PocketSphinx spends 12 s of CPU or more on it, so the kill, 1 s after the recogniser
  // starts, finds it mid-transcription with a wide margin; the run after the restart transcribes all of it again.
  const long = speak(audioDir, 'long visit.wav', PARAGRAPH, 'en-us', 170);

  const first = await serve(dataDir);
  const token = first.demo().workspaces[0]!.users.doctor.auth_token;
  const client = new ScribeClient({ baseUrl: first.baseUrl, auth: token });
  await client.upload([long], {
    txnId: 'crash-001', action: 'ekascribe-v2', extraData: { mode: 'dictation', model_type: 'lite' },
    outputFormat: { input_language: ['en-IN'], output_template: [{ template_id: 'transcript_template' }, { template_id: 'eka_emr_template' }] },
  });

  // Wait until the worker's recogniser is running, then a moment more: mid-transcription.
  await until(async () => (await client.getSessionStatus('crash-001')).data.additional_data.stage === 'recognising', 'recognising', 30_000, 50);
  const workers = childrenOf(first.child.pid!).filter((p) => SCRIBE_WORKER_COMMAND.test(p.cmd));
  expect(workers).toHaveLength(1);
  const worker = workers[0]!;
  expect(worker.pgrp).toBe(worker.pid); // its own process group, so its recogniser can be reached too
  await until(() => childrenOf(worker.pid).some((p) => p.cmd.includes('pocketsphinx')), 'the recogniser process', 30_000, 50);
  await sleep(1000);
  const mid = await client.getSessionStatus('crash-001');
  expect(mid.httpStatus).toBe(202);
  expect(mid.data.additional_data).toMatchObject({ status: 'processing', stage: 'recognising' });

  first.child.kill('SIGKILL');
  expect(await exited(first.child)).toBe('SIGKILL');
  // The worker notices its parent is gone and ends its whole group: nothing of the run is left.
  await until(() => !groupAlive(worker.pgrp), 'the worker group to end', 10_000, 50);

  const second = await serve(dataDir);
  const again = new ScribeClient({ baseUrl: second.baseUrl, auth: token });
  const done = await again.waitForSession('crash-001', { intervalMs: 200, timeoutMs: 160_000 });
  expect(done.httpStatus).toBe(200);
  expect(done.data.additional_data).toMatchObject({ status: 'completed', percent: 100 });
  expect(done.data.output.map((o) => [o.template_id, o.status])).toEqual([['transcript_template', 'success'], ['eka_emr_template', 'success']]);
  expect((done.data.output[0]!.decoded as { text: string }).text.length).toBeGreaterThan(50);

  // Two runs: the one killed and the one that finished; the recording is still on disk, byte for byte.
  second.child.kill('SIGTERM');
  await exited(second.child);
  const db = new Database(join(dataDir, 'clinic-desk.sqlite'), { readonly: true });
  const row = db.prepare("SELECT id, attempts, status FROM scribe_sessions WHERE txn_id = 'crash-001'").get() as { id: string; attempts: number; status: string };
  const file = db.prepare("SELECT stored_name, size FROM scribe_files WHERE session_id = ? AND kind = 'audio'").get(row.id) as { stored_name: string; size: number };
  db.close();
  expect(row).toMatchObject({ attempts: 2, status: 'completed' });
  expect(readFileSync(join(dataDir, 'scribe', row.id, file.stored_name)).equals(readFileSync(long))).toBe(true);
});
