import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth } from '../helpers/dr.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, openApp, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * Issue 24, item 10, in Chromium: "Call next" while a patient is still with the doctor asks to mark them done
 * rather than putting two patients in at once, and checking in a patient already checked in that day warns.
 */
describe('one patient in at a time, one check-in a day, in Chromium', skipFor(uiSkipReason), () => {
  let srv: RunningServer;
  let browser: Browser;
  let doctorId: string;
  const password = 'queue-once-doctor';

  const reception = () => srv.demo.workspaces[0]!.users.reception.auth_token;
  const status = async (id: string) => (await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${id}`, { headers: auth(reception()) })).json.data.status as string;
  async function patient(first: string, mobile: string) {
    const r = await call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers: auth(reception()), body: { first_name: first, last_name: 'Once', dob: '1990-01-01', gender: 'F', mobile } });
    expect(r.status, r.text).toBe(201);
    return r.json.data.patient_id as string;
  }
  async function book(patientId: string, checkIn: boolean) {
    const r = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
      headers: auth(reception()), body: { patient_id: patientId, doctor_id: doctorId, scheduled_at: new Date().toISOString(), overbook: true },
    });
    expect(r.status, r.text).toBe(201);
    const id = r.json.data.appointment_id as string;
    if (checkIn) expect((await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${id}/change-status?partner_id=0`, { headers: auth(reception()), body: { status: 'CK' } })).status).toBe(200);
    return id;
  }

  beforeAll(async () => {
    srv = await startServer();
    browser = await launch();
    const ws = srv.demo.workspaces[0]!;
    doctorId = (await srv.service.auth.createUser(ws.workspace_id, { username: 'once@sunrise', password, role: 'doctor', displayName: 'Dr Once' })).id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  it('"Call next" with a patient still inside asks, and marks them done only when told', async () => {
    const first = await book(await patient('Asha', '7300000001'), true);
    const second = await book(await patient('Bina', '7300000002'), true);
    const { page, context, errors } = await openApp(browser, srv.baseUrl);
    await signIn(page, 'once@sunrise', password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Front desk' }).click();
    const callNext = page.getByRole('button', { name: 'Call next patient' });
    await callNext.click();
    await expect.poll(() => status(first)).toBe('OG');
    await callNext.click();
    const dialog = page.getByRole('dialog', { name: 'A patient is still with the doctor' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Token 1 is still with Dr Once');
    expect([await status(first), await status(second)]).toStrictEqual(['OG', 'CK']);
    await dialog.getByRole('button', { name: 'Mark done and call next' }).click();
    await expect.poll(() => status(second)).toBe('OG');
    expect(await status(first)).toBe('CM');
    expect(errors).toStrictEqual([]);
    await context.close();
  });

  it('checking in a patient already checked in today warns, and checks in again only when told', async () => {
    const p = await patient('Chitra', '7300000003');
    await book(p, true);
    const again = await book(p, false);
    const { page, context, errors } = await openApp(browser, srv.baseUrl);
    const { username, password: pw } = srv.demo.workspaces[0]!.users.reception;
    await signIn(page, username, pw);
    const row = page.getByTestId('queue-row').filter({ hasText: 'Chitra Once' }).filter({ has: page.getByRole('button', { name: /^Check in: / }) });
    await row.getByRole('button', { name: /^Check in: / }).click();
    const dialog = page.getByRole('dialog', { name: 'Already checked in today' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/Chitra Once is checked in with token \d+/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await status(again)).toBe('BK');
    await row.getByRole('button', { name: /^Check in: / }).click();
    await dialog.getByRole('button', { name: 'Check in again' }).click();
    await expect.poll(() => status(again)).toBe('CK');
    expect(errors).toStrictEqual([]);
    await context.close();
  });
});
