import { type JWTPayload, createLocalJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import { sql } from 'kysely';
import type { AuditLog } from '../audit/service.js';
import { type Caller, ROLE_SCOPES, type RequestContext, type Scope } from '../auth/permissions.js';
import type { AuthService } from '../auth/service.js';
import { type Executor, transaction } from '../db/tx.js';
import { ServiceError } from '../shared/errors.js';
import type { SecretBox } from '../shared/secret-box.js';
import { type Clock, isoNow } from '../shared/time.js';
import { modelAdapter } from './adapter.js';
import { SIGNING_ALG, loadProviderKeys } from './keys.js';
import type { ChangeBus } from '../db/change-bus.js';
import { type SignInLimits, signInLimiter } from '../shared/sign-in-limiter.js';
import { isApiScope } from './scopes.js';
import { oidcStore } from './store.js';

// Any fixed number, distinct from the service's other advisory locks: "oidckey" in ASCII, last bit cleared, the
// nearest number a double holds exactly (the literal was once ...79, which JavaScript rounded to this very value).
const PROVIDER_KEYS_LOCK = 0x6f6964636b6578;

export interface OidcOptions {
  /** Failed sign-in limits of the browser sign-in page (tests lower them). */
  signInLimits?: SignInLimits;
  /** The change bus through which a chain's instances count sign-in failures together (createService gives it). */
  bus?: ChangeBus;
}

/** The assistant behind a Caller resolved from one of our provider's access tokens. */
export interface AssistantInfo {
  clientId: string;
  grantId: string;
}

/** One connected assistant of a user, as the desktop settings list it. */
export interface ConnectedAssistant {
  id: string;
  client_id: string;
  client_name: string;
  client_uri: string | null;
  redirect_uris: string[];
  scopes: string[];
  connected_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** Which of our surfaces a token is presented to: the MCP endpoint takes only tokens issued for it. */
export type Surface = 'api' | 'mcp';

const DAY_S = 24 * 3600;
const iso = (s: number | null) => (s === null ? null : new Date(s * 1000).toISOString());

/**
 * The OpenID provider's state and the parts of it the rest of the service uses: its database adapter and keys,
 * the issuer (the service's public base URL, known once the HTTP app listens), verification of the access
 * tokens it issues, sign-in rate limiting, and each user's connected assistants (grants). The provider itself
 * (oidc-provider, HTTP only) is built over this in provider.ts.
 */
export async function oidcService(db: Executor, clock: Clock, box: SecretBox, auth: AuthService, audit: AuditLog, opts: OidcOptions = {}) {
  const store = oidcStore(db);
  // Instances of a chain starting together on an empty database must make one set of keys, or each would sign
  // tokens the other cannot verify: on PostgreSQL they queue on a lock held while the first makes them.
  const keys = await transaction(db, async (tx) => {
    if (tx.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${PROVIDER_KEYS_LOCK})`.execute(tx.k);
    return loadProviderKeys(oidcStore(tx), box, () => isoNow(clock));
  });
  const jwks = createLocalJWKSet({ keys: keys.verifying });
  const Adapter = modelAdapter(store, box);
  const limiter = signInLimiter(clock, opts.signInLimits, opts.bus);
  const assistants = new WeakMap<Caller, AssistantInfo>();
  let issuer: string | null = null;

  const purge = () => {
    const now = Math.floor(Date.now() / 1000);
    return store.purge(now, now - 30 * DAY_S);
  };
  await purge();
  // A failed hourly purge is tried again the next hour; an unhandled rejection would end the service.
  const timer = setInterval(() => void purge().catch((e: unknown) => console.error('clinic-desk oidc purge:', e)), 3600_000);
  timer.unref();

  /** The resource indicators of this service: the clinic API (the base URL) and the MCP endpoint. */
  function resources() {
    if (!issuer) return null;
    return { api: issuer, mcp: `${issuer}/mcp` };
  }

  /**
   * A user's Caller with the scopes of their role, narrowed to `granted` when given; null when the user is
   * unknown or disabled.
   */
  async function userCaller(userId: string, granted?: Iterable<string>): Promise<Caller | null> {
    const user = await auth.user(userId);
    if (!user || user.disabled_at) return null;
    const ws = await auth.workspace(user.workspace_id);
    const allowed = new Set<string>(granted ?? ROLE_SCOPES[user.role]);
    return {
      kind: 'user', id: user.id, workspaceId: user.workspace_id, workspaceActive: !!ws && !ws.disabled_at, role: user.role,
      scopes: new Set(ROLE_SCOPES[user.role].filter((s: Scope) => allowed.has(s))),
    };
  }

  async function verified(token: string, audience: string[]): Promise<JWTPayload | null> {
    if (!issuer) return null;
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer, audience, algorithms: [SIGNING_ALG], typ: 'at+jwt' });
      return payload;
    } catch (e) {
      if (e instanceof joseErrors.JOSEError) return null;
      throw e;
    }
  }

  /**
   * The Caller of a valid access token from our provider, acting as the signed-in user with that user's role
   * (narrowed to the scopes the user approved), or null. The token must be for this service (the API accepts
   * tokens for the API and for the MCP endpoint; the MCP endpoint only its own), unrevoked, and its grant must
   * still exist: disconnecting an assistant ends its live tokens at once.
   */
  async function verifyAccessToken(token: string, surface: Surface = 'api'): Promise<Caller | null> {
    const res = resources();
    if (!res) return null;
    const payload = await verified(token, surface === 'mcp' ? [res.mcp] : [res.api, res.mcp]);
    if (!payload) return null;
    const { sub, jti, client_id: clientId, grant_id: grantId, b_id: workspaceId } = payload as JWTPayload & Record<string, unknown>;
    if (typeof sub !== 'string' || typeof jti !== 'string' || typeof clientId !== 'string' || typeof grantId !== 'string') return null;
    if (await store.isRevoked(jti)) return null;
    const grant = await store.find('Grant', grantId);
    const now = Math.floor(Date.now() / 1000);
    if (!grant || (grant.expires_at !== null && grant.expires_at <= now) || grant.account_id !== sub || grant.client_id !== clientId) return null;
    const scopes = String(payload.scope ?? '').split(' ').filter(isApiScope);
    const caller = await userCaller(sub, scopes);
    if (!caller || caller.workspaceId !== workspaceId) return null;
    assistants.set(caller, { clientId, grantId });
    return caller;
  }

  /**
   * RFC 7009 for our JWT access tokens (the library can only revoke tokens it stores): a valid access token of
   * `clientId` is refused from now until it would have expired. Anything else is ignored, as the RFC says.
   */
  async function revokeAccessToken(token: string, clientId: string): Promise<boolean> {
    const res = resources();
    if (!res) return false;
    const payload = await verified(token, [res.api, res.mcp]);
    if (!payload || payload.client_id !== clientId || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return false;
    await store.revokeJti(payload.jti, payload.exp);
    return true;
  }

  function ownGrantsOnly(ctx: RequestContext) {
    if (ctx.caller.kind !== 'user') throw new ServiceError(403, 'FORBIDDEN', 'Only a signed-in user has connected assistants');
    if (assistants.has(ctx.caller)) {
      throw new ServiceError(403, 'FORBIDDEN', 'An assistant cannot list or disconnect assistants; sign in to Clinic Desk to do that');
    }
  }

  /** The assistants the calling user has connected (their live grants), newest first. */
  async function connectedAssistants(ctx: RequestContext): Promise<ConnectedAssistant[]> {
    ownGrantsOnly(ctx);
    const rows = await store.grantsOf(ctx.caller.id, Math.floor(Date.now() / 1000));
    audit.later(ctx, { action: 'oidc.grant.list', resourceType: 'oidc_grant', resourceIds: rows.map((r) => r.grant_id), outcome: 'success' });
    return rows.map((r) => {
      const grant = JSON.parse(r.grant_payload) as { clientId: string; openid?: { scope?: string }; resources?: Record<string, string> };
      const client = r.client_payload ? JSON.parse(r.client_payload) as { client_name?: string; client_uri?: string; redirect_uris?: string[] } : {};
      const scopes = new Set<string>((grant.openid?.scope ?? '').split(' ').filter(Boolean));
      for (const s of Object.values(grant.resources ?? {})) for (const x of s.split(' ').filter(Boolean)) scopes.add(x);
      return {
        id: r.grant_id,
        client_id: grant.clientId,
        client_name: client.client_name ?? grant.clientId,
        client_uri: client.client_uri ?? null,
        redirect_uris: client.redirect_uris ?? [],
        scopes: [...scopes],
        connected_at: iso(r.created_at)!,
        last_used_at: iso(r.last_used_at),
        expires_at: iso(r.expires_at),
      };
    });
  }

  /** Disconnects one of the calling user's assistants: its grant and every token issued under it. */
  async function revokeAssistant(ctx: RequestContext, grantId: string) {
    ownGrantsOnly(ctx);
    const grant = await store.find('Grant', grantId);
    if (!grant || grant.account_id !== ctx.caller.id) {
      audit.later(ctx, { action: 'oidc.grant.revoke', resourceType: 'oidc_grant', resourceIds: [grantId], outcome: 'not_found' });
      throw new ServiceError(404, 'NOT_FOUND', 'No connected assistant with this id');
    }
    await transaction(db, async (tx) => {
      await oidcStore(tx).revokeGrant(grantId);
      await audit.inTransaction(tx, ctx, { action: 'oidc.grant.revoke', resourceType: 'oidc_grant', resourceIds: [grantId], outcome: 'success' });
    });
  }

  return {
    Adapter,
    keys,
    limiter,
    /** Sets the issuer: the service's public base URL (no trailing slash). */
    setIssuer(url: string) {
      issuer = url.replace(/\/+$/, '');
    },
    issuer: () => issuer,
    resources,
    userCaller,
    verifyAccessToken,
    revokeAccessToken,
    /** The assistant behind a Caller from verifyAccessToken, or undefined for any other caller. */
    assistantOf: (caller: Caller) => assistants.get(caller),
    connectedAssistants,
    revokeAssistant,
    close() {
      clearInterval(timer);
    },
  };
}
export type OidcService = Awaited<ReturnType<typeof oidcService>>;
