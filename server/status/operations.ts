import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { API_VERSION } from '../http/version.js';
import { guard, operation } from '../shared/operation.js';
import { ServerStatus } from './schemas.js';

/** Where local integrations reach the service, and its version. */
interface Reached {
  baseUrl: string;
  version: string;
}

/**
 * The status domain's operation, declared once (server/shared/operation.ts): GET /api/v1/status and Settings →
 * Clinic server. Admins; errors `{"error":{"code","message"}}`.
 */
export const statusOperations = {
  serverStatus: operation({
    access: guard('admin', { code: 'FORBIDDEN', audit: 'admin.access' }),
    // A route knows its own server's address; the desktop app's host runs that server and says it (IPC).
    run: ({ service, ctx, host }, reached: Reached | null) => {
      const { baseUrl, version } = reached ?? host?.info ?? { baseUrl: '', version: API_VERSION };
      return service.status.status(ctx, baseUrl, version);
    },
    route: {
      method: 'GET', url: '/api/v1/status', errors: 'plain',
      schema: {
        operationId: 'getServerStatus', tags: ['admin'],
        summary: 'The service\'s address and version; its data folder and database size for the installation owner\'s admins',
        security, response: { 200: ServerStatus, ...plainErrors([401, 403, 500]) },
      },
      input: (request) => ({ baseUrl: request.server.baseUrl() ?? '', version: API_VERSION }),
      status: 200,
      body: (status) => status,
    },
    app: { args: [], result: ServerStatus, input: () => null, output: (status) => status, viaRoute: {} },
  }),
};
