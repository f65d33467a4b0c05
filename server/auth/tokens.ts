import { randomUUID } from 'node:crypto';
import { type CryptoKey, type JWK, SignJWT, decodeJwt, errors as joseErrors, exportJWK, generateKeyPair, importJWK, jwtVerify } from 'jose';
import { type Executor, transaction } from '../db/tx.js';
import { type Environment, environment } from '../shared/environment.js';
import { newToken, tokenDigest } from '../shared/secrets.js';
import type { SecretBox } from '../shared/secret-box.js';
import { type Clock, isoNow } from '../shared/time.js';
import type { Caller, Scope } from './permissions.js';
import { isScope } from './permissions.js';
import type { AuthService } from './service.js';
import { tokenStore } from './token-store.js';

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
export const AUDIENCE = 'clinic-desk-api';
const ALG = 'ES256';

/** An OAuth 2.0 error (RFC 6749 §5.2). */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope',
    readonly description: string,
  ) {
    super(description);
  }
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  refresh_expires_in: number;
  scope: string;
}

const looksLikeJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);

/**
 * Access and refresh tokens for API clients. Access tokens are ES256 JWTs (upstream SDKs read `exp` from them),
 * signed by a key the service generates, seals at rest and publishes as a JWKS; rotating it keeps the previous
 * key verifying until its last token expires, so nobody is logged out. Refresh tokens are opaque and rotate on use.
 * `env` names the issuer and the refresh tokens' prefix; credentials of the other environment get its 401.
 */
