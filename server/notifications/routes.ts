import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authenticate, requireScope, runHook } from '../http/auth.js';
import type { Service } from '../service.js';
import { ServiceError } from '../shared/errors.js';
import { AddDeviceBody, DeviceHeaders, DeviceInfo, FcmCredsBody, FcmCredsInfo, Message, NotificationError, Success } from './schemas.js';

const security: Record<string, string[]>[] = [{ bearer: [] }];
const errors = (statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, NotificationError]));

/**
 * Endpoint 4 (push credentials) and device registration. Bearer auth (a user's auth token or an access token
 * from /api/v1/auth/token), scope `notifications`; every error is `{message, error_code}` with error_code equal
 * to the HTTP status.
 */
export const notificationRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  const { audit, notifications } = service;
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
  const config = { errors: 'notification' as const };
  const allowed = requireScope('notifications', 'UNAUTHORIZED_ACCESS', audit, 'notification.access');

  app.post('/notification/fcm-creds', {
    config,
    preParsing: allowed,
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
  }, async (request) => {
    await notifications.setCredentials(request.ctx, request.body.sa_key);
    return { message: 'FCM credentials added successfully' };
  });

  app.get('/notification/fcm-creds', {
    config,
    preParsing: allowed,
    schema: {
      operationId: 'getFcmCreds',
      tags: ['notifications'],
      summary: 'The stored credentials\' metadata (never the private key)',
      security,
      response: { 200: FcmCredsInfo, ...errors([401, 403, 404, 500]) },
    },
  }, async (request) => notifications.credentials(request.ctx));

  app.delete('/notification/fcm-creds', {
    config,
    preParsing: allowed,
    schema: {
      operationId: 'deleteFcmCreds',
      tags: ['notifications'],
      summary: 'Remove the stored credentials',
      description: 'Pushes still queued for the workspace are cancelled.',
      security,
      response: { 200: Message, ...errors([401, 403, 404, 500]) },
    },
  }, async (request) => {
    await notifications.deleteCredentials(request.ctx);
    return { message: 'FCM credentials deleted successfully' };
  });

  app.post('/notification/add-device', {
    config,
    preParsing: allowed,
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
  }, async (request) => {
    await notifications.addDevice(request.ctx, request.body.devicePayload);
    return { success: true as const };
  });

  app.delete('/notification/delete-device', {
    config,
    preParsing: allowed,
    schema: {
      operationId: 'deleteDevice',
      tags: ['notifications'],
      summary: 'Remove a device of the caller (logged out or uninstalled)',
      security,
      headers: DeviceHeaders,
      response: { 200: Success, ...errors([400, 401, 403, 404, 500]) },
    },
  }, async (request) => {
    await notifications.deleteDevice(request.ctx, request.headers['device-id']);
    return { success: true as const };
  });

  app.get('/notification/devices', {
    config,
    preParsing: allowed,
    schema: {
      operationId: 'listDevices',
      tags: ['notifications'],
      summary: 'The caller\'s registered devices (without their tokens)',
      security,
      response: { 200: Type.Object({ devices: Type.Array(DeviceInfo) }), ...errors([401, 403, 500]) },
    },
  }, async (request) => ({ devices: await notifications.devices(request.ctx) }));
};
