import { type Static, Type } from 'typebox';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { Nothing, arg } from '../shared/app-method.js';
import { guard, operation } from '../shared/operation.js';
import { appAccounts } from './app-accounts.js';
import {
  ApiClient, ApiKey, Backup, ClientParams, CreatedApiClient, CreatedApiKey, Doctor, KeyParams, NewApiClientBody, NewApiKeyBody, NewUserBody,
  ResetPasswordBody, User, UserParams,
} from './app-schemas.js';

/**
 * The auth domain's declared operations (server/shared/operation.ts): what the settings screens of an admin need, the
 * clinic's users, then the doctors, which booking needs, then API clients (secret shown once), API keys and backups.
 * Errors are `{"error":{"code","message"}}`; a caller without the admin scope gets 403 FORBIDDEN, and so does the
 * admin of a clinic that does not own the installation on backups (permissions.ts ownsInstallation). The order is the
 * routes' (and the OpenAPI document's). Sign-in, first run and the session need no caller or keep the window's
 * session, and stay app methods (app-api.ts) and routes (session-routes.ts).
 */

const tags = ['admin'];
const admin = guard('admin', { code: 'FORBIDDEN', audit: 'admin.access' });
const noStore = { 'cache-control': 'no-store' };
const userId = arg('userId', UserParams.properties.user_id);

/** Disabling or enabling a user: a route each, one app method (setUserDisabled) for both. */
const userState = (verb: 'disable' | 'enable', disabled: boolean) => operation({
  access: admin,
  run: ({ service, ctx }, id: string) => appAccounts(service).setUserDisabled(ctx, id, disabled),
  route: {
    method: 'POST', url: `/api/v1/users/:user_id/${verb}`, errors: 'plain',
    schema: {
      operationId: `${verb}User`, tags, security, params: UserParams,
      summary: disabled ? 'Disable a user: their tokens stop working at once' : 'Enable a disabled user again',
      response: { 200: User, ...plainErrors([400, 401, 403, 404, 500]) },
    },
    input: (request) => request.params.user_id,
    status: 200,
    body: (user) => user,
  },
});

