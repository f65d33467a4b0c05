import type { Db } from '../db/database.js';
import { type Executor, Tx, connectionOf, perConnection } from '../db/tx.js';
import type { Role } from './permissions.js';

export interface WorkspaceRow {
  id: string;
  name: string;
  country: string;
  timezone: string;
  created_at: string;
  disabled_at: string | null;
  /** What a prescription prints at its top (migration 0011, set by PUT /api/v1/clinic); null until set. */
  address: string | null;
}

export interface UserRow {
  id: string;
  workspace_id: string;
  username: string;
  display_name: string;
  role: Role;
  password_hash: string;
  created_at: string;
  disabled_at: string | null;
  /** What a prescription prints under the doctor's name (migration 0011, the profile routes); null until set. */
  qualification: string | null;
  registration_number: string | null;
}

export interface TokenPrincipalRow {
  user_id: string;
  workspace_id: string;
  role: Role;
  token_scopes: string | null;
  workspace_disabled_at: string | null;
}

export interface ClientRow {
  id: string;
  workspace_id: string;
  client_id: string;
  secret_hash: string;
  name: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

export interface ApiKeyRow {
  id: string;
  label: string;
  created_at: string;
  revoked_at: string | null;
}

/**
 * Token → principal answers, per database: every API request presents a token, and the join behind it costs about
 * as much as the patient search itself. Cleared whole by any write that could end a token's validity (revocation,
 * revoking a user's tokens after a password change, disabling a user or a workspace), through whichever store instance makes it; only positive answers are kept,
 * and nothing read inside a transaction, which could still roll back. Roles and token scopes never change in place.
 */
const principals = new WeakMap<Db, Map<string, TokenPrincipalRow>>();
const PRINCIPALS_MAX = 10_000;

/** A user's name, role and what a prescription prints under the name (profile.ts). */
export interface ProfileRow {
  id: string;
  workspace_id: string;
  display_name: string;
  role: string;
  qualification: string | null;
  registration_number: string | null;
}

const statements = perConnection((db) => ({
  insertWorkspace: db.prepare(
    'INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES (@id, @name, @country, @timezone, @created_at)'),
  workspace: db.prepare('SELECT * FROM workspaces WHERE id = ?'),
  workspaces: db.prepare('SELECT * FROM workspaces ORDER BY created_at, id'),
  disableWorkspace: db.prepare('UPDATE workspaces SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL'),
  insertUser: db.prepare(`INSERT INTO users (id, workspace_id, username, display_name, role, password_hash, created_at)
    VALUES (@id, @workspace_id, @username, @display_name, @role, @password_hash, @created_at)`),
  userByName: db.prepare('SELECT * FROM users WHERE username = ?'),
  user: db.prepare('SELECT * FROM users WHERE id = ?'),
  usersOf: db.prepare('SELECT * FROM users WHERE workspace_id = ? ORDER BY created_at, id'),
  insertToken: db.prepare(`INSERT INTO auth_tokens (id, workspace_id, user_id, token_digest, label, scopes, created_at)
    VALUES (@id, @workspace_id, @user_id, @token_digest, @label, @scopes, @created_at)`),
  tokenPrincipal: db.prepare(`
    SELECT u.id AS user_id, u.workspace_id, u.role, t.scopes AS token_scopes, w.disabled_at AS workspace_disabled_at
    FROM auth_tokens t JOIN users u ON u.id = t.user_id JOIN workspaces w ON w.id = u.workspace_id
    WHERE t.token_digest = ? AND t.revoked_at IS NULL AND u.disabled_at IS NULL`),
  revokeToken: db.prepare('UPDATE auth_tokens SET revoked_at = ? WHERE token_digest = ? AND revoked_at IS NULL'),
  insertApiKey: db.prepare(`INSERT INTO api_keys (id, workspace_id, key_digest, label, created_at)
    VALUES (@id, @workspace_id, @key_digest, @label, @created_at)`),
  apiKeyWorkspace: db.prepare('SELECT workspace_id FROM api_keys WHERE key_digest = ? AND revoked_at IS NULL'),
  insertClient: db.prepare(`INSERT INTO api_clients (id, workspace_id, client_id, secret_hash, name, scopes, created_at)
    VALUES (@id, @workspace_id, @client_id, @secret_hash, @name, @scopes, @created_at)`),
  client: db.prepare('SELECT * FROM api_clients WHERE client_id = ?'),
  revokeClient: db.prepare('UPDATE api_clients SET revoked_at = ? WHERE client_id = ? AND workspace_id = ? AND revoked_at IS NULL'),
  // Settings screens (admin): lists without secrets, and switching things off.
  clientsOf: db.prepare(`SELECT client_id, name, scopes, created_at, revoked_at FROM api_clients WHERE workspace_id = ?
    ORDER BY created_at DESC, id`),
  apiKeysOf: db.prepare('SELECT id, label, created_at, revoked_at FROM api_keys WHERE workspace_id = ? ORDER BY created_at DESC, id'),
  revokeApiKey: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND workspace_id = ? AND revoked_at IS NULL'),
  disableUser: db.prepare('UPDATE users SET disabled_at = ? WHERE id = ? AND workspace_id = ? AND disabled_at IS NULL'),
  enableUser: db.prepare('UPDATE users SET disabled_at = NULL WHERE id = ? AND workspace_id = ? AND disabled_at IS NOT NULL'),
  tokenOwner: db.prepare('SELECT user_id FROM auth_tokens WHERE token_digest = ? AND revoked_at IS NULL'),
  setPasswordHash: db.prepare('UPDATE users SET password_hash = ? WHERE id = ?'),
  revokeUserTokens: db.prepare('UPDATE auth_tokens SET revoked_at = ? WHERE user_id = ? AND token_digest IS NOT ? AND revoked_at IS NULL'),
  // The first clinic ever created (rowid order: created_at can tie, and ids are random).
  ownerWorkspace: db.prepare('SELECT id FROM workspaces ORDER BY rowid LIMIT 1').pluck(),
  profile: db.prepare('SELECT id, workspace_id, display_name, role, qualification, registration_number FROM users WHERE id = ?'),
  setProfile: db.prepare(`UPDATE users SET qualification = CASE WHEN @set_q THEN @qualification ELSE qualification END,
    registration_number = CASE WHEN @set_r THEN @registration_number ELSE registration_number END WHERE id = @id`),
  clinic: db.prepare('SELECT id, name, address FROM workspaces WHERE id = ?'),
  setClinicAddress: db.prepare('UPDATE workspaces SET address = ? WHERE id = ?'),
}));

/** All SQL of the auth domain. */
export function authStore(e: Executor) {
  const q = statements(e);
  const db = connectionOf(e);
  let cache = principals.get(db);
  if (!cache) principals.set(db, (cache = new Map()));
  const cached = cache;
  /** A write's result, after dropping every cached principal when it changed something. */
  const invalidating = (changed: boolean) => {
    if (changed) cached.clear();
    return changed;
  };
  async function tokenPrincipal(digest: string): Promise<TokenPrincipalRow | undefined> {
    const hit = cached.get(digest);
    if (hit) return hit;
    const row = q.tokenPrincipal.get(digest) as TokenPrincipalRow | undefined;
    if (row && !(e instanceof Tx) && !db.inTransaction) {
      if (cached.size >= PRINCIPALS_MAX) cached.clear();
      cached.set(digest, row);
    }
    return row;
  }

  return {
    insertWorkspace: async (w: Omit<WorkspaceRow, 'disabled_at'>) => void q.insertWorkspace.run(w),
    workspace: async (id: string) => q.workspace.get(id) as WorkspaceRow | undefined,
    workspaces: async () => q.workspaces.all() as WorkspaceRow[],
    disableWorkspace: async (id: string, at: string) => invalidating(q.disableWorkspace.run(at, id).changes > 0),
    insertUser: async (u: Omit<UserRow, 'disabled_at'>) => void q.insertUser.run(u),
    userByName: async (username: string) => q.userByName.get(username) as UserRow | undefined,
    user: async (id: string) => q.user.get(id) as UserRow | undefined,
    usersOf: async (workspaceId: string) => q.usersOf.all(workspaceId) as UserRow[],
    insertToken: async (t: { id: string; workspace_id: string; user_id: string; token_digest: string; label: string; scopes: string | null; created_at: string }) =>
      void q.insertToken.run(t),
    /** The principal of a token from the cache, without a promise: undefined when it is not cached (ask tokenPrincipal). */
    cachedPrincipal: (digest: string) => cached.get(digest),
    tokenPrincipal,
    revokeToken: async (digest: string, at: string) => invalidating(q.revokeToken.run(at, digest).changes > 0),
    insertApiKey: async (k: { id: string; workspace_id: string; key_digest: string; label: string; created_at: string }) => void q.insertApiKey.run(k),
    apiKeyWorkspace: async (digest: string) => (q.apiKeyWorkspace.get(digest) as { workspace_id: string } | undefined)?.workspace_id,
    insertClient: async (c: Omit<ClientRow, 'revoked_at'>) => void q.insertClient.run(c),
    client: async (clientId: string) => q.client.get(clientId) as ClientRow | undefined,
    revokeClient: async (workspaceId: string, clientId: string, at: string) => q.revokeClient.run(at, clientId, workspaceId).changes > 0,
    clientsOf: async (workspaceId: string) => q.clientsOf.all(workspaceId) as Omit<ClientRow, 'id' | 'workspace_id' | 'secret_hash'>[],
    apiKeysOf: async (workspaceId: string) => q.apiKeysOf.all(workspaceId) as ApiKeyRow[],
    revokeApiKey: async (workspaceId: string, id: string, at: string) => q.revokeApiKey.run(at, id, workspaceId).changes > 0,
    disableUser: async (workspaceId: string, userId: string, at: string) => invalidating(q.disableUser.run(at, userId, workspaceId).changes > 0),
    enableUser: async (workspaceId: string, userId: string) => q.enableUser.run(userId, workspaceId).changes > 0,
    tokenOwner: async (digest: string) => (q.tokenOwner.get(digest) as { user_id: string } | undefined)?.user_id,
    setPasswordHash: async (userId: string, hash: string) => q.setPasswordHash.run(hash, userId).changes > 0,
    /** Revokes every live token of a user except the one whose digest is `keepDigest` (null: all of them). */
    revokeUserTokens: async (userId: string, at: string, keepDigest: string | null) =>
      invalidating(q.revokeUserTokens.run(at, userId, keepDigest).changes > 0),
    /** The id of the first clinic set up on this installation (its admins own the installation). */
    ownerWorkspace: async () => q.ownerWorkspace.get() as string | undefined,
    profile: async (userId: string) => q.profile.get(userId) as ProfileRow | undefined,
    /** Sets the fields given (undefined: left as it is; null: cleared). */
    setProfile: async (userId: string, p: { qualification?: string | null; registration_number?: string | null }) => void q.setProfile.run({
      id: userId, set_q: p.qualification !== undefined ? 1 : 0, qualification: p.qualification ?? null,
      set_r: p.registration_number !== undefined ? 1 : 0, registration_number: p.registration_number ?? null,
    }),
    clinic: async (workspaceId: string) => q.clinic.get(workspaceId) as Pick<WorkspaceRow, 'id' | 'name' | 'address'> | undefined,
    setClinicAddress: async (workspaceId: string, address: string | null) => void q.setClinicAddress.run(address, workspaceId),
  };
}
export type AuthStore = ReturnType<typeof authStore>;
