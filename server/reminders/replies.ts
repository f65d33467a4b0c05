import { BUTTON_ACTIONS } from './providers/whatsapp.js';

/** What a patient's message asks for. */
export type ReplyAction = 'confirm' | 'cancel' | 'reschedule' | 'stop' | 'start';

/**
 * SMS keywords. CANCEL, END, QUIT, STOPALL and UNSUBSCRIBE are opt-out words at Twilio (it stops delivering to the
 * number itself), so by SMS they opt out here too and X cancels the appointment; on WhatsApp, CANCEL cancels it.
 */
const KEYWORDS: Record<string, ReplyAction> = {
  C: 'confirm', CONFIRM: 'confirm',
  X: 'cancel',
  R: 'reschedule', RESCHEDULE: 'reschedule',
  STOP: 'stop', STOPALL: 'stop', UNSUBSCRIBE: 'stop', CANCEL: 'stop', END: 'stop', QUIT: 'stop',
  START: 'start', UNSTOP: 'start',
};

/**
 * A message's action and, for a WhatsApp button, the reminder it answers (its payload is `<action>:<reminder id>`).
 * Anything else is no action: the front desk reads it in the provider's inbox.
 */
export function interpret(channel: 'whatsapp' | 'twilio', text: string, payload: string | null): { action: ReplyAction; jobId: string | null } | null {
  if (payload) {
    const [action, jobId] = payload.split(':', 2);
    if ((BUTTON_ACTIONS as readonly string[]).includes(action ?? '') && jobId) return { action: action as ReplyAction, jobId };
  }
  const word = text.trim().replace(/[.!]+$/, '').toUpperCase();
  const action = channel === 'whatsapp' && word === 'CANCEL' ? 'cancel' : KEYWORDS[word];
  return action ? { action, jobId: null } : null;
}
