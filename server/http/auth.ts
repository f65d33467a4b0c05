import type { FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import type { AuditLog } from '../audit/service.js';
import { type RequestContext, type Scope } from '../auth/permissions.js';
import type { Service } from '../service.js';
import { ServiceError } from '../shared/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate` on every route that needs a caller. */
    ctx: RequestContext;
  }
}

/** The dr token: the `auth` header of the interface, or `Authorization: Bearer` as upstream SDKs send it. */
function presentedToken(request: FastifyRequest): string | null {
  const auth = request.headers.auth;
  if (typeof auth === 'string' && auth.trim()) return auth.trim();
  const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return m?.[1] ?? null;
}

const unauthorized = (message: string) => new ServiceError(401, 'UNAUTHORIZED_ACCESS', message);

/**
 * Resolves the caller or answers 401. A JWT is an access token from the token endpoint; anything else is looked
 * up as a long-lived user token.
 */
export function authenticate({ auth, tokens }: Pick<Service, 'auth' | 'tokens'>): onRequestHookHandler {
  return async (request: FastifyRequest) => {
    const token = presentedToken(request);
    if (!token) throw unauthorized('Missing auth token: send it in the auth header');
    if (token.length > 4096) throw unauthorized('Invalid auth token');
    const caller = tokens.looksLikeJwt(token) ? await tokens.verifyAccessToken(token) : auth.authenticateToken(token);
    if (!caller) throw unauthorized('Invalid, expired or revoked token');
    request.ctx = { caller, ip: request.ip, requestId: request.id };
  };
}

/**
 * Answers 403 unless the caller's workspace is active and the caller holds `scope`. `deniedCode` is the code
 * the route family uses for a missing permission (UNAUTHORIZED_ACCESS for patients, COMPLETE_NOT_ALLOWED for
 * appointments). Denials are audited.
 */
export function requireScope(scope: Scope, deniedCode: string, audit: AuditLog, action: string): preHandlerHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const { caller } = request.ctx;
    if (caller.workspaceActive && caller.scopes.has(scope)) return;
    audit.later(request.ctx, { action, outcome: 'denied' });
    if (!caller.workspaceActive) throw new ServiceError(403, 'UNAUTHORIZED_ACCESS', 'Your clinic workspace is not active');
    throw new ServiceError(403, deniedCode, `This operation needs the ${scope} permission`);
  };
}
