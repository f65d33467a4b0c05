import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp } from '../../server/http/app.js';
import { loadSherpa } from '../../server/scribe/asr/whisper.js';
import { createService, type Service } from '../../server/service.js';
import { TEST_KEK, call, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { startModelMirror } from '../helpers/model-mirror.js';
import { launch, openApp, shot, uiSkipReason } from '../helpers/browser.js';

/** First run on an empty database, then the admin's settings, in Chromium over the browser transport. */
describe('first run and settings in Chromium', skipFor(uiSkipReason), () => {
  const dataDir = tempDir('ui-settings');
  const files = tempDir('ui-settings-files');
  let service: Service;
  let mirror: Awaited<ReturnType<typeof startModelMirror>>;
  let app: Awaited<ReturnType<typeof buildHttpApp>>;
  let base = '';
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const receivers: Server[] = [];
  let hookUrl = '';
  let goneUrl = '';
  const received: string[] = [];
  const gone: string[] = [];

  /** A webhook receiver on loopback that records each body and answers `status`; its URL. */
  async function receiver(status: number, bodies: string[]) {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(status).end();
      });
    });
    receivers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const a = server.address();
    return `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/clinic-hook`;
  }

  beforeAll(async () => {
    mirror = await startModelMirror();
    service = await createService({ kek: TEST_KEK, dataDir, webhooks: { retryScheduleMs: [200, 400] }, speechModels: { mirror: mirror.url } });
    app = await buildHttpApp(service);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const a = app.server.address();
    base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
    hookUrl = await receiver(204, received);
    goneUrl = await receiver(410, gone);
    browser = await launch();
    ({ page, errors } = await openApp(browser, base));
  });
  afterAll(async () => {
    await browser?.close();
    for (const r of receivers) r.close();
    await app?.close();
    await service?.close();
    await mirror?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  });

  const tab = (name: string) => page.getByRole('tablist', { name: 'Settings' }).getByRole('tab', { name });

  /** Registers a patient, books and checks them in through the API, with the admin's own session: appointment.statuschange events. */
  async function raiseEvents(firstName: string) {
    const token = await page.evaluate(() => sessionStorage.getItem('clinic-desk.token'));
    const h = { auth: token! };
    const p = await call(base, 'POST', '/dr/v1/patient', { headers: h, body: { first_name: firstName, last_name: 'Das', dob: '1980-01-01', gender: 'M', mobile: '9811122233' } });
    const a = await call(base, 'POST', '/dr/v1/appointment', { headers: h, body: { patient_id: p.json.data.patient_id, scheduled_at: new Date().toISOString() } });
    const c = await call(base, 'POST', `/dr/v1/appointment/${a.json.data.appointment_id}/change-status?partner_id=0`, { headers: h, body: { status: 'CK' } });
    expect([p.status, a.status, c.status], JSON.stringify([p.json, a.json, c.json])).toEqual([201, 201, 200]);
  }

  it('walks a new installation through creating the clinic and its admin', async () => {
    const form = page.getByRole('form', { name: 'Set up your clinic' });
    await form.waitFor();
    await form.getByLabel('Clinic name').fill('Green Valley Clinic');
    await form.getByLabel('Time zone').selectOption('Asia/Kolkata');
    await shot(page, 'first-run');
    await form.getByRole('button', { name: 'Continue' }).click();
    await form.getByLabel('Your name').fill('Dr Asha Rao');
    await form.locator('input[name=username]').fill('asha');
    await form.locator('input[name=password]').fill('short');
    expect(await form.textContent()).toContain('At least 8 characters');
    expect(await form.getByRole('button', { name: 'Create clinic' }).isDisabled()).toBe(true);
    await form.locator('input[name=password]').fill('green valley 2026');
    await form.locator('input[name=password_again]').fill('green valley 2026');
    await form.getByRole('button', { name: 'Create clinic' }).click();
    // Where the scribe cannot transcribe on this machine, a last step says so (the test below); elsewhere the app opens.
    if (!(await service.scribe.readiness()).ready) {
      await page.getByRole('region', { name: 'Dictation on this computer' }).getByRole('button', { name: 'Continue' }).click();
    }
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.locator('.brand').textContent()).toContain('Green Valley Clinic');
    expect(await page.getByRole('navigation', { name: 'Main' }).textContent()).toContain('Settings');
    expect((await call(base, 'GET', '/api/v1/setup')).json).toEqual({ needed: false });
  });

  it('shows the server\'s address and status', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('server-address').waitFor();
    expect(await page.getByTestId('server-address').textContent()).toBe(base);
    // What the scribe can do here, engine by engine, as the service itself finds it.
    const scribe = await service.scribe.readiness();
    expect(await page.getByTestId('scribe-ready').textContent()).toMatch(scribe.ready ? /^Transcribes / : /^Cannot transcribe yet$/);
    const engines = page.getByRole('list', { name: 'Speech engines' });
    for (const e of [...scribe.engines, scribe.decoder]) {
      const item = engines.locator(`li[data-engine="${e.id}"]`);
      expect(await item.textContent()).toContain(e.ready ? 'ready' : `not ready`);
      if (e.fix) expect(await item.textContent()).toContain(e.fix);
    }
    // The API reference link is absolute (a relative one resolves to file:// in the desktop app) and answers.
    const href = await page.getByRole('link', { name: 'API reference' }).getAttribute('href');
    expect(href).toBe(`${base}/docs`);
    expect((await fetch(href!)).status).toBe(200);
    await shot(page, 'settings-server');
  });

  it('adds a user', async () => {
    await tab('Users').click();
    await page.getByRole('button', { name: 'Add user' }).click();
    const d = page.getByRole('dialog', { name: 'Add a user' });
    await d.locator('input[name=display_name]').fill('Ravi Kumar');
    await d.locator('input[name=username]').fill('ravi');
    await d.locator('select[name=role]').selectOption('reception');
    await d.locator('input[name=password]').fill('front desk 1');
    await d.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('table', { name: 'Users' }).getByText('Ravi Kumar').waitFor();
    expect((await call(base, 'POST', '/api/v1/session', { body: { username: 'ravi', password: 'front desk 1' } })).status).toBe(200);
  });

  it('resets a user\'s password: a short one is refused in words, then the old session and password stop working', async () => {
    const old = (await call(base, 'POST', '/api/v1/session', { body: { username: 'ravi', password: 'front desk 1' } })).json.token as string;
    expect((await call(base, 'GET', '/api/v1/me', { headers: { auth: old } })).status).toBe(200);
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: 'Ravi Kumar' });
    // An admin's own row offers no reset: their own password goes through Change password.
    const own = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: 'Dr Asha Rao' });
    expect(await own.getByRole('button', { name: 'Reset password' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Reset password' }).click();
    const d = page.getByRole('dialog', { name: 'Reset password for Ravi Kumar' });
    await d.locator('input[name=new_password]').fill('short');
    await d.getByRole('button', { name: 'Reset password' }).click();
    await d.getByText('The new password needs at least 8 characters.').waitFor();
    await d.locator('input[name=new_password]').fill('front desk 2');
    await d.getByRole('button', { name: 'Reset password' }).click();
    await d.getByText('Password reset').waitFor();
    expect(await d.textContent()).toContain('ravi');
    await d.getByRole('button', { name: 'Done' }).click();
    await d.waitFor({ state: 'detached' });
    expect((await call(base, 'GET', '/api/v1/me', { headers: { auth: old } })).status).toBe(401);
    expect((await call(base, 'POST', '/api/v1/session', { body: { username: 'ravi', password: 'front desk 1' } })).status).toBe(401);
    expect((await call(base, 'POST', '/api/v1/session', { body: { username: 'ravi', password: 'front desk 2' } })).status).toBe(200);
  });

  it('changes the admin\'s own password from the top bar; a wrong current one is said plainly and this tab stays signed in', async () => {
    await page.locator('.topbar').getByRole('button', { name: 'Change password' }).click();
    const d = page.getByRole('dialog', { name: 'Change password' });
    await d.locator('input[name=current_password]').fill('green valley 2025');
    await d.locator('input[name=new_password]').fill('green valley 2027');
    await d.locator('input[name=new_password_again]').fill('green valley 2072');
    await d.getByRole('button', { name: 'Change password' }).click();
    await d.getByText('The two new passwords are not the same').waitFor();
    await d.locator('input[name=new_password_again]').fill('green valley 2027');
    await d.getByRole('button', { name: 'Change password' }).click();
    await d.getByText('This is not your current password').waitFor();
    await d.locator('input[name=current_password]').fill('green valley 2026');
    await d.getByRole('button', { name: 'Change password' }).click();
    await d.getByText('Password changed').waitFor();
    await d.getByRole('button', { name: 'Done' }).click();
    await d.waitFor({ state: 'detached' });
    expect((await call(base, 'POST', '/api/v1/session', { body: { username: 'asha', password: 'green valley 2026' } })).status).toBe(401);
    expect((await call(base, 'POST', '/api/v1/session', { body: { username: 'asha', password: 'green valley 2027' } })).status).toBe(200);
    // This tab's session survived its own change.
    const token = await page.evaluate(() => sessionStorage.getItem('clinic-desk.token'));
    expect((await call(base, 'GET', '/api/v1/me', { headers: { auth: token! } })).status).toBe(200);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
  });

  it('creates an API client, shows its secret once in a dialog that only its button closes, and revokes it', async () => {
    await tab('API clients').click();
    await page.getByText('No API clients').waitFor();
    const d = page.getByRole('dialog', { name: 'New API client' });
    // Before the secret exists, Escape closes the dialog as any other.
    await page.getByRole('button', { name: 'New API client' }).click();
    await d.waitFor();
    await page.keyboard.press('Escape');
    await d.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'New API client' }).click();
    await d.locator('input[name=client_name]').fill('City Lab');
    await d.getByRole('button', { name: 'Create' }).click();
    const secret = (await d.getByTestId('secret').textContent())!;
    expect(secret).toMatch(/cds_/);
    await shot(page, 'settings-api-client-secret');
    // Once shown, the secret is lost when the dialog closes: Escape, a click beside it and a × do not close it.
    await page.keyboard.press('Escape');
    await page.locator('.backdrop').click({ position: { x: 4, y: 4 } });
    expect(await d.getByTestId('secret').textContent()).toBe(secret);
    expect(await d.getByRole('button', { name: 'Close' }).count()).toBe(0);
    await d.getByRole('button', { name: 'I have stored it' }).click();
    const table = page.getByRole('table', { name: 'API clients' });
    await table.getByText('City Lab').waitFor();
    expect(await table.textContent()).not.toContain(secret.replace('Copy', '').trim());
    await table.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke City Lab?' }).getByRole('button', { name: 'Revoke client' }).click();
    await table.getByText(/Revoked/).waitFor();
  });

  it('creates and revokes an API key', async () => {
    await tab('API keys').click();
    await page.getByLabel('Key label').fill('EMR integration');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByTestId('secret').textContent()).toMatch(/cdk_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const table = page.getByRole('table', { name: 'API keys' });
    await table.getByText('EMR integration').waitFor();
    await table.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke the key “EMR integration”?' }).getByRole('button', { name: 'Revoke key' }).click();
    await table.getByText('Revoked').waitFor();
  });

  it('subscribes a webhook, shows its delivery log, and redelivers', async () => {
    await tab('Webhooks').click();
    await page.getByText('No webhooks').waitFor();
    await page.getByLabel('Endpoint').fill(hookUrl);
    await page.getByLabel('Signing key (recommended)').fill('whsec_settings_test');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const table = page.getByRole('table', { name: 'Webhooks' });
    await table.getByText(hookUrl).waitFor();
    await table.getByText('Active').waitFor();
    await raiseEvents('Kiran');
    await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await table.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByRole('dialog', { name: 'Delivery log' });
    await log.getByText('appointment.statuschange').first().waitFor();
    await log.getByText('delivered').first().waitFor();
    expect(await log.getByText('Active', { exact: true }).count()).toBe(1);
    await shot(page, 'settings-webhooks');
    const before = received.length;
    await log.getByRole('button', { name: 'Redeliver' }).first().click();
    await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThan(before);
    await log.getByRole('button', { name: 'Close' }).click();
  });

  it('shows a subscription whose receiver answered 410 Gone as disabled, says what to do, and offers no Redeliver', async () => {
    await page.getByLabel('Endpoint').fill(goneUrl);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const table = page.getByRole('table', { name: 'Webhooks' });
    const row = table.getByRole('row').filter({ hasText: goneUrl });
    await row.getByText('Active').waitFor();
    await raiseEvents('Meera');
    await expect.poll(() => gone.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await row.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByRole('dialog', { name: 'Delivery log' });
    await log.getByText('Disabled: Clinic Desk sends nothing more to this endpoint').waitFor({ timeout: 10_000 });
    expect(await log.textContent()).toContain('endpoint answered 410 Gone');
    expect(await log.textContent()).toContain('delete this webhook and add it again');
    await log.getByText('disabled', { exact: true }).first().waitFor();
    expect(await log.getByRole('button', { name: 'Redeliver' }).count()).toBe(0);
    await log.getByRole('button', { name: 'Close' }).click();
    await row.getByText('Disabled', { exact: true }).waitFor();
    expect(await row.textContent()).toContain('endpoint answered 410 Gone');
    // The other receiver's subscription is untouched.
    await table.getByRole('row').filter({ hasText: hookUrl }).getByText('Active').waitFor();
    // A fresh read of the list (the panel mounted again) says so too, without the log being opened.
    await tab('Push notifications').click();
    await tab('Webhooks').click();
    await row.getByText('Disabled', { exact: true }).waitFor();
  });

  it('stores push credentials from the key file, and says plainly when a file is not one', async () => {
    await tab('Push notifications').click();
    await page.getByText('No credentials yet').waitFor();
    const bad = join(files, 'notes.txt');
    writeFileSync(bad, 'not json');
    await page.locator('input[type=file]').setInputFiles(bad);
    await page.getByText('Not a key file').waitFor();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = join(files, 'clinic-firebase-adminsdk.json');
    writeFileSync(key, JSON.stringify({
      type: 'service_account', project_id: 'green-valley-clinic', private_key_id: 'abc123',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), client_email: 'push@green-valley-clinic.iam.gserviceaccount.com',
      token_uri: 'https://oauth2.googleapis.com/token',
    }));
    await page.locator('input[type=file]').setInputFiles(key);
    await page.getByText('green-valley-clinic', { exact: true }).waitFor();
    expect(await page.locator('.main').textContent()).not.toContain('PRIVATE KEY');
  });

  it('says plainly which optional backends are not installed, or lists what they hold', async () => {
    for (const name of ['Speech models', 'AI assistants']) {
      await tab(name).click();
      const panel = page.locator('.card').filter({ has: page.getByRole('heading', { name }) });
      await panel.getByText(/Not available on this clinic server yet|No .* yet|Assistant|Model/).first().waitFor();
    }
  });

  it('downloads a speech model with a progress bar, says why a download failed, and makes a model the default', async () => {
    await tab('Speech models').click();
    const table = page.getByRole('table', { name: 'Speech models' });
    const row = (id: string) => table.locator(`tr[data-model="${id}"]`);
    const defaultChip = (id: string) => row(id).getByText('Default', { exact: true });
    await defaultChip('pocketsphinx').waitFor();
    await row('base').getByRole('button', { name: 'Download' }).click();
    await row('base').getByRole('progressbar', { name: 'Downloading Whisper base' }).waitFor();
    await row('base').getByText('Installed').waitFor({ timeout: 20_000 });
    // tiny's pinned hashes reject the stand-in files: the row says so, and offers another try.
    await row('tiny').getByRole('button', { name: 'Download' }).click();
    await row('tiny').getByText(/Download failed\..*failed verification/).waitFor({ timeout: 20_000 });
    await row('tiny').getByRole('button', { name: 'Try again' }).waitFor();
    await row('base').getByRole('button', { name: 'Make default' }).click();
    await defaultChip('base').waitFor();
    expect(await defaultChip('pocketsphinx').count()).toBe(0);
    expect(await row('pocketsphinx').getByRole('button', { name: 'Make default' }).count()).toBe(1);
  });

  it('backs up the database and lists the copy', async () => {
    await tab('Backups').click();
    await page.getByText('No backups yet').waitFor();
    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByText('Backup made').waitFor();
    const table = page.getByRole('table', { name: 'Backups' });
    expect(await table.textContent()).toContain('clinic-desk-');
    expect(await table.textContent()).toContain(dataDir);
    await shot(page, 'settings-backups');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});

