import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { backupDatabase } from '../db/backup.js';
import { transaction } from '../db/tx.js';
import type { Service } from '../service.js';
import { ServiceError } from '../shared/errors.js';
import { ensurePrivateDir } from '../shared/private-files.js';
import { hashSecret, newToken, tokenDigest } from '../shared/secrets.js';
import { DEFAULT_SIGN_IN_LIMITS } from '../shared/sign-in-limiter.js';
import { isTimeZone, isoNow } from '../shared/time.js';
import type {
  ApiClient, ApiKey, Backup, ChangePasswordBody, CreatedApiClient, CreatedApiKey, Doctor, NewApiClientBody, NewApiKeyBody, NewUserBody,
  ResetPasswordBody, SessionInfo, SetupBody, SetupStatus, SignInBody, SignedIn, User,
} from './app-schemas.js';
import { type AnonymousContext, type Caller, type RequestContext, type Scope, can, isScope, ownsInstallation } from './permissions.js';
import { AuthError } from './service.js';
import { authStore, type UserRow, type WorkspaceRow } from './store.js';

/** The sign-in limits (shared/sign-in-limiter.ts): per username and address, per address, per username overall. */
export const SIGN_IN_LIMITS = DEFAULT_SIGN_IN_LIMITS;

// Any fixed number, distinct from the migrations' and the copy's locks ("setup" in ASCII).
const FIRST_RUN_LOCK = 0x7365747570;

// The limiter's address for sign-ins through the desktop app's IPC, which have no network address.
const DESKTOP = 'desktop app';

export class TooManyAttempts extends ServiceError {
  constructor(readonly retryAfterS: number) {
    super(429, 'TOO_MANY_ATTEMPTS', `Too many failed sign-ins. Wait ${Math.ceil(retryAfterS / 60)} minute(s) and try again, or ask your clinic's admin to reset the password.`);
  }
}

const forbidden = (what: string) => new ServiceError(403, 'FORBIDDEN', `Only a clinic admin may ${what}`);

const toSessionInfo = (u: UserRow, w: WorkspaceRow): SessionInfo => ({
  user: { id: u.id, username: u.username, display_name: u.display_name, role: u.role },
  workspace: { id: w.id, name: w.name, country: w.country, timezone: w.timezone },
});

const toUser = (u: UserRow): User => ({
  id: u.id, username: u.username, display_name: u.display_name, role: u.role, created_at: u.created_at, disabled_at: u.disabled_at,
});

/** A RequestContext for a caller, as both transports make one. */
export const contextOf = (caller: Caller, ip: string | null, requestId: string | null): RequestContext => ({ caller, ip, requestId });

/** Asks `scope` of the caller, as the HTTP routes' requireScope does; the IPC handlers call it before every service call. */
export function needScope(ctx: RequestContext, scope: Scope) {
  if (!ctx.caller.workspaceActive) throw new ServiceError(403, 'UNAUTHORIZED_ACCESS', 'Your clinic workspace is not active');
  if (!ctx.caller.scopes.has(scope)) throw new ServiceError(403, 'UNAUTHORIZED_ACCESS', `This needs the ${scope} permission, which your role does not have`);
}

const instances = new WeakMap<Service, ReturnType<typeof make>>();

/**
 * The app's accounts and settings operations, over the service: first-run setup, sign-in (rate-limited),
 * sessions, users, API clients and keys, backups. Transport-agnostic: session-routes.ts and
 * operations.ts put HTTP and IPC over it, app-api.ts IPC. Sign-in failures count in the service's one
 * limiter, shared with the assistants' browser sign-in (oidc/routes.ts), so no surface grants extra guesses.
 */
export function appAccounts(service: Service) {
  let a = instances.get(service);
  if (!a) instances.set(service, (a = make(service)));
  return a;
}

