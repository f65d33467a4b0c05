import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScribeClient } from '../../sdk/scribe-client.js';
import { missing } from '../helpers/needs.js';
import { type RunningServer, call, startServer, tempDir } from '../helpers/server.js';
import { skipFor, skipNow } from '../helpers/skip.js';
import { launch, openApp, shot, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * The doctor's dictation in Chromium, with the fake microphone fed by a WAV that espeak-ng speaks at test time:
 * level meter, pause/resume, chunks saved in IndexedDB while recording, upload through the scribe flow, the
 * transcription's progress and the structured result. A second browser with a silent WAV shows the silence
 * warning and that a recording cut off by a closed tab survives.
 */
const skip = uiSkipReason ?? missing('espeak-ng', 'ffmpeg');

const DICTATION = 'Patient has fever for three days. Diagnosis acute bronchitis. '
  + 'Tablet paracetamol six hundred fifty milligrams three times a day for five days. Review after five days.';

function wav(dir: string, name: string, text: string | null): string {
  const raw = join(dir, `${name}-raw.wav`);
  const out = join(dir, `${name}.wav`);
  if (text) execFileSync('espeak-ng', ['-s', '150', '-w', raw, text]);
  else execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono', '-t', '10', '-y', raw]);
  // Chromium's fake capture device reads 16-bit PCM; 48 kHz mono is what it asks for anyway.
  execFileSync('ffmpeg', ['-v', 'error', '-i', raw, '-ar', '48000', '-ac', '1', '-c:a', 'pcm_s16le', '-y', out]);
  return out;
}

const chunkCount = (page: Page) => page.evaluate(() => new Promise<number>((resolve) => {
  const req = indexedDB.open('clinic-desk');
  req.onsuccess = () => {
    const c = req.result.transaction('chunks').objectStore('chunks').count();
    c.onsuccess = () => resolve(c.result);
  };
  req.onerror = () => resolve(-1);
}));

const elapsedSeconds = async (page: Page) => {
  const [m, s] = (await page.getByTestId('elapsed').textContent())!.split(':').map(Number);
  return m! * 60 + s!;
};

describe('dictation in Chromium with a fake microphone', skipFor(skip), () => {
  let srv: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('ui-dictation');
    const speech = wav(dir, 'dictation', DICTATION);
    srv = await startServer({ speechModel: true });
    browser = await launch({ fakeAudioWav: speech });
    ({ page, errors } = await openApp(browser, srv.baseUrl));
    const { username, password } = srv.demo.workspaces[0]!.users.doctor;
    await signIn(page, username, password);
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  it('opens on the dictation screen for a doctor, with microphones, templates, language and mode', async () => {
    await page.getByRole('heading', { name: 'Dictation', exact: true }).waitFor();
    expect(await page.locator('select[name=microphone] option').count()).toBeGreaterThanOrEqual(1);
    for (const t of ['Clinical notes', 'EMR (structured)', 'Transcript']) expect(await page.getByRole('group', { name: 'Templates' }).textContent()).toContain(t);
    await page.getByLabel('Language spoken').selectOption('en-IN');
    await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Dictation' }).click();
    const options = page.getByLabel("Today's appointment").locator('option');
    expect(await options.count()).toBeGreaterThan(1);
    await page.getByLabel("Today's appointment").selectOption({ index: 1 });
  });

  it('records with a moving level meter and elapsed time, pauses, and saves chunks while recording', async () => {
    await page.getByRole('button', { name: 'Record' }).click();
    await page.getByText('Recording', { exact: true }).waitFor();
    await expect.poll(async () => Number(await page.getByTestId('level').getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThan(5);
    await expect.poll(() => elapsedSeconds(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    // Chunks reach IndexedDB every second, before the recording is stopped: a crash now would lose nothing.
    await expect.poll(() => chunkCount(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await shot(page, 'dictation-recording');
    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = await elapsedSeconds(page);
    await page.waitForTimeout(1500);
    expect(await elapsedSeconds(page)).toBe(paused);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => elapsedSeconds(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(13);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Recording ready').waitFor();
    const row = page.getByTestId('recording-row').first();
    await expect.poll(() => row.textContent()).toContain('Saved');
  });

  it('uploads through the scribe flow with progress and shows the structured result beside the transcript', async (ctx) => {
    await page.getByRole('button', { name: 'Upload and transcribe' }).click();
    await page.getByTestId('transcribing').or(page.getByTestId('scribe-result')).or(page.getByText('Transcription failed')).first().waitFor({ timeout: 30_000 });
    await page.getByTestId('scribe-result').or(page.getByText('Transcription failed')).first().waitFor({ timeout: 80_000 });
    const row = page.getByTestId('recording-row').first();
    await expect.poll(() => row.textContent()).toContain('Uploaded');
    if (await page.getByText('Transcription failed').count()) {
      // The upload went through the whole flow; the service's pipeline could not finish. The screen says why.
      const why = (await page.getByRole('alert').filter({ hasText: 'Transcription failed' }).textContent())!;
      expect(why).toMatch(/could not be produced|failed/);
      await shot(page, 'dictation-failed');
      if (/not available yet/.test(why)) skipNow(ctx, `the scribe pipeline is not complete on this server (${why.slice(0, 200)}); the structured result is not checked`);
      throw new Error(`transcription failed: ${why}`);
    }
    const result = page.getByTestId('scribe-result');
    expect(await result.getByRole('tab').allTextContents()).toEqual(['Clinical notes', 'EMR (structured)']);
    // What the recogniser makes of espeak through Chromium's fake microphone and Opus is the speech engine's
    // business (its own tests measure accuracy); here the words are logged, and the screen must show them.
    const transcript = (await page.getByTestId('transcript').textContent())!.toLowerCase();
    expect(transcript.replace(/\d+:\d+/g, '').trim().length).toBeGreaterThan(10);
    await result.getByRole('tab', { name: 'EMR (structured)' }).click();
    const emr = (await result.textContent())!.toLowerCase();
    console.log(`dictation through the fake microphone was heard as: ${transcript.slice(0, 300)}`);
    expect(emr).toMatch(/chief complaints|diagnosis|medications|vitals|nothing structured/);
    // Copy takes the tab shown: the EMR's JSON (the clinical note may be empty when little was heard).
    await page.getByRole('button', { name: 'Copy' }).click();
    // Copying is asynchronous: the button says when it is done, then the clipboard holds the document.
    await page.getByRole('button', { name: 'Copied' }).waitFor({ timeout: 10_000 });
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(JSON.parse(copied)).toMatchObject({ template_id: 'service_emr_template' });
    await result.getByRole('tab', { name: 'Clinical notes' }).click();
    // The patient's past sessions on the server now list this one, done; Open shows its result again.
    const past = page.getByTestId('history-row');
    await expect.poll(() => past.first().textContent(), { timeout: 10_000 }).toMatch(/Done|Partly done/);
    await past.first().getByRole('button', { name: 'Open' }).click();
    await page.getByTestId('scribe-result').waitFor();
  }, 120_000);

  it("pages through the patient's older sessions: Show older dictations adds the next page below", async () => {
    const apptId = await page.getByLabel("Today's appointment").inputValue();
    const ws = srv.demo.workspaces[0]!;
    const patientId = ws.appointments.find((x) => x.appointment_id === apptId)!.patient_id;
    // More than a page of earlier sessions for this patient, presigned by an integration and never initialized.
    const sdk = new ScribeClient({ baseUrl: srv.baseUrl, auth: ws.users.doctor.auth_token });
    for (let i = 0; i < 21; i++) await sdk.presign(`older-${i}`, 'scribe-v2', { patient_id: patientId });
    await page.reload();
    await page.getByLabel("Today's appointment").selectOption(apptId);
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(20);
    await page.getByRole('button', { name: 'Show older dictations' }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(22);
    expect(await page.getByRole('button', { name: 'Show older dictations' }).count()).toBe(0);
    // Newest first across the pages: the 21 presigned ones, then on the second page the dictation made above.
    expect(await rows.first().textContent()).toContain('Not started');
    expect(await rows.last().textContent()).toMatch(/Done|Partly done|Failed/);
  }, 60_000);

  it('renders each template for reading: sections, vitals, medication table, code chips, transcript (templates.md sample)', async () => {
    // The service's answer is replaced by the sample of templates.md, so that the rendering is checked whatever
    // the recogniser heard. Only this status request is intercepted.
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
    const entry = (template_id: string, name: string, json: unknown) => ({ template_id, value: b64(json), type: 'json', name, status: 'success', errors: [], warnings: [] });
    const output = [
      entry('clinical_notes_template', 'Clinical Notes', { template_id: 'clinical_notes_template', language: 'en-IN', sections: [
        { id: 'chief_complaints', title: 'Chief Complaints', text: 'Fever for 3 days. Dry cough for 3 days.' },
        { id: 'vitals', title: 'Vitals', text: 'BP 130/85 mmHg, pulse 88/min, temperature 101 °F' },
        { id: 'diagnosis', title: 'Diagnosis', text: 'Acute bronchitis (J20.9)' },
        { id: 'medications', title: 'Medications', text: '1. Tab Dolo 650 (paracetamol 650 mg), 1-1-1 after food for 5 days' },
        { id: 'advice', title: 'Advice', text: 'Plenty of oral fluids.' },
        { id: 'follow_up', title: 'Follow-up', text: 'After 5 days, with reports.' },
      ], markdown: '## Chief Complaints\nFever for 3 days.' }),
      entry('service_emr_template', 'EMR', { template_id: 'service_emr_template', language: 'en-IN',
        chief_complaints: [{ name: 'fever', duration: { value: 3, unit: 'day' }, notes: 'evening rise' }, { name: 'dry cough', duration: { value: 3, unit: 'day' } }],
        history: { past: ['hypertension for 5 years'], allergies: ['penicillin'] },
        vitals: { bp: { systolic: 130, diastolic: 85 }, pulse_bpm: 88, temperature: { value: 101, unit: 'F' }, spo2_percent: 97 },
        examination: ['throat congested'],
        diagnoses: [{ name: 'acute bronchitis', certainty: 'confirmed', codes: [{ system: 'ICD-10', code: 'J20.9', display: 'Acute bronchitis, unspecified' }] }],
        medications: [{ name: 'paracetamol', brand: 'Dolo 650', form: 'tablet', strength: { value: 650, unit: 'mg' }, dose: { value: 1, unit: 'tablet' }, route: 'oral',
          frequency: { per_day: 3, pattern: '1-1-1', as_needed: false, text: 'three times a day' }, timing: 'after food', duration: { value: 5, unit: 'day' }, instructions: 'if fever above 100' }],
        investigations: [{ name: 'complete blood count' }], advice: ['plenty of oral fluids'], follow_up: { after: { value: 5, unit: 'day' }, notes: 'review with reports' } }),
      entry('transcript_template', 'Transcript', { template_id: 'transcript_template', language: 'en-IN', text: 'patient has fever for three days',
        segments: [{ start: 0, end: 3.2, text: 'Patient has fever for three days, with dry cough.' }, { start: 3.2, end: 7.5, text: 'Tablet Dolo 650, one tablet three times a day after food for five days.' }] }),
    ];
    await page.route('**/voice/api/v3/status/**', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ data: { output, additional_data: {} } }) }));
    await page.getByTestId('recording-row').filter({ hasText: 'Uploaded' }).first().getByRole('button', { name: 'Open result' }).click();
    const result = page.getByTestId('scribe-result');
    await result.waitFor();
    expect(await result.getByRole('tab').allTextContents()).toEqual(['Clinical notes', 'EMR (structured)']);
    await result.getByRole('tab', { name: 'Clinical notes' }).click();
    await result.getByText('Acute bronchitis (J20.9)').waitFor();
    await result.getByRole('button', { name: 'Copy', exact: true }).waitFor();
    expect(await page.getByTestId('transcript').textContent()).toContain('Tablet Dolo 650');
    await shot(page, 'dictation-result', result);
    await result.getByRole('tab', { name: 'EMR (structured)' }).click();
    const meds = result.getByRole('table', { name: 'Medications' });
    expect(await meds.textContent()).toContain('Dolo 650');
    expect(await meds.textContent()).toContain('1-1-1');
    const chip = result.getByRole('link', { name: /ICD-10 J20.9/ });
    expect(await chip.getAttribute('href')).toContain('J20.9');
    expect(await result.textContent()).toContain('130/85 mmHg');
    await shot(page, 'dictation-emr', result);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('acute bronchitis');
    await page.unroute('**/voice/api/v3/status/**');
  });

  it('discards an uploaded recording with one click: the clinic server has its audio', async () => {
    const uploaded = page.getByTestId('recording-row').filter({ hasText: 'Uploaded' });
    const before = await uploaded.count();
    expect(before).toBeGreaterThan(0);
    await uploaded.first().getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => uploaded.count()).toBe(before - 1);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it("files a dictation under a patient found by mobile, without an appointment today, and shows their past sessions", async () => {
    const ws = srv.demo.workspaces[0]!;
    // Every demo patient has an appointment today: a walk-in is registered for this test.
    const mobile = '9700012345';
    const made = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
      headers: { auth: ws.users.reception.auth_token }, body: { first_name: 'Deepa', last_name: 'Walkin', dob: '1991-02-03', gender: 'F', mobile },
    });
    expect(made.status).toBe(201);
    const patientId = made.json.data.patient_id as string;
    expect(ws.appointments.some((a) => a.patient_id === patientId)).toBe(false);
    const sdk = new ScribeClient({ baseUrl: srv.baseUrl, auth: ws.users.doctor.auth_token });
    for (let i = 0; i < 2; i++) await sdk.presign(`walkin-${i}`, 'scribe-v2', { patient_id: patientId });
    await page.reload();
    const search = page.getByLabel('Mobile number');
    await search.fill('9700099999');
    await page.getByText('No patient with this number').waitFor();
    expect(await page.getByText('registered on the Front desk screen').count()).toBe(1);
    // By keyboard: type the number, Tab to the patient, Enter.
    await search.fill('');
    await search.pressSequentially(mobile);
    const result = page.getByTestId('patient-result').filter({ hasText: 'Deepa Walkin' });
    await result.waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await result.getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('found-patient').textContent()).toContain('Deepa Walkin');
    expect(await page.getByLabel("Today's appointment").inputValue()).toBe('');
    await page.getByText('For Deepa Walkin', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Dictations for Deepa Walkin' }).waitFor();
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    expect(await rows.allTextContents()).toEqual([expect.stringContaining('Not started'), expect.stringContaining('Not started')]);
    // The recording is filed under her, with no appointment.
    await page.getByRole('button', { name: 'Record' }).click();
    await expect.poll(() => chunkCount(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await page.getByRole('button', { name: 'Stop' }).click();
    const mine = page.getByTestId('recording-row');
    await expect.poll(() => mine.allTextContents()).toEqual([expect.stringContaining('Deepa Walkin')]);
    const meta = await page.evaluate(() => new Promise<unknown[]>((resolve) => {
      const req = indexedDB.open('clinic-desk');
      req.onsuccess = () => {
        const all = req.result.transaction('recordings').objectStore('recordings').getAll();
        all.onsuccess = () => resolve(all.result.map((r: Record<string, unknown>) => ({ patient_id: r.patient_id, patient_name: r.patient_name, appointment_id: r.appointment_id })));
      };
    }));
    expect(meta).toContainEqual({ patient_id: patientId, patient_name: 'Deepa Walkin', appointment_id: undefined });
    await mine.first().getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('dialog', { name: 'Discard this recording?' }).getByRole('button', { name: 'Discard recording' }).click();
    await expect.poll(() => mine.count()).toBe(0);
    // Today's list stays the quick path: choosing an appointment replaces the patient found by mobile.
    const appt = ws.appointments[0]!;
    const name = ws.patients.find((p) => p.patient_id === appt.patient_id)!;
    await page.getByLabel("Today's appointment").selectOption(appt.appointment_id);
    await page.getByTestId('found-patient').waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: `Dictations for ${name.first_name}` }).waitFor();
  }, 60_000);

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });

  describe('with a silent microphone', () => {
    let quiet: Browser;
    beforeAll(async () => {
      quiet = await launch({ fakeAudioWav: wav(dir, 'silence', null) });
    });
    afterAll(async () => quiet?.close());
    const signedIn = async (p: Page) => {
      const { username, password } = srv.demo.workspaces[0]!.users.doctor;
      await signIn(p, username, password);
    };
    /** A second tab of the same browser profile, signed in with the first one's session: the same recordings. */
    const secondTab = async (context: BrowserContext, first: Page) => {
      const session = await first.evaluate(() => sessionStorage.getItem('clinic-desk.token'));
      const tab = await context.newPage();
      await tab.goto(srv.baseUrl);
      await tab.evaluate((t) => sessionStorage.setItem('clinic-desk.token', t!), session);
      await tab.reload();
      return tab;
    };

    it('warns about silence, keeps a recording cut off by a closed tab, and discards it only once confirmed', async () => {
      const { context, page: p } = await openApp(quiet, srv.baseUrl);
      await signedIn(p);
      await p.getByRole('button', { name: 'Record' }).click();
      await p.getByText('No sound for a few seconds').waitFor({ timeout: 15_000 });
      await expect.poll(() => chunkCount(p), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      await shot(p, 'dictation-silence');
      // The tab goes away mid-recording (as in a crash); the audio so far is still there when the app comes back.
      const again = await secondTab(context, p);
      await p.close();
      await again.reload();
      const recovered = () => again.getByTestId('recording-row').filter({ hasText: 'Recovered (unfinished)' });
      await recovered().waitFor({ timeout: 15_000 });
      expect(await recovered().textContent()).toMatch(/[2-9]\d* chunks|\d{2,} chunks/);
      const chunks = await chunkCount(again);
      // Never uploaded, so this computer has the only copy: Discard asks first, and keeping it leaves it whole.
      await recovered().getByRole('button', { name: 'Discard' }).click();
      const confirm = again.getByRole('dialog', { name: 'Discard this recording?' });
      expect(await confirm.textContent()).toContain('has not been uploaded');
      await confirm.getByRole('button', { name: 'Keep it' }).click();
      await confirm.waitFor({ state: 'detached' });
      await again.reload();
      await recovered().waitFor({ timeout: 15_000 });
      expect(await chunkCount(again)).toBe(chunks);
      await recovered().getByRole('button', { name: 'Discard' }).click();
      await confirm.getByRole('button', { name: 'Discard recording' }).click();
      await expect.poll(() => recovered().count()).toBe(0);
      expect(await chunkCount(again)).toBe(0);
      await context.close();
    });

    it('says so when the recording is discarded in another tab while it runs, instead of saving forever', async () => {
      const { context, page: p } = await openApp(quiet, srv.baseUrl);
      await signedIn(p);
      await p.getByRole('button', { name: 'Record' }).click();
      await expect.poll(() => chunkCount(p), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      const other = await secondTab(context, p);
      const row = other.getByTestId('recording-row').filter({ hasText: 'Recovered (unfinished)' });
      await row.getByRole('button', { name: 'Discard' }).click();
      await other.getByRole('dialog', { name: 'Discard this recording?' }).getByRole('button', { name: 'Discard recording' }).click();
      await expect.poll(() => row.count()).toBe(0);
      await p.getByRole('button', { name: 'Stop' }).click();
      const note = p.getByRole('alert').filter({ hasText: 'could not be marked as finished' });
      await note.waitFor({ timeout: 10_000 });
      expect(await note.textContent()).toContain('It was discarded');
      await p.getByRole('button', { name: 'Record' }).waitFor();
      await context.close();
    });

    it('turns the microphone off and says why when the recording cannot be started (site data cleared while the app is open)', async () => {
      const { context, page: p, errors: pageErrors } = await openApp(quiet, srv.baseUrl);
      // Only to look at the microphone streams the screen opens: they are the browser's, not ours.
      await context.addInitScript(() => {
        const md = navigator.mediaDevices;
        const open = md.getUserMedia.bind(md);
        const w = window as unknown as { streams: MediaStream[] };
        w.streams = [];
        md.getUserMedia = async (c) => {
          const s = await open(c);
          w.streams.push(s);
          return s;
        };
      });
      await p.reload();
      await signedIn(p);
      await p.getByTestId('recording-row').or(p.getByText('No dictations yet')).first().waitFor();
      // What the browser does for "Clear site data": the app's open IndexedDB connection is closed under it.
      const cdp = await context.newCDPSession(p);
      await cdp.send('Storage.clearDataForOrigin', { origin: new URL(srv.baseUrl).origin, storageTypes: 'indexeddb' });
      await p.getByRole('button', { name: 'Record' }).click();
      const alert = p.getByRole('alert').filter({ hasText: 'could not save audio on this computer' });
      await alert.waitFor({ timeout: 10_000 });
      expect(await alert.textContent()).toContain('Reload Clinic Desk');
      await p.getByRole('button', { name: 'Record' }).waitFor();
      const live = () => p.evaluate(() => (window as unknown as { streams: MediaStream[] }).streams.flatMap((s) => s.getTracks()).map((t) => t.readyState));
      expect(await live()).toEqual(['ended']);
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  });
});
