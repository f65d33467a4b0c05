import type { Db } from '../db/database.js';
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

/** All SQL of the auth domain. */
export function authStore(db: Db) {
  const q = {
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
  };
  let cache = principals.get(db);
  if (!cache) principals.set(db, (cache = new Map()));
  const cached = cache;
  /** A write's result, after dropping every cached principal when it changed something. */
  const invalidating = (changed: boolean) => {
    if (changed) cached.clear();
    return changed;
  };
  function tokenPrincipal(digest: string): TokenPrincipalRow | undefined {
    const hit = cached.get(digest);
    if (hit) return hit;
    const row = q.tokenPrincipal.get(digest) as TokenPrincipalRow | undefined;
    if (row && !db.inTransaction) {
      if (cached.size >= PRINCIPALS_MAX) cached.clear();
      cached.set(digest, row);
    }
    return row;
  }

  return {
    insertWorkspace: (w: Omit<WorkspaceRow, 'disabled_at'>) => q.insertWorkspace.run(w),
    workspace: (id: string) => q.workspace.get(id) as WorkspaceRow | undefined,
    workspaces: () => q.workspaces.all() as WorkspaceRow[],
    disableWorkspace: (id: string, at: string) => invalidating(q.disableWorkspace.run(at, id).changes > 0),
    insertUser: (u: Omit<UserRow, 'disabled_at'>) => q.insertUser.run(u),
    userByName: (username: string) => q.userByName.get(username) as UserRow | undefined,
    user: (id: string) => q.user.get(id) as UserRow | undefined,
    usersOf: (workspaceId: string) => q.usersOf.all(workspaceId) as UserRow[],
    insertToken: (t: { id: string; workspace_id: string; user_id: string; token_digest: string; label: string; scopes: string | null; created_at: string }) =>
      q.insertToken.run(t),
    tokenPrincipal,
    revokeToken: (digest: string, at: string) => invalidating(q.revokeToken.run(at, digest).changes > 0),
    insertApiKey: (k: { id: string; workspace_id: string; key_digest: string; label: string; created_at: string }) => q.insertApiKey.run(k),
    apiKeyWorkspace: (digest: string) => (q.apiKeyWorkspace.get(digest) as { workspace_id: string } | undefined)?.workspace_id,
    insertClient: (c: Omit<ClientRow, 'revoked_at'>) => q.insertClient.run(c),
    client: (clientId: string) => q.client.get(clientId) as ClientRow | undefined,
    revokeClient: (workspaceId: string, clientId: string, at: string) => q.revokeClient.run(at, clientId, workspaceId).changes > 0,
    clientsOf: (workspaceId: string) => q.clientsOf.all(workspaceId) as Omit<ClientRow, 'id' | 'workspace_id' | 'secret_hash'>[],
    apiKeysOf: (workspaceId: string) => q.apiKeysOf.all(workspaceId) as ApiKeyRow[],
    revokeApiKey: (workspaceId: string, id: string, at: string) => q.revokeApiKey.run(at, id, workspaceId).changes > 0,
    disableUser: (workspaceId: string, userId: string, at: string) => invalidating(q.disableUser.run(at, userId, workspaceId).changes > 0),
    enableUser: (workspaceId: string, userId: string) => q.enableUser.run(userId, workspaceId).changes > 0,
    tokenOwner: (digest: string) => (q.tokenOwner.get(digest) as { user_id: string } | undefined)?.user_id,
    setPasswordHash: (userId: string, hash: string) => q.setPasswordHash.run(hash, userId).changes > 0,
    /** Revokes every live token of a user except the one whose digest is `keepDigest` (null: all of them). */
    revokeUserTokens: (userId: string, at: string, keepDigest: string | null) =>
      invalidating(q.revokeUserTokens.run(at, userId, keepDigest).changes > 0),
  };
}
export type AuthStore = ReturnType<typeof authStore>;
