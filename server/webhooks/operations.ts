import { type Static, Type } from 'typebox';
import { Nothing, arg } from '../shared/app-method.js';
import { guard, operation } from '../shared/operation.js';
import {
  Created, CreateSubscriptionBody, Deleted, DeliveriesQuery, Delivery, DeliveryList, DeliveryParams, Nullable, Redelivered, Subscription,
  SubscriptionList, SubscriptionParams, WebhookError,
} from './schemas.js';

/**
 * The webhooks domain's operations, each declared once (server/shared/operation.ts): endpoint 5 (webhook
 * subscriptions) and the delivery log with manual redelivery, bearer token, scope webhooks; and Settings → Webhooks
 * in the app. The order is the routes' (and the OpenAPI document's).
 */

// The route family's refusals (docs/API.md): every error of endpoint 5 is INVALID_REQUEST or SERVER_ERROR.
const access = guard('webhooks', { code: 'INVALID_REQUEST', audit: 'webhook.access' });

const BASE = '/notification/v1/connect/webhook/subscriptions';
const security = [{ bearer: [] }];
const errors = (statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, WebhookError]));

/** Whether Clinic Desk still sends to a subscription: a receiver that answers 410 Gone disables it for good. */
export const WebhookStateSchema = Type.Object({
  status: DeliveryList.properties.subscription.properties.status,
  disabled_reason: DeliveryList.properties.subscription.properties.disabled_reason,
});

/**
 * A list entry of the HTTP API (whose shape is the upstream platform's and has no state) with the state the
 * deliveries route reports, so the list can say which subscriptions were disabled.
 */
export const WebhookSubscriptionSchema = Type.Object({
  ...Subscription.properties, ...WebhookStateSchema.properties,
  failing: Nullable(Type.String({ description: 'Why deliveries are failing (failingOf), or null' })),
});

export const WebhookDeliveriesSchema = Type.Object({
  subscription: DeliveryList.properties.subscription,
  deliveries: Type.Array(Delivery),
});

/**
 * Why a subscription's deliveries are failing, from its newest delivery, or null while they are not: one that gave up
 * or is being retried after a failed attempt. The list shows it instead of "Active", which only says Clinic Desk
 * still sends, not that anything arrives.
 */
function failingOf(newest: Static<typeof Delivery> | undefined): string | null {
  if (!newest || !(newest.status === 'failed' || (newest.status === 'pending' && newest.attempts > 0))) return null;
  const answer = newest.last_error ?? (newest.last_status !== null ? `the receiver answered ${newest.last_status}` : 'no answer');
  return `${newest.status === 'failed' ? 'The last delivery failed' : 'Retrying the last delivery'}: ${answer}`;
}

const subscriptionId = arg('subscriptionId', SubscriptionParams.properties.id);

/** A subscription's deliveries as asked for: the route's filters, none from the app. */
interface DeliveriesOf {
  id: string;
  limit?: number;
  status?: Static<typeof DeliveriesQuery>['status'];
}

