import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authenticate, requireScope } from '../http/auth.js';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { registerOperationRoutes } from '../http/operation-routes.js';
import type { Service } from '../service.js';
import { appAccounts } from './app-accounts.js';
import { authOperations } from './operations.js';
import { profileRoutes } from './profile.js';
import {
  ApiClient, ApiKey, Backup, ClientParams, CreatedApiClient, CreatedApiKey, KeyParams, NewApiClientBody, NewApiKeyBody,
  NewUserBody, ResetPasswordBody, ServerStatus, User, UserParams,
} from './app-schemas.js';

const tags = ['admin'];

/** The status as the routes answer it: the installation-wide fields only to the installation owner's admins. */
const StatusView = Type.Object({
  ...ServerStatus.properties,
  data_dir: Type.Optional(Type.String({ description: 'The data folder; only for the admins of the clinic that owns the installation' })),
  database_bytes: Type.Optional(Type.Integer({ description: 'Every clinic\'s database; only for the admins of the clinic that owns the installation' })),
});

/**
 * What the settings screens of an admin need over HTTP: users, API clients (secret shown once), API keys,
 * backups and the service's status; plus the clinic's doctors, which booking needs (appointments:read).
 * Errors are `{"error":{"code","message"}}`; a caller without the admin scope gets 403 FORBIDDEN, and so does the
 * admin of a clinic that does not own the installation on backups (permissions.ts ownsInstallation).
 */
