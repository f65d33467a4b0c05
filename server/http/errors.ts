import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { OAuthError } from '../auth/tokens.js';
import { isDatabaseUnavailable } from '../db/sql.js';
import { ServiceError } from '../shared/errors.js';
import { violationMessage } from '../shared/violations.js';
import { type ErrorParts, drErrorBody } from './dr.js';
import type { UiPage } from './static.js';

/** How a route family shapes its errors; set per route in `config.errors`. */
/**
 * dr-envelope / dr-bare: the interface's /dr shapes. notification: `{message, error_code}` with error_code equal
 * to the status. webhook: `{"error":{"code","message"}}` where every 4xx code is INVALID_REQUEST, as upstream.
 * oauth: RFC 6749 `{error, error_description}`. plain: `{"error":{"code","message"}}` everywhere else.
 * scribe (presign, upload, init): upstream's `{"error","code"}`, 409 `{"status":"error","message"}`, 422 `{"details":[…]}`;
 * scribe-status: `{"error":{"code","msg"}}` (5xx code system_error). Both answer 401 as `{"error":"Unauthorized","message"}`.
 */
export type ErrorStyle = 'dr-envelope' | 'dr-bare' | 'notification' | 'webhook' | 'oauth' | 'plain' | 'scribe' | 'scribe-status';

declare module 'fastify' {
  interface FastifyContextConfig {
    errors?: ErrorStyle;
  }
}

// RFC 6749 error codes for the few generic failures a token request can meet before its handler runs.
const OAUTH_CODES: Record<string, string> = {
  invalid_request: 'invalid_request', invalid_client: 'invalid_client', invalid_grant: 'invalid_grant',
  unsupported_grant_type: 'unsupported_grant_type', invalid_scope: 'invalid_scope',
};

/** The first schema violation, in words (shared/violations.ts), never schema text. */
function validationMessage(err: FastifyError): string {
  return err.validation?.length ? violationMessage(err.validationContext ?? 'body', err.validation) : err.message;
}

const GENERIC_500 = 'An unexpected error occurred on the server';
const UNAVAILABLE = 'The database cannot be reached just now (restarting or failing over); try again in a moment';
/** Seconds a client is asked to wait before retrying a 503: the pool reconnects at the next query. */
const RETRY_AFTER_S = '1';

/** Turns anything thrown in a request into the interface's status, code and message. Never a stack trace. */
function classify(err: FastifyError | ServiceError | Error, style: ErrorStyle): ErrorParts {
  if (err instanceof OAuthError) return { status: err.status, code: err.error, message: err.description };
  if (err instanceof ServiceError) return { status: err.status, code: err.code, message: err.message };
  const fe = err as FastifyError;
  if (fe.validation) return { status: 400, code: 'INVALID_REQUEST', message: validationMessage(fe) };
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      // The interface documents malformed JSON on /dr as a 500 SERVER_ERROR; elsewhere it is a plain 400.
      return !style.startsWith('dr-')
        ? { status: 400, code: 'INVALID_REQUEST', message: 'Malformed JSON request' }
        : { status: 500, code: 'SERVER_ERROR', message: 'Malformed JSON request', envelope: true };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'INVALID_REQUEST', message: 'Request body too large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'INVALID_REQUEST', message: 'Unsupported Content-Type; send application/json' };
  }
  const status = fe.statusCode;
  if (status && status >= 400 && status < 500) return { status, code: 'INVALID_REQUEST', message: fe.message };
  if (isDatabaseUnavailable(err)) return { status: 503, code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE };
  return { status: 500, code: 'SERVER_ERROR', message: GENERIC_500 };
}

/** The plain style's body as a response schema, and a route's error responses in that style by status. */
export const PlainError = Type.Object({
  error: Type.Object({ code: Type.String(), message: Type.String(), request_id: Type.Optional(Type.String()) }),
});
export const plainErrors = (statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, PlainError]));

