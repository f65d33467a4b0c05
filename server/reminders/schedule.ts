import { localDate, wallClockToInstant } from '../shared/time.js';

/** When a clinic's reminders go (issue 29): times are the clinic's wall clock. */
export interface Schedule {
  /** The evening before the appointment at this time (HH:MM), or null for none. */
  evening_before: string | null;
  /** Minutes before the appointment, one reminder each. */
  minutes_before: number[];
  /** A confirmation as soon as the appointment is booked. */
  on_booking: boolean;
  /** Nothing is sent from start to end (HH:MM, may wrap midnight): a reminder due then waits for the end. */
  quiet_hours: { start: string; end: string } | null;
  /** The appointment statuses a reminder is still sent in; in any other it is skipped. */
  states: string[];
}

export const DEFAULT_SCHEDULE: Schedule = {
  evening_before: '18:00', minutes_before: [120], on_booking: false, quiet_hours: { start: '21:00', end: '08:00' }, states: ['BK'],
};

export interface Point {
  /** booking | evening | before:<minutes>: unique per appointment. */
  point: string;
  due_at: string;
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
};

function localMinutes(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(instant);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/** The instant itself, or the end of the quiet hours it falls in. */
export function afterQuietHours(instant: Date, quiet: Schedule['quiet_hours'], timeZone: string): Date {
  if (!quiet) return instant;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const t = localMinutes(instant, timeZone);
  const inside = start <= end ? t >= start && t < end : t >= start || t < end;
  if (!inside) return instant;
  const [eh, em] = [Math.floor(end / 60), end % 60];
  let at = wallClockToInstant(localDate(instant, timeZone), eh, em, timeZone);
  if (at.getTime() <= instant.getTime()) at = wallClockToInstant(localDate(new Date(instant.getTime() + 86_400_000), timeZone), eh, em, timeZone);
  return at;
}

/**
 * The schedule points of an appointment at `scheduledAt`, booked `now`: each moved out of the quiet hours, and kept
 * only when it still falls between now and the appointment (a point already past when booking is not sent late).
 */
export function schedulePoints(scheduledAt: Date, now: Date, schedule: Schedule, timeZone: string): Point[] {
  const wanted: { point: string; at: Date }[] = [];
  if (schedule.on_booking) wanted.push({ point: 'booking', at: now });
  if (schedule.evening_before) {
    const dayBefore = localDate(new Date(scheduledAt.getTime() - 86_400_000), timeZone);
    const m = minutesOf(schedule.evening_before);
    wanted.push({ point: 'evening', at: wallClockToInstant(dayBefore, Math.floor(m / 60), m % 60, timeZone) });
  }
  for (const minutes of schedule.minutes_before) wanted.push({ point: `before:${minutes}`, at: new Date(scheduledAt.getTime() - minutes * 60_000) });
  const out: Point[] = [];
  for (const w of wanted) {
    const at = afterQuietHours(w.at, schedule.quiet_hours, timeZone);
    if (at.getTime() < now.getTime() || at.getTime() >= scheduledAt.getTime()) continue;
    out.push({ point: w.point, due_at: at.toISOString() });
  }
  return out;
}
