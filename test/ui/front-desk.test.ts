import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { clinicNoonClock, launch, openApp, shot, signIn, uiSkipReason } from '../helpers/browser.js';

describe('front desk in Chromium over the browser transport', skipFor(uiSkipReason), () => {
  let srv: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    // The booking below is at 23:45 "today": the clinic's day starts at noon, whatever the real hour.
    const clock = clinicNoonClock();
    srv = await startServer({ clock });
    browser = await launch();
    ({ page, errors } = await openApp(browser, srv.baseUrl, { clock }));
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  it('refuses a wrong password in plain words, then signs in to the role\'s view', async () => {
    const { username, password } = srv.demo.workspaces[0]!.users.reception;
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong username or password');
    await page.getByLabel('Password').fill('');
    await shot(page, 'sign-in');
    await signIn(page, username, password);
    // Front desk staff see the front desk only: no dictation, no settings.
    const nav = await page.getByRole('navigation', { name: 'Main' }).textContent();
    expect(nav).toContain('Front desk');
    expect(nav).not.toContain('Settings');
    expect(nav).not.toContain('Dictation');
  });

  it('has the search focused on start and searches as the tenth digit is typed, showing the whole family', async () => {
    const search = page.getByLabel('Mobile number');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Mobile number');
    await page.keyboard.type('98765');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('5 more digits');
    await page.keyboard.type('43210');
    const results = page.getByTestId('patient-result');
    await expect.poll(() => results.count()).toBe(2);
    const names = await results.allTextContents();
    expect(names.join(' ')).toContain('Priya Sharma');
    expect(names.join(' ')).toContain('Rahul Kumar Sharma');
    expect(await search.inputValue()).toBe('9876543210');
    await results.first().click();
    await page.getByRole('table', { name: 'Appointments' }).waitFor();
    await shot(page, 'front-desk');
  });

  it('registers a new patient from an unknown number, edits them, and books an appointment', async () => {
    const search = page.getByLabel('Mobile number');
    await search.fill('9000011111');
    await page.getByText('No patient with this number').waitFor();
    await page.getByRole('button', { name: 'Register new patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register a patient' });
    await dialog.getByLabel('First name').fill('Leela');
    await dialog.getByLabel('Last name').fill('Menon');
    await dialog.getByLabel('Date of birth').fill('1991-06-01');
    await dialog.getByRole('button', { name: 'Female' }).click();
    expect(await dialog.getByLabel('Mobile').inputValue()).toBe('9000011111');
    await shot(page, 'register-patient');
    await dialog.getByRole('button', { name: 'Register patient' }).click();
    await page.getByText('Leela Menon is registered.').waitFor();
    await expect.poll(() => page.getByTestId('patient-result').count()).toBe(1);

    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Leela Menon' });
    await edit.getByLabel('Email (optional)').fill('leela@example.com');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('details are saved').waitFor();
    expect(await page.getByLabel('Selected patient').textContent()).toContain('leela@example.com');

    await page.getByRole('button', { name: 'Book appointment' }).click();
    const book = page.getByRole('dialog', { name: 'Book an appointment for Leela Menon' });
    await book.getByLabel('Time').fill('23:45');
    await book.getByLabel('Reason (optional)').fill('Fever for three days');
    await shot(page, 'book-appointment');
    await book.getByRole('button', { name: 'Book appointment' }).click();
    await page.getByText('Appointment booked for Leela Menon.').waitFor();
    const row = page.getByTestId('queue-row').filter({ hasText: 'Leela Menon' });
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('BK');
    expect(await row.textContent()).toContain('Fever for three days');
  });

  it('checks a patient in and parks them', async () => {
    const row = page.getByTestId('queue-row').filter({ hasText: 'Leela Menon' });
    await row.getByRole('button', { name: /^Check in/ }).click();
    await expect.poll(() => row.getAttribute('data-status')).toBe('CK');
    await row.getByRole('button', { name: /^Park/ }).click();
    await expect.poll(() => row.getAttribute('data-status')).toBe('PK');
    expect(await row.textContent()).toContain('Parked');
  });

  /** Today's first booked row, found again by patient and time as its status changes. */
  async function firstBooked() {
    const row = page.getByTestId('queue-row').filter({ has: page.locator('[data-status="BK"]') }).first();
    const name = (await row.locator('.patient-name').textContent())!;
    const rowTime = (await row.locator('td').first().textContent())!;
    return page.getByTestId('queue-row').filter({ hasText: name }).filter({ hasText: rowTime });
  }
  const toast = (text: string) => page.locator('.toast').filter({ hasText: text });
  const buttonsOf = (row: ReturnType<typeof page.locator>) => row.getByRole('button').allTextContents();

  /** A row's Undo shows the minutes left of its window (10 at most; the row's clock ticks every 15 s, so allow 11). */
  const ROW_UNDO = /^Undo · 10 min$/;

  it('undoes a booked patient\'s no-show back to booked, from the toast or from the row; a late arrival checks in from the row', async () => {
    const target = await firstBooked();
    await target.getByRole('button', { name: /^No-show/ }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('NS');
    // The row: its undo while the window lasts, and a short "Check in" whose name and hover say it is a late arrival.
    expect(await buttonsOf(target)).toEqual([expect.stringMatching(ROW_UNDO), 'Check in']);
    const late = target.getByRole('button', { name: /^Check in \(arrived late\)/ });
    expect(await late.getAttribute('title')).toBe('Check in (arrived late)');
    await toast('marked no-show').getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('BK');
    await toast('is booked again').waitFor();
    // Back to exactly booked: the booked row's moves, and no undo of the undo.
    expect(await buttonsOf(target)).toEqual(['Check in', 'Park', 'No-show']);

    // Once the toast is gone, the row's own Undo does the same.
    await target.getByRole('button', { name: /^No-show/ }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('NS');
    await toast('marked no-show').getByRole('button', { name: 'Dismiss' }).click();
    const rowUndo = target.getByRole('button', { name: /^Undo: / });
    expect(await rowUndo.textContent()).toMatch(ROW_UNDO);
    await rowUndo.click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('BK');

    // A patient who does arrive after a no-show is checked in from the row.
    await target.getByRole('button', { name: /^No-show/ }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('NS');
    await target.getByRole('button', { name: /^Check in \(arrived late\)/ }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('CK');
  });

  it('undoes a no-show or a park of a checked-in patient (back to checked in), and a park of a booked one (back to booked)', async () => {
    const target = await firstBooked();
    await target.getByRole('button', { name: /^Check in/ }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('CK');
    await target.getByRole('button', { name: /^No-show/ }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('NS');
    await toast('marked no-show').getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('CK');
    await target.getByRole('button', { name: /^Park/ }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('PK');
    await toast('is now parked').getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => target.getAttribute('data-status')).toBe('CK');

    const booked = await firstBooked();
    await booked.getByRole('button', { name: /^Park/ }).click();
    await expect.poll(() => booked.getAttribute('data-status')).toBe('PK');
    // Front desk staff see a parked row's check-in (named for its meaning) and no-show, beside its undo.
    expect(await buttonsOf(booked)).toEqual([expect.stringMatching(ROW_UNDO), 'Check in', 'No-show']);
    expect(await booked.getByRole('button', { name: /^Check in \(back in waiting room\)/ }).getAttribute('title')).toBe('Check in (back in waiting room)');
    await toast('is now parked').getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => booked.getAttribute('data-status')).toBe('BK');
    await booked.getByRole('button', { name: /^Park/ }).click();
    await expect.poll(() => booked.getAttribute('data-status')).toBe('PK');
    await booked.getByRole('button', { name: /^Check in \(back in waiting room\)/ }).click();
    await expect.poll(() => booked.getAttribute('data-status')).toBe('CK');
    await toast('is now checked in').getByRole('button', { name: 'Dismiss' }).click();
    await page.locator('.alert.ok').getByRole('button', { name: 'Dismiss' }).click();
    await shot(page, 'queue');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
