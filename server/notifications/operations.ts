import { Type } from 'typebox';
import { Nothing, arg } from '../shared/app-method.js';
import { orNone } from '../shared/errors.js';
import { guard, operation } from '../shared/operation.js';
import {
  AddDeviceBody, DeviceHeaders, DeviceInfo, type DevicePayload, FcmCredsBody, FcmCredsInfo, Message, NotificationError, SaKey, Success,
} from './schemas.js';

/**
 * The notifications domain's operations, each declared once (server/shared/operation.ts): endpoint 4 (push
 * credentials) and device registration, and Settings → Push notifications in the app. The order is the routes' (and
 * the OpenAPI document's). The routes' plugin (routes.ts) words the 401s for bearer tokens.
 */

// Every error of these routes is {message, error_code} with error_code equal to the HTTP status.
const access = guard('notifications', { code: 'UNAUTHORIZED_ACCESS', audit: 'notification.access' });

const security: Record<string, string[]>[] = [{ bearer: [] }];
const errors = (statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, NotificationError]));

/** The stored push key as Settings shows it, never the private key. */
export const PushCredentialsSchema = Type.Object({
  project_id: Type.String(),
  client_email: Type.String(),
  private_key_id: Type.Union([Type.String(), Type.Null()]),
  token_uri: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

const toPushCredentials = (c: FcmCredsInfo) => ({
  project_id: c.sa_key.project_id, client_email: c.sa_key.client_email, private_key_id: c.sa_key.private_key_id, token_uri: c.sa_key.token_uri,
  created_at: c.created_at, updated_at: c.updated_at,
});

export const notificationOperations = {
  /** Settings' view of the stored credentials, or null when there are none (the route's GET answers 404). */
  pushCredentials: operation({
    access,
    run: ({ service, ctx }, _input: undefined) => orNone(service.notifications.credentials(ctx)),
    app: {
      args: [], result: Type.Union([PushCredentialsSchema, Type.Null()]), input: () => undefined,
      output: (stored) => stored && toPushCredentials(stored),
    },
  }),

  /** Settings stores a key and shows what was stored (the route's POST answers a message). */
  setPushCredentials: operation({
    access,
    async run({ service: { notifications }, ctx }, saKey: SaKey) {
      await notifications.setCredentials(ctx, saKey);
      return notifications.credentials(ctx);
    },
    app: { args: [arg('saKey', SaKey)], result: PushCredentialsSchema, input: (saKey) => saKey, output: toPushCredentials },
  }),

  addFcmCreds: operation({
    access,
    run: ({ service, ctx }, saKey: SaKey) => service.notifications.setCredentials(ctx, saKey),
    route: {
      method: 'POST', url: '/notification/fcm-creds', errors: 'notification',
      schema: {
        operationId: 'addFcmCreds',
        tags: ['notifications'],
        summary: 'Store the workspace\'s FCM service-account credentials',
        description: 'One set per workspace: a new POST replaces the old. The private key must parse (RSA, PEM, 2048 bits or more); '
          + 'it is stored encrypted and never returned. universal_domain and universe_domain are both accepted.',
        security,
        body: FcmCredsBody,
        response: { 200: Message, ...errors([400, 401, 403, 500]) },
      },
      input: (request) => request.body.sa_key,
      status: 200,
      body: () => ({ message: 'FCM credentials added successfully' }),
    },
  }),

  getFcmCreds: operation({
    access,
    run: ({ service, ctx }, _input: undefined) => service.notifications.credentials(ctx),
    route: {
      method: 'GET', url: '/notification/fcm-creds', errors: 'notification',
      schema: {
        operationId: 'getFcmCreds',
        tags: ['notifications'],
        summary: 'The stored credentials\' metadata (never the private key)',
        security,
        response: { 200: FcmCredsInfo, ...errors([401, 403, 404, 500]) },
      },
      input: () => undefined,
      status: 200,
      body: (info) => info,
    },
  }),

  deletePushCredentials: operation({
    access,
    run: ({ service, ctx }, _input: undefined) => service.notifications.deleteCredentials(ctx),
    route: {
      method: 'DELETE', url: '/notification/fcm-creds', errors: 'notification',
      schema: {
        operationId: 'deleteFcmCreds',
        tags: ['notifications'],
        summary: 'Remove the stored credentials',
        description: 'Pushes still queued for the workspace are cancelled.',
        security,
        response: { 200: Message, ...errors([401, 403, 404, 500]) },
      },
      input: () => undefined,
      status: 200,
      body: () => ({ message: 'FCM credentials deleted successfully' }),
    },
    app: { args: [], result: Nothing, input: () => undefined, output: () => undefined },
  }),

  addDevice: operation({
    access,
    run: ({ service, ctx }, payload: DevicePayload) => service.notifications.addDevice(ctx, payload),
    route: {
      method: 'POST', url: '/notification/add-device', errors: 'notification',
      schema: {
        operationId: 'addDevice',
        tags: ['notifications'],
        summary: 'Register a device of the caller for pushes',
        description: 'The device belongs to the signed-in user, or to the API client whose token is used. Registering the same did again '
          + 'updates its token and app version.',
        security,
        body: AddDeviceBody,
        response: { 200: Success, ...errors([400, 401, 403, 500]) },
      },
      input: (request) => request.body.devicePayload,
      status: 200,
      body: () => ({ success: true as const }),
    },
  }),

  deleteDevice: operation({
    access,
    run: ({ service, ctx }, did: string) => service.notifications.deleteDevice(ctx, did),
    route: {
      method: 'DELETE', url: '/notification/delete-device', errors: 'notification',
      schema: {
        operationId: 'deleteDevice',
        tags: ['notifications'],
        summary: 'Remove a device of the caller (logged out or uninstalled)',
        security,
        headers: DeviceHeaders,
        response: { 200: Success, ...errors([400, 401, 403, 404, 500]) },
      },
      input: (request) => request.headers['device-id'],
      status: 200,
      body: () => ({ success: true as const }),
    },
  }),

  listDevices: operation({
    access,
    run: ({ service, ctx }, _input: undefined) => service.notifications.devices(ctx),
    route: {
      method: 'GET', url: '/notification/devices', errors: 'notification',
      schema: {
        operationId: 'listDevices',
        tags: ['notifications'],
        summary: 'The caller\'s registered devices (without their tokens)',
        security,
        response: { 200: Type.Object({ devices: Type.Array(DeviceInfo) }), ...errors([401, 403, 500]) },
      },
      input: () => undefined,
      status: 200,
      body: (devices) => ({ devices }),
    },
  }),
};
