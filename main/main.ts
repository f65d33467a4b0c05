import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BrowserWindow, app, dialog, ipcMain, session, shell } from 'electron';
import { buildHttpApp, createService } from '../server/index.js';
import { API_VERSION } from '../server/http/app.js';
import { CHANNELS } from '../preload/contract.js';
import { createHandlers } from './ipc.js';
import { appKek } from './kek.js';
import { electronSqliteBinding } from './native.js';

// The strictest policy the UI works under: only our own scripts and styles, data only from the embedded service.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' http://127.0.0.1:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

const EXTERNAL_ALLOWED = new Set(['https:', 'mailto:']);

async function start() {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();

  const dataDir = app.getPath('userData');
  const service = createService({
    dataDir,
    nativeBinding: electronSqliteBinding(app.getAppPath(), process.resourcesPath, app.isPackaged),
    // Sealed by the OS keychain (main/kek.ts); the headless service reads CLINIC_DESK_KEK or master.key instead.
    kek: appKek(dataDir),
  });
  const http = await buildHttpApp(service);
  const port = Number(process.env.CLINIC_DESK_PORT ?? 4810);
  await http.listen({ host: '127.0.0.1', port });
  const baseUrl = `http://127.0.0.1:${port}`;

  const rendererFile = join(app.getAppPath(), 'dist', 'renderer', 'index.html');
  const rendererUrl = pathToFileURL(rendererFile).toString();
  const handlers = createHandlers(rendererUrl, { baseUrl, version: API_VERSION });
  ipcMain.handle(CHANNELS.serviceInfo, (event) => handlers.serviceInfo(event));

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, permission, allow) => allow(permission === 'media'));

  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Clinic Desk',
    webPreferences: {
      preload: join(app.getAppPath(), 'dist', 'preload', 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (EXTERNAL_ALLOWED.has(new URL(url).protocol)) void shell.openExternal(url);
    return { action: 'deny' };
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
    void http.close().then(() => service.close()).finally(() => app.exit(0));
  });
  await win.loadFile(rendererFile);
}

start().catch((e) => {
  dialog.showErrorBox('Clinic Desk could not start', e instanceof Error ? e.message : String(e));
  app.exit(1);
});
