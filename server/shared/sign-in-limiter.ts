import { createHash } from 'node:crypto';
import type { ChangeBus, ChangeTopics } from '../db/change-bus.js';
import type { Clock } from './time.js';

export interface SignInLimits {
  /** Failed sign-ins allowed per username from one address within the window (default 5). */
  perUser: number;
  /** Failed sign-ins allowed per address, whatever the username, within the window (default 20). */
  perAddress: number;
  /** Failed sign-ins allowed per username from all addresses together within the window (default 50). */
  perUserAnyAddress: number;
  /** The window, in ms (default 15 minutes). */
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perUser: 5, perAddress: 20, perUserAnyAddress: 50, windowMs: 15 * 60 * 1000 };

// Enough for any clinic; an attacker spraying addresses cannot grow the map without bound.
const MAX_KEYS = 10_000;

/**
 * Failed sign-ins in a sliding window, counted per (username, address) pair, per address, and per username over
 * all addresses. The pair limit is the one a user meets; it is keyed by address so that failures sent from
 * another address (a guesser on the LAN) do not lock out the user at their own computer. The per-address cap
 * stops one source spraying usernames; the much higher per-username cap stops a guesser spread over many
 * addresses, at the price that such a guesser can lock the user out too. Only failures count; a success clears
 * its own pair. In memory: a restart forgives, which costs an attacker a restart of the service per few guesses.
 *
 * Several instances of a chain count together through `bus` (server/db/change-bus.ts): each failure, success and
 * pardon goes to the others, keyed by digests of the username and the address (the bus carries no names). A message
 * lost while an instance's listener reconnects costs a few extra guesses there, or a lockout ending with the window:
 * nothing to resync.
 */
export function signInLimiter(clock: Clock, limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS, bus?: ChangeBus) {
  const failures = new Map<string, number[]>();
  const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);
  const userKey = (username: string) => digest(`user\n${username.trim().toLowerCase()}`);
  const addressKey = (ip: string) => digest(`address\n${ip}`);
  const keys = (user: string, address: string): [string, number][] => [
    [`p\n${user}\n${address}`, limits.perUser],
    [`a\n${address}`, limits.perAddress],
    [`u\n${user}`, limits.perUserAnyAddress],
  ];
  const share = (payload: ChangeTopics['sign-in']) =>
    void bus?.publish('sign-in', payload).catch((e: unknown) => console.error(`clinic-desk: sign-in limiter: ${(e as Error).message}`));

  function recent(key: string, now: number): number[] {
    const list = (failures.get(key) ?? []).filter((t) => t > now - limits.windowMs);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  }

  /** Seconds until `limit` failures in `list` fall out of the window (0: not limited). */
  const wait = (list: number[], limit: number, now: number) =>
    list.length < limit ? 0 : Math.max(1, Math.ceil((list[list.length - limit]! + limits.windowMs - now) / 1000));

  function fail(user: string, address: string, at: number) {
    const now = clock.now().getTime();
    for (const [key] of keys(user, address)) {
      if (!failures.has(key) && failures.size >= MAX_KEYS) failures.delete(failures.keys().next().value!);
      failures.set(key, [...recent(key, now), at].sort((x, y) => x - y));
    }
  }
  const succeed = (user: string, address: string) => void failures.delete(keys(user, address)[0]![0]);
  function pardon(user: string) {
    for (const key of [...failures.keys()]) if (key === `u\n${user}` || key.startsWith(`p\n${user}\n`)) failures.delete(key);
  }

  bus?.subscribe('sign-in', (m) => {
    if (m.event === 'failed') fail(m.user, m.address, m.at);
    else if (m.event === 'succeeded') succeed(m.user, m.address);
    else pardon(m.user);
  }, { ignoreOwn: true });

  return {
    limits,
    /** 0 when a sign-in may be tried now; otherwise the seconds to wait. */
    retryAfter(username: string, ip: string): number {
      const now = clock.now().getTime();
      return Math.max(...keys(userKey(username), addressKey(ip)).map(([key, limit]) => wait(recent(key, now), limit, now)));
    },
    failed(username: string, ip: string) {
      const at = clock.now().getTime();
      const [user, address] = [userKey(username), addressKey(ip)];
      fail(user, address, at);
      share({ event: 'failed', user, address, at });
    },
    succeeded(username: string, ip: string) {
      const [user, address] = [userKey(username), addressKey(ip)];
      succeed(user, address);
      share({ event: 'succeeded', user, address });
    },
    /** Lifts every lockout of a username (an admin set a new password): its pairs and its all-address count. */
    forgive(username: string) {
      const user = userKey(username);
      pardon(user);
      share({ event: 'forgiven', user });
    },
  };
}
export type SignInLimiter = ReturnType<typeof signInLimiter>;
