import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, openApp, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * Issue 24, items 6 and 7, in Chromium: on a shared desk, signing out shows the sign-in form at once with no
 * patient's name left in the page, and a session ended elsewhere (expired, or signed out from another window) clears
 * the desk the same way, offers "Sign in again" and, after it, opens the screen where the person was.
 */
describe('the end of a session on a shared desk, in Chromium', skipFor(uiSkipReason), () => {
  let srv: RunningServer;
  let browser: Browser;
  let names: string[];

  beforeAll(async () => {
    srv = await startServer();
    browser = await launch();
    const ws = srv.demo.workspaces[0]!;
    const booked = new Set(ws.appointments.map((a) => a.patient_id));
    names = ws.patients.filter((p) => booked.has(p.patient_id)).map((p) => `${p.first_name} ${p.last_name}`);
    expect(names.length).toBeGreaterThan(0);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  const bodyText = (page: Page) => page.evaluate(() => document.body.innerText);

  it('signing out shows the sign-in form at once, without waiting for the server, and no patient is left in the page', async () => {
    const { page, context, errors } = await openApp(browser, srv.baseUrl);
    const { username, password } = srv.demo.workspaces[0]!.users.reception;
    await signIn(page, username, password);
    await page.getByRole('table', { name: 'Appointments' }).waitFor();
    const before = await bodyText(page);
    expect(names.filter((n) => before.includes(n)), before).not.toStrictEqual([]);
    // The server takes its time to end the session: the desk must not wait for it.
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    await page.route('**/api/v1/session', async (route) => {
      if (route.request().method() !== 'DELETE') return route.continue();
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('form', { name: 'Sign in' }).waitFor({ timeout: 2_000 });
    const text = await bodyText(page);
    for (const n of names) expect(text).not.toContain(n);
    expect(await page.locator('[data-testid="scribe-result"], table').count()).toBe(0);
    release();
    expect(errors).toStrictEqual([]);
    await context.close();
  });

  it('an expired session clears the desk, offers "Sign in again" and returns to the screen the person was on', async () => {
    const { page, context } = await openApp(browser, srv.baseUrl);
    const { username, password } = srv.demo.workspaces[0]!.users.admin;
    await signIn(page, username, password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('tablist', { name: 'Settings' });
    await settings.waitFor();
    expect(await page.evaluate(() => location.hash)).toBe('#/settings');

    // The session ends elsewhere (another window signed this user out): the page learns it at its next request.
    const token = await page.evaluate(() => sessionStorage.getItem('clinic-desk.token'));
    const ended = await fetch(`${srv.baseUrl}/api/v1/session`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(ended.status).toBeLessThan(300);
    // As when the person comes back to the window: the screen's data is fetched again.
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));

    const again = page.getByRole('button', { name: 'Sign in again' });
    await again.waitFor({ timeout: 10_000 });
    expect(await bodyText(page)).toContain('Your session ended');
    expect(await settings.count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await page.getByLabel('Username').inputValue()).toBe(username);
    await page.getByLabel('Password').fill(password);
    await again.click();
    await settings.waitFor();
    expect(await page.evaluate(() => location.hash)).toBe('#/settings');
    await context.close();
  });
});
