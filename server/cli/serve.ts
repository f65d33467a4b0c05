import { configFromArgs } from '../config.js';
import { ensureDemo, demoCredentialsFile } from '../demo/demo.js';
import { buildHttpApp } from '../http/app.js';
import { createService } from '../service.js';

/** `npm run serve -- [--port N] [--host H] [--data-dir D] [--demo]`: the service headless. */
async function main() {
  let config;
  try {
    config = configFromArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`clinic-desk: ${(e as Error).message}`);
    process.exit(2);
  }
  const service = createService({
    dataDir: config.dataDir,
    webhooks: { retryScheduleMs: config.webhookRetryScheduleMs, timeoutMs: config.webhookTimeoutMs },
    fcmBaseUrl: config.fcmBaseUrl,
    speechModels: { mirror: config.modelMirror },
    scribe: config.scribe,
  });
  const app = await buildHttpApp(service, {
    logger: {
      level: config.logLevel,
      // Never log credentials; request URLs are logged without their query string (it can hold a mobile number).
      redact: ['req.headers.auth', 'req.headers.authorization', 'req.headers["x-api-key"]'],
      serializers: { req: (req) => ({ method: req.method, path: req.url.split('?')[0], id: req.id }) },
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

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const baseUrl = `http://${shownHost}:${port}`;
  // What clients are told (demo credentials, every absolute URL the service builds): the configured public URL,
  // else the listening address (for a wildcard bind, the LAN address).
  const publicBase = app.baseUrl() ?? baseUrl;
  if (config.demo) {
    const demo = await ensureDemo(service, publicBase);
    if (demo) console.log(`demo clinics ready: credentials in ${demoCredentialsFile(config.dataDir)}`);
    else console.log('--demo ignored: this data directory already holds clinics that are not the demo\'s');
  }
  console.log(`clinic-desk listening on ${baseUrl} (data: ${config.dataDir}; API reference: ${publicBase}/docs)`);
}

main().catch((e) => {
  console.error('clinic-desk failed to start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
