// `npm run serve` once its flags are read (server/cli/serve.ts): the service, its HTTP app and what it prints at start.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { readsJournalFile } from '../audit/reads-writer.js';
import { databaseFile, type Config } from '../config.js';
import { ensureDemo, demoCredentialsFile, readDemoCredentials, type DemoCredentials } from '../demo/demo.js';
import { buildHttpApp } from '../http/app.js';
import { startupTracker } from '../http/startup.js';
import { type Sandbox, startSandbox } from '../sandbox/sandbox.js';
import { readinessLines } from '../scribe/readiness.js';
import { createService, type Service, type ServiceOptions } from '../service.js';
import { redactCredentials } from '../shared/log-redaction.js';
import { loadKek } from '../shared/secret-box.js';

/** What the live service and the sandbox share: the key-encryption key, webhook timings, scribe limits. Loads the key. */
const sharedOptions = (config: Config): Omit<ServiceOptions, 'dataDir'> => ({
  kek: loadKek(config.dataDir, { file: config.kekFile }),
  webhooks: {
    retryScheduleMs: config.webhookRetryScheduleMs, timeoutMs: config.webhookTimeoutMs, leaseMs: config.jobs.webhookLeaseMs,
    pollIntervalMs: config.jobs.webhookPollMs,
  },
  speechModels: { mirror: config.modelMirror },
  scribe: {
    ...config.scribe, leaseMs: config.jobs.scribeLeaseMs, retryDelayMs: config.jobs.scribeRetryDelayMs, pollIntervalMs: config.jobs.scribePollMs,
    storageDir: config.storageDir,
  },
  push: { leaseMs: config.jobs.pushLeaseMs },
  appointments: { horizonDays: config.bookingHorizonDays },
});

const openService = (config: Config, shared = sharedOptions(config)): Promise<Service> =>
  createService({ ...shared, dataDir: config.dataDir, databaseUrl: config.databaseUrl, fcmBaseUrl: config.fcmBaseUrl });

/** A database URL as it may be printed: without its password. */
export function shownDatabaseUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/**
 * `--workers-only`: the background work of a chain's instances (transcription, webhook deliveries, pushes), claimed
 * from the shared database like the API instances claim it, without an HTTP service. Stops on SIGINT/SIGTERM,
 * giving its claimed work back (a kill -9 leaves it to the leases). While PostgreSQL is away (a restart, a failover)
 * it keeps polling and its work resumes once the database answers; it gives up only at start (the database cannot
 * be reached or migrated: exit 1 with the reason, main below).
 */
