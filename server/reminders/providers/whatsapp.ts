import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseRetryAfter } from '../../notifications/fcm.js';
import { type Inbound, type OutgoingMessage, type SendOutcome, clip } from './outcome.js';

/**
 * The WhatsApp Business Cloud API adapter: template messages with quick-reply buttons
 * (`POST {base}/{version}/{phone-number-id}/messages`, Bearer access token), and the webhook Meta calls with
 * delivery statuses and the patient's messages, signed `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body
 * with the app secret>`.
 */

export const DEFAULT_WHATSAPP_BASE_URL = 'https://graph.facebook.com';
export const DEFAULT_WHATSAPP_VERSION = 'v21.0';

export interface WhatsAppAccount {
  baseUrl: string;
  version: string;
  phoneNumberId: string;
  accessToken: string;
  /** The approved templates: the reminder's and the booking confirmation's. */
  reminderTemplate: string;
  bookingTemplate: string;
}

/** Graph API error codes that are Meta being busy or failing, not the request being wrong. */
const TEMPORARY_CODES = new Set([1, 2, 4, 17, 80007, 130429, 131000, 131016, 131048, 131056, 133004]);

interface GraphError { message?: string; type?: string; code?: number; error_subcode?: number; error_data?: { details?: string } }

/** The quick-reply buttons' payloads: what a press sends back, naming the reminder it answers. */
export const BUTTON_ACTIONS = ['confirm', 'cancel', 'reschedule'] as const;

export function whatsappMessage(m: OutgoingMessage, account: WhatsAppAccount) {
  const f = m.facts;
  const text = (t: string) => ({ type: 'text', text: t || '-' });
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    // The Cloud API takes the number with or without its +; Meta's examples use digits only.
    to: m.to.replace(/^\+/, ''),
    type: 'template',
    template: {
      name: m.point === 'booking' ? account.bookingTemplate : account.reminderTemplate,
      language: { code: m.texts.whatsapp_language },
      components: [
        { type: 'body', parameters: [f.name, f.doctor, f.date, f.time, f.clinic, f.address, f.token].map(text) },
        ...BUTTON_ACTIONS.map((action, i) => ({
          type: 'button', sub_type: 'quick_reply', index: String(i), parameters: [{ type: 'payload', payload: `${action}:${m.jobId}` }],
        })),
      ],
    },
  };
}

export const sendWhatsApp = (account: WhatsAppAccount, m: OutgoingMessage, signal: AbortSignal) => post(account, whatsappMessage(m, account), signal);

/**
 * A plain text message: the clinic's answer to a patient's reply, which Meta allows without a template within the
 * 24 hours after the patient's own message.
 */
export const sendWhatsAppText = (account: WhatsAppAccount, to: string, text: string, signal: AbortSignal) =>
  post(account, { messaging_product: 'whatsapp', recipient_type: 'individual', to: to.replace(/^\+/, ''), type: 'text', text: { body: text } }, signal);

async function post(account: WhatsAppAccount, message: object, signal: AbortSignal): Promise<SendOutcome> {
  const url = `${account.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(account.version)}/${encodeURIComponent(account.phoneNumberId)}/messages`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal,
      redirect: 'error',
    });
  } catch (e) {
    return { kind: 'retry', error: clip(`WhatsApp unreachable: ${(e as Error).message}`), retryAfterMs: null };
  }
  const text = await res.text().catch(() => '');
  let body: { messages?: { id?: string }[]; error?: GraphError } = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    // Not JSON (a proxy's error page): classified by its status below.
  }
  const id = body.messages?.[0]?.id;
  if (res.ok && id) return { kind: 'sent', messageId: id };
  const e = body.error ?? {};
  const error = clip(`WhatsApp ${res.status}${e.code ? ` code ${e.code}` : ''}: ${e.error_data?.details ?? e.message ?? (res.ok ? 'answered without a message id' : clip(text, 120))}`);
  if (res.ok || res.status === 429 || res.status >= 500 || (e.code !== undefined && TEMPORARY_CODES.has(e.code))) {
    return { kind: 'retry', error, retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), Date.now()) };
  }
  return { kind: 'failed', error };
}

/** Checks X-Hub-Signature-256 over the raw body with the app secret. */
export function whatsappSignatureValid(header: string | undefined, rawBody: Buffer, appSecret: string): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface WebhookBody {
  entry?: { changes?: { field?: string; value?: {
    statuses?: { id?: string; status?: string; errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[] }[];
    messages?: { from?: string; type?: string; text?: { body?: string }; button?: { payload?: string; text?: string };
      interactive?: { button_reply?: { id?: string; title?: string } }; context?: { id?: string } }[];
  } }[] }[];
}

const STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);

/** The statuses and messages of a (verified) webhook body; anything else in it is ignored. */
export function parseWhatsAppWebhook(body: unknown): Inbound[] {
  const out: Inbound[] = [];
  for (const entry of (body as WebhookBody)?.entry ?? []) {
    for (const change of entry.changes ?? []) {
      const v = change.value;
      if (change.field !== 'messages' || !v) continue;
      for (const s of v.statuses ?? []) {
        if (!s.id || !s.status || !STATUSES.has(s.status)) continue;
        const err = s.errors?.[0];
        out.push({
          kind: 'status', messageId: s.id, status: s.status as 'sent' | 'delivered' | 'read' | 'failed',
          error: err ? clip(`WhatsApp code ${err.code ?? '?'}: ${err.error_data?.details ?? err.message ?? err.title ?? ''}`) : null,
        });
      }
      for (const m of v.messages ?? []) {
        if (!m.from) continue;
        const payload = m.button?.payload ?? m.interactive?.button_reply?.id ?? null;
        const text = m.text?.body ?? m.button?.text ?? m.interactive?.button_reply?.title ?? '';
        out.push({ kind: 'message', from: `+${m.from.replace(/^\+/, '')}`, text, payload, contextMessageId: m.context?.id ?? null });
      }
    }
  }
  return out;
}
