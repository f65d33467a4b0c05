import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { routePlugin } from '../http/route-plugin.js';
import { issuerOf } from '../oidc/routes.js';
import { API_SCOPES, OIDC_SCOPES } from '../oidc/scopes.js';
import { buildMcpServer } from './server.js';

export const MCP_PATH = '/mcp';
const PRM_PATHS = ['/.well-known/oauth-protected-resource', `/.well-known/oauth-protected-resource${MCP_PATH}`];

/** The scopes an MCP client should ask for: OpenID's, and all of the API's (consent and the role narrow them). */
export const MCP_SCOPES = [...OIDC_SCOPES, ...API_SCOPES];

/**
 * The MCP endpoint (Streamable HTTP, the official SDK), stateless: every POST carries its own bearer token and
 * gets a fresh server whose tools act as that token's user, and a JSON response. No session survives a
 * request, so nothing is lost on restart and any number of clients can call at once; server-to-client streams
 * (GET) are not offered. Protected per the MCP authorization spec: RFC 9728 metadata names our provider, and a
 * request without a valid token for this endpoint gets 401 with WWW-Authenticate pointing at that metadata (its own
 * authentication, not `signedIn`'s: only tokens issued for this endpoint). The tools reach every domain: `service`.
 */
export const mcpRoutes = routePlugin('mcp', ['oidc', 'service'], async (app, { oidc, service }) => {
  const base = () => issuerOf(app, oidc);

  for (const path of PRM_PATHS) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) => {
      const b = base();
      if (!b) return reply.code(503).send({ error: { code: 'NOT_READY', message: 'The server is not listening yet' } });
      return reply.headers({ 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' }).send({
        resource: `${b}${MCP_PATH}`,
        authorization_servers: [b],
        scopes_supported: MCP_SCOPES,
        bearer_methods_supported: ['header'],
        resource_name: 'Clinic Desk',
        resource_documentation: `${b}/docs`,
      });
    });
  }

  function challenge(reply: FastifyReply, error?: string, description?: string) {
    const b = base() ?? '';
    const parts = [
      'Bearer realm="Clinic Desk"',
      ...(error ? [`error="${error}"`, `error_description="${description?.replaceAll('"', '\'')}"`] : []),
      `resource_metadata="${b}${PRM_PATHS[1]}"`,
      `scope="${MCP_SCOPES.join(' ')}"`,
    ];
    return reply.code(401).header('www-authenticate', parts.join(', ')).send({
      error: { code: 'UNAUTHORIZED', message: description ?? 'Sign in first: this endpoint needs a bearer token from Clinic Desk\'s OpenID provider' },
    });
  }

  /** The caller of a bearer token our provider issued for this endpoint, or a 401 already sent. */
  async function caller(request: FastifyRequest, reply: FastifyReply) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!m) {
      challenge(reply);
      return null;
    }
    const token = m[1]!;
    const c = token.length <= 4096 ? await oidc.verifyAccessToken(token, 'mcp') : null;
    if (!c) {
      challenge(reply, 'invalid_token', 'The access token is invalid, expired, revoked, or not issued for this MCP endpoint');
      return null;
    }
    return c;
  }

  app.post(MCP_PATH, { schema: { hide: true }, config: { errors: 'plain' } }, async (request, reply) => {
    const c = await caller(request, reply);
    if (!c) return reply;
    const ctx = { caller: c, ip: request.ip, requestId: request.id };
    const server = buildMcpServer({ service, ctx, assistant: oidc.assistantOf(c) });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const headers = new Headers();
      for (const [k, v] of Object.entries(request.headers)) {
        if (['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)) continue;
        if (typeof v === 'string') headers.set(k, v);
        else if (Array.isArray(v)) headers.set(k, v.join(', '));
      }
      const url = `${base() ?? 'http://localhost'}${MCP_PATH}`;
      const res = await transport.handleRequest(new Request(url, { method: 'POST', headers }), { parsedBody: request.body });
      reply.code(res.status);
      res.headers.forEach((value, key) => {
        if (key !== 'content-length') reply.header(key, value);
      });
      const body = await res.text();
      return reply.send(body || undefined);
    } finally {
      await transport.close();
      await server.close();
    }
  });

  // Stateless: no server-initiated stream and no session to end. Authentication first, so a client learns how.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      schema: { hide: true },
      config: { errors: 'plain' },
      handler: async (request, reply) => {
        if (!(await caller(request, reply))) return reply;
        return reply.code(405).header('allow', 'POST').send({
          jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send requests with POST' }, id: null,
        });
      },
    });
  }
});
