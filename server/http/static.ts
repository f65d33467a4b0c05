import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build` puts the renderer (Vite). */
export const RENDERER_DIR = resolve(import.meta.dirname, '..', '..', 'dist', 'renderer');

/**
 * The browser UI's content security policy: only our own scripts, styles and data; recordings play from blob:
 * URLs; nothing may frame the page or post forms elsewhere.
 */
export const UI_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:", "media-src 'self' blob:",
  "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'",
].join('; ');

/** Paths the API owns: never answered with the UI, so an unknown API path keeps its own 404 (or dr 500). */
export const API_PREFIXES = ['/dr', '/api', '/notification', '/voice', '/v1', '/oauth2', '/mcp', '/.well-known', '/docs', '/openapi.json', '/health'];

export const isApiPath = (path: string) => API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`));

function uiHeaders(reply: FastifyReply) {
  reply.header('content-security-policy', UI_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  reply.header('permissions-policy', 'camera=(), geolocation=(), microphone=(self)');
}

/** The app's page for a request no route owns, if it is a browser navigating to one of its screens; else null. */
export type UiPage = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | null;

/**
 * Serves the built renderer at / (call at the root, after the API routes) for a plain browser (a second front-desk PC
 * opening the embedded server's address): hashed assets cached for a year, index.html never cached. Returns what
 * answers a browser's page request for any other non-API path with index.html (the app's own screens), for the
 * not-found handler (http/errors.ts): a hook would run on every request. Where the renderer is not built, / says how
 * to build it, and there is no such page.
 */
export async function staticUi(app: FastifyInstance, opts: { root?: string } = {}): Promise<UiPage | null> {
  const root = opts.root ?? RENDERER_DIR;
  const index = join(root, 'index.html');
  if (!existsSync(index)) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) => {
      uiHeaders(reply);
      return reply.code(503).type('text/html; charset=utf-8')
        .send('<!doctype html><title>Clinic Desk</title><p>The clinic service is running, but its screens are not built. Run <code>npm run build</code> and reload.</p>');
    });
    return null;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    schemaHide: true,
    cacheControl: false,
    setHeaders(reply, path) {
      uiHeaders(reply);
      reply.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // The app's own screens for a browser navigating to a path no route owns (Accept: text/html, as browsers send
  // for pages). Other clients keep the API's own not-found answers.
  return (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    const path = request.url.split('?')[0] ?? '/';
    if (isApiPath(path) || /\.[A-Za-z0-9]{1,8}$/.test(path) || !/text\/html/.test(request.headers.accept ?? '')) return null;
    uiHeaders(reply);
    reply.header('cache-control', 'no-cache');
    return reply.code(200).sendFile('index.html');
  };
}
