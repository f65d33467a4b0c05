import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { arg } from '../shared/app-method.js';
import { type AlsoCheck, guard, operation, signedIn } from '../shared/operation.js';
import { UserParams } from './app-schemas.js';
import { Clinic, ClinicBody, Profile, ProfileBody, profilesOf } from './profile.js';

/**
 * What a prescription prints, declared once (server/shared/operation.ts): a user's profile, which is the user's own
 * or an admin's business, and the clinic's name and address. GET/PUT /api/v1/users/{user_id}/profile and GET/PUT
 * /api/v1/clinic; errors `{"error":{"code","message"}}`. A browser calls them on these routes (generated).
 */

const tags = ['admin'];
const userId = arg('userId', UserParams.properties.user_id);

/**
 * Any signed-in user, for their own profile; an admin, for anybody's in the clinic: checked with the caller, before
 * the body is read (403, audited as a denied read or update). profile.ts holds the same rule for the app's calls.
 */
const selfOrAdmin = (write: boolean): AlsoCheck => ({ service, ctx }, path) =>
  profilesOf(service).requireSelfOrAdmin(ctx, String(path.user_id), write);

export const profileOperations = {
  userProfile: operation({
    access: signedIn(selfOrAdmin(false)),
    run: ({ service, ctx }, id: string) => profilesOf(service).get(ctx, id),
    route: {
      method: 'GET', url: '/api/v1/users/:user_id/profile', errors: 'plain',
      schema: { operationId: 'getUserProfile', tags, security, params: UserParams, summary: 'A user\'s prescription profile (the user or an admin)', response: { 200: Profile, ...plainErrors([400, 401, 403, 404, 500]) } },
      input: (request) => request.params.user_id,
      status: 200,
      body: (profile) => profile,
    },
    app: { args: [userId], result: Profile, input: (id) => id, output: (profile) => profile, viaRoute: {} },
  }),

  setUserProfile: operation({
    access: signedIn(selfOrAdmin(true)),
    run: ({ service, ctx }, { id, body }: { id: string; body: ProfileBody }) => profilesOf(service).set(ctx, id, body),
    route: {
      method: 'PUT', url: '/api/v1/users/:user_id/profile', errors: 'plain',
      schema: {
        operationId: 'setUserProfile', tags, security, params: UserParams, body: ProfileBody,
        summary: 'Set qualification and registration number (the user themself or an admin); a field left out is unchanged, null clears it',
        response: { 200: Profile, ...plainErrors([400, 401, 403, 404, 500]) },
      },
      input: (request) => ({ id: request.params.user_id, body: request.body }),
      status: 200,
      body: (profile) => profile,
    },
    app: { args: [userId, arg('body', ProfileBody)], result: Profile, input: (id, body) => ({ id, body }), output: (profile) => profile, viaRoute: {} },
  }),

  // Every staff role (admin, doctor, reception) holds appointments:read; the display role does not: it reads the board only.
  clinicProfile: operation({
    access: guard('appointments:read', { code: 'FORBIDDEN', audit: 'workspace.read' }),
    run: ({ service, ctx }, _input: undefined) => profilesOf(service).clinic(ctx),
    route: {
      method: 'GET', url: '/api/v1/clinic', errors: 'plain',
      schema: { operationId: 'getClinic', tags, security, summary: 'The clinic\'s name and address, as a prescription prints them (every role but display)', response: { 200: Clinic, ...plainErrors([401, 403, 500]) } },
      input: () => undefined,
      status: 200,
      body: (clinic) => clinic,
    },
    app: { args: [], result: Clinic, input: () => undefined, output: (clinic) => clinic, viaRoute: {} },
  }),

  setClinicProfile: operation({
    access: guard('admin', { code: 'FORBIDDEN', audit: 'workspace.update' }),
    run: ({ service, ctx }, body: ClinicBody) => profilesOf(service).setClinic(ctx, body),
    route: {
      method: 'PUT', url: '/api/v1/clinic', errors: 'plain',
      schema: { operationId: 'setClinic', tags, security, body: ClinicBody, summary: 'Set the clinic\'s address (admins)', response: { 200: Clinic, ...plainErrors([400, 401, 403, 500]) } },
      input: (request) => request.body,
      status: 200,
      body: (clinic) => clinic,
    },
    app: { args: [arg('body', ClinicBody)], result: Clinic, input: (body) => body, output: (clinic) => clinic, viaRoute: {} },
  }),
};
