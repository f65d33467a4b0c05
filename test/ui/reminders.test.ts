import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { localDate, wallClockToInstant } from '../../server/shared/time.js';
import { TW_SID, TW_TOKEN, startProviders, twilioRequestSignature } from '../helpers/messaging-providers.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, openApp, shot, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * Reminders in Chromium (issue 29): the admin sets an SMS provider in Settings → Reminders, and the front desk's
 * queue shows each appointment's reminder and the patient's answer, an answer arriving while it is open included.
 */
describe('reminders in Settings and the queue, in Chromium', skipFor(uiSkipReason), () => {
  let srv: RunningServer;
  let providers: Awaited<ReturnType<typeof startProviders>>;
  let browser: Browser;
  let ws: DemoWorkspace;
  const errors: string[] = [];

  beforeAll(async () => {
    providers = await startProviders();
    srv = await startServer({ reminders: { sender: false } });
    ws = srv.demo.workspaces[0]!;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
    await providers?.close();
  });

  async function open(role: 'admin' | 'reception'): Promise<Page> {
    const { page, errors: e } = await openApp(browser, srv.baseUrl);
    await signIn(page, ws.users[role].username, ws.users[role].password);
    errors.push(...e);
    return page;
  }

  function reply(from: string, body: string) {
    const path = `/api/v1/reminders/twilio/${ws.workspace_id}/webhook`;
    const params = { AccountSid: TW_SID, MessageSid: `SM${body}${from.slice(-4)}`, From: from, To: '+15005550006', Body: body };
    return call(srv.baseUrl, 'POST', path, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioRequestSignature(TW_TOKEN, srv.baseUrl + path, params) },
      rawBody: new URLSearchParams(params).toString(),
    });
  }

  it('Settings → Reminders: the admin sets an SMS provider; the token is kept and never shown', async () => {
    const page = await open('admin');
    await page.goto(`${srv.baseUrl}/#/settings/reminders`);
    const form = page.getByRole('form', { name: 'Reminder settings' });
    await form.waitFor();
    await form.getByLabel('SMS (Twilio or compatible)').check();
    await form.getByLabel('Account SID').fill(TW_SID);
    await form.getByLabel('Auth token').fill(TW_TOKEN);
    await form.getByLabel('Sender').fill('+15005550006');
    await form.getByLabel('API address').fill(providers.baseUrl);
    await form.getByLabel('Clinic address').fill('12 MG Road, Pune');
    await form.getByLabel('Public address of this server').fill(srv.baseUrl);
    await form.getByLabel('Quiet hours from').fill('');
    await form.getByLabel('Confirm each booking at once').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await expect(form.getByTestId('reminder-webhook').textContent()).resolves.toBe(`${srv.baseUrl}/api/v1/reminders/twilio/${ws.workspace_id}/webhook`);
    expect(await form.getByLabel('Auth token').inputValue()).toBe('');
    const stored = await call(srv.baseUrl, 'GET', '/api/v1/reminders/settings', { headers: { auth: ws.users.admin.auth_token } });
    expect(stored.json).toMatchObject({ provider: 'twilio', enabled: true, clinic_address: '12 MG Road, Pune', twilio: { account_sid: TW_SID, base_url: providers.baseUrl } });
    expect(stored.json.schedule).toMatchObject({ on_booking: true, quiet_hours: null });
    await shot(page, 'settings-reminders', page.locator('.settings > div').first());
    await page.context().close();
  });

  it("the queue shows each appointment's reminder and the patient's answer, and an answer arriving while it is open", async () => {
    const h = { auth: ws.users.reception.auth_token };
    const patients = [0, 2, 3].map((i) => ws.patients[i]!);
    // Tomorrow morning (a walk-in, booked for now, has no time left for a reminder).
    const tomorrow = localDate(new Date(Date.now() + 86_400_000), 'Asia/Kolkata');
    for (const [i, p] of patients.entries()) {
      const at = wallClockToInstant(tomorrow, 10, 30 * i, 'Asia/Kolkata').toISOString();
      const b = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', { headers: h, body: { patient_id: p.patient_id, scheduled_at: at } });
      expect(b.status, b.text).toBe(201);
    }
    await srv.service.reminders.runOnce();
    expect(providers.sms.map((m) => m.To).sort()).toEqual(patients.map((p) => `+91${p.mobile}`).sort());
    expect((await reply(`+91${patients[0]!.mobile}`, 'C')).status).toBe(200);
    expect((await reply(`+91${patients[1]!.mobile}`, 'X')).status).toBe(200);

    const page = await open('reception');
    await page.getByLabel('Queue date').fill(tomorrow);
    const row = (name: string) => page.getByTestId('queue-row').filter({ hasText: name }).last();
    const state = (name: string) => row(name).getByTestId('reminder-state');
    await expect(state(patients[0]!.first_name).textContent()).resolves.toBe('Confirmed');
    await state(patients[1]!.first_name).waitFor();
    expect(await state(patients[1]!.first_name).textContent()).toBe('Cancelled by patient');
    expect(await row(patients[1]!.first_name).getAttribute('data-status')).toBe('CN');
    expect(await state(patients[2]!.first_name).textContent()).toBe('Reminded');

    // The third patient answers while the queue is open: it shows without a reload.
    expect((await reply(`+91${patients[2]!.mobile}`, 'R')).status).toBe(200);
    await row(patients[2]!.first_name).getByTestId('reminder-state').filter({ hasText: 'Wants another time' }).waitFor({ timeout: 10_000 });
    await shot(page, 'queue-reminders', page.getByRole('table', { name: 'Appointments' }));
    await page.context().close();
    expect(errors).toEqual([]);
  });
});
