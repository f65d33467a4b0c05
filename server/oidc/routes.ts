import type { IncomingMessage } from 'node:http';
import formbody from '@fastify/formbody';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { Type } from 'typebox';
import { type RouteServices, routePlugin } from '../http/route-plugin.js';
import { ServiceError } from '../shared/errors.js';
import { type ClientView, consentPage, errorPage, loginPage, pageHeaders } from './pages.js';
import { OAUTH_PREFIX, createProvider } from './provider.js';
import { isApiScope } from './scopes.js';

export interface OidcRouteOptions {
  /** Where the provider's own errors are logged. */
  log: FastifyBaseLogger;
}

/** The issuer: the service's base URL (app.baseUrl: the configured public URL, else the listening address). */
export function issuerOf(app: FastifyInstance, oidc: RouteServices['oidc']): string | null {
  if (!oidc.issuer()) {
    const url = app.baseUrl();
    if (url) oidc.setIssuer(url);
  }
  return oidc.issuer();
}

const LoginBody = Type.Object({
  username: Type.String({ maxLength: 200 }),
  password: Type.String({ maxLength: 1024 }),
});
const originOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
};

/** The provider's own limit on the bodies it reads (oidc-provider's selective_body.js). */
const PROVIDER_BODY_LIMIT = 56 * 1024;
const isJson = (request: FastifyRequest) => request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() === 'application/json';

const ConfirmBody = Type.Object({ decision: Type.Union([Type.Literal('allow'), Type.Literal('deny')]) });
const UidParams = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 128 }) });

/**
 * The OpenID provider over HTTP: its endpoints under /oauth2 (handed to oidc-provider untouched: Fastify
 * neither parses nor answers them; other /oauth2 paths are plain 404s), discovery at the root, the sign-in and
 * consent pages. Plain routes, not declared operations (server/shared/operation.ts), on purpose: OpenID Connect and
 * OAuth fix their shapes (redirects, form posts, HTML pages), and a caller is what they establish, not what they
 * start from. The connected assistants are declared operations (operations.ts).
 */
