import { Type } from 'typebox';
import { Available, arg } from '../shared/app-method.js';
import { guard, operation } from '../shared/operation.js';
import { desktopSandboxOf } from './desktop.js';

/**
 * Settings → Sandbox, admins only, each operation declared once (server/shared/operation.ts): the app process runs
 * the sandbox beside its live service (desktop.ts), so these are app methods of the desktop app, with no public
 * route; a browser's transport says where the sandbox is turned on (`inTransport`). The sandbox's own reset route,
 * which any sandbox credential may call, belongs to the sandbox's service (sandbox.ts).
 */

const access = guard('admin', { code: 'FORBIDDEN', audit: 'sandbox.access' });

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

export const sandboxOperations = {
  sandboxStatus: operation({
    access,
    run: async ({ service }, _input: undefined) => desktopSandboxOf(service).state(),
    app: {
      args: [], result: Available(SandboxStatusSchema), input: () => undefined, output: (value) => ({ available: true as const, value }),
      inTransport: true,
    },
  }),

  setSandboxEnabled: operation({
    access,
    async run({ service, ctx }, on: boolean) {
      const s = await desktopSandboxOf(service).setEnabled(on);
      service.audit.later(ctx, { action: on ? 'sandbox.enable' : 'sandbox.disable', resourceType: 'sandbox', outcome: s.problem ? 'error' : 'success' });
      return s;
    },
    app: { args: [arg('enabled', Type.Boolean())], result: SandboxStatusSchema, input: (on) => on, output: (s) => s, inTransport: true },
  }),

  resetSandbox: operation({
    access,
    async run({ service, ctx }, _input: undefined) {
      const s = await desktopSandboxOf(service).reset();
      service.audit.later(ctx, { action: 'sandbox.reset', resourceType: 'sandbox', outcome: 'success' });
      return s;
    },
    app: { args: [], result: SandboxStatusSchema, input: () => undefined, output: (s) => s, inTransport: true },
  }),
};
