import { performance } from 'node:perf_hooks';
import { ENVIRONMENT_HEADER, type EnvironmentName } from '../shared/environment.js';
import { type Loop, startLoop } from '../shared/loop.js';
import type { SecretBox } from '../shared/secret-box.js';
import type { Clock } from '../shared/time.js';
import { deliveryHeaders } from './signing.js';
import { type Executor, durable, transaction } from '../db/tx.js';
import { type AttemptResult, type DueDelivery, webhookStore } from './store.js';
import { webhookTransport } from './transport.js';

/** How long finished attempts wait to be written together. */
const FLUSH_DELAY_MS = 5;

/**
 * The most requests in flight to one subscription. Each starts at INITIAL_WINDOW and its window moves between 1 and
 * this (adaptiveWindow): a receiver that answers quickly gets more, a slow or failing one fewer.
 */
export const DEFAULT_MAX_PER_SUBSCRIPTION = 16;
const INITIAL_WINDOW = 4;
/** An answer slower than this, or no 2xx, halves a subscription's window. */
const SLOW_MS = 1000;

/** Delays after the 1st, 2nd, … failed attempt (decisions.md): 8 attempts in all, about 27.5 h. */
export const DEFAULT_RETRY_SCHEDULE_MS = [5, 300, 1800, 7200, 18000, 36000, 36000].map((s) => s * 1000);

export interface DispatcherOptions {
  /** Delay before each retry, in ms; its length is the number of retries. */
  retryScheduleMs?: readonly number[];
  /** ±fraction of random jitter on each scheduled delay (not on Retry-After). Default 0.1. */
  jitter?: number;
  /** An attempt succeeds only with a 2xx within this many ms. Default 15 000. */
  timeoutMs?: number;
  /** How often the dispatcher looks for due work when nothing wakes it. Default 1 000. */
  pollIntervalMs?: number;
  /** Requests in flight at once, across all subscriptions. Default 32. */
  maxConcurrent?: number;
  /** The most requests in flight at once to one subscription (its window's ceiling). Default DEFAULT_MAX_PER_SUBSCRIPTION. */
  maxPerSubscription?: number;
  /** The longest Retry-After honoured, in ms; longer values are capped. Default 24 h. */
  maxRetryAfterMs?: number;
  /**
   * PostgreSQL: how long this process holds a delivery it is sending before another may take it (it died, or hung).
   * Default the larger of 60 s and twice the attempt timeout, so a live attempt always ends (and is written) first.
   */
  leaseMs?: number;
  onError?: (e: unknown) => void;
  /** Named on every delivery (X-Clinic-Desk-Environment), so a receiver can tell sandbox events from live ones. Default production. */
  environment?: EnvironmentName;
}

/** Parses Retry-After (delay seconds or an HTTP date) into a delay in ms, or null. */
export function retryAfterMs(value: string | null, now: Date): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

function describeError(e: unknown, timeoutMs: number): string {
  // node:http's errors carry the code themselves; fetch's (and undici's) in their cause.
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  if (err?.name === 'AbortError') return 'aborted: service stopping';
  const cause = err?.cause ?? err;
  if (cause?.code || cause?.message) return [cause.code, cause.message].filter(Boolean).join(': ').slice(0, 300);
  return String(err?.message ?? e).slice(0, 300);
}

/**
 * How many requests one subscription may have in flight: additive increase, multiplicative decrease (as TCP's
 * congestion window). After a window's worth of quick 2xx answers it grows by one, up to `max`; an answer that is
 * slow (over SLOW_MS) or not a 2xx (a 429 or 503 is the receiver saying it has had enough, a timeout or a refused
 * connection that it cannot keep up) halves it, at most once per window's worth of answers so that one burst of
 * failures does not take it straight to 1.
 */
function adaptiveWindow(max: number) {
  let size = Math.min(INITIAL_WINDOW, max);
  let good = 0;
  let sinceCut = Infinity;
  return {
    get size() {
      return size;
    },
    answered(ok: boolean, latencyMs: number) {
      sinceCut += 1;
      if (ok && latencyMs <= SLOW_MS) {
        good += 1;
        if (good >= size && size < max) {
          size += 1;
          good = 0;
        }
        return;
      }
      good = 0;
      if (sinceCut < size) return;
      size = Math.max(1, Math.floor(size / 2));
      sinceCut = 0;
    },
  };
}