export const authOperations = {
  users: operation({
    access: admin,
    run: ({ service, ctx }, _input: undefined) => appAccounts(service).users(ctx),
    route: {
      method: 'GET', url: '/api/v1/users', errors: 'plain',
      schema: { operationId: 'listUsers', tags, summary: 'The clinic\'s users', security, response: { 200: Type.Object({ users: Type.Array(User) }), ...plainErrors([401, 403, 500]) } },
      input: () => undefined,
      status: 200,
      body: (users) => ({ users }),
    },
    app: { args: [], result: Type.Array(User), input: () => undefined, output: (users) => users },
  }),

  createUser: operation({
    access: admin,
    run: ({ service, ctx }, input: Static<typeof NewUserBody>) => appAccounts(service).createUser(ctx, input),
    route: {
      method: 'POST', url: '/api/v1/users', errors: 'plain',
      schema: {
        operationId: 'createUser', tags, summary: 'Add a user (admin, doctor or reception)', security, body: NewUserBody,
        response: { 201: User, ...plainErrors([400, 401, 403, 409, 500]) },
      },
      input: (request) => request.body,
      status: 201,
      body: (user) => user,
    },
    app: { args: [arg('input', NewUserBody)], result: User, input: (input) => input, output: (user) => user, viaRoute: {} },
  }),

  disableUser: userState('disable', true),
  enableUser: userState('enable', false),
  setUserDisabled: operation({
    access: admin,
    run: ({ service, ctx }, { id, disabled }: { id: string; disabled: boolean }) => appAccounts(service).setUserDisabled(ctx, id, disabled),
    app: { args: [userId, arg('disabled', Type.Boolean())], result: User, input: (id, disabled) => ({ id, disabled }), output: (user) => user },
  }),

  /** A new password for another user of the clinic; all their sessions end. */
  resetUserPassword: operation({
    access: admin,
    run: ({ service, ctx }, { id, body }: { id: string; body: Static<typeof ResetPasswordBody> }) => appAccounts(service).resetPassword(ctx, id, body),
    route: {
      method: 'POST', url: '/api/v1/users/:user_id/password', errors: 'plain',
      schema: {
        operationId: 'resetUserPassword', tags, security, params: UserParams, body: ResetPasswordBody,
        summary: 'Set a new password for a user of the clinic (a forgotten one): all their tokens stop working at once',
        description: 'Also lifts the sign-in lockout of that username. Not for your own account (400): change it with POST /api/v1/session/password.',
        response: { 204: Type.Null(), ...plainErrors([400, 401, 403, 404, 500]) },
      },
      input: (request) => ({ id: request.params.user_id, body: request.body }),
      status: 204,
    },
    app: {
      args: [userId, arg('next', ResetPasswordBody.properties.new_password)], result: Nothing,
      input: (id, next) => ({ id, body: { new_password: next } }), output: () => undefined,
    },
  }),

  /** The clinic's doctors (and admins), whom booking names: read by whoever may read appointments. */
  doctors: operation({
    access: guard('appointments:read', { code: 'UNAUTHORIZED_ACCESS', audit: 'doctor.list' }),
    run: ({ service, ctx }, _input: undefined) => appAccounts(service).doctors(ctx),
    route: {
      method: 'GET', url: '/api/v1/doctors', errors: 'plain',
      schema: {
        operationId: 'listDoctors', tags: ['appointments'], summary: 'Doctors (and admins) of the clinic, for booking', security,
        response: { 200: Type.Object({ doctors: Type.Array(Doctor) }), ...plainErrors([401, 403, 500]) },
      },
      input: () => undefined,
      status: 200,
      body: (doctors) => ({ doctors }),
    },
    app: { args: [], result: Type.Array(Doctor), input: () => undefined, output: (doctors) => doctors },
  }),

  apiClients: operation({
    access: admin,
    run: ({ service, ctx }, _input: undefined) => appAccounts(service).apiClients(ctx),
    route: {
      method: 'GET', url: '/api/v1/api-clients', errors: 'plain',
      schema: { operationId: 'listApiClients', tags, summary: 'API clients (never their secrets)', security, response: { 200: Type.Object({ clients: Type.Array(ApiClient) }), ...plainErrors([401, 403, 500]) } },
      input: () => undefined,
      status: 200,
      body: (clients) => ({ clients }),
    },
    app: { args: [], result: Type.Array(ApiClient), input: () => undefined, output: (clients) => clients },
  }),

  createApiClient: operation({
    access: admin,
    run: ({ service, ctx }, input: Static<typeof NewApiClientBody>) => appAccounts(service).createApiClient(ctx, input),
    route: {
      method: 'POST', url: '/api/v1/api-clients', errors: 'plain',
      schema: {
        operationId: 'createApiClient', tags, security, body: NewApiClientBody,
        summary: 'Create an API client; the answer holds its secret, which is shown this once',
        response: { 201: CreatedApiClient, ...plainErrors([400, 401, 403, 500]) },
      },
      input: (request) => request.body,
      status: 201,
      headers: noStore,
      body: (created) => created,
    },
    // On the public route, which keeps the secret out of caches.
    app: { args: [arg('input', NewApiClientBody)], result: CreatedApiClient, input: (input) => input, output: (created) => created, viaRoute: {} },
  }),

  revokeApiClient: operation({
    access: admin,
    run: ({ service, ctx }, id: string) => appAccounts(service).revokeApiClient(ctx, id),
    route: {
      method: 'DELETE', url: '/api/v1/api-clients/:client_id', errors: 'plain',
      schema: { operationId: 'revokeApiClient', tags, summary: 'Revoke an API client', security, params: ClientParams, response: { 204: Type.Null(), ...plainErrors([400, 401, 403, 404, 500]) } },
      input: (request) => request.params.client_id,
      status: 204,
    },
    app: { args: [arg('clientId', ClientParams.properties.client_id)], result: Nothing, input: (id) => id, output: () => undefined },
  }),

  apiKeys: operation({
    access: admin,
    run: ({ service, ctx }, _input: undefined) => appAccounts(service).apiKeys(ctx),
    route: {
      method: 'GET', url: '/api/v1/api-keys', errors: 'plain',
      schema: { operationId: 'listApiKeys', tags, summary: 'API keys (X-API-KEY; never the keys themselves)', security, response: { 200: Type.Object({ keys: Type.Array(ApiKey) }), ...plainErrors([401, 403, 500]) } },
      input: () => undefined,
      status: 200,
      body: (keys) => ({ keys }),
    },
    app: { args: [], result: Type.Array(ApiKey), input: () => undefined, output: (keys) => keys },
  }),

  createApiKey: operation({
    access: admin,
    run: ({ service, ctx }, input: Static<typeof NewApiKeyBody>) => appAccounts(service).createApiKey(ctx, input),
    route: {
      method: 'POST', url: '/api/v1/api-keys', errors: 'plain',
      schema: {
        operationId: 'createApiKey', tags, security, body: NewApiKeyBody,
        summary: 'Create an API key; the answer holds the key, which is shown this once',
        response: { 201: CreatedApiKey, ...plainErrors([400, 401, 403, 500]) },
      },
      input: (request) => request.body,
      status: 201,
      headers: noStore,
      body: (created) => created,
    },
    app: { args: [arg('input', NewApiKeyBody)], result: CreatedApiKey, input: (input) => input, output: (created) => created, viaRoute: {} },
  }),

  revokeApiKey: operation({
    access: admin,
    run: ({ service, ctx }, id: string) => appAccounts(service).revokeApiKey(ctx, id),
    route: {
      method: 'DELETE', url: '/api/v1/api-keys/:key_id', errors: 'plain',
      schema: { operationId: 'revokeApiKey', tags, summary: 'Revoke an API key', security, params: KeyParams, response: { 204: Type.Null(), ...plainErrors([400, 401, 403, 404, 500]) } },
      input: (request) => request.params.key_id,
      status: 204,
    },
    app: { args: [arg('keyId', KeyParams.properties.key_id)], result: Nothing, input: (id) => id, output: () => undefined },
  }),

  backups: operation({
    access: admin,
    run: ({ service, ctx }, _input: undefined) => appAccounts(service).backups(ctx),
    route: {
      method: 'GET', url: '/api/v1/backups', errors: 'plain',
      schema: { operationId: 'listBackups', tags, summary: 'Backups in the data folder, newest first (admins of the clinic that owns the installation)', security, response: { 200: Type.Object({ backups: Type.Array(Backup) }), ...plainErrors([401, 403, 500]) } },
      input: () => undefined,
      status: 200,
      body: (backups) => ({ backups }),
    },
    app: { args: [], result: Type.Array(Backup), input: () => undefined, output: (backups) => backups },
  }),

  backup: operation({
    access: admin,
    run: ({ service, ctx }, _input: undefined) => appAccounts(service).backup(ctx),
    route: {
      method: 'POST', url: '/api/v1/backups', errors: 'plain',
      schema: {
        operationId: 'createBackup', tags, security,
        summary: 'Back up the database now (SQLite online backup; the service keeps running)',
        description: 'The copy goes to <data dir>/backups (folder 0700, file 0600) and holds every clinic\'s data, so only the admins of the '
          + 'clinic that owns the installation may make one. It does not contain the key-encryption key; keep that apart.',
        response: { 201: Backup, ...plainErrors([401, 403, 500]) },
      },
      input: () => undefined,
      status: 201,
      body: (made) => made,
    },
    app: { args: [], result: Backup, input: () => undefined, output: (made) => made },
  }),
};
