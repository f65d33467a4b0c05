import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { configFromArgs, databaseFile, helpText, type Config } from '../config.js';
import { ensureDemo, demoCredentialsFile, readDemoCredentials, type DemoCredentials } from '../demo/demo.js';
import { buildHttpApp } from '../http/app.js';
import { createService, type Service } from '../service.js';
import { loadKek } from '../shared/secret-box.js';

const openService = (config: Config): Service =>
  createService({
    dataDir: config.dataDir,
    kek: loadKek(config.dataDir, { file: config.kekFile }),
    webhooks: { retryScheduleMs: config.webhookRetryScheduleMs, timeoutMs: config.webhookTimeoutMs },
    fcmBaseUrl: config.fcmBaseUrl,
    speechModels: { mirror: config.modelMirror },
    scribe: config.scribe,
  });

/**
 * `--demo --reset`: the demo's database, credentials and scribe files go, so the demo starts afresh. Refused when
 * the folder holds any clinic the demo did not create: a reset must never cost a real clinic its data.
 */
function resetDemo(config: Config): void {
  const creds = readDemoCredentials(config.dataDir);
  const service = openService(config);
  const demoIds = new Set(creds?.workspaces.map((w) => w.workspace_id) ?? []);
  const others = service.auth.workspaces().filter((w) => !demoIds.has(w.id));
  service.close();
  if (others.length) throw new Error(`--reset refused: ${config.dataDir} holds ${others.length} clinic(s) that are not the demo's; use another --data-dir for the demo`);
  const db = databaseFile(config.dataDir);
  for (const f of [db, `${db}-wal`, `${db}-shm`, demoCredentialsFile(config.dataDir)]) rmSync(f, { force: true });
  rmSync(join(config.dataDir, 'scribe'), { recursive: true, force: true });
}

/** The lines a person starting the service reads: where the UI is, and with --demo who can sign in. */
function startupLines(config: Config, listening: string, publicBase: string, demo: DemoCredentials | null | undefined): string[] {
  const lines = [
    `clinic-desk listening on ${listening}`,
    `  app (browser):  ${publicBase}/`,
    `  API reference:  ${publicBase}/docs`,
    `  data folder:    ${config.dataDir}`,
  ];
  if (demo) {
    for (const w of demo.workspaces) lines.push(`  demo sign-in:   ${w.name}: ${Object.values(w.users).map((u) => u.username).join(', ')}`);
    lines.push(`  passwords, API keys and client secrets: ${demoCredentialsFile(config.dataDir)}`);
  } else if (demo === null) {
    lines.push('  --demo ignored: this data folder already holds clinics that are not the demo\'s');
  }
  return lines;
}

/** `npm run serve -- [flags]` (`--help` lists them): the service headless. */
async function main() {
  let config: Config;
  try {
    config = configFromArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`clinic-desk: ${(e as Error).message} (see --help)`);
    process.exit(2);
  }
  if (config.help) {
    console.log(helpText());
    return;
  }
  if (config.demo && config.reset) resetDemo(config);
  const service = openService(config);
  const app = await buildHttpApp(service, {
    logger: {
      level: config.logLevel,
      // Never log credentials; request URLs are logged without their query string (it can hold a mobile number).
      redact: ['req.headers.auth', 'req.headers.authorization', 'req.headers["x-api-key"]'],
      serializers: { req: (req) => ({ method: req.method, path: req.url.split('?')[0], id: req.id }) },
      // Fastify's own "Server listening at" line would land among the start-up lines below, which say it better.
      hooks: {
        logMethod(args, method) {
          if (typeof args[0] === 'string' && args[0].startsWith('Server listening at')) return;
          method.apply(this, args);
        },
      },
    },
    logRequests: config.logRequests,
    ...config.http,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    await app.close();
    service.close();
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
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const listening = `http://${shownHost}:${port}`;
  // What clients are told (demo credentials, every absolute URL the service builds): the configured public URL,
  // else the listening address (for a wildcard bind, the LAN address).
  const publicBase = app.baseUrl() ?? listening;
  const demo = config.demo ? await ensureDemo(service, publicBase) : undefined;
  console.log(startupLines(config, listening, publicBase, demo).join('\n'));
}

main().catch((e) => {
  console.error('clinic-desk failed to start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
