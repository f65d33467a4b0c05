import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticate, requireScope } from '../http/auth.js';
import type { Service } from '../service.js';
import {
  Created, CreateSubscriptionBody, Deleted, DeliveriesQuery, DeliveryList, DeliveryParams, Redelivered, SubscriptionList,
  SubscriptionParams, WebhookError,
} from './schemas.js';

const BASE = '/notification/v1/connect/webhook/subscriptions';
const security = [{ bearer: [] }];
const errors = (statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, WebhookError]));

/** Endpoint 5 (webhook subscriptions) and the delivery log with manual redelivery. Bearer token, scope webhooks. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  const { audit, webhooks } = service;
  app.addHook('onRequest', authenticate(service));
  const config = { errors: 'webhook' as const };
  const preParsing = requireScope('webhooks', 'INVALID_REQUEST', audit, 'webhook.access');

  app.post(BASE, {
    config,
    preParsing,
    schema: {
      operationId: 'createWebhookSubscription',
      tags: ['webhooks'],
      summary: 'Register a webhook subscription',
      description: 'endpoint must be https, or http on a loopback address. One subscription per endpoint in a workspace.',
      security,
      body: CreateSubscriptionBody,
      response: { 201: Created, ...errors([400, 401, 403, 500]) },
    },
  }, async (request, reply) => {
    const id = await webhooks.create(request.ctx, request.body);
    return reply.code(201).send({ id, status: 'success' as const });
  });

  app.get(BASE, {
    config,
    preParsing,
    schema: {
      operationId: 'listWebhookSubscriptions',
      tags: ['webhooks'],
      summary: 'List the workspace\'s webhook subscriptions (signing keys are never returned)',
      security,
      response: { 200: SubscriptionList, ...errors([401, 403, 500]) },
    },
  }, async (request) => ({ data: await webhooks.list(request.ctx), msg: 'success' as const }));

  app.delete(`${BASE}/:id`, {
    config,
    preParsing,
    schema: {
      operationId: 'deleteWebhookSubscription',
      tags: ['webhooks'],
      summary: 'Delete a webhook subscription; its pending deliveries are cancelled',
      security,
      params: SubscriptionParams,
      response: { 200: Deleted, ...errors([401, 403, 404, 500]) },
    },
  }, async (request) => {
    await webhooks.remove(request.ctx, request.params.id);
    return { status: 'webhook deleted successfully' as const, msg: 'success' as const };
  });

  app.get(`${BASE}/:id/deliveries`, {
    config,
    preParsing,
    schema: {
      operationId: 'listWebhookDeliveries',
      tags: ['webhooks'],
      summary: 'Recent deliveries of a subscription, newest first, with every attempt',
      security,
      params: SubscriptionParams,
      querystring: DeliveriesQuery,
      response: { 200: DeliveryList, ...errors([400, 401, 403, 404, 500]) },
    },
  }, async (request) => {
    const { limit, status } = request.query;
    const { subscription, deliveries } = await webhooks.deliveries(request.ctx, request.params.id, { limit: limit ? Number(limit) : undefined, status });
    return { subscription, data: deliveries, msg: 'success' as const };
  });

  app.post(`${BASE}/:id/deliveries/:delivery_id/redeliver`, {
    config,
    preParsing,
    schema: {
      operationId: 'redeliverWebhook',
      tags: ['webhooks'],
      summary: 'Send a delivered or failed delivery again (same Webhook-Id and body)',
      security,
      params: DeliveryParams,
      response: { 202: Redelivered, ...errors([400, 401, 403, 404, 500]) },
    },
  }, async (request, reply) => {
    await webhooks.redeliver(request.ctx, request.params.id, request.params.delivery_id);
    return reply.code(202).send({ id: request.params.delivery_id, status: 'queued' as const, msg: 'success' as const });
  });
};
