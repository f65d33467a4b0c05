import { Type } from 'typebox';
import { Nothing, arg, appMethod } from '../shared/app-method.js';
import { ServiceError } from '../shared/errors.js';
import { toPushCredentials } from './app-shapes.js';
import { SaKey } from './schemas.js';

/** The stored push key as Settings shows it (app-shapes.ts), never the private key. */
export const PushCredentialsSchema = Type.Object({
  project_id: Type.String(),
  client_email: Type.String(),
  private_key_id: Type.Union([Type.String(), Type.Null()]),
  token_uri: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/** Settings → Push notifications (server/shared/app-method.ts). */
export const notificationMethods = {
  /** The stored credentials, or null when there are none. */
  pushCredentials: appMethod({
    args: [], result: Type.Union([PushCredentialsSchema, Type.Null()]), access: 'notifications',
    async run(c) {
      try {
        return toPushCredentials(await c.service.notifications.credentials(c.ctx));
      } catch (err) {
        if (err instanceof ServiceError && err.status === 404) return null;
        throw err;
      }
    },
  }),
  setPushCredentials: appMethod({
    args: [arg('saKey', SaKey)], result: PushCredentialsSchema, access: 'notifications',
    async run(c, saKey) {
      await c.service.notifications.setCredentials(c.ctx, saKey);
      return toPushCredentials(await c.service.notifications.credentials(c.ctx));
    },
  }),
  deletePushCredentials: appMethod({
    args: [], result: Nothing, access: 'notifications',
    run: (c) => c.service.notifications.deleteCredentials(c.ctx),
  }),
};