async function workersOnly(config: Config, service: Service) {
  console.log([
    `clinic-desk workers running (scribe, webhooks, push) on ${shownDatabaseUrl(config.databaseUrl!)}`,
    ...readinessLines(await service.scribe.readiness()),
  ].join('\n'));
  // The background loops' timers do not hold a process open (the desktop app must be able to quit past them), and
  // with no HTTP server only the database's connections did: once PostgreSQL restarted and dropped them all, Node
  // found nothing left to wait for and exited 0. This process lives until a signal says otherwise.
  setInterval(() => undefined, 2 ** 31 - 1);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await service.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/**
 * `--demo --reset`: the demo's database, credentials and scribe files go, so the demo starts afresh. Refused when
 * the folder holds any clinic the demo did not create: a reset must never cost a real clinic its data.
 */
async function resetDemo(config: Config): Promise<void> {
  const creds = readDemoCredentials(config.dataDir);
  const service = await openService(config);
  const demoIds = new Set(creds?.workspaces.map((w) => w.workspace_id) ?? []);
  const others = (await service.auth.workspaces()).filter((w) => !demoIds.has(w.id));
  await service.close();
  if (others.length) throw new Error(`--reset refused: ${config.dataDir} holds ${others.length} clinic(s) that are not the demo's; use another --data-dir for the demo`);
  const db = databaseFile(config.dataDir);
  const journal = readsJournalFile(db);
  for (const f of [db, `${db}-wal`, `${db}-shm`, journal, `${journal}-wal`, `${journal}-shm`, demoCredentialsFile(config.dataDir)]) rmSync(f, { force: true });
  for (const d of ['scribe', 'sandbox']) rmSync(join(config.dataDir, d), { recursive: true, force: true });
}

/** The lines a person starting the service reads: where the UI is, and with --demo who can sign in. */
function startupLines(config: Config, listening: string, publicBase: string, demo: DemoCredentials | null | undefined, sandbox: Sandbox | null): string[] {
  const lines = [
    `clinic-desk listening on ${listening}`,
    `  app (browser):  ${publicBase}/`,
    `  API reference:  ${publicBase}/docs`,
    `  data folder:    ${config.dataDir}`,
    ...(config.databaseUrl ? [`  database:       ${shownDatabaseUrl(config.databaseUrl)} (PostgreSQL)`] : []),
  ];
  if (sandbox) {
    lines.push(`  sandbox:        ${sandbox.url}/ (synthetic data; API reference ${sandbox.url}/docs)`);
    lines.push(`  sandbox credentials: ${join(config.dataDir, 'sandbox', 'sandbox-credentials.json')}`);
  }
  if (demo) {
    for (const w of demo.workspaces) lines.push(`  demo sign-in:   ${w.name}: ${Object.values(w.users).map((u) => u.username).join(', ')}`);
    lines.push(`  passwords, API keys and client secrets: ${demoCredentialsFile(config.dataDir)}`);
  } else if (demo === null) {
    lines.push('  --demo ignored: this data folder already holds clinics that are not the demo\'s');
  }
  return lines;
}

/** Starts the service as `config` says: the HTTP app and its start-up lines, or with --workers-only the background work alone. */
export async function serveWith(config: Config) {
  if (config.demo && config.reset) await resetDemo(config);
  const startup = startupTracker(['database', 'workers', 'routes', ...(config.demo ? ['demo' as const] : []), ...(config.sandbox ? ['sandbox' as const] : []), 'scribe']);
  const shared = sharedOptions(config);
  const service = await openService(config, shared);
  if (config.workersOnly) return workersOnly(config, service);
  // createService has migrated the database and started the background work (scribe runner, webhook dispatcher, push sender).
  startup.done('database');
  startup.done('workers');
  // pino, as Fastify would make it, with Fastify's serializers for a request's lines (--log-requests).
  const logger = pino({
    level: config.logLevel,
    // Never log credentials, at any level, from any child logger or plugin (shared/log-redaction.ts); request URLs
    // are logged without their query string (it can hold a mobile number).
    formatters: { log: redactCredentials, bindings: redactCredentials },
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, path: req.url.split('?')[0], id: req.id }),
      res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
      err: pino.stdSerializers.err,
    },
    // Fastify's own "Server listening at" line would land among the start-up lines below, which say it better.
    hooks: {
      logMethod(args, method) {
        if (typeof args[0] === 'string' && args[0].startsWith('Server listening at')) return;
        method.apply(this, args);
      },
    },
  });
  let sandbox: Sandbox | null = null;
  // Known once listening; the OpenAPI document lists the live service and, when it runs, the sandbox.
  let publicBase = '';
  const app = await buildHttpApp(service, {
    logger,
    logRequests: config.logRequests,
    ...config.http,
    openapiServers: () => [{ url: publicBase, environment: 'production' }, ...(sandbox ? [{ url: sandbox.url, environment: 'sandbox' as const }] : [])],
    startup,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: shutting down`);
    await sandbox?.close();
    await app.close();
    await service.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      console.error(`clinic-desk: port ${config.port} on ${config.host} is in use (another copy of Clinic Desk, or another program). Start on another port with --port N (or CLINIC_DESK_PORT), e.g. --port ${config.port + 1}, or --port 0 for any free port.`);
      process.exit(1);
    }
    if (code === 'EADDRNOTAVAIL') {
      console.error(`clinic-desk: ${config.host} is not an address of this computer; choose one with --host (127.0.0.1, or 0.0.0.0 for every address).`);
      process.exit(1);
    }
    throw e;
  }
  startup.done('routes');
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const listening = `http://${shownHost}:${port}`;
  // What clients are told (demo credentials, every absolute URL the service builds): the configured public URL,
  // else the listening address (for a wildcard bind, the LAN address).
  publicBase = app.baseUrl() ?? listening;
  const demo = config.demo ? await ensureDemo(service, publicBase) : undefined;
  startup.done('demo');
  if (config.sandbox) {
    try {
      sandbox = await startSandbox({
        liveDataDir: config.dataDir, host: config.host, port: config.sandbox.port, publicUrl: config.sandbox.publicUrl,
        fcmBaseUrl: config.sandbox.fcmBaseUrl, production: service.environment, productionUrl: publicBase,
        service: shared, http: { logger, logRequests: config.logRequests, ...config.http },
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      console.error(`clinic-desk: the sandbox's port ${config.sandbox.port} is in use. Choose another with --sandbox-port N (or CLINIC_DESK_SANDBOX_PORT), or 0 for any free port.`);
      process.exit(1);
    }
  }
  startup.done('sandbox');
  // What the scribe can do here is said at every start: a machine without its engines serves everything else.
  const lines = [...startupLines(config, listening, publicBase, demo, sandbox), ...readinessLines(await service.scribe.readiness())];
  // The "listening on" line and /health's first 200 come together: nothing can answer between these two statements
  // (stdout to a file or pipe is written synchronously).
  console.log(lines.join('\n'));
  startup.done('scribe');
}
