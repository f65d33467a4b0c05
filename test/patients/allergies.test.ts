import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DictationOptions } from '../../preload/contract.js';
import { uploadDictation } from '../../preload/scribe-flow.js';
import { ScribeClient } from '../../sdk/scribe-client.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { auth, expectDrError, expectDrOk } from '../helpers/dr.js';
import { missing } from '../helpers/needs.js';
import { type RunningServer, call, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, startScribeServer } from '../helpers/scribe.js';
import { speak } from '../helpers/speech-audio.js';

/**
 * Issue 12 item 2, the patient's record: allergies stored on the patient (migration 13), returned on every profile
 * entry, refused in words when malformed; and a dictation for that patient, spoken by espeak-ng through the real
 * scribe, gets ALLERGY_CONFLICT from the record when it prescribes a drug of the allergic class, while the same
 * dictation for a patient without the allergy (or naming another clinic's patient) does not.
 */

type J = any;
let seq = 0;
/** A 10-digit Indian mobile the demo clinics do not use (they use 98765… and 91234…). */
const freshMobile = () => `72${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(5, '0')}`;
const person = (first: string, extra: Record<string, unknown> = {}) => ({
  first_name: first, last_name: `Allergy${seq}`, dob: '1984-03-09', gender: 'F', mobile: freshMobile(), ...extra,
});

