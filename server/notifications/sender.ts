import { type Executor, transaction } from '../db/tx.js';
import { senderLoop } from '../shared/loop.js';
import type { Clock } from '../shared/time.js';
import type { FcmAccount, FcmClient, SendOutcome } from './fcm.js';
import { type JobRow, type NotificationStore, notificationStore } from './store.js';

export interface RetryPolicy {
  /** Delay after the first failed attempt; doubles per attempt. */
  baseMs: number;
  /** Ceiling of the exponential delay (a longer Retry-After is still honoured). */
  maxMs: number;
  /** Attempts in all, the first included; then the push is `failed`. */
  maxAttempts: number;
  /** ± fraction of random spread on each delay, so retries of many pushes do not arrive together. */
  jitter: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 2_000, maxMs: 10 * 60_000, maxAttempts: 8, jitter: 0.2 };

export interface SenderOptions {
  retry?: Partial<RetryPolicy>;
  /** How often the queue is polled when nothing wakes the sender. */
  pollIntervalMs?: number;
  /** A claimed push is someone's for this long; after a crash it is sent again once the lease runs out. */
  leaseMs?: number;
  batchSize?: number;
  concurrency?: number;
  /** Finished pushes are kept this long for inspection, then deleted. */
  retainMs?: number;
  onError?: (e: unknown) => void;
}

/** Delay before attempt `failed + 1`: exponential with jitter, and never sooner than the server asked. */
export function backoffMs(policy: RetryPolicy, failedAttempts: number, retryAfterMs: number | null, random = Math.random): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failedAttempts - 1));
  const jittered = Math.round(exp * (1 - policy.jitter + 2 * policy.jitter * random()));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** What `account` throws when the workspace's sealed key cannot be opened (any other error is not the push's). */
export class UnreadableCredentials extends Error {}

interface Deps {
  db: Executor;
  store: NotificationStore;
  clock: Clock;
  fcm: FcmClient;
  /**
   * The workspace's service account, or null when it has none. Throws UnreadableCredentials when the sealed key
   * cannot be opened; any other error (the database's) leaves the push to be sent later.
   */
  account: (workspaceId: string) => Promise<FcmAccount | null>;
}

/** A job leased by this sender whose lease is still to be given back, or whose sent push's result is still to be written. */
interface Unsettled {
  leaseUntil: string;
  result?: { job: JobRow; attempt: number; deviceId: string; deviceToken: string; outcome: SendOutcome };
}

/**
 * The push queue worker: claims due jobs from push_jobs (durable, in the service's database) on a startLoop, sends
 * each through FCM, and records the outcome. Several instances may share a PostgreSQL database: each claims with a
 * lease, so a job is sent by one of them at a time, and by another once the lease of one that died runs out.
 * Retries are rows with a later next_attempt_at, never sleeps, so a restart loses nothing. The database is never
 * touched once it is closed: an answer arriving after that is dropped and its job, still leased, is sent again once
 * the lease runs out (after the next start, or by another instance).
 */
