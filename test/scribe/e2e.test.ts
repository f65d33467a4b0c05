import { generateKeyPairSync } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SessionStatus, ScribeClient } from '../../sdk/scribe-client.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { missing } from '../helpers/needs.js';
import { call, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, silenceWav, speak, startScribeServer, until, webhookReceiver } from '../helpers/scribe.js';

/**
 * The scribe end to end over HTTP, with speech made by espeak-ng at test time: the upstream flow through our SDK
 * (presign → multipart → sidecar → init → poll status), the real pipeline in worker processes (ffmpeg,
 * PocketSphinx, the structurer, the renderers), all three templates decoded and their shapes checked; failures
 * (silence, a text file renamed .wav, a language no engine here speaks) and a template that fails alone (206);
 * v2rx.completed / v2rx.failed to a local webhook receiver; a push queued for the user who started the session.
 */

const SIGNING_KEY = 'whsec_scribe_e2e';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const DICTATION = 'Fifty eight year old man with burning pain in the stomach for two weeks. No vomiting. '
  + 'Blood pressure one forty over ninety. Pulse seventy six. Diagnosis acid peptic disease. '
  + 'Tablet pantoprazole forty milligrams once daily before breakfast for fourteen days. '
  + 'Avoid spicy food. Review after two weeks.';

const ALL_TEMPLATES = [
  { template_id: 'clinical_notes_template', codification_needed: false },
  { template_id: 'eka_emr_template', codification_needed: true },
  { template_id: 'transcript_template', codification_needed: false },
];

let srv: ScribeServer;
let ws: DemoWorkspace;
let dir: string;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let client: ScribeClient;
let dictation: string;
// Every suite here transcribes speech that espeak-ng makes, through ffmpeg and PocketSphinx.
const skip = missing('espeak-ng', 'pocketsphinx', 'ffmpeg');

beforeAll(async () => {
  dir = tempDir('scribe-e2e-audio');
  dictation = speak(dir, 'consult.wav', DICTATION);
  receiver = await webhookReceiver(SIGNING_KEY);
  // Pushes are queued but not sent (the sender is off): the queue is what the scribe is responsible for.
  srv = await startScribeServer({ speechModel: true, push: { sender: false }, scribe: { concurrency: 2 }, webhooks: { retryScheduleMs: [100, 200, 400] } });
  ws = srv.demo.workspaces[0]!;
  const doctor = ws.users.doctor.auth_token;
  client = new ScribeClient({ baseUrl: srv.baseUrl, auth: doctor });

  const sub = await call(srv.baseUrl, 'POST', '/notification/v1/connect/webhook/subscriptions', {
    headers: bearer(ws.users.admin.auth_token),
    body: { event_names: ['v2rx.completed', 'v2rx.failed'], endpoint: receiver.url, signing_key: SIGNING_KEY, protocol: 'https' },
  });
  expect(sub.status).toBe(201);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const creds = await call(srv.baseUrl, 'POST', '/notification/fcm-creds', {
    headers: bearer(ws.users.admin.auth_token),
    body: { sa_key: {
      type: 'service_account', project_id: 'clinic-e2e', private_key_id: 'k1', client_email: 'push@clinic-e2e.example',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), token_uri: 'http://127.0.0.1:9/token',
    } },
  });
  expect(creds.status).toBe(200);
  const device = await call(srv.baseUrl, 'POST', '/notification/add-device', {
    headers: bearer(doctor), body: { devicePayload: { did: 'doctor-phone', 'fcm-id': 'fcm-token-doctor', 'app-version': '1.0' } },
  });
  expect(device.status).toBe(200);
});

