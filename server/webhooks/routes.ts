import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticate } from '../http/auth.js';
import { registerOperationRoutes } from '../http/operation-routes.js';
import type { Service } from '../service.js';
import { webhookOperations } from './operations.js';

/** Endpoint 5 (webhook subscriptions) and the delivery log with manual redelivery (operations.ts). */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  app.addHook('onRequest', authenticate(service));
  registerOperationRoutes(app, service, webhookOperations);
};
