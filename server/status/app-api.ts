import { appMethod } from '../shared/app-method.js';
import { ServerStatus } from './schemas.js';

/** Settings → Clinic server (server/shared/app-method.ts). */
export const statusMethods = {
  serverStatus: appMethod({
    args: [], result: ServerStatus, access: 'admin',
    run: (c) => c.service.status.status(c.ctx, c.host.info.baseUrl, c.host.info.version),
  }),
};
