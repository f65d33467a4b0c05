import { randomUUID } from 'node:crypto';
import type { AuditLog } from '../audit/service.js';
import type { ChangeBus } from '../db/change-bus.js';
import type { RequestContext } from '../auth/permissions.js';
import { type Executor, transaction } from '../db/tx.js';
import { ServiceError, invalid } from '../shared/errors.js';
import type { SecretBox } from '../shared/secret-box.js';
import { type Clock, isoNow } from '../shared/time.js';
import { type DispatcherOptions, subscriptionKeyContext, webhookDispatcher } from './dispatcher.js';
import { EVENT_NAMES, type EventSink, NOTE_EVENTS, isEventName, isNoteEvent, outbox } from './outbox.js';
import { type DeliveryStatus, type SubscriptionRow, webhookStore } from './store.js';
import { wakeOtherInstances } from './wake-instances.js';

export interface WebhookOptions extends DispatcherOptions {
  /** false: write the outbox but send nothing (one-shot CLI tools). Default true. */
  dispatch?: boolean;
  /** A chain's change bus: wakes the other instances' dispatchers when this one writes events (wake-instances.ts). */
  bus?: ChangeBus;
}

export interface CreateSubscriptionInput {
  event_names: string[];
  endpoint: string;
  signing_key?: string;
  protocol?: string;
  fhir?: boolean;
}

const notFound = () => new ServiceError(404, 'INVALID_REQUEST', 'No webhook subscription with this id');

const isLoopbackHost = (host: string) =>
  host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** The endpoint as stored (normalised, no fragment) and its scheme; https anywhere, http only on loopback. */
export function checkEndpoint(raw: string): { endpoint: string; protocol: 'https' | 'http' } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid('endpoint is not a valid absolute URL');
  }
  if (url.username || url.password) throw invalid('endpoint must not carry credentials; use signing_key to authenticate deliveries');
  if (url.protocol === 'https:') {
    url.hash = '';
    return { endpoint: url.href, protocol: 'https' };
  }
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) {
    url.hash = '';
    return { endpoint: url.href, protocol: 'http' };
  }
  throw invalid('endpoint must be an https URL (plain http is allowed only on a loopback address, such as http://127.0.0.1)');
}

const toSubscription = (s: SubscriptionRow) => ({
  id: s.id,
  event_names: JSON.parse(s.event_names) as string[],
  endpoint: s.endpoint,
  protocol: s.protocol,
  client_id: s.client_id,
  // Only when asked for: a list entry otherwise keeps the upstream platform's exact shape.
  ...(s.fhir ? { fhir: true as const } : {}),
  created_at: s.created_at,
  updated_at: s.updated_at,
});

/**
 * Webhook subscriptions, the outbox that domains raise events into, and the dispatcher that delivers them.
 * Subscriptions belong to a workspace: every lookup is by (workspace, id), and another workspace's id is a 404.
 */
