import { type Static, Type } from 'typebox';
import { checkFirst, requireScope } from '../http/auth.js';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { type RouteServices, routePlugin } from '../http/route-plugin.js';
import { ServiceError } from '../shared/errors.js';
import { Line, Text } from '../shared/text.js';
import { transaction } from '../db/tx.js';
import type { RequestContext } from './permissions.js';
import { type ProfileRow, authStore } from './store.js';
import { UserParams } from './app-schemas.js';

/**
 * What a prescription prints (issue 15): under the doctor's name their qualification and registration number, and
 * at the top the clinic's name and address. A user sets their own; an admin sets anybody's in the clinic, and the
 * clinic's address. Columns of migration 0011.
 */

const Nullable = <T extends ReturnType<typeof Line>>(t: T) => Type.Union([t, Type.Null()]);

export const Profile = Type.Object({
  id: Type.String(),
  display_name: Type.String(),
  role: Type.String(),
  qualification: Type.Union([Type.String(), Type.Null()], { description: 'e.g. MBBS, MD (General Medicine)' }),
  registration_number: Type.Union([Type.String(), Type.Null()], { description: 'Medical council registration, e.g. KMC 12345' }),
});
export const ProfileBody = Type.Object({
  qualification: Type.Optional(Nullable(Line({ minLength: 1, maxLength: 200, notBlank: true }))),
  registration_number: Type.Optional(Nullable(Line({ minLength: 1, maxLength: 64, notBlank: true }))),
});
export type ProfileBody = Static<typeof ProfileBody>;

export const Clinic = Type.Object({
  id: Type.String(),
  name: Type.String(),
  address: Type.Union([Type.String(), Type.Null()], { description: 'As printed at the top of a prescription; lines kept' }),
});
export const ClinicBody = Type.Object({ address: Type.Union([Text({ minLength: 1, maxLength: 500, notBlank: true }), Type.Null()]) });
export type ClinicBody = Static<typeof ClinicBody>;

/** Profiles over the auth domain's tables (the prescription's columns only; accounts live in app-accounts.ts). */
export function profiles({ sql: db, audit }: Pick<RouteServices, 'sql' | 'audit'>) {
  const store = authStore(db);
  const isAdmin = (ctx: RequestContext) => ctx.caller.workspaceActive && ctx.caller.scopes.has('admin');

  /** A user's profile is the user's own or an admin's business; anyone else gets 403 (audited). */
  function requireSelfOrAdmin(ctx: RequestContext, userId: string, write: boolean) {
    const self = ctx.caller.kind === 'user' && ctx.caller.id === userId;
    if (self || isAdmin(ctx)) return;
    audit.later(ctx, { action: write ? 'user.profile.update' : 'user.profile.read', resourceType: 'user', resourceIds: [userId], outcome: 'denied' });
    throw new ServiceError(403, 'FORBIDDEN', 'Only the user themself or an admin of the clinic may do this');
  }

  async function userOf(ctx: RequestContext, userId: string, write: boolean): Promise<ProfileRow> {
    requireSelfOrAdmin(ctx, userId, write);
    const u = await store.profile(userId);
    if (!u || u.workspace_id !== ctx.caller.workspaceId) throw new ServiceError(404, 'NOT_FOUND', 'No such user in your clinic');
    return u;
  }
  const view = (u: ProfileRow) => ({ id: u.id, display_name: u.display_name, role: u.role, qualification: u.qualification, registration_number: u.registration_number });
  const clinic = async (workspaceId: string) => (await store.clinic(workspaceId)) as Static<typeof Clinic>;

  return {
    requireSelfOrAdmin,
    get: async (ctx: RequestContext, userId: string) => view(await userOf(ctx, userId, false)),
    async set(ctx: RequestContext, userId: string, body: ProfileBody) {
      const u = await userOf(ctx, userId, true);
      await transaction(db, async (tx) => {
        await authStore(tx).setProfile(u.id, {
          qualification: body.qualification === undefined ? undefined : body.qualification?.trim() ?? null,
          registration_number: body.registration_number === undefined ? undefined : body.registration_number?.trim() ?? null,
        });
        await audit.inTransaction(tx, ctx, { action: 'user.profile.update', resourceType: 'user', resourceIds: [u.id], outcome: 'success' });
      });
      return view((await store.profile(u.id))!);
    },
    clinic: (ctx: RequestContext) => clinic(ctx.caller.workspaceId),
    async setClinic(ctx: RequestContext, body: ClinicBody) {
      if (!isAdmin(ctx)) {
        audit.later(ctx, { action: 'workspace.update', resourceType: 'workspace', outcome: 'denied' });
        throw new ServiceError(403, 'FORBIDDEN', 'Only an admin of the clinic may change its address');
      }
      await transaction(db, async (tx) => {
        await authStore(tx).setClinicAddress(ctx.caller.workspaceId, body.address?.trim() ?? null);
        await audit.inTransaction(tx, ctx, { action: 'workspace.update', resourceType: 'workspace', resourceIds: [ctx.caller.workspaceId], outcome: 'success' });
      });
      return clinic(ctx.caller.workspaceId);
    },
  };
}

/** GET/PUT /api/v1/users/{user_id}/profile and GET/PUT /api/v1/clinic; errors `{"error":{"code","message"}}`. */
export const profileRoutes = routePlugin('profiles', ['sql', 'audit'], async (app, { sql, audit }) => {
  const p = profiles({ sql, audit });
  const config = { errors: 'plain' as const };
  const tags = ['admin'];
  const selfOrAdmin = (write: boolean) =>
    checkFirst((request) => p.requireSelfOrAdmin(request.ctx, String((request.params as { user_id?: unknown }).user_id), write));

  app.get('/api/v1/users/:user_id/profile', {
    config, preParsing: selfOrAdmin(false),
    schema: { operationId: 'getUserProfile', tags, security, params: UserParams, summary: 'A user\'s prescription profile (the user or an admin)', response: { 200: Profile, ...plainErrors([400, 401, 403, 404, 500]) } },
  }, async (request) => p.get(request.ctx, request.params.user_id));

  app.put('/api/v1/users/:user_id/profile', {
    config, preParsing: selfOrAdmin(true),
    schema: {
      operationId: 'setUserProfile', tags, security, params: UserParams, body: ProfileBody,
      summary: 'Set qualification and registration number (the user themself or an admin); a field left out is unchanged, null clears it',
      response: { 200: Profile, ...plainErrors([400, 401, 403, 404, 500]) },
    },
  }, async (request) => p.set(request.ctx, request.params.user_id, request.body));

  // Every staff role (admin, doctor, reception) holds appointments:read; the display role does not: it reads the board only.
  app.get('/api/v1/clinic', {
    config, preParsing: requireScope('appointments:read', 'FORBIDDEN', audit, 'workspace.read'),
    schema: { operationId: 'getClinic', tags, security, summary: 'The clinic\'s name and address, as a prescription prints them (every role but display)', response: { 200: Clinic, ...plainErrors([401, 403, 500]) } },
  }, async (request) => p.clinic(request.ctx));

  app.put('/api/v1/clinic', {
    config, preParsing: requireScope('admin', 'FORBIDDEN', audit, 'workspace.update'),
    schema: { operationId: 'setClinic', tags, security, body: ClinicBody, summary: 'Set the clinic\'s address (admins)', response: { 200: Clinic, ...plainErrors([400, 401, 403, 500]) } },
  }, async (request) => p.setClinic(request.ctx, request.body));
});
