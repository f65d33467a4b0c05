import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type RunningServer, startServer } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, signIn, uiSkipReason } from '../helpers/browser.js';

const SIZES = [{ width: 1024, height: 700 }, { width: 1280, height: 800 }] as const;
const LONG_FIRST = 'Venkataramanasubrahmanyam';
const LONG_LAST = `${'Chandrasekharan'.repeat(5)}Iyer`.slice(0, 100 - LONG_FIRST.length - 1);

describe("the day's queue and the waiting-room display in Chromium", skipFor(uiSkipReason), () => {
  let srv: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  let tvPassword: string;

  async function open(size: { width: number; height: number }, path = '/'): Promise<Page> {
    const context = await browser.newContext({ viewport: size, deviceScaleFactor: 1, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`);
    });
    await page.goto(srv.baseUrl + path);
    return page;
  }

  beforeAll(async () => {
    srv = await startServer();
    browser = await launch();
    const ws = srv.demo.workspaces[0]!;
    tvPassword = 'waiting-room-tv';
    await srv.service.auth.createUser(ws.workspace_id, { username: 'tv@sunrise', password: tvPassword, role: 'display', displayName: 'Waiting room TV' });
    // A patient with a 100-character name, booked today for the demo doctor, for the overflow checks.
    const h = { auth: ws.users.reception.auth_token };
    const p = await call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers: h, body: { first_name: LONG_FIRST, last_name: LONG_LAST, dob: '1980-05-05', gender: 'M', mobile: '9811122233' } });
    expect(p.status, p.text).toBe(201);
    const b = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', { headers: h, body: { patient_id: p.json.data.patient_id, walk_in: true, overbook: true, reason: 'A long reason '.repeat(20).trim() } });
    expect(b.status, b.text).toBe(201);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await srv?.close();
  });

  async function frontDesk(size: { width: number; height: number }) {
    const page = await open(size);
    const { username, password } = srv.demo.workspaces[0]!.users.reception;
    await signIn(page, username, password);
    await page.getByRole('table', { name: 'Appointments' }).waitFor();
    return page;
  }

  for (const size of [...SIZES, { width: 1366, height: 768 }]) {
    it(`at ${size.width}×${size.height}: no horizontal scrollbar, a 100-character name and the doctor's shown whole (wrapped, not cut), actions on one line`, async () => {
      expect(`${LONG_FIRST} ${LONG_LAST}`).toHaveLength(100);
      const page = await frontDesk(size);
      const row = page.getByTestId('queue-row').filter({ hasText: LONG_FIRST });
      await row.waitFor();
      const overflow = await page.evaluate(() => {
        const main = document.querySelector('.main')!;
        return { doc: document.documentElement.scrollWidth - document.documentElement.clientWidth, main: main.scrollWidth - main.clientWidth };
      });
      expect(overflow).toEqual({ doc: 0, main: 0 });
      // Issue 24 item 15: a name is never cut, in the patient column or the doctor's.
      const name = row.locator('.patient-name');
      expect(await name.textContent()).toBe(`${LONG_FIRST} ${LONG_LAST}`);
      for (const cell of [name, row.getByRole('cell').nth(2)]) expect(await cell.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
      // Every row's actions sit on one line, inside the table.
      const table = await page.getByRole('table', { name: 'Appointments' }).boundingBox();
      for (const actions of await page.locator('.queue-table .actions').all()) {
        const buttons = await actions.getByRole('button').all();
        const tops = new Set<number>();
        for (const b of buttons) {
          const box = (await b.boundingBox())!;
          tops.add(Math.round(box.y));
          expect(box.x + box.width).toBeLessThanOrEqual(table!.x + table!.width + 1);
        }
        expect(tops.size).toBeLessThanOrEqual(1);
      }
    });
  }

  it('refuses booking a taken slot with a sentence, and shows the doctor\'s taken slots', async () => {
    const page = await frontDesk(SIZES[0]);
    await page.getByLabel('Mobile number').fill(srv.demo.workspaces[0]!.patients[2]!.mobile);
    await page.getByTestId('patient-result').first().click();
    await page.getByRole('button', { name: 'Book appointment' }).click();
    const dialog = page.getByRole('dialog', { name: /^Book an appointment for/ });
    // Tomorrow at 10:00, then the same slot again for another patient.
    const tomorrow = await page.evaluate(() => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date(Date.now() + 86_400_000)));
    await dialog.getByLabel('Date').fill(tomorrow);
    await dialog.getByLabel('Time').fill('10:00');
    await dialog.getByRole('button', { name: 'Book appointment' }).click();
    await page.getByText(/Appointment booked for/).waitFor();

    await page.getByLabel('Mobile number').fill(srv.demo.workspaces[0]!.patients[3]!.mobile);
    await page.getByTestId('patient-result').first().click();
    await page.getByRole('button', { name: 'Book appointment' }).click();
    await dialog.getByLabel('Date').fill(tomorrow);
    await dialog.getByLabel('Time').fill('10:05');
    await expect.poll(() => dialog.getByTestId('taken-slot').allTextContents()).toContainEqual(expect.stringMatching(/10:00.*10:15/i));
    await dialog.getByRole('button', { name: 'Book appointment' }).click();
    const alert = dialog.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('This time is taken');
    expect(await alert.textContent()).not.toMatch(/overbook: true|SLOT_TAKEN/);
    // Confirming books it as an overbook.
    await alert.getByRole('button', { name: 'Book anyway (overbook)' }).click();
    await page.getByText(/Appointment booked for/).waitFor();
    const row = page.getByTestId('queue-row').filter({ hasText: 'overbooked' });
    await row.waitFor();
    expect(await row.evaluate((el) => el.classList.contains('highlight'))).toBe(true);
  });

  it('undoes a no-show back to booked', async () => {
    const page = await frontDesk(SIZES[1]);
    const row = page.getByTestId('queue-row').filter({ has: page.locator('[data-status="BK"]') }).first();
    const name = (await row.locator('.patient-name').textContent())!;
    const at = (await row.locator('td').first().locator('strong').textContent())!;
    const target = page.getByTestId('queue-row').filter({ hasText: name }).filter({ hasText: at });
    await target.getByRole('button', { name: /^No-show/ }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('NS');
    await page.locator('.toast').getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('BK');
    // The row's own undo works too, after the toast has gone.
    await target.getByRole('button', { name: /^No-show/ }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('NS');
    await target.getByRole('button', { name: /^Undo:/ }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('BK');
  });

  it('updates the display within 2 s of a check-in made in another browser context', async () => {
    const tv = await open(SIZES[1], '/display');
    await tv.getByLabel('Username').fill('tv@sunrise');
    await tv.getByLabel('Password').fill(tvPassword);
    await tv.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => tv.getByRole('status').filter({ hasText: 'Live' }).count(), { timeout: 10_000 }).toBe(1);
    const desk = await frontDesk(SIZES[0]);
    const row = desk.getByTestId('queue-row').filter({ has: desk.locator('[data-status="BK"]') }).first();
    const name = (await row.locator('.patient-name').textContent())!;
    const first = name.split(' ')[0]!;
    const before = await tv.getByTestId('display-next').filter({ hasText: first }).count();
    await row.getByRole('button', { name: /^Check in/ }).click();
    const t0 = Date.now();
    await expect.poll(() => tv.getByTestId('display-next').filter({ hasText: first }).count(), { timeout: 2_000, interval: 50 }).toBe(before + 1);
    expect(Date.now() - t0).toBeLessThan(2_000);
    // First name and token only: no surname, no mobile.
    const text = await tv.locator('.display-grid').textContent();
    expect(text).not.toContain(name.split(' ').slice(1).join(' ') || '\u0000');
    expect(text).not.toMatch(/\+91|98765/);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
