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
 */
export function signInLimiter(clock: Clock, limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS) {
  const failures = new Map<string, number[]>();
  const name = (username: string) => username.trim().toLowerCase();
  const keys = (username: string, ip: string): [string, number][] => [
    [`p\n${name(username)}\n${ip}`, limits.perUser],
    [`a\n${ip}`, limits.perAddress],
    [`u\n${name(username)}`, limits.perUserAnyAddress],
  ];

  function recent(key: string, now: number): number[] {
    const list = (failures.get(key) ?? []).filter((t) => t > now - limits.windowMs);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  }

  /** Seconds until `limit` failures in `list` fall out of the window (0: not limited). */
  const wait = (list: number[], limit: number, now: number) =>
    list.length < limit ? 0 : Math.max(1, Math.ceil((list[list.length - limit]! + limits.windowMs - now) / 1000));

  return {
    limits,
    /** 0 when a sign-in may be tried now; otherwise the seconds to wait. */
    retryAfter(username: string, ip: string): number {
      const now = clock.now().getTime();
      return Math.max(...keys(username, ip).map(([key, limit]) => wait(recent(key, now), limit, now)));
    },
    failed(username: string, ip: string) {
      const now = clock.now().getTime();
      for (const [key] of keys(username, ip)) {
        if (!failures.has(key) && failures.size >= MAX_KEYS) failures.delete(failures.keys().next().value!);
        failures.set(key, [...recent(key, now), now]);
      }
    },
    succeeded(username: string, ip: string) {
      failures.delete(keys(username, ip)[0]![0]);
    },
    /** Lifts every lockout of a username (an admin set a new password): its pairs and its all-address count. */
    forgive(username: string) {
      const n = name(username);
      for (const key of [...failures.keys()]) if (key === `u\n${n}` || key.startsWith(`p\n${n}\n`)) failures.delete(key);
    },
  };
}
export type SignInLimiter = ReturnType<typeof signInLimiter>;
