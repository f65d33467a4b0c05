import Provider, { type Configuration, type KoaContextWithOIDC, errors, interactionPolicy } from 'oidc-provider';
import type { Service } from '../service.js';
import { SIGNING_ALG } from './keys.js';
import { errorPage, pageHeaders } from './pages.js';
import { API_SCOPES, OIDC_SCOPES } from './scopes.js';

export const OAUTH_PREFIX = '/oauth2';
export const ACCESS_TOKEN_TTL_S = 3600;
const DAY_S = 24 * 3600;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** An http URL on a loopback host, any port (RFC 8252 §7.3). */
function loopback(value: string): URL | null {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname) ? u : null;
  } catch {
    return null;
  }
}

const sameButPort = (a: URL, b: URL) => {
  const x = new URL(a.href);
  const y = new URL(b.href);
  x.port = '';
  y.port = '';
  return x.href === y.href;
};

/**
 * The OpenID provider (oidc-provider, the certified reference implementation) for AI assistants: dynamic
 * registration of public clients, authorization code with PKCE S256 only, loopback redirects on any port,
 * rotating refresh tokens, revocation, and ES256 JWT access tokens whose audience is this service (resource
 * indicators: `<issuer>` the API, `<issuer>/mcp` the MCP endpoint). Persistence and keys come from
 * service.oidc; the sign-in and consent pages are routes.ts's. Mounted at the root with every endpoint
 * under /oauth2, so the issuer can be the service's base URL and discovery sits where clients look for it.
 */
