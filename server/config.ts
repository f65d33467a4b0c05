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
  /** The scribe's upload limits and worker count; unset ones keep the scribe's defaults (docs/SCRIBE.md). */
  scribe: { maxFilesPerTxn?: number; maxFileBytes?: number; maxTxnBytes?: number; concurrency?: number };
  /** The HTTP face: public URL, accepted host names, timeouts and the connection cap (docs/API.md, Hardening). */
  http: HttpConfig;
}

export interface HttpConfig {
  /** The base of every absolute URL the service hands out (issuer, MCP resource, upload URL); else the listening address. */
  publicUrl?: string;
  /** Host names accepted besides loopback, the listening address and the public URL's host (DNS rebinding guard). */
  allowedHosts: string[];
  /** Milliseconds; see HTTP_DEFAULTS for the reasons behind each. */
  timeouts: { requestMs: number; idleMs: number; headersMs: number; keepAliveMs: number };
  /** Open connections one remote address may hold; the next is closed at once. */
  maxConnectionsPerAddress: number;
}

/**
 * Defaults sized for the largest scribe upload (1 GiB per file, docs/SCRIBE.md): 10 min for a whole request is
 * 1 GiB at about 14 Mbit/s (over loopback it takes seconds), while a client that stops sending is cut off after
 * 60 s of silence whatever the request; headers must arrive within 20 s; an idle keep-alive connection is
 * closed after 10 s so it does not hold a slot of the per-address cap. 128 connections per address leaves room
 * for every local client at once (browsers open 6 per origin; the bench's clients use up to 64).
 */
