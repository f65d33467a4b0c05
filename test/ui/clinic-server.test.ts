import { rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERER_URL } from '../../main/app-origin.js';
import { clinicServerSwitch, startPlan } from '../../main/connection.js';
import { type Handlers, type IpcEvent, createHandlers, toFailure } from '../../main/ipc.js';
import { recordingStore } from '../../main/recordings.js';
import { APP_METHOD_ARITY } from '../../preload/app-methods.js';
import { buildHttpApp } from '../../server/http/app.js';
import { type Service, createService } from '../../server/service.js';
import { type RunningServer, TEST_KEK, call, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch, openApp, shot, signIn, uiSkipReason } from '../helpers/browser.js';

/**
 * Settings → "Use a clinic server" (issue 17 item 5) in Chromium, then what the app shows after its restart; and
 * the first-run screen's "Join a clinic server" on a computer with no clinic yet.
 *
 * The section exists only where window.clinic is the desktop bridge, which needs Electron (not runnable here). So
 * the page gets the one part Electron would give it, the preload's pipe: window.clinic's named methods, each sent
 * to main's real handler table (main/ipc.ts createHandlers, run in this process over a real service, with the real
 * switch of main/connection.ts) as the preload sends them over IPC, sender frame our renderer page. Everything the
 * screen and main do is real; only the IPC transport is Playwright's exposeFunction.
 *
 * After the switch, main restarts and loads the chosen server's own address in a window without the preload: that
 * is a plain tab on that server, so the second part signs in there and registers a patient over the HTTP transport,
 * and the patient is found on that server and not in the clinic the app left.
 */

const listen = (server: Server) => new Promise<string>((resolve) => {
  server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
});

