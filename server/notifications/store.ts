import { type Executor, perConnection } from '../db/tx.js';

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

const statements = perConnection((db) => ({
  upsertCreds: db.prepare(`INSERT INTO fcm_credentials
    (workspace_id, id, project_id, client_email, client_id, private_key_id, private_key_sealed, token_uri, auth_uri,
     auth_provider_x509_cert_url, client_x509_cert_url, universe_domain, created_at, updated_at)
    VALUES (@workspace_id, @id, @project_id, @client_email, @client_id, @private_key_id, @private_key_sealed, @token_uri,
     @auth_uri, @auth_provider_x509_cert_url, @client_x509_cert_url, @universe_domain, @created_at, @updated_at)
    ON CONFLICT (workspace_id) DO UPDATE SET id = excluded.id, project_id = excluded.project_id,
     client_email = excluded.client_email, client_id = excluded.client_id, private_key_id = excluded.private_key_id,
     private_key_sealed = excluded.private_key_sealed, token_uri = excluded.token_uri, auth_uri = excluded.auth_uri,
     auth_provider_x509_cert_url = excluded.auth_provider_x509_cert_url,
     client_x509_cert_url = excluded.client_x509_cert_url, universe_domain = excluded.universe_domain,
     updated_at = excluded.updated_at`),
  creds: db.prepare('SELECT * FROM fcm_credentials WHERE workspace_id = ?'),
  deleteCreds: db.prepare('DELETE FROM fcm_credentials WHERE workspace_id = ?'),

  device: db.prepare('SELECT * FROM push_devices WHERE id = ?'),
  ownDevice: db.prepare(`SELECT * FROM push_devices
    WHERE workspace_id = ? AND owner_type = ? AND owner_id = ? AND device_id = ?`),
  devicesOf: db.prepare(`SELECT * FROM push_devices WHERE workspace_id = ? AND owner_type = ? AND owner_id = ?
    ORDER BY updated_at DESC, id`),
  upsertDevice: db.prepare(`INSERT INTO push_devices
    (id, workspace_id, owner_type, owner_id, device_id, fcm_token, app_version, platform, created_at, updated_at)
    VALUES (@id, @workspace_id, @owner_type, @owner_id, @device_id, @fcm_token, @app_version, @platform, @created_at, @updated_at)
    ON CONFLICT (workspace_id, owner_type, owner_id, device_id) DO UPDATE SET fcm_token = excluded.fcm_token,
     app_version = excluded.app_version, platform = excluded.platform, updated_at = excluded.updated_at
    RETURNING *`),
  // Another owner's (or another did's) row carrying the same registration token: the app instance has moved on.
  sameToken: db.prepare('SELECT id FROM push_devices WHERE workspace_id = ? AND fcm_token = ? AND id <> ?'),
  deleteDevice: db.prepare('DELETE FROM push_devices WHERE id = ?'),
  deleteDeviceIfToken: db.prepare('DELETE FROM push_devices WHERE id = ? AND fcm_token = ?'),

  insertJob: db.prepare(`INSERT INTO push_jobs
    (id, workspace_id, device_row_id, title, body, data, status, attempts, next_attempt_at, created_at, updated_at)
    VALUES (@id, @workspace_id, @device_row_id, @title, @body, @data, 'pending', 0, @next_attempt_at, @created_at, @created_at)`),
  due: db.prepare(`SELECT * FROM push_jobs WHERE status = 'pending' AND next_attempt_at <= @now
    AND (lease_until IS NULL OR lease_until <= @now) ORDER BY next_attempt_at, id LIMIT @limit`),
  lease: db.prepare(`UPDATE push_jobs SET lease_until = @lease_until, attempts = attempts + 1, updated_at = @now
    WHERE id = @id AND status = 'pending' AND (lease_until IS NULL OR lease_until <= @now)`),
  finish: db.prepare(`UPDATE push_jobs SET status = @status, lease_until = NULL, last_error = COALESCE(@last_error, last_error),
    fcm_message_id = @fcm_message_id, updated_at = @now, finished_at = @now WHERE id = @id AND status = 'pending'`),
  retry: db.prepare(`UPDATE push_jobs SET lease_until = NULL, last_error = @last_error, next_attempt_at = @next_attempt_at,
    updated_at = @now WHERE id = @id AND status = 'pending'`),
  cancelForDevice: db.prepare(`UPDATE push_jobs SET status = 'cancelled', lease_until = NULL, last_error = @reason,
    updated_at = @now, finished_at = @now WHERE device_row_id = @device_row_id AND status = 'pending'`),
  cancelForWorkspace: db.prepare(`UPDATE push_jobs SET status = 'cancelled', lease_until = NULL, last_error = @reason,
    updated_at = @now, finished_at = @now WHERE workspace_id = @workspace_id AND status = 'pending'`),
  jobs: db.prepare('SELECT * FROM push_jobs WHERE workspace_id = ? ORDER BY created_at DESC, id DESC LIMIT ?'),
  job: db.prepare('SELECT * FROM push_jobs WHERE id = ?'),
  prune: db.prepare(`DELETE FROM push_jobs WHERE finished_at IS NOT NULL AND finished_at < ?`),
}));

