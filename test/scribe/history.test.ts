import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Handlers, type IpcEvent, createHandlers, toFailure } from '../../main/ipc.js';
import { recordingStore } from '../../main/recordings.js';
import type { DictationOptions, ProgressEvent, UploadProgress } from '../../preload/contract.js';
import { scribeHistory } from '../../preload/scribe-flow.js';
import { ScribeClient } from '../../sdk/scribe-client.js';
import { openDatabase } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { missing } from '../helpers/needs.js';
import { call, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, movableClock, silenceWav, startScribeServer, until } from '../helpers/scribe.js';

/**
 * GET /voice/api/v2/sessions, the past sessions of a workspace or of one patient, over HTTP against the real
 * service: sessions made through the upstream SDK flow, the desktop app's own in-process flow (main/ipc.ts over
 * server/scribe/api/operations.ts, which also reads the list) and upstream's init body; the patient id from extra_data, additional_data, patient_details or the
 * sidecar; newest first, pages by cursor, status filter, workspace isolation, the scribe error shapes; a failed
 * session's errors (the real worker); and the migration that records the patient of sessions made before it.
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const OPTIONS: DictationOptions = { templates: ['clinical_notes_template', 'transcript_template'], language: 'en-IN', mode: 'dictation', model_type: 'lite', codify: false };

let srv: ScribeServer;
let advance: (ms: number) => void;
let a: DemoWorkspace;
let b: DemoWorkspace;
let dir: string;
let audio: string;
let sdkA: ScribeClient;
let sdkB: ScribeClient;
/** txn ids in the order they were made (one clock second apart), per patient of workspace A. */
const made = { p1: [] as string[], p2: [] as string[], none: [] as string[] };
/** What the app's upload reported on the way. */
const appProgress: UploadProgress[] = [];
const RENDERER = 'file:///opt/clinic-desk/resources/app.asar/dist/renderer/index.html';
const appWindow = (id: number): IpcEvent => ({
  senderFrame: { url: RENDERER } as never,
  sender: { id, send: (_channel, e) => void appProgress.push((e as ProgressEvent).progress as UploadProgress) },
});
const doctorWindow = appWindow(1);
const deskWindow = appWindow(2);
let app: Handlers;
let p1: string;
let p2: string;

const list = (token: string, query = '') => call(srv.baseUrl, 'GET', `/voice/api/v2/sessions${query}`, { headers: bearer(token) });

/** Every page, following next_cursor. */
async function allPages(token: string, query: string) {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const r = await list(token, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status).toBe(200);
    pages.push(r.json.data.map((s: { txn_id: string }) => s.txn_id));
    cursor = r.json.next_cursor;
  } while (cursor);
  return pages;
}

// Init refuses a session no engine here could transcribe; the suites that init need PocketSphinx ready.
const noEngine = missing('pocketsphinx');