export function pushSender(deps: Deps, opts: SenderOptions = {}) {
  const { db, store, clock, fcm } = deps;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  const leaseMs = opts.leaseMs ?? 60_000;
  const batchSize = opts.batchSize ?? 50;
  const concurrency = opts.concurrency ?? 4;
  const retainMs = opts.retainMs ?? 7 * 24 * 3600_000;
  const onError = opts.onError ?? ((e: unknown) => console.error('clinic-desk push sender:', e instanceof Error ? e.message : e));
  let lastPruneMs = 0;
  // Jobs leased by this sender that a failure (the database's, mostly: a terminated session) left neither sent and
  // given back nor recorded: settled at the next tick while their lease is still this sender's, rather than left
  // leased with nobody sending them until the lease runs out. Job id -> what is left to do.
  const unsettled = new Map<string, Unsettled>();

  const iso = (ms: number) => new Date(ms).toISOString();
  const usable = () => !loop.stopped && db.open;

  async function record(job: JobRow, attempt: number, deviceId: string, deviceToken: string, outcome: SendOutcome) {
    const nowMs = clock.now().getTime();
    const now = iso(nowMs);
    switch (outcome.kind) {
      case 'sent':
        await store.finish(job.id, 'sent', now, null, outcome.messageId);
        return;
      case 'failed':
        await store.finish(job.id, 'failed', now, outcome.error, null);
        return;
      case 'unregistered':
        await transaction(db, async (tx) => {
          const inTx = notificationStore(tx);
          // Only if the device still has the token FCM refused; a device that re-registered keeps its new one,
          // and this push goes to it at once.
          if (await inTx.deleteDeviceIfToken(deviceId, deviceToken)) {
            await inTx.finish(job.id, 'failed', now, `${outcome.error} (device removed)`, null);
            await inTx.cancelForDevice(deviceId, now, 'device removed: FCM reported its token unregistered');
          } else {
            await inTx.retry(job.id, now, now, outcome.error);
          }
        });
        return;
      case 'retry':
        if (attempt >= retry.maxAttempts) {
          await store.finish(job.id, 'failed', now, `gave up after ${attempt} attempts: ${outcome.error}`, null);
        } else {
          await store.retry(job.id, now, iso(nowMs + backoffMs(retry, attempt, outcome.retryAfterMs)), outcome.error);
        }
    }
  }

  async function deliver(job: JobRow, leaseUntil: string) {
    const attempt = job.attempts + 1;
    const now = () => clock.now().toISOString();
    // Until the push is asked of FCM, a failure gives the job back; after, its result is written at the next tick.
    unsettled.set(job.id, { leaseUntil });
    const device = await store.device(job.device_row_id);
    if (!device) return settled(job.id, store.finish(job.id, 'cancelled', now(), 'device removed', null));
    let account: FcmAccount | null;
    try {
      account = await deps.account(job.workspace_id);
    } catch (e) {
      if (!(e instanceof UnreadableCredentials)) throw e;
      return settled(job.id, store.finish(job.id, 'failed', now(), 'the stored FCM credentials cannot be opened with this key-encryption key', null));
    }
    if (!account) return settled(job.id, store.finish(job.id, 'cancelled', now(), 'the workspace has no FCM credentials', null));
    const outcome = await fcm.send(account, {
      token: device.fcm_token, title: job.title, body: job.body, data: JSON.parse(job.data) as Record<string, string>,
    }, loop.signal);
    if (!db.open) return void unsettled.delete(job.id);
    if (loop.stopped) {
      // Interrupted by shutdown: give the job back for the next start, without counting it against the push.
      return settled(job.id, store.retry(job.id, now(), now(), 'interrupted by shutdown'));
    }
    unsettled.set(job.id, { leaseUntil, result: { job, attempt, deviceId: device.id, deviceToken: device.fcm_token, outcome } });
    await settled(job.id, record(job, attempt, device.id, device.fcm_token, outcome));
  }

  /** `write` settles the job: once it is done, nothing is left of it to settle. */
  async function settled(id: string, write: Promise<void>) {
    await write;
    unsettled.delete(id);
  }

  /**
   * What earlier failures left (see `unsettled`): results written, leases of jobs not sent given back. Those whose
   * lease has run out are dropped (another sender may have claimed them: this one's result would overwrite its).
   */
  async function settle() {
    const release = new Map<string, string[]>();
    for (const [id, u] of [...unsettled]) {
      if (!usable()) return;
      if (clock.now().getTime() >= Date.parse(u.leaseUntil)) {
        unsettled.delete(id);
      } else if (u.result) {
        const r = u.result;
        await settled(id, record(r.job, r.attempt, r.deviceId, r.deviceToken, r.outcome));
      } else {
        release.set(u.leaseUntil, [...(release.get(u.leaseUntil) ?? []), id]);
      }
    }
    for (const [leaseUntil, ids] of release) {
      if (!usable()) return;
      await store.releaseLeases(ids, leaseUntil);
      for (const id of ids) unsettled.delete(id);
    }
  }

  async function pool(jobs: JobRow[], leaseUntil: string) {
    let next = 0;
    const worker = async () => {
      while (next < jobs.length && usable()) {
        const job = jobs[next++]!;
        try {
          await deliver(job, leaseUntil);
        } catch (e) {
          if (db.open) onError(e);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  }

  async function tick() {
    if (unsettled.size) await settle();
    // Bounded per tick so a large backlog does not starve shutdown; the loop comes straight back when woken.
    for (let round = 0; round < 20 && usable(); round++) {
      const nowMs = clock.now().getTime();
      const leaseUntil = iso(nowMs + leaseMs);
      // One transaction: the due candidates (row-locked with SKIP LOCKED on PostgreSQL, so instances sharing the
      // database claim different jobs) and their compare-and-set lease, which also holds where there are no locks.
      const asked: string[] = [];
      let claim: Awaited<ReturnType<NotificationStore['claimDue']>>;
      try {
        claim = await store.claimDue(iso(nowMs), leaseUntil, batchSize, asked);
      } catch (e) {
        // The commit may have been made though its answer was lost: those leases are given back at the next tick.
        for (const id of asked) unsettled.set(id, { leaseUntil });
        throw e;
      }
      const { due, claimed } = claim;
      if (due === 0) break;
      await pool(claimed, leaseUntil);
      if (due < batchSize) break;
    }
    if (usable()) {
      const nowMs = clock.now().getTime();
      if (nowMs - lastPruneMs > 3600_000) {
        lastPruneMs = nowMs;
        await store.prune(iso(nowMs - retainMs));
      }
    }
  }

  const loop = senderLoop({ intervalMs: opts.pollIntervalMs ?? 1000, tick, onError: (e) => usable() && onError(e) });
  return {
    start: () => loop.start(),
    /** Looks at the queue now (after an enqueue). */
    wake: () => loop.wake(),
    /**
     * Stops at once: no database access from here on, and requests in flight are aborted. The promise resolves
     * when the running tick has unwound.
     */
    stop: () => loop.stop(),
    /** One pass over the due jobs, outside the loop (tests, tools). */
    runOnce: tick,
    retryPolicy: retry,
  };
}
export type PushSender = ReturnType<typeof pushSender>;
