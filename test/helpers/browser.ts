import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Locator, type Page, chromium } from 'playwright-core';
import { CHROMIUM, missing } from './needs.js';
import { ROOT } from './server.js';
import type { Clock } from '../../server/shared/time.js';

export const uiNotBuilt = existsSync(join(ROOT, 'dist', 'renderer', 'index.html')) ? null : 'the renderer is not built (node scripts/build.mjs; npm test builds it first)';
export const uiSkipReason = missing('chromium') ?? uiNotBuilt;

/** Where the tests' pictures go: ignored by git, so npm test leaves the tree as it was; npm run screenshots copies the README's pictures to docs/screenshots. */
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

export async function launch(opts: { fakeAudioWav?: string } = {}): Promise<Browser> {
  const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required'];
  if (opts.fakeAudioWav) args.push(`--use-file-for-fake-audio-capture=${opts.fakeAudioWav}`);
  return chromium.launch({ executablePath: CHROMIUM!, headless: true, args });
}

/**
 * A clock running from the next noon in the demo clinic's zone (Asia/Kolkata), for a test that books "later today":
 * on the real clock such a time is in the past late in the clinic's evening. Give it to the server (startServer's
 * clock) and to the page (openApp's clock) so both agree on now.
 */
export function clinicNoonClock(): Clock {
  const now = Date.now();
  const ist = 5.5 * 3_600_000;
  const day = 86_400_000;
  const noon = Math.floor((now + ist) / day) * day + day / 2 - ist;
  const shift = noon >= now ? noon - now : noon + day - now;
  return { now: () => new Date(Date.now() + shift) };
}

export async function openApp(browser: Browser, baseUrl: string, opts: { clock?: Clock } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, deviceScaleFactor: 1, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
  // The page's clock runs on from the given time at the real pace, as the server's does.
  if (opts.clock) await context.clock.install({ time: opts.clock.now() });
  await context.grantPermissions(['microphone', 'clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  await page.goto(baseUrl);
  return { context, page, errors };
}

export async function signIn(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Saves test-results/screenshots/<name>.png: the viewport, or just `part` of the page. */
export async function shot(page: Page, name: string, part?: Locator) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Let fonts and transitions settle so screenshots are stable.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  const path = join(SCREENSHOTS, `${name}.png`);
  if (!part) return void (await page.screenshot({ path }));
  // The app scrolls inside its main area, so a tall part is only painted whole in a viewport tall enough for it.
  const size = page.viewportSize()!;
  const box = await part.boundingBox();
  if (box && box.height + 120 > size.height) {
    await page.setViewportSize({ width: size.width, height: Math.ceil(box.height + 200) });
    await part.scrollIntoViewIfNeeded();
    await page.waitForTimeout(150);
  }
  await part.screenshot({ path });
  await page.setViewportSize(size);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core's serious and critical WCAG 2.2 AA violations on the page as it is now, one line each ("rule: element:
 * why"); empty when there are none. The script is evaluated, not added as a tag: the app's CSP refuses inline scripts.
 */
export async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    const { violations } = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`));
  }, WCAG22_AA);
}