export function errorBody(style: ErrorStyle, e: ErrorParts) {
  if (style === 'notification') return { message: e.requestId ? `${e.message} (request ${e.requestId})` : e.message, error_code: e.status };
  if (style === 'webhook') {
    const code = e.status >= 500 ? 'SERVER_ERROR' : 'INVALID_REQUEST';
    return { error: { code, message: e.message, ...(e.requestId ? { request_id: e.requestId } : {}) } };
  }
  if (style === 'oauth') return { error: OAUTH_CODES[e.code] ?? (e.status >= 500 ? 'server_error' : 'invalid_request'), error_description: e.message };
  if (style === 'scribe' || style === 'scribe-status') return scribeErrorBody(style, e);
  if (style === 'plain') return { error: { code: e.code, message: e.message, ...(e.requestId ? { request_id: e.requestId } : {}) } };
  return drErrorBody(style === 'dr-envelope' ? 'envelope' : 'bare', e);
}

/** The scribe routes' upstream error shapes (docs/API.md, Scribe). */
function scribeErrorBody(style: 'scribe' | 'scribe-status', e: ErrorParts) {
  const message = e.requestId ? `${e.message} (request ${e.requestId})` : e.message;
  const id = e.requestId ? { request_id: e.requestId } : {};
  if (e.status === 401) return { error: 'Unauthorized', message };
  if (style === 'scribe-status') return { error: { code: e.status >= 500 ? 'system_error' : e.code, msg: message, ...id } };
  if (e.status === 409) return { status: 'error', message };
  if (e.status === 422) return { details: [{ loc: ['body'], msg: message, type: 'value_error' }] };
  return { error: message, code: e.status >= 500 ? 'system_error' : e.code, ...id };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, style: ErrorStyle, e: ErrorParts) {
  const parts = e.status >= 500 ? { ...e, requestId: request.id } : e;
  return reply.code(parts.status).send(errorBody(style, parts));
}

/** The error style of a path the router could not match to a route (bad URL, over-long parameter). */
export function styleForPath(path: string): ErrorStyle {
  if (/^\/dr\/v1\/appointment\/[^/]+\/(parked|change-status)$/.test(path)) return 'dr-bare';
  if (path === '/dr' || path.startsWith('/dr/')) return 'dr-envelope';
  if (path.startsWith('/voice/api/v3/status/')) return 'scribe-status';
  if (path.startsWith('/voice/api/') || path.startsWith('/v1/file-upload')) return 'scribe';
  return 'plain';
}

/** Fastify's `frameworkErrors`: a URL that does not decode or a path parameter over the router's limit. */
export function frameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const path = (request.raw.url ?? '').split('?')[0] ?? '';
  const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : 'Malformed URL';
  reply.header('x-request-id', request.id);
  // Fastify ignores what this handler returns; the reply (a thenable) is sent either way.
  void sendError(request, reply, styleForPath(path), { status: 400, code: 'INVALID_REQUEST', message });
}

/** `log`: where an unexpected error is logged, with its request's id (http/app.ts says why not request.log). */
export function installErrorHandling(app: FastifyInstance, log: FastifyBaseLogger) {
  app.setErrorHandler((err, request, reply) => {
    const style = request.routeOptions.config.errors ?? 'plain';
    const parts = classify(err as Error, style);
    if (parts.status >= 500 && parts.message === GENERIC_500) log.error({ err, reqId: request.id }, 'request failed');
    if (parts.message === UNAVAILABLE) {
      log.warn({ reqId: request.id }, `request failed: the database is unavailable (${(err as Error).message})`);
      reply.header('retry-after', RETRY_AFTER_S);
    }
    return sendError(request, reply, style, parts);
  });
}

/**
 * Answers a request no route owns: the UI's page (`page`, http/static.ts) when it is a browser's navigation to one
 * of the app's screens, else an error in the shape of the path's family.
 */
export function installNotFound(app: FastifyInstance, page: UiPage | null) {
  app.setNotFoundHandler((request, reply) => {
    const answered = page?.(request, reply);
    if (answered) return answered;
    const path = request.url.split('?')[0] ?? '';
    if (path === '/dr' || path.startsWith('/dr/')) {
      return sendError(request, reply, 'dr-envelope', { status: 500, code: 'SERVER_ERROR', message: 'Wrong API URL' });
    }
    return sendError(request, reply, 'plain', { status: 404, code: 'NOT_FOUND', message: `No route ${request.method} ${path}` });
  });
}
