import { sql } from 'kysely';
import { insertionOrder } from '../db/sql.js';
import { type Executor, transaction } from '../db/tx.js';

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

// The columns of webhook_subscriptions and webhook_deliveries in SQLite's table order, named rather than `*`: on
// PostgreSQL webhook_deliveries also has `seq` (the rowid's stand-in), which no row of this domain carries.
const SUB_COLUMNS = sql.raw(`id, workspace_id, client_id, event_names, endpoint, protocol, signing_key_sealed, status,
  disabled_reason, created_at, updated_at, deleted_at, fhir`);
const deliveryColumns = (alias: string) =>
  sql.raw(['id', 'event_id', 'subscription_id', 'workspace_id', 'status', 'attempts', 'retry_step', 'next_attempt_at', 'last_status',
    'last_error', 'created_at', 'updated_at', 'delivered_at'].map((c) => `${alias}.${c}`).join(', '));
const DELIVERY_COLUMNS = deliveryColumns('d');

/**
 * A list padded to a power of two with its last item (harmless in IN and NOT IN): lists of up to N items then make
 * at most log2(N) + 1 texts for SQLite's statement cache, not N.
 */
function padded(items: readonly string[]): string[] {
  const out = [...items];
  while (out.length & (out.length - 1)) out.push(out[out.length - 1]!);
  return out;
}

/** The most attempts recordAttempts writes with one pair of statements. */
const RESULT_CHUNK = 64;
/** The largest power of two, at most RESULT_CHUNK, that is no more than n (n >= 1). */
const chunkOf = (n: number) => Math.min(RESULT_CHUNK, 2 ** Math.floor(Math.log2(n)));

/** How many rows an UPDATE changed: Kysely answers a bigint on both databases. */
const changed = (r: { numAffectedRows?: bigint }) => (r.numAffectedRows ?? 0n) > 0n;

export interface DueForOptions {
  /**
   * PostgreSQL: lock the rows returned (FOR UPDATE OF d SKIP LOCKED) until the caller's transaction ends, so that
   * another instance's claim skips them; run it on a transaction's executor. SQLite has no row locks and needs none
   * (one process, and a transaction holds the database's write lock from BEGIN IMMEDIATE): nothing is added there.
   */
  skipLocked?: boolean;
  /** Deliveries to leave out: those this process has claimed already (SQLite, where claims stay in memory). */
  except?: readonly string[];
}

// Only PostgreSQL leases a delivery being sent (`claim`); on SQLite, one process, claims stay in memory and
// lease_until is always NULL. Asked there, it was a table read for every pending row at each look for due work:
// without it, dueSubscriptions reads the due index alone.
const unleased = (e: Executor, now: string) => (e.dialect === 'postgres' ? sql` AND (lease_until IS NULL OR lease_until <= ${now})` : sql``);

/** Ends a subscription's pending deliveries as `status` (cancelled or disabled), keeping an earlier error when `error` is null. */
const endPending = (tx: Executor, subscriptionId: string, status: 'cancelled' | 'disabled', error: string | null, at: string) =>
  sql`UPDATE webhook_deliveries SET status = ${status}, next_attempt_at = NULL, last_error = COALESCE(${error}, last_error),
    updated_at = ${at} WHERE subscription_id = ${subscriptionId} AND status = 'pending'`.execute(tx.k);

/**
 * All SQL of the webhooks domain, for SQLite and PostgreSQL alike (server/db/sql.ts says how): every statement runs
 * on `e.k`, the database's Kysely or the open transaction's, so a store made from a transaction (`webhookStore(tx)`)
 * writes inside it.
 */
