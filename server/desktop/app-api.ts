import { Type } from 'typebox';
import { appAccounts } from '../auth/app-accounts.js';
import type { AnonymousContext, RequestContext } from '../auth/permissions.js';
import { type AnyoneCall, Available, arg, appMethod } from '../shared/app-method.js';
import { ServiceError } from '../shared/errors.js';

/**
 * Methods only the desktop app's process can carry out, over what its host offers (server/shared/app-method.ts
 * AppHost): where the host lacks the part (the browser's transport, a service without the app), they say so. App
 * methods, not declared operations (server/shared/operation.ts), on purpose: they act on the app process, which no
 * route or tool reaches, and the first-run pair has no caller to guard.
 */
export const CLINIC_SERVER_IN_APP = 'A browser uses the clinic server whose address it opened; the desktop app chooses its server in Settings → Server.';
export const CLINIC_EXISTS = "This computer already has a clinic: only that clinic's admin can point the app at a clinic server, in Settings → Server.";

/** Whoever is at a computer that has no clinic yet: there is no account to name. */
const FIRST_RUN: AnonymousContext = { caller: null, ip: null, requestId: null };

const address = arg('address', Type.String({ minLength: 1, maxLength: 2048 }));
const choiceResult = Available(Type.Object({ choiceFile: Type.String() }));

/**
 * The switch itself, audited in the name of who asked. Only the checked origin is recorded: what was typed may
 * hold a password, and a refused try keeps it out of the log.
 */
async function switchServer(c: AnyoneCall, ctx: RequestContext | AnonymousContext, typed: string) {
  if (!c.host.clinicServer) throw new ServiceError(501, 'NOT_AVAILABLE', CLINIC_SERVER_IN_APP);
  const audit = (outcome: 'success' | 'invalid' | 'error', origin?: string) =>
    c.service.audit.later(ctx, { action: 'app.use_clinic_server', resourceType: 'app', resourceIds: origin ? [origin] : undefined, outcome });
  try {
    const chosen = await c.host.clinicServer.use(typed);
    audit('success', chosen.url);
    return chosen;
  } catch (e) {
    audit(e instanceof ServiceError && e.status === 400 ? 'invalid' : 'error');
    throw e;
  }
}

/** The first-run condition setup uses: no clinic on this computer's database yet. */
const firstRun = async (c: AnyoneCall) => (await appAccounts(c.service).setupStatus()).needed;

export const desktopMethods = {
  /** Settings → Server → "Use a clinic server": shown when the app can switch, with where it keeps the choice. */
  clinicServerChoice: appMethod({
    args: [], result: choiceResult, access: 'admin',
    run: (c) => c.host.clinicServer
      ? { available: true as const, value: { choiceFile: c.host.clinicServer.choiceFile } }
      : { available: false as const, reason: CLINIC_SERVER_IN_APP },
  }),
  /**
   * Points this app at a chain's clinic server (issue 17 item 5): the address is checked and probed first, then
   * the app restarts on it and its own service stops. Admins only: it decides where every later sign-in goes.
   */
  useClinicServer: appMethod({
    args: [address], result: Type.Object({ url: Type.String() }), access: 'admin',
    run: (c, typed) => switchServer(c, c.ctx, typed),
  }),
  /** The first-run screen's "Join a clinic server": offered while this computer has no clinic, in the app only. */
  joinClinicServerChoice: appMethod({
    args: [], result: choiceResult, access: 'anyone',
    async run(c) {
      if (!c.host.clinicServer) return { available: false as const, reason: CLINIC_SERVER_IN_APP };
      if (!(await firstRun(c))) return { available: false as const, reason: CLINIC_EXISTS };
      return { available: true as const, value: { choiceFile: c.host.clinicServer.choiceFile } };
    },
  }),
  /**
   * useClinicServer for a new branch computer, before anyone has an account on it: a chain's new PC should not
   * have to create a clinic and an admin it will never use. Anyone may, while no clinic exists here (as anyone
   * may create the first one); once one does, its data is behind this switch and only its admin decides.
   */
  joinClinicServer: appMethod({
    args: [address], result: Type.Object({ url: Type.String() }), access: 'anyone',
    async run(c, typed) {
      if (!c.host.clinicServer) throw new ServiceError(501, 'NOT_AVAILABLE', CLINIC_SERVER_IN_APP);
      if (!(await firstRun(c))) {
        c.service.audit.later(FIRST_RUN, { action: 'app.use_clinic_server', resourceType: 'app', outcome: 'denied' });
        throw new ServiceError(403, 'FORBIDDEN', CLINIC_EXISTS);
      }
      return switchServer(c, FIRST_RUN, typed);
    },
  }),
};
