import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Clock } from '../shared/time.js';

/**
 * The FCM HTTP v1 client: a JWT assertion signed (RS256) with the service account's key is exchanged at the
 * account's token_uri for an OAuth access token (cached until shortly before it expires), which authorises
 * `POST {fcmBase}/v1/projects/{project_id}/messages:send`. It only talks HTTP and classifies answers; the queue,
 * retries and device removal are the sender's (sender.ts).
 */

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
export const DEFAULT_FCM_BASE_URL = 'https://fcm.googleapis.com';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Lifetime of the signed assertion; Google accepts at most one hour. */
const ASSERTION_TTL_S = 3600;
/** A cached access token is replaced this long before it expires, so none expires in flight. */
export const TOKEN_EARLY_REFRESH_MS = 60_000;

/** A workspace's service account, ready to sign with. `credentialsId` changes whenever the credentials do. */
export interface FcmAccount {
  credentialsId: string;
  projectId: string;
  clientEmail: string;
  privateKeyId: string | null;
  tokenUri: string;
  key: KeyObject;
}

export interface PushContent {
  token: string;
  title: string;
  body: string;
  data: Record<string, string>;
}

/**
 * What one send came to. `unregistered`: the registration token is dead (remove the device). `retry`: a
 * transient failure (429, 5xx, network, an expired access token). `failed`: permanent, retrying cannot help.
 */
export type SendOutcome =
  | { kind: 'sent'; messageId: string | null }
  | { kind: 'unregistered'; error: string }
  | { kind: 'retry'; error: string; retryAfterMs: number | null }
  | { kind: 'failed'; error: string };

