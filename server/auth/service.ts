import { randomUUID } from 'node:crypto';
import { type Executor, transaction } from '../db/tx.js';
import { type Environment, environment } from '../shared/environment.js';
import { hashSecret, newToken, tokenDigest, verifySecret } from '../shared/secrets.js';
import { type Clock, isTimeZone, isoNow } from '../shared/time.js';
import { type Caller, ROLE_SCOPES, type Role, type Scope, isScope } from './permissions.js';
import { type TokenPrincipalRow, authStore } from './store.js';

export class AuthError extends Error {}

export interface NewWorkspace {
  name: string;
  country?: string;
  timezone?: string;
}

const parseScopes = (json: string): Scope[] => (JSON.parse(json) as string[]).filter(isScope);

/**
 * Workspaces, users, tokens, API keys and clients; and turning presented credentials into a Caller. Credentials
 * carry `env`'s prefix, and a user token of the other environment is refused in words (shared/environment.ts).
 */
export function authService(db: Executor, clock: Clock, env: Environment = environment('production')) {
  const store = authStore(db);

  async function createWorkspace(input: NewWorkspace) {
    const timezone = input.timezone ?? 'Asia/Kolkata';
    if (!isTimeZone(timezone)) throw new AuthError(`unknown time zone ${timezone}`);
    const row = { id: randomUUID(), name: input.name, country: input.country ?? 'IN', timezone, created_at: isoNow(clock), address: null };
    await store.insertWorkspace(row);
    return { ...row, disabled_at: null };
  }

  async function createUser(workspaceId: string, input: { username: string; password: string; role: Role; displayName?: string }) {
    if (input.password.length < 8) throw new AuthError('password must have at least 8 characters');
    if (await store.userByName(input.username)) throw new AuthError(`username ${input.username} is taken`);
    const row = {
      id: randomUUID(),
      workspace_id: workspaceId,
      username: input.username,
      display_name: input.displayName ?? input.username,
      role: input.role,
      password_hash: await hashSecret(input.password),
      created_at: isoNow(clock),
      qualification: null,
      registration_number: null,
    };
    await store.insertUser(row);
    return row;
  }

  /** Checks a username and password; the same answer for an unknown user and a wrong password. */
  async function verifyPassword(username: string, password: string) {
    const user = await store.userByName(username);
    if (!user || user.disabled_at) {
      // Spend the same time as a real check so response time does not reveal which usernames exist.
      await verifySecret(password, await dummyHash());
      return null;
    }
    return (await verifySecret(password, user.password_hash)) ? user : null;
  }

  /**
   * Issues a long-lived token for the dr `auth` header. `scopes` narrows the role (an integration that only
   * searches patients need not be able to change appointments); it can never widen it.
   */
  async function issueAuthToken(userId: string, label: string, scopes?: Scope[]): Promise<string> {
    const user = await store.user(userId);
    if (!user) throw new AuthError('unknown user');
    const allowed = ROLE_SCOPES[user.role];
    if (scopes?.some((s) => !allowed.includes(s))) throw new AuthError(`role ${user.role} cannot grant ${scopes.join(' ')}`);
    const token = newToken(env.prefix('cdt'));
    await store.insertToken({
      id: randomUUID(), workspace_id: user.workspace_id, user_id: user.id, token_digest: tokenDigest(token), label,
      scopes: scopes ? JSON.stringify(scopes) : null, created_at: isoNow(clock),
    });
    return token;
  }

  /**
   * Replaces a user's password and revokes their tokens, in one transaction: whoever held a session under the old
   * password loses it. `keepToken` (the session making a self-change) stays valid.
   */
  async function setPassword(userId: string, password: string, keepToken?: string) {
    if (password.length < 8) throw new AuthError('password must have at least 8 characters');
    const hash = await hashSecret(password);
    await transaction(db, async (tx) => {
      const inTx = authStore(tx);
      if (!(await inTx.setPasswordHash(userId, hash))) throw new AuthError('unknown user');
      await inTx.revokeUserTokens(userId, isoNow(clock), keepToken ? tokenDigest(keepToken) : null);
    });
    // Again once committed: a principal read meanwhile (outside the transaction, on PostgreSQL) saw the old tokens.
    store.invalidatePrincipals();
  }

  const revokeAuthToken = (token: string) => store.revokeToken(tokenDigest(token), isoNow(clock));

  async function createApiKey(workspaceId: string, label: string): Promise<string> {
    const key = newToken(env.prefix('cdk'));
    await store.insertApiKey({ id: randomUUID(), workspace_id: workspaceId, key_digest: tokenDigest(key), label, created_at: isoNow(clock) });
    return key;
  }

  const workspaceForApiKey = (key: string) => store.apiKeyWorkspace(tokenDigest(key));

  async function createApiClient(workspaceId: string, name: string, scopes: Scope[]) {
    if (scopes.length === 0) throw new AuthError('an API client needs at least one scope');
    const clientId = `${env.prefix('cdc')}_${randomUUID().replaceAll('-', '')}`;
    const clientSecret = newToken(env.prefix('cds'));
    const secretHash = await hashSecret(clientSecret);
    await store.insertClient({
      id: randomUUID(), workspace_id: workspaceId, client_id: clientId, secret_hash: secretHash, name,
      scopes: JSON.stringify(scopes), created_at: isoNow(clock),
    });
    return { client_id: clientId, client_secret: clientSecret, scopes };
  }

  /** The Caller of an API client that is not revoked, or null. */
  async function clientCaller(clientId: string): Promise<Caller | null> {
    const row = await store.client(clientId);
    if (!row || row.revoked_at) return null;
    const ws = await store.workspace(row.workspace_id);
    return {
      kind: 'client', id: row.client_id, workspaceId: row.workspace_id, workspaceActive: !ws?.disabled_at, role: null,
      scopes: new Set(parseScopes(row.scopes)),
    };
  }

  /** Verifies client credentials; returns the client's Caller or null. */
  async function verifyClient(clientId: string, clientSecret: string): Promise<Caller | null> {
    const row = await store.client(clientId);
    if (!row || row.revoked_at) {
      await verifySecret(clientSecret, await dummyHash());
      return null;
    }
    return (await verifySecret(clientSecret, row.secret_hash)) ? clientCaller(clientId) : null;
  }

  // One Caller per cached principal row, made at its first request rather than at every one (a Set and an object per
  // search, bench/search.ts); it goes with its row when the principal cache drops that (auth/store.ts).
  const callers = new WeakMap<TokenPrincipalRow, Caller>();
  const principalCaller = (p: TokenPrincipalRow): Caller => {
    let caller = callers.get(p);
    if (!caller) {
      caller = {
        kind: 'user', id: p.user_id, workspaceId: p.workspace_id, workspaceActive: p.workspace_disabled_at === null,
        role: p.role, scopes: new Set(p.token_scopes ? parseScopes(p.token_scopes) : ROLE_SCOPES[p.role]),
      };
      callers.set(p, caller);
    }
    return caller;
  };

  /** Resolves a long-lived user token to its Caller; null when unknown, revoked or the user is disabled (the other environment's: its 401). */
  async function authenticateToken(token: string): Promise<Caller | null> {
    env.refuseForeign(token);
    const p = await store.tokenPrincipal(tokenDigest(token));
    return p ? principalCaller(p) : null;
  }

  /**
   * authenticateToken without a promise when the token's principal is cached (every request of a signed-in user
   * after the first): its Caller, or undefined when the database must be asked. Throws for the other environment's.
   */
  function cachedCaller(token: string): Caller | undefined {
    env.refuseForeign(token);
    const p = store.cachedPrincipal(tokenDigest(token));
    return p ? principalCaller(p) : undefined;
  }

  return {
    createWorkspace,
    /** `e`: a transaction to read in (a change that needs the clinic's time zone). */
    workspace: (id: string, e?: Executor) => (e ? authStore(e) : store).workspace(id),
    workspaces: store.workspaces,
    disableWorkspace: async (id: string) => store.disableWorkspace(id, isoNow(clock)),
    createUser,
    user: (id: string, e?: Executor) => (e ? authStore(e) : store).user(id),
    users: store.usersOf,
    verifyPassword,
    setPassword,
    issueAuthToken,
    revokeAuthToken,
    createApiKey,
    workspaceForApiKey,
    createApiClient,
    revokeApiClient: async (workspaceId: string, clientId: string) => store.revokeClient(workspaceId, clientId, isoNow(clock)),
    verifyClient,
    clientCaller,
    authenticateToken,
    cachedCaller,
  };
}
export type AuthService = ReturnType<typeof authService>;

// A valid scrypt hash of a random string, checked against when the user or client does not exist.
let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hashSecret(newToken('dummy')));