describe('using a clinic server, in Chromium', skipFor(uiSkipReason), () => {
  let here: RunningServer;
  let chain: RunningServer;
  let browser: Browser;
  const plain: Server[] = [];
  const dataDir = tempDir('ui-desktop-userdata');
  const restarts: string[] = [];
  let handlers: Handlers;

  beforeAll(async () => {
    [here, chain] = await Promise.all([startServer(), startServer()]);
    handlers = createHandlers({
      service: here.service, rendererUrl: RENDERER_URL, info: { baseUrl: here.baseUrl, version: '1.0' },
      recordings: recordingStore(tempDir('ui-recordings')),
      clinicServer: clinicServerSwitch(dataDir, { restart: (origin) => void restarts.push(origin) }),
    });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    for (const s of plain) {
      s.closeAllConnections();
      s.close();
    }
    await here?.close();
    await chain?.close();
  });

  /** The app's window before the switch: our screens served from `at`, with window.clinic over main's handlers `over`. */
  async function appWindow(over: Handlers = handlers, at = here.baseUrl): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
    const event: IpcEvent = { senderFrame: { url: RENDERER_URL } as never, sender: { id: 1, send: () => undefined } };
    await context.exposeFunction('clinicIpc', async (method: keyof Handlers, args: unknown[]) => {
      try {
        return { ok: true, value: await (over[method] as (e: IpcEvent, ...a: unknown[]) => Promise<unknown>)(event, ...args) };
      } catch (e) {
        return { ok: false, error: toFailure(e) };
      }
    });
    // As preload/preload.ts builds it: one named method per declared method, each sending as many arguments as it takes.
    await context.addInitScript((arity: Record<string, number>) => {
      const ipc = (window as unknown as { clinicIpc(m: string, a: unknown[]): Promise<{ ok: boolean; value?: unknown; error?: unknown }> }).clinicIpc;
      (window as unknown as { clinic: object }).clinic = Object.fromEntries(Object.entries(arity).map(([method, n]) => [
        method, (...args: unknown[]) => ipc(method, args.slice(0, n)).then((r) => (r.ok ? r.value : Promise.reject(r.error))),
      ]));
    }, APP_METHOD_ARITY);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(at);
    return { context, page, errors };
  }

  const openServerSettings = async (page: Page) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tablist', { name: 'Settings' }).getByRole('tab', { name: 'Server' }).click();
    await page.getByTestId('server-address').waitFor();
  };

  it('Settings checks the address and the server, says why in words next to the field, then saves the choice and restarts', async () => {
    const { context, page, errors } = await appWindow();
    const ws = here.demo.workspaces[0]!;
    await signIn(page, ws.users.admin.username, ws.users.admin.password);
    await openServerSettings(page);
    const panel = page.locator('.card').filter({ has: page.getByRole('heading', { name: 'Use a clinic server' }) });
    await panel.waitFor();
    expect(await panel.textContent()).toContain(`${dataDir}/clinic-server.json`);
    const field = panel.getByLabel('Clinic server address');
    const connect = panel.getByRole('button', { name: /Connect|Checking/ });
    const sentence = panel.locator('label.field .err');

    await field.fill('file:///etc/passwd');
    await connect.click();
    await expect.poll(() => sentence.textContent()).toMatch(/^Write the address with https:\/\/ \(or http:\/\/ on the clinic's own network\) in front/);

    await field.fill('http://admin:secret@127.0.0.1:4810');
    await connect.click();
    await expect.poll(() => sentence.textContent()).toMatch(/^Leave the user name and password out of the address/);

    const webPage = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>It works</h1>'));
    plain.push(webPage);
    const webUrl = await listen(webPage);
    await field.fill(webUrl);
    // A plain-http address on the network is said to be unencrypted before anything is sent (127.0.0.1 is this computer: not said).
    expect(await panel.getByText('Not encrypted').count()).toBe(0);
    await connect.click();
    await expect.poll(() => sentence.textContent()).toBe(`No Clinic Desk server answers at ${webUrl}: something answers there, but not as a Clinic Desk service.`);

    // While the probe waits on a server that never answers, the button says what it is doing.
    const silent = createServer(() => undefined);
    plain.push(silent);
    const silentUrl = await listen(silent);
    await field.fill(silentUrl);
    await connect.click();
    await expect.poll(() => connect.textContent()).toBe('Checking the server…');
    expect(await connect.isDisabled()).toBe(true);
    await expect.poll(() => sentence.textContent(), { timeout: 10_000 }).toBe(`No Clinic Desk server answers at ${silentUrl}: nothing answered within 4 seconds.`);
    expect(restarts).toEqual([]);
    expect(startPlan(dataDir)).toEqual({ mode: 'embedded' });

    await field.fill('http://192.168.1.20:4810');
    await panel.getByText('Not encrypted').waitFor();
    await field.fill(`  ${chain.baseUrl}/ `);
    await shot(page, 'settings-clinic-server', panel);
    await connect.click();
    await panel.getByText(`Restarting on ${chain.baseUrl}`).waitFor();
    expect(restarts).toEqual([chain.baseUrl]);
    expect(startPlan(dataDir)).toEqual({ mode: 'server', origin: chain.baseUrl });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('after the restart the window is the server\'s own screens: no bridge, its sign-in, and a patient registered there', async () => {
    const plan = startPlan(dataDir);
    expect(plan.mode).toBe('server');
    const origin = plan.mode === 'server' ? plan.origin : '';
    const { context, page, errors } = await openApp(browser, origin);
    expect(await page.evaluate(() => typeof (window as { clinic?: unknown }).clinic)).toBe('undefined');
    const ws = chain.demo.workspaces[0]!;
    await signIn(page, ws.users.reception.username, ws.users.reception.password);

    const mobile = '9812300017';
    await page.getByLabel('Mobile number').fill(mobile);
    await page.getByRole('button', { name: 'Register new patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register a patient' });
    await dialog.locator('[name="first_name"]').fill('Chain');
    await dialog.locator('[name="last_name"]').fill('Branch');
    await dialog.getByRole('button', { name: 'Female', exact: true }).click();
    await dialog.locator('[name="dob"]').fill('1988-03-09');
    await dialog.getByRole('button', { name: 'Register patient' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Chain Branch is registered');

    const search = (srv: RunningServer) => call(srv.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, {
      headers: { auth: srv.demo.workspaces[0]!.users.reception.auth_token },
    });
    expect((await search(chain)).text).toContain('Chain');
    expect((await search(here)).text).not.toContain('Chain');
    expect(errors).toEqual([]);
    await context.close();
  });

  describe('on a new branch computer, before it has a clinic', () => {
    const firstRunData = tempDir('ui-first-run');
    const firstRunUserData = tempDir('ui-first-run-userdata');
    const joins: string[] = [];
    let empty: Service;
    let emptyApp: Awaited<ReturnType<typeof buildHttpApp>>;
    let emptyBase: string;
    let firstRunHandlers: Handlers;

    beforeAll(async () => {
      empty = await createService({ kek: TEST_KEK, dataDir: firstRunData });
      emptyApp = await buildHttpApp(empty);
      await emptyApp.listen({ host: '127.0.0.1', port: 0 });
      emptyBase = `http://127.0.0.1:${(emptyApp.server.address() as AddressInfo).port}`;
      firstRunHandlers = createHandlers({
        service: empty, rendererUrl: RENDERER_URL, info: { baseUrl: emptyBase, version: '1.0' },
        recordings: recordingStore(tempDir('ui-first-run-recordings')),
        clinicServer: clinicServerSwitch(firstRunUserData, { restart: (origin) => void joins.push(origin) }),
      });
    });
    afterAll(async () => {
      await emptyApp?.close();
      await empty?.close();
      rmSync(firstRunData, { recursive: true, force: true });
    });

    it('the first-run screen joins a clinic server instead of creating a clinic: the same checks and sentences, then a restart on it', async () => {
      const { context, page, errors } = await appWindow(firstRunHandlers, emptyBase);
      await page.getByRole('form', { name: 'Set up your clinic' }).waitFor();
      const join = page.getByRole('region', { name: 'Join a clinic server' });
      await join.getByRole('button', { name: 'Join a clinic server' }).click();
      expect(await join.textContent()).toContain(`${firstRunUserData}/clinic-server.json`);
      const field = join.getByLabel('Clinic server address');
      const connect = join.getByRole('button', { name: /Connect|Checking/ });
      const sentence = join.locator('label.field .err');

      await field.fill('file:///etc/passwd');
      await connect.click();
      await expect.poll(() => sentence.textContent()).toMatch(/^Write the address with https:\/\/ \(or http:\/\/ on the clinic's own network\) in front/);

      const webPage = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>It works</h1>'));
      plain.push(webPage);
      const webUrl = await listen(webPage);
      await field.fill(webUrl);
      await connect.click();
      await expect.poll(() => sentence.textContent()).toBe(`No Clinic Desk server answers at ${webUrl}: something answers there, but not as a Clinic Desk service.`);
      expect(joins).toEqual([]);
      expect(startPlan(firstRunUserData)).toEqual({ mode: 'embedded' });

      await field.fill('http://192.168.1.20:4810');
      await join.getByText('Not encrypted').waitFor();
      await field.fill(chain.baseUrl);
      await shot(page, 'first-run-join-clinic-server');
      await connect.click();
      await join.getByText(`Restarting on ${chain.baseUrl}`).waitFor();
      expect(joins).toEqual([chain.baseUrl]);
      expect(startPlan(firstRunUserData)).toEqual({ mode: 'server', origin: chain.baseUrl });
      // No clinic and no admin were made here on the way.
      expect(await firstRunHandlers.setupStatus({ senderFrame: { url: RENDERER_URL } as never, sender: { id: 9, send: () => undefined } })).toEqual({ needed: true });
      expect(errors).toEqual([]);
      await context.close();
    });

    it('a browser tab at a server without a clinic is offered the setup only', async () => {
      const { context, page } = await openApp(browser, emptyBase);
      await page.getByRole('form', { name: 'Set up your clinic' }).getByLabel('Clinic name').waitFor();
      // The question is answered before the screen settles; give a wrongly offered section the time to appear.
      await page.waitForTimeout(300);
      expect(await page.getByRole('button', { name: 'Join a clinic server' }).count()).toBe(0);
      await context.close();
    });
  });

  it('a browser tab on a server is not offered the switch: only the desktop app chooses its server', async () => {
    const { context, page } = await openApp(browser, here.baseUrl);
    const ws = here.demo.workspaces[0]!;
    await signIn(page, ws.users.admin.username, ws.users.admin.password);
    await openServerSettings(page);
    expect(await page.getByRole('heading', { name: 'Use a clinic server' }).count()).toBe(0);
    await context.close();
  });
});
