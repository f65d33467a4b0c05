import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScribeClient } from '../../sdk/scribe-client.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { verifySignature } from '../../server/webhooks/signing.js';
import { copyDemo } from '../helpers/demo-template.js';
import { missing } from '../helpers/needs.js';
import { ROOT, SCRIBE_WORKER_COMMAND, SERVE, TEST_KEK, call, exited, spawnServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { linkSpeechModelInto } from '../helpers/speech-model.js';
import { speak, until } from '../helpers/scribe.js';
import { TEST_DICTATIONS } from '../helpers/speech-audio.js';

/**
 * Issue 17, "How it is checked", the chain: two API instances (A with --demo, and B) and one --workers-only
 * process on one PostgreSQL database, sharing the key-encryption key file and the scribe storage folder.
 * Four dictations are uploaded through A and B (one for each of A, B and the worker to claim, one waiting: each
 * process transcribes one at a time); then a burst of 1,000 status changes goes round-robin to A and B, B is
 * killed with SIGKILL at ~40% (its requests then fail and are retried on A, as a client would) and the worker at
 * ~60% while it is transcribing (a new worker process is started at once). Afterwards, read back
 * through the API only: every accepted change is in its appointment's history exactly once; every stored change
 * reached the receiver with its Webhook-Id (duplicates allowed, losses not); every dictation completed exactly
 * once (one result, one v2rx.completed event, listed once).
 */

const TOTAL = 1000;
const KILL_B_AT = 400;
const KILL_WORKER_AT = 600;
const APPOINTMENTS = 24;
const DICTATIONS = 4;
const KEY = 'whsec_chain_test_signing_key';
const SUBS = '/notification/v1/connect/webhook/subscriptions';

/**
 * Short leases and polls, so a killed process's work is taken over within the test; the same option names as
 * ScribeOptions, WebhookOptions and the push sender's, as variables.
 */
const CHAIN_ENV = {
  CLINIC_DESK_SANDBOX: '0',
  CLINIC_DESK_WEBHOOK_RETRY_SCHEDULE: Array(20).fill('0.1').join(','),
  CLINIC_DESK_WEBHOOK_LEASE_MS: '3000',
  CLINIC_DESK_WEBHOOK_POLL_INTERVAL_MS: '250',
  CLINIC_DESK_SCRIBE_LEASE_MS: '3000',
  CLINIC_DESK_SCRIBE_RETRY_DELAY_MS: '200',
  CLINIC_DESK_SCRIBE_POLL_INTERVAL_MS: '250',
  CLINIC_DESK_PUSH_LEASE_MS: '3000',
};

const children = new Set<ChildProcess>();
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGKILL');
      await exited(c);
    }
  }
  for (const clean of cleanups.reverse()) await clean();
});

/** A service process's scribe workers (forks of the scribe's worker, each leading its own process group), from /proc. */
function scribeWorkersOf(ppid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== ppid) continue;
      if (SCRIBE_WORKER_COMMAND.test(readFileSync(`/proc/${name}/cmdline`, 'utf8'))) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * `serve --workers-only`: no HTTP API, so it is ready once it says its workers run (spawnServer waits for
 * "listening on"). Only the readiness line differs from spawnServer.
 */
function startWorker(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...SERVE, '--workers-only', '--port', '0', ...args], {
    cwd: ROOT, env: { ...process.env, ...CHAIN_ENV }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker process did not say "workers running" within 30 s:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(-20_000);
      if (/workers running/.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker process exited with ${code} before its workers ran:\n${out}`));
    });
  });
}

interface Received { id: string; event: string; data: Record<string, unknown> }

/** The integrator's receiver: every delivery's Webhook-Id and body, each signature checked over the raw bytes. */
async function receiver() {
  const deliveries: Received[] = [];
  let badSignatures = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const v = verifySignature(req.headers['webhook-signature'] as string | undefined, raw, KEY, { nowS: Date.now() / 1000, toleranceS: 300 });
      if (!v.ok) {
        badSignatures += 1;
        res.writeHead(400).end();
        return;
      }
      const body = JSON.parse(raw.toString('utf8')) as { event: string; data: Record<string, unknown> };
      deliveries.push({ id: String(req.headers['webhook-id']), event: body.event, data: body.data });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  cleanups.push(() => new Promise<void>((r) => {
    server.close(() => r());
    server.closeAllConnections();
  }));
  return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hooks/chain`, deliveries, badSignatures: () => badSignatures };
}

