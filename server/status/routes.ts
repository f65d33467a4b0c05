import { requireScope } from '../http/auth.js';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { routePlugin } from '../http/route-plugin.js';
import { API_VERSION } from '../http/version.js';
import { ServerStatus } from './schemas.js';

/** GET /api/v1/status (admins; errors `{"error":{"code","message"}}`). */
export const statusRoutes = routePlugin('status', ['status', 'audit'], async (app, { status, audit }) => {
  app.get('/api/v1/status', {
    config: { errors: 'plain' }, preParsing: requireScope('admin', 'FORBIDDEN', audit, 'admin.access'),
    schema: {
      operationId: 'getServerStatus', tags: ['admin'],
      summary: 'The service\'s address and version; its data folder and database size for the installation owner\'s admins',
      security, response: { 200: ServerStatus, ...plainErrors([401, 403, 500]) },
    },
  }, async (request) => status.status(request.ctx, request.server.baseUrl() ?? '', API_VERSION));
});
