import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs helper shared with npm start
import { electronBinary } from '../scripts/electron-runtime.mjs';
import { ROOT, tempDir } from './helpers/server.js';

const exe: string | null = electronBinary();
const abi = '145'; // Electron 41
const native = join(ROOT, 'native', `electron-${abi}`, 'better_sqlite3.node');
const skipReason = !exe
  ? 'Electron binary not installed (npm ci skips its download; run npm start once with internet access)'
  : !existsSync(native)
    ? `Electron build of better-sqlite3 missing at ${native} (npm run build:native)`
    : null;
if (skipReason) console.warn(`electron end-to-end test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)(`Electron app${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('opens a sandboxed window that reaches the embedded service through the preload bridge', async () => {
    const app = await electron.launch({
      executablePath: exe!,
      args: [ROOT],
      env: { ...process.env, CLINIC_DESK_PORT: '48123', ELECTRON_ENABLE_LOGGING: '1', HOME: tempDir('electron-home') },
    });
    try {
      const win = await app.firstWindow();
      await expect.poll(() => win.textContent('body'), { timeout: 20_000 }).toContain('127.0.0.1:48123');
      // No Node in the page, and the bridge offers only its named methods.
      expect(await win.evaluate(() => [typeof (globalThis as { require?: unknown }).require, typeof (globalThis as { process?: unknown }).process]))
        .toEqual(['undefined', 'undefined']);
      expect(await win.evaluate(() => Object.keys((window as unknown as { clinic: object }).clinic).sort())).toEqual(['serviceInfo']);
      const health = await fetch('http://127.0.0.1:48123/health');
      expect(health.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
