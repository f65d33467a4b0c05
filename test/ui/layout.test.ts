import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * Issue 24 item 15 in Chromium: at 1024×700 and 1366×768 the top bar keeps one line for every role, and the
 * waiting-room clock tells the clinic's time on a screen set to another time zone. Whole names in the queue are
 * checked with its other overflow checks (ui/queue.test.ts).
 */
describe('the top bar at small screens, and the display clock, in Chromium', skipFor(uiSkipReason), () => {
  let srv: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    srv = await startServer();
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  const open = async (width: number, height: number, timezoneId = 'Asia/Kolkata'): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, locale: 'en-IN', timezoneId });
    const page = await context.newPage();
    await page.goto(srv.baseUrl);
    return page;
  };

  /** Elements whose content is wider than their box, or with a piece of text that wraps. */
  const cut = (page: Page, selector: string) => page.locator(selector).evaluateAll((els) => els.flatMap((el) => {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let wraps = false;
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      range.selectNodeContents(t);
      wraps ||= new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
    }
    return el.scrollWidth > el.clientWidth + 1 || wraps ? [`${el.textContent} (${el.scrollWidth} > ${el.clientWidth} px${wraps ? ', wraps' : ''})`] : [];
  }));

  for (const [width, height] of [[1024, 700], [1366, 768]] as const) {
    it(`${width}×${height}: the top bar keeps one line for every role`, async () => {
      for (const role of ['admin', 'doctor', 'reception'] as const) {
        const page = await open(width, height);
        const u = srv.demo.workspaces[0]!.users[role];
        await signIn(page, u.username, u.password);
        expect(await cut(page, '.topbar .brand > div, .topbar .nav button, .topbar .user strong, .topbar .user div, .topbar .user button'), role).toEqual([]);
        expect(await cut(page, '.topbar'), role).toEqual([]);
        await page.context().close();
      }
    });
  }

  it('the waiting-room clock shows the clinic\'s time, not the screen\'s time zone', async () => {
    const page = await open(1366, 768, 'America/New_York');
    const u = srv.demo.workspaces[0]!.users.display;
    await page.getByLabel('Username').fill(u.username);
    await page.getByLabel('Password').fill(u.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const clock = page.locator('.display-clock');
    await clock.waitFor();
    // Read the clinic's time around the clock's, so a minute turning over between them does not fail the test; the
    // clock is read again every 10 s (display/Display.tsx), so it may still show the minute that ended up to 10 s ago.
    const at = (d: Date) => d.toLocaleTimeString('en-IN', { hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Kolkata' });
    const before = new Date(Date.now() - 11_000);
    const shown = await clock.textContent();
    expect([at(before), at(new Date(before.getTime() + 11_000)), at(new Date())]).toContain(shown);
    await page.context().close();
  });
});