// The chain's dictations are transcribed for real, by the worker process.
const skip = missing('postgres', 'espeak-ng', 'pocketsphinx', 'ffmpeg');

describe('a chain: two instances and a worker process on one database, kill -9 of one instance and of the worker mid-burst (postgres)', skipFor(skip), () => {
  it('every accepted change stored once, every event delivered with its id, every dictation completed once', async () => {
    const root = tempDir('chain');
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const dataDir = (name: string) => {
      const d = join(root, name);
      mkdirSync(d);
      return d;
    };
    const dirA = dataDir('a');
    const dirB = dataDir('b');
    const dirW1 = dataDir('w1');
    // The chain's database, and A's data folder, are a copy of the demo clinics (helpers/demo-template.ts), sealed
    // with TEST_KEK, the chain's key file: A, started with --demo, finds them as a restart would. Making them from
    // nothing (migrations, twelve scrypt hashes) is the test of 'demo start' (cli/durability).
    const db = (await copyDemo(dirA, 'postgres'))!;
    cleanups.push(() => db.drop());
    const kekFile = join(root, 'chain.kek');
    writeFileSync(kekFile, TEST_KEK.toString('base64'), { mode: 0o600 });
    const storageDir = join(root, 'shared-scribe');
    mkdirSync(storageDir);
    const common = (dir: string) => ['--database-url', db.url, '--data-dir', dir, '--kek-file', kekFile, '--storage-dir', storageDir, '--log-level', 'warn'];
    const instance = async (dir: string, extra: string[] = []) => {
      const s = await spawnServer([...common(dir), ...extra], CHAIN_ENV);
      children.add(s.child);
      return s;
    };

    // A (with --demo), B and the worker start together on the one database.
    const starting = Promise.all([instance(dirA, ['--demo']), instance(dirB), startWorker(common(dirW1))]);
    // Every process of the chain may be the one to claim a dictation, so each data folder gets the speech model,
    // linked while they start (none reads it before it transcribes) and awaited before the first upload. The first
    // test of a run to link it builds it: 5-15 s of CPU, mostly espeak-ng's.
    const linked = Promise.all([dirA, dirB, dirW1].map(linkSpeechModelInto));
    linked.catch(() => {}); // a failure meanwhile is no unhandled rejection: it is thrown where awaited
    const [a, b, firstWorker] = await starting;
    const ws = a.demo().workspaces[0] as DemoWorkspace;
    const token = ws.users.admin.auth_token;

    // Appointments over the API, a booking's default length apart (a patient's overlapping booking is refused),
    // before the subscription, so the receiver gets only the burst's changes and the dictations' outcomes.
    const day = Date.now() + 24 * 3600_000;
    const appts: string[] = [];
    for (let i = 0; i < APPOINTMENTS; i++) {
      const res = await call(i % 2 ? b.baseUrl : a.baseUrl, 'POST', '/dr/v1/appointment', {
        headers: { auth: token },
        body: { patient_id: ws.patients[i % ws.patients.length]!.patient_id, scheduled_at: new Date(day + i * 15 * 60_000).toISOString() },
      });
      expect(res.status, res.text).toBe(201);
      appts.push(res.json.data.appointment_id);
    }
    const rx = await receiver();
    const sub = await call(a.baseUrl, 'POST', SUBS, {
      headers: { authorization: `Bearer ${token}` },
      body: { event_names: ['appointment.statuschange', 'v2rx.completed', 'v2rx.failed'], endpoint: rx.url, signing_key: KEY },
    });
    expect(sub.status, sub.text).toBe(201);

    // Dictations through the upload flow, alternately on A and B; the files land in the shared folder.
    const audioDir = join(root, 'audio');
    mkdirSync(audioDir);
    const dictation = speak(audioDir, 'visit.wav', TEST_DICTATIONS.fever);
    const doctor = ws.users.doctor.auth_token;
    await linked;
    const txns = Array.from({ length: DICTATIONS }, (_, i) => `chain-${i}`);
    const templates = ['transcript_template', 'eka_emr_template'];
    for (const [i, txnId] of txns.entries()) {
      await new ScribeClient({ baseUrl: i % 2 ? b.baseUrl : a.baseUrl, auth: doctor }).upload([dictation], {
        txnId, action: 'ekascribe-v2', extraData: { mode: 'dictation', model_type: 'lite' },
        outputFormat: { input_language: ['en-IN'], output_template: templates.map((template_id) => ({ template_id })) },
      });
    }

    // The burst. Each appointment's changes are sequential (check in ⇄ no-show, each allowed from the other), so
    // its history must be exactly the changes confirmed, in order.
    const status = new Map(appts.map((id) => [id, 'BK']));
    const confirmed = new Map<string, { from: string; to: string }[]>(appts.map((id) => [id, []]));
    let accepted = 0;
    let sent = 0;
    let failedOver = 0;
    let bDead = false;
    let gate: Promise<void> = Promise.resolve();
    const change = async (id: string) => {
      const to = status.get(id) === 'NS' ? 'CK' : 'NS';
      const path = `/dr/v1/appointment/${id}/change-status?partner_id=0`;
      const viaB = sent++ % 2 === 1 && !bDead;
      let res;
      try {
        res = await call(viaB ? b.baseUrl : a.baseUrl, 'POST', path, { headers: { auth: token }, body: { status: to } });
      } catch (e) {
        if (!viaB) throw e;
        // B is gone: the same change again on A. If B committed it before dying, A answers it as already done.
        failedOver += 1;
        res = await call(a.baseUrl, 'POST', path, { headers: { auth: token }, body: { status: to } });
      }
      if (res.status !== 200) throw new Error(`change-status via ${viaB ? 'B' : 'A'} answered ${res.status}: ${res.text}`);
      expect(res.json.data.status).toBe(to);
      confirmed.get(id)!.push({ from: status.get(id)!, to });
      status.set(id, to);
      accepted += 1;
    };
    let burstFailure: unknown = null;
    const chains = Promise.all(appts.map(async (id) => {
      for (;;) {
        await gate;
        if (sent >= TOTAL) return;
        await change(id);
      }
    })).catch((e: unknown) => {
      burstFailure = e;
    });
    // A refused change ends the test at once rather than leaving it waiting for a count never reached.
    const acceptedAtLeast = (n: number) => {
      if (burstFailure) throw burstFailure;
      return accepted >= n;
    };

    await until(() => acceptedAtLeast(KILL_B_AT), `${KILL_B_AT} accepted changes`, 60_000, 2);
    b.child.kill('SIGKILL');
    expect(await exited(b.child)).toBe('SIGKILL');
    // Requests already on their way to B fail like those sent after its death, and are retried on A.
    bDead = true;

    await until(() => acceptedAtLeast(KILL_WORKER_AT), `${KILL_WORKER_AT} accepted changes`, 60_000, 2);
    // Hold the burst until the worker is transcribing, so its kill takes a dictation with it.
    let release!: () => void;
    gate = new Promise((r) => (release = r));
    const transcribing = await until(() => {
      const w = scribeWorkersOf(firstWorker.pid!);
      return w.length ? w : null;
    }, 'the worker process to be transcribing a dictation', 60_000, 50);
    firstWorker.kill('SIGKILL');
    expect(await exited(firstWorker)).toBe('SIGKILL');
    release();
    // Its transcriptions go with it, and a new worker process starts at once; what it held is taken over once its
    // leases run out.
    await Promise.all([
      until(() => transcribing.every((pid) => !alive(pid)), 'the killed worker\'s transcriptions to end', 10_000, 50),
      (async () => {
        const dir = dataDir('w2');
        await linkSpeechModelInto(dir);
        await startWorker(common(dir));
      })(),
    ]);
    await chains;
    if (burstFailure) throw burstFailure;
    expect(accepted).toBe(TOTAL);
    expect(failedOver).toBeGreaterThan(0);

    // Stored once: each appointment's history, read through A, holds exactly the confirmed changes, in order.
    const stored: string[] = [];
    for (const id of appts) {
      const res = await call(a.baseUrl, 'GET', `/dr/v1/appointment/${id}?partner_id=0`, { headers: { auth: token } });
      expect(res.status, res.text).toBe(200);
      const history = (res.json.data.status_history as { from_status: string | null; to_status: string; changed_at: string }[])
        .filter((h) => h.from_status !== null);
      expect(history.map((h) => ({ from: h.from_status, to: h.to_status })), `history of ${id}`).toEqual(confirmed.get(id));
      for (const h of history) stored.push(`${id}|${h.from_status}|${h.to_status}|${h.changed_at}`);
    }
    expect(stored).toHaveLength(TOTAL);

    // Delivered: every stored change's event, each under one Webhook-Id (redeliveries repeat it), nothing else.
    const statusEvents = () => rx.deliveries.filter((d) => d.event === 'appointment.statuschange');
    const keyOf = (d: Received) => `${d.data.appointment_id}|${d.data.previous_status}|${d.data.status}|${d.data.changed_at}`;
    const deliveredKeys = () => new Set(statusEvents().map(keyOf));
    await until(() => stored.every((k) => deliveredKeys().has(k)), `all ${TOTAL} events at the receiver`, 60_000, 100)
      .catch((e: Error) => {
        const lost = stored.filter((k) => !deliveredKeys().has(k));
        throw new Error(`${e.message}: ${lost.length} not delivered, e.g. ${lost.slice(0, 3).join(', ')}`);
      });
    const idsByKey = new Map<string, Set<string>>();
    for (const d of statusEvents()) idsByKey.set(keyOf(d), (idsByKey.get(keyOf(d)) ?? new Set()).add(d.id));
    expect([...idsByKey.keys()].sort()).toEqual([...stored].sort());
    expect([...idsByKey.values()].filter((ids) => ids.size !== 1)).toEqual([]);
    expect(rx.badSignatures()).toBe(0);

    // Dictations: each completed, with one result per template asked, listed once, and one v2rx.completed event.
    const reader = new ScribeClient({ baseUrl: a.baseUrl, auth: doctor });
    for (const txnId of txns) {
      const done = await reader.waitForSession(txnId, { action: 'ekascribe-v2', intervalMs: 250, timeoutMs: 90_000 });
      expect(done.httpStatus, txnId).toBe(200);
      expect(done.data.additional_data).toMatchObject({ status: 'completed', percent: 100 });
      expect(done.data.output.map((o) => [o.template_id, o.status])).toEqual(templates.map((t) => [t, 'success']));
    }
    const listed = await call(a.baseUrl, 'GET', '/voice/api/v2/sessions?limit=100', { headers: { authorization: `Bearer ${doctor}` } });
    expect(listed.status, listed.text).toBe(200);
    const sessions = (listed.json.data as { txn_id: string; status: string }[]).filter((s) => txns.includes(s.txn_id));
    expect(sessions.map((s) => s.txn_id).sort()).toEqual([...txns].sort());
    expect(sessions.every((s) => s.status === 'completed')).toBe(true);
    const outcomes = (event: string, txnId: string) =>
      new Set(rx.deliveries.filter((d) => d.event === event && d.data.transaction_id === txnId).map((d) => d.id)).size;
    await until(() => txns.every((t) => outcomes('v2rx.completed', t) >= 1), 'a v2rx.completed event for every dictation', 30_000);
    for (const txnId of txns) {
      expect(outcomes('v2rx.completed', txnId), txnId).toBe(1);
      expect(outcomes('v2rx.failed', txnId), txnId).toBe(0);
    }

    console.log(`chain test: ${TOTAL} changes (${failedOver} failed over from B to A), ${rx.deliveries.length} deliveries for `
      + `${stored.length + DICTATIONS} events, ${transcribing.length} transcription(s) killed with the worker`);
  }, 240_000);
});
