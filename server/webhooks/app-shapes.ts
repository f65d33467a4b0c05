import type { Static } from 'typebox';
import type { Delivery } from './schemas.js';

type Newest = Pick<Static<typeof Delivery>, 'status' | 'attempts' | 'last_status' | 'last_error'>;

/**
 * Why a subscription's deliveries are failing, from its newest delivery, or null while they are not: one that gave up
 * or is being retried after a failed attempt. The list shows it instead of "Active", which only says Clinic Desk
 * still sends, not that anything arrives. Both transports read the newest delivery and share this rule.
 */
export function failingOf(newest: Newest | undefined): string | null {
  if (!newest || !(newest.status === 'failed' || (newest.status === 'pending' && newest.attempts > 0))) return null;
  const answer = newest.last_error ?? (newest.last_status !== null ? `the receiver answered ${newest.last_status}` : 'no answer');
  return `${newest.status === 'failed' ? 'The last delivery failed' : 'Retrying the last delivery'}: ${answer}`;
}
