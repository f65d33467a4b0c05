import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelManager } from '../../server/scribe/asr/models.js';
import { loadSherpa } from '../../server/scribe/asr/whisper.js';
import { missing } from '../helpers/needs.js';
import { type RunningServer, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, openApp, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * The Dictation screen's language list in Chromium: on a fresh install (PocketSphinx, no Whisper model) English
 * works and the other languages say they need a model download and cannot be picked; once a model is in place
 * they can, without restarting anything.
 */
const skip = uiSkipReason
  ?? missing('pocketsphinx')
  ?? (loadSherpa().module ? null : 'sherpa-onnx-node does not load here (no model download could help)');

describe('the dictation language list in Chromium', skipFor(skip), () => {
  let srv: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  const option = (label: string) => page.getByLabel('Language spoken').locator('option', { hasText: label });

  beforeAll(async () => {
    srv = await startServer();
    browser = await launch();
    ({ page, errors } = await openApp(browser, srv.baseUrl));
    const { username, password } = srv.demo.workspaces[0]!.users.doctor;
    await signIn(page, username, password);
    await page.getByRole('heading', { name: 'Dictation', exact: true }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  it('labels each language: English works now, the others need a model download and cannot be chosen', async () => {
    await option('Hindi · needs a model download').waitFor({ state: 'attached' });
    expect(await option('English (India)').textContent()).toBe('English (India)');
    expect(await option('English (India)').isDisabled()).toBe(false);
    for (const name of ['Hindi', 'Tamil', 'Bengali']) {
      expect(await option(name).textContent()).toBe(`${name} · needs a model download`);
      expect(await option(name).isDisabled()).toBe(true);
    }
    expect(await page.getByText('works once an administrator downloads a speech model in Settings → Speech models').isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('offers a language as soon as a model for it is installed', async () => {
    const files = join(tempDir('ui-languages-model'), 'model');
    mkdirSync(files, { recursive: true });
    for (const f of ['m-encoder.int8.onnx', 'm-decoder.int8.onnx', 'm-tokens.txt']) writeFileSync(join(files, f), 'not a model');
    await new ModelManager({ dir: join(srv.dataDir, 'models') }).useLocalModel(files, { id: 'clinic' });
    // Coming back to the screen asks the server again.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Front desk' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Dictation' }).click();
    await option('Hindi').filter({ hasNotText: 'needs' }).waitFor({ state: 'attached' });
    expect(await option('Hindi').isDisabled()).toBe(false);
    await page.getByLabel('Language spoken').selectOption('hi');
    expect(await page.getByLabel('Language spoken').inputValue()).toBe('hi');
    expect(await page.getByText('needs a model download').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
