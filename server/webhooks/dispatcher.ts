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
 * SQLite: the most deliveries handed over by the outbox (`offer`) kept in memory to be sent; past it they are left
 * to be read from the table, as after a restart.
 */
const MAX_OFFERED = 10_000;
/** SQLite: while offered deliveries are waiting, the table is looked at no more often than this. */
const LOOK_GAP_MS = 20;
/** SQLite: how many delivery ids just written are remembered, so that a late offer of one is not sent again. */
const RECENT_DONE = 4096;

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
 * the work and no delivery is sent by two at once. On SQLite (one process) claims stay in memory, and so do the
 * deliveries the outbox just wrote (`offer`, after their commit is on disk): they are sent from memory, without
 * reading them back, while the table is looked at only when something may be there that memory does not hold (at
 * start, every poll, a retry falling due, a wake from outside, offers past MAX_OFFERED, a result not written), at
 * most every LOOK_GAP_MS while offers wait. The table stays the record: a restart reads everything again. A process killed
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
  // PostgreSQL: the lease written for each claimed delivery (its value, to give back only that lease).
  const leases = new Map<string, string>();
  // PostgreSQL: leases this process may hold in the table for deliveries it no longer holds in memory: a claim whose
  // commit's answer was lost, a result not written, an attempt that did not start, a stop. Delivery id -> lease. Given
  // back (releaseInDoubt) as soon as the database answers, rather than left to run out (leaseMs) with nobody sending.
  const inDoubt = new Map<string, string>();
  // Claimed deliveries whose result is being written, per subscription.
  const writingPerSub = new Map<string, number>();
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
  // SQLite: deliveries the outbox wrote and handed over, not yet claimed, per subscription in the order written.
  const inMemory = db.dialect === 'sqlite';
  const offered = new Map<string, Map<string, DueDelivery>>();
  let offeredCount = 0;
  // Whether an offer came from a commit that need not be durable (none does today): the next sends wait for a flush.
  let offeredNotOnDisk = false;
  // Delivery ids whose result was written lately (a ring): an offer of one of them comes after a look sent it.
  const recentlyDone = new Set<string>();
  const doneRing: string[] = [];
  let doneAt = 0;
  // Whether the table may hold due deliveries that neither memory nor a claim accounts for; and when it was read.
  let lookInDb = true;
  let lastLookAt = -Infinity;
  let lookTimer: NodeJS.Timeout | null = null;
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

  /** Runs a tick soon, to send what memory holds or fill a slot that came free; reads the table only if due to. */
  const kick = () => loop?.wake();
  /** Looks for due work in the table now (from outside: a redelivery, another instance's events, a moved clock). */
  const wake = () => {
    lookInDb = true;
    kick();
  };

  /** Wakes the loop (with a look at the table) when `at` comes, if that is before the next poll. */
  function wakeAt(at: number) {
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

  /** Wakes the loop when the earliest pending delivery falls due, if that is before the next poll. */
  async function wakeAtNextDue(now: string) {
    const due = await store.nextDueAfter(now);
    if (due) wakeAt(Date.parse(due));
  }

  function forgetOffered(sub: string) {
    const m = offered.get(sub);
    if (!m) return;
    offeredCount -= m.size;
    offered.delete(sub);
  }

  /**
   * SQLite: the deliveries an event's transaction wrote, handed over once it committed (and is on disk, when
   * durable): kept to be sent without reading them back. Those already claimed, written lately (a look found them
   * first) or to a subscription that answered 410 are passed over; past MAX_OFFERED the table is read instead.
   * PostgreSQL: a wake-up (claims are leases in the table, which a look takes).
   */
  function offer(written: readonly DueDelivery[], onDisk = false) {
    if (stopped) return;
    if (!inMemory) return wake();
    if (!onDisk) offeredNotOnDisk = true;
    for (const d of written) {
      if (inFlight.has(d.id) || recentlyDone.has(d.id) || gone.has(d.subscription_id)) continue;
      if (offeredCount >= MAX_OFFERED) {
        lookInDb = true;
        break;
      }
      let m = offered.get(d.subscription_id);
      if (!m) offered.set(d.subscription_id, (m = new Map()));
      if (m.has(d.id)) continue;
      m.set(d.id, d);
      offeredCount += 1;
    }
    kick();
  }

  function takeOffered(d: DueDelivery) {
    const m = offered.get(d.subscription_id);
    if (m?.delete(d.id)) {
      offeredCount -= 1;
      if (m.size === 0) offered.delete(d.subscription_id);
    }
  }

  function rememberDone(id: string) {
    if (doneRing.length < RECENT_DONE) doneRing.push(id);
    else {
      recentlyDone.delete(doneRing[doneAt]!);
      doneRing[doneAt] = id;
      doneAt = (doneAt + 1) % RECENT_DONE;
    }
    recentlyDone.add(id);
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

  /** The delivery is no longer claimed: its result is written (which ends its lease). */
  function release(d: DueDelivery) {
    inFlight.delete(d.id);
    leases.delete(d.id);
    bump(claimedPerSub, d.subscription_id, -1);
  }

  /** The delivery is left pending, to be claimed again; on PostgreSQL its lease is given back at the next tick. */
  function unclaim(d: DueDelivery) {
    const lease = leases.get(d.id);
    if (lease !== undefined) inDoubt.set(d.id, lease);
    release(d);
  }

  /** PostgreSQL: gives back the leases in doubt; what the database did not take stays, for the next tick. */
  async function releaseInDoubt() {
    const byLease = new Map<string, string[]>();
    for (const [id, lease] of inDoubt) {
      const ids = byLease.get(lease);
      if (ids) ids.push(id);
      else byLease.set(lease, [id]);
    }
    for (const [lease, ids] of byLease) {
      await store.releaseClaims(ids, lease);
      for (const id of ids) if (inDoubt.get(id) === lease) inDoubt.delete(id);
    }
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
    let written = false;
    for (const { d } of batch) bump(writingPerSub, d.subscription_id, 1);
    try {
      await transaction(db, async (tx) => {
        const inTx = webhookStore(tx);
        await inTx.recordAttempts(batch.map((b) => b.r));
        for (const { d, r } of batch) {
          if (r.status === 410) await inTx.disableSubscription(d.subscription_id, 'endpoint answered 410 Gone', r.at);
        }
      }, { durable: false });
      written = true;
    } catch (e) {
      // Not recorded: those deliveries are still pending and will be attempted again, found by a look at the table.
      lookInDb = true;
      onError(e);
    }
    let retryAt = Infinity;
    for (const { d, r } of batch) {
      if (written) release(d);
      else unclaim(d);
      bump(writingPerSub, d.subscription_id, -1);
      if (inMemory && written) rememberDone(d.id);
      if (r.status === 410) gone.delete(d.subscription_id);
      if (r.next.nextAttemptAt !== null) retryAt = Math.min(retryAt, Date.parse(r.next.nextAttemptAt));
    }
    for (const f of settled) f();
    if (stopped) return;
    // A retry is in the table only: look for it when it falls due.
    if (written && retryAt !== Infinity) wakeAt(retryAt);
    if (written) kick();
    else wake();
  }

  /** Takes a delivery for this process: in flight from now until its result is written (or it is given back). */
  function claimOne(d: DueDelivery) {
    inFlight.set(d.id, d.subscription_id);
    bump(claimedPerSub, d.subscription_id, 1);
    sending += 1;
    bump(sendingPerSub, d.subscription_id, 1);
    if (inMemory) takeOffered(d);
  }

  /** Sends a claimed delivery; its result joins the next batch. */
  function launch(d: DueDelivery) {
    void attempt(d).then(
      (r) => {
        sent(d);
        if (r === null) return unclaim(d);
        if (r.status === 410) {
          gone.add(d.subscription_id);
          forgetOffered(d.subscription_id);
        }
        results.push({ d, r });
        flushTimer ??= setTimeout(() => void flush(), FLUSH_DELAY_MS);
        kick();
      },
      (e: unknown) => {
        sent(d);
        unclaim(d);
        onError(e);
        // Still pending in the table, and held nowhere in memory.
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
  async function claimDue(sub: string, now: string, limit: number): Promise<{ read: number; claimed: DueDelivery[] }> {
    if (inMemory) {
      // Claimed rows are still due in the table: the query passes over them (before reading their payloads).
      const claimed = claimedPerSub.has(sub) ? [...inFlight].filter(([, s]) => s === sub).map(([id]) => id) : [];
      const due = await store.dueFor(sub, now, limit, { except: claimed });
      // Claimed as read (no await between): one that memory's sending claimed meanwhile is passed over.
      const mine = due.filter((d) => !inFlight.has(d.id));
      for (const d of mine) claimOne(d);
      return { read: due.length, claimed: mine };
    }
    const lease = new Date(Date.parse(now) + leaseMs).toISOString();
    let asked: string[] = [];
    let claimed: DueDelivery[];
    try {
      claimed = await transaction(db, async (tx) => {
        const inTx = webhookStore(tx);
        const due = await inTx.dueFor(sub, now, limit, { skipLocked: true });
        asked = due.map((d) => d.id);
        const taken = await inTx.claim(asked, now, lease);
        return due.filter((d) => taken.has(d.id));
      });
    } catch (e) {
      // The commit may have been made though its answer was lost (a terminated session): those leases are in doubt.
      for (const id of asked) inDoubt.set(id, lease);
      throw e;
    }
    for (const d of claimed) {
      claimOne(d);
      leases.set(d.id, lease);
      inDoubt.delete(d.id);
    }
    return { read: claimed.length, claimed };
  }

  /**
   * Claims due deliveries found in the table, up to each subscription's room, into `out` as each is claimed (so that
   * a later step's failure leaves the caller holding them). Answers whether it saw all that was due and unclaimed
   * (every subscription read short of its room): then memory holds everything due until something says otherwise
   * (wake, a retry's time, the next poll).
   */
  async function look(now: string, out: DueDelivery[]): Promise<boolean> {
    lastLookAt = performance.now();
    let complete = true;
    const due = await store.dueSubscriptions(now);
    // SQLite: how many of each subscription's due rows memory does not account for. Those being written may be
    // settled in the table already, so they do not count as accounted for: the figure errs high, never low.
    const unknown = new Map<string, number>();
    if (inMemory) {
      for (const { subscription_id: sub, n } of due) {
        unknown.set(sub, n - ((claimedPerSub.get(sub) ?? 0) - (writingPerSub.get(sub) ?? 0)) - (offered.get(sub)?.size ?? 0));
      }
    }
    for (const { subscription_id: sub } of due) {
      // Every due row of it is claimed or offered: memory sends them, nothing to read.
      if (inMemory && unknown.get(sub)! <= 0) continue;
      const free = maxConcurrent - sending;
      const room = Math.min(windowOf(sub).size - (sendingPerSub.get(sub) ?? 0), free);
      if (room <= 0 || gone.has(sub)) {
        complete = false;
        continue;
      }
      const offeredBefore = new Set(offered.get(sub)?.keys());
      const { read, claimed } = await claimDue(sub, now, room);
      for (const d of claimed) out.push(d);
      if (read < room) continue; // it read all of the subscription's due rows that were not claimed
      const fresh = claimed.filter((d) => !offeredBefore.has(d.id)).length;
      if (!inMemory || unknown.get(sub)! - fresh > 0) complete = false;
    }
    await wakeAtNextDue(now);
    return complete;
  }

  /** SQLite: claims offered deliveries, each subscription's in the order written, up to its room. */
  function claimOffered(out: DueDelivery[]) {
    for (const [sub, m] of offered) {
      const free = maxConcurrent - sending;
      if (free <= 0) return;
      if (gone.has(sub)) {
        forgetOffered(sub);
        continue;
      }
      let room = Math.min(windowOf(sub).size - (sendingPerSub.get(sub) ?? 0), free);
      for (const d of m.values()) {
        if (room <= 0) break;
        if (inFlight.has(d.id)) {
          takeOffered(d);
          continue;
        }
        claimOne(d);
        out.push(d);
        room -= 1;
      }
    }
  }

  /** Claims and starts due deliveries; never waits for one to finish. */
  async function tick() {
    if (stopped) return;
    const now = clock.now().toISOString();
    const claimed: DueDelivery[] = [];
    if (!inMemory) {
      // Leases committed are sent whatever fails after them (their lease would otherwise hold them with nobody sending).
      try {
        if (inDoubt.size) await releaseInDoubt();
        await look(now, claimed);
      } finally {
        for (const d of claimed) launch(d);
      }
      return;
    }
    try {
      const sinceLook = performance.now() - lastLookAt;
      if (sinceLook >= pollMs || (lookInDb && (offeredCount === 0 || sinceLook >= LOOK_GAP_MS))) {
        if (await look(now, claimed)) lookInDb = false;
      } else if (lookInDb && !lookTimer) {
        // Offers are being sent meanwhile; the table's turn comes after the gap.
        lookTimer = setTimeout(() => {
          lookTimer = null;
          kick();
        }, LOOK_GAP_MS - sinceLook);
        lookTimer.unref();
      }
      const read = claimed.length > 0;
      claimOffered(claimed);
      if (claimed.length === 0) return;
      // A row read may be from a commit still being flushed (group commit): sent once it is on disk. Claimed before the
      // wait, so that none is taken twice meanwhile. An offer of a durable transaction's rows comes once its commit is
      // on disk (its afterCommit), so sending it waits for nothing: waiting there for the flush of the commits made
      // since would hold every delivery for one more flush.
      if (read || offeredNotOnDisk) {
        offeredNotOnDisk = false;
        await durable(db);
      }
    } catch (e) {
      // Claimed but not to be sent (not known to be on disk): given back, to be found in the table again.
      for (const d of claimed) {
        sent(d);
        release(d);
      }
      lookInDb = true;
      throw e;
    }
    for (const d of claimed) launch(d);
  }

  return {
    start() {
      if (loop || stopped) return;
      loop = startLoop({ intervalMs: pollMs, tick, onError });
    },
    /** Look for due work in the table now (a redelivery, another instance's events, in tests after moving the clock). */
    wake,
    offer,
    /** Forgets a subscription's cached key (after it is deleted). */
    forget(subscriptionId: string) {
      keys.delete(subscriptionId);
      windows.delete(subscriptionId);
      forgetOffered(subscriptionId);
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
      if (lookTimer) clearTimeout(lookTimer);
      offered.clear();
      offeredCount = 0;
      stopping.abort();
      await flush();
      await loop?.stop();
      transport.close();
      // Aborted attempts are written nowhere: their deliveries go back to whoever claims next, now.
      if (db.dialect === 'postgres' && db.open) {
        for (const [id, lease] of leases) inDoubt.set(id, lease);
        await releaseInDoubt().catch(onError);
      }
    },
  };
}
export type WebhookDispatcher = ReturnType<typeof webhookDispatcher>;

/** The SecretBox context a subscription's signing key is sealed under: a copied ciphertext opens nowhere else. */
export const subscriptionKeyContext = (subscriptionId: string) => `webhook_signing_key:${subscriptionId}`;
