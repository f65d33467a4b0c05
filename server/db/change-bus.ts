/**
 * The change bus: how a service instance tells every instance, itself included, that rows behind an in-memory cache
 * changed (issue 17, item 2). A cache subscribes to a topic and drops what a message names; who made the change
 * does not matter to it, so messages from this process and from other instances reach the same handler.
 *
 * Delivery. A message is handled once per instance. On the instance that publishes it, its subscribers run when the
 * change is committed: right after `publish` (outside a transaction), or after the transaction of `transaction`
 * commits for `publishIn` (never when it rolls back), so a handler that reads the row sees the new value and the
 * publishing instance reads its own writes as soon as the call returns. Other instances receive it through
 * PostgreSQL: NOTIFY on one channel (the topic in the message), sent in the writing transaction when there is one,
 * which PostgreSQL delivers only if that transaction commits and only after it has; each instance LISTENs on one
 * dedicated connection and skips its own messages, which it has already handled. On SQLite there is one process
 * and delivery is only local, with the same rules.
 *
 * What can be lost. The listening connection breaks (a server restart, a network cut, a terminated backend): the
 * bus calls every subscriber's `onLost` at once, reconnects with backoff and then calls every subscriber's
 * `onResync`, because messages sent meanwhile are gone; a cache then drops everything it holds (the principal cache
 * must: a revocation it missed would otherwise keep a token alive forever), and one that must not serve a stale
 * answer even for the seconds of the outage (the principal cache again) stops caching from `onLost` to `onResync`.
 * A subscriber that comes before the first connect gets `onLost` at once and `onResync` on that connect, so what a
 * cache kept before the bus was listening is not trusted either. A connection that hangs without breaking is found
 * by a periodic query on it.
 * A cache filled by a read that started before a message arrived can still store the old row after the handler
 * cleared it: count messages and resyncs in the cache and keep a read's result only if the count did not move.
 *
 * Payloads carry ids and digests only, never a secret, a token or patient data: NOTIFY payloads are readable by any
 * session of the database that LISTENs, and the bus may name topics in logs. It never logs a payload.
 * They are at most MAX_PAYLOAD_BYTES of JSON, refused loudly above (PostgreSQL's own limit is 8000 bytes); a
 * subscriber reads anything bigger from the database. PostgreSQL folds identical notifications sent in one
 * transaction into one, which suits invalidations.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { SqlDatabase } from './sql.js';

/** The one NOTIFY channel; NOTIFY is per database, so instances of another clinic's database never hear it. */
export const CHANGES_CHANNEL = 'clinic_desk_changes';
export const MAX_PAYLOAD_BYTES = 1024;

/** The topics and what each message says. Unknown topics from a newer instance (a rolling upgrade) are ignored. */
export interface ChangeTopics {
  /**
   * Some token may have stopped being valid (a token revoked, a user's tokens revoked, a user or workspace
   * disabled): a principal cache drops everything it holds. Rare (admin actions, sign-outs).
   */
  principals: { reason: 'token_revoked' | 'user_tokens_revoked' | 'user_disabled' | 'workspace_disabled' };
  /** A clinic's appointments changed (committed): live boards of that clinic on every instance read it again. */
  appointments: { workspace_id: string };
  /** Webhook events were written (committed): the other instances' dispatchers look for due deliveries now. */
  'webhook-events': Record<string, never>;
  /** A subscription was deleted or disabled: a dispatcher forgets its opened signing key and its state. */
  'webhook-subscriptions': { subscription_id: string; change: 'deleted' | 'disabled' };
  /**
   * The sign-in limiter's events, so every instance counts every failure. `user` and `address` are digests (of the
   * lowercased username and of the client address), `at` the failure's time in ms on the instance that saw it.
   * A limiter counts its own failures at once, so it subscribes with `ignoreOwn`.
   */
  'sign-in':
    | { event: 'failed'; user: string; address: string; at: number }
    | { event: 'succeeded'; user: string; address: string }
    | { event: 'forgiven'; user: string };
}
export type ChangeTopic = keyof ChangeTopics;

export interface ChangeMeta {
  /** The instance that published the message. */
  from: string;
  /** Whether that is this instance. */
  own: boolean;
}

export type ChangeHandler<T extends ChangeTopic> = (payload: ChangeTopics[T], meta: ChangeMeta) => void | Promise<void>;

export interface SubscribeOptions {
  /** Runs after the listener (re)connects: messages may have been missed, so drop whatever they could invalidate. */
  onResync?: () => void;
  /** Runs when the listener is not listening (lost, or not yet connected): messages are missed until onResync. */
  onLost?: () => void;
  /** Skip this instance's own messages (a subscriber that already applied its own change). Default false. */
  ignoreOwn?: boolean;
}

