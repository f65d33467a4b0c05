/** The service's clock. Injectable so tests can move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

// The text of the last instant stamped: toISOString costs about 1 µs (more on a busy thread), and a busy service
// stamps many things within one millisecond (every search's audit entry).
let lastMs = Number.NaN;
let lastIso = '';

/** ISO 8601 UTC with milliseconds, the interface's timestamp format. */
export function isoNow(clock: Clock): string {
  const now = clock.now();
  const ms = now.getTime();
  // An invalid Date (NaN) never equals the last one: its toISOString throws as before.
  if (ms !== lastMs) {
    lastIso = now.toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** The calendar day (YYYY-MM-DD) of an instant in an IANA time zone. */
export function localDate(instant: Date, timeZone: string): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(instant);
}

/** Whether a string names a time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Offset of a time zone from UTC at an instant, in milliseconds (positive east of Greenwich). */
function offsetMs(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    }).formatToParts(instant).map((p) => [p.type, Number(p.value)]),
  );
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant at which a clinic's wall clock shows `date` (YYYY-MM-DD) `hour`:`minute`. */
export function wallClockToInstant(date: string, hour: number, minute: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d, hour, minute);
  // Two passes settle the offset even when the guess and the answer straddle a DST change.
  const first = guess - offsetMs(guess, timeZone);
  return new Date(guess - offsetMs(first, timeZone));
}
