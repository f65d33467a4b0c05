import { sql } from 'kysely';
import { type Executor, transaction } from '../db/tx.js';

export interface CredentialsRow {
  workspace_id: string;
  id: string;
  project_id: string;
  client_email: string;
  client_id: string | null;
  private_key_id: string | null;
  private_key_sealed: string;
  token_uri: string;
  auth_uri: string | null;
  auth_provider_x509_cert_url: string | null;
  client_x509_cert_url: string | null;
  universe_domain: string | null;
  created_at: string;
  updated_at: string;
}

export type OwnerType = 'user' | 'client';

export interface DeviceRow {
  id: string;
  workspace_id: string;
  owner_type: OwnerType;
  owner_id: string;
  device_id: string;
  fcm_token: string;
  app_version: string;
  platform: string | null;
  created_at: string;
  updated_at: string;
}

export type JobStatus = 'pending' | 'sent' | 'failed' | 'cancelled';

export interface JobRow {
  id: string;
  workspace_id: string;
  device_row_id: string;
  title: string;
  body: string;
  data: string;
  status: JobStatus;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_error: string | null;
  fcm_message_id: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** How many rows a statement changed: Kysely answers a bigint (numAffectedRows) on both databases. */
const count = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0n);

export interface DueOptions {
  /**
   * PostgreSQL: lock the rows returned (FOR UPDATE SKIP LOCKED) until the caller's transaction ends, so that another
   * instance's claim skips them instead of fighting over them; run it on a transaction's executor. SQLite has no row
   * locks and needs none (one process, and a transaction holds the write lock from BEGIN IMMEDIATE): nothing is added.
   */
  skipLocked?: boolean;
}

/**
 * All SQL of the notifications domain, for SQLite and PostgreSQL alike (server/db/sql.ts says how): every statement
 * runs on `e.k`, the database's Kysely or the open transaction's, so a store made from a transaction
 * (`notificationStore(tx)`) writes inside it. None of these tables is insertion-ordered (no rowid, no seq): `SELECT *`
 * gives the same columns, in the same order, on both. Orders are by ISO timestamps and ids, which SQLite compares
 * by bytes; they are fixed-format ASCII, so PostgreSQL's collation (C in tests) orders them alike.
 */
