import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The webhook wire format, shared by the dispatcher and the receiver CLI (decisions.md, Webhooks):
 * compact JSON with every non-ASCII character escaped as \uXXXX (what upstream's Python receivers produce and
 * expect), signed as `t=<unix>,v1=<hex HMAC-SHA256(signing_key, "<t>.<body>")>`.
 */

/** Compact JSON with non-ASCII characters escaped as \uXXXX (UTF-16 code units, as Python's ensure_ascii). */
export function encodeBody(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function signatureHex(signingKey: string, t: number, body: string | Buffer): string {
  return createHmac('sha256', signingKey).update(`${t}.`).update(body).digest('hex');
}

/** The header value: `t=<unix>,v1=<hex>`. */
export function signatureHeader(signingKey: string, t: number, body: string | Buffer): string {
  return `t=${t},v1=${signatureHex(signingKey, t, body)}`;
}

/** The headers of one delivery attempt; no signature headers when the subscription has no key. */
export function deliveryHeaders(webhookId: string, t: number, body: string, signingKey: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'ClinicDesk-Webhooks/1.0',
    'webhook-id': webhookId,
    'webhook-timestamp': String(t),
  };
  if (signingKey !== null) {
    const sig = signatureHeader(signingKey, t, body);
    headers['webhook-signature'] = sig;
    headers['eka-webhook-signature'] = sig;
  }
  return headers;
}

export type VerifyResult = { ok: true; t: number } | { ok: false; reason: string };

/**
 * Verifies a signature header over the raw body bytes: the timestamp within `toleranceS` of `nowS`, and some
 * `v1` entry equal (in constant time) to the expected HMAC. Several `v1` entries are allowed (key rotation).
 */
export function verifySignature(
  header: string | undefined, rawBody: Buffer | string, signingKey: string,
  opts: { nowS: number; toleranceS: number },
): VerifyResult {
  if (!header) return { ok: false, reason: 'no signature header' };
  let t: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const k = part.slice(0, at).trim();
    const v = part.slice(at + 1).trim();
    if (k === 't' && /^\d{1,12}$/.test(v)) t = Number(v);
    else if (k === 'v1' && /^[0-9a-f]{64}$/i.test(v)) candidates.push(v.toLowerCase());
  }
  if (t === null) return { ok: false, reason: 'signature header has no timestamp' };
  if (candidates.length === 0) return { ok: false, reason: 'signature header has no v1 signature' };
  if (Math.abs(opts.nowS - t) > opts.toleranceS) return { ok: false, reason: `timestamp ${t} is outside the ${opts.toleranceS} s tolerance` };
  const expected = Buffer.from(signatureHex(signingKey, t, rawBody), 'hex');
  let match = false;
  for (const c of candidates) {
    // Compare every candidate, so the time taken does not tell which one matched.
    if (timingSafeEqual(Buffer.from(c, 'hex'), expected)) match = true;
  }
  return match ? { ok: true, t } : { ok: false, reason: 'signature does not match' };
}
