import { Type } from 'typebox';
import { Available, arg, appMethod } from '../shared/app-method.js';
import { ServiceError } from '../shared/errors.js';

/**
 * Methods only the desktop app's process can carry out, over what its host offers (server/shared/app-method.ts
 * AppHost): where the host lacks the part (the browser's transport, a service without the app), they say so.
 */
export const CLINIC_SERVER_IN_APP = 'A browser uses the clinic server whose address it opened; the desktop app chooses its server in Settings → Server.';

export const desktopMethods = {
  /** Settings → Server → "Use a clinic server": shown when the app can switch, with where it keeps the choice. */
  clinicServerChoice: appMethod({
    args: [], result: Available(Type.Object({ choiceFile: Type.String() })), access: 'admin',
    run: (c) => c.host.clinicServer
      ? { available: true as const, value: { choiceFile: c.host.clinicServer.choiceFile } }
      : { available: false as const, reason: CLINIC_SERVER_IN_APP },
  }),
  /**
   * Points this app at a chain's clinic server (issue 17 item 5): the address is checked and probed first, then
   * the app restarts on it and its own service stops. Admins only: it decides where every later sign-in goes.
   */
  useClinicServer: appMethod({
    args: [arg('address', Type.String({ minLength: 1, maxLength: 2048 }))], result: Type.Object({ url: Type.String() }), access: 'admin',
    async run(c, address) {
      if (!c.host.clinicServer) throw new ServiceError(501, 'NOT_AVAILABLE', CLINIC_SERVER_IN_APP);
      try {
        const chosen = await c.host.clinicServer.use(address);
        c.service.audit.later(c.ctx, { action: 'app.use_clinic_server', resourceType: 'app', outcome: 'success' });
        return chosen;
      } catch (e) {
        c.service.audit.later(c.ctx, { action: 'app.use_clinic_server', resourceType: 'app', outcome: e instanceof ServiceError && e.status === 400 ? 'invalid' : 'error' });
        throw e;
      }
    },
  }),
};