/** All SQL of the notifications domain. */
export function notificationStore(e: Executor) {
  const q = statements(e);

  return {
    upsertCredentials: async (row: CredentialsRow) => void q.upsertCreds.run(row),
    credentials: async (workspaceId: string) => q.creds.get(workspaceId) as CredentialsRow | undefined,
    deleteCredentials: async (workspaceId: string) => q.deleteCreds.run(workspaceId).changes > 0,

    device: async (id: string) => q.device.get(id) as DeviceRow | undefined,
    ownDevice: async (workspaceId: string, ownerType: OwnerType, ownerId: string, deviceId: string) =>
      q.ownDevice.get(workspaceId, ownerType, ownerId, deviceId) as DeviceRow | undefined,
    devicesOf: async (workspaceId: string, ownerType: OwnerType, ownerId: string) =>
      q.devicesOf.all(workspaceId, ownerType, ownerId) as DeviceRow[],
    /** Inserts or updates the owner's device of that did; returns the stored row. */
    upsertDevice: async (row: DeviceRow) => q.upsertDevice.get(row) as DeviceRow,
    otherDevicesWithToken: async (workspaceId: string, token: string, exceptId: string) =>
      (q.sameToken.all(workspaceId, token, exceptId) as { id: string }[]).map((r) => r.id),
    deleteDevice: async (id: string) => q.deleteDevice.run(id).changes > 0,
    /** Deletes the device only while it still carries `token` (it may have re-registered a new one meanwhile). */
    deleteDeviceIfToken: async (id: string, token: string) => q.deleteDeviceIfToken.run(id, token).changes > 0,

    insertJob: async (row: Pick<JobRow, 'id' | 'workspace_id' | 'device_row_id' | 'title' | 'body' | 'data' | 'next_attempt_at' | 'created_at'>) =>
      void q.insertJob.run(row),
    due: async (now: string, limit: number) => q.due.all({ now, limit }) as JobRow[],
    /** Takes a due job for this sender until `leaseUntil`, counting the attempt; false if someone else has it. */
    lease: async (id: string, now: string, leaseUntil: string) => q.lease.run({ id, now, lease_until: leaseUntil }).changes > 0,
    finish: async (id: string, status: Exclude<JobStatus, 'pending'>, now: string, lastError: string | null, fcmMessageId: string | null) =>
      void q.finish.run({ id, status, now, last_error: lastError, fcm_message_id: fcmMessageId }),
    retry: async (id: string, now: string, nextAttemptAt: string, lastError: string) =>
      void q.retry.run({ id, now, next_attempt_at: nextAttemptAt, last_error: lastError }),
    cancelForDevice: async (deviceRowId: string, now: string, reason: string) =>
      q.cancelForDevice.run({ device_row_id: deviceRowId, now, reason }).changes,
    cancelForWorkspace: async (workspaceId: string, now: string, reason: string) =>
      q.cancelForWorkspace.run({ workspace_id: workspaceId, now, reason }).changes,
    jobs: async (workspaceId: string, limit: number) => q.jobs.all(workspaceId, limit) as JobRow[],
    job: async (id: string) => q.job.get(id) as JobRow | undefined,
    /** Forgets finished jobs older than `before`. */
    prune: async (before: string) => q.prune.run(before).changes,
  };
}
export type NotificationStore = ReturnType<typeof notificationStore>;