export const adminRoutes: FastifyPluginAsyncTypebox<{ service: Service; version: string }> = async (app, { service, version }) => {
  const accounts = appAccounts(service);
  // The prescription's profile fields: their own scope and hook, so that a user may read and set their own.
  await app.register(profileRoutes, { service });
  app.addHook('onRequest', authenticate(service));
  const config = { errors: 'plain' as const };
  const admin = requireScope('admin', 'FORBIDDEN', service.audit, 'admin.access');

  app.get('/api/v1/users', {
    config, preParsing: admin,
    schema: { operationId: 'listUsers', tags, summary: 'The clinic\'s users', security, response: { 200: Type.Object({ users: Type.Array(User) }), ...plainErrors([401, 403, 500]) } },
  }, async (request) => ({ users: await accounts.users(request.ctx) }));

  app.post('/api/v1/users', {
    config, preParsing: admin,
    schema: {
      operationId: 'createUser', tags, summary: 'Add a user (admin, doctor or reception)', security, body: NewUserBody,
      response: { 201: User, ...plainErrors([400, 401, 403, 409, 500]) },
    },
  }, async (request, reply) => reply.code(201).send(await accounts.createUser(request.ctx, request.body)));

  for (const [verb, disabled] of [['disable', true], ['enable', false]] as const) {
    app.post(`/api/v1/users/:user_id/${verb}`, {
      config, preParsing: admin,
      schema: {
        operationId: `${verb}User`, tags, security, params: UserParams,
        summary: disabled ? 'Disable a user: their tokens stop working at once' : 'Enable a disabled user again',
        response: { 200: User, ...plainErrors([400, 401, 403, 404, 500]) },
      },
    }, async (request) => accounts.setUserDisabled(request.ctx, request.params.user_id, disabled));
  }

  app.post('/api/v1/users/:user_id/password', {
    config, preParsing: admin,
    schema: {
      operationId: 'resetUserPassword', tags, security, params: UserParams, body: ResetPasswordBody,
      summary: 'Set a new password for a user of the clinic (a forgotten one): all their tokens stop working at once',
      description: 'Also lifts the sign-in lockout of that username. Not for your own account (400): change it with POST /api/v1/session/password.',
      response: { 204: Type.Null(), ...plainErrors([400, 401, 403, 404, 500]) },
    },
  }, async (request, reply) => {
    await accounts.resetPassword(request.ctx, request.params.user_id, request.body);
    return reply.code(204).send(null);
  });

  registerOperationRoutes(app, service, authOperations);

  app.get('/api/v1/api-clients', {
    config, preParsing: admin,
    schema: { operationId: 'listApiClients', tags, summary: 'API clients (never their secrets)', security, response: { 200: Type.Object({ clients: Type.Array(ApiClient) }), ...plainErrors([401, 403, 500]) } },
  }, async (request) => ({ clients: await accounts.apiClients(request.ctx) }));

  app.post('/api/v1/api-clients', {
    config, preParsing: admin,
    schema: {
      operationId: 'createApiClient', tags, security, body: NewApiClientBody,
      summary: 'Create an API client; the answer holds its secret, which is shown this once',
      response: { 201: CreatedApiClient, ...plainErrors([400, 401, 403, 500]) },
    },
  }, async (request, reply) => reply.code(201).header('cache-control', 'no-store').send(await accounts.createApiClient(request.ctx, request.body)));

  app.delete('/api/v1/api-clients/:client_id', {
    config, preParsing: admin,
    schema: { operationId: 'revokeApiClient', tags, summary: 'Revoke an API client', security, params: ClientParams, response: { 204: Type.Null(), ...plainErrors([400, 401, 403, 404, 500]) } },
  }, async (request, reply) => {
    await accounts.revokeApiClient(request.ctx, request.params.client_id);
    return reply.code(204).send(null);
  });

  app.get('/api/v1/api-keys', {
    config, preParsing: admin,
    schema: { operationId: 'listApiKeys', tags, summary: 'API keys (X-API-KEY; never the keys themselves)', security, response: { 200: Type.Object({ keys: Type.Array(ApiKey) }), ...plainErrors([401, 403, 500]) } },
  }, async (request) => ({ keys: await accounts.apiKeys(request.ctx) }));

  app.post('/api/v1/api-keys', {
    config, preParsing: admin,
    schema: {
      operationId: 'createApiKey', tags, security, body: NewApiKeyBody,
      summary: 'Create an API key; the answer holds the key, which is shown this once',
      response: { 201: CreatedApiKey, ...plainErrors([400, 401, 403, 500]) },
    },
  }, async (request, reply) => reply.code(201).header('cache-control', 'no-store').send(await accounts.createApiKey(request.ctx, request.body)));

  app.delete('/api/v1/api-keys/:key_id', {
    config, preParsing: admin,
    schema: { operationId: 'revokeApiKey', tags, summary: 'Revoke an API key', security, params: KeyParams, response: { 204: Type.Null(), ...plainErrors([400, 401, 403, 404, 500]) } },
  }, async (request, reply) => {
    await accounts.revokeApiKey(request.ctx, request.params.key_id);
    return reply.code(204).send(null);
  });

  app.get('/api/v1/backups', {
    config, preParsing: admin,
    schema: { operationId: 'listBackups', tags, summary: 'Backups in the data folder, newest first (admins of the clinic that owns the installation)', security, response: { 200: Type.Object({ backups: Type.Array(Backup) }), ...plainErrors([401, 403, 500]) } },
  }, async (request) => ({ backups: await accounts.backups(request.ctx) }));

  app.post('/api/v1/backups', {
    config, preParsing: admin,
    schema: {
      operationId: 'createBackup', tags, security,
      summary: 'Back up the database now (SQLite online backup; the service keeps running)',
      description: 'The copy goes to <data dir>/backups (folder 0700, file 0600) and holds every clinic\'s data, so only the admins of the '
        + 'clinic that owns the installation may make one. It does not contain the key-encryption key; keep that apart.',
      response: { 201: Backup, ...plainErrors([401, 403, 500]) },
    },
  }, async (request, reply) => reply.code(201).send(await accounts.backup(request.ctx)));

  app.get('/api/v1/status', {
    config, preParsing: admin,
    schema: { operationId: 'getServerStatus', tags, summary: 'The service\'s address and version; its data folder and database size for the installation owner\'s admins', security, response: { 200: StatusView, ...plainErrors([401, 403, 500]) } },
  }, async (request) => accounts.status(request.ctx, request.server.baseUrl() ?? '', version));
};
