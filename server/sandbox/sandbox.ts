import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { join } from 'node:path';
import { Type } from 'typebox';
import { type HttpConfig, httpConfig } from '../config.js';
import { type HttpApp, type HttpOptions, buildHttpApp, clientError } from '../http/app.js';
import { authenticate } from '../http/auth.js';
import { capConnectionsPerAddress } from '../http/connection-cap.js';
import { closeStalledConnections } from '../http/stall-guard.js';
import { plainErrors } from '../http/errors.js';
import { listeningUrl } from '../http/host-guard.js';
import { type Service, type ServiceOptions, createService } from '../service.js';
import type { Environment } from '../shared/environment.js';
import { type SandboxCredentials, readSandboxCredentials, seedSandbox, writeSandboxCredentials } from './seed.js';

/**
 * The sandbox (docs/API.md, Sandbox): a second service over its own data folder, `<data-dir>/sandbox` (database,
 * uploads, credentials file), served on its own port with the same routes, OpenAPI document and /docs. Nothing
 * of the live service is shared but the process and the key-encryption key: separate databases mean separate
 * signing keys, clients and secrets, and every credential the sandbox issues is marked (shared/environment.ts).
 *
 * Reset builds a freshly seeded folder beside it (`sandbox.next`, marked complete last), then swaps folders by
 * rename with the sandbox's service closed. A kill at any moment leaves the old folder or the complete new one,
 * which `recover` settles at the next start; the live folder is never written. The port stays open throughout:
 * it belongs to a plain HTTP server that hands each request to the current app (Fastify's `routing`) and holds
 * requests arriving during the swap until the new app is ready, so the reset call itself answers with the new
 * credentials.
 */

const COMPLETE = '.complete';

export interface SandboxOptions {
  /** The live data folder; the sandbox lives in `<liveDataDir>/sandbox`. */
  liveDataDir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The sandbox's own public base URL; else its listening address. */
  publicUrl?: string;
  /** The live service's environment: told the sandbox's address, for its refusals' advice. */
  production: Environment;
  /** The live base address, for the sandbox's refusals' advice. */
  productionUrl: string;
  /**
   * The live service's options the sandbox shares (the key-encryption key, webhook timings, scribe limits). Pushes
   * go only to `fcmBaseUrl`, the integrator's own FCM stand-in; without it the sandbox stores credentials and
   * queues pushes but sends none, so a sandbox can never reach Google's FCM with a real service account.
   */
  service?: Omit<ServiceOptions, 'dataDir' | 'environment' | 'fcmBaseUrl'>;
  fcmBaseUrl?: string;
  /** The live app's HTTP options (logger, allowed hosts, timeouts, connection cap). */
  http?: Omit<HttpOptions, 'publicUrl' | 'openapiServers'>;
}

/** Settles an interrupted reset: the complete new folder if the swap had begun, else the old one. */
export function recover(dir: string) {
  const next = `${dir}.next`;
  const old = `${dir}.old`;
  if (!existsSync(dir)) {
    if (existsSync(join(next, COMPLETE))) renameSync(next, dir);
    else if (existsSync(old)) renameSync(old, dir);
  }
  rmSync(next, { recursive: true, force: true });
  rmSync(old, { recursive: true, force: true });
}

