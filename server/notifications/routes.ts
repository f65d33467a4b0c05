import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticate, runHook } from '../http/auth.js';
import { registerOperationRoutes } from '../http/operation-routes.js';
import type { Service } from '../service.js';
import { ServiceError } from '../shared/errors.js';
import { notificationOperations } from './operations.js';

/**
 * Endpoint 4 (push credentials) and device registration: the operations' routes (operations.ts). Bearer auth (a
 * user's auth token or an access token from /api/v1/auth/token), scope `notifications`; every error is
 * `{message, error_code}` with error_code equal to the HTTP status.
 */
export const notificationRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  const authn = authenticate(service);
  // The shared hook words its 401s for the dr `auth` header; these routes speak of bearer tokens. A credential
  // of the other environment keeps its own words ("This is a sandbox …; use it with the sandbox at …":
  // shared/environment.ts), which name the mistake and the right address.
  app.addHook('onRequest', async function (request, reply) {
    try {
      await runHook(authn, this, request, reply);
    } catch (e) {
      if (!(e instanceof ServiceError) || e.status !== 401 || e.message.startsWith('This is a')) throw e;
      throw new ServiceError(401, 'UNAUTHORIZED_ACCESS', e.message.startsWith('Missing')
        ? 'Unauthorized access: send Authorization: Bearer <access token>'
        : 'Unauthorized access: the bearer token is invalid, expired or revoked');
    }
  });
  registerOperationRoutes(app, service, notificationOperations);
};