beforeAll(async () => {
  dir = tempDir('scribe-history');
  if (noEngine) return;
  audio = silenceWav(dir, 'note.wav', 0.5);
  const c = movableClock();
  advance = c.advance;
  // No worker: the sessions stay where the flow left them (queued, or awaiting init), so filters are exact.
  srv = await startScribeServer({ clock: c.clock, scribe: { worker: false } });
  [a, b] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
  p1 = a.patients[0]!.patient_id;
  p2 = a.patients[1]!.patient_id;
  sdkA = new ScribeClient({ baseUrl: srv.baseUrl, auth: a.users.doctor.auth_token });
  sdkB = new ScribeClient({ baseUrl: srv.baseUrl, auth: b.users.doctor.auth_token });
  app = createHandlers({
    service: srv.service, rendererUrl: RENDERER, info: { baseUrl: srv.baseUrl, version: '1.0' }, recordings: recordingStore(join(dir, 'recordings')),
  });
  await app.signIn(doctorWindow, { username: a.users.doctor.username, password: a.users.doctor.password });
  await app.signIn(deskWindow, { username: a.users.reception.username, password: a.users.reception.password });

  const next = () => advance(1000);
  // p1: three through the upstream SDK flow (presign with extra_data, audio, sidecar, init) ...
  for (let i = 0; i < 3; i++) {
    next();
    const txnId = `p1-sdk-${i}`;
    await sdkA.upload([audio], { txnId, extraData: { mode: 'dictation', patient_id: p1 }, outputFormat: { output_template: [{ template_id: 'eka_emr_template' }] } });
    made.p1.push(txnId);
  }
  // ... one through the desktop app's own flow, in-process (extra_data and additional_data carry patient_id) ...
  next();
  const rec = await app.recordingStart(doctorWindow, { mime_type: 'audio/wav', patient_id: p1, appointment_id: a.appointments[0]!.appointment_id });
  await app.recordingAppend(doctorWindow, rec.id, 0, new Uint8Array(readFileSync(audio)));
  await app.recordingFinish(doctorWindow, rec.id, 0.5);
  made.p1.push((await app.uploadDictation(doctorWindow, rec.id, OPTIONS)).txn_id);
  // ... and one presigned with its audio but never initialized.
  next();
  const pending = await sdkA.presign('p1-pending', 'scribe-v2', { patient_id: p1 });
  await sdkA.postObject(pending, `${pending.folderPath}note.wav`, new Blob([readFileSync(audio)]), 'note.wav', 'audio/wav');
  made.p1.push('p1-pending');

  // p2: the patient named only in upstream's init body (patient_details.oid), then only in the sidecar.
  next();
  const upstream = await sdkA.presign('p2-upstream', 'scribe-v2');
  await sdkA.postObject(upstream, `${upstream.folderPath}note.wav`, new Blob([readFileSync(audio)]), 'note.wav', 'audio/wav');
  await sdkA.init('p2-upstream', { mode: 'dictation', patient_details: { oid: p2, username: 'x', age: 40, biologicalSex: 'F' } });
  made.p2.push('p2-upstream');
  next();
  const sidecar = await sdkA.presign('p2-sidecar', 'scribe-v2');
  await sdkA.postObject(sidecar, `${sidecar.folderPath}note.wav`, new Blob([readFileSync(audio)]), 'note.wav', 'audio/wav');
  await sdkA.postObject(sidecar, `${sidecar.folderPath}p2-sidecar.json`, new Blob([JSON.stringify({ patient_id: p2 })]), 'data.json', 'application/json');
  await sdkA.init('p2-sidecar', {});
  made.p2.push('p2-sidecar');

  // No patient at all; and workspace B, including a txn id that A also uses.
  next();
  await sdkA.upload([audio], { txnId: 'no-patient' });
  made.none.push('no-patient');
  next();
  await sdkB.upload([audio], { txnId: 'p1-sdk-0', extraData: { patient_id: b.patients[0]!.patient_id } });
}, 60_000);

afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /voice/api/v2/sessions', skipFor(noEngine), () => {
  it("lists a patient's sessions newest first, with status, progress, templates and times", async () => {
    const r = await list(a.users.doctor.auth_token, `?patient_id=${p1}`);
    expect(r.status).toBe(200);
    expect(r.json.next_cursor).toBeNull();
    expect(r.json.data.map((s: { txn_id: string }) => s.txn_id)).toEqual([...made.p1].reverse());
    const [pending, fromApp, newestSdk] = r.json.data;
    expect(pending).toEqual({
      txn_id: 'p1-pending', status: 'awaiting_init', stage: 'uploading', percent: 0, patient_id: p1, templates: [], errors: [],
      note_status: null, note_version: 0, created_at: expect.any(String), updated_at: expect.any(String),
    });
    expect(fromApp).toMatchObject({ status: 'queued', stage: 'queued', percent: 0, patient_id: p1, templates: ['clinical_notes_template', 'transcript_template'] });
    expect(newestSdk).toMatchObject({ txn_id: 'p1-sdk-2', status: 'queued', patient_id: p1, templates: ['eka_emr_template'], errors: [] });
    const times = r.json.data.map((s: { created_at: string }) => Date.parse(s.created_at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(new Set(times).size).toBe(times.length);
  });

  it('records the patient from patient_details.oid or the sidecar when extra_data does not name one', async () => {
    const r = await list(a.users.doctor.auth_token, `?patient_id=${p2}`);
    expect(r.json.data.map((s: { txn_id: string; patient_id: string }) => [s.txn_id, s.patient_id])).toEqual([['p2-sidecar', p2], ['p2-upstream', p2]]);
  });

  it('without patient_id lists the whole workspace; status filters by the status vocabulary', async () => {
    const all = await list(a.users.doctor.auth_token);
    expect(all.json.data).toHaveLength(made.p1.length + made.p2.length + made.none.length);
    expect(all.json.data[0]).toMatchObject({ txn_id: 'no-patient', patient_id: null });
    const waiting = await list(a.users.doctor.auth_token, '?status=awaiting_init');
    expect(waiting.json.data.map((s: { txn_id: string }) => s.txn_id)).toEqual(['p1-pending']);
    const queued = await list(a.users.doctor.auth_token, `?status=queued&patient_id=${p1}`);
    expect(queued.json.data.map((s: { txn_id: string }) => s.txn_id)).toEqual([...made.p1].reverse().slice(1));
    expect((await list(a.users.doctor.auth_token, '?status=failed')).json.data).toEqual([]);
  });

  it('pages by cursor: every session once, in order, the last page with next_cursor null', async () => {
    expect(await allPages(a.users.doctor.auth_token, `?patient_id=${p1}&limit=2`)).toEqual([
      [made.p1[4], made.p1[3]], [made.p1[2], made.p1[1]], [made.p1[0]],
    ]);
    const whole = (await list(a.users.doctor.auth_token, '?limit=100')).json.data.map((s: { txn_id: string }) => s.txn_id);
    expect((await allPages(a.users.doctor.auth_token, '?limit=1')).flat()).toEqual(whole);
    // A full last page says so: no empty page after it.
    expect(await allPages(a.users.doctor.auth_token, `?patient_id=${p2}&limit=2`)).toEqual([['p2-sidecar', 'p2-upstream']]);
  });

  it('a session made while paging does not move the page boundary', async () => {
    const first = await list(a.users.doctor.auth_token, `?patient_id=${p1}&limit=2`);
    advance(1000);
    await sdkA.upload([audio], { txnId: 'p1-late', extraData: { patient_id: p1 } });
    const second = await list(a.users.doctor.auth_token, `?patient_id=${p1}&limit=2&cursor=${encodeURIComponent(first.json.next_cursor)}`);
    expect(second.json.data.map((s: { txn_id: string }) => s.txn_id)).toEqual([made.p1[2], made.p1[1]]);
    expect((await list(a.users.doctor.auth_token, `?patient_id=${p1}&limit=1`)).json.data[0].txn_id).toBe('p1-late');
  });

  it("never shows another workspace's sessions, even under the same txn id", async () => {
    const bOwn = await list(b.users.doctor.auth_token);
    expect(bOwn.json.data).toHaveLength(1);
    expect(bOwn.json.data[0]).toMatchObject({ txn_id: 'p1-sdk-0', patient_id: b.patients[0]!.patient_id });
    expect((await list(b.users.doctor.auth_token, `?patient_id=${p1}`)).json).toEqual({ data: [], next_cursor: null });
    const aView = (await list(a.users.doctor.auth_token, `?patient_id=${p1}`)).json.data.find((s: { txn_id: string }) => s.txn_id === 'p1-sdk-0');
    expect(aView.patient_id).toBe(p1);
    // A's transaction through B's token: not found, in the status route's shape.
    const status = await call(srv.baseUrl, 'GET', '/voice/api/v3/status/p1-pending', { headers: bearer(b.users.doctor.auth_token) });
    expect(status.status).toBe(400);
    expect(status.json.error.code).toBe('transaction_not_found');
    // A cursor from A's pages gives B only B's sessions older than it (none): the cursor is a position, not a grant.
    const cursor = (await list(a.users.doctor.auth_token, '?limit=1')).json.next_cursor;
    expect((await list(b.users.doctor.auth_token, `?cursor=${encodeURIComponent(cursor)}`)).json.data.every((s: { txn_id: string }) => s.txn_id === 'p1-sdk-0')).toBe(true);
  });

  it('API clients with the scribe scope list too (client credentials)', async () => {
    const login = await call(srv.baseUrl, 'POST', '/connect-auth/v1/account/login', { body: { client_id: a.client_id, client_secret: a.client_secret, api_key: a.api_key } });
    expect(login.status).toBe(200);
    const r = await list(login.json.access_token, `?patient_id=${p2}`);
    expect(r.status).toBe(200);
    expect(r.json.data).toHaveLength(2);
  });

  it('401 without a token, 403 without the scribe scope, in the scribe shapes', async () => {
    const none = await call(srv.baseUrl, 'GET', '/voice/api/v2/sessions');
    expect(none.status).toBe(401);
    expect(none.json).toEqual({ error: 'Unauthorized', message: 'Invalid or missing authentication token' });
    const forged = await list('not-a-token');
    expect(forged.status).toBe(401);
    const reception = await list(a.users.reception.auth_token);
    expect(reception.status).toBe(403);
    expect(reception.json).toEqual({ error: expect.stringMatching(/scribe/), code: 'forbidden' });
  });

  it('400 {"error","code"} for a bad limit, status, patient_id or cursor', async () => {
    for (const q of ['?limit=0', '?limit=101', '?limit=abc', '?limit=2.5', '?limit=']) {
      const r = await list(a.users.doctor.auth_token, q);
      expect(r.status, q).toBe(400);
      expect(r.json, q).toEqual({ error: expect.stringContaining('querystring.limit'), code: 'INVALID_REQUEST' });
    }
    const status = await list(a.users.doctor.auth_token, '?status=done');
    expect(status.status).toBe(400);
    expect(status.json).toEqual({ error: expect.stringContaining('awaiting_init, queued, processing, completed, partial, failed'), code: 'INVALID_REQUEST' });
    expect((await list(a.users.doctor.auth_token, `?patient_id=${'x'.repeat(129)}`)).status).toBe(400);
    for (const cursor of ['nonsense', Buffer.from('["2026-01-01T00:00:00.000Z"]').toString('base64url'), Buffer.from('[1,2]').toString('base64url')]) {
      const r = await list(a.users.doctor.auth_token, `?cursor=${cursor}`);
      expect(r.status, cursor).toBe(400);
      expect(r.json).toEqual({ error: 'cursor must be the next_cursor of an earlier page, unchanged', code: 'invalid_cursor' });
    }
  });

  it("the app's upload (in-process) reports preparing, the bytes going in, then starting", () => {
    const size = readFileSync(audio).length;
    expect(appProgress[0]).toEqual({ phase: 'preparing', loaded: 0, total: size });
    const uploading = appProgress.slice(1, -1);
    expect(uploading.every((p) => p.phase === 'uploading' && p.loaded < p.total && p.total === size)).toBe(true);
    expect(appProgress.at(-1)).toEqual({ phase: 'starting', loaded: size, total: size });
  });

  it("the app's reader (in-process) turns the service's answer into the history it shows", async () => {
    const history = await app.scribeHistory(doctorWindow, p2);
    expect(history).toEqual({
      sessions: [
        { txn_id: 'p2-sidecar', created_at: expect.any(String), status: 'queued', stage: 'queued', percent: 0, patient_id: p2, templates: ['transcript_template'], errors: [], note_status: null, note_version: 0 },
        { txn_id: 'p2-upstream', created_at: expect.any(String), status: 'queued', stage: 'queued', percent: 0, patient_id: p2, templates: ['transcript_template'], errors: [], note_status: null, note_version: 0 },
      ],
      next_cursor: null,
    });
    expect(await app.scribeHistory(deskWindow, p2).catch(toFailure)).toMatchObject({ status: 403 });
  });

  it("the app's history pages through older sessions by cursor, none twice, none missed", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await scribeHistory(sdkA, p1, cursor, 2);
      expect(page.sessions.length).toBeLessThanOrEqual(2);
      seen.push(...page.sessions.map((s) => s.txn_id));
      cursor = page.next_cursor ?? undefined;
      pages += 1;
    } while (cursor);
    const all = (await list(a.users.doctor.auth_token, `?patient_id=${p1}&limit=100`)).json.data.map((x: { txn_id: string }) => x.txn_id);
    expect(all.length).toBeGreaterThan(4);
    expect(pages).toBe(Math.ceil(all.length / 2));
    expect(seen).toEqual(all);
    // The IPC path passes the cursor on: main's reader (a page of 20) continues where the browser's pages left off.
    const first = await scribeHistory(sdkA, p1, undefined, 2);
    const second = await app.scribeHistory(doctorWindow, p1, first.next_cursor!);
    expect(second.sessions.map((s) => s.txn_id)[0]).toBe(seen[2]);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await call(srv.baseUrl, 'GET', '/openapi.json')).json;
    const op = doc.paths['/voice/api/v2/sessions'].get;
    expect(op.operationId).toBe('scribeSessions');
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['cursor', 'limit', 'order', 'patient_id', 'status']);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403']));
  });
});

