import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseRetryAfter } from '../../notifications/fcm.js';
import { type Inbound, type OutgoingMessage, type SendOutcome, clip } from './outcome.js';

/**
 * The adapter for SMS providers with Twilio's REST interface (Twilio and the gateways that copy it):
 * `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded, HTTP Basic with the account SID and
 * auth token, a StatusCallback for delivery; status callbacks and inbound SMS come signed with `X-Twilio-Signature`,
 * base64 of HMAC-SHA1 over the full URL followed by each POST parameter (name then value, sorted by name) with the
 * auth token.
 */

export const DEFAULT_TWILIO_BASE_URL = 'https://api.twilio.com';

export interface TwilioAccount {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** The sender: a phone number, or a Messaging Service SID (MG…). */
  from: string;
}

/** Twilio's error code for a recipient who replied STOP to this sender. */
export const TWILIO_UNSUBSCRIBED = 21610;

export async function sendTwilio(account: TwilioAccount, m: OutgoingMessage, signal: AbortSignal): Promise<SendOutcome> {
  const url = `${account.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}/Messages.json`;
  const form = new URLSearchParams({ To: m.to, Body: m.text });
  form.set(account.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', account.from);
  if (m.statusCallback) form.set('StatusCallback', m.statusCallback);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      signal,
      redirect: 'error',
    });
  } catch (e) {
    return { kind: 'retry', error: clip(`SMS provider unreachable: ${(e as Error).message}`), retryAfterMs: null };
  }
  const text = await res.text().catch(() => '');
  let body: { sid?: string; code?: number; message?: string } = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    // Not JSON (a proxy's error page): classified by its status below.
  }
  if (res.ok && body.sid) return { kind: 'sent', messageId: body.sid };
  const error = clip(`SMS provider ${res.status}${body.code ? ` code ${body.code}` : ''}: ${body.message ?? (res.ok ? 'answered without a message sid' : clip(text, 120))}`);
  if (res.ok || res.status === 429 || res.status >= 500) {
    return { kind: 'retry', error, retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), Date.now()) };
  }
  return { kind: 'failed', error, optedOut: body.code === TWILIO_UNSUBSCRIBED };
}

/** X-Twilio-Signature's value for a request to `url` with these POST parameters. */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params).sort().reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

export function twilioSignatureValid(header: string | undefined, authToken: string, url: string, params: Record<string, string>): boolean {
  if (!header) return false;
  const given = Buffer.from(header);
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const STATUS: Record<string, 'sent' | 'delivered' | 'read' | 'failed'> = {
  sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed', undelivered: 'failed',
};

/** A (verified) status callback or inbound SMS. */
export function parseTwilioWebhook(params: Record<string, string>): Inbound[] {
  const sid = params.MessageSid ?? params.SmsSid;
  const status = params.MessageStatus ?? params.SmsStatus;
  if (sid && status && params.Body === undefined) {
    const mapped = STATUS[status];
    if (!mapped) return [];
    const error = params.ErrorCode ? clip(`SMS provider code ${params.ErrorCode}${params.ErrorMessage ? `: ${params.ErrorMessage}` : ''}`) : null;
    return [{ kind: 'status', messageId: sid, status: mapped, error }];
  }
  if (params.From && params.Body !== undefined) {
    return [{ kind: 'message', from: params.From, text: params.Body, payload: null, contextMessageId: null }];
  }
  return [];
}
