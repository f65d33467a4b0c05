import type { Clock } from '../shared/time.js';

export interface SignInLimits {
  /** Failed sign-ins allowed per username and address within the window (default 5). */
  perUser: number;
  /** Failed sign-ins allowed per address, whatever the username, within the window (default 30). */
  perAddress: number;
  /** The window, in ms (default 15 minutes). */
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perUser: 5, perAddress: 30, windowMs: 15 * 60 * 1000 };

// Enough for any clinic; an attacker spraying addresses cannot grow the map without bound.
const MAX_KEYS = 10_000;

/**
 * Failed browser sign-ins, counted per username and address (and, more loosely, per address) in a sliding
 * window. Only failures count; a success clears its username's record. In memory: a restart forgives, which
 * costs an attacker a restart of the clinic's service per five guesses.
 */
export function signInLimiter(clock: Clock, limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS) {
  const failures = new Map<string, number[]>();
  const userKey = (username: string, ip: string) => `u\n${username.trim().toLowerCase()}\n${ip}`;
  const addressKey = (ip: string) => `a\n${ip}`;

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
    /** 0 when a sign-in may be tried now; otherwise the seconds to wait. */
    retryAfter(username: string, ip: string): number {
      const now = clock.now().getTime();
      return Math.max(
        wait(recent(userKey(username, ip), now), limits.perUser, now),
        wait(recent(addressKey(ip), now), limits.perAddress, now),
      );
    },
    failed(username: string, ip: string) {
      const now = clock.now().getTime();
      if (failures.size >= MAX_KEYS) failures.delete(failures.keys().next().value!);
      for (const key of [userKey(username, ip), addressKey(ip)]) failures.set(key, [...recent(key, now), now]);
    },
    succeeded(username: string, ip: string) {
      failures.delete(userKey(username, ip));
    },
  };
}
export type SignInLimiter = ReturnType<typeof signInLimiter>;