export const webhookOperations = {
  /** The app's list: the route's entries with each one's state and whether its deliveries are failing. */
  webhooks: operation({
    access,
    async run({ service: { webhooks }, ctx }, _input: undefined) {
      // The list's shape is the HTTP API's (no state); the deliveries read, limited to one row, adds it.
      const out = [];
      for (const s of await webhooks.list(ctx)) {
        const { subscription: { status, disabled_reason }, deliveries: [newest] } = await webhooks.deliveries(ctx, s.id, { limit: 1 });
        out.push({ ...s, status, disabled_reason, failing: failingOf(newest) });
      }
      return out;
    },
    app: { args: [], result: Type.Array(WebhookSubscriptionSchema), input: () => undefined, output: (list) => list },
  }),

  createWebhook: operation({
    access,
    run: ({ service, ctx }, input: Static<typeof CreateSubscriptionBody>) => service.webhooks.create(ctx, input),
    route: {
      method: 'POST', url: BASE, errors: 'webhook',
      schema: {
        operationId: 'createWebhookSubscription',
        tags: ['webhooks'],
        summary: 'Register a webhook subscription',
        description: 'endpoint must be https, or http on a loopback address. One subscription per endpoint in a workspace.',
        security,
        body: CreateSubscriptionBody,
        response: { 201: Created, ...errors([400, 401, 403, 500]) },
      },
      input: (request) => request.body,
      status: 201,
      body: (id) => ({ id, status: 'success' as const }),
    },
    app: { args: [arg('input', CreateSubscriptionBody)], result: Type.Object({ id: Type.String() }), input: (input) => input, output: (id) => ({ id }) },
  }),

  listWebhookSubscriptions: operation({
    access,
    run: ({ service, ctx }, _input: undefined) => service.webhooks.list(ctx),
    route: {
      method: 'GET', url: BASE, errors: 'webhook',
      schema: {
        operationId: 'listWebhookSubscriptions',
        tags: ['webhooks'],
        summary: 'List the workspace\'s webhook subscriptions (signing keys are never returned)',
        security,
        response: { 200: SubscriptionList, ...errors([401, 403, 500]) },
      },
      input: () => undefined,
      status: 200,
      body: (data) => ({ data, msg: 'success' as const }),
    },
  }),

  deleteWebhook: operation({
    access,
    run: ({ service, ctx }, id: string) => service.webhooks.remove(ctx, id),
    route: {
      method: 'DELETE', url: `${BASE}/:id`, errors: 'webhook',
      schema: {
        operationId: 'deleteWebhookSubscription',
        tags: ['webhooks'],
        summary: 'Delete a webhook subscription; its pending deliveries are cancelled',
        security,
        params: SubscriptionParams,
        response: { 200: Deleted, ...errors([401, 403, 404, 500]) },
      },
      input: (request) => request.params.id,
      status: 200,
      body: () => ({ status: 'webhook deleted successfully' as const, msg: 'success' as const }),
    },
    app: { args: [subscriptionId], result: Nothing, input: (id) => id, output: () => undefined },
  }),

  webhookDeliveries: operation({
    access,
    run: ({ service, ctx }, { id, ...query }: DeliveriesOf) => service.webhooks.deliveries(ctx, id, query),
    route: {
      method: 'GET', url: `${BASE}/:id/deliveries`, errors: 'webhook',
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: ['webhooks'],
        summary: 'Recent deliveries of a subscription, newest first, with every attempt',
        security,
        params: SubscriptionParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList, ...errors([400, 401, 403, 404, 500]) },
      },
      input: ({ params, query: { limit, status } }) => ({ id: params.id, limit: limit ? Number(limit) : undefined, status }),
      status: 200,
      body: ({ subscription, deliveries }) => ({ subscription, data: deliveries, msg: 'success' as const }),
    },
    app: { args: [subscriptionId], result: WebhookDeliveriesSchema, input: (id) => ({ id }), output: (d) => d },
  }),

  redeliverWebhook: operation({
    access,
    run: ({ service, ctx }, { id, deliveryId }: { id: string; deliveryId: string }) => service.webhooks.redeliver(ctx, id, deliveryId),
    route: {
      method: 'POST', url: `${BASE}/:id/deliveries/:delivery_id/redeliver`, errors: 'webhook',
      schema: {
        operationId: 'redeliverWebhook',
        tags: ['webhooks'],
        summary: 'Send a delivered or failed delivery again (same Webhook-Id and body)',
        security,
        params: DeliveryParams,
        response: { 202: Redelivered, ...errors([400, 401, 403, 404, 500]) },
      },
      input: (request) => ({ id: request.params.id, deliveryId: request.params.delivery_id }),
      status: 202,
      body: (_none, request) => ({ id: request.params.delivery_id, status: 'queued' as const, msg: 'success' as const }),
    },
    app: {
      args: [subscriptionId, arg('deliveryId', DeliveryParams.properties.delivery_id)], result: Nothing,
      input: (id, deliveryId) => ({ id, deliveryId }), output: () => undefined,
    },
  }),
};
