import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth } from '../helpers/dr.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, openApp, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * Issue 24, item 9, in Chromium: while the server does not answer, a check-in says which move failed and for whom,
 * and the queue says it could not be updated; when the server answers again the queue's error goes by itself and
 * the failed check-in is offered again, and goes through.
 */
describe('the front desk through an outage, in Chromium', skipFor(uiSkipReason), () => {
  let srv: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    srv = await startServer();
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  it('says what failed, clears the error when the server is back, and offers the failed check-in again', async () => {
    const ws = srv.demo.workspaces[0]!;
    const h = auth(ws.users.reception.auth_token);
    const p = await call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers: h, body: { first_name: 'Devika', last_name: 'Outage', dob: '1990-01-01', gender: 'F', mobile: '7300000009' } });
    expect(p.status, p.text).toBe(201);
    const b = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', { headers: h, body: { patient_id: p.json.data.patient_id, walk_in: true, overbook: true } });
    expect(b.status, b.text).toBe(201);
    const id = b.json.data.appointment_id as string;
    const status = async () => (await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${id}`, { headers: h })).json.data.status as string;

    const { page, context } = await openApp(browser, srv.baseUrl);
    await signIn(page, ws.users.reception.username, ws.users.reception.password);
    const row = page.getByTestId('queue-row').filter({ hasText: 'Devika Outage' });
    await row.waitFor();
    // The server stops answering (the check-in and the queue's reads fail as a dead connection does).
    await page.route(/\/dr\/v1\/appointment\/[^/]+\/change-status/, (r) => r.abort('connectionrefused'));
    await page.route(/\/dr\/v1\/appointments(\?|$)/, (r) => r.abort('connectionrefused'));
    await row.getByRole('button', { name: /^Check in: / }).click();
    const failed = page.getByTestId('failed-action');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('Check in for Devika Outage did not go through');
    expect(await failed.textContent()).toContain('The clinic server is not answering');
    expect(await failed.getAttribute('class')).toContain('error');
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    await page.getByRole('alert').filter({ hasText: 'The queue could not be updated' }).waitFor();
    expect(await status()).toBe('BK');

    // The server answers again: the queue's error goes at its next read, the failed check-in is still offered.
    await page.unrouteAll();
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'The queue could not be updated' }).count()).toBe(0);
    await expect.poll(() => failed.getAttribute('class')).toContain('warn');
    expect(await failed.textContent()).toContain('it is back now');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(status).toBe('CK');
    await expect.poll(() => failed.count()).toBe(0);
    await context.close();
  });
});
