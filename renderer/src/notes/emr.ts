import type { Emr, EmrFlag, FlagResolution } from '../../../server/notes/schemas';

export type { Emr, EmrFlag, FlagResolution };
export type Medication = Emr['medications'][number];
export type Duration = NonNullable<Emr['follow_up']>['after'];

/** A flag's identity, as the service keys resolutions: its code and the pointer the scribe gave it. */
export const flagKey = (f: { code: string; pointer: string }) => `${f.code} ${f.pointer}`;

/** `pointer` is `path` or inside it, by whole segments ("/medications/1" is not inside "/medications/10"). */
export const within = (pointer: string, path: string) => pointer === path || pointer.startsWith(`${path}/`);

/**
 * The flags an edit at `path` settles as "edited": those about the edited value or the item holding it
 * (a new strength settles "/medications/0/strength" and "/medications/0", not "/medications/0/dose").
 */
export const flagsEditedBy = <F extends { pointer: string }>(flags: F[], path: string) => flags.filter((f) => within(path, f.pointer) || within(f.pointer, path));

/**
 * Where each flag stands now that the doctor removed item `index` of `list` (e.g. "medications"): a flag on the
 * removed item is gone with it (null), one on a later item moves up with it. `at` maps a flag's key to where it is
 * shown; its key stays the scribe's pointer, which is what the service resolves it by.
 */
export function shiftAfterRemoval(at: Map<string, string | null>, list: string, index: number): Map<string, string | null> {
  const prefix = `/${list}/`;
  return new Map([...at].map(([key, pointer]) => {
    if (!pointer?.startsWith(prefix)) return [key, pointer];
    const [n, ...rest] = pointer.slice(prefix.length).split('/');
    const i = Number(n);
    if (i === index) return [key, null];
    return [key, i > index ? [`${prefix}${i - 1}`, ...rest].join('/') : pointer];
  }));
}

/** The top-level evidence keyed by pointer, with the removed item's entries gone and later items' moved up. */
export function evidenceAfterRemoval(evidence: Emr['evidence'], list: string, index: number): Emr['evidence'] {
  if (!evidence) return evidence;
  const prefix = `/${list}/`;
  const out: NonNullable<Emr['evidence']> = {};
  for (const [pointer, span] of Object.entries(evidence)) {
    if (!pointer.startsWith(prefix)) { out[pointer] = span; continue; }
    const [n, ...rest] = pointer.slice(prefix.length).split('/');
    const i = Number(n);
    if (i !== index) out[[`${prefix}${i > index ? i - 1 : i}`, ...rest].join('/')] = span;
  }
  return out;
}

const DAYS: Record<Duration['unit'], number> = { day: 1, week: 7, month: 30, year: 365 };

/** "3 days", "1 week". */
export const durationWords = (d: Duration | undefined) => (d ? `${d.value} ${d.unit}${d.value === 1 ? '' : 's'}` : '');

/** The calendar date `d` after `from` (YYYY-MM-DD in, YYYY-MM-DD out); months and years by the calendar. */
export function dateAfter(from: string, d: Duration): string {
  const [y, m, day] = from.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, day));
  if (d.unit === 'month' || d.unit === 'year') date.setUTCMonth(date.getUTCMonth() + Math.round(d.value * (d.unit === 'year' ? 12 : 1)));
  else date.setUTCDate(date.getUTCDate() + Math.round(d.value * DAYS[d.unit]));
  return date.toISOString().slice(0, 10);
}

/**
 * The 1-0-1 form Indian prescriptions print (morning-afternoon-night), from what the doctor dictated: the pattern
 * as said, else one from how many times a day (once a day at night for a bedtime dose); "SOS" when only as needed.
 */
export function frequencyPattern(m: Pick<Medication, 'frequency' | 'timing'>): string {
  const f = m.frequency;
  if (!f) return '';
  if (f.pattern) return f.pattern;
  const night = /night|bed ?time|\bhs\b/i.test(`${m.timing ?? ''} ${f.text}`);
  const byCount: Record<number, string> = { 1: night ? '0-0-1' : '1-0-0', 2: '1-0-1', 3: '1-1-1', 4: '1-1-1-1' };
  if (f.per_day !== null && byCount[f.per_day]) return byCount[f.per_day]!;
  return f.as_needed ? 'SOS' : '';
}

const TIMES: Record<number, string[]> = { 3: ['morning', 'afternoon', 'night'], 4: ['morning', 'afternoon', 'evening', 'night'] };
const TIMES_A_DAY: Record<number, string> = { 1: 'once a day', 2: 'twice a day' };

/** How many times a day a 1-0-1 pattern says, or null when it is not one. */
export function patternPerDay(pattern: string): number | null {
  return /^\d(-\d){2,3}$/.test(pattern) ? pattern.split('-').map(Number).reduce((a, b) => a + b, 0) : null;
}

/** A pattern in words: "1-0-1" is "twice a day (morning and night)"; "" when it is not a pattern. */
export function patternWords(pattern: string): string {
  const parts = pattern.split('-');
  const times = TIMES[parts.length];
  const perDay = patternPerDay(pattern);
  if (!times || perDay === null) return '';
  const when = parts.flatMap((n, i) => (n !== '0' ? [n === '1' ? times[i]! : `${n} at ${times[i]}`] : []));
  const count = TIMES_A_DAY[perDay] ?? `${perDay} times a day`;
  return when.length ? `${count} (${when.join(' and ').replace(/ and (?=.* and )/g, ', ')})` : '';
}

/**
 * The frequency in words. A pattern is the one value it is said from (the words a pattern was dictated with can
 * only repeat or contradict it); without one, the words as dictated.
 */
export function frequencyWords(m: Pick<Medication, 'frequency' | 'timing'>): string {
  const f = m.frequency;
  if (!f) return '';
  const fromPattern = f.pattern ? patternWords(f.pattern) : '';
  if (fromPattern) return fromPattern;
  if (f.text) return f.text;
  return f.as_needed ? 'when needed' : '';
}

/** An empty medication row: the fields the editor shows, nothing the doctor did not enter. */
export const blankMedication = (): Medication => ({ name: '' });
