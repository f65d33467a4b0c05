import type { Static } from 'typebox';
import type { AppAssistantSchema } from './operations.js';
import type { ConnectedAssistant } from './service.js';

/** An AI assistant connected through the OIDC login, as Settings lists it. Types and mappers only: the renderer bundles this. */
export type AppAssistant = Static<typeof AppAssistantSchema>;

export const toAppAssistant = (a: ConnectedAssistant): AppAssistant =>
  ({ id: a.id, name: a.client_name, scopes: a.scopes, connected_at: a.connected_at, last_used_at: a.last_used_at });