afterAll(async () => {
  await srv?.close();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

const eventsFor = (txn: string) => receiver.deliveries.filter((d) => d.body.data?.transaction_id === txn);

describe('a dictation through the upstream flow', skipFor(skip), () => {
  it('200 with all three templates, Base64 JSON of the documented shapes; v2rx.completed; a push for the doctor', async () => {
    const uploaded = await client.upload([dictation], {
      txnId: 'e2e-consult-1', action: 'scribe-v2',
      extraData: { mode: 'dictation', model_type: 'lite', appointment: 'A-42' },
      outputFormat: { input_language: ['en-IN'], output_template: ALL_TEMPLATES },
    });
    expect(uploaded).toHaveLength(1);

    const stages = new Set<string>();
    const done = await client.waitForSession('e2e-consult-1', {
      intervalMs: 50, timeoutMs: 60_000,
      onProgress: (s) => {
        stages.add(String(s.data.additional_data.stage));
        expect(s.data.output).toEqual([]);
        expect(s.data.additional_data.percent).toEqual(expect.any(Number));
      },
    });
    expect(done.httpStatus).toBe(200);
    expect(done.data.additional_data).toEqual({ mode: 'dictation', model_type: 'lite', appointment: 'A-42', status: 'completed', stage: 'completed', percent: 100 });
    // Progress was visible on the way (which stages a 50 ms poll catches depends on the machine's speed).
    expect([...stages].some((s) => ['queued', 'starting', 'decoding', 'recognising', 'structuring', 'rendering'].includes(s))).toBe(true);

    const out = done.data.output;
    expect(out.map((o) => [o.template_id, o.name, o.type, o.status, o.errors])).toEqual([
      ['clinical_notes_template', 'Clinical Notes', 'json', 'success', []],
      ['eka_emr_template', 'EMR Template', 'json', 'success', []],
      ['transcript_template', 'Transcript', 'json', 'success', []],
    ]);
    for (const o of out) {
      expect(o.warnings).toEqual(expect.any(Array));
      expect(Buffer.from(o.value, 'base64').toString('base64')).toBe(o.value);
      expect(JSON.parse(Buffer.from(o.value, 'base64').toString('utf8'))).toEqual(o.decoded);
    }
    const [notes, emr, transcript] = out.map((o) => o.decoded!) as [any, any, any];

    // transcript_template: text and timed segments.
    expect(transcript).toMatchObject({ template_id: 'transcript_template', language: 'en-IN' });
    expect(transcript.text).toEqual(expect.any(String));
    expect(transcript.text.split(' ').length).toBeGreaterThan(10);
    expect(transcript.segments.length).toBeGreaterThan(0);
    for (const s of transcript.segments) {
      expect(s).toEqual({ start: expect.any(Number), end: expect.any(Number), text: expect.any(String) });
      expect(s.end).toBeGreaterThanOrEqual(s.start);
    }

    // service_emr_template (asked as eka_emr_template): only the documented keys (templates.md's, and our additive
    // evidence and flags, docs/API.md), typed as documented.
    expect(emr).toMatchObject({ template_id: 'service_emr_template', language: 'en-IN' });
    expect(emr.evidence).toBeTypeOf('object');
    expect(Array.isArray(emr.flags)).toBe(true);
    const EMR_KEYS = ['template_id', 'language', 'chief_complaints', 'history', 'vitals', 'examination', 'diagnoses', 'medications', 'investigations', 'advice', 'follow_up', 'evidence', 'flags'];
    expect(Object.keys(emr).filter((k) => !EMR_KEYS.includes(k))).toEqual([]);
    for (const list of ['chief_complaints', 'examination', 'diagnoses', 'medications', 'investigations', 'advice']) {
      if (list in emr) expect(Array.isArray(emr[list])).toBe(true);
    }
    for (const d of emr.diagnoses ?? []) {
      expect(d.name).toEqual(expect.any(String));
      expect(['confirmed', 'suspected']).toContain(d.certainty);
      expect(Array.isArray(d.codes)).toBe(true);
    }
    for (const m of emr.medications ?? []) expect(m.name).toEqual(expect.any(String));
    if (emr.vitals?.bp) expect(emr.vitals.bp).toEqual({ systolic: expect.any(Number), diastolic: expect.any(Number) });

    // clinical_notes_template: sections with id, title, text; a markdown rendering.
    expect(notes).toMatchObject({ template_id: 'clinical_notes_template', language: 'en-IN', markdown: expect.any(String) });
    expect(notes.sections.length).toBeGreaterThan(0);
    for (const s of notes.sections) expect(s).toEqual({ id: expect.any(String), title: expect.any(String), text: expect.any(String) });

    // v2rx.completed, exactly the interface's body, signed.
    const [event] = await until(() => (eventsFor('e2e-consult-1').length ? eventsFor('e2e-consult-1') : null), 'v2rx.completed', 15_000);
    expect(event!.verified).toBe(true);
    expect(Object.keys(event!.body)).toEqual(['event', 'data', 'timestamp']);
    expect(event!.body).toEqual({
      event: 'v2rx.completed', data: { transaction_id: 'e2e-consult-1', status: 'completed', session_id: 'e2e-consult-1' }, timestamp: expect.stringMatching(ISO_MS),
    });

    // A push to the devices of the user who started it (queued; the sender delivers it).
    const pushes = (await srv.service.notifications.pushes(ws.workspace_id)).filter((p) => JSON.parse(p.data).session_id === 'e2e-consult-1');
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ title: 'Dictation ready', body: 'Transaction e2e-consult-1 is ready to review', status: 'pending' });
    expect(JSON.parse(pushes[0]!.data)).toEqual({ event: 'v2rx.completed', session_id: 'e2e-consult-1', transaction_id: 'e2e-consult-1', status: 'completed' });
    // The recording is kept.
    const s = (await srv.service.scribe.session(ws.workspace_id, 'e2e-consult-1'))!;
    expect((await srv.service.scribe.files(s.id)).filter((f) => f.kind === 'audio')).toHaveLength(1);
  });
});

