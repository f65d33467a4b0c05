import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs helper shared with npm start
import { electronBinary, electronSqliteNative } from '../../scripts/electron-runtime.mjs';
import { RENDERER_URL } from '../../main/app-origin.js';
import { saveServerChoice } from '../../main/connection.js';
import { CHANNELS } from '../../preload/contract.js';
import { ensureDemo } from '../../server/demo/demo.js';
import { createService } from '../../server/service.js';
import { KEK_FILE } from '../../server/shared/secret-box.js';
import { ROOT, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';

const exe: string | null = electronBinary();
const native: string = electronSqliteNative();
const skipReason = !exe
  ? 'Electron binary not installed (npm ci skips its download; run npm start once with internet access)'
  : !existsSync(native)
    ? `Electron build of better-sqlite3 missing at ${native} (npm run build:native)`
    : !existsSync(join(ROOT, 'dist', 'main', 'main.mjs'))
      ? 'the app is not built (npm run build)'
      : null;

/** A user-data folder holding the demo clinics (made with plain Node, same SQLite file), and its KEK. */
async function seededUserData() {
  const dir = tempDir('electron-userdata');
  const service = await createService({ dataDir: dir });
  const demo = (await ensureDemo(service, 'http://127.0.0.1:48123'))!;
  await service.close();
  const kek = readFileSync(join(dir, KEK_FILE), 'utf8').trim();
  return { dir, demo, kek };
}

describe('Electron app', skipFor(skipReason), () => {
  it('starts, signs in, searches and records a dictation through the preload bridge', async () => {
    const { dir, demo, kek } = await seededUserData();
    const ws = demo.workspaces[0]!;
    const app = await electron.launch({
      executablePath: exe!,
      args: [ROOT, `--user-data-dir=${dir}`, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
      env: { ...process.env, CLINIC_DESK_PORT: '48123', CLINIC_DESK_KEK: kek, ELECTRON_ENABLE_LOGGING: '1', HOME: tempDir('electron-home') },
    });
    try {
      const win = await app.firstWindow();
      // The screens come from app://clinic-desk, and a page may not navigate away from it.
      expect(win.url().startsWith(RENDERER_URL)).toBe(true);
      await win.evaluate(() => { window.location.href = 'https://example.invalid/'; });
      await new Promise((r) => setTimeout(r, 500));
      expect(win.url().startsWith(RENDERER_URL)).toBe(true);
      // Sandboxed, isolated: no Node in the page; the bridge offers exactly the contract's named methods.
      expect(await win.evaluate(() => [typeof (globalThis as { require?: unknown }).require, typeof (globalThis as { process?: unknown }).process]))
        .toEqual(['undefined', 'undefined']);
      expect(await win.evaluate(() => Object.keys((window as unknown as { clinic: object }).clinic).sort())).toEqual(Object.keys(CHANNELS).sort());
      // The embedded service answers local integrations meanwhile.
      expect((await fetch('http://127.0.0.1:48123/health')).status).toBe(200);

      await win.getByLabel('Username').fill(ws.users.reception.username);
      await win.getByLabel('Password').fill(ws.users.reception.password);
      await win.getByRole('button', { name: 'Sign in' }).click();
      await win.getByLabel('Mobile number').fill(ws.patients[0]!.mobile);
      await expect.poll(() => win.getByTestId('patient-result').count(), { timeout: 10_000 }).toBe(2);
      // The token stays in main: the page has none.
      expect(await win.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }))).not.toContain('cdt_');

      await win.getByRole('button', { name: 'Sign out' }).click();
      await win.getByLabel('Username').fill(ws.users.doctor.username);
      await win.getByLabel('Password').fill(ws.users.doctor.password);
      await win.getByRole('button', { name: 'Sign in' }).click();
      await win.getByRole('button', { name: 'Record' }).click();
      await expect.poll(async () => (await win.getByTestId('elapsed').textContent()) ?? '', { timeout: 10_000 }).toMatch(/00:0[3-9]/);
      await win.getByRole('button', { name: 'Stop' }).click();
      await win.getByText('Recording ready').waitFor();
      // The chunks are files in the app's data folder.
      const recordings = join(dir, 'recordings');
      const folders = readdirSync(recordings);
      expect(folders).toHaveLength(1);
      expect(readdirSync(join(recordings, folders[0]!)).filter((f) => f.endsWith('.part')).length).toBeGreaterThanOrEqual(2);
    } finally {
      await app.close();
    }
  }, 90_000);

  it('on a saved clinic server: starts no service of its own and shows that server\'s screens without the bridge, kept on its origin', async () => {
    const chain = await startServer();
    const dir = tempDir('electron-userdata');
    saveServerChoice(dir, chain.baseUrl);
    // No CLINIC_DESK_KEK: the embedded service would need its key and refuse to start without a keychain.
    const app = await electron.launch({
      executablePath: exe!,
      args: [ROOT, `--user-data-dir=${dir}`],
      env: { ...process.env, CLINIC_DESK_PORT: '48124', ELECTRON_ENABLE_LOGGING: '1', HOME: tempDir('electron-home') },
    });
    try {
      const win = await app.firstWindow();
      await expect.poll(() => win.url(), { timeout: 10_000 }).toBe(`${chain.baseUrl}/`);
      expect(await win.evaluate(() => typeof (window as { clinic?: unknown }).clinic)).toBe('undefined');
      await win.evaluate(() => { window.location.href = 'https://example.invalid/'; });
      await new Promise((r) => setTimeout(r, 500));
      expect(new URL(win.url()).origin).toBe(chain.baseUrl);
      await expect(fetch('http://127.0.0.1:48124/health')).rejects.toThrow();
      const ws = chain.demo.workspaces[0]!;
      await win.getByLabel('Username').fill(ws.users.reception.username);
      await win.getByLabel('Password').fill(ws.users.reception.password);
      await win.getByRole('button', { name: 'Sign in' }).click();
      await win.getByRole('navigation', { name: 'Main' }).waitFor();
    } finally {
      await app.close();
      await chain.close();
    }
  }, 90_000);
});