export function tokenService(db: Executor, clock: Clock, box: SecretBox, auth: AuthService, env: Environment = environment('production')) {
  const store = tokenStore(db);
  const privateKeys = new Map<string, CryptoKey>();
  const publicKeys = new Map<string, CryptoKey>();
  const sealContext = (kid: string) => `signing_key:${kid}`;

  async function signingKey(): Promise<{ kid: string; key: CryptoKey }> {
    let row = await store.activeKey();
    if (!row) {
      await rotate();
      row = (await store.activeKey())!;
    }
    let key = privateKeys.get(row.kid);
    if (!key) {
      const jwk = JSON.parse(box.open(row.private_jwk_sealed, sealContext(row.kid))) as JWK;
      key = (await importJWK(jwk, ALG)) as CryptoKey;
      privateKeys.set(row.kid, key);
    }
    return { kid: row.kid, key };
  }

  async function rotate(): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
    const kid = randomUUID();
    const now = isoNow(clock);
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    const sealed = box.seal(JSON.stringify(await exportJWK(privateKey)), sealContext(kid));
    await transaction(db, async (tx) => {
      const inTx = tokenStore(tx);
      await inTx.insertKey({ kid, alg: ALG, public_jwk: JSON.stringify(publicJwk), private_jwk_sealed: sealed, created_at: now });
      await inTx.retireOthers(kid, now);
    });
    privateKeys.set(kid, privateKey);
    return kid;
  }

  /** Public keys that may have signed a live token: the JWKS document. */
  async function jwks() {
    const since = new Date(clock.now().getTime() - ACCESS_TOKEN_TTL_S * 1000).toISOString();
    return { keys: (await store.verifyingKeys(since)).map((k) => JSON.parse(k.public_jwk) as JWK) };
  }

  async function publicKey(kid: string): Promise<CryptoKey | null> {
    const cached = publicKeys.get(kid);
    if (cached) return cached;
    const row = await store.key(kid);
    if (!row) return null;
    const key = (await importJWK(JSON.parse(row.public_jwk) as JWK, ALG)) as CryptoKey;
    publicKeys.set(kid, key);
    return key;
  }

  async function accessToken(caller: Caller, scopes: readonly Scope[]) {
    const { kid, key } = await signingKey();
    const now = Math.floor(clock.now().getTime() / 1000);
    return new SignJWT({ b_id: caller.workspaceId, client_id: caller.id, scope: scopes.join(' ') })
      .setProtectedHeader({ alg: ALG, kid, typ: 'at+jwt' })
      .setIssuer(env.issuer)
      .setAudience(AUDIENCE)
      .setSubject(caller.id)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + ACCESS_TOKEN_TTL_S)
      .sign(key);
  }

  async function newRefresh(caller: Caller, scopes: readonly Scope[], familyId: string) {
    const token = newToken(env.prefix('cdr'));
    const now = clock.now();
    await store.insertRefresh({
      id: randomUUID(), family_id: familyId, token_digest: tokenDigest(token), client_id: caller.id,
      workspace_id: caller.workspaceId, scopes: JSON.stringify(scopes), created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_S * 1000).toISOString(),
    });
    return token;
  }

  async function respond(caller: Caller, scopes: readonly Scope[], refreshToken: string): Promise<TokenResponse> {
    return {
      access_token: await accessToken(caller, scopes),
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_S,
      refresh_token: refreshToken,
      refresh_expires_in: REFRESH_TOKEN_TTL_S,
      scope: scopes.join(' '),
    };
  }

  /** client_credentials: `apiKey` (when given) must name the client's own workspace. */
  async function clientCredentials(clientId: string, clientSecret: string, apiKey: string | null): Promise<TokenResponse> {
    for (const credential of [clientId, clientSecret, apiKey ?? '']) refuseForeign(credential);
    const caller = await auth.verifyClient(clientId, clientSecret);
    if (!caller) throw new OAuthError(401, 'invalid_client', 'Unknown client or wrong client secret');
    if (apiKey !== null && (await auth.workspaceForApiKey(apiKey)) !== caller.workspaceId) {
      throw new OAuthError(401, 'invalid_client', 'The API key does not belong to this client\'s workspace');
    }
    if (!caller.workspaceActive) throw new OAuthError(400, 'invalid_grant', 'The workspace is disabled');
    const scopes = [...caller.scopes];
    return respond(caller, scopes, await newRefresh(caller, scopes, randomUUID()));
  }

  async function refresh(refreshToken: string): Promise<TokenResponse> {
    refuseForeign(refreshToken);
    const row = await store.refresh(tokenDigest(refreshToken));
    const now = isoNow(clock);
    if (!row) throw new OAuthError(400, 'invalid_grant', 'Unknown refresh token');
    if (row.revoked_at) throw new OAuthError(400, 'invalid_grant', 'Refresh token revoked');
    if (row.rotated_at || !(await store.rotate(row.id, now))) {
      // A rotated token presented again means two parties hold it: end the family so neither keeps access.
      await store.revokeFamily(row.family_id, now);
      throw new OAuthError(400, 'invalid_grant', 'Refresh token already used; its session has been revoked');
    }
    if (row.expires_at <= now) throw new OAuthError(400, 'invalid_grant', 'Refresh token expired');
    const caller = await auth.clientCaller(row.client_id);
    if (!caller || !caller.workspaceActive) throw new OAuthError(400, 'invalid_grant', 'The client is revoked or its workspace disabled');
    // Never more than the client holds now: narrowing a client's scopes applies at its next refresh.
    const scopes = (JSON.parse(row.scopes) as string[]).filter(isScope).filter((s) => caller.scopes.has(s));
    return respond(caller, scopes, await newRefresh(caller, scopes, row.family_id));
  }

  /**
   * The Caller of a valid access token, or null. A token of a since-revoked client stops working at once, and
   * carries no scope the client no longer has.
   */
  async function verifyAccessToken(token: string): Promise<Caller | null> {
    if (!looksLikeJwt(token)) return null;
    try {
      env.refuseForeignIssuer(decodeJwt(token).iss);
      const { payload } = await jwtVerify(token, async (header) => {
        const key = header.kid ? await publicKey(header.kid) : null;
        if (!key) throw new joseErrors.JWKSNoMatchingKey();
        return key;
      }, { issuer: env.issuer, audience: AUDIENCE, algorithms: [ALG], currentDate: clock.now(), typ: 'at+jwt' });
      const caller = typeof payload.client_id === 'string' ? await auth.clientCaller(payload.client_id) : null;
      if (!caller || caller.workspaceId !== payload.b_id) return null;
      const granted = new Set(String(payload.scope ?? '').split(' ').filter(isScope));
      return { ...caller, scopes: new Set([...caller.scopes].filter((s) => granted.has(s))) };
    } catch (e) {
      if (e instanceof joseErrors.JOSEError) return null;
      throw e;
    }
  }

  /** The token endpoint answers in OAuth's shape: the other environment's credential is an invalid client there. */
  function refuseForeign(credential: string) {
    try {
      env.refuseForeign(credential);
    } catch (e) {
      throw new OAuthError(401, 'invalid_client', (e as Error).message);
    }
  }

  return { clientCredentials, refresh, verifyAccessToken, jwks, rotateSigningKey: rotate, looksLikeJwt };
}
export type TokenService = ReturnType<typeof tokenService>;
