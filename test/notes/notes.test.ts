import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DictationOptions } from '../../preload/contract.js';
import { uploadDictation } from '../../preload/scribe-flow.js';
import { ScribeClient } from '../../sdk/scribe-client.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { missing } from '../helpers/needs.js';
import { DATABASES, freshPostgresDatabase } from '../helpers/postgres.js';
import { call, tempDir } from '../helpers/server.js';
import { rowsOf } from '../helpers/service.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, startScribeServer, until, webhookReceiver } from '../helpers/scribe.js';
import { speak } from '../helpers/speech-audio.js';

/**
 * Issue 15, item 2 over HTTP against the real service: a dictation spoken by espeak-ng runs through the real scribe
 * (with a wrong unit, so the scribe raises a safety flag), then the doctor edits the draft, resolves the flag, signs
 * and amends it. Who may sign, another clinic's session, a second sign, the reason of an amendment, the versions,
 * the scribe status serving the signed note while the draft stays readable, the appointment completed, the audit
 * trail, note.signed and note.amended delivered signed to a local receiver, and the history listing signed notes first.
 */

const skip = missing('espeak-ng', 'pocketsphinx', 'ffmpeg');
const SAID = 'The patient has fever for two days. Tablet paracetamol six fifty grams twice daily for three days.';
const OPTIONS: DictationOptions = {
  templates: ['clinical_notes_template', 'service_emr_template', 'transcript_template'], language: 'en-IN', mode: 'dictation', model_type: 'pro', codify: true,
};
const SUBS = '/notification/v1/connect/webhook/subscriptions';
const KEY = 'whsec_notes_test';

type J = any;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const decode = (entry: { value: string }) => JSON.parse(Buffer.from(entry.value, 'base64').toString('utf8')) as J;