describe('sessions that fail', skipFor(skip), () => {
  async function run(txnId: string, files: string[], languages = ['en-IN']): Promise<SessionStatus> {
    await client.upload(files, { txnId, extraData: { mode: 'dictation' }, outputFormat: { input_language: languages, output_template: ALL_TEMPLATES } });
    return client.waitForSession(txnId, { intervalMs: 100, timeoutMs: 60_000 });
  }

  it('silence, a text file renamed .wav: failed, saying why in every entry, with v2rx.failed; an unsupported language is refused at init', async () => {
    const silence = silenceWav(dir, 'quiet room.wav', 4);
    const fake = join(dir, 'notes.wav');
    writeFileSync(fake, 'These are typed notes, not a recording.\n'.repeat(50));
    const hindi = speak(dir, 'hindi.wav', 'मरीज़ को तीन दिन से बुखार है', 'hi');
    const [quiet, bad] = await Promise.all([run('e2e-silence', [silence]), run('e2e-badfile', [fake])]);
    await expect(
      client.upload([hindi], { txnId: 'e2e-hindi', extraData: { mode: 'dictation' }, outputFormat: { input_language: ['hi'], output_template: ALL_TEMPLATES } }),
    ).rejects.toMatchObject({ status: 422, step: 'init' });

    const expectFailed = (r: SessionStatus, pattern: RegExp) => {
      expect(r.httpStatus).toBe(206);
      expect(r.data.additional_data).toMatchObject({ status: 'failed', stage: 'failed', errors: [expect.stringMatching(pattern)] });
      expect(r.data.output.map((o) => [o.template_id, o.status, o.value])).toEqual(ALL_TEMPLATES.map((t) => [t.template_id, 'failure', '']));
      for (const o of r.data.output) expect(o.errors).toEqual([expect.stringMatching(pattern)]);
    };
    expectFailed(quiet, /no speech detected/i);
    expectFailed(bad, /notes\.wav/);

    for (const [txn, pattern] of [['e2e-silence', /no speech detected/i], ['e2e-badfile', /notes\.wav/]] as const) {
      const [event] = await until(() => (eventsFor(txn).length ? eventsFor(txn) : null), `v2rx.failed for ${txn}`, 15_000);
      expect(event!.verified).toBe(true);
      expect(event!.body).toEqual({
        event: 'v2rx.failed', data: { transaction_id: txn, status: 'failed', session_id: txn, errors: [expect.stringMatching(pattern)] }, timestamp: expect.stringMatching(ISO_MS),
      });
      const push = (await srv.service.notifications.pushes(ws.workspace_id)).find((p) => JSON.parse(p.data).session_id === txn);
      expect(push).toMatchObject({ title: 'Dictation could not be processed' });
    }
  });
});

describe('a template that fails alone', skipFor(skip), () => {
  let faulty: ScribeServer;
  // Nothing here depends on what was said, and recognition costs CPU by the second of audio: a short dictation (5 s;
  // DICTATION is 23 s).
  let brief: string;
  beforeAll(async () => {
    brief = speak(dir, 'brief.wav', 'Cough for two days. Tablet cetirizine ten milligrams at night.');
    // Fault injection is part of the service's configuration (ServiceOptions.scribe.failTemplates).
    faulty = await startScribeServer({ speechModel: true, push: { sender: false }, scribe: { failTemplates: ['clinical_notes_template'] } });
  });
  afterAll(() => faulty?.close());

  it('206: the failed template says why, the others are there; the session still completes', async () => {
    const w = faulty.demo.workspaces[0]!;
    const c = new ScribeClient({ baseUrl: faulty.baseUrl, auth: w.users.doctor.auth_token });
    await c.upload([brief], { txnId: 'e2e-partial', extraData: { mode: 'dictation' }, outputFormat: { input_language: ['en-IN'], output_template: ALL_TEMPLATES } });
    const r = await c.waitForSession('e2e-partial', { intervalMs: 100, timeoutMs: 60_000 });
    expect(r.httpStatus).toBe(206);
    expect(r.data.additional_data).toMatchObject({ status: 'partial', stage: 'completed', percent: 100 });
    expect(r.data.output.map((o) => [o.template_id, o.status])).toEqual([
      ['clinical_notes_template', 'failure'], ['eka_emr_template', 'success'], ['transcript_template', 'success'],
    ]);
    expect(r.data.output[0]!.errors).toEqual([expect.stringContaining('clinical_notes_template could not be produced')]);
    expect(r.data.output[0]!.value).toBe('');
    expect(r.data.output[1]!.decoded).toMatchObject({ template_id: 'service_emr_template' });
    expect(r.data.output[2]!.decoded).toMatchObject({ template_id: 'transcript_template' });
  });
});
