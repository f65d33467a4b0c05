import type { Filled, Texts } from '../templates.js';

/** One message to a patient, as both adapters take it. */
export interface OutgoingMessage {
  /** The job it is for: WhatsApp's quick-reply buttons carry it back in their payload. */
  jobId: string;
  /** E.164 (+<cc><national>). */
  to: string;
  point: string;
  /** The rendered SMS text. */
  text: string;
  facts: Filled;
  texts: Texts;
  /** Where the provider reports delivery (Twilio's StatusCallback), or null when the clinic has no public address. */
  statusCallback: string | null;
}

/**
 * What a send came to. `retry`: a temporary failure (network, 429, 5xx); `failed`: permanent, the provider's reason
 * (4xx): sending again cannot help. `optedOut`: the provider says the number unsubscribed (Twilio 21610).
 */
export type SendOutcome =
  | { kind: 'sent'; messageId: string }
  | { kind: 'retry'; error: string; retryAfterMs: number | null }
  | { kind: 'failed'; error: string; optedOut?: boolean };

/** A delivery status or an inbound message, from either provider's webhook. */
export type Inbound =
  | { kind: 'status'; messageId: string; status: 'sent' | 'delivered' | 'read' | 'failed'; error: string | null }
  | { kind: 'message'; from: string; text: string; payload: string | null; contextMessageId: string | null };

export const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);