describe('a failed session in the list', skipFor(missing('pocketsphinx', 'ffmpeg')), () => {
  let live: ScribeServer;
  let liveDir: string;
  beforeAll(async () => {
    liveDir = tempDir('scribe-history-live');
    live = await startScribeServer({ push: { sender: false } });
  });
  afterAll(async () => {
    await live?.close();
    rmSync(liveDir, { recursive: true, force: true });
  });

  it('shows status failed, stage failed and why, after the real pipeline refused silence', async () => {
    const ws = live.demo.workspaces[0]!;
    const patient = ws.patients[2]!.patient_id;
    const sdk = new ScribeClient({ baseUrl: live.baseUrl, auth: ws.users.doctor.auth_token });
    await sdk.upload([silenceWav(liveDir, 'quiet.wav', 2)], { txnId: 'silent-1', extraData: { patient_id: patient } });
    const path = `/voice/api/v2/sessions?patient_id=${patient}&status=failed`;
    const failed = await until(async () => (await call(live.baseUrl, 'GET', path, { headers: bearer(ws.users.doctor.auth_token) })).json.data[0], 'the session to fail', 60_000, 250);
    expect(failed).toMatchObject({ txn_id: 'silent-1', status: 'failed', stage: 'failed', percent: 100, patient_id: patient });
    expect(failed.errors.join(' ')).toMatch(/No speech detected in "quiet\.wav"/);
    expect(Date.parse(failed.updated_at)).toBeGreaterThan(Date.parse(failed.created_at));
  }, 90_000);
});