export interface ChangeBusOptions {
  /** The database's URL, for the listening connection; required on PostgreSQL. */
  postgresUrl?: string;
  /** Names this instance in logs and in the listener's application_name. Default: random. */
  instanceId?: string;
  log?: (line: string) => void;
  /** Backoff between reconnection attempts: doubles from min to max, with jitter. Defaults 100 ms and 5 s. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** How often the listening connection is checked with a query, and how long that query may take. Defaults 10 s, 5 s. */
  healthCheckMs?: number;
  healthTimeoutMs?: number;
}

export interface ChangeBus {
  readonly instanceId: string;
  /** Publishes now (autocommit); this instance's subscribers have run when it resolves. */
  publish<T extends ChangeTopic>(topic: T, payload: ChangeTopics[T]): Promise<void>;
  /** The database's transaction, in which `publishIn` publishes on commit and not at all on rollback. */
  transaction<R>(fn: (trx: Kysely<any>) => Promise<R>): Promise<R>;
  /** Publishes when `trx`, a transaction opened by this bus's `transaction`, commits. */
  publishIn<T extends ChangeTopic>(trx: Kysely<any>, topic: T, payload: ChangeTopics[T]): Promise<void>;
  /** Returns the function that unsubscribes. */
  subscribe<T extends ChangeTopic>(topic: T, handler: ChangeHandler<T>, opts?: SubscribeOptions): () => void;
  /** Resolves once the listener is up (at once on SQLite). Nothing depends on it: the first connect resyncs. */
  ready(): Promise<void>;
  /** Whether other instances' messages arrive now: the listener is up (always on SQLite). */
  listening(): boolean;
  /** Ends the listener; publishing afterwards is an error. The database stays open. */
  close(): Promise<void>;
}

interface Envelope {
  from: string;
  topic: string;
  payload: unknown;
}

interface Subscriber {
  handler: (payload: unknown, meta: ChangeMeta) => void | Promise<void>;
  onResync?: () => void;
  onLost?: () => void;
  ignoreOwn: boolean;
}

