import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { routePlugin } from '../http/route-plugin.js';
import { OAuthError, type TokenResponse } from './tokens.js';

const Str = Type.String({ maxLength: 4096 });

const TokenBody = Type.Object({
  grant_type: Type.Optional(Str),
  client_id: Type.Optional(Str),
  client_secret: Type.Optional(Str),
  refresh_token: Type.Optional(Str),
  api_key: Type.Optional(Str),
  access_token: Type.Optional(Str),
});
const TokenQuery = Type.Object({ client_id: Type.Optional(Str), client_secret: Type.Optional(Str), refresh_token: Type.Optional(Str) });

const TokenResponseSchema = Type.Object({
  access_token: Type.String({ description: 'JWT (ES256), verifiable with /.well-known/jwks.json' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds; 3600' }),
  refresh_token: Type.String({ description: 'Opaque; rotated on every use' }),
  refresh_expires_in: Type.Integer(),
  scope: Type.String(),
});
const OAuthErrorSchema = Type.Object({ error: Type.String(), error_description: Type.String() });
const responses = { 200: TokenResponseSchema, 400: OAuthErrorSchema, 401: OAuthErrorSchema };

function send(reply: FastifyReply, body: TokenResponse) {
  return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(body);
}

const required = (value: string | undefined, name: string) => {
  if (!value) throw new OAuthError(400, 'invalid_request', `${name} is required`);
  return value;
};

/** RFC 6749 §2.3.1: client credentials may come as HTTP Basic instead of in the body. */
function basicCredentials(request: FastifyRequest): { id: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  if (at < 0) throw new OAuthError(401, 'invalid_client', 'Malformed Basic credentials');
  try {
    return { id: decodeURIComponent(decoded.slice(0, at)), secret: decodeURIComponent(decoded.slice(at + 1)) };
  } catch {
    throw new OAuthError(401, 'invalid_client', 'Malformed Basic credentials');
  }
}

/** The upstream aliases take their parameters from the query alone too: no body is then an empty one. */
const emptyBodyIsObject = async (request: FastifyRequest) => {
  request.body ??= {};
};

/**
 * Endpoint 6, its refresh grant, the upstream SDKs' login/refresh aliases, and the JWKS. The only API routes that
 * take form bodies (RFC 6749 §4.4.2 requires them; upstream SDKs send JSON): the parser is registered in this
 * plugin's scope alone. Safe to reach cross-site, since a request proves itself by a client secret or refresh
 * token in the request, never by a cookie, and none is set. Plain routes, not declared operations
 * (server/shared/operation.ts), on purpose: RFC 6749 fixes their shapes and errors, and a caller is what they issue.
 */
export const tokenRoutes = routePlugin('tokens', ['tokens'], async (app, { tokens }) => {
  await app.register(formbody);
  const config = { errors: 'oauth' as const };

  app.post('/api/v1/auth/token', {
    config,
    schema: {
      operationId: 'issueToken',
      tags: ['auth'],
      summary: 'OAuth 2.0 token endpoint: client_credentials (with X-API-KEY) or refresh_token',
      description: 'JSON or form-encoded body. Client credentials may also be sent as HTTP Basic.',
      headers: Type.Object({ 'x-api-key': Type.Optional(Str) }),
      body: TokenBody,
      response: responses,
    },
  }, async (request, reply) => {
    const body = request.body ?? {};
    const grant = required(body.grant_type, 'grant_type');
    if (grant === 'client_credentials') {
      // RFC 6749 §5.2: a client that authenticated with Basic is told how to retry.
      if (/^Basic\s/i.test(request.headers.authorization ?? '')) reply.header('www-authenticate', 'Basic realm="clinic-desk"');
      const basic = basicCredentials(request);
      const apiKey = request.headers['x-api-key'];
      if (typeof apiKey !== 'string' || !apiKey) throw new OAuthError(400, 'invalid_request', 'X-API-KEY header is required: it names your workspace');
      const issued = await tokens.clientCredentials(
        basic?.id ?? required(body.client_id, 'client_id'), basic?.secret ?? required(body.client_secret, 'client_secret'), apiKey);
      reply.removeHeader('www-authenticate');
      return send(reply, issued);
    }
    if (grant === 'refresh_token') return send(reply, await tokens.refresh(required(body.refresh_token, 'refresh_token')));
    throw new OAuthError(400, 'unsupported_grant_type', `grant_type ${grant} is not supported; use client_credentials or refresh_token`);
  });

  app.post('/connect-auth/v1/account/login', {
    config,
    schema: {
      operationId: 'sdkLogin',
      tags: ['auth'],
      summary: 'Upstream SDK login (client_id, client_secret, optional api_key; body or query)',
      querystring: TokenQuery,
      body: TokenBody,
      response: responses,
    },
    preValidation: emptyBodyIsObject,
  }, async (request, reply) => {
    const body = request.body;
    const clientId = required(body.client_id ?? request.query.client_id, 'client_id');
    const secret = required(body.client_secret ?? request.query.client_secret, 'client_secret');
    return send(reply, await tokens.clientCredentials(clientId, secret, body.api_key || null));
  });

  app.post('/connect-auth/v1/account/refresh', {
    config,
    schema: {
      operationId: 'sdkRefresh',
      tags: ['auth'],
      summary: 'Upstream SDK refresh ({refresh_token, access_token?}); any Authorization header is ignored',
      querystring: TokenQuery,
      body: TokenBody,
      response: responses,
    },
    preValidation: emptyBodyIsObject,
  }, async (request, reply) =>
    send(reply, await tokens.refresh(required(request.body.refresh_token ?? request.query.refresh_token, 'refresh_token'))));

  app.get('/.well-known/jwks.json', {
    schema: { tags: ['auth'], summary: 'Public keys that verify access tokens' },
  }, async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(await tokens.jwks()));
});