export const oidcRoutes = routePlugin('oidc', ['oidc', 'auth', 'audit'], async (app, { oidc, auth, audit }, { log }: OidcRouteOptions) => {
  const issuer = () => issuerOf(app, oidc);
  issuer();
  app.addHook('onListen', async () => void issuer());

  /**
   * The provider builds its endpoint URLs (discovery, the sign-in page's resume address, the audiences it accepts)
   * from the request's host and scheme. It is told to trust the forwarded ones (proxy), and these are always set
   * here from the issuer, so every URL it writes is on the configured base whatever Host or X-Forwarded-* came.
   */
  function asIssuer(raw: IncomingMessage) {
    const base = new URL(issuer()!);
    raw.headers['x-forwarded-host'] = base.host;
    raw.headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
    return raw;
  }

  let provider: Provider | null = null;
  let handler: ReturnType<Provider['callback']> | null = null;
  function ensure() {
    if (!provider) {
      const iss = issuer();
      if (!iss) throw new ServiceError(503, 'NOT_READY', 'The sign-in service starts once the server listens');
      provider = createProvider({ oidc, auth }, iss);
      provider.proxy = true;
      provider.on('server_error', (_ctx: unknown, err: Error) => log.error({ err }, 'OpenID provider error'));
      handler = provider.callback();
    }
    return { provider, handler: handler! };
  }

  /** Hands the request to the provider as it arrived (before Fastify reads its body), optionally at another path. */
  async function handOff(request: FastifyRequest, reply: FastifyReply, url?: string) {
    const { handler: h } = ensure();
    reply.hijack();
    reply.raw.setHeader('x-request-id', request.id);
    if (url) request.raw.url = url + (request.raw.url?.includes('?') ? request.raw.url.slice(request.raw.url.indexOf('?')) : '');
    await h(asIssuer(request.raw), reply.raw);
  }

  const discovery = '/.well-known/openid-configuration';
  const noop = async () => undefined;
  // The provider's endpoints that are switched on; anything else under /oauth2 is Fastify's plain 404.
  const endpoints = ['auth', 'auth/:uid', 'token', 'token/revocation', 'reg', 'jwks', 'me'].map((e) => `${OAUTH_PREFIX}/${e}`);
  for (const path of [...endpoints, discovery]) {
    app.route({
      method: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      url: path,
      schema: { hide: true },
      config: { errors: 'oauth' },
      bodyLimit: PROVIDER_BODY_LIMIT,
      onRequest: async (request, reply) => {
        if (!isJson(request)) await handOff(request, reply);
      },
      // A JSON body (client registration) goes through the service's own parser first, for its nesting limit
      // (shared/json-depth.ts): the provider's walks over a registration recurse, and a deep one ran them out of
      // stack (500). The provider takes an already parsed body from the request.
      preValidation: async (request, reply) => {
        (request.raw as IncomingMessage & { body?: unknown }).body = request.body ?? {};
        await handOff(request, reply);
      },
      handler: noop,
    });
  }
  // RFC 8414 metadata (what MCP clients look for first) and the discovery document under the mount: both the same.
  for (const path of ['/.well-known/oauth-authorization-server', `${OAUTH_PREFIX}/.well-known/openid-configuration`]) {
    app.route({
      method: ['GET', 'OPTIONS'],
      url: path,
      schema: { hide: true },
      onRequest: (request, reply) => handOff(request, reply, discovery),
      handler: noop,
    });
  }

  // ---- sign-in and consent pages -------------------------------------------------------------------------

  const page = (reply: FastifyReply, status: number, html: string, formTargets: string[] = []) =>
    reply.code(status).headers(pageHeaders(formTargets)).send(html);

  async function interaction(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) {
    const { provider: p } = ensure();
    try {
      const details = await p.interactionDetails(asIssuer(request.raw), reply.raw);
      if (details.uid !== request.params.uid) return null;
      const params = details.params as { client_id?: string; redirect_uri?: string; scope?: string };
      const client = params.client_id ? await p.Client.find(params.client_id) : undefined;
      if (!client) return null;
      const view: ClientView = { clientId: client.clientId, name: client.clientName ?? null, redirectUri: params.redirect_uri ?? null };
      let origin: string[] = [];
      try {
        origin = params.redirect_uri ? [new URL(params.redirect_uri).origin] : [];
      } catch {
        origin = [];
      }
      return { p, details, params, view, origin };
    } catch {
      return null;
    }
  }
  const expired = (reply: FastifyReply) => page(reply, 400, errorPage('This sign-in link has expired',
    'It was already used, or it is more than an hour old. Go back to your assistant and connect again.'));

  // The pages' forms are form-encoded (the one scope besides the token endpoint that parses forms).
  await app.register(formbody);

  /**
   * The sign-in and consent forms are taken only from this service's own pages: the Origin header (the Referer
   * when there is none) must be the issuer's origin or the request's own. A page of another site, or of another
   * port on this computer (the same "site" for SameSite cookies, so the interaction cookie alone does not tell),
   * gets 403 before its body is read and changes nothing: no sign-in, no consent, no failure counted.
   */
  async function ownPagesOnly(request: FastifyRequest, reply: FastifyReply) {
    const origin = request.headers.origin ?? originOf(request.headers.referer);
    const own = [`${request.protocol}://${request.host}`, originOf(issuer() ?? undefined)];
    if (origin && own.includes(origin)) return undefined;
    return page(reply, 403, errorPage('This form was sent from another site',
      'Clinic Desk takes its sign-in and consent forms only from its own pages. Go back to your assistant and connect again.'));
  }

  async function consentView(found: NonNullable<Awaited<ReturnType<typeof interaction>>>) {
    const accountId = found.details.session?.accountId;
    const user = accountId ? await auth.user(accountId) : undefined;
    if (!user || user.disabled_at) return null;
    const caller = (await oidc.userCaller(user.id))!;
    const details = found.details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    const asked = new Set<string>((details.missingOIDCScope ?? []).filter((s) => s !== 'openid'));
    const resourceAsked = new Set<string>();
    for (const scopes of Object.values(details.missingResourceScopes ?? {})) for (const s of scopes) resourceAsked.add(s);
    const granted = [...asked, ...[...resourceAsked].filter((s) => isApiScope(s) && caller.scopes.has(s))];
    const beyondRole = [...resourceAsked].filter((s) => !isApiScope(s) || !caller.scopes.has(s as never));
    return {
      user, caller, details, granted, beyondRole,
      clinic: (await auth.workspace(user.workspace_id))?.name ?? '',
    };
  }

  app.get(`${OAUTH_PREFIX}/interaction/:uid`, { schema: { hide: true, params: UidParams } }, async (request, reply) => {
    const found = await interaction(request, reply);
    if (!found) return expired(reply);
    if (found.details.prompt.name === 'login') return page(reply, 200, loginPage({ uid: found.details.uid, client: found.view }), found.origin);
    const c = await consentView(found);
    if (!c) return expired(reply);
    return page(reply, 200, consentPage({
      uid: found.details.uid, client: found.view, granted: c.granted, beyondRole: c.beyondRole,
      user: { name: c.user.display_name, username: c.user.username, role: c.user.role, clinic: c.clinic },
    }), found.origin);
  });

  app.post(`${OAUTH_PREFIX}/interaction/:uid/login`, {
    onRequest: ownPagesOnly,
    schema: { hide: true, params: UidParams, body: LoginBody },
    config: { errors: 'plain' },
  }, async (request, reply) => {
    const found = await interaction(request, reply);
    if (!found || found.details.prompt.name !== 'login') return expired(reply);
    const username = request.body.username.trim();
    const ip = request.ip;
    const anonymous = { caller: null, ip, requestId: request.id };
    const show = (status: number, extra: { error?: string; retryAfter?: number }) =>
      page(reply, status, loginPage({ uid: found.details.uid, client: found.view, username, ...extra }), found.origin);
    const limited = (wait: number) => {
      reply.header('retry-after', String(wait));
      return show(429, { retryAfter: wait });
    };

    const wait = oidc.limiter.retryAfter(username, ip);
    if (wait) {
      audit.later(anonymous, { action: 'oidc.sign_in', outcome: 'denied' });
      return limited(wait);
    }
    const user = username ? await auth.verifyPassword(username, request.body.password) : null;
    if (!user) {
      oidc.limiter.failed(username, ip);
      audit.later(anonymous, { action: 'oidc.sign_in', outcome: 'denied' });
      const now = oidc.limiter.retryAfter(username, ip);
      return now ? limited(now) : show(401, { error: 'Wrong username or password.' });
    }
    oidc.limiter.succeeded(username, ip);
    const caller = await oidc.userCaller(user.id);
    const ctx = { caller: caller!, ip, requestId: request.id };
    if (!caller?.workspaceActive) {
      audit.later(ctx, { action: 'oidc.sign_in', outcome: 'denied' });
      return show(403, { error: 'Your clinic\'s workspace is disabled; ask your clinic\'s administrator.' });
    }
    audit.later(ctx, { action: 'oidc.sign_in', resourceType: 'oidc_client', resourceIds: [found.view.clientId], outcome: 'success' });
    const to = await found.p.interactionResult(asIssuer(request.raw), reply.raw, { login: { accountId: user.id, amr: ['pwd'] } }, { mergeWithLastSubmission: false });
    return reply.redirect(to, 303);
  });

  app.post(`${OAUTH_PREFIX}/interaction/:uid/confirm`, {
    onRequest: ownPagesOnly,
    schema: { hide: true, params: UidParams, body: ConfirmBody },
    config: { errors: 'plain' },
  }, async (request, reply) => {
    const found = await interaction(request, reply);
    if (!found || found.details.prompt.name !== 'consent') return expired(reply);
    const c = await consentView(found);
    if (!c) return expired(reply);
    const ctx = { caller: c.caller, ip: request.ip, requestId: request.id };
    const audited = { action: 'oidc.consent', resourceType: 'oidc_client', resourceIds: [found.view.clientId] };
    let result;
    if (request.body.decision === 'deny') {
      audit.later(ctx, { ...audited, outcome: 'denied' });
      result = { error: 'access_denied', error_description: 'The user denied the request' };
    } else {
      const { Grant } = found.p;
      const grant = (found.details.grantId ? await Grant.find(found.details.grantId) : undefined)
        ?? new Grant({ accountId: c.user.id, clientId: found.view.clientId });
      if (c.details.missingOIDCScope?.length) grant.addOIDCScope(c.details.missingOIDCScope.join(' '));
      const claims = (found.details.prompt.details as { missingOIDCClaims?: string[] }).missingOIDCClaims;
      if (claims?.length) grant.addOIDCClaims(claims);
      for (const [indicator, scopes] of Object.entries(c.details.missingResourceScopes ?? {})) {
        const allowed = scopes.filter((s) => isApiScope(s) && c.caller.scopes.has(s));
        const refused = scopes.filter((s) => !allowed.includes(s));
        if (allowed.length) grant.addResourceScope(indicator, allowed.join(' '));
        if (refused.length) grant.rejectResourceScope(indicator, refused.join(' '));
      }
      const grantId = await grant.save();
      audit.later(ctx, { ...audited, outcome: 'success' });
      result = { consent: { grantId } };
    }
    const to = await found.p.interactionResult(asIssuer(request.raw), reply.raw, result, { mergeWithLastSubmission: true });
    return reply.redirect(to, 303);
  });
});
