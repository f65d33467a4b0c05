import { Type } from 'typebox';
import { Nothing, arg, appMethod } from '../shared/app-method.js';
import { failingOf } from './app-shapes.js';
import { CreateSubscriptionBody, Delivery, DeliveryList, DeliveryParams, Nullable, Subscription, SubscriptionParams } from './schemas.js';

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
  failing: Nullable(Type.String({ description: 'Why deliveries are failing (webhooks/app-shapes.ts failingOf), or null' })),
});

export const WebhookDeliveriesSchema = Type.Object({
  subscription: DeliveryList.properties.subscription,
  deliveries: Type.Array(Delivery),
});

const subscriptionId = arg('subscriptionId', SubscriptionParams.properties.id);

/** Settings → Webhooks (server/shared/app-method.ts). */
export const webhookMethods = {
  webhooks: appMethod({
    args: [], result: Type.Array(WebhookSubscriptionSchema), access: 'webhooks',
    async run(c) {
      const { webhooks } = c.service;
      // The list's shape is the HTTP API's (no state); the deliveries read, limited to one row, adds it.
      const out = [];
      for (const s of await webhooks.list(c.ctx)) {
        const { subscription: { status, disabled_reason }, deliveries: [newest] } = await webhooks.deliveries(c.ctx, s.id, { limit: 1 });
        out.push({ ...s, status, disabled_reason, failing: failingOf(newest) });
      }
      return out;
    },
  }),
  createWebhook: appMethod({
    args: [arg('input', CreateSubscriptionBody)], result: Type.Object({ id: Type.String() }), access: 'webhooks',
    run: async (c, input) => ({ id: await c.service.webhooks.create(c.ctx, input) }),
  }),
  deleteWebhook: appMethod({
    args: [subscriptionId], result: Nothing, access: 'webhooks',
    run: async (c, id) => void (await c.service.webhooks.remove(c.ctx, id)),
  }),
  webhookDeliveries: appMethod({
    args: [subscriptionId], result: WebhookDeliveriesSchema, access: 'webhooks',
    run: (c, id) => c.service.webhooks.deliveries(c.ctx, id),
  }),
  redeliverWebhook: appMethod({
    args: [subscriptionId, arg('deliveryId', DeliveryParams.properties.delivery_id)], result: Nothing, access: 'webhooks',
    run: async (c, id, deliveryId) => void (await c.service.webhooks.redeliver(c.ctx, id, deliveryId)),
  }),
};
