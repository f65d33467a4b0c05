import { Type } from 'typebox';
import { Available, Nothing, arg, appMethod } from '../shared/app-method.js';
import { toAppAssistant } from './app-shapes.js';

/** An AI assistant connected through the OIDC login, as Settings lists it (app-shapes.ts). */
export const AppAssistantSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  connected_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
});

/** Settings → Connected assistants (server/shared/app-method.ts): the admin's own OIDC grants. */
export const assistantMethods = {
  connectedAssistants: appMethod({
    args: [], result: Available(Type.Array(AppAssistantSchema)), access: 'admin',
    run: async (c) => ({ available: true as const, value: (await c.service.oidc.connectedAssistants(c.ctx)).map(toAppAssistant) }),
  }),
  disconnectAssistant: appMethod({
    args: [arg('assistantId', Type.String({ minLength: 1, maxLength: 128 }))], result: Nothing, access: 'admin',
    run: (c, id) => c.service.oidc.revokeAssistant(c.ctx, id),
  }),
};
