import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticate } from '../http/auth.js';
import { registerOperationRoutes } from '../http/operation-routes.js';
import type { Service } from '../service.js';
import { patientOperations } from './operations.js';

/** Endpoint 1 and the patient record endpoints a front desk and integrations need (operations.ts). */
export const patientRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  app.addHook('onRequest', authenticate(service));
  registerOperationRoutes(app, service, patientOperations);
};
