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
}

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
 * --scribe-workers / CLINIC_DESK_SCRIBE_WORKERS (sessions transcribed at once).
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
  };
}

export const databaseFile = (dataDir: string) => join(dataDir, 'clinic-desk.sqlite');
