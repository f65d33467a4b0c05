import { Type } from 'typebox';
import { security } from '../http/dr.js';
import { PlainError } from '../http/errors.js';
import { Available, Nothing, arg } from '../shared/app-method.js';
import { operation, signedIn } from '../shared/operation.js';
import { toAppAssistant } from './app-shapes.js';

/**
 * The OIDC domain's declared operations (server/shared/operation.ts): the AI assistants a user connected, for Settings
 * → Connected assistants and for any client with a user token. Open to any signed-in caller: a user sees and
 * disconnects only their own grants, and neither an API client nor an assistant has any (oidc/service.ts refuses
 * them, 403). Errors are `{"error":{"code","message"}}`. The OpenID provider's own endpoints (authorize, token,
 * its sign-in and consent pages) stay plain routes (routes.ts): OpenID Connect fixes their shapes.
 */

const tags = ['assistants'];

const ConnectedAssistant = Type.Object({
  id: Type.String({ description: 'The grant id: what DELETE takes' }),
  client_id: Type.String(),
  client_name: Type.String({ description: 'The name the assistant registered with (not verified)' }),
  client_uri: Type.Union([Type.String(), Type.Null()]),
  redirect_uris: Type.Array(Type.String()),
  scopes: Type.Array(Type.String(), { description: 'What the user approved (the role still limits it)' }),
  connected_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()], { description: 'Last token issued (sign-in or refresh)' }),
  expires_at: Type.Union([Type.String(), Type.Null()]),
});
const AssistantParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });

/** An AI assistant connected through the OIDC login, as Settings lists it (app-shapes.ts). */
export const AppAssistantSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  connected_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
});

export const assistantOperations = {
  /** Newest first; the app's list is Settings' shape (app-shapes.ts), so a browser takes it at the app route. */
  connectedAssistants: operation({
    access: signedIn(),
    run: ({ service, ctx }, _input: undefined) => service.oidc.connectedAssistants(ctx),
    route: {
      method: 'GET', url: '/api/v1/connected-assistants', errors: 'plain',
      schema: {
        operationId: 'listConnectedAssistants', tags,
        summary: 'The AI assistants the calling user has connected (signed in and approved)',
        description: 'A user token (not an assistant\'s token). Newest first.',
        security,
        response: { 200: Type.Object({ data: Type.Array(ConnectedAssistant) }), 401: PlainError, 403: PlainError, 500: PlainError },
      },
      input: () => undefined,
      status: 200,
      headers: { 'cache-control': 'no-store' },
      body: (data) => ({ data }),
    },
    app: {
      args: [], result: Available(Type.Array(AppAssistantSchema)),
      input: () => undefined, output: (list) => ({ available: true as const, value: list.map(toAppAssistant) }),
    },
  }),

  /** Its grant, refresh tokens and live access tokens stop working at once; 404 for a grant that is not the caller's. */
  disconnectAssistant: operation({
    access: signedIn(),
    run: ({ service, ctx }, id: string) => service.oidc.revokeAssistant(ctx, id),
    route: {
      method: 'DELETE', url: '/api/v1/connected-assistants/:id', errors: 'plain',
      schema: {
        operationId: 'disconnectAssistant', tags,
        summary: 'Disconnect an assistant: its grant, refresh tokens and live access tokens stop working at once',
        security,
        params: AssistantParams,
        response: { 204: Type.Null(), 401: PlainError, 403: PlainError, 404: PlainError, 500: PlainError },
      },
      input: (request) => request.params.id,
      status: 204,
    },
    app: { args: [arg('assistantId', AssistantParams.properties.id)], result: Nothing, input: (id) => id, output: () => undefined, viaRoute: {} },
  }),
};