describe('patient record: allergies', () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  const token = () => A.users.reception.auth_token;
  const create = (body: unknown) => call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers: auth(token()), body });
  const patch = (id: string, body: unknown) => call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${id}`, { headers: auth(token()), body });
  const get = async (id: string) => expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${id}`, { headers: auth(token()) }), 200);

  beforeAll(async () => {
    srv = await startServer();
    A = srv.demo.workspaces[0]!;
  });
  afterAll(async () => srv?.close());

  it('stores them trimmed and each once, and returns them on create, read and search', async () => {
    const body = person('Asha', { allergies: [' penicillin ', 'Sulfa drugs (rash)', 'Penicillin'] });
    const made = expectDrOk(await create(body), 201);
    expect(made.patient_profile.allergies).toStrictEqual(['penicillin', 'Sulfa drugs (rash)']);
    expect((await get(made.patient_id)).patient_profile.allergies).toStrictEqual(['penicillin', 'Sulfa drugs (rash)']);
    const found = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${body.mobile}`, { headers: auth(token()) }), 200);
    expect(found.profiles.map((p: J) => p.patient_profile.allergies)).toStrictEqual([['penicillin', 'Sulfa drugs (rash)']]);
    const row = srv.service.db.prepare('SELECT allergies FROM patients WHERE id = ?').get(made.patient_id) as { allergies: string };
    expect(JSON.parse(row.allergies)).toStrictEqual(['penicillin', 'Sulfa drugs (rash)']);
  });

  it('has none recorded ([]) when registration leaves them out; a PATCH replaces the list, [] clears it, other fields keep it', async () => {
    const made = expectDrOk(await create(person('Bina')), 201);
    expect(made.patient_profile.allergies).toStrictEqual([]);
    const set = expectDrOk(await patch(made.patient_id, { allergies: ['ibuprofen', 'codeine'] }), 200);
    expect(set.patient_profile.allergies).toStrictEqual(['ibuprofen', 'codeine']);
    const renamed = expectDrOk(await patch(made.patient_id, { first_name: 'Binita' }), 200);
    expect(renamed.patient_profile).toMatchObject({ first_name: 'Binita', allergies: ['ibuprofen', 'codeine'] });
    expect(expectDrOk(await patch(made.patient_id, { allergies: [] }), 200).patient_profile.allergies).toStrictEqual([]);
    expect((await get(made.patient_id)).patient_profile.allergies).toStrictEqual([]);
  });

  it('refuses malformed lists with 400 INVALID_REQUEST naming the field, and changes nothing', async () => {
    const made = expectDrOk(await create(person('Chitra', { allergies: ['aspirin'] })), 201);
    const line = /^body\.allergies\.0 must .*be one line without control characters/;
    const cases: [unknown, RegExp][] = [
      [['peni\u0000cillin'], line],
      [['penicillin\nsulfa'], line],
      [['\u202Enillicinep'], line],
      [['   '], /^body\.allergies\.0 must not be blank/],
      [['x'.repeat(101)], /^body\.allergies\.0 must be at most 100 characters/],
      [[''], /^body\.allergies\.0 must /],
      [Array.from({ length: 21 }, (_, i) => `drug ${i}`), /^body\.allergies must have at most 20 items/],
      ['penicillin', /^body\.allergies must be /],
    ];
    for (const [allergies, message] of cases) {
      expectDrError(await patch(made.patient_id, { allergies }), 400, 'INVALID_REQUEST', message);
      expectDrError(await create(person('Chitra', { allergies })), 400, 'INVALID_REQUEST', message);
    }
    expect((await get(made.patient_id)).patient_profile.allergies).toStrictEqual(['aspirin']);
    const twenty = Array.from({ length: 20 }, (_, i) => `drug ${i}`);
    expect(expectDrOk(await patch(made.patient_id, { allergies: twenty }), 200).patient_profile.allergies).toStrictEqual(twenty);
  });
});

const skip = missing('espeak-ng', 'pocketsphinx', 'ffmpeg');
const SAID = 'Sore throat and fever for three days. Tablet amoxicillin five hundred milligrams three times a day for five days.';
const OPTIONS: DictationOptions = {
  templates: ['service_emr_template'], language: 'en-IN', mode: 'dictation', model_type: 'pro', codify: false,
};

describe('a dictation for a patient checks the record\'s allergies', skipFor(skip), () => {
  let srv: ScribeServer;
  let A: DemoWorkspace;
  let B: DemoWorkspace;
  let audio: Blob;
  const register = async (ws: DemoWorkspace, first: string, allergies?: string[]) => expectDrOk(await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
    headers: auth(ws.users.reception.auth_token), body: person(first, allergies ? { allergies } : {}),
  }), 201).patient_id as string;

  /** The status of a dictation of SAID filed under `patientId` by A's doctor, once it has ended. */
  async function dictation(patientId: string) {
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: A.users.doctor.auth_token });
    const { txn_id } = await uploadDictation(client, { id: `allergy-${patientId}`, mime_type: 'audio/wav', patient_id: patientId }, audio, OPTIONS, () => undefined);
    await client.waitForSession(txn_id, { intervalMs: 100, timeoutMs: 120_000 });
    return call(srv.baseUrl, 'GET', `/voice/api/v3/status/${txn_id}`, { headers: { authorization: `Bearer ${A.users.doctor.auth_token}` } });
  }

  /**
   * The three patients' dictations: independent sessions, so all are uploaded in beforeAll and transcribed side by side
   * (the server's scribe runs three at once); each test awaits its own (a failure is that test's: the rejection is
   * held, not left unhandled, until then).
   */
  let sessions: Record<'penicillin' | 'latex' | 'otherClinic', Promise<Awaited<ReturnType<typeof dictation>>>>;

  /** The EMR template and its warnings of one of them. */
  async function dictate(session: keyof typeof sessions) {
    const st = await sessions[session];
    expect(st.status, st.text).toBe(200);
    const entry = st.json.data.output.find((o: J) => o.template_id === 'service_emr_template');
    const emr = JSON.parse(Buffer.from(entry.value, 'base64').toString('utf8')) as J;
    const amoxicillin = (emr.medications as J[]).findIndex((m) => m.name === 'amoxicillin');
    // The premise of every check below: the drug was heard, and the note itself states no allergy.
    expect(amoxicillin, JSON.stringify(emr.medications)).toBeGreaterThanOrEqual(0);
    expect(emr.history.allergies).toStrictEqual([]);
    return { emr, warnings: entry.warnings as string[], pointer: `/medications/${amoxicillin}` };
  }

  beforeAll(async () => {
    srv = await startScribeServer({ speechModel: true, scribe: { concurrency: 3 } });
    [A, B] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
    const wav = join(tempDir('allergies'), 'dictation.wav');
    await speak(SAID, wav);
    audio = new Blob([readFileSync(wav)]);
    const [penicillin, latex, otherClinic] = await Promise.all([register(A, 'Deepa', ['Penicillin']), register(A, 'Esha', ['latex']), register(B, 'Farah', ['penicillin'])]);
    sessions = { penicillin: dictation(penicillin), latex: dictation(latex), otherClinic: dictation(otherClinic) };
    for (const s of Object.values(sessions)) s.catch(() => undefined);
  }, 60_000);
  afterAll(async () => srv?.close());

  it('flags amoxicillin for a patient whose record lists penicillin, naming the record', async () => {
    const { emr, warnings, pointer } = await dictate('penicillin');
    const flags = (emr.flags as J[]).filter((f) => f.code === 'ALLERGY_CONFLICT');
    expect(flags).toStrictEqual([{ code: 'ALLERGY_CONFLICT', pointer, message: expect.stringContaining("allergy to Penicillin in the patient's record (penicillin class)") }]);
    expect(warnings).toContain(`ALLERGY_CONFLICT ${pointer}: ${flags[0].message}`);
  }, 180_000);

  it('raises no allergy flag for the same dictation for a patient without the allergy', async () => {
    const { emr, warnings } = await dictate('latex');
    expect((emr.flags as J[]).map((f) => f.code)).not.toContain('ALLERGY_CONFLICT');
    expect(warnings.join('\n')).not.toContain('ALLERGY_CONFLICT');
  }, 180_000);

  it("does not read another clinic's patient named by id", async () => {
    const { emr } = await dictate('otherClinic');
    expect((emr.flags as J[]).map((f) => f.code)).not.toContain('ALLERGY_CONFLICT');
  }, 180_000);
});
