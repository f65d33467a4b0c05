import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { appAccounts } from '../auth/app-accounts.js';
import type { Service } from '../service.js';

/**
 * What route plugins may use, each a decorator of the root instance (`decorateServices`, called by buildHttpApp).
 * `service` is the whole service, for the routes that dispatch to any domain: declared operations (their `run` is
 * over the service) and the MCP tools.
 */
const routeServices = (service: Service) => ({
  audit: service.audit,
  auth: service.auth,
  tokens: service.tokens,
  oidc: service.oidc,
  scribe: service.scribe,
  speechModels: service.speechModels,
  status: service.status,
  sql: service.sql,
  accounts: appAccounts(service),
  service,
});
export type RouteServices = ReturnType<typeof routeServices>;

/** Makes every route service a decorator of `app`, so that a route plugin can declare the ones it uses. */
export function decorateServices(app: FastifyInstance, service: Service) {
  for (const [name, value] of Object.entries(routeServices(service))) app.decorate<unknown>(name, value);
}

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];

const servicesOf = <K extends keyof RouteServices>(app: FastifyInstance, uses: readonly K[]) =>
  Object.fromEntries(uses.map((k) => [k, app.getDecorator(k)])) as Pick<RouteServices, K>;

/**
 * A route plugin that declares the services it uses (Fastify's plugin metadata, `decorators`: registering it where
 * one is not decorated fails at start, naming it) and receives those alone. Encapsulated: its hooks, parsers and
 * routes stay in its own scope. Authentication is not its business: it is installed once per subtree (`signedIn`).
 */
export function routePlugin<K extends keyof RouteServices, O extends object = Record<never, never>>(
  name: string,
  uses: readonly K[],
  plugin: (app: TypedApp, services: Pick<RouteServices, K>, opts: O) => Promise<void>,
) {
  const wrapped: FastifyPluginAsync<O> = async (app, opts) => plugin(app.withTypeProvider<TypeBoxTypeProvider>(), servicesOf(app, uses), opts);
  return fp(wrapped, { name, fastify: '5.x', encapsulate: true, decorators: { fastify: [...uses] } });
}

/**
 * A hook-installing plugin in the same way (`decorators` declared), but not encapsulated: what it adds (an
 * `onRequest` hook) applies to the subtree that registers it, as Fastify's authentication plugins do.
 */
export function subtreePlugin<K extends keyof RouteServices, O extends object = Record<never, never>>(
  name: string,
  uses: readonly K[],
  plugin: (app: FastifyInstance, services: Pick<RouteServices, K>, opts: O) => Promise<void>,
) {
  const wrapped: FastifyPluginAsync<O> = async (app, opts) => plugin(app, servicesOf(app, uses), opts);
  return fp(wrapped, { name, fastify: '5.x', decorators: { fastify: [...uses] } });
}