describe('migration 0007', () => {
  it('records the patient of sessions made before it, from additional_data or extra_data', () => {
    const mdir = tempDir('scribe-history-migrate');
    try {
      const db = openDatabase({ file: join(mdir, 'clinic.db'), migrate: false });
      migrate(db, migrations.filter((m) => m.version < 7));
      db.pragma('foreign_keys = OFF');
      const insert = db.prepare(`INSERT INTO scribe_sessions (id, workspace_id, txn_id, action, folder_path, extra_data, created_by_type, created_by,
        status, additional_data, created_at, updated_at) VALUES (?, 'ws', ?, 'scribe-v2', 'f/', ?, 'user', 'u', ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`);
      insert.run('s1', 't1', '{"patient_id":"from-extra"}', 'queued', '{"patient_id":" from-additional "}');
      insert.run('s2', 't2', '{"patient_id":"from-extra"}', 'uploading', null);
      insert.run('s3', 't3', '{"patient_id":42}', 'queued', '{}');
      insert.run('s4', 't4', '{}', 'queued', `{"patient_id":"${'x'.repeat(129)}"}`);
      migrate(db, migrations.filter((m) => m.version <= 7));
      expect(db.prepare('SELECT id, patient_id FROM scribe_sessions ORDER BY id').all()).toEqual([
        { id: 's1', patient_id: 'from-additional' }, { id: 's2', patient_id: 'from-extra' }, { id: 's3', patient_id: null }, { id: 's4', patient_id: null },
      ]);
      const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('; ');
      expect(plan(`SELECT * FROM scribe_sessions WHERE workspace_id = 'ws' AND patient_id = 'p' AND (created_at, txn_id) < ('z', 'z')
        ORDER BY created_at DESC, txn_id DESC LIMIT 21`)).toMatch(/USING INDEX scribe_sessions_patient/);
      expect(plan(`SELECT * FROM scribe_sessions WHERE workspace_id = 'ws' ORDER BY created_at DESC, txn_id DESC LIMIT 21`))
        .toMatch(/USING INDEX scribe_sessions_recent/);
      db.close();
    } finally {
      rmSync(mdir, { recursive: true, force: true });
    }
  });
});
