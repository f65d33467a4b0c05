import { join } from 'node:path';
import { BrowserWindow, Menu, app, dialog, ipcMain, net } from 'electron';
import { buildHttpApp, createService } from '../server/index.js';
import { desktopSandbox } from '../server/sandbox/desktop.js';
import { API_VERSION } from '../server/http/app.js';
import { durable } from '../server/db/tx.js';
// Brings in the `baseUrl()` decoration's type (a module augmentation app.js's declarations do not carry).
import type {} from '../server/http/host-guard.js';
import { CHANNELS, type ClinicApi } from '../preload/contract.js';
import { type IpcEvent, createHandlers, toFailure } from './ipc.js';
import { choosePdfPath } from './print.js';
import { recordingStore } from './recordings.js';
import { appKek } from './kek.js';
import { electronSqliteBinding } from './native.js';
import { utilityWorker } from './worker-launch.js';
import { RENDERER_URL, appContentSecurityPolicy } from './app-origin.js';
import { grantMicrophoneToApp, guardEveryContents, registerAppScheme, serveRenderer } from './app-security.js';
import { clearServerChoice, clinicServerSwitch, insecureOriginToTrust, isServerUrl, startPlan } from './connection.js';

registerAppScheme();
const dataDir = app.getPath('userData');
// The app's own clinic, or the chain's clinic server chosen in Settings (main/connection.ts). Read before ready:
// Chromium takes the secure-origin switch only now, so a choice made later applies at the restart that follows it.
const plan = startPlan(dataDir);
if (plan.mode === 'server') {
  const trust = insecureOriginToTrust(plan.origin);
  if (trust) app.commandLine.appendSwitch('unsafely-treat-insecure-origin-as-secure', trust);
}
// Registered before any window exists, so no web contents escapes the guard; the addresses come once it listens.
let serviceUrls: readonly string[] = [];
let sandboxUrl = (): string | null => null;
if (plan.mode === 'server') {
  const { origin } = plan;
  guardEveryContents(() => [origin], (url) => isServerUrl(url, origin));
} else {
  guardEveryContents(() => {
    const sandbox = sandboxUrl();
    return sandbox ? [...serviceUrls, sandbox] : serviceUrls;
  });
}

/** A moment for Settings to say where the app is going before the window closes. */
const RESTART_DELAY_MS = 1500;

/**
 * Quits (through before-quit: the embedded service stops as at any quit) and starts again, reading the choice anew.
 * Once: each app.relaunch() call starts another instance at exit.
 */
let restarting = false;
function restartApp() {
  if (restarting) return;
  restarting = true;
  app.relaunch();
  app.quit();
}

const webPreferences = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  webSecurity: true,
  devTools: !app.isPackaged,
} as const;

/** The way back from a clinic server: forget it and restart on this computer's own clinic, once the person agrees. */
async function useOwnClinic(win: BrowserWindow, origin: string) {
  const { response } = await dialog.showMessageBox(win, {
    type: 'question',
    message: "Use this computer's own clinic?",
    detail: `Clinic Desk stops using the clinic server at ${origin} and restarts with the clinic kept on this computer. Recordings not yet uploaded to that server stay here and show again if you connect to it later.`,
    buttons: ["Use this computer's own clinic", 'Cancel'],
    defaultId: 0,
    cancelId: 1,
  });
  if (response !== 0) return;
  clearServerChoice(dataDir);
  restartApp();
}

/**
 * On a clinic server: no embedded service, sandbox or key is started. The window shows the server's own screens
 * (the browser transport, its sign-in, recordings in IndexedDB uploaded to it) without the preload, so a page from
 * another machine never gets the IPC bridge; it stays sandboxed and on that origin, which alone gets the microphone.
 * The app menu holds the way back.
 */
async function startOnServer(origin: string) {
  grantMicrophoneToApp((url) => isServerUrl(url, origin));
  const win = new BrowserWindow({ width: 1280, height: 820, title: `Clinic Desk · ${origin}`, webPreferences });
  Menu.setApplicationMenu(Menu.buildFromTemplate([
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' }, { role: 'editMenu' }, { role: 'viewMenu' },
    {
      label: 'Clinic server',
      submenu: [
        { label: `Using ${origin}`, enabled: false },
        { type: 'separator' },
        { label: "Use this computer's own clinic…", click: () => void useOwnClinic(win, origin) },
      ],
    },
    { role: 'windowMenu' },
  ]));
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  for (;;) {
    try {
      await win.loadURL(`${origin}/`);
      return;
    } catch {
      const { response } = await dialog.showMessageBox(win, {
        type: 'warning',
        message: `The clinic server at ${origin} is not answering.`,
        detail: 'Check that this computer is on the clinic\'s network and that the server is running, then try again.',
        buttons: ['Try again', "Use this computer's own clinic", 'Quit'],
        defaultId: 0,
        cancelId: 2,
      });
      if (response === 2) return app.quit();
      if (response === 1) {
        clearServerChoice(dataDir);
        return restartApp();
      }
    }
  }
}

