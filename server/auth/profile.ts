import { type Static, Type } from 'typebox';
import type { RouteServices } from '../http/route-plugin.js';
import type { Service } from '../service.js';
import { ServiceError } from '../shared/errors.js';
import { Line, Text } from '../shared/text.js';
import { transaction } from '../db/tx.js';
import type { RequestContext } from './permissions.js';
import { type ProfileRow, authStore } from './store.js';

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

const instances = new WeakMap<Service, ReturnType<typeof profiles>>();

/** The profiles of a service, their statements prepared once (profile-operations.ts offers them). */
export function profilesOf(service: Service) {
  let p = instances.get(service);
  if (!p) instances.set(service, (p = profiles(service)));
  return p;
}

/** Profiles over the auth domain's tables (the prescription's columns only; accounts live in app-accounts.ts). */
function profiles({ sql: db, audit }: Pick<RouteServices, 'sql' | 'audit'>) {
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
