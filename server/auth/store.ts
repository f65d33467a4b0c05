import { type RawBuilder, sql } from 'kysely';
import type { SqlDatabase } from '../db/sql.js';
import { insertionOrder } from '../db/sql.js';
import { type Executor, Tx } from '../db/tx.js';
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
 * Token → principal answers, per database (every executor of it, a transaction's included, shares them): every API
 * request presents a token, and the join behind it costs about as much as the patient search itself. Cleared whole
 * by any write that could end a token's validity (revocation, revoking a user's tokens after a password change,
 * disabling a user or a workspace), through whichever store instance makes it, and again once the transaction that
 * made it has committed (`invalidatePrincipals`, which is also what a change-bus subscriber of another instance's
 * writes calls). Only positive answers are kept, and nothing read inside a transaction, which could still roll back.
 * A read that was under way while the cache was cleared is not kept either (`generation`): on PostgreSQL it may have
 * seen the row before the revocation committed. Roles and token scopes never change in place. While the change bus
 * is not listening (`trustPrincipals`), another instance's revocation would not reach the cache: it then keeps
 * nothing, and every token is checked against the database.
 */
interface PrincipalCache {
  readonly rows: Map<string, TokenPrincipalRow>;
  /** Counts clearings: a read keeps its answer only if no clearing happened while it ran. */
  generation: number;
  trusted: boolean;
}
const principals = new WeakMap<SqlDatabase, PrincipalCache>();
const PRINCIPALS_MAX = 10_000;

function principalCache(database: SqlDatabase): PrincipalCache {
  let cache = principals.get(database);
  if (!cache) principals.set(database, (cache = { rows: new Map(), generation: 0, trusted: true }));
  return cache;
}

/**
 * Drops every cached principal of `database`: after a change that may have ended some token's validity has
 * committed, here or (through the change bus's `principals` topic and its resync) on another instance.
 */
export function invalidatePrincipals(database: SqlDatabase): void {
  const cache = principalCache(database);
  cache.generation++;
  cache.rows.clear();
}

/**
 * Whether `database`'s principal cache may keep answers: false while the change bus that tells it of other instances'
 * revocations is not listening (createService). Either way what it held is dropped: it may have missed a revocation.
 */
export function trustPrincipals(database: SqlDatabase, trusted: boolean): void {
  principalCache(database).trusted = trusted;
  invalidatePrincipals(database);
}

const announcers = new WeakMap<SqlDatabase, () => void>();

/**
 * What tells the other instances of a chain that this one changed a token's validity (createService: a publish on
 * the change bus, whose subscribers there call invalidatePrincipals). A local clearing only, as a subscriber's, does
 * not announce.
 */
export function announcePrincipalChanges(database: SqlDatabase, announce: () => void): void {
  announcers.set(database, announce);
}

/** Clears here and tells the other instances: after this instance's own write. */
function principalsChanged(database: SqlDatabase): void {
  invalidatePrincipals(database);
  announcers.get(database)?.();
}

// Column lists in SQLite's table order: PostgreSQL's workspaces also has `seq` (sql.ts insertionOrder), which rows
// must not carry, and both databases then give the same keys in the same order.
const WORKSPACE_COLUMNS = sql.raw('id, name, country, timezone, created_at, disabled_at, address');
const USER_COLUMNS = sql.raw(
  'id, workspace_id, username, display_name, role, password_hash, created_at, disabled_at, qualification, registration_number');

const changed = (r: { numAffectedRows?: bigint }) => (r.numAffectedRows ?? 0n) > 0n;

/** A user's name, role and what a prescription prints under the name (profile.ts). */
export interface ProfileRow {
  id: string;
  workspace_id: string;
  display_name: string;
  role: string;
  qualification: string | null;
  registration_number: string | null;
}

