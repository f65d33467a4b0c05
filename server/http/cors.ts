import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError, styleForPath } from './errors.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
// What the interface's clients send besides the CORS-safelisted headers.
const HEADERS = 'auth, authorization, content-type, x-request-id';

/**
 * Cross-origin requests (docs/API.md, Hardening → Cross-origin requests). Pages of the service's own origin (the
 * public URL's, or the origin the request was addressed to) and the configured origins (`--cors-origins`, none by
 * default) may call the API from a browser: their preflights get 204 with the CORS headers, and every answer to
 * a configured origin carries Access-Control-Allow-Origin. Any other OPTIONS request is 405 in the path's error
 * shape (an unknown /dr path included, which the interface otherwise answers 500 "Wrong API URL"). The OpenID
 * provider's endpoints answer their own preflights (oidc/routes.ts registers OPTIONS on them).
 *
 * Returns the hook step http/app.ts runs on every request, after the Host check.
 */
export function corsPolicy(app: FastifyInstance, opts: { publicUrl?: string; origins: string[] }) {
  const configured = new Set(opts.origins);
  const publicOrigin = opts.publicUrl ? new URL(opts.publicUrl).origin : null;
  const allowed = (origin: string, request: FastifyRequest) =>
    configured.has(origin) || origin === publicOrigin || origin === `http://${request.headers.host}`;

  app.options('/*', { schema: { hide: true } }, async (request, reply) => {
    const origin = request.headers.origin;
    const method = request.headers['access-control-request-method'];
    const path = request.url.split('?')[0] ?? '';
    reply.header('vary', 'Origin');
    if (typeof origin !== 'string' || typeof method !== 'string' || !allowed(origin, request) || !METHODS.has(method.toUpperCase())) {
      return sendError(request, reply, styleForPath(path), {
        status: 405, code: 'METHOD_NOT_ALLOWED',
        message: 'OPTIONS is answered only as a CORS preflight from an allowed origin: the service\'s own, or one set with --cors-origins',
      });
    }
    return reply.code(204).headers({
      'access-control-allow-origin': origin,
      'access-control-allow-methods': method.toUpperCase(),
      'access-control-allow-headers': HEADERS,
      'access-control-max-age': '600',
    }).send();
  });

  return (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin !== undefined && configured.has(origin)) {
      reply.header('access-control-allow-origin', origin).header('vary', 'Origin').header('access-control-expose-headers', 'x-request-id');
    }
  };
}
