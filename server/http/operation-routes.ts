import type { FastifyInstance } from 'fastify';
import type { AuditLog } from '../audit/service.js';
import type { Service } from '../service.js';
import { type Guard, type SignedInGuard, type SomeOperation, erased } from '../shared/operation.js';
import { checkFirst, requireScope } from './auth.js';
import { drOk } from './dr.js';
import { routePlugin } from './route-plugin.js';

/** A guard as a route's `preParsing` access check, refused in its route family's code and audited under its action. */
export const guardCheck = (g: Guard, audit: AuditLog) => requireScope(g.scope, g.deniedCode, audit, g.auditAction);

/**
 * An operation's access as a route's `preParsing` checks: the guard's scope (none for any signed-in caller), then its
 * check beyond the scope if it has one, on the route's path parameters.
 */
export function accessChecks(g: Guard | SignedInGuard, service: Service) {
  const { also } = g;
  const checks = g.scope === 'signed-in' ? [] : [guardCheck(g, service.audit)];
  if (also) checks.push(checkFirst((request) => also({ service, ctx: request.ctx }, request.params as Record<string, string | undefined>)));
  return checks;
}

/**
 * The public routes of declared operations (server/shared/operation.ts), in the order given: the guard (and its `also`) as
 * `preParsing` checks, the declared schema, and the answer as the route binding maps it, in the dr envelope on a dr
 * route. The plugin that calls this has installed `authenticate`.
 */
export function registerOperationRoutes(app: FastifyInstance, service: Service, ops: Record<string, SomeOperation>) {
  for (const declared of Object.values(ops)) {
    const op = erased(declared);
    const { route, access } = op;
    if (!route) continue;
    const dr = route.errors === 'dr-envelope' || route.errors === 'dr-bare';
    app.route({
      method: route.method,
      url: route.url,
      config: { errors: route.errors },
      preParsing: accessChecks(access, service),
      schema: route.schema,
      handler: async (request, reply) => {
        const out = await op.run({ service, ctx: request.ctx }, route.input(request));
        const refusal = route.refuse?.(out);
        if (refusal) return reply.code(refusal.status).send(refusal.body);
        if (route.headers) reply.headers(route.headers);
        const status = route.statusOf?.(out) ?? route.status;
        if (!route.body) return reply.code(status).send(null);
        const data = route.body(out, request);
        return dr ? drOk(reply, status, data) : reply.code(status).send(data);
      },
    });
  }
}

/** `registerOperationRoutes` as a route plugin of its own, for a `signedIn` subtree: an operation's `run` is over the whole service. */
export const operationRoutes = (name: string, ops: Record<string, SomeOperation>) =>
  routePlugin(name, ['service'], async (app, { service }) => registerOperationRoutes(app, service, ops));