export function notificationStore(e: Executor) {
  const k = e.k;

  const due = async (now: string, limit: number, opts: DueOptions = {}) =>
    (await sql<JobRow>`SELECT * FROM push_jobs WHERE status = 'pending' AND next_attempt_at <= ${now}
      AND (lease_until IS NULL OR lease_until <= ${now}) ORDER BY next_attempt_at, id LIMIT ${limit}${
        opts.skipLocked && e.dialect === 'postgres' ? sql` FOR UPDATE SKIP LOCKED` : sql``}`.execute(k)).rows;

  /**
   * The compare-and-set lease of several jobs at once: only those still pending and not held by another lease are
   * taken (their attempt counted); answers the ids taken. The list is padded to a power of two with its last id
   * (harmless in IN), so a batch of up to 64 makes at most 7 texts for SQLite's statement cache.
   */
  const leaseAll = async (ids: string[], now: string, leaseUntil: string): Promise<Set<string>> => {
    if (ids.length === 0) return new Set();
    const list = [...ids];
    while (list.length & (list.length - 1)) list.push(list[list.length - 1]!);
    const { rows } = await sql<{ id: string }>`UPDATE push_jobs SET lease_until = ${leaseUntil}, attempts = attempts + 1,
      updated_at = ${now} WHERE id IN (${sql.join(list)}) AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ${now})
      RETURNING id`.execute(k);
    return new Set(rows.map((r) => r.id));
  };

  return {
    async upsertCredentials(r: CredentialsRow) {
      await sql`INSERT INTO fcm_credentials
        (workspace_id, id, project_id, client_email, client_id, private_key_id, private_key_sealed, token_uri, auth_uri,
         auth_provider_x509_cert_url, client_x509_cert_url, universe_domain, created_at, updated_at)
        VALUES (${r.workspace_id}, ${r.id}, ${r.project_id}, ${r.client_email}, ${r.client_id}, ${r.private_key_id},
         ${r.private_key_sealed}, ${r.token_uri}, ${r.auth_uri}, ${r.auth_provider_x509_cert_url}, ${r.client_x509_cert_url},
         ${r.universe_domain}, ${r.created_at}, ${r.updated_at})
        ON CONFLICT (workspace_id) DO UPDATE SET id = excluded.id, project_id = excluded.project_id,
         client_email = excluded.client_email, client_id = excluded.client_id, private_key_id = excluded.private_key_id,
         private_key_sealed = excluded.private_key_sealed, token_uri = excluded.token_uri, auth_uri = excluded.auth_uri,
         auth_provider_x509_cert_url = excluded.auth_provider_x509_cert_url,
         client_x509_cert_url = excluded.client_x509_cert_url, universe_domain = excluded.universe_domain,
         updated_at = excluded.updated_at`.execute(k);
    },
    async credentials(workspaceId: string) {
      return (await sql<CredentialsRow>`SELECT * FROM fcm_credentials WHERE workspace_id = ${workspaceId}`.execute(k)).rows[0];
    },
    async deleteCredentials(workspaceId: string) {
      return count(await sql`DELETE FROM fcm_credentials WHERE workspace_id = ${workspaceId}`.execute(k)) > 0;
    },

    async device(id: string) {
      return (await sql<DeviceRow>`SELECT * FROM push_devices WHERE id = ${id}`.execute(k)).rows[0];
    },
    async ownDevice(workspaceId: string, ownerType: OwnerType, ownerId: string, deviceId: string) {
      return (await sql<DeviceRow>`SELECT * FROM push_devices WHERE workspace_id = ${workspaceId} AND owner_type = ${ownerType}
        AND owner_id = ${ownerId} AND device_id = ${deviceId}`.execute(k)).rows[0];
    },
    async devicesOf(workspaceId: string, ownerType: OwnerType, ownerId: string) {
      return (await sql<DeviceRow>`SELECT * FROM push_devices WHERE workspace_id = ${workspaceId} AND owner_type = ${ownerType}
        AND owner_id = ${ownerId} ORDER BY updated_at DESC, id`.execute(k)).rows;
    },
    /** Inserts or updates the owner's device of that did; returns the stored row. */
    async upsertDevice(r: DeviceRow) {
      return (await sql<DeviceRow>`INSERT INTO push_devices
        (id, workspace_id, owner_type, owner_id, device_id, fcm_token, app_version, platform, created_at, updated_at)
        VALUES (${r.id}, ${r.workspace_id}, ${r.owner_type}, ${r.owner_id}, ${r.device_id}, ${r.fcm_token}, ${r.app_version},
         ${r.platform}, ${r.created_at}, ${r.updated_at})
        ON CONFLICT (workspace_id, owner_type, owner_id, device_id) DO UPDATE SET fcm_token = excluded.fcm_token,
         app_version = excluded.app_version, platform = excluded.platform, updated_at = excluded.updated_at
        RETURNING *`.execute(k)).rows[0]!;
    },
    /** Another owner's (or another did's) row carrying the same registration token: the app instance has moved on. */
    async otherDevicesWithToken(workspaceId: string, token: string, exceptId: string) {
      return (await sql<{ id: string }>`SELECT id FROM push_devices WHERE workspace_id = ${workspaceId} AND fcm_token = ${token}
        AND id <> ${exceptId} ORDER BY id`.execute(k)).rows.map((r) => r.id);
    },
    async deleteDevice(id: string) {
      return count(await sql`DELETE FROM push_devices WHERE id = ${id}`.execute(k)) > 0;
    },
    /** Deletes the device only while it still carries `token` (it may have re-registered a new one meanwhile). */
    async deleteDeviceIfToken(id: string, token: string) {
      return count(await sql`DELETE FROM push_devices WHERE id = ${id} AND fcm_token = ${token}`.execute(k)) > 0;
    },

    async insertJob(r: Pick<JobRow, 'id' | 'workspace_id' | 'device_row_id' | 'title' | 'body' | 'data' | 'next_attempt_at' | 'created_at'>) {
      await sql`INSERT INTO push_jobs
        (id, workspace_id, device_row_id, title, body, data, status, attempts, next_attempt_at, created_at, updated_at)
        VALUES (${r.id}, ${r.workspace_id}, ${r.device_row_id}, ${r.title}, ${r.body}, ${r.data}, 'pending', 0,
         ${r.next_attempt_at}, ${r.created_at}, ${r.created_at})`.execute(k);
    },
    /** Pending jobs due at `now` and not leased, by due time then id. */
    due,
    /** Takes a due job for this sender until `leaseUntil`, counting the attempt; false if someone else has it. */
    async lease(id: string, now: string, leaseUntil: string) {
      return (await leaseAll([id], now, leaseUntil)).has(id);
    },
    leaseAll,
    /**
     * Claims up to `limit` due jobs for this sender until `leaseUntil`, in one transaction (a savepoint inside `e`'s
     * when it is one): the due candidates, locked with SKIP LOCKED on PostgreSQL so that another instance claiming
     * at the same moment takes other rows, then leased with the compare-and-set above, which keeps a job from
     * being taken twice on any database. Answers the claimed jobs as they were before the lease (`attempts` not
     * yet counted), by due time then id, and how many were due. `asked` receives the ids it tried to lease: should
     * the claim fail (its commit's answer lost with the connection), those may be leased all the same.
     */
    claimDue(now: string, leaseUntil: string, limit: number, asked: string[] = []) {
      return transaction(e, async (tx) => {
        const inTx = notificationStore(tx);
        const candidates = await inTx.due(now, limit, { skipLocked: true });
        asked.push(...candidates.map((j) => j.id));
        const taken = await inTx.leaseAll(candidates.map((j) => j.id), now, leaseUntil);
        return { due: candidates.length, claimed: candidates.filter((j) => taken.has(j.id)) };
      });
    },
    /**
     * Gives back jobs leased by `leaseUntil` (this sender's lease, so that one another sender took since is left alone)
     * and never sent, uncounting the attempt their lease counted.
     */
    async releaseLeases(ids: readonly string[], leaseUntil: string) {
      if (ids.length === 0) return;
      await sql`UPDATE push_jobs SET lease_until = NULL, attempts = attempts - 1 WHERE id IN (${sql.join(ids)})
        AND status = 'pending' AND lease_until = ${leaseUntil}`.execute(k);
    },
    async finish(id: string, status: Exclude<JobStatus, 'pending'>, now: string, lastError: string | null, fcmMessageId: string | null) {
      await sql`UPDATE push_jobs SET status = ${status}, lease_until = NULL, last_error = COALESCE(${lastError}, last_error),
        fcm_message_id = ${fcmMessageId}, updated_at = ${now}, finished_at = ${now} WHERE id = ${id} AND status = 'pending'`.execute(k);
    },
    async retry(id: string, now: string, nextAttemptAt: string, lastError: string) {
      await sql`UPDATE push_jobs SET lease_until = NULL, last_error = ${lastError}, next_attempt_at = ${nextAttemptAt},
        updated_at = ${now} WHERE id = ${id} AND status = 'pending'`.execute(k);
    },
    async cancelForDevice(deviceRowId: string, now: string, reason: string) {
      return count(await sql`UPDATE push_jobs SET status = 'cancelled', lease_until = NULL, last_error = ${reason},
        updated_at = ${now}, finished_at = ${now} WHERE device_row_id = ${deviceRowId} AND status = 'pending'`.execute(k));
    },
    async cancelForWorkspace(workspaceId: string, now: string, reason: string) {
      return count(await sql`UPDATE push_jobs SET status = 'cancelled', lease_until = NULL, last_error = ${reason},
        updated_at = ${now}, finished_at = ${now} WHERE workspace_id = ${workspaceId} AND status = 'pending'`.execute(k));
    },
    /** The workspace's most recent jobs, newest first. */
    async jobs(workspaceId: string, limit: number) {
      return (await sql<JobRow>`SELECT * FROM push_jobs WHERE workspace_id = ${workspaceId}
        ORDER BY created_at DESC, id DESC LIMIT ${limit}`.execute(k)).rows;
    },
    async job(id: string) {
      return (await sql<JobRow>`SELECT * FROM push_jobs WHERE id = ${id}`.execute(k)).rows[0];
    },
    /** Forgets finished jobs older than `before`. */
    async prune(before: string) {
      return count(await sql`DELETE FROM push_jobs WHERE finished_at IS NOT NULL AND finished_at < ${before}`.execute(k));
    },
  };
}
export type NotificationStore = ReturnType<typeof notificationStore>;