export function createProvider({ oidc, auth }: Pick<Service, 'oidc' | 'auth'>, issuer: string): Provider {
  const resources = { api: issuer, mcp: `${issuer}/mcp` };

  // Consent is asked the first time a client reaches a user, even when it requests no scope at all.
  const policy = interactionPolicy.base();
  policy.get('consent')!.checks.add(new interactionPolicy.Check('first_authorization', 'the user has not approved this client yet', (ctx) => {
    const o = ctx.oidc as typeof ctx.oidc & { grant?: { jti?: string } };
    if (o.grant?.jti || (o.result && 'consent' in o.result)) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    return interactionPolicy.Check.REQUEST_PROMPT;
  }), 0);

  const configuration: Configuration = {
    adapter: oidc.Adapter,
    jwks: { keys: oidc.keys.signing as never },
    cookies: {
      keys: oidc.keys.cookies,
      names: { session: 'cd_oidc_session', interaction: 'cd_oidc_interaction', resume: 'cd_oidc_resume' },
      // Lax: every step of the flow is a top-level navigation or a same-site form post.
      long: { signed: true, httpOnly: true, sameSite: 'lax', path: '/' },
      short: { signed: true, httpOnly: true, sameSite: 'lax', path: '/' },
    },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'] },
    scopes: [...OIDC_SCOPES],
    conformIdTokenClaims: false,
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: SIGNING_ALG,
    },
    // Public clients only: an assistant on someone's computer cannot keep a secret.
    clientAuthMethods: ['none'],
    responseTypes: ['code'],
    pkce: { methods: ['S256'], required: () => true },
    enabledJWA: { idTokenSigningAlgValues: [SIGNING_ALG], userinfoSigningAlgValues: [SIGNING_ALG] },
    routes: {
      authorization: `${OAUTH_PREFIX}/auth`,
      backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
      code_verification: `${OAUTH_PREFIX}/device`,
      device_authorization: `${OAUTH_PREFIX}/device/auth`,
      end_session: `${OAUTH_PREFIX}/session/end`,
      introspection: `${OAUTH_PREFIX}/token/introspection`,
      jwks: `${OAUTH_PREFIX}/jwks`,
      pushed_authorization_request: `${OAUTH_PREFIX}/request`,
      registration: `${OAUTH_PREFIX}/reg`,
      revocation: `${OAUTH_PREFIX}/token/revocation`,
      token: `${OAUTH_PREFIX}/token`,
      userinfo: `${OAUTH_PREFIX}/me`,
    },
    features: {
      devInteractions: { enabled: false },
      // No registration access token: MCP clients never manage their registration afterwards (RFC 7592 is off).
      registration: { enabled: true, initialAccessToken: false, ...{ issueRegistrationAccessToken: false } },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // No resource asked for: the API. At the token endpoint, the one resource the grant holds.
        defaultResource: async (_ctx, _client, oneOf) => (oneOf ? (oneOf.length === 1 ? oneOf[0]! : oneOf) : resources.api),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== resources.api && indicator !== resources.mcp) throw new errors.InvalidTarget('unknown resource: use this service\'s base URL or its /mcp endpoint');
          return {
            scope: API_SCOPES.join(' '),
            audience: indicator,
            accessTokenTTL: ACCESS_TOKEN_TTL_S,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_S,
      AuthorizationCode: 60,
      IdToken: ACCESS_TOKEN_TTL_S,
      Interaction: 3600,
      Session: 14 * DAY_S,
      // A connection lasts a year at most; unused for 30 days, its refresh token lapses (rotation renews it).
      Grant: 365 * DAY_S,
      RefreshToken: 30 * DAY_S,
    },
    // Refresh tokens for every client that registered the grant type: assistants connect for the long run,
    // whether or not they also ask for offline_access (which OIDC honours only with prompt=consent).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    interactions: {
      policy,
      url: async (_ctx, interaction) => `${OAUTH_PREFIX}/interaction/${interaction.uid}`,
    },
    findAccount: async (_ctx, sub) => {
      const user = await auth.user(sub);
      if (!user || user.disabled_at) return undefined;
      return { accountId: sub, claims: async () => ({ sub, name: user.display_name, preferred_username: user.username }) };
    },
    // The workspace (as our other tokens carry it) and the grant, which the API checks is still live.
    extraTokenClaims: async (_ctx, token) => {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      const user = typeof accountId === 'string' ? await auth.user(accountId) : undefined;
      return user ? { b_id: user.workspace_id, grant_id: (token as { grantId?: string }).grantId } : undefined;
    },
    // Browser-based MCP clients may call the token endpoint from their redirect origin.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((u) => {
      try {
        return new URL(u).origin === origin;
      } catch {
        return false;
      }
    }) ?? false,
    renderError: async (ctx, out) => {
      for (const [k, v] of Object.entries(pageHeaders())) ctx.set(k, v);
      ctx.type = 'html';
      ctx.body = errorPage('This sign-in cannot continue',
        'Go back to your assistant and start connecting again. If it keeps failing, the assistant may be misconfigured.',
        [out.error, out.error_description].filter(Boolean).join(': '));
    },
  };

  const provider = new Provider(issuer, configuration);

  // RFC 8252 §7.3: a loopback redirect URI matches whatever port the native app listens on this time. The
  // library does this for application_type native only; MCP clients register as web apps with loopback URIs.
  const Client = provider.Client as unknown as { prototype: { redirectUriAllowed(v: string): boolean; redirectUris: string[] } };
  const exactRedirect = Client.prototype.redirectUriAllowed;
  Client.prototype.redirectUriAllowed = function redirectUriAllowed(value: string) {
    if (exactRedirect.call(this, value)) return true;
    const asked = loopback(value);
    return !!asked && this.redirectUris.some((r) => {
      const registered = loopback(r);
      return !!registered && sameButPort(asked, registered);
    });
  };

  // Registration: MCP clients send the scopes they will ask for (ours included) as `scope`. The library accepts
  // only OpenID scopes there; API scopes are governed by the resource server, so they are dropped from the
  // registered value, not refused. Anything unknown is dropped likewise (RFC 7591 lets the server adjust).
  const Schema = (provider.Client as unknown as { Schema: { prototype: { scope?: string; scopes(): void } } }).Schema;
  const checkScopes = Schema.prototype.scopes;
  Schema.prototype.scopes = function scopes() {
    if (typeof this.scope === 'string') {
      const kept = this.scope.split(' ').filter((s) => (OIDC_SCOPES as readonly string[]).includes(s));
      if (kept.length) this.scope = kept.join(' ');
      else delete this.scope;
    }
    checkScopes.call(this);
  };

  // RFC 7009 on our JWT access tokens (the library revokes only tokens it stores): after the library has
  // authenticated the client and answered, remember the token as revoked until it would have expired.
  provider.use(async (ctx: KoaContextWithOIDC, next) => {
    await next();
    if (ctx.path === `${OAUTH_PREFIX}/token/revocation` && ctx.method === 'POST' && ctx.status === 200) {
      const token = ctx.oidc?.params?.token;
      const clientId = ctx.oidc?.client?.clientId;
      if (typeof token === 'string' && clientId) await oidc.revokeAccessToken(token, clientId);
    }
  });

  return provider;
}
