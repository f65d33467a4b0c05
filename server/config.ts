import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { homedir } from 'node:os';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  demo: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Log one line per request (method, path without query string, status, time). */
  logRequests: boolean;
  /** Webhook retry delays in ms (default: decisions.md's schedule); for demos and tests. */
  webhookRetryScheduleMs?: number[];
  /** Webhook attempt timeout in ms (default 15 000). */
  webhookTimeoutMs?: number;
  /** FCM's base address for pushes (default https://fcm.googleapis.com); a local stand-in for testing. */
  fcmBaseUrl?: string;
  /** Where Whisper models are downloaded from instead of Hugging Face (a clinic file server; a local stand-in in tests). */
  modelMirror?: string;
  /** How many days ahead an appointment may be booked (default appointments/service.ts BOOKING_HORIZON_DAYS). */
  bookingHorizonDays?: number;
  /** The scribe's upload limits and worker count; unset ones keep the scribe's defaults (docs/SCRIBE.md). */
  scribe: { maxFilesPerTxn?: number; maxFileBytes?: number; maxTxnBytes?: number; concurrency?: number };
  /** The HTTP face: public URL, accepted host names, timeouts and the connection cap (docs/API.md, Hardening). */
  http: HttpConfig;
  /** Where the key-encryption key file is kept (default `<dataDir>/master.key`; docs/API.md, Files and keys). */
  kekFile?: string;
  /** With `demo`: start the demo afresh (its database, credentials and scribe files removed first). */
  reset: boolean;
  /** `--help`: print the flags and exit. */
  help: boolean;
  /** PostgreSQL instead of the SQLite file in the data folder (docs/ARCHITECTURE.md, "From one clinic to a chain"). */
  databaseUrl?: string;
  /** Where uploaded audio is kept (default `<dataDir>/scribe`); a folder every instance of a chain mounts. */
  storageDir?: string;
  /** Run the background work only (scribe, webhook deliveries, pushes): no HTTP service. */
  workersOnly: boolean;
  /**
   * How long a process holds claimed background work before another may take it over, and how often it looks for
   * work, in ms (unset: each worker's default). Shorter leases fail over sooner after a crash, at the cost of more
   * renewals; tests and benchmarks shorten them.
   */
  jobs: {
    scribeLeaseMs?: number; scribeRetryDelayMs?: number; scribePollMs?: number; webhookLeaseMs?: number; webhookPollMs?: number; pushLeaseMs?: number;
  };
  /** The sandbox (docs/API.md, Sandbox) on its own port, or null when it is off. */
  sandbox: SandboxConfig | null;
}

export interface SandboxConfig {
  /** 0 picks a free port. */
  port: number;
  publicUrl?: string;
  /** Where sandbox pushes go (an integrator's stand-in); without it the sandbox sends none. */
  fcmBaseUrl?: string;
}

export interface HttpConfig {
  /** The base of every absolute URL the service hands out (issuer, MCP resource, upload URL); else the listening address. */
  publicUrl?: string;
  /** Host names accepted besides loopback, the listening address and the public URL's host (DNS rebinding guard). */
  allowedHosts: string[];
  /** Origins (scheme://host[:port]) whose pages may call the API from a browser, besides the service's own. */
  corsOrigins: string[];
  /** Milliseconds; see HTTP_DEFAULTS for the reasons behind each. */
  timeouts: { requestMs: number; idleMs: number; headersMs: number; keepAliveMs: number; bodyMs: number; minBodyRate: number };
  /** Open connections one remote address may hold; the next is closed at once. */
  maxConnectionsPerAddress: number;
}

/**
 * Defaults sized for the largest scribe upload (1 GiB per file, docs/SCRIBE.md): 10 min for a whole request is
 * 1 GiB at about 14 Mbit/s (over loopback it takes seconds), while a client that stops sending is cut off after
 * 60 s of silence whatever the request; headers must arrive within 20 s; an idle keep-alive connection is
 * closed after 10 s so it does not hold a slot of the per-address cap. A body that trickles (a byte now and then,
 * never idle) is cut after 20 s plus a second per 500 bytes received, Apache's reqtimeout `body=20,MinRate=500`:
 * a hundredth of the slowest upload the request timeout allows. 128 connections per address leaves room
 * for every local client at once (browsers open 6 per origin; the bench's clients use up to 64).
 */
