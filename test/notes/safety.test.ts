import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DictationOptions } from '../../preload/contract.js';
import { uploadDictation } from '../../preload/scribe-flow.js';
import { ScribeClient } from '../../sdk/scribe-client.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { auth, bearer, expectDrOk } from '../helpers/dr.js';
import { missing } from '../helpers/needs.js';
import { call, tempDir } from '../helpers/server.js';
import { rowsOf } from '../helpers/service.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, startScribeServer } from '../helpers/scribe.js';
import { speak } from '../helpers/speech-audio.js';

/**
 * Issue 24, items 1-3, over HTTP against the real service: a dictation of amoxicillin for a patient whose record
 * lists penicillin comes back with the scribe's allergy flag. A save re-runs the scribe's checks on the whole note:
 * a new strength does not clear the allergy flag, another drug does; a drug the doctor adds (ampicillin), or an
 * implausible dose, is flagged on the draft and blocks signing and amending; keeping an allergy conflict as it is
 * needs a reason, which the signed version keeps and the audit log records.
 */
const skip = missing('espeak-ng', 'pocketsphinx', 'ffmpeg');
const SAID = 'Sore throat and fever for three days. Tablet amoxicillin five hundred milligrams three times a day for five days.';
const OPTIONS: DictationOptions = { templates: ['service_emr_template'], language: 'en-IN', mode: 'dictation', model_type: 'pro', codify: false };

type J = any;