/** All SQL of the auth domain. */
export function authStore(e: Executor) {
  const k = e.k;
  // NULL-safe inequality: SQLite's IS NOT is PostgreSQL's IS DISTINCT FROM.
  const isDistinctFrom = sql.raw(e.dialect === 'sqlite' ? 'IS NOT' : 'IS DISTINCT FROM');
  const cache = principalCache(e.database);
  const cached = cache.rows;
  /** A write's result, after dropping every cached principal when it changed something. */
  const invalidating = (didChange: boolean) => {
    if (didChange) principalsChanged(e.database);
    return didChange;
  };
  const first = async <T>(q: RawBuilder<T>): Promise<T | undefined> => (await q.execute(k)).rows[0];
  const all = async <T>(q: RawBuilder<T>): Promise<T[]> => (await q.execute(k)).rows;
  /** Whether a write changed a row: Kysely's numAffectedRows (a bigint) on both. */
  const run = async (q: RawBuilder<unknown>) => changed(await q.execute(k));

  async function tokenPrincipal(digest: string): Promise<TokenPrincipalRow | undefined> {
    const hit = cached.get(digest);
    if (hit) return hit;
    const generation = cache.generation;
    const row = await first(sql<TokenPrincipalRow>`
      SELECT u.id AS user_id, u.workspace_id, u.role, t.scopes AS token_scopes, w.disabled_at AS workspace_disabled_at
      FROM auth_tokens t JOIN users u ON u.id = t.user_id JOIN workspaces w ON w.id = u.workspace_id
      WHERE t.token_digest = ${digest} AND t.revoked_at IS NULL AND u.disabled_at IS NULL`);
    if (row && !(e instanceof Tx) && cache.trusted && cache.generation === generation) {
      if (cached.size >= PRINCIPALS_MAX) cached.clear();
      cached.set(digest, row);
    }
    return row;
  }

  return {
    async insertWorkspace(w: Omit<WorkspaceRow, 'disabled_at'>) {
      await sql`
      INSERT INTO workspaces (id, name, country, timezone, created_at)
      VALUES (${w.id}, ${w.name}, ${w.country}, ${w.timezone}, ${w.created_at})`.execute(k);
    },
    async workspace(id: string) {
      return first(sql<WorkspaceRow>`SELECT ${WORKSPACE_COLUMNS} FROM workspaces WHERE id = ${id}`);
    },
    /**
     * Hold a workspace's or a user's row until the transaction ends (PostgreSQL, FOR NO KEY UPDATE, which foreign-key
     * checks do not wait for; nothing on SQLite, whose transaction holds the write lock): the appointments domain
     * numbers a clinic's or a doctor's tokens and books a doctor's time one transaction at a time this way.
     */
    async lockWorkspace(id: string) {
      if (e.dialect === 'postgres') await sql`SELECT id FROM workspaces WHERE id = ${id} FOR NO KEY UPDATE`.execute(k);
    },
    async lockUser(id: string) {
      if (e.dialect === 'postgres') await sql`SELECT id FROM users WHERE id = ${id} FOR NO KEY UPDATE`.execute(k);
    },
    async workspaces() {
      return all(sql<WorkspaceRow>`SELECT ${WORKSPACE_COLUMNS} FROM workspaces ORDER BY created_at, id`);
    },
    async disableWorkspace(id: string, at: string) {
      return invalidating(await run(sql`UPDATE workspaces SET disabled_at = ${at} WHERE id = ${id} AND disabled_at IS NULL`));
    },
    async insertUser(u: Omit<UserRow, 'disabled_at'>) {
      await sql`
      INSERT INTO users (id, workspace_id, username, display_name, role, password_hash, created_at)
      VALUES (${u.id}, ${u.workspace_id}, ${u.username}, ${u.display_name}, ${u.role}, ${u.password_hash}, ${u.created_at})`.execute(k);
    },
    /** By name regardless of case: `username` is COLLATE NOCASE on SQLite and the `nocase` collation on PostgreSQL. */
    async userByName(username: string) {
      return first(sql<UserRow>`SELECT ${USER_COLUMNS} FROM users WHERE username = ${username}`);
    },
    async user(id: string) {
      return first(sql<UserRow>`SELECT ${USER_COLUMNS} FROM users WHERE id = ${id}`);
    },
    async usersOf(workspaceId: string) {
      return all(sql<UserRow>`SELECT ${USER_COLUMNS} FROM users WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`);
    },
    async insertToken(t: { id: string; workspace_id: string; user_id: string; token_digest: string; label: string; scopes: string | null; created_at: string }) {
      await sql`INSERT INTO auth_tokens (id, workspace_id, user_id, token_digest, label, scopes, created_at)
        VALUES (${t.id}, ${t.workspace_id}, ${t.user_id}, ${t.token_digest}, ${t.label}, ${t.scopes}, ${t.created_at})`.execute(k);
    },
    /** The principal of a token from the cache, without a promise: undefined when it is not cached (ask tokenPrincipal). */
    cachedPrincipal(digest: string) {
      return cached.get(digest);
    },
    tokenPrincipal,
    /** Drops every cached principal of this database (invalidatePrincipals): after a revoking transaction commits. */
    invalidatePrincipals() {
      return principalsChanged(e.database);
    },
    async revokeToken(digest: string, at: string) {
      return invalidating(await run(sql`UPDATE auth_tokens SET revoked_at = ${at} WHERE token_digest = ${digest} AND revoked_at IS NULL`));
    },
    async insertApiKey(r: { id: string; workspace_id: string; key_digest: string; label: string; created_at: string }) {
      await sql`INSERT INTO api_keys (id, workspace_id, key_digest, label, created_at)
        VALUES (${r.id}, ${r.workspace_id}, ${r.key_digest}, ${r.label}, ${r.created_at})`.execute(k);
    },
    async apiKeyWorkspace(digest: string) {
      return (await first(sql<{ workspace_id: string }>`SELECT workspace_id FROM api_keys WHERE key_digest = ${digest} AND revoked_at IS NULL`))?.workspace_id;
    },
    async insertClient(c: Omit<ClientRow, 'revoked_at'>) {
      await sql`
      INSERT INTO api_clients (id, workspace_id, client_id, secret_hash, name, scopes, created_at)
      VALUES (${c.id}, ${c.workspace_id}, ${c.client_id}, ${c.secret_hash}, ${c.name}, ${c.scopes}, ${c.created_at})`.execute(k);
    },
    async client(clientId: string) {
      return first(sql<ClientRow>`
      SELECT id, workspace_id, client_id, secret_hash, name, scopes, created_at, revoked_at FROM api_clients WHERE client_id = ${clientId}`);
    },
    async revokeClient(workspaceId: string, clientId: string, at: string) {
      return run(sql`
      UPDATE api_clients SET revoked_at = ${at} WHERE client_id = ${clientId} AND workspace_id = ${workspaceId} AND revoked_at IS NULL`);
    },
    // Settings screens (admin): lists without secrets, and switching things off.
    async clientsOf(workspaceId: string) {
      return all(sql<Omit<ClientRow, 'id' | 'workspace_id' | 'secret_hash'>>`
      SELECT client_id, name, scopes, created_at, revoked_at FROM api_clients WHERE workspace_id = ${workspaceId}
      ORDER BY created_at DESC, id`);
    },
    async apiKeysOf(workspaceId: string) {
      return all(sql<ApiKeyRow>`
      SELECT id, label, created_at, revoked_at FROM api_keys WHERE workspace_id = ${workspaceId} ORDER BY created_at DESC, id`);
    },
    async revokeApiKey(workspaceId: string, id: string, at: string) {
      return run(sql`
      UPDATE api_keys SET revoked_at = ${at} WHERE id = ${id} AND workspace_id = ${workspaceId} AND revoked_at IS NULL`);
    },
    async disableUser(workspaceId: string, userId: string, at: string) {
      return invalidating(await run(sql`
      UPDATE users SET disabled_at = ${at} WHERE id = ${userId} AND workspace_id = ${workspaceId} AND disabled_at IS NULL`));
    },
    async enableUser(workspaceId: string, userId: string) {
      return run(sql`
      UPDATE users SET disabled_at = NULL WHERE id = ${userId} AND workspace_id = ${workspaceId} AND disabled_at IS NOT NULL`);
    },
    async tokenOwner(digest: string) {
      return (await first(sql<{ user_id: string }>`SELECT user_id FROM auth_tokens WHERE token_digest = ${digest} AND revoked_at IS NULL`))?.user_id;
    },
    async setPasswordHash(userId: string, hash: string) {
      return run(sql`UPDATE users SET password_hash = ${hash} WHERE id = ${userId}`);
    },
    /**
     * Revokes every live token of a user except the one whose digest is `keepDigest` (null: all of them). Inside a
     * transaction, call invalidatePrincipals again once it has committed.
     */
    async revokeUserTokens(userId: string, at: string, keepDigest: string | null) {
      return invalidating(await run(sql`
      UPDATE auth_tokens SET revoked_at = ${at}
      WHERE user_id = ${userId} AND token_digest ${isDistinctFrom} ${keepDigest} AND revoked_at IS NULL`));
    },
    /** The id of the first clinic set up on this installation (its admins own the installation). */
    // Insertion order: created_at can tie, and ids are random.
    async ownerWorkspace() {
      return (await first(sql<{ id: string }>`SELECT id FROM workspaces ORDER BY ${insertionOrder(e.dialect)} LIMIT 1`))?.id;
    },
    async profile(userId: string) {
      return first(sql<ProfileRow>`
      SELECT id, workspace_id, display_name, role, qualification, registration_number FROM users WHERE id = ${userId}`);
    },
    /** Sets the fields given (undefined: left as it is; null: cleared). */
    async setProfile(userId: string, p: { qualification?: string | null; registration_number?: string | null }) {
      await sql`
      UPDATE users SET
        qualification = CASE WHEN ${p.qualification !== undefined ? 1 : 0} = 1 THEN ${p.qualification ?? null} ELSE qualification END,
        registration_number = CASE WHEN ${p.registration_number !== undefined ? 1 : 0} = 1 THEN ${p.registration_number ?? null}
          ELSE registration_number END
      WHERE id = ${userId}`.execute(k);
    },
    async clinic(workspaceId: string) {
      return first(sql<Pick<WorkspaceRow, 'id' | 'name' | 'address'>>`SELECT id, name, address FROM workspaces WHERE id = ${workspaceId}`);
    },
    async setClinicAddress(workspaceId: string, address: string | null) {
      await sql`UPDATE workspaces SET address = ${address} WHERE id = ${workspaceId}`.execute(k);
    },
  };
}
export type AuthStore = ReturnType<typeof authStore>;
