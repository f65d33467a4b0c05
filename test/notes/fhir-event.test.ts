import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bundle, Composition } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DictationOptions } from '../../preload/contract.js';
import { uploadDictation } from '../../preload/scribe-flow.js';
import { ScribeClient } from '../../sdk/scribe-client.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { documentProblems, errorsOf } from '../helpers/fhir-validation.js';
import { missing } from '../helpers/needs.js';
import { call, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, startScribeServer, until, webhookReceiver } from '../helpers/scribe.js';
import { speak } from '../helpers/speech-audio.js';

/**
 * Issue 15 follow-ups over HTTP against the real service, on one dictation through the real scribe:
 * - a scribe EMR that breaks the notes' schema (a dose 653 times a day) stays the session's draft: readable, and
 *   refused with a 400 naming the field when signed as it is or saved unchanged; corrected, it signs;
 * - the `fhir` option of a webhook subscription: its note.signed and note.amended events carry the note's FHIR
 *   bundle, the same document GET /api/v1/notes/{txn_id}/fhir answers and valid against the R4 definitions; a
 *   subscription without it gets the event as before; both signed with their own key.
 */

const skip = missing('espeak-ng', 'pocketsphinx', 'ffmpeg');
// No number next to another: the recogniser would run "six fifty" and "three times" into one.
const SAID = 'The patient has fever for two days. Tablet paracetamol. Take it twice daily after food for three days. Review after one week.';
const OPTIONS: DictationOptions = { templates: ['service_emr_template'], language: 'en-IN', mode: 'dictation', model_type: 'pro', codify: true };
const SUBS = '/notification/v1/connect/webhook/subscriptions';
const NOTE_EVENTS = ['note.signed', 'note.amended'];

type J = any;
const decode = (value: string) => JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as J;
const encode = (json: unknown) => Buffer.from(JSON.stringify(json), 'utf8').toString('base64');