async function start() {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  if (plan.mode === 'server') return startOnServer(plan.origin);
  // What the sandbox shares with the live service: the SQLite build, the key-encryption key and the scribe's launcher.
  const shared = {
    nativeBinding: electronSqliteBinding(app.getAppPath(), process.resourcesPath, app.isPackaged),
    // Sealed by the OS keychain (main/kek.ts); the headless service reads CLINIC_DESK_KEK or master.key instead.
    kek: appKek(dataDir),
    // The RunAsNode fuse is off: the scribe's worker runs as a utility process, not a fork of the app.
    scribe: { launchWorker: utilityWorker },
  };
  const service = await createService({ dataDir, ...shared });
  const rendererDir = join(app.getAppPath(), 'dist', 'renderer');
  // The same screens are served over HTTP, for a browser on a second front-desk PC (when CLINIC_DESK_HOST lets
  // it reach this one) and for local integrations.
  const http = await buildHttpApp(service, {
    ui: { root: rendererDir },
    // The API reference names this service and, while it runs, the sandbox (read when the document is served).
    openapiServers: () => {
      const sandboxAt = sandbox.state().url;
      return [{ url: shownUrl, environment: 'production' }, ...(sandboxAt ? [{ url: sandboxAt, environment: 'sandbox' as const }] : [])];
    },
  });
  const host = process.env.CLINIC_DESK_HOST ?? '127.0.0.1';
  const port = Number(process.env.CLINIC_DESK_PORT ?? 4810);
  await http.listen({ host, port });
  const address = http.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  // The app itself talks to the service over loopback; Settings shows the address other computers use (the
  // configured public URL, else the listening address: server/http/host-guard.ts).
  const baseUrl = `http://127.0.0.1:${boundPort}`;
  const shownUrl = http.baseUrl() ?? baseUrl;
  serviceUrls = [baseUrl, shownUrl];
  // Off until an admin turns it on (Settings → Sandbox); then on the next port, as headless (docs/API.md, Sandbox).
  const sandbox = desktopSandbox(service, {
    host, port: Number(process.env.CLINIC_DESK_SANDBOX_PORT ?? boundPort + 1), productionUrl: shownUrl, service: shared,
    http: { ui: { root: rendererDir } },
  });
  sandboxUrl = () => sandbox.state().url;
  void sandbox.startIfEnabled();
  serveRenderer(rendererDir, appContentSecurityPolicy(boundPort));
  grantMicrophoneToApp();

  const handlers = createHandlers({
    service, rendererUrl: RENDERER_URL, info: { baseUrl: shownUrl, version: API_VERSION },
    recordings: recordingStore(join(dataDir, 'recordings')), choosePdfPath,
    // Probed through Chromium's network stack (its certificates and proxy), as the window will load the server.
    clinicServer: clinicServerSwitch(dataDir, { fetch: (url, init) => net.fetch(url, init), restart: () => void setTimeout(restartApp, RESTART_DELAY_MS) }),
  });
  // One channel per contract method; a failure travels as a value so its status and code arrive intact.
  for (const method of Object.keys(CHANNELS) as (keyof ClinicApi)[]) {
    const handler = handlers[method] as (event: IpcEvent, ...args: unknown[]) => Promise<unknown>;
    ipcMain.handle(CHANNELS[method], async (event, ...args) => {
      try {
        const value = await handler(event, ...args);
        // As an HTTP answer does (http/durable-answers.ts): what the window is told is on disk.
        await durable(service.sql);
        return { ok: true, value };
      } catch (e) {
        return { ok: false, error: toFailure(e) };
      }
    });
  }

  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Clinic Desk',
    webPreferences: { ...webPreferences, preload: join(app.getAppPath(), 'dist', 'preload', 'preload.cjs') },
  });
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  // Stop the HTTP server and close the database before the process goes, so no write is cut off.
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    // The HTTP server stops taking requests, then the service stops its workers (jobs in flight are left queued
    // in SQLite and resume at the next start) and closes the database. A request still running after a few
    // seconds (an upload from another PC) is cut off rather than keep the app from quitting; its client retries.
    const cutOff = setTimeout(() => http.server.closeAllConnections(), 5000);
    void sandbox.close().catch(() => undefined).then(() => http.close()).then(() => service.close()).finally(() => {
      clearTimeout(cutOff);
      app.exit(0);
    });
  });
  await win.loadURL(RENDERER_URL);
}

start().catch((e) => {
  dialog.showErrorBox('Clinic Desk could not start', e instanceof Error ? e.message : String(e));
  app.exit(1);
});