describe('notes: the scribe\'s safety checks on every save', skipFor(skip), () => {
  let srv: ScribeServer;
  let A: DemoWorkspace;
  let audio: Blob;
  let patientId: string;
  let doctorId: string;

  const doctor = () => A.users.doctor.auth_token;
  const api = (method: string, path: string, body?: unknown) => call(srv.baseUrl, method, path, { headers: bearer(doctor()), body });
  const open = (emr: J) => (emr.flags as J[]).filter((f) => !f.resolution);

  /** A finished dictation of SAID for the penicillin-allergic patient: its transaction, scribe's EMR and amoxicillin's place. */
  async function dictate(id: string) {
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: doctor() });
    const { txn_id } = await uploadDictation(client, { id, mime_type: 'audio/wav', patient_id: patientId }, audio, OPTIONS, () => undefined);
    await client.waitForSession(txn_id, { intervalMs: 250, timeoutMs: 120_000 });
    const ai = (await api('GET', `/api/v1/notes/${txn_id}/draft`)).json.emr as J;
    const i = (ai.medications as J[]).findIndex((m) => m.name === 'amoxicillin');
    expect(i, JSON.stringify(ai.medications)).toBeGreaterThanOrEqual(0);
    const flag = (ai.flags as J[]).find((f) => f.code === 'ALLERGY_CONFLICT');
    expect(flag, JSON.stringify(ai.flags)).toMatchObject({ pointer: `/medications/${i}` });
    // Every other flag the scribe raised is kept, so that only the allergy is left to the test.
    const others = (ai.flags as J[]).filter((f) => f !== flag).map((f) => ({ code: f.code, pointer: f.pointer, resolution: 'kept', reason: 'checked' }));
    return { txn: txn_id, ai, i, flag, others };
  }

  beforeAll(async () => {
    srv = await startScribeServer({ speechModel: true });
    [A] = srv.demo.workspaces as [DemoWorkspace];
    const wav = join(tempDir('notes-safety'), 'dictation.wav');
    await speak(SAID, wav);
    audio = new Blob([readFileSync(wav)]);
    doctorId = (await api('GET', '/api/v1/me')).json.user.id;
    patientId = expectDrOk(await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
      headers: auth(A.users.reception.auth_token),
      body: { first_name: 'Kavya', last_name: 'Safety', dob: '1984-03-09', gender: 'F', mobile: '7200012345', allergies: ['Penicillin'] },
    }), 201).patient_id;
  }, 60_000);
  afterAll(async () => srv?.close());

  it('keeps the allergy flag open when another field of the drug is edited, and resolves it when the drug changes', async () => {
    const { txn, ai, i, flag, others } = await dictate('safety-1');
    const emr = structuredClone(ai);
    emr.medications[i].strength = { value: 250, unit: 'mg' };
    // The client says "edited": the service does not take its word while the drug is still amoxicillin.
    const saved = await api('PUT', `/api/v1/notes/${txn}/draft`, { emr, flag_resolutions: [...others, { code: flag.code, pointer: flag.pointer, resolution: 'edited' }] });
    expect(saved.status, saved.text).toBe(200);
    expect(open(saved.json.emr)).toStrictEqual([{ code: 'ALLERGY_CONFLICT', pointer: flag.pointer, message: expect.stringContaining('amoxicillin') }]);
    const refused = await api('POST', `/api/v1/notes/${txn}/sign`, {});
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error).toMatchObject({ code: 'FLAGS_UNRESOLVED', message: expect.stringContaining(`ALLERGY_CONFLICT ${flag.pointer}`) });

    emr.medications[i] = { ...emr.medications[i], name: 'azithromycin', strength: { value: 500, unit: 'mg' }, frequency: { per_day: 1, as_needed: false, text: 'once a day' } };
    const fixed = await api('PUT', `/api/v1/notes/${txn}/draft`, { emr, flag_resolutions: others });
    expect(fixed.status, fixed.text).toBe(200);
    expect(open(fixed.json.emr)).toStrictEqual([]);
    expect((fixed.json.emr.flags as J[]).find((f) => f.code === 'ALLERGY_CONFLICT')).toMatchObject({ resolution: 'edited', resolved_by: doctorId });
    const signed = await api('POST', `/api/v1/notes/${txn}/sign`, {});
    expect(signed.status, signed.text).toBe(201);
  }, 180_000);

  it('flags a drug the doctor adds and a dose no one prescribes on the draft, and refuses to sign until they are resolved', async () => {
    const { txn, ai, i, flag, others } = await dictate('safety-2');
    const emr = structuredClone(ai);
    emr.medications[i] = { ...emr.medications[i], name: 'azithromycin', strength: { value: 500, unit: 'mg' }, frequency: { per_day: 1, as_needed: false, text: 'once a day' } };
    emr.medications.push({ name: 'ampicillin', form: 'capsule', strength: { value: 500, unit: 'mg' }, frequency: { per_day: 4, as_needed: false, text: 'four times a day' } });
    emr.medications.push({ name: 'paracetamol', form: 'tablet', strength: { value: 50, unit: 'g' } });
    const saved = await api('PUT', `/api/v1/notes/${txn}/draft`, { emr, flag_resolutions: others });
    expect(saved.status, saved.text).toBe(200);
    const n = emr.medications.length;
    const found: [string, string][] = open(saved.json.emr).map((f: J) => [f.code, f.pointer]);
    expect(found).toContainEqual(['ALLERGY_CONFLICT', `/medications/${n - 2}`]);
    expect(found.some(([code, pointer]: [string, string]) => /^DOSE_/.test(code) && pointer.startsWith(`/medications/${n - 1}`)), JSON.stringify(found)).toBe(true);
    const refused = await api('POST', `/api/v1/notes/${txn}/sign`, {});
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error.message).toContain(`ALLERGY_CONFLICT /medications/${n - 2}: ampicillin conflicts with the allergy to Penicillin`);

    // Corrected: the added drug's flags go with their causes, the scribe's allergy flag went with amoxicillin.
    emr.medications.splice(n - 2, 2, { name: 'paracetamol', form: 'tablet', strength: { value: 500, unit: 'mg' } });
    const fixed = await api('PUT', `/api/v1/notes/${txn}/draft`, { emr, flag_resolutions: others });
    expect(open(fixed.json.emr), JSON.stringify(fixed.json.emr.flags)).toStrictEqual([]);
    const signed = await api('POST', `/api/v1/notes/${txn}/sign`, {});
    expect(signed.status, signed.text).toBe(201);
    expect((signed.json.emr.flags as J[]).find((f) => f.pointer === flag.pointer && f.code === 'ALLERGY_CONFLICT')).toMatchObject({ resolution: 'edited' });

    // An amendment is checked the same way: ampicillin added after signing is refused until resolved.
    const amended = structuredClone(signed.json.emr);
    amended.medications.push({ name: 'ampicillin', strength: { value: 500, unit: 'mg' } });
    const late = await api('POST', `/api/v1/notes/${txn}/amendments`, { emr: amended, reason: 'Added an antibiotic' });
    expect(late.status, late.text).toBe(400);
    expect(late.json.error).toMatchObject({ code: 'FLAGS_UNRESOLVED', message: expect.stringContaining('ampicillin conflicts with the allergy') });
    expect((await api('GET', `/api/v1/notes/${txn}/versions`)).json.latest_version).toBe(1);
  }, 180_000);

  it('keeps an allergy conflict as it is only with a reason, kept in the signed version and recorded in the audit log', async () => {
    const { txn, flag, others } = await dictate('safety-3');
    const keep = { code: flag.code, pointer: flag.pointer, resolution: 'kept' };
    for (const k of [keep, { ...keep, reason: '   ' }]) {
      const r = await api('POST', `/api/v1/notes/${txn}/sign`, { flag_resolutions: [...others, k] });
      expect(r.status, r.text).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining(`Say why it is kept as is`) });
    }
    const reason = 'Took amoxicillin last year without a reaction; the penicillin allergy is doubtful';
    const r = await api('POST', `/api/v1/notes/${txn}/sign`, { flag_resolutions: [...others, { ...keep, reason }] });
    expect(r.status, r.text).toBe(201);
    expect((r.json.emr.flags as J[]).find((f) => f.code === 'ALLERGY_CONFLICT')).toMatchObject({ resolution: 'kept', resolution_reason: reason, resolved_by: doctorId });

    await srv.service.audit.flush();
    const id = (await srv.service.scribe.session(A.workspace_id, txn))!.id;
    const rows = await rowsOf<{ action: string; resource_ids: string }>(srv.service, sql`SELECT action, resource_ids FROM audit_log WHERE action = 'note.flag.kept'`);
    expect(rows).toContainEqual({ action: 'note.flag.kept', resource_ids: JSON.stringify([id, `ALLERGY_CONFLICT ${flag.pointer}`]) });
  }, 180_000);
});
