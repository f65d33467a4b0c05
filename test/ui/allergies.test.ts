import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, expectDrOk } from '../helpers/dr.js';
import { skipFor } from '../helpers/skip.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';
import { launch, openApp, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * Issue 12 item 2 in Chromium: the edit form shows the record's allergies, takes more as comma-separated text shown
 * as chips, refuses an allergy longer than the service takes next to the field, and saves the list; the Dictation
 * screen says the patient's allergies under the patient the dictation is filed with.
 */

describe('allergies in the patient record, in Chromium', skipFor(uiSkipReason), () => {
  let srv: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let patientId: string;
  const MOBILE = '7012348801';

  beforeAll(async () => {
    srv = await startServer();
    const ws = srv.demo.workspaces[0]!;
    patientId = expectDrOk(await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
      headers: auth(ws.users.reception.auth_token),
      body: { first_name: 'Meera', last_name: 'Allergic', dob: '1979-12-02', gender: 'F', mobile: MOBILE, allergies: ['penicillin'] },
    }), 201).patient_id;
    browser = await launch();
    ({ page, errors } = await openApp(browser, srv.baseUrl));
    await page.setViewportSize({ width: 1024, height: 700 });
    await signIn(page, ws.users.doctor.username, ws.users.doctor.password);
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  const pick = async () => {
    await page.getByLabel('Mobile number').fill(MOBILE);
    await page.getByTestId('patient-result').filter({ hasText: 'Meera Allergic' }).click();
  };

  it('edits the allergies as comma-separated text, shown as chips, refused in words when too long', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByText('Front desk').click();
    await pick();
    await page.getByLabel('Selected patient').getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Meera Allergic' });
    const field = dialog.locator('[name="allergies"]');
    expect(await field.inputValue()).toBe('penicillin');
    await field.fill(`penicillin, ${'x'.repeat(101)}`);
    await field.blur();
    await expect.poll(() => dialog.locator('label.field:has([name="allergies"]) .err').textContent())
      .toBe('Each allergy must be at most 100 characters; separate them with commas.');
    expect(await dialog.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    await field.fill('penicillin,  sulfa drugs ,');
    expect(await dialog.getByTestId('allergy-chips').getByRole('listitem').allTextContents()).toEqual(['penicillin', 'sulfa drugs']);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = srv.service.db.prepare('SELECT allergies FROM patients WHERE id = ?').get(patientId) as { allergies: string };
    expect(JSON.parse(row.allergies)).toEqual(['penicillin', 'sulfa drugs']);
  });

  it('says the allergies on the Dictation screen under the patient the dictation is filed with', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByText('Dictation').click();
    await page.getByRole('heading', { name: 'Dictation', exact: true }).waitFor();
    await pick();
    await expect.poll(() => page.getByTestId('patient-allergies').textContent()).toBe('Allergies: penicillin, sulfa drugs');
    expect(errors).toEqual([]);
  });
});
