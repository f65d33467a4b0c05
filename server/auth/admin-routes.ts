import { Type } from 'typebox';
import { requireScope } from '../http/auth.js';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { type RouteServices, routePlugin } from '../http/route-plugin.js';
import {
  ApiClient, ApiKey, Backup, ClientParams, CreatedApiClient, CreatedApiKey, KeyParams, NewApiClientBody, NewApiKeyBody,
  NewUserBody, ResetPasswordBody, User, UserParams,
} from './app-schemas.js';

const tags = ['admin'];
const config = { errors: 'plain' as const };
const adminOnly = (audit: RouteServices['audit']) => requireScope('admin', 'FORBIDDEN', audit, 'admin.access');

/**
 * What the settings screens of an admin need over HTTP, under `signedIn`: the clinic's users (here), then the
 * doctors, which booking needs (auth's operations), then API clients (secret shown once), API keys and backups
 * (`adminRoutes`). Errors are `{"error":{"code","message"}}`; a caller without the admin scope gets 403 FORBIDDEN,
 * and so does the admin of a clinic that does not own the installation on backups (permissions.ts ownsInstallation).
 */
export const userRoutes = routePlugin('users', ['accounts', 'audit'], async (app, { accounts, audit }) => {
  const admin = adminOnly(audit);

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
});

/** API clients, API keys and backups (`userRoutes` says more). */
export const adminRoutes = routePlugin('admin', ['accounts', 'audit'], async (app, { accounts, audit }) => {
  const admin = adminOnly(audit);

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
});