export function changeBus(database: SqlDatabase, opts: ChangeBusOptions = {}): ChangeBus {
  if (database.dialect === 'postgres' && !opts.postgresUrl) throw new Error('changeBus on PostgreSQL needs postgresUrl for its listening connection');
  const instanceId = opts.instanceId ?? randomBytes(4).toString('hex');
  const log = opts.log ?? ((line: string) => console.error(line));
  const subscribers = new Map<string, Set<Subscriber>>();
  // Messages published in each open transaction of this bus, delivered here once it commits.
  const openTransactions = new WeakMap<Kysely<any>, string[]>();
  let closed = false;

  function encode(topic: ChangeTopic, payload: unknown): string {
    if (closed) throw new Error(`change bus ${instanceId} is closed`);
    const size = Buffer.byteLength(JSON.stringify(payload) ?? '');
    if (size > MAX_PAYLOAD_BYTES) {
      throw new Error(`change bus: a '${topic}' payload of ${size} bytes is over the ${MAX_PAYLOAD_BYTES}-byte limit; `
        + 'send ids or digests and let subscribers read the rest from the database');
    }
    return JSON.stringify({ from: instanceId, topic, payload } satisfies Envelope);
  }

  function report(what: string, e: unknown) {
    log(`change bus ${instanceId}: ${what}: ${e instanceof Error ? e.message : String(e)}`);
  }

  // Own messages are delivered from their text too, so a handler gets the same JSON values whoever published.
  function deliver(text: string, own: boolean) {
    let message: Envelope;
    try {
      message = JSON.parse(text) as Envelope;
      if (typeof message?.from !== 'string' || typeof message.topic !== 'string') throw new Error('not a change message');
    } catch (e) {
      return report('ignored a malformed message', e);
    }
    if (!own && message.from === instanceId) return; // handled here when it was committed
    const meta: ChangeMeta = { from: message.from, own };
    for (const s of [...(subscribers.get(message.topic) ?? [])]) {
      if (own && s.ignoreOwn) continue;
      try {
        const done = s.handler(message.payload, meta);
        if (done instanceof Promise) done.catch((e: unknown) => report(`a '${message.topic}' subscriber failed`, e));
      } catch (e) {
        report(`a '${message.topic}' subscriber failed`, e);
      }
    }
  }

  function tellAll(what: 'onResync' | 'onLost') {
    for (const set of subscribers.values()) {
      for (const s of [...set]) {
        try {
          s[what]?.();
        } catch (e) {
          report(`a subscriber's ${what} failed`, e);
        }
      }
    }
  }

  const notify = (executor: Kysely<any>, text: string) => sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${text})`.execute(executor);

  const listener = database.dialect === 'postgres' ? listen(opts.postgresUrl!) : null;

  /** The dedicated LISTEN connection, reconnected with backoff while the bus is open. */
  function listen(url: string) {
    const minMs = opts.reconnectMinMs ?? 100;
    const maxMs = opts.reconnectMaxMs ?? 5000;
    const healthTimeoutMs = opts.healthTimeoutMs ?? 5000;
    // The connection in use and how to give it up; `listening` once its LISTEN succeeded.
    let current: { client: pg.Client; lose(why: string): void; checking: boolean } | null = null;
    let listening = false;
    let failures = 0;
    let retryTimer: NodeJS.Timeout | null = null;
    let markReady!: () => void;
    const ready = new Promise<void>((resolve) => (markReady = resolve));

    function retry() {
      const delay = Math.min(maxMs, minMs * 2 ** failures) * (0.5 + Math.random() / 2);
      failures += 1;
      retryTimer = setTimeout(() => {
        retryTimer = null;
        void connect();
      }, delay);
      retryTimer.unref();
      return Math.round(delay);
    }

    async function connect() {
      if (closed) return;
      const client = new pg.Client({
        connectionString: url,
        application_name: `clinic-desk-bus:${instanceId}`,
        keepAlive: true,
        connectionTimeoutMillis: healthTimeoutMs,
        query_timeout: healthTimeoutMs,
      });
      let lost = false;
      const lose = (why: string) => {
        if (lost) return;
        lost = true;
        const wasListening = current?.client === client && listening;
        if (current?.client === client) {
          current = null;
          listening = false;
        }
        client.end().catch(() => undefined);
        if (closed) return;
        if (wasListening) tellAll('onLost');
        log(`change bus ${instanceId}: listener lost (${why}); reconnecting in ${retry()} ms`);
      };
      current = { client, lose, checking: false };
      client.on('error', (e) => lose(e.message));
      client.on('end', () => lose('the connection ended'));
      client.on('notification', (n) => {
        // A replaced connection that still answers must not deliver twice.
        if (current?.client === client && n.channel === CHANGES_CHANNEL && n.payload !== undefined) deliver(n.payload, false);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      } catch (e) {
        return lose((e as Error).message);
      }
      if (closed || lost) return;
      listening = true;
      failures = 0;
      // After LISTEN: every message from here on arrives, and whatever came before is covered by the resync.
      tellAll('onResync');
      markReady();
    }

    const health = setInterval(() => {
      const used = current;
      // A check still waiting (healthTimeoutMs above healthCheckMs) is the one that decides.
      if (!used || !listening || used.checking) return;
      used.checking = true;
      used.client.query('SELECT 1').then(
        () => void (used.checking = false),
        (e: unknown) => used.lose(`health check failed: ${(e as Error).message}`),
      );
    }, opts.healthCheckMs ?? 10_000);
    health.unref();

    void connect();
    return {
      listening: () => listening,
      ready: () => ready,
      async close() {
        clearInterval(health);
        if (retryTimer) clearTimeout(retryTimer);
        const used = current;
        current = null;
        await used?.client.end().catch(() => undefined);
      },
    };
  }

  return {
    instanceId,

    async publish(topic, payload) {
      const text = encode(topic, payload);
      if (database.dialect === 'postgres') await notify(database.db, text);
      deliver(text, true);
    },

    async transaction(fn) {
      const published: string[] = [];
      const result = await database.transaction(async (trx) => {
        openTransactions.set(trx, published);
        try {
          return await fn(trx);
        } finally {
          openTransactions.delete(trx);
        }
      });
      for (const text of published) deliver(text, true);
      return result;
    },

    async publishIn(trx, topic, payload) {
      const published = openTransactions.get(trx);
      // Another transaction would never tell this instance's subscribers, on SQLite not even other instances'.
      if (!published) throw new Error('change bus: publishIn takes a transaction opened by the same bus\'s transaction()');
      const text = encode(topic, payload);
      if (database.dialect === 'postgres') await notify(trx, text);
      published.push(text);
    },

    subscribe(topic, handler, subscribeOpts = {}) {
      const s: Subscriber = {
        handler: handler as Subscriber['handler'],
        onResync: subscribeOpts.onResync,
        onLost: subscribeOpts.onLost,
        ignoreOwn: subscribeOpts.ignoreOwn ?? false,
      };
      let set = subscribers.get(topic);
      if (!set) subscribers.set(topic, (set = new Set()));
      set.add(s);
      if (listener && !listener.listening()) s.onLost?.();
      return () => {
        set.delete(s);
      };
    },

    ready: () => listener?.ready() ?? Promise.resolve(),
    listening: () => listener?.listening() ?? true,

    async close() {
      if (closed) return;
      closed = true;
      await listener?.close();
    },
  };
}
