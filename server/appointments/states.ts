import type { Caller } from '../auth/permissions.js';

export const STATUSES = ['BK', 'CK', 'OG', 'PK', 'CM', 'CN', 'NS'] as const;
export type Status = (typeof STATUSES)[number];

export const STATUS_NAMES: Record<Status, string> = {
  BK: 'booked',
  CK: 'checked in',
  OG: 'ongoing',
  PK: 'parked',
  CM: 'completed',
  CN: 'cancelled',
  NS: 'no-show',
};

/** Statuses change-status accepts, and the states each may be reached from. */
export const CHANGE_STATUS_TARGETS = ['NS', 'CK', 'OG', 'CM', 'CN'] as const;
export type ChangeStatusTarget = (typeof CHANGE_STATUS_TARGETS)[number];

/**
 * The appointment state machine. PK and NS sources are the ones decisions.md fixes; the rest follow a front
 * desk's day: a late patient marked no-show can still be checked in, a parked patient goes back in to the doctor or
 * back to the waiting room (checked in again), and a consultation can be completed without having been marked ongoing.
 */
export const ALLOWED_FROM: Record<Exclude<Status, 'BK'>, readonly Status[]> = {
  CK: ['BK', 'NS', 'PK'],
  OG: ['BK', 'CK', 'PK'],
  PK: ['BK', 'CK', 'OG'],
  CM: ['CK', 'OG', 'PK'],
  CN: ['BK', 'CK', 'PK'],
  NS: ['BK', 'CK', 'PK'],
};

/** Starting and completing a consultation is clinical work: a reception user may not; doctors, admins and clients may. */
const CLINICAL: readonly Status[] = ['OG', 'CM'];

export function roleMayMoveTo(caller: Caller, to: Status): boolean {
  return !(CLINICAL.includes(to) && caller.role === 'reception');
}

export const describe = (s: Status) => `${s} (${STATUS_NAMES[s]})`;

/** Why `from` cannot move to `to`, or null when it can. */
export function transitionError(from: Status, to: Exclude<Status, 'BK'>): string | null {
  if (ALLOWED_FROM[to].includes(from)) return null;
  return `Appointment is ${describe(from)}; it can become ${describe(to)} only from ${ALLOWED_FROM[to].join(', ')}`;
}

/**
 * Corrections (ours; the interface's transitions above are unchanged). The front desk's own moves (check in, park,
 * no-show) can be undone for UNDO_WINDOW_MS after they were made: the appointment goes back to exactly the state
 * it left, booked included, and the history gains a correction entry. Only the latest change can be undone, and
 * a correction is not itself undone (make the move again instead).
 */
export const CORRECTABLE: readonly Status[] = ['CK', 'PK', 'NS'];
export const UNDO_WINDOW_MS = 10 * 60_000;

/** The statuses in which an appointment holds its doctor's time and its patient: the others free the slot. */
export const HOLDS_SLOT: readonly Status[] = ['BK', 'CK', 'OG', 'PK'];
