import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Handlers, type IpcEvent, createHandlers, toFailure } from '../../main/ipc.js';
import { recordingStore } from '../../main/recordings.js';
import { APP_METHOD_ARITY } from '../../preload/app-methods.js';
import { type DesktopSandbox, desktopSandbox } from '../../server/sandbox/desktop.js';
import { type RunningServer, TEST_KEK, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, openApp, shot, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * Settings → Sandbox in Chromium. Over the browser transport the panel says where the sandbox is managed. The
 * desktop app's window.clinic is the preload's bridge to main's handlers, which Chromium cannot load; here the page
 * gets the same named methods over a Playwright binding to the real handlers (main/ipc.ts) in this process, with a
 * real sandbox beside the live service, so the panel is driven as the app drives it: on, its address and
 * credentials, reset, off.
 */
describe('Settings → Sandbox in Chromium', skipFor(uiSkipReason), () => {
  let live: RunningServer;
  let sandbox: DesktopSandbox;
  let browser: Browser;

  beforeAll(async () => {
    live = await startServer();
    sandbox = desktopSandbox(live.service, { host: '127.0.0.1', port: 0, productionUrl: live.baseUrl, service: { kek: TEST_KEK } });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    await live?.close();
  });

  const admin = () => live.demo.workspaces[0]!.users.admin;

  async function openSandboxTab(page: Page) {
    await signIn(page, admin().username, admin().password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tablist', { name: 'Settings' }).getByRole('tab', { name: 'Sandbox' }).click();
  }

  /** What the preload does over IPC (preload/preload.ts), over a binding: each named method, its arguments cut to its arity, a failure rethrown as a plain object. */
  async function desktopBridge(context: BrowserContext) {
    const handlers = createHandlers({
      service: live.service, rendererUrl: `${live.baseUrl}/`, info: { baseUrl: live.baseUrl, version: '1.0' },
      recordings: recordingStore(tempDir('ui-sandbox-recordings')),
    }) as unknown as Record<string, (e: IpcEvent, ...a: unknown[]) => Promise<unknown>>;
    await context.exposeBinding('clinicIpc', async ({ frame }, method: keyof Handlers, args: unknown[]) => {
      const event: IpcEvent = { senderFrame: { url: frame.url() } as never, sender: { id: 1, send: () => undefined } };
      try {
        return { ok: true, value: await handlers[method]!(event, ...args) };
      } catch (e) {
        return { ok: false, error: toFailure(e) };
      }
    });
    await context.addInitScript((arity: Record<string, number>) => {
      type Ipc = (m: string, a: unknown[]) => Promise<{ ok: true; value: unknown } | { ok: false; error: object }>;
      const ipc = (window as unknown as { clinicIpc: Ipc }).clinicIpc;
      (window as unknown as { clinic: object }).clinic = Object.fromEntries(Object.entries(arity).map(([m, n]) => [
        m, (...args: unknown[]) => ipc(m, args.slice(0, n)).then((r) => {
          if (!r.ok) throw { ...r.error };
          return r.value;
        }),
      ]));
    }, APP_METHOD_ARITY);
  }

  it('over the browser transport: says the sandbox is the desktop app\'s to manage', async () => {
    const { context, page, errors } = await openApp(browser, live.baseUrl);
    try {
      await openSandboxTab(page);
      const note = page.getByRole('status').filter({ hasText: 'Managed in the desktop app' });
      await note.waitFor();
      expect(await note.textContent()).toContain('--sandbox');
      expect(await page.getByRole('button', { name: 'Turn on' }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('in the app: off, turned on (address and credentials), reset (new credentials), turned off', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
    try {
      await desktopBridge(context);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(live.baseUrl);
      await openSandboxTab(page);

      await page.getByRole('status').filter({ hasText: 'Off' }).waitFor();
      await page.getByRole('button', { name: 'Turn on' }).click();
      const address = page.getByTestId('sandbox-address');
      await address.waitFor({ timeout: 20_000 });
      const url = sandbox.state().url!;
      expect(await address.textContent()).toBe(url);
      const key = page.getByTestId('sandbox-api-key');
      const first = await key.textContent();
      expect(first).toBe(sandbox.state().credentials!.api_key);
      expect(first).toMatch(/^cdk_test_/);
      expect(await page.getByText(sandbox.state().credentialsFile).count()).toBe(1);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      await shot(page, 'settings-sandbox', page.locator('.card').filter({ hasText: 'Sandbox' }).last());

      await page.getByRole('button', { name: 'Reset sandbox' }).click();
      await page.getByRole('button', { name: 'Reset', exact: true }).click();
      await expect.poll(() => key.textContent(), { timeout: 20_000 }).not.toBe(first);
      expect(await key.textContent()).toBe(sandbox.state().credentials!.api_key);
      expect(await page.getByRole('button', { name: 'Reset', exact: true }).count()).toBe(0);

      await page.getByRole('button', { name: 'Turn off' }).click();
      await page.getByRole('status').filter({ hasText: 'Off' }).waitFor();
      expect(await address.count()).toBe(0);
      expect(sandbox.state()).toMatchObject({ enabled: false, url: null });
      expect(await fetch(`${url}/health`).then((r) => r.status, () => 'refused')).toBe('refused');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
