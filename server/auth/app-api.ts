import { Type } from 'typebox';
import { Nothing, arg, appMethod } from '../shared/app-method.js';
import { appAccounts } from './app-accounts.js';
import { ChangePasswordBody, SessionInfo, SetupBody, SetupStatus, SignInBody } from './app-schemas.js';

export const ServiceInfoSchema = Type.Object({
  baseUrl: Type.String({ description: 'Where local integrations reach the embedded clinic API' }),
  version: Type.String(),
});

/**
 * Service, first run and sign-in (server/shared/app-method.ts): no caller yet, or the window's session, which lives in
 * the app. App methods, not declared operations (server/shared/operation.ts), on purpose: an operation's call is a
 * signed-in caller's at every edge, and these set, read or clear the window's own session (session-routes.ts are
 * the browser's way). The admin's settings are declared in operations.ts, the profiles in profile-operations.ts.
 */
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
};
