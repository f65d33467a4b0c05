import { randomUUID } from 'node:crypto';
import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import { Type } from 'typebox';
import { appointmentRoutes } from '../appointments/routes.js';
import { tokenRoutes } from '../auth/token-routes.js';
import { authOperations } from '../auth/operations.js';
import { profileOperations } from '../auth/profile-operations.js';
import { sessionRoutes, signedInRoutes } from '../auth/session-routes.js';
import { noteOperations } from '../notes/operations.js';
import { staticUi } from './static.js';
import { patientRoutes } from '../patients/routes.js';
import type { Service } from '../service.js';
import type { EnvironmentName } from '../shared/environment.js';
import { ServiceError } from '../shared/errors.js';
import { webhookRoutes } from '../webhooks/routes.js';
import { notificationRoutes } from '../notifications/routes.js';
import { reminderRoutes } from '../reminders/routes.js';
import { SCRIBE_UNAUTHORIZED, scribeRoutes } from '../scribe/api/routes.js';
import { uploadRoutes } from '../scribe/api/uploads.js';
import { speechModelOperations } from '../scribe/speech-models/operations.js';
import { statusOperations } from '../status/operations.js';
import { frameworkError, installErrorHandling, installNotFound } from './errors.js';
import { mcpRoutes } from '../mcp/routes.js';
import { oidcRoutes } from '../oidc/routes.js';
import { assistantOperations } from '../oidc/operations.js';
import { type HttpConfig, httpConfig, publicUrlSetting } from '../config.js';
import { ping } from '../db/tx.js';
import { capConnectionsPerAddress } from './connection-cap.js';
import { closeStalledConnections } from './stall-guard.js';
import { hostGuard } from './host-guard.js';
import type { StartupTracker } from './startup.js';
import { TOO_DEEP_MESSAGE, jsonTextTooDeep } from '../shared/json-depth.js';
import { corsPolicy } from './cors.js';
import { answerWhenDurable } from './durable-answers.js';
import { appMethodRoutes } from './app-method-routes.js';
import { signedIn } from './auth.js';
import { operationRoutes } from './operation-routes.js';
import { decorateServices } from './route-plugin.js';
import { API_VERSION } from './version.js';

export interface HttpOptions {
  /** Where the service's log lines go (serve.ts makes it); none: nothing is logged. */
  logger?: FastifyBaseLogger;
  /** A line per request, through `logger`. */
  logRequests?: boolean;
  /** The browser UI at / (built renderer); `false` leaves it out, `{ root }` serves another build folder. */
  ui?: false | { root?: string };
  /** Public base URL: the base of every absolute URL the service hands out (default CLINIC_DESK_PUBLIC_URL, else the listening address). */
  publicUrl?: string;
  /** Host names accepted besides loopback, the listening address and the public URL's (default CLINIC_DESK_ALLOWED_HOSTS). */
  allowedHosts?: string[];
  /** Origins whose pages may call the API from a browser besides the service's own (default CLINIC_DESK_CORS_ORIGINS; none). */
  corsOrigins?: string[];
  /** Unset ones come from the environment, else config.ts HTTP_DEFAULTS. */
  timeouts?: Partial<HttpConfig['timeouts']>;
  maxConnectionsPerAddress?: number;
  /**
   * The OpenAPI document's `servers`, each marked with its environment: a list, or a function read each time the
   * document is served (the desktop app turns its sandbox on and off while it runs). None: no `servers` entry.
   */
  openapiServers?: OpenApiServer[] | (() => OpenApiServer[]);
  /** What is still starting (http/startup.ts): /health answers 503 until it is done. None: ready once listening. */
  startup?: Pick<StartupTracker, 'pending'>;
}

export interface OpenApiServer {
  url: string;
  environment: EnvironmentName;
}

const SERVER_DESCRIPTIONS: Record<EnvironmentName, string> = {
  production: 'Production: the clinic\'s data',
  sandbox: 'Sandbox: synthetic data, sandbox credentials (…_test_…)',
};

/** A `servers` entry of the OpenAPI document; a vendor field names the environment. */
const openapiServerEntry = ({ url, environment }: OpenApiServer) => ({ url, description: SERVER_DESCRIPTIONS[environment], 'x-environment': environment });

export { API_VERSION };