export interface FcmClientOptions {
  clock: Clock;
  baseUrl?: string;
  /** Per HTTP request. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Retry-After in milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return clip(text, 200);
  }
}

interface GoogleError {
  code?: number;
  message?: string;
  status?: string;
  details?: { '@type'?: string; errorCode?: string; fieldViolations?: { field?: string; description?: string }[] }[];
}

const googleError = (body: unknown): GoogleError =>
  body && typeof body === 'object' && 'error' in body && body.error && typeof body.error === 'object' ? (body.error as GoogleError) : {};

/**
 * Classifies an FCM messages:send error answer. UNREGISTERED (404) and INVALID_ARGUMENT about the token mean the
 * token will never work again; 429 and 5xx are transient; 401 means our access token is no longer accepted.
 */
export function classifySendError(status: number, body: unknown, retryAfterMs: number | null): SendOutcome {
  const e = googleError(body);
  const fcmCode = e.details?.find((d) => d.errorCode)?.errorCode ?? null;
  const what = [status, e.status, fcmCode].filter(Boolean).join(' ');
  const error = clip(`FCM ${what}: ${e.message ?? (typeof body === 'string' ? body : 'no message')}`);
  const aboutToken = e.details?.some((d) => d.fieldViolations?.some((v) => /token/i.test(v.field ?? '')))
    || /registration token|token is not a valid/i.test(e.message ?? '');
  if (fcmCode === 'UNREGISTERED' || status === 404) return { kind: 'unregistered', error };
  if (status === 400 && (fcmCode === 'INVALID_ARGUMENT' || e.status === 'INVALID_ARGUMENT') && aboutToken) return { kind: 'unregistered', error };
  if (status === 401) return { kind: 'retry', error, retryAfterMs: null };
  if (status === 429 || status >= 500) return { kind: 'retry', error, retryAfterMs };
  return { kind: 'failed', error };
}

export class TransientError extends Error {
  constructor(message: string, readonly retryAfterMs: number | null = null) {
    super(message);
  }
}
export class PermanentError extends Error {}

export function fcmClient(opts: FcmClientOptions) {
  const { clock } = opts;
  const base = (opts.baseUrl ?? DEFAULT_FCM_BASE_URL).replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const doFetch = opts.fetch ?? fetch;
  const tokens = new Map<string, { accessToken: string; expiresAtMs: number }>();
  const inflight = new Map<string, Promise<string>>();
  let tokenRequests = 0;

  const signalFor = (outer?: AbortSignal) => {
    const t = AbortSignal.timeout(timeoutMs);
    return outer ? AbortSignal.any([outer, t]) : t;
  };

  async function exchange(account: FcmAccount, signal?: AbortSignal): Promise<string> {
    const startedMs = clock.now().getTime();
    const now = Math.floor(startedMs / 1000);
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) })
      .setIssuer(account.clientEmail)
      .setAudience(account.tokenUri)
      .setIssuedAt(now)
      .setExpirationTime(now + ASSERTION_TTL_S)
      .sign(account.key);
    tokenRequests++;
    let res: Response;
    try {
      res = await doFetch(account.tokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString(),
        signal: signalFor(signal),
        redirect: 'error',
      });
    } catch (e) {
      throw new TransientError(`token_uri unreachable: ${(e as Error).message}`);
    }
    const body = await readJson(res);
    if (!res.ok) {
      const b = (body && typeof body === 'object' ? body : {}) as { error?: unknown; error_description?: unknown };
      const detail = clip(`${res.status} ${String(b.error ?? '')} ${String(b.error_description ?? '')}`.trim());
      if (res.status === 429 || res.status >= 500) {
        throw new TransientError(`token_uri answered ${detail}`, parseRetryAfter(res.headers.get('retry-after'), clock.now().getTime()));
      }
      throw new PermanentError(`token_uri refused the service account: ${detail}`);
    }
    const b = (body ?? {}) as { access_token?: unknown; expires_in?: unknown };
    if (typeof b.access_token !== 'string' || !b.access_token) throw new TransientError('token_uri answered without an access_token');
    const expiresIn = typeof b.expires_in === 'number' && b.expires_in > 0 ? b.expires_in : 3600;
    tokens.set(account.credentialsId, { accessToken: b.access_token, expiresAtMs: startedMs + expiresIn * 1000 });
    return b.access_token;
  }

  /** A valid access token for the account: the cached one unless it expires within a minute. */
  async function accessToken(account: FcmAccount, signal?: AbortSignal): Promise<string> {
    const cached = tokens.get(account.credentialsId);
    if (cached && clock.now().getTime() < cached.expiresAtMs - TOKEN_EARLY_REFRESH_MS) return cached.accessToken;
    // Concurrent sends share one exchange.
    let pending = inflight.get(account.credentialsId);
    if (!pending) {
      pending = exchange(account, signal).finally(() => inflight.delete(account.credentialsId));
      inflight.set(account.credentialsId, pending);
    }
    return pending;
  }

  async function send(account: FcmAccount, content: PushContent, signal?: AbortSignal): Promise<SendOutcome> {
    let token: string;
    try {
      token = await accessToken(account, signal);
    } catch (e) {
      if (e instanceof PermanentError) return { kind: 'failed', error: e.message };
      if (e instanceof TransientError) return { kind: 'retry', error: e.message, retryAfterMs: e.retryAfterMs };
      return { kind: 'retry', error: clip(`token exchange failed: ${(e as Error).message}`), retryAfterMs: null };
    }
    const message = {
      token: content.token,
      notification: { title: content.title, body: content.body },
      ...(Object.keys(content.data).length ? { data: content.data } : {}),
    };
    let res: Response;
    try {
      res = await doFetch(`${base}/v1/projects/${encodeURIComponent(account.projectId)}/messages:send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message }),
        signal: signalFor(signal),
        redirect: 'error',
      });
    } catch (e) {
      return { kind: 'retry', error: clip(`FCM unreachable: ${(e as Error).message}`), retryAfterMs: null };
    }
    const body = await readJson(res);
    if (res.ok) {
      const name = body && typeof body === 'object' && 'name' in body && typeof body.name === 'string' ? body.name : null;
      return { kind: 'sent', messageId: name };
    }
    // Our access token was refused: forget it so the next attempt exchanges a new one.
    if (res.status === 401) tokens.delete(account.credentialsId);
    return classifySendError(res.status, body, parseRetryAfter(res.headers.get('retry-after'), clock.now().getTime()));
  }

  return {
    send,
    accessToken,
    /** Drops cached access tokens of credentials that were replaced or deleted. */
    forget: (credentialsId: string) => void tokens.delete(credentialsId),
    /** How many token exchanges were made (diagnostics). */
    stats: () => ({ tokenRequests, cachedTokens: tokens.size }),
  };
}
export type FcmClient = ReturnType<typeof fcmClient>;
