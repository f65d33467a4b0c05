import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { API_VERSION } from '../server/http/app.js';
import type { AppHost } from '../server/shared/app-method.js';
import { ServiceError } from '../server/shared/errors.js';
import { PRIVATE_FILE_MODE } from '../server/shared/private-files.js';

/**
 * The desktop app on a chain's clinic server (issue 17 item 5) rather than its embedded service: the address
 * check, the health probe, the saved choice and what to start. Plain functions with Electron's parts passed in
 * (its fetch, its restart), so tests run them against real servers and files; main/main.ts wires them.
 */

/** The app's choice, in its data folder: absent means this computer's own clinic. */
export const SERVER_CHOICE_FILE = 'clinic-server.json';
/** "Within a few seconds": a server on the clinic's network answers /health in milliseconds. */
export const PROBE_TIMEOUT_MS = 4000;

/** What the probe needs of fetch: Node's in tests, Electron's net.fetch in the app. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

const EXAMPLES = 'e.g. https://clinic.example.org or http://192.168.1.20:4810';
const badAddress = (message: string) => new ServiceError(400, 'INVALID_ADDRESS', message);

/**
 * The origin of a clinic server's address as a person types it, or a sentence saying what to write instead. Only
 * http(s), only scheme, host and port: credentials would travel to whoever answers and a path could not be
 * served (the screens ask for /api/… at the root), and whatever follows the origin is a trick or a typo.
 */
export function serverOrigin(address: string): string {
  const text = address.trim();
  if (!text) throw badAddress(`Write the clinic server's address, ${EXAMPLES}.`);
  let u: URL | null = null;
  try {
    u = new URL(text);
  } catch {
    // Reported below: a missing scheme is the usual reason.
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    throw badAddress(`Write the address with https:// (or http:// on the clinic's own network) in front, ${EXAMPLES}.`);
  }
  if (u.username || u.password) {
    throw badAddress("Leave the user name and password out of the address: you sign in on the clinic server's own sign-in page.");
  }
  if (u.href !== `${u.origin}/`) {
    throw badAddress(`Give the server's address only (its name and port), without a path, ? or #, ${EXAMPLES}.`);
  }
  return u.origin;
}

/** Whether an API version is one this app's screens and uploads speak: the same major version. */
export const speaksVersion = (version: string) => version.split('.')[0] === API_VERSION.split('.')[0];

/** Why a request got no answer, as a person can act on it (Node's fetch and Electron's net.fetch word errors differently). */
function unreachable(e: unknown, url: URL, timeoutMs: number): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; name?: string; message?: string } };
  const text = `${err.cause?.code ?? ''} ${err.cause?.message ?? ''} ${err.message ?? ''}`;
  if (err.name === 'TimeoutError' || err.cause?.name === 'TimeoutError') return `nothing answered within ${timeoutMs / 1000} seconds`;
  if (/ECONNREFUSED|ERR_CONNECTION_REFUSED/.test(text)) return 'nothing is listening at that address and port';
  if (/ENOTFOUND|EAI_AGAIN|ERR_NAME_NOT_RESOLVED/.test(text)) return `the name ${url.hostname} is not known on this network`;
  // The fetch standard's blocked ports (SMTP, IRC, …): neither the probe nor the window would ever connect to one.
  if (/bad port|ERR_UNSAFE_PORT/.test(text)) return `port ${url.port} is one web browsers refuse to use; the server needs another port`;
  if (/CERT|SSL|TLS/i.test(text)) return "its HTTPS certificate is not one this computer trusts";
  return `it could not be reached (${(err.cause?.code ?? err.message ?? String(e)).trim()})`;
}

/**
 * Checks that a Clinic Desk service answers at origin: GET /health, not redirected, answers 200 with
 * {status: "ok", version} in JSON within timeoutMs, in an API version this app speaks. Otherwise a ServiceError
 * whose message is the sentence Settings shows ("No Clinic Desk server answers at …: why."). In the app, fetch is
 * Electron's net.fetch: the probe goes through Chromium's network stack (its certificates, its proxy), the way
 * the window will.
 */
