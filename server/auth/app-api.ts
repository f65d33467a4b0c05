import { Type } from 'typebox';
import { Nothing, arg, appMethod } from '../shared/app-method.js';
import { appAccounts } from './app-accounts.js';
import {
  ApiClient, ApiKey, Backup, ChangePasswordBody, ClientParams, CreatedApiClient, CreatedApiKey, KeyParams, NewApiClientBody, NewApiKeyBody,
  NewUserBody, ResetPasswordBody, SessionInfo, SetupBody, SetupStatus, SignInBody, User, UserParams,
} from './app-schemas.js';

export const ServiceInfoSchema = Type.Object({
  baseUrl: Type.String({ description: 'Where local integrations reach the embedded clinic API' }),
  version: Type.String(),
});

const userId = arg('userId', UserParams.properties.user_id);

/** Service, first run, sign-in and the admin's settings (server/shared/app-method.ts). The window's session lives in the app. */
export const authMethods = {
  serviceInfo: appMethod({ args: [], result: ServiceInfoSchema, access: 'anyone', run: (c) => c.host.info }),
  setupStatus: appMethod({ args: [], result: SetupStatus, access: 'anyone', run: (c) => appAccounts(c.service).setupStatus() }),
  setup: appMethod({
    args: [arg('input', SetupBody)], result: SessionInfo, access: 'anyone',
    async run(c, input) {
      const { token, ...info } = await appAccounts(c.service).setup(input, null);
      c.session.set(token);
      return info;
    },
  }),
  signIn: appMethod({
    args: [arg('input', SignInBody)], result: SessionInfo, access: 'anyone',
    async run(c, input) {
      const { token, ...info } = await appAccounts(c.service).signIn(input, null);
      c.session.set(token);
      return info;
    },
  }),
  signOut: appMethod({
    args: [], result: Nothing, access: 'anyone',
    async run(c) {
      const t = c.session.token;
      c.session.clear();
      if (!t) return;
      const caller = await c.service.auth.authenticateToken(t);
      await appAccounts(c.service).signOut(t, caller ? { caller, ip: null, requestId: null } : undefined);
    },
  }),
  /** The signed-in user's own password; other sessions of the user end, this one stays (401 INVALID_CREDENTIALS: wrong current). */
  changePassword: appMethod({
    args: [arg('current', ChangePasswordBody.properties.current_password), arg('next', ChangePasswordBody.properties.new_password)],
    result: Nothing, access: 'signed-in',
    run: (c, current, next) => appAccounts(c.service).changePassword(c.ctx, c.token, { current_password: current, new_password: next }),
  }),
  /** The signed-in user, or null (the browser keeps its session per tab; the app per window). */
  session: appMethod({
    args: [], result: Type.Union([SessionInfo, Type.Null()]), access: 'anyone',
    async run(c) {
      const caller = c.session.token ? await c.service.auth.authenticateToken(c.session.token) : null;
      return caller ? appAccounts(c.service).session(caller) : null;
    },
  }),

  users: appMethod({ args: [], result: Type.Array(User), access: 'admin', run: (c) => appAccounts(c.service).users(c.ctx) }),
  createUser: appMethod({
    args: [arg('input', NewUserBody)], result: User, access: 'admin',
    run: (c, input) => appAccounts(c.service).createUser(c.ctx, input),
  }),
  setUserDisabled: appMethod({
    args: [userId, arg('disabled', Type.Boolean())], result: User, access: 'admin',
    run: (c, id, disabled) => appAccounts(c.service).setUserDisabled(c.ctx, id, disabled),
  }),
  /** A new password for another user of the clinic; all their sessions end. */
  resetUserPassword: appMethod({
    args: [userId, arg('next', ResetPasswordBody.properties.new_password)], result: Nothing, access: 'admin',
    run: (c, id, next) => appAccounts(c.service).resetPassword(c.ctx, id, { new_password: next }),
  }),
  apiClients: appMethod({ args: [], result: Type.Array(ApiClient), access: 'admin', run: (c) => appAccounts(c.service).apiClients(c.ctx) }),
  createApiClient: appMethod({
    args: [arg('input', NewApiClientBody)], result: CreatedApiClient, access: 'admin',
    run: (c, input) => appAccounts(c.service).createApiClient(c.ctx, input),
  }),
  revokeApiClient: appMethod({
    args: [arg('clientId', ClientParams.properties.client_id)], result: Nothing, access: 'admin',
    run: (c, id) => appAccounts(c.service).revokeApiClient(c.ctx, id),
  }),
  apiKeys: appMethod({ args: [], result: Type.Array(ApiKey), access: 'admin', run: (c) => appAccounts(c.service).apiKeys(c.ctx) }),
  createApiKey: appMethod({
    args: [arg('input', NewApiKeyBody)], result: CreatedApiKey, access: 'admin',
    run: (c, input) => appAccounts(c.service).createApiKey(c.ctx, input),
  }),
  revokeApiKey: appMethod({
    args: [arg('keyId', KeyParams.properties.key_id)], result: Nothing, access: 'admin',
    run: (c, id) => appAccounts(c.service).revokeApiKey(c.ctx, id),
  }),
  backups: appMethod({ args: [], result: Type.Array(Backup), access: 'admin', run: (c) => appAccounts(c.service).backups(c.ctx) }),
  backup: appMethod({ args: [], result: Backup, access: 'admin', run: (c) => appAccounts(c.service).backup(c.ctx) }),
};
