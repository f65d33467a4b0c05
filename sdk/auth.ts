/**
 * Tokens for the Clinic Desk API, the way the upstream SDKs get them: `POST /connect-auth/v1/account/login`
 * (client_id, client_secret, optional api_key) and `POST /connect-auth/v1/account/refresh` (refresh_token). The
 * access token is a JWT; its `exp` says when to refresh (a minute early). A refresh that fails falls back to a new
 * login. Works in Node (≥ 20) and browsers: it needs only fetch.
 */

import { type EnvironmentOptions, checkCredentials, environmentUrl } from './environment.js';

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  token_type?: string;
  expires_in?: number;
  refresh_expires_in?: number;
}

/** Anything that can hand out a current access token. */
export interface TokenProvider {
  /** A token good for at least a little while. */
  token(): Promise<string>;
  /** Called after a 401: get a fresh token (refresh, or log in again). */
  renew?(): Promise<string>;
  /** Sent as the `client-id` header, as upstream SDKs do. */
  readonly clientId?: string;
}

/** The server refused the credentials (401). */
export class AuthError extends Error {
  constructor(readonly status: number, readonly body: unknown, message: string) {
    super(message);
    this.name = 'AuthError';
  }
}

type Fetch = typeof fetch;

/** The `exp` of a JWT in milliseconds, or null when the token is not a JWT with one. Not verified: only a hint. */
export function jwtExpiresAt(token: string): number | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = new TextDecoder().decode(Uint8Array.from(atob(part.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

async function postJson(f: Fetch, url: string, body: unknown, headers: Record<string, string>): Promise<TokenSet> {
  const res = await f(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  if (!res.ok) {
    const detail = (json as { error_description?: string; message?: string } | null);
    throw new AuthError(res.status, json, `Token request failed with HTTP ${res.status}${detail?.error_description ? `: ${detail.error_description}` : detail?.message ? `: ${detail.message}` : ''}`);
  }
  if (!json || typeof (json as TokenSet).access_token !== 'string') throw new AuthError(res.status, json, 'The token response has no access_token');
  return json as TokenSet;
}

/** `baseUrl` is the clinic's service; `environment: 'sandbox'` sends every call to its sandbox (sdk/environment.ts). */
export interface ClientCredentials extends EnvironmentOptions {
  clientId: string;
  clientSecret: string;
  /** Names the workspace when the client may reach several (upstream's api_key). */
  apiKey?: string;
  fetch?: Fetch;
  /** Refresh this long before the access token expires. Default 60 s. */
  marginMs?: number;
  now?: () => number;
}

/**
 * Client-credentials login with automatic refresh. `token()` logs in on first use, refreshes before expiry, and
 * logs in again if the refresh token was refused (expired, revoked, or rotated by another holder).
 */
export class ClinicAuth implements TokenProvider {
  readonly clientId: string;
  private tokens: TokenSet | null = null;
  private expiresAt = 0;
  private pending: Promise<string> | null = null;
  private readonly f: Fetch;
  private readonly base: string;

  constructor(private readonly opts: ClientCredentials) {
    this.clientId = opts.clientId;
    this.f = opts.fetch ?? ((...a) => fetch(...a));
    this.base = environmentUrl(opts);
  }

  private now() {
    return this.opts.now?.() ?? Date.now();
  }

  private keep(t: TokenSet): string {
    this.tokens = t;
    this.expiresAt = jwtExpiresAt(t.access_token) ?? this.now() + (t.expires_in ?? 1800) * 1000;
    return t.access_token;
  }

  /** POST /connect-auth/v1/account/login. */
  async login(): Promise<TokenSet> {
    checkCredentials(this.opts.environment ?? 'production', { client_id: this.opts.clientId, client_secret: this.opts.clientSecret, api_key: this.opts.apiKey });
    const body: Record<string, string> = { client_id: this.opts.clientId, client_secret: this.opts.clientSecret };
    if (this.opts.apiKey) body.api_key = this.opts.apiKey;
    const t = await postJson(this.f, `${this.base}/connect-auth/v1/account/login`, body, { 'client-id': this.opts.clientId });
    this.keep(t);
    return t;
  }

  /** POST /connect-auth/v1/account/refresh with the current (or a given) refresh token. */
  async refresh(refreshToken = this.tokens?.refresh_token): Promise<TokenSet> {
    if (!refreshToken) throw new AuthError(0, null, 'No refresh token: log in first');
    checkCredentials(this.opts.environment ?? 'production', { refresh_token: refreshToken });
    const t = await postJson(this.f, `${this.base}/connect-auth/v1/account/refresh`, { refresh_token: refreshToken }, { 'client-id': this.opts.clientId });
    this.keep(t);
    return t;
  }

  /** The current token set (after a login or refresh), e.g. to store the refresh token. */
  get current(): TokenSet | null {
    return this.tokens;
  }

  private async fresh(): Promise<string> {
    if (this.tokens?.refresh_token) {
      try {
        return (await this.refresh()).access_token;
      } catch (e) {
        if (!(e instanceof AuthError)) throw e;
        // Refresh refused: start over with the client's credentials.
      }
    }
    return (await this.login()).access_token;
  }

  private once(fn: () => Promise<string>): Promise<string> {
    this.pending ??= fn().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  async token(): Promise<string> {
    const margin = this.opts.marginMs ?? 60_000;
    if (this.tokens && this.now() < this.expiresAt - margin) return this.tokens.access_token;
    return this.once(() => this.fresh());
  }

  renew(): Promise<string> {
    return this.once(() => this.fresh());
  }
}

/** A fixed token (a user's long-lived token, or an access token obtained elsewhere). */
export const staticToken = (token: string, clientId?: string): TokenProvider => ({ token: async () => token, clientId });
