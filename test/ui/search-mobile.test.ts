import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, openApp, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * Issue 24, item 8 in Chromium: the front desk's search box reads +91, 91 and 0 in front of a mobile as the register
 * form does, typed digit by digit or pasted; it searches only the complete 10 digits, and "Register new patient"
 * pre-fills the number that was searched.
 */
describe('searching by mobile with a prefix, in Chromium', skipFor(uiSkipReason), () => {
  let srv: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  /** The mobiles the page asked the service to search, in order. */
  const searched: string[] = [];

  beforeAll(async () => {
    srv = await startServer();
    browser = await launch();
    ({ page, errors } = await openApp(browser, srv.baseUrl));
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.endsWith('/patients/search')) searched.push(u.searchParams.get('mobile') ?? '');
    });
    const { username, password } = srv.demo.workspaces[0]!.users.reception;
    await signIn(page, username, password);
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  const box = () => page.getByLabel('Mobile number');
  /** A patient on the demo's n-th mobile: a new number each time, so no search is answered from the page's cache. */
  const patient = (n: number) => {
    const ps = srv.demo.workspaces[0]!.patients;
    const mobile = [...new Set(ps.map((p) => p.mobile))][n]!;
    return ps.find((p) => p.mobile === mobile)!;
  };
  async function type(text: string) {
    await box().fill('');
    searched.length = 0;
    await box().pressSequentially(text);
  }

  it('types "+91" and the number digit by digit: searches the 10 digits once, finds the patient', async () => {
    const p = patient(0);
    await type(`+91${p.mobile}`);
    await page.getByTestId('patient-result').filter({ hasText: p.first_name }).first().waitFor();
    expect(await box().inputValue()).toBe(`+91${p.mobile}`);
    expect(searched).toEqual([p.mobile]);
  });

  it('types "0" and the number digit by digit, and pastes "+91 …" and "91…": each searches the same 10 digits', async () => {
    const p = patient(1);
    await type(`0${p.mobile}`);
    await page.getByTestId('patient-result').filter({ hasText: p.first_name }).first().waitFor();
    expect(searched).toEqual([p.mobile]);
    const q = patient(2);
    await box().fill('');
    searched.length = 0;
    await box().fill(`+91 ${q.mobile.slice(0, 5)} ${q.mobile.slice(5)}`);
    await page.getByTestId('patient-result').filter({ hasText: q.first_name }).first().waitFor();
    expect(searched).toEqual([q.mobile]);
    // The demo has three numbers: "91…" pasted is checked on one nobody has.
    await box().fill('');
    searched.length = 0;
    await box().fill('919876500044');
    await page.getByText('No patient with this number').waitFor();
    expect(searched).toEqual(['9876500044']);
  });

  it('never searches before the number is complete: "+9198765" says how many digits are missing', async () => {
    await type('+9198765');
    expect(await page.getByText('5 more digits to search').count()).toBe(1);
    await page.waitForTimeout(1500);
    expect(searched).toEqual([]);
  });

  it('pre-fills the register form with the 10 digits searched, not the first 10 typed', async () => {
    await type('+919876500042');
    await page.getByText('No patient with this number').waitFor();
    expect(searched).toEqual(['9876500042']);
    await page.getByRole('button', { name: 'Register new patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register a patient' });
    expect(await dialog.locator('[name="mobile"]').inputValue()).toBe('9876500042');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // "91" without a + is a mobile of its own at 10 digits (9198765000): typed on, the number that ends up searched is the right one.
    await type('919876500043');
    await page.getByText('No patient with this number').waitFor();
    await expect.poll(() => searched.at(-1)).toBe('9876500043');
    await page.getByRole('button', { name: 'Register new patient' }).click();
    expect(await dialog.locator('[name="mobile"]').inputValue()).toBe('9876500043');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(errors).toEqual([]);
  });
});
