import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Service } from '../service.js';
import { ServiceError } from '../shared/errors.js';
import { PRIVATE_FILE_MODE } from '../shared/private-files.js';
import { type Sandbox, type SandboxOptions, startSandbox } from './sandbox.js';
import { SANDBOX_CREDENTIALS_FILE } from './seed.js';

/**
 * The desktop app's sandbox (docs/API.md, Sandbox): off until an admin turns it on in Settings → Sandbox. The
 * choice belongs to the installation, like its port and its `<data-dir>/sandbox` folder, not to one clinic (the
 * clinics' own settings are workspace_settings rows), so it is a file in the data folder, read at start.
 * Turning it on or off starts or stops it at once.
 */

export const SANDBOX_SETTING_FILE = 'sandbox-setting.json';

export interface SandboxState {
  /** The stored choice. */
  enabled: boolean;
  /** Its base address while it runs. */
  url: string | null;
  /** Why it is not running although it is on (its start failed). */
  problem: string | null;
  /** Where its credentials are, and the ones an integration starts with (null until it has been seeded). */
  credentialsFile: string;
  credentials: { api_key: string; client_id: string; client_secret: string; seeded_at: string } | null;
}

export interface DesktopSandboxOptions extends Omit<SandboxOptions, 'liveDataDir' | 'production'> {
  /** The port it asks for first; when that is taken it takes any free one (the address is in Settings). */
  port: number;
}

const attached = new WeakMap<Service, DesktopSandbox>();

/** The sandbox beside the app's live service, over `<data-dir>/sandbox`; stopped until `startIfEnabled` or an admin. */
export function desktopSandbox(live: Service, options: DesktopSandboxOptions) {
  const opts: SandboxOptions = { ...options, liveDataDir: live.dataDir, production: live.environment };
  const settingFile = join(opts.liveDataDir, SANDBOX_SETTING_FILE);
  let running: Sandbox | null = null;
  let problem: string | null = null;

  function enabled(): boolean {
    if (!existsSync(settingFile)) return false;
    try {
      return (JSON.parse(readFileSync(settingFile, 'utf8')) as { enabled?: unknown }).enabled === true;
    } catch {
      // A damaged file reads as off: the sandbox then waits for an admin rather than starting unasked.
      return false;
    }
  }

  function store(on: boolean) {
    // Written beside and renamed over, so a crash leaves the old choice or the new one.
    const part = `${settingFile}.part`;
    writeFileSync(part, `${JSON.stringify({ enabled: on })}\n`, { mode: PRIVATE_FILE_MODE });
    renameSync(part, settingFile);
  }

  async function start() {
    problem = null;
    try {
      running = await startSandbox(opts).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EADDRINUSE' || opts.port === 0) throw e;
        return startSandbox({ ...opts, port: 0 });
      });
    } catch (e) {
      problem = `The sandbox could not start: ${(e as Error).message}`;
    }
  }

  async function stop() {
    const was = running;
    running = null;
    await was?.close();
  }

  // One change at a time: a second click waits for the first start or stop to finish.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(f: () => Promise<T>): Promise<T> => {
    const run = queue.then(f);
    queue = run.catch(() => undefined);
    return run;
  };

  function state(): SandboxState {
    const credentialsFile = join(opts.liveDataDir, 'sandbox', SANDBOX_CREDENTIALS_FILE);
    const c = running?.credentials() ?? null;
    return {
      enabled: enabled(), url: running?.url ?? null, problem, credentialsFile,
      credentials: c && { api_key: c.api_key, client_id: c.client_id, client_secret: c.client_secret, seeded_at: c.seeded_at },
    };
  }

  const sandbox = {
    state,
    /** At the app's start: runs the sandbox if an admin turned it on earlier. */
    startIfEnabled: () => serially(async () => {
      if (enabled()) await start();
    }),
    setEnabled: (on: boolean) => serially(async () => {
      store(on);
      if (on && !running) await start();
      if (!on) {
        problem = null;
        await stop();
      }
      return state();
    }),
    reset: () => serially(async () => {
      if (!running) throw new ServiceError(409, 'SANDBOX_OFF', 'The sandbox is not running; turn it on first');
      await running.reset();
      return state();
    }),
    /** At quit: stops it, leaving the stored choice as it is. */
    close: () => serially(stop),
  };
  attached.set(live, sandbox);
  return sandbox;
}
export type DesktopSandbox = ReturnType<typeof desktopSandbox>;

/**
 * The app methods (app-api.ts) get the live service and the app's host facts, not the app process's objects; the
 * sandbox is found by the live service it runs beside. Only the desktop app makes one: headless, the flags do.
 */
export function desktopSandboxOf(service: Service): DesktopSandbox {
  const s = attached.get(service);
  if (!s) throw new ServiceError(501, 'SANDBOX_NOT_HERE', 'The sandbox is turned on in the desktop app on the clinic computer; headless, start the service with --sandbox');
  return s;
}