function make(service: Service) {
  const { auth, audit, clock, sql: db } = service;
  const store = authStore(db);
  const { limiter } = service.oidc;

  function checkLimit(username: string, ip: string | null) {
    const wait = limiter.retryAfter(username, ip ?? DESKTOP);
    if (wait) throw new TooManyAttempts(wait);
  }

  function requireAdmin(ctx: RequestContext, what: string) {
    if (!can(ctx.caller, 'admin')) {
      audit.later(ctx, { action: 'admin.access', outcome: 'denied' });
      throw forbidden(what);
    }
  }

  async function signedIn(user: UserRow, label: string): Promise<SignedIn> {
    const ws = (await auth.workspace(user.workspace_id))!;
    return { token: await auth.issueAuthToken(user.id, label), ...toSessionInfo(user, ws) };
  }

  const setupStatus = async (): Promise<SetupStatus> => ({ needed: (await auth.workspaces()).length === 0 });

  /** First run: creates the clinic and its admin, and signs the admin in. Refused once any clinic exists. */
  async function setup(body: SetupBody, ip: string | null): Promise<SignedIn> {
    const done = () => new ServiceError(409, 'ALREADY_SET_UP', 'This clinic is already set up: sign in instead');
    if (!(await setupStatus()).needed) throw done();
    const timezone = body.timezone ?? 'Asia/Kolkata';
    if (!isTimeZone(timezone)) throw new ServiceError(400, 'INVALID_REQUEST', `${timezone} is not a time zone we know (for example Asia/Kolkata)`);
    const passwordHash = await hashSecret(body.admin.password);
    const now = isoNow(clock);
    const workspace = { id: randomUUID(), name: body.clinic_name.trim(), country: body.country ?? 'IN', timezone, created_at: now, address: null };
    const user: Omit<UserRow, 'disabled_at'> = {
      id: randomUUID(), workspace_id: workspace.id, username: body.admin.username, display_name: body.admin.display_name?.trim() || body.admin.username,
      role: 'admin', password_hash: passwordHash, created_at: now, qualification: null, registration_number: null,
    };
    await transaction(db, async (tx) => {
      const inTx = authStore(tx);
      // Checked again inside the write: two first-run forms submitted at once make one clinic. SQLite's BEGIN
      // IMMEDIATE already makes them take turns; PostgreSQL's transactions would both see no clinic, so there they
      // queue on a lock held until commit.
      if (tx.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${FIRST_RUN_LOCK})`.execute(tx.k);
      if ((await inTx.workspaces()).length > 0) throw done();
      await inTx.insertWorkspace(workspace);
      await inTx.insertUser(user);
    });
    const result = await signedIn({ ...user, disabled_at: null }, 'app sign-in');
    audit.later({ caller: (await auth.authenticateToken(result.token))!, ip, requestId: null }, { action: 'clinic.setup', resourceType: 'workspace', resourceIds: [workspace.id], outcome: 'success' });
    return result;
  }

  /**
   * Checks a username and password and issues a long-lived user token labelled 'app sign-in'. The same answer
   * for an unknown user and a wrong password; past SIGN_IN_LIMITS (per username from this address, per address,
   * per username from all addresses) within the window, further attempts are refused with 429 until enough
   * failures leave the window.
   */
  async function signIn(body: SignInBody, ip: string | null, requestId: string | null = null): Promise<SignedIn> {
    const anon: AnonymousContext = { caller: null, ip, requestId };
    try {
      checkLimit(body.username, ip);
    } catch (e) {
      audit.later(anon, { action: 'session.sign_in', outcome: 'denied' });
      throw e;
    }
    const user = await auth.verifyPassword(body.username, body.password);
    if (!user) {
      limiter.failed(body.username, ip ?? DESKTOP);
      audit.later(anon, { action: 'session.sign_in', outcome: 'denied' });
      throw new ServiceError(401, 'INVALID_CREDENTIALS', 'That username and password do not match. Check both (passwords are case-sensitive) and try again.');
    }
    limiter.succeeded(body.username, ip ?? DESKTOP);
    const result = await signedIn(user, 'app sign-in');
    audit.later({ caller: (await auth.authenticateToken(result.token))!, ip, requestId }, { action: 'session.sign_in', resourceType: 'user', resourceIds: [user.id], outcome: 'success' });
    return result;
  }

  /** Revokes a user token (sign-out). Returns false when it was unknown or already revoked. */
  async function signOut(token: string, ctx?: RequestContext): Promise<boolean> {
    const revoked = await auth.revokeAuthToken(token);
    if (ctx) audit.later(ctx, { action: 'session.sign_out', resourceType: 'user', resourceIds: [ctx.caller.id], outcome: revoked ? 'success' : 'not_found' });
    return revoked;
  }

  /**
   * The signed-in user changes their own password. The current one is checked under the sign-in limiter and its
   * failures count there too, so a session left open is no way to guess it. Every other token of the user is
   * revoked (other devices must sign in with the new password); `keepToken`, the session making the change, stays.
   */
  async function changePassword(ctx: RequestContext, keepToken: string, body: ChangePasswordBody): Promise<void> {
    const user = ctx.caller.kind === 'user' ? await auth.user(ctx.caller.id) : undefined;
    if (!user) throw new ServiceError(400, 'INVALID_REQUEST', 'Only a signed-in clinic user can change their password');
    const denied = () => audit.later(ctx, { action: 'user.password_change', resourceType: 'user', resourceIds: [user.id], outcome: 'denied' });
    try {
      checkLimit(user.username, ctx.ip);
    } catch (e) {
      denied();
      throw e;
    }
    if (!(await auth.verifyPassword(user.username, body.current_password))) {
      limiter.failed(user.username, ctx.ip ?? DESKTOP);
      denied();
      throw new ServiceError(401, 'INVALID_CREDENTIALS', 'Your current password is not right (passwords are case-sensitive). Your password was not changed.');
    }
    limiter.succeeded(user.username, ctx.ip ?? DESKTOP);
    await auth.setPassword(user.id, body.new_password, keepToken);
    audit.later(ctx, { action: 'user.password_change', resourceType: 'user', resourceIds: [user.id], outcome: 'success' });
  }

  /**
   * An admin sets a new password for another user of the clinic (a forgotten one). All of that user's tokens are
   * revoked, and the sign-in lockout of their username is lifted: the lockout message sends them to the admin.
   * An admin's own password goes through changePassword, which asks for the current one.
   */
  async function resetPassword(ctx: RequestContext, userId: string, body: ResetPasswordBody): Promise<void> {
    requireAdmin(ctx, 'reset passwords');
    const user = await auth.user(userId);
    if (!user || user.workspace_id !== ctx.caller.workspaceId) throw new ServiceError(404, 'NOT_FOUND', 'No such user in your clinic');
    if (user.id === ctx.caller.id) throw new ServiceError(400, 'INVALID_REQUEST', 'To change your own password, use Change password (it asks for your current one)');
    await auth.setPassword(user.id, body.new_password);
    limiter.forgive(user.username);
    audit.later(ctx, { action: 'user.password_reset', resourceType: 'user', resourceIds: [user.id], outcome: 'success' });
  }

  /** Who a caller is, for the app: only users have a session. */
  async function session(caller: Caller): Promise<SessionInfo> {
    const user = caller.kind === 'user' ? await auth.user(caller.id) : undefined;
    const ws = await auth.workspace(caller.workspaceId);
    if (!user || !ws) throw new ServiceError(401, 'UNAUTHORIZED_ACCESS', 'Sign in as a clinic user (an API client has no app session)');
    return toSessionInfo(user, ws);
  }

  /** The user behind a token that is still valid, or undefined. */
  const tokenUser = (token: string) => store.tokenOwner(tokenDigest(token));

  async function users(ctx: RequestContext): Promise<User[]> {
    requireAdmin(ctx, 'see the user list');
    return (await auth.users(ctx.caller.workspaceId)).map(toUser);
  }

  async function createUser(ctx: RequestContext, body: NewUserBody): Promise<User> {
    requireAdmin(ctx, 'add users');
    try {
      const row = await auth.createUser(ctx.caller.workspaceId, { username: body.username, password: body.password, role: body.role, displayName: body.display_name?.trim() });
      audit.later(ctx, { action: 'user.create', resourceType: 'user', resourceIds: [row.id], outcome: 'success' });
      return toUser({ ...row, disabled_at: null });
    } catch (e) {
      if (e instanceof AuthError) throw new ServiceError(/taken/.test(e.message) ? 409 : 400, /taken/.test(e.message) ? 'USERNAME_TAKEN' : 'INVALID_REQUEST', `The ${e.message}`);
      throw e;
    }
  }

  async function setUserDisabled(ctx: RequestContext, userId: string, disabled: boolean): Promise<User> {
    requireAdmin(ctx, 'disable or enable users');
    const user = await auth.user(userId);
    if (!user || user.workspace_id !== ctx.caller.workspaceId) throw new ServiceError(404, 'NOT_FOUND', 'No such user in your clinic');
    if (disabled && user.id === ctx.caller.id) throw new ServiceError(400, 'INVALID_REQUEST', 'You cannot disable your own account; ask another admin');
    if (disabled) await store.disableUser(ctx.caller.workspaceId, userId, isoNow(clock));
    else await store.enableUser(ctx.caller.workspaceId, userId);
    audit.later(ctx, { action: disabled ? 'user.disable' : 'user.enable', resourceType: 'user', resourceIds: [userId], outcome: 'success' });
    return toUser((await auth.user(userId))!);
  }

  /** Doctors (and admins, who may consult) of the caller's clinic, for booking. */
  async function doctors(ctx: RequestContext): Promise<Doctor[]> {
    needScope(ctx, 'appointments:read');
    return (await auth.users(ctx.caller.workspaceId))
      .filter((u) => (u.role === 'doctor' || u.role === 'admin') && !u.disabled_at)
      .map((u) => ({ id: u.id, display_name: u.display_name, role: u.role }));
  }

  async function apiClients(ctx: RequestContext): Promise<ApiClient[]> {
    requireAdmin(ctx, 'see API clients');
    return (await store.clientsOf(ctx.caller.workspaceId)).map((c) => ({
      client_id: c.client_id, name: c.name, scopes: (JSON.parse(c.scopes) as string[]).filter(isScope), created_at: c.created_at, revoked_at: c.revoked_at,
    }));
  }

  async function createApiClient(ctx: RequestContext, body: NewApiClientBody): Promise<CreatedApiClient> {
    requireAdmin(ctx, 'create API clients');
    const c = await auth.createApiClient(ctx.caller.workspaceId, body.name.trim(), body.scopes);
    audit.later(ctx, { action: 'api_client.create', resourceType: 'api_client', resourceIds: [c.client_id], outcome: 'success' });
    return { ...c, name: body.name.trim() };
  }

  async function revokeApiClient(ctx: RequestContext, clientId: string) {
    requireAdmin(ctx, 'revoke API clients');
    if (!(await auth.revokeApiClient(ctx.caller.workspaceId, clientId))) throw new ServiceError(404, 'NOT_FOUND', 'No active API client with this id in your clinic');
    audit.later(ctx, { action: 'api_client.revoke', resourceType: 'api_client', resourceIds: [clientId], outcome: 'success' });
  }

  async function apiKeys(ctx: RequestContext): Promise<ApiKey[]> {
    requireAdmin(ctx, 'see API keys');
    return store.apiKeysOf(ctx.caller.workspaceId);
  }

  async function createApiKey(ctx: RequestContext, body: NewApiKeyBody): Promise<CreatedApiKey> {
    requireAdmin(ctx, 'create API keys');
    const key = newToken(service.environment.prefix('cdk'));
    const row = { id: randomUUID(), workspace_id: ctx.caller.workspaceId, key_digest: tokenDigest(key), label: body.label.trim(), created_at: isoNow(clock) };
    await store.insertApiKey(row);
    audit.later(ctx, { action: 'api_key.create', resourceType: 'api_key', resourceIds: [row.id], outcome: 'success' });
    return { id: row.id, label: row.label, api_key: key };
  }

  async function revokeApiKey(ctx: RequestContext, keyId: string) {
    requireAdmin(ctx, 'revoke API keys');
    if (!(await store.revokeApiKey(ctx.caller.workspaceId, keyId, isoNow(clock)))) throw new ServiceError(404, 'NOT_FOUND', 'No active API key with this id in your clinic');
    audit.later(ctx, { action: 'api_key.revoke', resourceType: 'api_key', resourceIds: [keyId], outcome: 'success' });
  }

  const backupDir = () => join(service.dataDir, 'backups');

  async function requireInstallationOwner(ctx: RequestContext, what: string) {
    requireAdmin(ctx, what);
    if (!ownsInstallation(ctx.caller, await store.ownerWorkspace())) {
      audit.later(ctx, { action: 'admin.access', outcome: 'denied' });
      throw new ServiceError(403, 'FORBIDDEN', `Only the admins of the clinic that set up this installation may ${what}: backups hold every clinic's data`);
    }
  }

  async function backups(ctx: RequestContext): Promise<Backup[]> {
    await requireInstallationOwner(ctx, 'see backups');
    const dir = backupDir();
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((n) => n.endsWith('.sqlite'))
      .map((name) => {
        const st = statSync(join(dir, name));
        return { name, path: join(dir, name), size_bytes: st.size, created_at: st.mtime.toISOString() };
      })
      .sort((a, b) => b.name.localeCompare(a.name));
  }

  /**
   * A consistent copy of the live database (SQLite's online backup) in <data dir>/backups. It holds every
   * clinic's data but not the key-encryption key, which is kept apart on purpose: keep both, separately.
   */
  async function backup(ctx: RequestContext): Promise<Backup> {
    await requireInstallationOwner(ctx, 'make backups');
    ensurePrivateDir(backupDir());
    const stamp = isoNow(clock).replace(/[:.]/g, '-');
    const name = `clinic-desk-${stamp}.sqlite`;
    const path = join(backupDir(), name);
    // Read entries waiting in the audit journal (audit/reads-worker.ts) go into the database first, so the copy has them.
    await audit.flush();
    await backupDatabase(service.db, path);
    audit.later(ctx, { action: 'database.backup', outcome: 'success' });
    const st = statSync(path);
    return { name, path, size_bytes: st.size, created_at: st.mtime.toISOString() };
  }

  return {
    setupStatus, setup, signIn, signOut, changePassword, session, tokenUser,
    users, createUser, setUserDisabled, resetPassword, doctors,
    apiClients, createApiClient, revokeApiClient,
    apiKeys, createApiKey, revokeApiKey,
    backups, backup,
  };
}
export type AppAccounts = ReturnType<typeof make>;
