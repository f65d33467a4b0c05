import type { NoShowRow } from './store.js';

/** How an appointment stood with its reminders: confirmed by the patient, reminded without a confirmation, or not reminded. */
export type Group = 'confirmed' | 'no_reply' | 'not_reminded';
export interface Tally { appointments: number; no_shows: number; no_show_rate: number | null }
export interface Week { week_start: string; groups: Record<Group, Tally> }

/** The Monday (YYYY-MM-DD) of a calendar day's week. */
export function weekStart(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

const groupOf = (r: NoShowRow): Group => (r.reply === 'confirmed' ? 'confirmed' : r.reminded > 0 ? 'no_reply' : 'not_reminded');

/**
 * The no-show rate per week, split by what reminders achieved: does a confirmed appointment go missed less often
 * than one reminded without an answer, or one never reminded? Counted: past appointments the patient came to or
 * missed (cancelled ones are neither).
 */
export function noShowReport(rows: NoShowRow[], weeks: string[]): Week[] {
  const empty = (): Record<Group, Tally> => ({
    confirmed: { appointments: 0, no_shows: 0, no_show_rate: null },
    no_reply: { appointments: 0, no_shows: 0, no_show_rate: null },
    not_reminded: { appointments: 0, no_shows: 0, no_show_rate: null },
  });
  const out = new Map(weeks.map((w) => [w, empty()]));
  for (const r of rows) {
    const t = out.get(weekStart(r.local_date))?.[groupOf(r)];
    if (!t) continue;
    t.appointments += 1;
    if (r.status === 'NS') t.no_shows += 1;
    t.no_show_rate = Math.round((t.no_shows / t.appointments) * 1000) / 1000;
  }
  return [...out].map(([week_start, groups]) => ({ week_start, groups }));
}
