import { type Static, type TSchema, Type } from 'typebox';
import { EVENT_NAMES } from './outbox.js';

export const CreateSubscriptionBody = Type.Object({
  event_names: Type.Array(Type.String({ maxLength: 100 }), {
    minItems: 1, maxItems: 20, description: `Events to receive: ${EVENT_NAMES.join(', ')}`,
  }),
  endpoint: Type.String({
    minLength: 1, maxLength: 2048,
    description: 'https URL that receives the callbacks; plain http only on a loopback address (local integrations)',
  }),
  signing_key: Type.Optional(Type.String({
    maxLength: 512, description: 'Secret for the HMAC-SHA256 signature; stored encrypted and never returned. Omit for unsigned deliveries',
  })),
  protocol: Type.Optional(Type.String({ maxLength: 10, description: 'https (http accepted for a loopback endpoint); the stored value is the endpoint\'s scheme' })),
  fhir: Type.Optional(Type.Boolean({
    description: 'Ours: note.signed and note.amended events carry the note as a FHIR R4 document Bundle in data.fhir (the same document as GET /api/v1/notes/{txn_id}/fhir). Default false',
  })),
});
export type CreateSubscriptionBody = Static<typeof CreateSubscriptionBody>;

export const Created = Type.Object({ id: Type.String(), status: Type.Literal('success') });

export const Subscription = Type.Object({
  id: Type.String(),
  event_names: Type.Array(Type.String()),
  endpoint: Type.String(),
  protocol: Type.String(),
  client_id: Type.String({ description: 'Who created it: the API client\'s client_id, or the user\'s id' }),
  fhir: Type.Optional(Type.Literal(true, { description: 'Present when the subscription asked for FHIR bundles in note events' })),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const SubscriptionList = Type.Object({ data: Type.Array(Subscription), msg: Type.Literal('success') });

export const Deleted = Type.Object({ status: Type.Literal('webhook deleted successfully'), msg: Type.Literal('success') });

export const SubscriptionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  delivery_id: Type.String({ minLength: 1, maxLength: 64 }),
});

const DeliveryStatus = Type.Union([
  Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('disabled'), Type.Literal('cancelled'),
]);

export const DeliveriesQuery = Type.Object({
  limit: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]?|1[0-9][0-9]|200)$', description: '1-200; default 50' })),
  status: Type.Optional(DeliveryStatus),
});

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Delivery = Type.Object({
  id: Type.String(),
  event_id: Type.String({ description: 'The Webhook-Id header, the same on every attempt' }),
  event_name: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Type.String()),
  last_status: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  delivered_at: Nullable(Type.String()),
  attempt_log: Type.Array(Type.Object({
    at: Type.String(),
    status: Nullable(Type.Integer({ description: 'HTTP status; null on timeout or connection failure' })),
    latency_ms: Type.Integer(),
    error: Nullable(Type.String()),
  })),
});

export const DeliveryList = Type.Object({
  subscription: Type.Object({
    id: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
    disabled_reason: Nullable(Type.String()),
  }),
  data: Type.Array(Delivery),
  msg: Type.Literal('success'),
});

export const Redelivered = Type.Object({ id: Type.String(), status: Type.Literal('queued'), msg: Type.Literal('success') });

export const WebhookError = Type.Object({
  error: Type.Object({
    code: Type.Union([Type.Literal('INVALID_REQUEST'), Type.Literal('SERVER_ERROR')]),
    message: Type.String(),
    request_id: Type.Optional(Type.String()),
  }),
});