describe('notes: a draft out of the schema, and the fhir option of note events', skipFor(skip), () => {
  let srv: ScribeServer;
  let A: DemoWorkspace;
  let withFhir: Awaited<ReturnType<typeof webhookReceiver>>;
  let plain: Awaited<ReturnType<typeof webhookReceiver>>;
  let txn: string;
  let apptId: string;
  let fhirSub: string;
  let plainSub: string;

  const api = (method: string, path: string, token: string, body?: unknown) => call(srv.baseUrl, method, path, { headers: { authorization: `Bearer ${token}` }, body });
  const doctor = () => A.users.doctor.auth_token;
  const admin = () => A.users.admin.auth_token;
  const keepAll = (emr: J) => ((emr.flags ?? []) as J[]).map((f) => ({ code: f.code, pointer: f.pointer, resolution: 'kept' }));

  beforeAll(async () => {
    srv = await startScribeServer({ speechModel: true });
    A = srv.demo.workspaces[0]!;
    withFhir = await webhookReceiver('whsec_fhir_events');
    plain = await webhookReceiver('whsec_plain_events');
    const a = await api('POST', SUBS, admin(), { event_names: NOTE_EVENTS, endpoint: withFhir.url, signing_key: 'whsec_fhir_events', fhir: true });
    const b = await api('POST', SUBS, admin(), { event_names: NOTE_EVENTS, endpoint: plain.url, signing_key: 'whsec_plain_events' });
    expect([a.status, b.status], `${a.text} ${b.text}`).toStrictEqual([201, 201]);
    [fhirSub, plainSub] = [a.json.id, b.json.id];

    // What the document carries beyond the note: the doctor's profile, the clinic's address, the appointment.
    const me = (await api('GET', '/api/v1/me', doctor())).json.user;
    expect((await api('PUT', `/api/v1/users/${me.id}/profile`, doctor(), { qualification: 'MBBS, MD', registration_number: 'KMC 45678' })).status).toBe(200);
    expect((await api('PUT', '/api/v1/clinic', admin(), { address: '12 MG Road, Bengaluru 560001' })).status).toBe(200);
    const patientId = A.patients[0]!.patient_id;
    const booked = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
      headers: { auth: doctor() }, // overbook: the demo's own appointments for today may overlap now, whatever the time of day.
      body: { patient_id: patientId, scheduled_at: new Date().toISOString(), doctor_id: me.id, overbook: true },
    });
    expect(booked.status, booked.text).toBe(201);
    apptId = booked.json.data.appointment_id;

    const wav = join(tempDir('notes-fhir'), 'dictation.wav');
    await speak(SAID, wav);
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: doctor() });
    const rec = { id: 'notes-fhir-1', mime_type: 'audio/wav', patient_id: patientId, appointment_id: apptId };
    ({ txn_id: txn } = await uploadDictation(client, rec, new Blob([readFileSync(wav)]), OPTIONS, () => undefined));
    await client.waitForSession(txn, { intervalMs: 250, timeoutMs: 120_000 });
  }, 300_000);
  afterAll(async () => {
    await withFhir?.close();
    await plain?.close();
    await srv?.close();
  });

  it('lists fhir: true on the subscription that asked for it only, and refuses fhir without a note event', async () => {
    const list = (await api('GET', SUBS, admin())).json.data as J[];
    expect(list.find((s) => s.id === fhirSub).fhir).toBe(true);
    expect(Object.keys(list.find((s) => s.id === plainSub))).not.toContain('fhir');
    const r = await api('POST', SUBS, admin(), { event_names: ['v2rx.completed'], endpoint: 'https://hooks.example.com/x', fhir: true });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.message).toMatch(/fhir applies to note\.signed and note\.amended/);
  });

  it("keeps a scribe draft whose EMR breaks the schema (653 a day) as the draft, and refuses to sign or save it as it is, naming the field", async () => {
    // The scribe's output as it would be if the structurer had heard 653 doses a day: rewritten in the session's row.
    const row = (await srv.service.scribe.session(A.workspace_id, txn))!;
    const output = JSON.parse(row.output!) as J[];
    const entry = output.find((o) => o.template_id === 'service_emr_template');
    const emr = decode(entry.value);
    expect(emr.medications.length, JSON.stringify(emr.medications)).toBeGreaterThan(0);
    const med = emr.medications[0];
    med.frequency = { as_needed: false, text: '653 times a day', ...med.frequency, per_day: 653 };
    entry.value = encode(emr);
    srv.service.db.prepare('UPDATE scribe_sessions SET output = ? WHERE id = ?').run(JSON.stringify(output), row.id);

    const draft = await api('GET', `/api/v1/notes/${txn}/draft`, doctor());
    expect(draft.status, draft.text).toBe(200);
    expect(draft.json).toMatchObject({ edited: false, status: 'draft' });
    expect(draft.json.emr.medications[0].frequency.per_day).toBe(653);
    expect((await api('GET', `/api/v1/notes/${txn}/versions/draft`, doctor())).json.emr).toStrictEqual(emr);
    expect((await api('GET', `/api/v1/notes/${txn}/versions`, doctor())).json.versions.map((v: J) => v.version)).toStrictEqual([0]);

    const sign = await api('POST', `/api/v1/notes/${txn}/sign`, doctor(), { flag_resolutions: keepAll(emr) });
    expect(sign.status, sign.text).toBe(400);
    expect(sign.json).toStrictEqual({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining('emr.medications.0.frequency.per_day must be at most 48') } });
    const save = await api('PUT', `/api/v1/notes/${txn}/draft`, doctor(), { emr, flag_resolutions: keepAll(emr) });
    expect(save.status, save.text).toBe(400);
    expect(save.json.error.message).toMatch(/^body\.emr\.medications\.0\.frequency\.per_day must be at most 48/);
    expect((await api('GET', `/api/v1/notes/${txn}/versions`, doctor())).json.latest_version).toBe(0);

    // Corrected by the doctor, the same draft signs.
    med.frequency.per_day = 2;
    const saved = await api('PUT', `/api/v1/notes/${txn}/draft`, doctor(), { emr, flag_resolutions: keepAll(emr) });
    expect(saved.status, saved.text).toBe(200);
    const signed = await api('POST', `/api/v1/notes/${txn}/sign`, doctor(), {});
    expect(signed.status, signed.text).toBe(201);
    expect(signed.json.emr.medications[0].frequency.per_day).toBe(2);
  });

  it('sends note.signed with the FHIR bundle the export route gives, valid, to the fhir subscription only; both signed', async () => {
    const [event] = await until(() => (withFhir.deliveries.length >= 1 ? withFhir.deliveries : null), 'note.signed with fhir', 20_000);
    const [bare] = await until(() => (plain.deliveries.length >= 1 ? plain.deliveries : null), 'note.signed without fhir', 20_000);
    expect([event!.verified, bare!.verified]).toStrictEqual([true, true]);
    expect([event!.body.event, bare!.body.event]).toStrictEqual(['note.signed', 'note.signed']);
    // Two events, each with its own Webhook-Id: the same data, and the bundle only where it was asked for.
    expect(event!.headers['webhook-id']).not.toBe(bare!.headers['webhook-id']);
    const { fhir, ...data } = event!.body.data;
    expect(data).toStrictEqual(bare!.body.data);
    expect(bare!.body.data).not.toHaveProperty('fhir');
    expect(data).toMatchObject({ session_id: txn, version: 1, appointment_id: apptId });

    const exported = await api('GET', `/api/v1/notes/${txn}/fhir`, doctor());
    expect(exported.status, exported.text).toBe(200);
    expect(fhir).toStrictEqual(exported.json);
    const bundle = fhir as Bundle;
    expect(errorsOf(bundle)).toEqual([]);
    expect(documentProblems(bundle)).toEqual([]);
    expect(bundle.entry!.map((e) => e.resource!.resourceType)).toEqual(expect.arrayContaining(['Practitioner', 'Organization', 'Encounter', 'MedicationRequest']));
  });

  it('sends note.amended with the amendment\'s bundle, which replaces the signed one', async () => {
    const v1 = (await api('GET', `/api/v1/notes/${txn}/versions/1`, doctor())).json;
    const emr = structuredClone(v1.emr);
    emr.advice = [...emr.advice, 'plenty of oral fluids'];
    const amended = await api('POST', `/api/v1/notes/${txn}/amendments`, doctor(), { emr, reason: 'Advice left out when dictating' });
    expect(amended.status, amended.text).toBe(201);

    const got = await until(() => withFhir.deliveries.find((d) => d.body.event === 'note.amended'), 'note.amended with fhir', 20_000);
    const bare = await until(() => plain.deliveries.find((d) => d.body.event === 'note.amended'), 'note.amended without fhir', 20_000);
    expect([got.verified, bare.verified]).toStrictEqual([true, true]);
    expect(bare.body.data).not.toHaveProperty('fhir');
    expect(got.body.data).toMatchObject({ version: 2, reason: 'Advice left out when dictating' });
    const exported = await api('GET', `/api/v1/notes/${txn}/fhir`, doctor());
    expect(got.body.data.fhir).toStrictEqual(exported.json);
    const composition = (got.body.data.fhir as Bundle).entry![0]!.resource as Composition;
    expect(composition.status).toBe('amended');
    const first = withFhir.deliveries.find((d) => d.body.event === 'note.signed')!.body.data.fhir as Bundle;
    expect(composition.relatesTo).toStrictEqual([expect.objectContaining({ code: 'replaces' })]);
    expect(JSON.stringify(composition.relatesTo)).toContain(first.identifier!.value!);
    expect(errorsOf(got.body.data.fhir)).toEqual([]);
  });
});