export const HTTP_DEFAULTS: Omit<HttpConfig, 'publicUrl' | 'allowedHosts'> = {
  timeouts: { requestMs: 600_000, idleMs: 60_000, headersMs: 20_000, keepAliveMs: 10_000 },
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
  const allowedHosts = (raw('allowed-hosts') ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  const seconds = (flag: HttpFlag, fallback: number) => {
    const v = raw(flag);
    if (v === undefined) return fallback;
    const ms = Number(v) * 1000;
    if (!(ms > 0) || !Number.isFinite(ms)) throw new Error(`--${flag} must be a positive number of seconds, not ${v}`);
    return Math.round(ms);
  };
  const d = HTTP_DEFAULTS.timeouts;
  const timeouts = {
    requestMs: seconds('request-timeout', d.requestMs),
    idleMs: seconds('idle-timeout', d.idleMs),
    headersMs: seconds('headers-timeout', d.headersMs),
    keepAliveMs: seconds('keep-alive-timeout', d.keepAliveMs),
  };
  // Node refuses a headers timeout longer than the request timeout; say so in our words.
  if (timeouts.headersMs > timeouts.requestMs) throw new Error('--headers-timeout must not exceed --request-timeout');
  const cap = raw('max-connections-per-address');
  const maxConnectionsPerAddress = cap === undefined ? HTTP_DEFAULTS.maxConnectionsPerAddress : Number(cap);
  if (!Number.isInteger(maxConnectionsPerAddress) || maxConnectionsPerAddress < 1) {
    throw new Error(`--max-connections-per-address must be a whole number of at least 1, not ${cap}`);
  }
  return { publicUrl, allowedHosts, timeouts, maxConnectionsPerAddress };
}

const HTTP_VARIABLES = {
  'public-url': 'CLINIC_DESK_PUBLIC_URL',
  'allowed-hosts': 'CLINIC_DESK_ALLOWED_HOSTS',
  'request-timeout': 'CLINIC_DESK_REQUEST_TIMEOUT',
  'idle-timeout': 'CLINIC_DESK_IDLE_TIMEOUT',
  'headers-timeout': 'CLINIC_DESK_HEADERS_TIMEOUT',
  'keep-alive-timeout': 'CLINIC_DESK_KEEP_ALIVE_TIMEOUT',
  'max-connections-per-address': 'CLINIC_DESK_MAX_CONNECTIONS_PER_ADDRESS',
} as const;
type HttpFlag = keyof typeof HTTP_VARIABLES;

export const DEFAULT_PORT = 4810;

/** Where data lives when nothing is said: per-user, never inside the checkout. */
export const defaultDataDir = () => join(homedir(), '.clinic-desk');

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Flags win over environment variables, which win over defaults:
 * --port / CLINIC_DESK_PORT, --host / CLINIC_DESK_HOST, --data-dir / CLINIC_DESK_DATA_DIR, --demo / CLINIC_DESK_DEMO=1,
 * --log-level / CLINIC_DESK_LOG_LEVEL, --log-requests / CLINIC_DESK_LOG_REQUESTS=1,
 * --webhook-retry-schedule / CLINIC_DESK_WEBHOOK_RETRY_SCHEDULE (comma-separated seconds, e.g. 0.1,0.5,2),
 * --webhook-timeout / CLINIC_DESK_WEBHOOK_TIMEOUT (seconds), --fcm-base-url / CLINIC_DESK_FCM_BASE_URL,
 * --model-mirror / CLINIC_DESK_MODEL_MIRROR,
 * --scribe-max-files / CLINIC_DESK_SCRIBE_MAX_FILES (audio files per transaction),
 * --scribe-max-file-mb / CLINIC_DESK_SCRIBE_MAX_FILE_MB, --scribe-max-transaction-mb / CLINIC_DESK_SCRIBE_MAX_TRANSACTION_MB,
 * --scribe-workers / CLINIC_DESK_SCRIBE_WORKERS (sessions transcribed at once),
 * and the HTTP settings of httpConfig: --public-url, --allowed-hosts (comma-separated), --request-timeout,
 * --idle-timeout, --headers-timeout, --keep-alive-timeout (seconds), --max-connections-per-address (HTTP_VARIABLES).
 */
export function configFromArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): Config {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      demo: { type: 'boolean' },
      'log-level': { type: 'string' },
      'log-requests': { type: 'boolean' },
      'webhook-retry-schedule': { type: 'string' },
      'webhook-timeout': { type: 'string' },
      'fcm-base-url': { type: 'string' },
      'model-mirror': { type: 'string' },
      'scribe-max-files': { type: 'string' },
      'scribe-max-file-mb': { type: 'string' },
      'scribe-max-transaction-mb': { type: 'string' },
      'scribe-workers': { type: 'string' },
      ...Object.fromEntries(Object.keys(HTTP_VARIABLES).map((flag) => [flag, { type: 'string' as const }])) as Record<HttpFlag, { type: 'string' }>,
    },
    strict: true,
  });
  const port = Number(values.port ?? env.CLINIC_DESK_PORT ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, not ${values.port ?? env.CLINIC_DESK_PORT}`);
  const logLevel = (values['log-level'] ?? env.CLINIC_DESK_LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  const schedule = values['webhook-retry-schedule'] ?? env.CLINIC_DESK_WEBHOOK_RETRY_SCHEDULE;
  const webhookRetryScheduleMs = schedule === undefined ? undefined
    : schedule.trim() === '' ? [] : schedule.split(',').map((s) => Number(s.trim()) * 1000);
  if (webhookRetryScheduleMs?.some((ms) => !Number.isFinite(ms) || ms < 0)) {
    throw new Error('--webhook-retry-schedule must be comma-separated seconds, e.g. 5,300,1800');
  }
  const timeout = values['webhook-timeout'] ?? env.CLINIC_DESK_WEBHOOK_TIMEOUT;
  const webhookTimeoutMs = timeout === undefined ? undefined : Number(timeout) * 1000;
  if (webhookTimeoutMs !== undefined && !(webhookTimeoutMs > 0)) throw new Error('--webhook-timeout must be a positive number of seconds');
  const fcmBaseUrl = values['fcm-base-url'] ?? env.CLINIC_DESK_FCM_BASE_URL;
  if (fcmBaseUrl !== undefined && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(fcmBaseUrl)) throw new Error('--fcm-base-url must be an http(s) URL');
  const modelMirror = values['model-mirror'] ?? env.CLINIC_DESK_MODEL_MIRROR;
  if (modelMirror !== undefined && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(modelMirror)) throw new Error('--model-mirror must be an http(s) URL');
  /** A positive whole number from a flag or its variable, or undefined when neither is given. */
  const count = (flag: keyof typeof values, name: string) => {
    const raw = values[flag] ?? env[name];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (typeof raw !== 'string' || !Number.isInteger(n) || n < 1) throw new Error(`--${flag} must be a whole number of at least 1, not ${String(raw)}`);
    return n;
  };
  const mib = (n: number | undefined) => (n === undefined ? undefined : n * 1024 * 1024);
  const scribe = {
    maxFilesPerTxn: count('scribe-max-files', 'CLINIC_DESK_SCRIBE_MAX_FILES'),
    maxFileBytes: mib(count('scribe-max-file-mb', 'CLINIC_DESK_SCRIBE_MAX_FILE_MB')),
    maxTxnBytes: mib(count('scribe-max-transaction-mb', 'CLINIC_DESK_SCRIBE_MAX_TRANSACTION_MB')),
    concurrency: count('scribe-workers', 'CLINIC_DESK_SCRIBE_WORKERS'),
  };
  return {
    host: values.host ?? env.CLINIC_DESK_HOST ?? '127.0.0.1',
    port,
    dataDir: resolve(values['data-dir'] ?? env.CLINIC_DESK_DATA_DIR ?? defaultDataDir()),
    demo: values.demo ?? env.CLINIC_DESK_DEMO === '1',
    logLevel,
    logRequests: values['log-requests'] ?? env.CLINIC_DESK_LOG_REQUESTS === '1',
    webhookRetryScheduleMs,
    webhookTimeoutMs,
    fcmBaseUrl,
    modelMirror,
    scribe: Object.fromEntries(Object.entries(scribe).filter(([, v]) => v !== undefined)),
    http: httpConfig(values, env),
  };
}

export const databaseFile = (dataDir: string) => join(dataDir, 'clinic-desk.sqlite');