const noDownloadHelps = loadSherpa().module ? null : 'sherpa-onnx-node does not load here, so no model download is offered';

describe('first run where the scribe cannot transcribe, in Chromium', skipFor(uiSkipReason ?? noDownloadHelps), () => {
  it('says what is missing and offers the speech model download on the same screen, then opens the app', async () => {
    const dataDir = tempDir('ui-first-run-speech');
    const mirror = await startModelMirror();
    // PocketSphinx looks for its model in an empty folder: no engine can transcribe here, whatever this machine has.
    const service = await createService({
      kek: TEST_KEK, dataDir, speechModels: { mirror: mirror.url }, scribe: { worker: false, speech: { pocketsphinx: { modelDir: dataDir } } },
    });
    const app = await buildHttpApp(service);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const a = app.server.address();
    const browser = await launch();
    try {
      const { page, errors } = await openApp(browser, `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`);
      const form = page.getByRole('form', { name: 'Set up your clinic' });
      await form.getByLabel('Clinic name').fill('Hill View Clinic');
      await form.getByRole('button', { name: 'Continue' }).click();
      await form.locator('input[name=username]').fill('ravi');
      await form.locator('input[name=password]').fill('hill view 2026');
      await form.locator('input[name=password_again]').fill('hill view 2026');
      await form.getByRole('button', { name: 'Create clinic' }).click();
      const step = page.getByRole('region', { name: 'Dictation on this computer' });
      await step.waitFor();
      const sphinx = step.locator('li[data-engine="pocketsphinx:en-us+clinic-lm"]');
      expect(await sphinx.textContent()).toMatch(/not ready.*To fix: ((sudo )?apt-get install -y pocketsphinx pocketsphinx-en-us espeak-ng|install PocketSphinx)/s);
      await step.getByRole('button', { name: /^Download Whisper small/ }).click();
      await step.getByText('Whisper small is installed').waitFor({ timeout: 20_000 });
      await shot(page, 'first-run-speech');
      await step.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await app.close();
      await service.close();
      await mirror.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