export function webhookService(db: Executor, clock: Clock, box: SecretBox, audit: AuditLog, opts: WebhookOptions = {}) {
  const store = webhookStore(db);
  const dispatcher = webhookDispatcher(db, clock, box, opts);
  const wakeOthers = wakeOtherInstances(opts.bus, db.dialect, () => dispatcher.wake());
  const events: EventSink = outbox(clock, (written, onDisk) => {
    dispatcher.offer(written, onDisk);
    wakeOthers();
  });

  async function create(ctx: RequestContext, input: CreateSubscriptionInput) {
    const ws = ctx.caller.workspaceId;
    const names = [...new Set(input.event_names)];
    if (names.length === 0) throw invalid('event_names must name at least one event');
    const unknown = names.filter((n) => !isEventName(n));
    if (unknown.length) throw invalid(`Unknown event name ${unknown.map((n) => `"${n}"`).join(', ')}; known events: ${EVENT_NAMES.join(', ')}`);
    if (input.protocol !== undefined && !/^https?$/i.test(input.protocol)) throw invalid('protocol must be https (or http for a loopback endpoint)');
    if (input.signing_key === '') throw invalid('signing_key must not be empty; omit it for unsigned deliveries');
    if (input.fhir && !names.some(isNoteEvent)) throw invalid(`fhir applies to ${NOTE_EVENTS.join(' and ')} events, and event_names names neither`);
    const { endpoint, protocol } = checkEndpoint(input.endpoint);
    const id = randomUUID();
    const now = isoNow(clock);
    const sealed = input.signing_key === undefined ? null : box.seal(input.signing_key, subscriptionKeyContext(id));
    const created = await transaction(db, async (tx) => {
      const inTx = webhookStore(tx);
      if (await inTx.endpointTaken(ws, endpoint)) return false;
      await inTx.insertSubscription({
        id, workspace_id: ws, client_id: ctx.caller.id, event_names: JSON.stringify(names), endpoint, protocol,
        signing_key_sealed: sealed, fhir: input.fhir ? 1 : 0, status: 'active', disabled_reason: null, created_at: now, updated_at: now, deleted_at: null,
      });
      await audit.inTransaction(tx, ctx, { action: 'webhook.create', resourceType: 'webhook_subscription', resourceIds: [id], outcome: 'success' });
      return true;
    });
    if (!created) {
      audit.later(ctx, { action: 'webhook.create', resourceType: 'webhook_subscription', outcome: 'conflict' });
      throw invalid('A webhook subscription for this endpoint already exists in this workspace');
    }
    return id;
  }

  const list = async (ctx: RequestContext) => (await store.subscriptions(ctx.caller.workspaceId)).map(toSubscription);

  async function live(ctx: RequestContext, id: string) {
    const s = await store.subscription(ctx.caller.workspaceId, id);
    if (!s) throw notFound();
    return s;
  }

  async function remove(ctx: RequestContext, id: string) {
    const s = await live(ctx, id);
    const removed = await transaction(db, async (tx) => {
      const ok = await webhookStore(tx).deleteSubscription(s.id, isoNow(clock));
      if (ok) await audit.inTransaction(tx, ctx, { action: 'webhook.delete', resourceType: 'webhook_subscription', resourceIds: [s.id], outcome: 'success' });
      return ok;
    });
    if (!removed) throw notFound();
    dispatcher.forget(s.id);
  }

  /** Recent deliveries of a subscription, newest first, each with its attempts. */
  async function deliveries(ctx: RequestContext, id: string, query: { limit?: number; status?: DeliveryStatus } = {}) {
    const s = await live(ctx, id);
    const rows = await store.recentDeliveries(s.id, query.limit ?? 50, query.status);
    // One query for all rows' attempts, not one per row: on PostgreSQL each would be a round trip of its own.
    const attempts = await store.attemptsOf(rows.map((d) => d.id));
    return {
      subscription: { id: s.id, status: s.status, disabled_reason: s.disabled_reason },
      deliveries: rows.map((d) => ({
        id: d.id,
        event_id: d.event_id,
        event_name: d.event_type,
        status: d.status,
        attempts: d.attempts,
        next_attempt_at: d.next_attempt_at,
        last_status: d.last_status,
        last_error: d.last_error,
        created_at: d.created_at,
        updated_at: d.updated_at,
        delivered_at: d.delivered_at,
        attempt_log: attempts.get(d.id)!.map((a) => ({ at: a.at, status: a.status, latency_ms: a.latency_ms, error: a.error })),
      })),
    };
  }

  /** Sends a delivered, failed or disabled delivery again, with the same Webhook-Id and body, from retry step 0. */
  async function redeliver(ctx: RequestContext, id: string, deliveryId: string) {
    const s = await live(ctx, id);
    if (s.status !== 'active') throw invalid('This subscription is disabled (its endpoint answered 410 Gone); delete it and subscribe again');
    const d = await store.delivery(s.id, deliveryId);
    if (!d) throw new ServiceError(404, 'INVALID_REQUEST', 'No delivery with this id for this subscription');
    const requeued = await transaction(db, async (tx) => {
      const ok = await webhookStore(tx).requeue(d.id, isoNow(clock));
      if (ok) await audit.inTransaction(tx, ctx, { action: 'webhook.redeliver', resourceType: 'webhook_delivery', resourceIds: [d.id], outcome: 'success' });
      return ok;
    });
    if (!requeued) throw invalid(`The delivery is ${d.status}; only a delivered, failed or disabled delivery can be redelivered`);
    dispatcher.wake();
  }

  return {
    create,
    list,
    remove,
    deliveries,
    redeliver,
    /** Raise an event, inside the transaction of the change that raised it. */
    emit: events.emit,
    events,
    dispatcher,
    start() {
      if (opts.dispatch !== false) dispatcher.start();
    },
    stop: () => dispatcher.stop(),
  };
}
export type WebhookService = ReturnType<typeof webhookService>;