/**
 * Delivers due webhook deliveries from the outbox tables. Each tick claims due rows (at most `maxPerSubscription`
 * requests in flight per subscription and `maxConcurrent` in all) and starts them without waiting: a slow or dead
 * receiver holds only its own few slots, never the tick, other receivers or any API request. When a response
 * arrives its slot is free at once and the loop is woken to fill it; the result joins the next batch write (attempt
 * log + delivery state), and until that write the row stays claimed so it is never sent twice.
 *
 * On PostgreSQL a claim is a lease in the table (`lease_until`, issue 17): a delivery being sent is not due for
 * anybody else until its result is written or the lease runs out, so several instances (and worker processes) share
 * the work and no delivery is sent by two at once. On SQLite (one process) claims stay in memory. A process killed
 * mid-attempt leaves its deliveries pending (on PostgreSQL, until its leases run out) and they go out again:
 * delivery is at least once, and receivers deduplicate on Webhook-Id. What stays per process: the send limits
 * (`sendingPerSub`, `sending`: each instance applies them alone, so a receiver may see N times maxPerSubscription
 * from N instances), the 410 Gone set until the disabling is written, the opened signing keys (a key never changes
 * for a subscription id) and the wake-ups (`wake` after an event is written reaches this process; others find it at
 * their next poll).
 */
