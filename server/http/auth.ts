import type {
  FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler, preParsingHookHandler,
} from 'fastify';
import type { AuditLog } from '../audit/service.js';
import { type Caller, type RequestContext, type Scope } from '../auth/permissions.js';
import { ServiceError } from '../shared/errors.js';
import { type RouteServices, subtreePlugin } from './route-plugin.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate` on every route that needs a caller. */
    ctx: RequestContext;
  }
}

/** The dr token: the `auth` header of the interface, or `Authorization: Bearer` as upstream SDKs send it. */
export function presentedToken(request: FastifyRequest): string | null {
  const auth = request.headers.auth;
  if (typeof auth === 'string' && auth.trim()) return auth.trim();
  const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return m?.[1] ?? null;
}

/**
 * Resolves the caller or answers 401. A JWT is an access token from the token endpoint, or one our OpenID provider
 * issued to an assistant (acting as its signed-in user, within that user's role); anything else is looked up as
 * a long-lived user token. `wording`, when given, is every 401's message (the scribe's routes word it as upstream).
 */
export function authenticate(
  { auth, tokens, oidc }: Pick<RouteServices, 'auth' | 'tokens'> & Partial<Pick<RouteServices, 'oidc'>>, wording?: string,
): onRequestHookHandler {
  const unauthorized = (message: string) => new ServiceError(401, 'UNAUTHORIZED_ACCESS', wording ?? message);
  const verifyJwt = async (token: string) =>
    (await tokens.verifyAccessToken(token)) ?? (await oidc?.verifyAccessToken(token, 'api')) ?? null;
  const settle = (request: FastifyRequest, caller: Caller | null, done: HookHandlerDoneFunction) => {
    if (!caller) return done(unauthorized('Invalid, expired or revoked token'));
    request.ctx = { caller, ip: request.ip, requestId: request.id };
    done();
  };
  // Callback style, synchronous for a user token whose principal is cached and without a closure per request: this
  // runs on every API request, and a promise or a function made per call (tsx names each one) is a measurable share
  // of a search. Only a token not cached yet waits for the database.
  return (request, _reply, done) => {
    const token = presentedToken(request);
    if (!token) return done(unauthorized('Missing auth token: send it in the auth header'));
    if (token.length > 4096) return done(unauthorized('Invalid auth token'));
    if (!tokens.looksLikeJwt(token)) {
      const hit = auth.cachedCaller(token);
      if (hit) return settle(request, hit, done);
      auth.authenticateToken(token).then((caller) => settle(request, caller, done), done);
      return;
    }
    verifyJwt(token).then((caller) => settle(request, caller, done), done);
  };
}

/**
 * `authenticate` as a plugin that is not encapsulated: registered first in a subtree of routes, its `onRequest` hook
 * applies to every route of that subtree (Fastify's way to put authentication on some routes and not others).
 */
const authentication = subtreePlugin('authentication', ['auth', 'tokens', 'oidc'], async (app, services, { wording }: { wording?: string }) => {
  app.addHook('onRequest', authenticate(services, wording));
});

/**
 * The routes of `plugins` (in that order: the OpenAPI document's), in one subtree whose caller is authenticated once,
 * by its `onRequest` hook; a route plugin under it only checks scopes and roles. `wording`: authenticate's.
 */
export const signedIn = (plugins: FastifyPluginAsync[], wording?: string): FastifyPluginAsync => async (subtree) => {
  await subtree.register(authentication, { wording });
  for (const plugin of plugins) await subtree.register(plugin);
};

/**
 * Answers 403 unless the caller's workspace is active and the caller holds `scope`. `deniedCode` is the code
 * the route family uses for a missing permission (UNAUTHORIZED_ACCESS for patients, COMPLETE_NOT_ALLOWED for
 * appointments). Denials are audited.
 *
 * A route's `preParsing` hook: it runs before the body is read and validated, so a caller without the right gets
 * 403 whatever it sends, never a 400 that describes the route's schema (http/app.ts refuses a route whose checks
 * would come later).
 */
export function requireScope(scope: Scope, deniedCode: string, audit: AuditLog, action: string): preParsingHookHandler {
  return (request: FastifyRequest, _reply: FastifyReply, _payload, done: (err?: Error | null) => void) => {
    const { caller } = request.ctx;
    if (caller.workspaceActive && caller.scopes.has(scope)) return done();
    audit.later(request.ctx, { action, outcome: 'denied' });
    if (!caller.workspaceActive) return done(new ServiceError(403, 'UNAUTHORIZED_ACCESS', 'Your clinic workspace is not active'));
    done(new ServiceError(403, deniedCode, `This operation needs the ${scope} permission`));
  };
}

/**
 * A route's own access check (a role, the caller's own record) as a `preParsing` hook, like requireScope: `check`
 * throws the refusal, before the body is read and validated. Path parameters are as sent (not validated yet).
 */
export function checkFirst(check: (request: FastifyRequest) => void): preParsingHookHandler {
  return (request, _reply, _payload, done) => {
    try {
      check(request);
      done();
    } catch (e) {
      done(e as Error);
    }
  };
}

/** Runs a hook such as `authenticate` inside another hook, as a promise, whichever style the hook uses. */
export function runHook(hook: onRequestHookHandler, self: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (err?: unknown) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve();
    };
    try {
      const r = (hook as (this: FastifyInstance, q: FastifyRequest, p: FastifyReply, d: (e?: Error) => void) => unknown).call(self, request, reply, done);
      if (r && typeof (r as Promise<unknown>).then === 'function') (r as Promise<unknown>).then(() => done(), done);
    } catch (e) {
      done(e);
    }
  });
}
