import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type RunningServer, startServer } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, signIn, uiSkipReason } from '../helpers/browser.js';

describe('the display role in Chromium: created in Settings, sent from / to the waiting-room board', skipFor(uiSkipReason), () => {
  let srv: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function open(path = '/'): Promise<{ page: Page; errors: string[]; forbidden: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    const forbidden: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() === 403) forbidden.push(new URL(r.url()).pathname);
    });
    await page.goto(srv.baseUrl + path);
    return { page, errors, forbidden };
  }

  /** Signs in on whichever sign-in form the page shows (the app's or the display's), without waiting for the app's menu. */
  async function signInAs(page: Page, username: string, password: string) {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** The board is up and streaming, with the clinic's doctor on it. */
  async function expectBoard(page: Page) {
    await page.waitForURL(`${srv.baseUrl}/display`);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('display-doctor').count()).toBeGreaterThan(0);
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  }

  beforeAll(async () => {
    srv = await startServer();
    browser = await launch();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await srv?.close();
  });

  it('an admin adds a display user in Settings, and that user signing in at / lands on /display, not the front desk', async () => {
    const admin = await open();
    const { username, password } = srv.demo.workspaces[0]!.users.admin;
    await signIn(admin.page, username, password);
    await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await admin.page.getByRole('tab', { name: 'Users' }).click();
    await admin.page.getByRole('button', { name: 'Add user' }).click();
    const d = admin.page.getByRole('dialog', { name: 'Add a user' });
    await d.locator('input[name=display_name]').fill('Waiting room TV');
    await d.locator('input[name=username]').fill('lobby-tv');
    await d.getByLabel('Role').selectOption({ label: 'Display (waiting-room screen)' });
    await d.getByText('For the waiting-room TV').waitFor();
    await d.locator('input[name=password]').fill('lobby tv pass');
    await d.getByRole('button', { name: 'Add user' }).click();
    const row = admin.page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: 'Waiting room TV' });
    await row.waitFor();
    expect(await row.getByRole('cell', { name: 'Display (waiting-room screen)' }).count()).toBe(1);
    const session = await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username: 'lobby-tv', password: 'lobby tv pass' } });
    expect(session.json.user.role).toBe('display');

    const tv = await open('/');
    await signInAs(tv.page, 'lobby-tv', 'lobby tv pass');
    await expectBoard(tv.page);
    // The front desk's calls would each have been refused: the display went straight to the board.
    expect(tv.forbidden).toEqual([]);
    expect(tv.errors).toEqual([]);
    // A reload keeps the board (the tab's session went with it).
    await tv.page.reload();
    await expectBoard(tv.page);
  });

  it('each demo clinic has a display user whose credentials work at /display', async () => {
    for (const ws of srv.demo.workspaces) {
      const { username, password } = ws.users.display;
      expect(username).toMatch(/^display@/);
      const tv = await open('/display');
      await signInAs(tv.page, username, password);
      await expectBoard(tv.page);
      expect(await tv.page.locator('.display-head').textContent()).toContain(ws.name);
      expect(tv.forbidden).toEqual([]);
      expect(tv.errors).toEqual([]);
    }
  });
});