const wellFormed = (v: unknown): boolean => {
  if (typeof v === 'string') return v.isWellFormed();
  if (Array.isArray(v)) return v.every(wellFormed);
  if (v && typeof v === 'object') return Object.entries(v).every(([k, x]) => k.isWellFormed() && wellFormed(x));
  return true;
};

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (a header block over 16 kB: 431; garbage: 400).
 * Answered in the plain error shape with a request id, like everything else.
 */
export function clientError(err: NodeJS.ErrnoException, socket: import('node:stream').Duplex) {
  if (err.code === 'ECONNRESET' || !socket.writable) return;
  const [status, reason, code, message] = err.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'Request Header Fields Too Large', 'INVALID_REQUEST', 'Request headers too large']
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request did not arrive in time']
      : err.code === 'ERR_BODY_TOO_SLOW'
        ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request body arrived too slowly']
        : [400, 'Bad Request', 'INVALID_REQUEST', 'Malformed HTTP request'];
  const id = randomUUID();
  const body = JSON.stringify({ error: { code, message } });
  socket.end([
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${id}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n'));
}

// A client may name its own request id, if it looks like one; otherwise we make one.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The routes' schemas compiled once a process, not once an app: Fastify compiles the validators and serializers of
 * an app's routes as it starts (most of a second of CPU), and a process may start more than one app on the same
 * schemas (the service and its sandbox; a sandbox reset starts a new one). These are Fastify's own compilers (Ajv,
 * fast-json-stringify, made by Fastify's packages with the options Fastify gives them), each compiled function kept
 * by what it was compiled from: the shared schemas, the options and the route's schema, as JSON.
 *
 * And each is compiled when its route is first called, not as the app starts: compiling all of them took about 0.6 s
 * of the 3 s a `serve` process needs to listen, paid again by every start (the desktop app's, a restart after a crash,
 * each of the test suite's many processes), most of it for routes a given process never serves. A schema Ajv cannot
 * compile then fails its route's first call with a 500 instead of the start; every route is called by the tests.
 *
 * Given compilers of its own, Fastify leaves a headers schema as written instead of lower-casing its names (header
 * names are case-insensitive), so a headers schema is taken only where that changes nothing: its property and
 * required names already lower-case, nothing else in it that Fastify would lower-case. Any other is refused at start.
 */
const compiled = new Map<string, unknown>();
const once = <T>(key: string, make: () => T): T => {
  if (!compiled.has(key)) compiled.set(key, make());
  return compiled.get(key) as T;
};
const validatorsFor = AjvCompiler();
const serializersFor = SerializerSelector();
type RouteSchema = { schema: unknown; httpPart?: string; method?: string; url?: string };
type AjvValidate = ((data: unknown, context?: unknown) => boolean | Promise<unknown>) & { errors?: unknown };
const CASED_KEYWORDS = ['properties', 'required', 'dependencies', 'dependentSchemas', 'dependentRequired', 'propertyNames', '$ref'];
const lowerCaseAlready = (schema: unknown): boolean => {
  if (typeof schema !== 'object' || schema === null) return false;
  const { properties = {}, required = [], ...rest } = schema as { properties?: Record<string, unknown>; required?: string[] };
  const inner = JSON.stringify([rest, Object.values(properties)]);
  return [...Object.keys(properties), ...required].every((name) => name === name.toLowerCase())
    && !CASED_KEYWORDS.some((k) => inner.includes(`"${k}"`));
};
const compilersFactory = {
  buildValidator: (externalSchemas: unknown, options: { customOptions?: unknown }) => {
    const compile = validatorsFor(externalSchemas as never, options as never) as (route: RouteSchema) => unknown;
    const prefix = `validator ${JSON.stringify([externalSchemas, options.customOptions])}`;
    return (route: RouteSchema) => {
      if (route.httpPart === 'headers' && !lowerCaseAlready(route.schema)) {
        throw new Error(`${route.method} ${route.url}: a headers schema must name its headers in lower case (http/app.ts, compilersFactory)`);
      }
      const key = `${prefix} ${route.httpPart} ${JSON.stringify(route.schema)}`;
      let validate: AjvValidate | undefined;
      const lazy = (data: unknown, context?: unknown) => (validate ??= once(key, () => compile(route) as AjvValidate))(data, context);
      // What Fastify reads of an Ajv validator: `schemaEnv`, on which it passes the parent context (so that Ajv can
      // replace a coerced root value), and the errors of the last call.
      return Object.defineProperties(lazy, { schemaEnv: { value: true }, errors: { get: () => validate?.errors } });
    };
  },
  buildSerializer: (externalSchemas: unknown, options: unknown) => {
    const compile = serializersFor(externalSchemas as never, options as never) as unknown as (route: RouteSchema) => unknown;
    const prefix = `serializer ${JSON.stringify([externalSchemas, options])}`;
    return (route: RouteSchema) => {
      const key = `${prefix} ${JSON.stringify(route.schema)}`;
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => (serialize ??= once(key, () => compile(route) as (data: unknown) => string))(data);
    };
  },
};

/** The HTTP face of the service: the interface's routes over the domain services. */
export async function buildHttpApp(service: Service, opts: HttpOptions = {}) {
  const env = httpConfig({}, process.env);
  const publicUrl = opts.publicUrl !== undefined ? publicUrlSetting(opts.publicUrl) : env.publicUrl;
  const timeouts = { ...env.timeouts, ...opts.timeouts };
  const app = Fastify({
    // Fastify given a logger does work on every request even when it logs none (a child logger, response listeners
    // and timings): about a tenth of a search (bench/search.ts). So it has one only to log requests; otherwise the
    // few lines the service logs (errors.ts, the connection cap, the OpenID provider) go to `log` and name their
    // request themselves.
    ...(opts.logRequests && opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: !opts.logRequests }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    // Room for the longest ids the schemas accept (128); longer ones get a 400 in the route's error shape.
    routerOptions: { maxParamLength: 256 },
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    // Slow clients (docs/API.md, Hardening): silence on the socket (a stalled body) ends it after idleMs, a body
    // slower than minBodyRate after bodyMs gets 408 (closeStalledConnections, below); a whole request, however it
    // trickles, gets requestMs, and its headers headersMs (408). Node checks the latter two every
    // connectionsCheckingInterval, so that interval is a fraction of the shorter one.
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.max(100, Math.min(5000, Math.floor(timeouts.headersMs / 4))),
      // Our Host check answers a missing Host in the error shape (Node's own 400 has no body).
      requireHostHeader: false,
    },
    // Strict body types: a number where a string belongs is an error, never silently converted.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    schemaController: { compilersFactory: compilersFactory as never },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Before every other hook and route: the request id, so that every answer carries it, a refusal too, then the Host
  // check, then the CORS headers for a configured origin.
  const hostRefusal = hostGuard(app, { publicUrl, allowedHosts: opts.allowedHosts ?? env.allowedHosts });
  const cors = corsPolicy(app, { publicUrl, origins: opts.corsOrigins ?? env.corsOrigins });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const refusal = hostRefusal(request);
    if (!refusal) cors(request, reply);
    done(refusal ?? undefined);
  });
  // Authorise before validating: a route's access checks are preParsing hooks (http/auth.ts requireScope), before
  // its body is read and checked against the schema; a preHandler would run after, so none is taken.
  app.addHook('onRoute', (route) => {
    if (route.preHandler) throw new Error(`${route.method} ${route.url}: access checks run in preParsing (before validation), not preHandler`);
  });
  answerWhenDurable(app, service.sql.database);
  const log = opts.logger ?? app.log;
  const watch = closeStalledConnections(app.server, timeouts);
  capConnectionsPerAddress(app.server, opts.maxConnectionsPerAddress ?? env.maxConnectionsPerAddress, watch, log);
  // close() ends the connections idle at that moment; one whose answer was still going out is kept alive after it,
  // and held close() up until the client's keep-alive timeout ended it (8 s after a burst of requests, on SIGTERM).
  // While closing, connections are ended as they fall idle.
  app.addHook('preClose', (done) => {
    if (app.server.listening) {
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
      sweep.unref();
      app.server.once('close', () => clearInterval(sweep));
    }
    done();
  });

  // JSON only, app-wide: a form or text/plain body is what a web page can post cross-site without a CORS
  // preflight, so those types get 415 (Fastify's built-in text/plain parser goes too). The few routes a standard
  // gives form bodies (the OAuth token endpoint, the OpenID sign-in pages) add a form parser in their own scope.
  app.removeAllContentTypeParsers();
  // An empty body with a JSON content type is "no body" (some SDKs send the header on body-less POSTs);
  // anything else goes to Fastify's own parser, which guards against prototype poisoning. The bytes are decoded
  // strictly: invalid UTF-8 would otherwise be stored as U+FFFD, silently changing a name. Text with a lone
  // UTF-16 surrogate (legal in JSON escapes) cannot be stored faithfully either, so it is refused too. Nesting is
  // limited before parsing (shared/json-depth.ts), so nothing recursive ever walks a body deeper than that.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    if (jsonTextTooDeep(body as Buffer)) return done(new ServiceError(400, 'INVALID_REQUEST', TOO_DEEP_MESSAGE), undefined);
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(new ServiceError(400, 'INVALID_REQUEST', 'The body is not valid UTF-8'), undefined);
    }
    return jsonParser(request, text, (err, value) => {
      if (err) return done(err, undefined);
      if (!wellFormed(value)) return done(new ServiceError(400, 'INVALID_REQUEST', 'Text must be valid Unicode (a lone surrogate was sent)'), undefined);
      return done(null, value);
    });
  });
  installErrorHandling(app, log);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Clinic Desk clinic API',
        version: API_VERSION,
        description: 'The clinic practice interface served by Clinic Desk. See docs/API.md for decisions the interface leaves open.',
      },
      components: {
        securitySchemes: {
          authHeader: { type: 'apiKey', in: 'header', name: 'auth', description: 'The user\'s auth token' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
  });
  // @fastify/swagger builds the document once and caches it; the servers are added to a shallow copy per answer,
  // never written into that cached object, so a list that changes is served as it is now.
  const servers = opts.openapiServers;
  const withServers = <T extends object>(doc: T): T => servers === undefined ? doc : {
    ...doc,
    servers: (typeof servers === 'function' ? servers() : servers).map(openapiServerEntry),
  };
  await app.register(swaggerUi, { routePrefix: '/docs', transformSpecification: withServers, transformSpecificationClone: false });

  app.get('/openapi.json', { schema: { hide: true } }, async () => withServers(app.swagger()));

  app.get('/health', {
    schema: {
      tags: ['service'],
      summary: 'Readiness and database check',
      description: '200 once every part of the service is up (database migrated, routes, background workers, and the demo '
        + 'clinics and sandbox when asked for); 503 while some are still starting, naming them.',
      response: {
        200: Type.Object({ status: Type.Literal('ok'), version: Type.String() }),
        503: Type.Object({ status: Type.Literal('starting'), starting: Type.Array(Type.String()), version: Type.String() }),
      },
    },
  }, async (_request, reply) => {
    const starting = opts.startup?.pending() ?? [];
    if (starting.length) return reply.code(503).header('retry-after', '1').send({ status: 'starting' as const, starting, version: API_VERSION });
    await ping(service.sql);
    return { status: 'ok' as const, version: API_VERSION };
  });

  // The route plugins declare the services they use (http/route-plugin.ts) and get those decorators alone. Those that
  // need a caller sit in `signedIn` subtrees, which authenticate once; the order is the OpenAPI document's.
  decorateServices(app, service);
  await app.register(tokenRoutes);
  await app.register(patientRoutes, { service });
  await app.register(appointmentRoutes, { service });
  await app.register(webhookRoutes, { service });
  await app.register(notificationRoutes, { service });
  await app.register(reminderRoutes, { service });
  // The scribe's upload receiver takes the signed policy instead of a caller.
  await app.register(uploadRoutes);
  await app.register(signedIn([scribeRoutes], SCRIBE_UNAUTHORIZED));
  await app.register(signedIn([operationRoutes('speech-models', speechModelOperations), operationRoutes('notes', noteOperations)]));
  await app.register(sessionRoutes);
  await app.register(signedIn([
    signedInRoutes, operationRoutes('profiles', profileOperations), operationRoutes('auth-operations', authOperations), operationRoutes('status', statusOperations), appMethodRoutes,
  ]));
  // AI assistants: browser sign-in (OpenID provider under /oauth2, discovery at the root), the assistants a user
  // connected, and the MCP endpoint.
  await app.register(oidcRoutes, { log });
  await app.register(signedIn([operationRoutes('connected-assistants', assistantOperations)]));
  await app.register(mcpRoutes);
  // Last: the UI's page fallback answers only browser page requests for paths no API route owns.
  installNotFound(app, opts.ui === false ? null : await staticUi(app, opts.ui || {}));
  return app;
}
export type HttpApp = Awaited<ReturnType<typeof buildHttpApp>>;