for (const db of DATABASES) describe(`notes: edit, sign, amend (${db.name})`, skipFor(skip ?? db.skip), () => {
  let srv: ScribeServer;
  let pg: Awaited<ReturnType<typeof freshPostgresDatabase>> | null = null;
  let A: DemoWorkspace;
  let B: DemoWorkspace;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let patientId: string;
  let doctorId: string;
  let apptId: string;
  /** The signed session, and an older-looking one left as a draft. */
  let txn: string;
  let draftTxn: string;
  let aiOutput: J[];
  let ai: J;

  const api = (method: string, path: string, token: string, body?: unknown) => call(srv.baseUrl, method, path, { headers: bearer(token), body });
  const doctor = () => A.users.doctor.auth_token;
  const status = (t: string, query = '') => api('GET', `/voice/api/v3/status/${t}${query}`, doctor());
  const out = (body: J, id: string) => body.data.output.find((o: J) => o.template_id === id);
  const paracetamol = (emr: J) => (emr.medications as J[]).findIndex((m) => m.name === 'paracetamol');

  async function dictate(client: ScribeClient, wav: Blob, recId: string) {
    const rec = { id: recId, mime_type: 'audio/wav', patient_id: patientId, appointment_id: apptId };
    const { txn_id } = await uploadDictation(client, rec, wav, OPTIONS, () => undefined);
    await client.waitForSession(txn_id, { intervalMs: 250, timeoutMs: 120_000 });
    return txn_id;
  }

  beforeAll(async () => {
    pg = db.name === 'postgres' ? await freshPostgresDatabase('notes') : null;
    srv = await startScribeServer({ databaseUrl: pg?.url, speechModel: true });
    [A, B] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
    receiver = await webhookReceiver(KEY);
    const sub = await api('POST', SUBS, A.users.admin.auth_token, { event_names: ['note.signed', 'note.amended'], endpoint: receiver.url, signing_key: KEY });
    expect(sub.status, sub.text).toBe(201);

    patientId = A.patients[0]!.patient_id;
    doctorId = (await api('GET', '/api/v1/me', doctor())).json.user.id;
    const booked = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
      // overbook: the demo's own appointments for today may overlap now, whatever the time of day.
      headers: { auth: doctor() }, body: { patient_id: patientId, scheduled_at: new Date().toISOString(), doctor_id: doctorId, overbook: true },
    });
    expect(booked.status, booked.text).toBe(201);
    apptId = booked.json.data.appointment_id;
    const started = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${apptId}/change-status?partner_id=0`, { headers: { auth: doctor() }, body: { status: 'OG' } });
    expect(started.status, started.text).toBe(200);

    const wav = join(tempDir('notes'), 'dictation.wav');
    await speak(SAID, wav);
    const audio = new Blob([readFileSync(wav)]);
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: doctor() });
    txn = await dictate(client, audio, 'notes-1');
    draftTxn = await dictate(client, audio, 'notes-2');
    const st = await status(txn);
    expect(st.status, st.text).toBe(200);
    aiOutput = st.json.data.output;
    ai = decode(out(st.json, 'service_emr_template'));
  }, 300_000);
  afterAll(async () => {
    await receiver?.close();
    await srv?.close();
    await pg?.drop();
  });

  it('the scribe raised a flag on the wrong unit: the premise of resolving one', () => {
    expect(paracetamol(ai), JSON.stringify(ai.medications)).toBeGreaterThanOrEqual(0);
    expect((ai.flags as J[]).map((f) => f.code)).toContain('DOSE_UNIT');
  });

  it('refuses to sign for reception (no scribe permission), an admin (not a doctor) and an API client: 403, nothing signed', async () => {
    const token = await call(srv.baseUrl, 'POST', '/api/v1/auth/token', {
      headers: { 'x-api-key': A.api_key }, body: { grant_type: 'client_credentials', client_id: A.client_id, client_secret: A.client_secret },
    });
    expect(token.status, token.text).toBe(200);
    expect(token.json.scope).toContain('scribe');
    for (const caller of [A.users.reception.auth_token, A.users.admin.auth_token, token.json.access_token as string]) {
      const r = await api('POST', `/api/v1/notes/${txn}/sign`, caller, {});
      expect(r.status, r.text).toBe(403);
      expect(r.json).toStrictEqual({ error: { code: 'FORBIDDEN', message: expect.any(String) } });
    }
    expect((await api('GET', `/api/v1/notes/${txn}/versions`, doctor())).json.latest_version).toBe(0);
  });

  it("answers 404 for another clinic's session, to its doctor, whatever the route", async () => {
    for (const [method, path] of [['POST', 'sign'], ['GET', 'versions'], ['GET', 'draft'], ['GET', 'versions/draft']] as const) {
      const r = await api(method, `/api/v1/notes/${txn}/${path}`, B.users.doctor.auth_token, method === 'POST' ? {} : undefined);
      expect(r.status, `${path}: ${r.text}`).toBe(404);
      expect(r.json.error.code).toBe('NOT_FOUND');
    }
  });

  it('refuses to sign while a safety flag is unresolved, naming it', async () => {
    const r = await api('POST', `/api/v1/notes/${txn}/sign`, doctor(), {});
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.code).toBe('FLAGS_UNRESOLVED');
    expect(r.json.error.message).toContain('DOSE_UNIT');
  });

  it("saves the doctor's edits as the working draft, with who resolved each flag and when; the scribe's draft is unchanged", async () => {
    const emr = structuredClone(ai);
    emr.medications[paracetamol(ai)].strength = { value: 650, unit: 'mg' };
    const resolutions = (ai.flags as J[]).map((f) => ({ code: f.code, pointer: f.pointer, resolution: f.code === 'DOSE_UNIT' ? 'edited' : 'kept' }));
    const saved = await api('PUT', `/api/v1/notes/${txn}/draft`, doctor(), { emr, flag_resolutions: resolutions });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toMatchObject({ txn_id: txn, status: 'draft', edited: true, updated_by: doctorId });
    expect(saved.json.emr.medications[paracetamol(ai)].strength).toStrictEqual({ value: 650, unit: 'mg' });
    expect(saved.json.flag_resolutions).toHaveLength(resolutions.length);
    for (const r of saved.json.flag_resolutions) expect(r).toMatchObject({ by: doctorId, at: expect.stringMatching(/Z$/) });

    const draft = await api('GET', `/api/v1/notes/${txn}/versions/draft`, doctor());
    expect(draft.status).toBe(200);
    expect(draft.json).toMatchObject({ version: 0, kind: 'draft', created_by: null });
    expect(draft.json.emr).toStrictEqual(ai);
    expect((await status(txn)).json.data.output).toStrictEqual(aiOutput);
  });

  it('signs as a doctor: version 1 from the working draft, flags resolved, the appointment completed, the status API serving it', async () => {
    const r = await api('POST', `/api/v1/notes/${txn}/sign`, doctor(), {});
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ txn_id: txn, version: 1, kind: 'signed', reason: null, created_by: doctorId, created_by_name: expect.any(String) });
    const signed = r.json.emr;
    expect(signed.medications[paracetamol(ai)].strength).toStrictEqual({ value: 650, unit: 'mg' });
    for (const f of signed.flags) expect(f).toMatchObject({ resolution: expect.stringMatching(/^(edited|kept)$/), resolved_by: doctorId });
    expect(signed.flags.find((f: J) => f.code === 'DOSE_UNIT').resolution).toBe('edited');

    const appt = await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${apptId}`, { headers: { auth: doctor() } });
    expect(appt.json.data.status).toBe('CM');

    const st = await status(txn);
    expect(st.status).toBe(200);
    expect(decode(out(st.json, 'service_emr_template'))).toStrictEqual(signed);
    const notes = decode(out(st.json, 'clinical_notes_template'));
    expect(notes.markdown).toMatch(/paracetamol 650 mg/);
    expect(notes.sections.map((s: J) => s.id)).not.toContain('checks');
    expect(out(st.json, 'transcript_template')).toStrictEqual(aiOutput.find((o) => o.template_id === 'transcript_template'));
    expect(st.json.data.additional_data.note).toStrictEqual({ status: 'signed', version: 1, latest_version: 1 });

    // The scribe's draft stays readable, exactly as it was produced.
    const draft = await status(txn, '?version=draft');
    expect(draft.json.data.output).toStrictEqual(aiOutput);
    expect(draft.json.data.additional_data.note).toStrictEqual({ status: 'signed', version: 0, latest_version: 1 });
  });

  it('refuses a second sign and further draft edits (409), and changes nothing', async () => {
    const again = await api('POST', `/api/v1/notes/${txn}/sign`, doctor(), {});
    expect(again.status, again.text).toBe(409);
    expect(again.json.error.code).toBe('ALREADY_SIGNED');
    const edit = await api('PUT', `/api/v1/notes/${txn}/draft`, doctor(), { emr: ai });
    expect(edit.status).toBe(409);
    expect((await api('GET', `/api/v1/notes/${txn}/versions`, doctor())).json.latest_version).toBe(1);
  });

  it('amends only with a reason (400 without), as a new version; the signed version stays as it was', async () => {
    const signed = (await api('GET', `/api/v1/notes/${txn}/versions/1`, doctor())).json.emr;
    const emr = structuredClone(signed);
    emr.advice = [...emr.advice, 'plenty of oral fluids'];
    for (const body of [{ emr }, { emr, reason: '' }, { emr, reason: '   ' }]) {
      const r = await api('POST', `/api/v1/notes/${txn}/amendments`, doctor(), body);
      expect(r.status, r.text).toBe(400);
    }
    const r = await api('POST', `/api/v1/notes/${txn}/amendments`, doctor(), { emr, reason: 'Advice left out when dictating' });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ version: 2, kind: 'amendment', reason: 'Advice left out when dictating', created_by: doctorId });
    expect(r.json.emr.advice).toContain('plenty of oral fluids');
    // The resolutions carry over with their first who and when.
    expect(r.json.emr.flags).toStrictEqual(signed.flags);

    const list = await api('GET', `/api/v1/notes/${txn}/versions`, doctor());
    expect(list.json).toMatchObject({ txn_id: txn, status: 'amended', latest_version: 2, patient_id: patientId, appointment_id: apptId });
    expect(list.json.versions.map((v: J) => [v.version, v.kind])).toStrictEqual([[0, 'draft'], [1, 'signed'], [2, 'amendment']]);
    expect((await api('GET', `/api/v1/notes/${txn}/versions/1`, doctor())).json.emr).toStrictEqual(signed);
    expect((await api('GET', `/api/v1/notes/${txn}/versions/latest`, doctor())).json.version).toBe(2);
    expect(decode(out((await status(txn)).json, 'service_emr_template')).advice).toContain('plenty of oral fluids');
    expect(decode(out((await status(txn, '?version=1')).json, 'service_emr_template'))).toStrictEqual(signed);
    expect((await status(txn, '?version=3')).status).toBe(400);
    // A note never signed cannot be amended.
    const early = await api('POST', `/api/v1/notes/${draftTxn}/amendments`, doctor(), { emr: ai, reason: 'x' });
    expect(early.status).toBe(409);
  });

  it('the audit log shows draft → signed → amended for the session', async () => {
    await srv.service.audit.flush();
    const id = (await srv.service.scribe.session(A.workspace_id, txn))!.id;
    const rows = await rowsOf<{ action: string; actor_id: string }>(srv.service, sql`SELECT action, actor_id FROM audit_log
      WHERE resource_type = 'note' AND outcome = 'success' AND resource_ids = ${JSON.stringify([id])} AND action <> 'note.read' ORDER BY id`);
    expect(rows.map((r) => r.action)).toStrictEqual(['note.draft.save', 'note.sign', 'note.amend']);
    expect(new Set(rows.map((r) => r.actor_id))).toStrictEqual(new Set([doctorId]));
  });

  it('delivers note.signed and note.amended, signed with the subscription key, with the session, patient, version and EMR JSON', async () => {
    const got = await until(() => (receiver.deliveries.length >= 2 ? receiver.deliveries : null), 'two note events', 20_000);
    const signed = got.find((d) => d.body.event === 'note.signed')!;
    const amended = got.find((d) => d.body.event === 'note.amended')!;
    for (const d of [signed, amended]) expect(d.verified).toBe(true);
    const v1 = (await api('GET', `/api/v1/notes/${txn}/versions/1`, doctor())).json;
    expect(signed.body.data).toStrictEqual({
      transaction_id: txn, session_id: txn, patient_id: patientId, appointment_id: apptId, version: 1,
      signed_by: doctorId, signed_at: v1.created_at, emr: v1.emr,
    });
    expect(amended.body.data).toMatchObject({ session_id: txn, version: 2, reason: 'Advice left out when dictating' });
  });

  it('lists the patient\'s signed notes first with order=signed_first, drafts marked as drafts; newest first by default', async () => {
    const q = `/voice/api/v2/sessions?patient_id=${patientId}`;
    const first = await api('GET', `${q}&order=signed_first`, doctor());
    expect(first.status, first.text).toBe(200);
    expect(first.json.data.map((s: J) => [s.txn_id, s.note_status, s.note_version])).toStrictEqual([[txn, 'amended', 2], [draftTxn, 'draft', 0]]);
    const newest = await api('GET', q, doctor());
    expect(newest.json.data.map((s: J) => s.txn_id)).toStrictEqual([draftTxn, txn]);
    // Pages of one follow the same order across the two parts.
    const p1 = await api('GET', `${q}&order=signed_first&limit=1`, doctor());
    const p2 = await api('GET', `${q}&order=signed_first&limit=1&cursor=${p1.json.next_cursor}`, doctor());
    expect([p1.json.data[0].txn_id, p2.json.data[0].txn_id, p2.json.next_cursor]).toStrictEqual([txn, draftTxn, null]);
  });

  it("sets the doctor's qualification and registration number (themself or an admin) and the clinic's address, under the text rules", async () => {
    const path = `/api/v1/users/${doctorId}/profile`;
    const own = await api('PUT', path, doctor(), { qualification: 'MBBS, MD (General Medicine)' });
    expect(own.status, own.text).toBe(200);
    expect(own.json).toMatchObject({ id: doctorId, role: 'doctor', qualification: 'MBBS, MD (General Medicine)', registration_number: null });
    const byAdmin = await api('PUT', path, A.users.admin.auth_token, { registration_number: 'KMC 12345' });
    expect(byAdmin.json).toMatchObject({ qualification: 'MBBS, MD (General Medicine)', registration_number: 'KMC 12345' });
    expect((await api('PUT', path, A.users.reception.auth_token, { registration_number: 'X' })).status).toBe(403);
    expect((await api('PUT', path, B.users.admin.auth_token, { registration_number: 'X' })).status).toBe(404);
    const bidi = await api('PUT', path, doctor(), { registration_number: 'KMC\u202E54321' });
    expect(bidi.status).toBe(400);
    expect(bidi.json.error.message).toMatch(/registration_number/);
    expect((await api('GET', path, doctor())).json.registration_number).toBe('KMC 12345');

    expect((await api('PUT', '/api/v1/clinic', doctor(), { address: '12 MG Road\nBengaluru 560001' })).status).toBe(403);
    const clinic = await api('PUT', '/api/v1/clinic', A.users.admin.auth_token, { address: '12 MG Road\nBengaluru 560001' });
    expect(clinic.status, clinic.text).toBe(200);
    expect((await api('GET', '/api/v1/clinic', A.users.reception.auth_token)).json).toStrictEqual({ id: A.workspace_id, name: A.name, address: '12 MG Road\nBengaluru 560001' });
  });
});