export const HTTP_DEFAULTS: Omit<HttpConfig, 'publicUrl' | 'allowedHosts' | 'corsOrigins'> = {
  timeouts: { requestMs: 600_000, idleMs: 60_000, headersMs: 20_000, keepAliveMs: 10_000, bodyMs: 20_000, minBodyRate: 500 },
  maxConnectionsPerAddress: 128,
};

const HTTP_URL = /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/;

/** A public URL as given (flag, variable or option), without trailing slashes; an error unless it is http(s). */
export function publicUrlSetting(value: string | undefined): string | undefined {
  const url = value?.replace(/\/+$/, '') || undefined;
  if (url !== undefined && !HTTP_URL.test(url)) throw new Error(`the public URL must be an http(s) URL, not ${url}`);
  return url;
}

/**
 * The HTTP settings from flags (when given) over environment variables over HTTP_DEFAULTS. The desktop app has no
 * flags and calls this with the environment only (through buildHttpApp), so both read the same variables.
 */
export function httpConfig(flags: Partial<Record<HttpFlag, string>>, env: NodeJS.ProcessEnv = process.env): HttpConfig {
  const raw = (flag: HttpFlag) => flags[flag] ?? env[HTTP_VARIABLES[flag]];
  const publicUrl = publicUrlSetting(raw('public-url'));
  const list = (flag: HttpFlag) => (raw(flag) ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  const allowedHosts = list('allowed-hosts');
  const corsOrigins = list('cors-origins').map((o) => o.replace(/\/+$/, ''));
  for (const o of corsOrigins) {
    if (!/^https?:\/\/[^/?#\s]+$/.test(o)) throw new Error(`--cors-origins takes origins such as https://emr.clinic.lan:8443, not ${o}`);
  }
  const positive = (flag: HttpFlag, fallback: number) => {
    const v = raw(flag);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!(n > 0) || !Number.isFinite(n)) throw new Error(`--${flag} must be a positive number, not ${v}`);
    return n;
  };
  const seconds = (flag: HttpFlag, fallback: number) => Math.round(positive(flag, fallback / 1000) * 1000);
  const d = HTTP_DEFAULTS.timeouts;
  const timeouts = {
    requestMs: seconds('request-timeout', d.requestMs),
    idleMs: seconds('idle-timeout', d.idleMs),
    headersMs: seconds('headers-timeout', d.headersMs),
    keepAliveMs: seconds('keep-alive-timeout', d.keepAliveMs),
    bodyMs: seconds('body-timeout', d.bodyMs),
    minBodyRate: positive('min-body-rate', d.minBodyRate),
  };
  // Node refuses a headers timeout longer than the request timeout; say so in our words.
  if (timeouts.headersMs > timeouts.requestMs) throw new Error('--headers-timeout must not exceed --request-timeout');
  const cap = raw('max-connections-per-address');
  const maxConnectionsPerAddress = cap === undefined ? HTTP_DEFAULTS.maxConnectionsPerAddress : Number(cap);
  if (!Number.isInteger(maxConnectionsPerAddress) || maxConnectionsPerAddress < 1) {
    throw new Error(`--max-connections-per-address must be a whole number of at least 1, not ${cap}`);
  }
  return { publicUrl, allowedHosts, corsOrigins, timeouts, maxConnectionsPerAddress };
}

const HTTP_VARIABLES = {
  'public-url': 'CLINIC_DESK_PUBLIC_URL',
  'allowed-hosts': 'CLINIC_DESK_ALLOWED_HOSTS',
  'cors-origins': 'CLINIC_DESK_CORS_ORIGINS',
  'request-timeout': 'CLINIC_DESK_REQUEST_TIMEOUT',
  'idle-timeout': 'CLINIC_DESK_IDLE_TIMEOUT',
  'headers-timeout': 'CLINIC_DESK_HEADERS_TIMEOUT',
  'keep-alive-timeout': 'CLINIC_DESK_KEEP_ALIVE_TIMEOUT',
  'body-timeout': 'CLINIC_DESK_BODY_TIMEOUT',
  'min-body-rate': 'CLINIC_DESK_MIN_BODY_RATE',
  'max-connections-per-address': 'CLINIC_DESK_MAX_CONNECTIONS_PER_ADDRESS',
} as const;
type HttpFlag = keyof typeof HTTP_VARIABLES;

export const DEFAULT_PORT = 4810;

/** Where data lives when nothing is said: per-user, never inside the checkout. */
export const defaultDataDir = () => join(homedir(), '.clinic-desk');

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** One command-line setting: its flag, the environment variable that stands in for it, and what it does. */
interface Flag {
  flag: string;
  type: 'string' | 'boolean';
  env?: string;
  value?: string;
  help: string;
}

/** Every flag of `npm run serve`; parseArgs and `--help` both read this list, so they cannot drift apart. */
export const FLAGS: Flag[] = [
  { flag: 'port', type: 'string', env: 'CLINIC_DESK_PORT', value: 'N', help: `port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)` },
  { flag: 'host', type: 'string', env: 'CLINIC_DESK_HOST', value: 'ADDR', help: 'address to listen on (default 127.0.0.1; 0.0.0.0 for other computers of the clinic)' },
  { flag: 'data-dir', type: 'string', env: 'CLINIC_DESK_DATA_DIR', value: 'DIR', help: 'where the database and files live (default ~/.clinic-desk; created 0700)' },
  { flag: 'kek-file', type: 'string', env: 'CLINIC_DESK_KEK_FILE', value: 'FILE', help: 'the key-encryption key file, kept outside the data folder (default <data-dir>/master.key); CLINIC_DESK_KEK gives the key itself' },
  { flag: 'database-url', type: 'string', env: 'CLINIC_DESK_DATABASE_URL', value: 'URL', help: 'run on PostgreSQL (postgres://user:password@host/db) instead of the SQLite file in the data folder; several instances may share it' },
  { flag: 'storage-dir', type: 'string', env: 'CLINIC_DESK_STORAGE_DIR', value: 'DIR', help: 'where uploaded audio is kept (default <data-dir>/scribe); every instance of a chain must see the same folder' },
  { flag: 'workers-only', type: 'boolean', env: 'CLINIC_DESK_WORKERS_ONLY=1', help: 'run only the background work (transcription, webhook deliveries, pushes) on --database-url, no HTTP service' },
  { flag: 'scribe-lease-ms', type: 'string', env: 'CLINIC_DESK_SCRIBE_LEASE_MS', value: 'MS', help: 'how long a process holds a claimed transcription before another may take it over (default 60000)' },
  { flag: 'scribe-retry-delay-ms', type: 'string', env: 'CLINIC_DESK_SCRIBE_RETRY_DELAY_MS', value: 'MS', help: 'first delay before a failed transcription is tried again, doubling (default 5000)' },
  { flag: 'scribe-poll-ms', type: 'string', env: 'CLINIC_DESK_SCRIBE_POLL_INTERVAL_MS', value: 'MS', help: 'how often a process looks for queued transcriptions (default 2000)' },
  { flag: 'webhook-lease-ms', type: 'string', env: 'CLINIC_DESK_WEBHOOK_LEASE_MS', value: 'MS', help: 'how long a process holds a claimed webhook delivery before another may take it over (default the larger of 60000 and twice --webhook-timeout; shorter than an attempt may take, a slow attempt is sent twice)' },
  { flag: 'webhook-poll-ms', type: 'string', env: 'CLINIC_DESK_WEBHOOK_POLL_INTERVAL_MS', value: 'MS', help: 'how often a process looks for due webhook deliveries (default 1000)' },
  { flag: 'push-lease-ms', type: 'string', env: 'CLINIC_DESK_PUSH_LEASE_MS', value: 'MS', help: 'how long a process holds a claimed push before another may take it over (default 60000)' },
  { flag: 'booking-horizon-days', type: 'string', env: 'CLINIC_DESK_BOOKING_HORIZON_DAYS', value: 'N', help: 'how many days ahead an appointment may be booked (default 730)' },
  { flag: 'demo', type: 'boolean', env: 'CLINIC_DESK_DEMO=1', help: 'create two demo clinics on first start (credentials in <data-dir>/demo-credentials.json)' },
  { flag: 'reset', type: 'boolean', help: 'with --demo: start the demo afresh (refused when the data folder holds clinics that are not the demo\'s)' },
  { flag: 'public-url', type: 'string', env: 'CLINIC_DESK_PUBLIC_URL', value: 'URL', help: 'base of every absolute URL handed out (behind a proxy, or a name for the LAN); else the listening address' },
  { flag: 'allowed-hosts', type: 'string', env: 'CLINIC_DESK_ALLOWED_HOSTS', value: 'A,B', help: 'host names accepted besides loopback, the listening address and the public URL (DNS rebinding guard)' },
  { flag: 'cors-origins', type: 'string', env: 'CLINIC_DESK_CORS_ORIGINS', value: 'O,O', help: 'origins whose web pages may call the API from a browser, besides the service\'s own (default none)' },
  { flag: 'request-timeout', type: 'string', env: 'CLINIC_DESK_REQUEST_TIMEOUT', value: 'S', help: 'seconds to receive a whole request (default 600)' },
  { flag: 'idle-timeout', type: 'string', env: 'CLINIC_DESK_IDLE_TIMEOUT', value: 'S', help: 'seconds of silence before a connection is closed (default 60)' },
  { flag: 'headers-timeout', type: 'string', env: 'CLINIC_DESK_HEADERS_TIMEOUT', value: 'S', help: 'seconds to receive the headers (default 20)' },
  { flag: 'keep-alive-timeout', type: 'string', env: 'CLINIC_DESK_KEEP_ALIVE_TIMEOUT', value: 'S', help: 'seconds an idle keep-alive connection stays open (default 10)' },
  { flag: 'body-timeout', type: 'string', env: 'CLINIC_DESK_BODY_TIMEOUT', value: 'S', help: 'seconds a request body gets before --min-body-rate applies (default 20)' },
  { flag: 'min-body-rate', type: 'string', env: 'CLINIC_DESK_MIN_BODY_RATE', value: 'B', help: 'bytes a second a body must average after --body-timeout, else 408 (default 500)' },
  { flag: 'max-connections-per-address', type: 'string', env: 'CLINIC_DESK_MAX_CONNECTIONS_PER_ADDRESS', value: 'N', help: 'open connections one remote address may hold (default 128)' },
  { flag: 'log-level', type: 'string', env: 'CLINIC_DESK_LOG_LEVEL', value: 'LEVEL', help: 'fatal, error, warn, info (default), debug, trace or silent; JSON lines on stdout' },
  { flag: 'log-requests', type: 'boolean', env: 'CLINIC_DESK_LOG_REQUESTS=1', help: 'log one line per request (method, path without query, status, time)' },
  { flag: 'webhook-retry-schedule', type: 'string', env: 'CLINIC_DESK_WEBHOOK_RETRY_SCHEDULE', value: 'S,S,…', help: 'webhook retry delays in seconds (default: the documented schedule)' },
  { flag: 'webhook-timeout', type: 'string', env: 'CLINIC_DESK_WEBHOOK_TIMEOUT', value: 'S', help: 'seconds a webhook delivery attempt may take (default 15)' },
  { flag: 'fcm-base-url', type: 'string', env: 'CLINIC_DESK_FCM_BASE_URL', value: 'URL', help: 'where pushes go instead of https://fcm.googleapis.com (a test stand-in)' },
  { flag: 'model-mirror', type: 'string', env: 'CLINIC_DESK_MODEL_MIRROR', value: 'URL', help: 'where Whisper models are downloaded from instead of Hugging Face' },
  { flag: 'scribe-max-files', type: 'string', env: 'CLINIC_DESK_SCRIBE_MAX_FILES', value: 'N', help: 'audio files per scribe transaction' },
  { flag: 'scribe-max-file-mb', type: 'string', env: 'CLINIC_DESK_SCRIBE_MAX_FILE_MB', value: 'N', help: 'largest audio file, MiB' },
  { flag: 'scribe-max-transaction-mb', type: 'string', env: 'CLINIC_DESK_SCRIBE_MAX_TRANSACTION_MB', value: 'N', help: 'largest scribe transaction, MiB' },
  { flag: 'scribe-workers', type: 'string', env: 'CLINIC_DESK_SCRIBE_WORKERS', value: 'N', help: 'scribe sessions transcribed at once' },
  { flag: 'sandbox', type: 'boolean', env: 'CLINIC_DESK_SANDBOX=1', help: 'serve the sandbox too: a synthetic clinic and sandbox credentials (cdk_test_…) on --port + 1; on with --demo (CLINIC_DESK_SANDBOX=0 keeps it off)' },
  { flag: 'sandbox-port', type: 'string', env: 'CLINIC_DESK_SANDBOX_PORT', value: 'N', help: 'the sandbox\'s port (turns the sandbox on; 0 picks a free one)' },
  { flag: 'sandbox-public-url', type: 'string', env: 'CLINIC_DESK_SANDBOX_PUBLIC_URL', value: 'URL', help: 'the sandbox\'s --public-url; else its listening address' },
  { flag: 'sandbox-fcm-base-url', type: 'string', env: 'CLINIC_DESK_SANDBOX_FCM_BASE_URL', value: 'URL', help: 'where the sandbox sends pushes (your own FCM stand-in); without it the sandbox stores push credentials but sends nothing' },
  { flag: 'help', type: 'boolean', help: 'print this and exit' },
];

/** `npm run serve -- --help`. */
export function helpText(): string {
  const left = FLAGS.map((f) => `  --${f.flag}${f.value ? ` ${f.value}` : ''}`);
  const width = Math.max(...left.map((l) => l.length)) + 2;
  return [
    'Usage: npm run serve -- [flags]   (or: npx clinic-desk serve [flags])',
    '',
    'The Clinic Desk service headless. Flags win over environment variables, which win over defaults.',
    '',
    ...FLAGS.map((f, i) => `${left[i]!.padEnd(width)}${f.help}${f.env ? ` [${f.env}]` : ''}`),
    '',
    'Examples: npm run serve -- --demo          a demo clinic at http://127.0.0.1:4810, its sandbox at :4811',
    '          npm run serve -- --demo --reset  the demo afresh',
  ].join('\n');
}

/** Flags win over environment variables, which win over defaults (FLAGS lists each with its variable). */
export function configFromArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): Config {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(FLAGS.map((f) => [f.flag, { type: f.type }])) as Record<string, { type: 'string' | 'boolean' }>,
    strict: true,
  }) as { values: Record<string, string | boolean | undefined> };
  const str = (flag: string): string | undefined => values[flag] as string | undefined;
  const bool = (flag: string): boolean | undefined => values[flag] as boolean | undefined;
  if (bool('reset') && !(bool('demo') ?? env.CLINIC_DESK_DEMO === '1')) throw new Error('--reset only starts the demo afresh: use it with --demo');
  const port = Number(str('port') ?? env.CLINIC_DESK_PORT ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, not ${str('port') ?? env.CLINIC_DESK_PORT}`);
  const logLevel = (str('log-level') ?? env.CLINIC_DESK_LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  const schedule = str('webhook-retry-schedule') ?? env.CLINIC_DESK_WEBHOOK_RETRY_SCHEDULE;
  const webhookRetryScheduleMs = schedule === undefined ? undefined
    : schedule.trim() === '' ? [] : schedule.split(',').map((s) => Number(s.trim()) * 1000);
  if (webhookRetryScheduleMs?.some((ms) => !Number.isFinite(ms) || ms < 0)) {
    throw new Error('--webhook-retry-schedule must be comma-separated seconds, e.g. 5,300,1800');
  }
  const timeout = str('webhook-timeout') ?? env.CLINIC_DESK_WEBHOOK_TIMEOUT;
  const webhookTimeoutMs = timeout === undefined ? undefined : Number(timeout) * 1000;
  if (webhookTimeoutMs !== undefined && !(webhookTimeoutMs > 0)) throw new Error('--webhook-timeout must be a positive number of seconds');
  const fcmBaseUrl = str('fcm-base-url') ?? env.CLINIC_DESK_FCM_BASE_URL;
  if (fcmBaseUrl !== undefined && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(fcmBaseUrl)) throw new Error('--fcm-base-url must be an http(s) URL');
  const modelMirror = str('model-mirror') ?? env.CLINIC_DESK_MODEL_MIRROR;
  if (modelMirror !== undefined && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(modelMirror)) throw new Error('--model-mirror must be an http(s) URL');
  /** A positive whole number from a flag or its variable, or undefined when neither is given. */
  const count = (flag: string, name: string) => {
    const raw = str(flag) ?? env[name];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (typeof raw !== 'string' || !Number.isInteger(n) || n < 1) throw new Error(`--${flag} must be a whole number of at least 1, not ${String(raw)}`);
    return n;
  };
  const mib = (n: number | undefined) => (n === undefined ? undefined : n * 1024 * 1024);
  const jobs = {
    scribeLeaseMs: count('scribe-lease-ms', 'CLINIC_DESK_SCRIBE_LEASE_MS'),
    scribeRetryDelayMs: count('scribe-retry-delay-ms', 'CLINIC_DESK_SCRIBE_RETRY_DELAY_MS'),
    scribePollMs: count('scribe-poll-ms', 'CLINIC_DESK_SCRIBE_POLL_INTERVAL_MS'),
    webhookLeaseMs: count('webhook-lease-ms', 'CLINIC_DESK_WEBHOOK_LEASE_MS'),
    webhookPollMs: count('webhook-poll-ms', 'CLINIC_DESK_WEBHOOK_POLL_INTERVAL_MS'),
    pushLeaseMs: count('push-lease-ms', 'CLINIC_DESK_PUSH_LEASE_MS'),
  };
  const scribe = {
    maxFilesPerTxn: count('scribe-max-files', 'CLINIC_DESK_SCRIBE_MAX_FILES'),
    maxFileBytes: mib(count('scribe-max-file-mb', 'CLINIC_DESK_SCRIBE_MAX_FILE_MB')),
    maxTxnBytes: mib(count('scribe-max-transaction-mb', 'CLINIC_DESK_SCRIBE_MAX_TRANSACTION_MB')),
    concurrency: count('scribe-workers', 'CLINIC_DESK_SCRIBE_WORKERS'),
  };
  const demo = bool('demo') ?? env.CLINIC_DESK_DEMO === '1';
  const databaseUrl = str('database-url') || env.CLINIC_DESK_DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/[^/?#]/.test(databaseUrl)) {
    throw new Error('--database-url must be a postgres:// URL, e.g. postgres://clinic:secret@db.example.org/clinic_desk');
  }
  const workersOnly = bool('workers-only') ?? env.CLINIC_DESK_WORKERS_ONLY === '1';
  if (workersOnly && databaseUrl === undefined) {
    throw new Error('--workers-only takes the background work of instances sharing a PostgreSQL database: give --database-url too');
  }
  if (databaseUrl !== undefined && bool('reset')) throw new Error('--reset starts the SQLite demo afresh; it does not drop a PostgreSQL database');
  const sandboxPortText = str('sandbox-port') ?? env.CLINIC_DESK_SANDBOX_PORT;
  const sandboxOn = bool('sandbox') ?? (sandboxPortText !== undefined || (env.CLINIC_DESK_SANDBOX !== undefined ? env.CLINIC_DESK_SANDBOX === '1' : demo));
  // Beside the live port by default; a free one when the live port is picked freely too.
  const sandboxPort = sandboxPortText !== undefined ? Number(sandboxPortText) : port === 0 ? 0 : port + 1;
  if (sandboxOn && (!Number.isInteger(sandboxPort) || sandboxPort < 0 || sandboxPort > 65535 || (sandboxPort === port && port !== 0))) {
    throw new Error(`--sandbox-port must be 0-65535 and not the --port, not ${sandboxPortText ?? sandboxPort}`);
  }
  const sandboxFcm = str('sandbox-fcm-base-url') ?? env.CLINIC_DESK_SANDBOX_FCM_BASE_URL;
  if (sandboxFcm !== undefined && !HTTP_URL.test(sandboxFcm)) throw new Error('--sandbox-fcm-base-url must be an http(s) URL');
  const sandboxPublic = publicUrlSetting(str('sandbox-public-url') ?? env.CLINIC_DESK_SANDBOX_PUBLIC_URL);
  return {
    host: str('host') ?? env.CLINIC_DESK_HOST ?? '127.0.0.1',
    port,
    dataDir: resolve(str('data-dir') ?? env.CLINIC_DESK_DATA_DIR ?? defaultDataDir()),
    demo,
    logLevel,
    logRequests: bool('log-requests') ?? env.CLINIC_DESK_LOG_REQUESTS === '1',
    webhookRetryScheduleMs,
    webhookTimeoutMs,
    fcmBaseUrl,
    modelMirror,
    bookingHorizonDays: count('booking-horizon-days', 'CLINIC_DESK_BOOKING_HORIZON_DAYS'),
    scribe: Object.fromEntries(Object.entries(scribe).filter(([, v]) => v !== undefined)),
    http: httpConfig(values as Partial<Record<HttpFlag, string>>, env),
    // An empty variable means unset, as for the service's other settings read by secret-box.ts.
    kekFile: str('kek-file') || env.CLINIC_DESK_KEK_FILE || undefined,
    reset: bool('reset') ?? false,
    help: bool('help') ?? false,
    databaseUrl,
    storageDir: (str('storage-dir') || env.CLINIC_DESK_STORAGE_DIR) ? resolve((str('storage-dir') || env.CLINIC_DESK_STORAGE_DIR)!) : undefined,
    workersOnly,
    jobs: Object.fromEntries(Object.entries(jobs).filter(([, v]) => v !== undefined)),
    sandbox: sandboxOn ? { port: sandboxPort, publicUrl: sandboxPublic, fcmBaseUrl: sandboxFcm } : null,
  };
}

export const databaseFile = (dataDir: string) => join(dataDir, 'clinic-desk.sqlite');
