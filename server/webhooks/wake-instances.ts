import type { ChangeBus } from '../db/change-bus.js';
import type { Dialect } from '../db/sql.js';

/**
 * A chain's instances wake each other's dispatchers (issue 27): on PostgreSQL, an instance that wrote events tells
 * the others through the change bus (LISTEN/NOTIFY), so theirs look for due deliveries at once instead of at their
 * next poll (up to a second). It is a hint: a lost message costs that poll, nothing more. At most one NOTIFY is in
 * flight; events written meanwhile are told by the next one, so a burst costs a round trip per batch, not per event.
 * SQLite has one process and nothing to tell. Returns what to call once events have been committed.
 */
export function wakeOtherInstances(bus: ChangeBus | undefined, dialect: Dialect, wake: () => void): () => void {
  if (!bus || dialect !== 'postgres') return () => undefined;
  bus.subscribe('webhook-events', () => wake(), { ignoreOwn: true });
  let telling = false;
  let again = false;
  const tell = () => {
    if (telling) {
      again = true;
      return;
    }
    telling = true;
    bus.publish('webhook-events', {}).catch((e: unknown) =>
      console.error(`clinic-desk: could not wake the other instances' webhook dispatchers: ${(e as Error).message}`)).finally(() => {
      telling = false;
      if (again) {
        again = false;
        tell();
      }
    });
  };
  return tell;
}
