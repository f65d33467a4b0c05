import { Type } from 'typebox';
import { presentedToken } from '../http/auth.js';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { routePlugin } from '../http/route-plugin.js';
import { ServiceError } from '../shared/errors.js';
import { TooManyAttempts } from './app-accounts.js';
import { ChangePasswordBody, SessionInfo, SetupBody, SetupStatus, SignInBody, SignedIn } from './app-schemas.js';

const config = { errors: 'plain' as const };
const noStore = { 'cache-control': 'no-store' };

/**
 * The app's sign-in and first run, for the browser transport (a second front-desk PC) and any client that wants
 * a user session: GET/POST /api/v1/setup and POST /api/v1/session, which need no caller; the signed-in user's own
 * routes are `signedInRoutes`. Errors are `{"error":{"code","message"}}`. Plain routes, not declared operations
 * (server/shared/operation.ts), on purpose, like their app methods (app-api.ts): they need no caller or act on the
 * token presented (signing out, a password change that keeps this session), answer a refusal with Retry-After, and
 * the app's twins keep the window's session in main and answer null when signed out.
 */
export const sessionRoutes = routePlugin('session', ['accounts'], async (app, { accounts }) => {

  app.get('/api/v1/setup', {
    config,
    schema: {
      operationId: 'getSetupStatus',
      tags: ['app'],
      summary: 'Whether this installation still needs its first-run setup (no clinic yet)',
      response: { 200: SetupStatus },
    },
  }, async () => accounts.setupStatus());

  app.post('/api/v1/setup', {
    config,
    schema: {
      operationId: 'setupClinic',
      tags: ['app'],
      summary: 'First run: create the clinic and its admin, and sign the admin in',
      description: 'Allowed only while the database holds no clinic; 409 ALREADY_SET_UP afterwards.',
      body: SetupBody,
      response: { 201: SignedIn, ...plainErrors([400, 409, 500]) },
    },
  }, async (request, reply) => reply.code(201).headers(noStore).send(await accounts.setup(request.body, request.ip)));

  app.post('/api/v1/session', {
    config,
    schema: {
      operationId: 'signIn',
      tags: ['app'],
      summary: 'Sign in with a username and password; returns a user token (label "app sign-in")',
      description: '401 INVALID_CREDENTIALS for an unknown user or a wrong password alike. Failures are counted per username '
        + 'and source address together: after 5 for a username from one address, 20 from one address (any usernames) or 50 for '
        + 'a username from all addresses within 15 minutes, 429 TOO_MANY_ATTEMPTS with Retry-After until enough failures are '
        + '15 minutes old. So failures sent from elsewhere do not lock out the user at their own computer. JSON body only (415 otherwise).',
      body: SignInBody,
      response: { 200: SignedIn, ...plainErrors([400, 401, 429, 500]) },
    },
  }, async (request, reply) => {
    try {
      return reply.headers(noStore).send(await accounts.signIn(request.body, request.ip, request.id));
    } catch (e) {
      if (e instanceof TooManyAttempts) reply.header('retry-after', String(e.retryAfterS));
      throw e;
    }
  });
});

/** The signed-in user's session (DELETE /api/v1/session, POST /api/v1/session/password, GET /api/v1/me), under `signedIn`. */
export const signedInRoutes = routePlugin('session-signed-in', ['accounts', 'tokens'], async (app, { accounts, tokens }) => {
  app.delete('/api/v1/session', {
    config,
    schema: {
      operationId: 'signOut',
      tags: ['app'],
      summary: 'Sign out: revoke the user token this request carries',
      security,
      response: { 204: Type.Null(), ...plainErrors([400, 401, 500]) },
    },
  }, async (request, reply) => {
    const token = presentedToken(request)!;
    if (request.ctx.caller.kind !== 'user' || tokens.looksLikeJwt(token)) {
      throw new ServiceError(400, 'INVALID_REQUEST', 'Only a user token from sign-in can be signed out; access tokens simply expire');
    }
    await accounts.signOut(token, request.ctx);
    return reply.code(204).send(null);
  });

  app.post('/api/v1/session/password', {
    config,
    schema: {
      operationId: 'changePassword',
      tags: ['app'],
      summary: 'Change the signed-in user\'s own password',
      description: '401 INVALID_CREDENTIALS when current_password is wrong; those failures count towards the sign-in limit '
        + '(429 TOO_MANY_ATTEMPTS with Retry-After). On success every other token of the user is revoked; the token of this request stays valid.',
      security,
      body: ChangePasswordBody,
      response: { 204: Type.Null(), ...plainErrors([400, 401, 429, 500]) },
    },
  }, async (request, reply) => {
    const token = presentedToken(request)!;
    if (request.ctx.caller.kind !== 'user' || tokens.looksLikeJwt(token)) {
      throw new ServiceError(400, 'INVALID_REQUEST', 'Only a user token from sign-in can change its user\'s password');
    }
    try {
      await accounts.changePassword(request.ctx, token, request.body);
    } catch (e) {
      if (e instanceof TooManyAttempts) reply.header('retry-after', String(e.retryAfterS));
      throw e;
    }
    return reply.code(204).send(null);
  });

  app.get('/api/v1/me', {
    config,
    schema: {
      operationId: 'getMe',
      tags: ['app'],
      summary: 'The signed-in user and their clinic',
      security,
      response: { 200: SessionInfo, ...plainErrors([401, 500]) },
    },
  }, async (request) => accounts.session(request.ctx.caller));
});
