import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DictationOptions } from '../../preload/contract.js';
import { uploadDictation } from '../../preload/scribe-flow.js';
import { ScribeClient } from '../../sdk/scribe-client.js';
import { auth } from '../helpers/dr.js';
import { missing } from '../helpers/needs.js';
import { type RunningServer, call, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { speak } from '../helpers/speech-audio.js';
import { launch, openApp, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * Issue 24, items 1-5, in the note editor in Chromium: amoxicillin dictated for a patient whose record lists
 * penicillin. A new strength leaves the allergy flag; keeping it asks why; ampicillin added by the doctor is flagged
 * after the save; the 1-0-1 pattern is the frequency's one value; a drug picked from the suggestions takes a form it
 * comes in; what was typed last is saved when the field is left and the window closes.
 */
const skip = uiSkipReason ?? missing('espeak-ng', 'pocketsphinx', 'ffmpeg');
const SAID = 'Sore throat and fever for three days. Tablet amoxicillin five hundred milligrams three times a day for five days.';
const OPTIONS: DictationOptions = { templates: ['service_emr_template', 'transcript_template'], language: 'en-IN', mode: 'dictation', model_type: 'pro', codify: false };

type J = Record<string, any>;

describe('safety in the note editor, in Chromium', skipFor(skip), () => {
  let srv: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let txn: string;
  let apptId: string;
  let med: number;
  let doctorToken: string;

  const draft = async () => (await call(srv.baseUrl, 'GET', `/api/v1/notes/${txn}/draft`, { headers: { authorization: `Bearer ${doctorToken}` } })).json as J;
  const until = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const result = () => page.getByTestId('scribe-result');
  const editor = () => result().getByTestId('note-editor');
  const medRow = (n: number): Locator => editor().getByRole('group', { name: new RegExp(`^Medicine ${n + 1}\\b`) });
  const saved = () => result().getByTestId('note-badge').getByText('Draft saved').waitFor();

  async function openNote() {
    ({ page, errors } = await openApp(browser, srv.baseUrl));
    const ws = srv.demo.workspaces[0]!;
    await signIn(page, ws.users.doctor.username, ws.users.doctor.password);
    await page.getByLabel("Today's appointment").selectOption(apptId);
    await page.getByTestId('history-row').first().getByRole('button', { name: 'Open' }).click();
    await result().waitFor();
    await result().getByRole('tab', { name: 'EMR (structured)' }).click();
    await result().getByRole('button', { name: 'Edit note' }).click();
    await editor().waitFor();
  }

  beforeAll(async () => {
    srv = await startServer({ speechModel: true });
    const ws = srv.demo.workspaces[0]!;
    doctorToken = ws.users.doctor.auth_token;
    const patient = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
      headers: auth(ws.users.reception.auth_token),
      body: { first_name: 'Kavya', last_name: 'Penicillin', dob: '1984-03-09', gender: 'F', mobile: '7200054321', allergies: ['Penicillin'] },
    });
    expect(patient.status, patient.text).toBe(201);
    const patientId = patient.json.data.patient_id as string;
    const me = await call(srv.baseUrl, 'GET', '/api/v1/me', { headers: { authorization: `Bearer ${doctorToken}` } });
    const booked = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
      headers: auth(doctorToken), body: { patient_id: patientId, scheduled_at: new Date().toISOString(), doctor_id: me.json.user.id, overbook: true },
    });
    expect(booked.status, booked.text).toBe(201);
    apptId = booked.json.data.appointment_id;
    const wav = join(tempDir('ui-note-safety'), 'dictation.wav');
    await speak(SAID, wav);
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: doctorToken });
    ({ txn_id: txn } = await uploadDictation(client, { id: 'ui-note-safety', mime_type: 'audio/wav', patient_id: patientId, appointment_id: apptId }, new Blob([readFileSync(wav)]), OPTIONS, () => undefined));
    const done = await client.waitForSession(txn, { intervalMs: 250, timeoutMs: 90_000 });
    const emr = done.data.output.find((o) => o.template_id === 'service_emr_template')?.decoded as J;
    med = (emr.medications as J[]).findIndex((m) => m.name === 'amoxicillin');
    expect(med, JSON.stringify(emr.medications)).toBeGreaterThanOrEqual(0);
    expect((emr.flags as J[]).some((f) => f.code === 'ALLERGY_CONFLICT'), JSON.stringify(emr.flags)).toBe(true);
    browser = await launch();
    await openNote();
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  it('a new strength for amoxicillin leaves its penicillin flag, and Sign waits for it', async () => {
    const row = medRow(med);
    await row.getByLabel('Strength').fill('250 mg');
    await row.getByLabel('Strength').press('Tab');
    await until(async () => (await draft()).emr.medications[med].strength?.value === 250, 'the new strength to be saved');
    await saved();
    expect(await row.getByTestId('flag-notes').textContent()).toContain('conflicts with the allergy to Penicillin');
    expect(await result().getByRole('button', { name: 'Sign' }).isDisabled()).toBe(true);
    expect((await draft()).emr.flags.find((f: J) => f.code === 'ALLERGY_CONFLICT').resolution).toBeUndefined();
  });

  it('keeping the allergy conflict as it is asks why, and the draft keeps the reason', async () => {
    const row = medRow(med);
    await row.getByRole('button', { name: 'Keep as is…' }).click();
    const keep = row.getByRole('button', { name: 'Keep as is', exact: true });
    expect(await keep.isDisabled()).toBe(true);
    const reason = 'Took amoxicillin last year without a reaction';
    await row.getByLabel('Why keep it as is?').fill(reason);
    await keep.click();
    expect(await row.getByTestId('flag-notes').count()).toBe(0);
    await until(async () => (await draft()).flag_resolutions.some((r: J) => r.code === 'ALLERGY_CONFLICT'), 'the kept flag to be saved');
    expect((await draft()).flag_resolutions.find((r: J) => r.code === 'ALLERGY_CONFLICT')).toMatchObject({ resolution: 'kept', reason });
  });

  it('ampicillin added by the doctor is flagged once the draft is saved, and Sign waits for it', async () => {
    await editor().getByRole('button', { name: 'Add medicine' }).click();
    const n = (await draft()).emr.medications.length;
    const row = medRow(n);
    await row.getByLabel('Medicine (generic)').fill('ampicillin');
    await row.getByLabel('Strength').fill('500 mg');
    await row.getByLabel('Strength').press('Tab');
    await until(async () => (await draft()).emr.medications[n]?.name === 'ampicillin', 'ampicillin to be saved');
    await row.getByTestId('flag-notes').waitFor({ timeout: 5_000 });
    expect(await row.getByTestId('flag-notes').textContent()).toContain('ampicillin conflicts with the allergy to Penicillin');
    expect(await result().getByRole('button', { name: 'Sign' }).isDisabled()).toBe(true);
  });

  it('the 1-0-1 pattern is the one frequency: its words and times a day follow it into the saved note', async () => {
    const row = medRow(med);
    await row.getByLabel('Frequency (1-0-1)').fill('1-0-1');
    expect(await row.getByTestId('frequency-words').textContent()).toBe('twice a day (morning and night)');
    await row.getByLabel('Frequency (1-0-1)').fill('1-0-0');
    expect(await row.getByTestId('frequency-words').textContent()).toBe('once a day (morning)');
    await row.getByLabel('Frequency (1-0-1)').press('Tab');
    await until(async () => (await draft()).emr.medications[med].frequency?.pattern === '1-0-0', 'the pattern to be saved');
    expect((await draft()).emr.medications[med].frequency).toMatchObject({ pattern: '1-0-0', per_day: 1, text: 'once a day (morning)' });
  });

  it('a drug picked from the suggestions takes a form it comes in', async () => {
    await editor().getByRole('button', { name: 'Add medicine' }).click();
    const row = editor().getByRole('group', { name: /^Medicine \d+/ }).last();
    await row.getByLabel('Form').fill('capsule');
    await row.getByLabel('Medicine (generic)').fill('azithro');
    await row.getByRole('option', { name: /^azithromycin/ }).first().click();
    await until(async () => (await row.getByLabel('Form').inputValue()) === 'tablet', 'the form to follow the drug');
    await row.getByRole('button', { name: /^Remove medicine/ }).click();
  });

  it('what was typed a moment before the window closes is saved', async () => {
    const row = medRow(med);
    await row.getByLabel('Instructions').fill('after food, finish the course');
    await page.close({ runBeforeUnload: true });
    await until(async () => (await draft()).emr.medications[med].instructions === 'after food, finish the course', 'the last edit to be saved');
    expect(errors).toStrictEqual([]);
  });
});