export function webhookStore(e: Executor) {
  const k = e.k;
  const seq = insertionOrder(e.dialect, 'd');
  return {
    async insertSubscription(s: SubscriptionRow) {
      await sql`INSERT INTO webhook_subscriptions (id, workspace_id, client_id, event_names, endpoint, protocol,
        signing_key_sealed, fhir, status, disabled_reason, created_at, updated_at, deleted_at) VALUES (${s.id}, ${s.workspace_id},
        ${s.client_id}, ${s.event_names}, ${s.endpoint}, ${s.protocol}, ${s.signing_key_sealed}, ${s.fhir}, ${s.status},
        ${s.disabled_reason}, ${s.created_at}, ${s.updated_at}, ${s.deleted_at})`.execute(k);
    },
    async subscriptions(workspaceId: string) {
      return (await sql<SubscriptionRow>`SELECT ${SUB_COLUMNS} FROM webhook_subscriptions
        WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL ORDER BY created_at, id`.execute(k)).rows;
    },
    async subscription(workspaceId: string, id: string) {
      return (await sql<SubscriptionRow>`SELECT ${SUB_COLUMNS} FROM webhook_subscriptions
        WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL`.execute(k)).rows[0];
    },
    async subscriptionById(id: string) {
      return (await sql<SubscriptionRow>`SELECT ${SUB_COLUMNS} FROM webhook_subscriptions WHERE id = ${id}`.execute(k)).rows[0];
    },
    async endpointTaken(workspaceId: string, endpoint: string) {
      return (await sql`SELECT id FROM webhook_subscriptions WHERE workspace_id = ${workspaceId} AND endpoint = ${endpoint}
        AND deleted_at IS NULL`.execute(k)).rows.length > 0;
    },
    /**
     * The subscriptions an event may fan out to, by endpoint: the order SQLite always gave (it reads them through the
     * endpoint index), now said, so PostgreSQL writes the deliveries in the same order.
     */
    async activeSubscriptions(workspaceId: string) {
      return (await sql<Pick<SubscriptionRow, 'id' | 'event_names' | 'fhir' | 'endpoint' | 'signing_key_sealed'>>`SELECT id, event_names, fhir,
        endpoint, signing_key_sealed FROM webhook_subscriptions
        WHERE workspace_id = ${workspaceId} AND status = 'active' AND deleted_at IS NULL ORDER BY endpoint`.execute(k)).rows;
    },
    /** Soft-deletes a subscription and cancels its pending deliveries. */
    deleteSubscription(id: string, at: string) {
      return transaction(e, async (tx) => {
        const ok = changed(await sql`UPDATE webhook_subscriptions SET deleted_at = ${at}, updated_at = ${at}
          WHERE id = ${id} AND deleted_at IS NULL`.execute(tx.k));
        if (ok) await endPending(tx, id, 'cancelled', 'subscription deleted', at);
        return ok;
      });
    },
    /** Disables a subscription (410 Gone) and stops its pending deliveries. */
    disableSubscription(id: string, reason: string, at: string) {
      return transaction(e, async (tx) => {
        const ok = changed(await sql`UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = ${reason}, updated_at = ${at}
          WHERE id = ${id} AND status = 'active'`.execute(tx.k));
        if (ok) await endPending(tx, id, 'disabled', reason, at);
      });
    },
    async insertEvent(event: EventRow) {
      await sql`INSERT INTO webhook_events (id, workspace_id, type, payload, created_at)
        VALUES (${event.id}, ${event.workspace_id}, ${event.type}, ${event.payload}, ${event.created_at})`.execute(k);
    },
    async insertDelivery(id: string, eventId: string, subscriptionId: string, workspaceId: string, at: string) {
      await sql`INSERT INTO webhook_deliveries (id, event_id, subscription_id, workspace_id, status, attempts, retry_step,
        next_attempt_at, created_at, updated_at) VALUES (${id}, ${eventId}, ${subscriptionId}, ${workspaceId}, 'pending', 0, 0,
        ${at}, ${at}, ${at})`.execute(k);
    },
    /** The subscriptions with a pending delivery due at `now`, the longest-waiting first, and how many each has due. */
    async dueSubscriptions(now: string) {
      return (await sql<{ subscription_id: string; due: string; n: number }>`SELECT subscription_id, MIN(next_attempt_at) AS due,
        CAST(COUNT(*) AS INTEGER) AS n FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= ${now}${unleased(e, now)}
        GROUP BY subscription_id ORDER BY due, subscription_id`.execute(k)).rows;
    },
    /**
     * A subscription's due deliveries, oldest due first and then in insertion order, with what sending needs. One
     * table's rows (d) are what a claim takes, so the query can lock them alone (`skipLocked`, PostgreSQL). Those
     * in `except` are passed over before their event's payload is read.
     */
    async dueFor(subscriptionId: string, now: string, limit: number, opts: DueForOptions = {}) {
      return (await sql<DueDelivery>`SELECT d.id, d.event_id, d.subscription_id, d.retry_step, ev.payload, s.endpoint, s.signing_key_sealed
        FROM webhook_deliveries d
        JOIN webhook_events ev ON ev.id = d.event_id
        JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE d.subscription_id = ${subscriptionId} AND d.status = 'pending' AND d.next_attempt_at <= ${now}${unleased(e, now)}
          AND s.status = 'active' AND s.deleted_at IS NULL${
          opts.except?.length ? sql` AND d.id NOT IN (${sql.join(padded(opts.except))})` : sql``}
        ORDER BY d.next_attempt_at, ${seq} LIMIT ${limit}${
          opts.skipLocked && e.dialect === 'postgres' ? sql` FOR UPDATE OF d SKIP LOCKED` : sql``}`.execute(k)).rows;
    },
    /**
     * Takes due deliveries for this process until `leaseUntil` (issue 17: several instances): only those still
     * pending, due and not held by another lease; answers the ids taken. With dueFor's row locks inside one
     * transaction on PostgreSQL, two instances never take the same row; the compare here keeps that true anywhere.
     */
    async claim(ids: string[], now: string, leaseUntil: string): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const { rows } = await sql<{ id: string }>`UPDATE webhook_deliveries SET lease_until = ${leaseUntil}
        WHERE id IN (${sql.join(ids)}) AND status = 'pending' AND next_attempt_at <= ${now}
          AND (lease_until IS NULL OR lease_until <= ${now}) RETURNING id`.execute(k);
      return new Set(rows.map((r) => r.id));
    },
    /**
     * Gives deliveries back before their lease runs out: those of `ids` still held by the lease this process wrote
     * (`leaseUntil`), so that a lease another instance took after this one's ran out is left alone.
     */
    async releaseClaims(ids: readonly string[], leaseUntil: string) {
      if (ids.length) {
        await sql`UPDATE webhook_deliveries SET lease_until = NULL WHERE id IN (${sql.join(ids)}) AND lease_until = ${leaseUntil}`.execute(k);
      }
    },
    /** The earliest time a pending delivery falls due after `now`. */
    async nextDueAfter(now: string) {
      return (await sql<{ due: string | null }>`SELECT MIN(next_attempt_at) AS due FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at > ${now}`.execute(k)).rows[0]!.due;
    },
    /** Logs an attempt and moves its delivery on; a delivery no longer pending (deleted meanwhile) stays as it is. */
    recordAttempt(r: AttemptResult) {
      return this.recordAttempts([r]);
    },
    /**
     * recordAttempt for several attempts (of different deliveries) in two statements per chunk instead of two per
     * attempt: the attempts' rows in one INSERT, in the order given (their ids follow it), and their deliveries moved
     * on by one UPDATE joined to the results. Chunks are powers of two (at most log2(RESULT_CHUNK) + 1 texts for
     * SQLite's statement cache). Run it in a transaction: a chunk's failure leaves the earlier chunks written.
     */
    async recordAttempts(results: readonly AttemptResult[]) {
      for (let at = 0; at < results.length;) {
        const n = chunkOf(results.length - at);
        const chunk = results.slice(at, at + n);
        at += n;
        await sql`INSERT INTO webhook_attempts (delivery_id, at, status, latency_ms, error) VALUES ${sql.join(chunk.map((r) =>
          sql`(${r.deliveryId}, ${r.at}, ${r.status}, ${r.latencyMs}, ${r.error})`))}`.execute(k);
        // delivered_at is this attempt's time when it delivered, and stays as it was otherwise. The casts: PostgreSQL
        // types a VALUES list's parameters as text.
        await sql`WITH r (id, status, retry_step, next_attempt_at, last_status, last_error, at, delivered_at) AS (VALUES ${sql.join(chunk.map((r) =>
          sql`(${r.deliveryId}, ${r.next.status}, CAST(${r.next.retryStep} AS INTEGER), ${r.next.nextAttemptAt}, CAST(${r.status} AS INTEGER),
            ${r.error}, ${r.at}, ${r.next.status === 'delivered' ? r.at : null})`))})
          UPDATE webhook_deliveries SET status = r.status, attempts = webhook_deliveries.attempts + 1, retry_step = r.retry_step,
            next_attempt_at = r.next_attempt_at, last_status = r.last_status, last_error = r.last_error, updated_at = r.at, lease_until = NULL,
            delivered_at = COALESCE(r.delivered_at, webhook_deliveries.delivered_at)
          FROM r WHERE webhook_deliveries.id = r.id AND webhook_deliveries.status = 'pending'`.execute(k);
      }
    },
    /** A subscription's deliveries, newest first (insertion order among those written at the same instant). */
    async recentDeliveries(subscriptionId: string, limit: number, status?: DeliveryStatus) {
      return (await sql<DeliveryRow & { event_type: string }>`SELECT ${DELIVERY_COLUMNS}, ev.type AS event_type
        FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
        WHERE d.subscription_id = ${subscriptionId}${status ? sql` AND d.status = ${status}` : sql``}
        ORDER BY d.created_at DESC, ${seq} DESC LIMIT ${limit}`.execute(k)).rows;
    },
    async delivery(subscriptionId: string, id: string) {
      return (await sql<DeliveryRow>`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
        WHERE d.id = ${id} AND d.subscription_id = ${subscriptionId}`.execute(k)).rows[0];
    },
    async attempts(deliveryId: string) {
      return (await sql<AttemptRow>`SELECT id, delivery_id, at, status, latency_ms, error FROM webhook_attempts
        WHERE delivery_id = ${deliveryId} ORDER BY id`.execute(k)).rows;
    },
    /** The attempts of several deliveries in one query: delivery id -> its attempts, oldest first ([] for none). */
    async attemptsOf(deliveryIds: readonly string[]): Promise<Map<string, AttemptRow[]>> {
      const out = new Map<string, AttemptRow[]>(deliveryIds.map((id) => [id, []]));
      if (deliveryIds.length === 0) return out;
      // Padded: a page of up to 200 deliveries makes at most 9 texts.
      const { rows } = await sql<AttemptRow>`SELECT id, delivery_id, at, status, latency_ms, error FROM webhook_attempts
        WHERE delivery_id IN (${sql.join(padded(deliveryIds))}) ORDER BY id`.execute(k);
      for (const a of rows) out.get(a.delivery_id)!.push(a);
      return out;
    },
    async requeue(id: string, at: string) {
      return changed(await sql`UPDATE webhook_deliveries SET status = 'pending', retry_step = 0, next_attempt_at = ${at}, updated_at = ${at}
        WHERE id = ${id} AND status IN ('delivered', 'failed', 'disabled')`.execute(k));
    },
  };
}
export type WebhookStore = ReturnType<typeof webhookStore>;
