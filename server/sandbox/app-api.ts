import { Type } from 'typebox';
import { Available, arg, appMethod } from '../shared/app-method.js';
import { desktopSandboxOf } from './desktop.js';

/** Settings → Sandbox as the desktop app shows it (desktop.ts SandboxState). */
export const SandboxStatusSchema = Type.Object({
  enabled: Type.Boolean(),
  url: Type.Union([Type.String(), Type.Null()]),
  problem: Type.Union([Type.String(), Type.Null()]),
  credentialsFile: Type.String(),
  credentials: Type.Union([
    Type.Object({ api_key: Type.String(), client_id: Type.String(), client_secret: Type.String(), seeded_at: Type.String() }),
    Type.Null(),
  ]),
});

/**
 * Settings → Sandbox (server/shared/app-method.ts), admins only: the app process runs the sandbox beside its live
 * service (desktop.ts), so these work in the desktop app; a browser's transport says where to turn it on.
 */
export const sandboxMethods = {
  sandboxStatus: appMethod({
    args: [], result: Available(SandboxStatusSchema), access: 'admin',
    run: (c) => ({ available: true as const, value: desktopSandboxOf(c.service).state() }),
  }),
  setSandboxEnabled: appMethod({
    args: [arg('enabled', Type.Boolean())], result: SandboxStatusSchema, access: 'admin',
    async run(c, on) {
      const state = await desktopSandboxOf(c.service).setEnabled(on);
      c.service.audit.later(c.ctx, { action: on ? 'sandbox.enable' : 'sandbox.disable', resourceType: 'sandbox', outcome: state.problem ? 'error' : 'success' });
      return state;
    },
  }),
  resetSandbox: appMethod({
    args: [], result: SandboxStatusSchema, access: 'admin',
    async run(c) {
      const state = await desktopSandboxOf(c.service).reset();
      c.service.audit.later(c.ctx, { action: 'sandbox.reset', resourceType: 'sandbox', outcome: 'success' });
      return state;
    },
  }),
};
