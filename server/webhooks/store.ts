import { type Executor, perConnection, transaction } from '../db/tx.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'disabled' | 'cancelled';

export interface SubscriptionRow {
  id: string;
  workspace_id: string;
  client_id: string;
  event_names: string;
  endpoint: string;
  protocol: 'https' | 'http';
  signing_key_sealed: string | null;
  /** 1: note events carry the note's FHIR bundle (data.fhir). */
  fhir: 0 | 1;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface EventRow {
  id: string;
  workspace_id: string;
  type: string;
  payload: string;
  created_at: string;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  subscription_id: string;
  workspace_id: string;
  status: DeliveryStatus;
  attempts: number;
  retry_step: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

/** A due delivery with what sending it needs. */
export interface DueDelivery {
  id: string;
  event_id: string;
  subscription_id: string;
  retry_step: number;
  payload: string;
  endpoint: string;
  signing_key_sealed: string | null;
}

export interface AttemptRow {
  id: number;
  delivery_id: string;
  at: string;
  status: number | null;
  latency_ms: number;
  error: string | null;
}

/** The outcome of one attempt, as it is written back. */
export interface AttemptResult {
  deliveryId: string;
  at: string;
  status: number | null;
  latencyMs: number;
  error: string | null;
  /** The delivery's state after this attempt. */
  next: { status: 'delivered' | 'failed' | 'disabled' | 'pending'; retryStep: number; nextAttemptAt: string | null };
}

const statements = perConnection((db) => ({
  insertSub: db.prepare(`INSERT INTO webhook_subscriptions (id, workspace_id, client_id, event_names, endpoint, protocol,
    signing_key_sealed, fhir, status, disabled_reason, created_at, updated_at, deleted_at) VALUES (@id, @workspace_id, @client_id,
    @event_names, @endpoint, @protocol, @signing_key_sealed, @fhir, @status, @disabled_reason, @created_at, @updated_at, @deleted_at)`),
  liveSubs: db.prepare(`SELECT * FROM webhook_subscriptions WHERE workspace_id = ? AND deleted_at IS NULL ORDER BY created_at, id`),
  liveSub: db.prepare(`SELECT * FROM webhook_subscriptions WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL`),
  subById: db.prepare(`SELECT * FROM webhook_subscriptions WHERE id = ?`),
  liveByEndpoint: db.prepare(`SELECT id FROM webhook_subscriptions WHERE workspace_id = ? AND endpoint = ? AND deleted_at IS NULL`),
  activeSubs: db.prepare(`SELECT id, event_names, fhir FROM webhook_subscriptions
    WHERE workspace_id = ? AND status = 'active' AND deleted_at IS NULL`),
  deleteSub: db.prepare(`UPDATE webhook_subscriptions SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL`),
  disableSub: db.prepare(`UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = ?, updated_at = ?
    WHERE id = ? AND status = 'active'`),
  endPending: db.prepare(`UPDATE webhook_deliveries SET status = ?, next_attempt_at = NULL, last_error = COALESCE(?, last_error),
    updated_at = ? WHERE subscription_id = ? AND status = 'pending'`),
  insertEvent: db.prepare(`INSERT INTO webhook_events (id, workspace_id, type, payload, created_at)
    VALUES (@id, @workspace_id, @type, @payload, @created_at)`),
  insertDelivery: db.prepare(`INSERT INTO webhook_deliveries (id, event_id, subscription_id, workspace_id, status, attempts,
    retry_step, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'pending', 0, 0, ?, ?, ?)`),
  dueSubs: db.prepare(`SELECT subscription_id, MIN(next_attempt_at) AS due FROM webhook_deliveries
    WHERE status = 'pending' AND next_attempt_at <= ? GROUP BY subscription_id ORDER BY due`),
  dueFor: db.prepare(`SELECT d.id, d.event_id, d.subscription_id, d.retry_step, e.payload, s.endpoint, s.signing_key_sealed
    FROM webhook_deliveries d
    JOIN webhook_events e ON e.id = d.event_id
    JOIN webhook_subscriptions s ON s.id = d.subscription_id
    WHERE d.subscription_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ?
      AND s.status = 'active' AND s.deleted_at IS NULL
    ORDER BY d.next_attempt_at, d.rowid LIMIT ?`),
  nextDue: db.prepare(`SELECT MIN(next_attempt_at) AS due FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at > ?`),
  insertAttempt: db.prepare(`INSERT INTO webhook_attempts (delivery_id, at, status, latency_ms, error) VALUES (?, ?, ?, ?, ?)`),
  settle: db.prepare(`UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1, retry_step = @retry_step,
    next_attempt_at = @next_attempt_at, last_status = @last_status, last_error = @last_error, updated_at = @at,
    delivered_at = CASE WHEN @status = 'delivered' THEN @at ELSE delivered_at END
    WHERE id = @id AND status = 'pending'`),
  recent: db.prepare(`SELECT d.*, e.type AS event_type FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
    WHERE d.subscription_id = ? ORDER BY d.created_at DESC, d.rowid DESC LIMIT ?`),
  recentWithStatus: db.prepare(`SELECT d.*, e.type AS event_type FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
    WHERE d.subscription_id = ? AND d.status = ? ORDER BY d.created_at DESC, d.rowid DESC LIMIT ?`),
  delivery: db.prepare(`SELECT * FROM webhook_deliveries WHERE id = ? AND subscription_id = ?`),
  attempts: db.prepare(`SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY id`),
  requeue: db.prepare(`UPDATE webhook_deliveries SET status = 'pending', retry_step = 0, next_attempt_at = ?, updated_at = ?
    WHERE id = ? AND status IN ('delivered', 'failed', 'disabled')`),
}));

/** All SQL of the webhooks domain. */
export function webhookStore(e: Executor) {
  const q = statements(e);

  return {
    insertSubscription: async (s: SubscriptionRow) => void q.insertSub.run(s),
    subscriptions: async (workspaceId: string) => q.liveSubs.all(workspaceId) as SubscriptionRow[],
    subscription: async (workspaceId: string, id: string) => q.liveSub.get(id, workspaceId) as SubscriptionRow | undefined,
    subscriptionById: async (id: string) => q.subById.get(id) as SubscriptionRow | undefined,
    endpointTaken: async (workspaceId: string, endpoint: string) => q.liveByEndpoint.get(workspaceId, endpoint) !== undefined,
    activeSubscriptions: async (workspaceId: string) => q.activeSubs.all(workspaceId) as Pick<SubscriptionRow, 'id' | 'event_names' | 'fhir'>[],
    /** Soft-deletes a subscription and cancels its pending deliveries. */
    deleteSubscription: (id: string, at: string) => transaction(e, async () => {
      const changed = q.deleteSub.run(at, at, id).changes > 0;
      if (changed) q.endPending.run('cancelled', 'subscription deleted', at, id);
      return changed;
    }),
    /** Disables a subscription (410 Gone) and stops its pending deliveries. */
    disableSubscription: (id: string, reason: string, at: string) => transaction(e, async () => {
      if (q.disableSub.run(reason, at, id).changes > 0) q.endPending.run('disabled', reason, at, id);
    }),
    insertEvent: async (event: EventRow) => void q.insertEvent.run(event),
    insertDelivery: async (id: string, eventId: string, subscriptionId: string, workspaceId: string, at: string) =>
      void q.insertDelivery.run(id, eventId, subscriptionId, workspaceId, at, at, at),
    dueSubscriptions: async (now: string) => q.dueSubs.all(now) as { subscription_id: string; due: string }[],
    dueFor: async (subscriptionId: string, now: string, limit: number) => q.dueFor.all(subscriptionId, now, limit) as DueDelivery[],
    /** The earliest time a pending delivery falls due after `now`. */
    nextDueAfter: async (now: string) => (q.nextDue.get(now) as { due: string | null }).due,
    /** Logs an attempt and moves its delivery on; a delivery no longer pending (deleted meanwhile) stays as it is. */
    async recordAttempt(r: AttemptResult) {
      q.insertAttempt.run(r.deliveryId, r.at, r.status, r.latencyMs, r.error);
      q.settle.run({
        id: r.deliveryId, status: r.next.status, retry_step: r.next.retryStep, next_attempt_at: r.next.nextAttemptAt,
        last_status: r.status, last_error: r.error, at: r.at,
      });
    },
    recentDeliveries: async (subscriptionId: string, limit: number, status?: DeliveryStatus) =>
      (status ? q.recentWithStatus.all(subscriptionId, status, limit) : q.recent.all(subscriptionId, limit)) as (DeliveryRow & { event_type: string })[],
    delivery: async (subscriptionId: string, id: string) => q.delivery.get(id, subscriptionId) as DeliveryRow | undefined,
    attempts: async (deliveryId: string) => q.attempts.all(deliveryId) as AttemptRow[],
    requeue: async (id: string, at: string) => q.requeue.run(at, at, id).changes > 0,
  };
}
export type WebhookStore = ReturnType<typeof webhookStore>;