export async function probeClinicServer(origin: string, opts: { fetch?: Fetch; timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  const none = (why: string) => new ServiceError(422, 'NO_CLINIC_SERVER', `No Clinic Desk server answers at ${origin}: ${why}.`);
  const notOurs = none('something answers there, but not as a Clinic Desk service');
  const signal = AbortSignal.timeout(timeoutMs);
  let status: number;
  let type: string;
  let text: string;
  try {
    // A redirect is not followed: the app would then be talking to an address nobody typed.
    const res = await (opts.fetch ?? fetch)(`${origin}/health`, { redirect: 'manual', signal, headers: { accept: 'application/json' } });
    status = res.status;
    type = res.headers.get('content-type') ?? '';
    text = await res.text();
  } catch (e) {
    throw none(unreachable(e, new URL(origin), timeoutMs));
  }
  if (status >= 300 && status < 400) throw none(`it sends the app elsewhere (answered ${status}); give the address it sends to`);
  // A Clinic Desk service answers 421 to a Host it was not told is its own (DNS rebinding guard, docs/API.md).
  if (status === 421) throw none(`it does not take the name ${new URL(origin).hostname}; the server's administrator adds it with --allowed-hosts (or --public-url)`);
  if (status !== 200 || !/^application\/json\b/.test(type)) throw notOurs;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw notOurs;
  }
  const health = body as { status?: unknown; version?: unknown } | null;
  if (!health || typeof health !== 'object' || health.status !== 'ok' || typeof health.version !== 'string') throw notOurs;
  if (!speaksVersion(health.version)) {
    throw none(`it speaks API version ${health.version} and this app speaks ${API_VERSION}; install the Clinic Desk version the server's administrator names`);
  }
}

export interface ServerChoice {
  url: string;
  chosen_at: string;
}

/**
 * The saved choice, or null for this computer's own clinic. A file that does not hold a valid address (edited by
 * hand, or by something else) is not followed: the app starts its own clinic and says why.
 */
export function readServerChoice(dataDir: string, warn: (message: string) => void = console.warn): ServerChoice | null {
  const file = join(dataDir, SERVER_CHOICE_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const saved = JSON.parse(text) as Partial<ServerChoice>;
    if (typeof saved.url === 'string' && serverOrigin(saved.url) === saved.url) return { url: saved.url, chosen_at: String(saved.chosen_at ?? '') };
  } catch {
    // Falls through to the warning: neither JSON nor an address is followed blindly.
  }
  warn(`clinic-desk: ${file} does not name a clinic server's address; starting this computer's own clinic`);
  return null;
}

/**
 * Keeps url as the app's choice: written beside the file, flushed and renamed over it, so a crash leaves the
 * old choice or the new one, never half of one; 0600, like the rest of the app's data folder.
 */
export function saveServerChoice(dataDir: string, url: string, now = new Date()): ServerChoice {
  const choice = { url: serverOrigin(url), chosen_at: now.toISOString() };
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, SERVER_CHOICE_FILE);
  const part = `${file}.part`;
  // A leftover part keeps the mode it was created with; a fresh one gets 0600 from the start.
  rmSync(part, { force: true });
  const fd = openSync(part, 'wx', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, `${JSON.stringify(choice)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(part, file);
  return choice;
}

/** Back to this computer's own clinic at the next start. */
export function clearServerChoice(dataDir: string): void {
  rmSync(join(dataDir, SERVER_CHOICE_FILE), { force: true });
}

/** What the app starts: its embedded service and own screens, or a window on the chosen clinic server and nothing else. */
export type StartPlan = { mode: 'embedded' } | { mode: 'server'; origin: string };

export function startPlan(dataDir: string, warn?: (message: string) => void): StartPlan {
  const choice = readServerChoice(dataDir, warn);
  return choice ? { mode: 'server', origin: choice.url } : { mode: 'embedded' };
}

/**
 * Settings' switch, as the app host offers it (AppHost.clinicServer): the address checked, the server probed,
 * the choice saved, then `restart` (main: stop the embedded service as at quit and start again on the server).
 * Nothing is saved and nothing stops when the check or the probe fails.
 */
export function clinicServerSwitch(dataDir: string, deps: { fetch?: Fetch; timeoutMs?: number; restart(origin: string): void }): NonNullable<AppHost['clinicServer']> {
  return {
    choiceFile: join(dataDir, SERVER_CHOICE_FILE),
    async use(address) {
      const origin = serverOrigin(address);
      await probeClinicServer(origin, deps);
      saveServerChoice(dataDir, origin);
      deps.restart(origin);
      return { url: origin };
    },
  };
}

/**
 * Whether a URL is a page of the chosen server: same scheme, host and port (compared by the URL parser, not by
 * prefix, so https://clinic.example.org.evil/ is not), and no credentials.
 */
export function isServerUrl(url: string | undefined, origin: string): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.origin === origin && !u.username && !u.password;
  } catch {
    return false;
  }
}

/**
 * Chromium lets a page use the microphone only in a secure context: https, or the computer itself. A server on
 * the clinic's own network at http://… is neither, so the app names that one origin secure at start (the
 * --unsafely-treat-insecure-origin-as-secure switch, read before the app is ready); null when none is needed.
 */
export function insecureOriginToTrust(origin: string): string | null {
  const u = new URL(origin);
  if (u.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)) return null;
  return origin;
}