export function webhookDispatcher(db: Executor, clock: Clock, box: SecretBox, opts: DispatcherOptions = {}) {
  const store = webhookStore(db);
  const schedule = opts.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS;
  const jitter = opts.jitter ?? 0.1;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const pollMs = opts.pollIntervalMs ?? 1000;
  const leaseMs = opts.leaseMs ?? Math.max(60_000, 2 * timeoutMs);
  const maxConcurrent = opts.maxConcurrent ?? 32;
  const maxPerSub = opts.maxPerSubscription ?? DEFAULT_MAX_PER_SUBSCRIPTION;
  const maxRetryAfter = opts.maxRetryAfterMs ?? 24 * 3600 * 1000;
  const onError = opts.onError ?? ((e: unknown) => console.error('webhook dispatcher:', e));
  const environment = opts.environment ?? 'production';

  // Claimed deliveries: a request in flight, or a result not yet written. Delivery id -> subscription id.
  const inFlight = new Map<string, string>();
  const claimedPerSub = new Map<string, number>();
  // Requests in flight, per subscription and in all: the limits apply to these.
  const sendingPerSub = new Map<string, number>();
  let sending = 0;
  // Subscriptions that answered 410 Gone, until the disabling is written: nothing more is sent to them.
  const gone = new Set<string>();
  const keys = new Map<string, string | null>(); // subscription id -> opened signing key
  const windows = new Map<string, ReturnType<typeof adaptiveWindow>>(); // subscription id -> its concurrency
  const windowOf = (sub: string) => {
    let w = windows.get(sub);
    if (!w) windows.set(sub, (w = adaptiveWindow(maxPerSub)));
    return w;
  };
  const stopping = new AbortController();
  const transport = webhookTransport({ timeoutMs, signal: stopping.signal });
  let loop: Loop | null = null;
  let stopped = false;
  let soonTimer: NodeJS.Timeout | null = null;
  let soonAt = Infinity;
  const settled = new Set<() => void>();
  const results: { d: DueDelivery; r: AttemptResult }[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  // Batches are written one after the other; stop waits for the last.
  let writing: Promise<void> = Promise.resolve();

  const wake = () => loop?.wake();

  /** Wakes the loop when the earliest pending delivery falls due, if that is before the next poll. */
  async function wakeAtNextDue(now: string) {
    const due = await store.nextDueAfter(now);
    if (!due) return;
    const at = Date.parse(due);
    const inMs = at - clock.now().getTime();
    if (inMs >= pollMs || at >= soonAt) return;
    if (soonTimer) clearTimeout(soonTimer);
    soonAt = at;
    soonTimer = setTimeout(() => {
      soonTimer = null;
      soonAt = Infinity;
      wake();
    }, Math.max(0, inMs));
    soonTimer.unref();
  }

  function signingKey(d: DueDelivery): string | null {
    if (!keys.has(d.subscription_id)) {
      keys.set(d.subscription_id, d.signing_key_sealed === null ? null : box.open(d.signing_key_sealed, subscriptionKeyContext(d.subscription_id)));
    }
    return keys.get(d.subscription_id)!;
  }

  function delayAfterFailure(step: number, retryAfter: number | null): number {
    if (retryAfter !== null) return Math.min(retryAfter, maxRetryAfter);
    const base = schedule[step]!;
    return Math.max(0, Math.round(base * (1 + jitter * (2 * Math.random() - 1))));
  }

  /** One attempt; resolves with its result, or null when the dispatcher stopped meanwhile. */
  async function attempt(d: DueDelivery): Promise<AttemptResult | null> {
    const t = Math.floor(clock.now().getTime() / 1000);
    const startedAt = clock.now().toISOString();
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    let retryAfter: number | null = null;
    try {
      const headers = { ...deliveryHeaders(d.event_id, t, d.payload, signingKey(d)), [ENVIRONMENT_HEADER]: environment };
      const res = await transport.post(d.endpoint, headers, d.payload);
      status = res.status;
      retryAfter = retryAfterMs(res.retryAfter, clock.now());
      if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (e) {
      error = describeError(e, timeoutMs);
    }
    // Stopping: the database may be closing. The row is still pending and will be sent again on the next start.
    if (stopped) return null;
    const latencyMs = Math.round(performance.now() - started);
    const ok = status !== null && status >= 200 && status < 300;
    windowOf(d.subscription_id).answered(ok, latencyMs);
    let next: AttemptResult['next'];
    if (ok) next = { status: 'delivered', retryStep: d.retry_step, nextAttemptAt: null };
    else if (status === 410) next = { status: 'disabled', retryStep: d.retry_step, nextAttemptAt: null };
    else if (d.retry_step >= schedule.length) next = { status: 'failed', retryStep: d.retry_step, nextAttemptAt: null };
    else {
      const delay = delayAfterFailure(d.retry_step, retryAfter);
      next = { status: 'pending', retryStep: d.retry_step + 1, nextAttemptAt: new Date(clock.now().getTime() + delay).toISOString() };
    }
    return { deliveryId: d.id, at: startedAt, status, latencyMs, error, next };
  }

  const bump = (m: Map<string, number>, key: string, by: number) => {
    const n = (m.get(key) ?? 0) + by;
    if (n > 0) m.set(key, n);
    else m.delete(key);
  };

  /** The request is over: its slot can take the next delivery. */
  function sent(d: DueDelivery) {
    sending -= 1;
    bump(sendingPerSub, d.subscription_id, -1);
  }

  /** The delivery is no longer claimed: written, or left pending to be claimed again. */
  function release(d: DueDelivery) {
    inFlight.delete(d.id);
    bump(claimedPerSub, d.subscription_id, -1);
  }

  /**
   * Results are written in batches, one transaction for all attempts that ended within a few ms, and without
   * waiting for the disk (`durable: false`; the next change's commit takes them along): on SQLite a commit's fsync
   * holds the one thread that also answers the API, for milliseconds. A result lost to a crash of the machine
   * leaves its delivery pending, to be sent again: at least once, as after a kill. A delivery stays claimed until
   * its result is written, so it is never claimed twice.
   */
  function flush(): Promise<void> {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    if (results.length === 0) return writing;
    const batch = results.splice(0);
    writing = writing.then(() => write(batch));
    return writing;
  }

  async function write(batch: typeof results) {
    try {
      await transaction(db, async (tx) => {
        const inTx = webhookStore(tx);
        for (const { d, r } of batch) {
          await inTx.recordAttempt(r);
          if (r.status === 410) await inTx.disableSubscription(d.subscription_id, 'endpoint answered 410 Gone', r.at);
        }
      }, { durable: false });
    } catch (e) {
      // Not recorded: those deliveries are still pending and will be attempted again.
      onError(e);
    }
    for (const { d, r } of batch) {
      release(d);
      if (r.status === 410) gone.delete(d.subscription_id);
    }
    for (const f of settled) f();
    if (!stopped) wake();
  }

  function launch(d: DueDelivery) {
    inFlight.set(d.id, d.subscription_id);
    bump(claimedPerSub, d.subscription_id, 1);
    sending += 1;
    bump(sendingPerSub, d.subscription_id, 1);
    void attempt(d).then(
      (r) => {
        sent(d);
        if (r === null) return release(d);
        if (r.status === 410) gone.add(d.subscription_id);
        results.push({ d, r });
        flushTimer ??= setTimeout(() => void flush(), FLUSH_DELAY_MS);
        wake();
      },
      (e: unknown) => {
        sent(d);
        release(d);
        // Not written: give it back now rather than when its lease runs out.
        if (db.dialect === 'postgres') void store.releaseClaims([d.id]).catch(onError);
        onError(e);
        if (!stopped) wake();
      },
    );
  }

  /**
   * Up to `limit` of a subscription's due deliveries, taken for this process. On PostgreSQL, where several instances
   * share the table, each is leased in it, the candidates locked (SKIP LOCKED) in the claim's transaction so that
   * instances claiming at once take different rows. A SQLite database has one process: its claims stay in memory
   * (`inFlight`), which costs no write (an fsync per claim would slow a burst's deliveries several times over).
   */
  async function claimDue(sub: string, now: string, limit: number): Promise<DueDelivery[]> {
    if (db.dialect === 'sqlite') {
      // Claimed rows are still due in the table: the query passes over them (before reading their payloads).
      const claimed = claimedPerSub.has(sub) ? [...inFlight].filter(([, s]) => s === sub).map(([id]) => id) : [];
      const due = await store.dueFor(sub, now, limit, { except: claimed });
      // A poll may read an event whose commit is still being flushed (group commit): it is sent once on disk. Left out
      // as it was read: a delivery in flight then may be written and released meanwhile, and its row read is stale.
      await durable(db);
      return due;
    }
    return transaction(db, async (tx) => {
      const inTx = webhookStore(tx);
      const due = await inTx.dueFor(sub, now, limit, { skipLocked: true });
      const taken = await inTx.claim(due.map((d) => d.id), now, new Date(Date.parse(now) + leaseMs).toISOString());
      return due.filter((d) => taken.has(d.id));
    });
  }

  /** Claims and starts due deliveries; never waits for one to finish. */
  async function tick() {
    if (stopped) return;
    const now = clock.now().toISOString();
    for (const { subscription_id: sub } of await store.dueSubscriptions(now)) {
      const free = maxConcurrent - sending;
      if (free <= 0) break;
      const room = Math.min(windowOf(sub).size - (sendingPerSub.get(sub) ?? 0), free);
      if (room <= 0 || gone.has(sub)) continue;
      for (const d of await claimDue(sub, now, room)) launch(d);
    }
    await wakeAtNextDue(now);
  }

  return {
    start() {
      if (loop || stopped) return;
      loop = startLoop({ intervalMs: pollMs, tick, onError });
    },
    /** Look for due work now (after an event is written, or in tests after moving the clock). */
    wake,
    /** Forgets a subscription's cached key (after it is deleted). */
    forget(subscriptionId: string) {
      keys.delete(subscriptionId);
      windows.delete(subscriptionId);
    },
    /** Attempts in flight right now. */
    inFlight: () => inFlight.size,
    /** Resolves once nothing is in flight (tests). */
    idle(): Promise<void> {
      if (inFlight.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const f = () => {
          if (inFlight.size === 0) {
            settled.delete(f);
            resolve();
          }
        };
        settled.add(f);
      });
    },
    /**
     * Stops, so the database can close once it resolves: writes the results already in, aborts attempts in flight
     * and writes nothing more. Aborted deliveries are still pending and go out again on the next start.
     */
    async stop() {
      if (stopped) return;
      stopped = true;
      if (soonTimer) clearTimeout(soonTimer);
      stopping.abort();
      await flush();
      await loop?.stop();
      transport.close();
      // Aborted attempts are written nowhere: their deliveries go back to whoever claims next, now.
      if (db.dialect === 'postgres' && db.open) await store.releaseClaims([...inFlight.keys()]).catch(onError);
    },
  };
}
export type WebhookDispatcher = ReturnType<typeof webhookDispatcher>;

/** The SecretBox context a subscription's signing key is sealed under: a copied ciphertext opens nowhere else. */
export const subscriptionKeyContext = (subscriptionId: string) => `webhook_signing_key:${subscriptionId}`;