export async function startSandbox(opts: SandboxOptions) {
  const dir = join(opts.liveDataDir, 'sandbox');
  recover(dir);
  const env = httpConfig({}, process.env);
  const timeouts: HttpConfig['timeouts'] = { ...env.timeouts, ...opts.http?.timeouts };

  let current: { service: Service; app: HttpApp } | null = null;
  let swapping: Promise<unknown> | null = null;
  const route = (req: IncomingMessage, res: ServerResponse): void => {
    if (current) return current.app.routing(req, res);
    if (swapping) return void swapping.then(() => route(req, res), () => route(req, res));
    // Only after a reset that failed to open the new sandbox (the error is in the reset's answer and the log).
    res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' })
      .end(JSON.stringify({ error: { code: 'SANDBOX_UNAVAILABLE', message: 'The sandbox could not be opened after a reset; restart the service' } }));
  };
  // The same limits as the live app's own server (buildHttpApp), here on the server that owns the port.
  const server: Server = createServer({
    requestTimeout: timeouts.requestMs, headersTimeout: timeouts.headersMs, keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.max(100, Math.min(5000, Math.floor(timeouts.headersMs / 4))), requireHostHeader: false,
  }, route);
  const watch = closeStalledConnections(server, timeouts);
  // Node's own answer to a request its parser refuses has no body; ours is in the error shape, as on the live port.
  server.on('clientError', clientError);
  capConnectionsPerAddress(server, opts.http?.maxConnectionsPerAddress ?? env.maxConnectionsPerAddress, watch, opts.http?.logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const url = opts.publicUrl ?? listeningUrl(server)!;

  const serviceOptions = (dataDir: string): ServiceOptions => ({
    ...opts.service, dataDir, environment: 'sandbox', fcmBaseUrl: opts.fcmBaseUrl,
    push: { ...opts.service?.push, sender: opts.fcmBaseUrl !== undefined && opts.service?.push?.sender !== false },
  });

  /** A complete, seeded sandbox folder at `next`; nothing else is touched. */
  async function build(next: string): Promise<SandboxCredentials> {
    rmSync(next, { recursive: true, force: true });
    mkdirSync(next, { recursive: true, mode: 0o700 });
    const service = await createService({ ...serviceOptions(next), webhooks: { dispatch: false }, push: { sender: false }, scribe: { worker: false } });
    try {
      const creds = await seedSandbox(service, url);
      writeSandboxCredentials(next, creds);
      return creds;
    } finally {
      await service.close();
    }
  }

  async function open() {
    const service = await createService(serviceOptions(dir));
    service.environment.peerUrl = opts.productionUrl;
    const app = await buildHttpApp(service, { ...opts.http, publicUrl: url, openapiServers: [{ url, environment: 'sandbox' }] });
    app.post('/api/v1/sandbox/reset', {
      onRequest: authenticate(service),
      config: { errors: 'plain' },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: drop every sandbox record and seed the synthetic clinic again',
        description: 'Any sandbox credential may call it. Every earlier sandbox token, key and secret stops working; the answer is the new credentials (also in <data-dir>/sandbox/sandbox-credentials.json).',
        response: { 200: Type.Object({ environment: Type.Literal('sandbox'), base_url: Type.String() }, { additionalProperties: true }), ...plainErrors([401]) },
      },
    }, async () => reset());
    await app.ready();
    current = { service, app };
  }

  async function swapIn(next: string) {
    writeFileSync(join(next, COMPLETE), '', { mode: 0o600 });
    const old = current;
    current = null;
    if (old) {
      await old.app.close();
      await old.service.close();
    }
    if (existsSync(dir)) renameSync(dir, `${dir}.old`);
    renameSync(next, dir);
    rmSync(`${dir}.old`, { recursive: true, force: true });
    await open();
  }

  let queue: Promise<unknown> = Promise.resolve();
  /** Reseeds the sandbox (one reset at a time); resolves with the new credentials once the new sandbox answers. */
  function reset(): Promise<SandboxCredentials> {
    const run = queue.then(async () => {
      const next = `${dir}.next`;
      const creds = await build(next);
      const swap = swapIn(next);
      swapping = swap;
      try {
        await swap;
      } finally {
        swapping = null;
      }
      return creds;
    });
    queue = run.catch(() => undefined);
    return run;
  }

  if (readSandboxCredentials(dir)) await open();
  else await reset();
  opts.production.peerUrl = url;

  return {
    url,
    get service(): Service {
      return current!.service;
    },
    credentials: () => readSandboxCredentials(dir)!,
    reset,
    async close() {
      opts.production.peerUrl = null;
      await queue;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (current) {
        await current.app.close();
        await current.service.close();
        current = null;
      }
    },
  };
}
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
