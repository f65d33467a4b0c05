import { type KeyObject, createPrivateKey, randomUUID } from 'node:crypto';
import { type RequestContext, staffKind } from '../auth/permissions.js';
import type { AuditLog } from '../audit/service.js';
import { type Executor, transaction, type Tx } from '../db/tx.js';
import { ServiceError, invalid } from '../shared/errors.js';
import { checkHttpsOrLoopback } from '../shared/loopback.js';
import type { SecretBox } from '../shared/secret-box.js';
import { type Clock, isoNow } from '../shared/time.js';
import { type FcmAccount, fcmClient } from './fcm.js';
import type { DeviceInfo, DevicePayload, FcmCredsInfo, SaKey } from './schemas.js';
import { type SenderOptions, UnreadableCredentials, pushSender } from './sender.js';
import { type CredentialsRow, type DeviceRow, type JobRow, type OwnerType, notificationStore } from './store.js';

export interface NotificationOptions extends SenderOptions {
  /** FCM's base address; tests point it at a local stand-in. Default https://fcm.googleapis.com. */
  fcmBaseUrl?: string;
  /** Per HTTP request to token_uri or FCM. */
  requestTimeoutMs?: number;
}

/** A push as other domains ask for it (the scribe, when a session completes or fails). */
export interface PushMessage {
  title: string;
  body: string;
  /** FCM data: string values only. */
  data?: Record<string, string>;
}

export interface EnqueueResult {
  /** Pushes queued: one per device. */
  queued: number;
  /** Why nothing was queued. */
  skipped?: 'no_credentials' | 'no_devices';
}

/** Devices kept per user or client; registering one more forgets the least recently registered. */
export const MAX_DEVICES_PER_OWNER = 20;
/** FCM refuses messages over 4 KB; we keep our part under that. */
const MAX_MESSAGE_BYTES = 4000;
const RESERVED_DATA_KEY = /^(from|notification|message_type)$|^(google|gcm)/i;

const PROJECT_ID = /^[A-Za-z0-9][A-Za-z0-9.:_-]{0,99}$/;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

const notFound = (message: string) => new ServiceError(404, 'NOT_FOUND', message);

/** token_uri must be https, or http on a loopback address (local stand-ins and tests). */
const checkTokenUri = (value: string) => void checkHttpsOrLoopback(value, 'sa_key.token_uri');

/**
 * Parses the PEM for real. Keys pasted with literal "\n" sequences instead of line breaks (a common copy of the
 * JSON string) are repaired first. Only RSA keys of 2048 bits or more can sign the RS256 assertion Google wants.
 */
function parsePrivateKey(pem: string): { pem: string; key: KeyObject } {
  const text = !pem.includes('\n') && pem.includes('\\n') ? pem.replaceAll('\\n', '\n') : pem;
  if (!/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(text)) {
    throw invalid('sa_key.private_key is not a PEM private key (-----BEGIN PRIVATE KEY-----)');
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    // The parser's own message is not passed on: nothing derived from the key leaves the service.
    throw invalid('sa_key.private_key does not parse as a PEM private key (or it is encrypted)');
  }
  if (key.asymmetricKeyType !== 'rsa') throw invalid('sa_key.private_key must be an RSA key (FCM signs with RS256)');
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw invalid('sa_key.private_key must be an RSA key of at least 2048 bits');
  return { pem: text, key };
}

const toDeviceInfo = (d: DeviceRow): DeviceInfo => ({
  did: d.device_id, 'app-version': d.app_version, 'app-platform': d.platform, created_at: d.created_at, updated_at: d.updated_at,
});

function toCredsInfo(row: CredentialsRow): FcmCredsInfo {
  return {
    sa_key: {
      type: 'service_account',
      project_id: row.project_id,
      private_key_id: row.private_key_id,
      client_email: row.client_email,
      client_id: row.client_id,
      auth_uri: row.auth_uri,
      token_uri: row.token_uri,
      auth_provider_x509_cert_url: row.auth_provider_x509_cert_url,
      client_x509_cert_url: row.client_x509_cert_url,
      universe_domain: row.universe_domain,
      universal_domain: row.universe_domain,
    },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function checkMessage(msg: PushMessage): Record<string, string> {
  if (typeof msg.title !== 'string' || typeof msg.body !== 'string') throw invalid('a push needs a title and a body');
  const data = msg.data ?? {};
  for (const [k, v] of Object.entries(data)) {
    if (typeof v !== 'string') throw invalid(`push data.${k} must be a string (FCM data values are strings)`);
    if (RESERVED_DATA_KEY.test(k)) throw invalid(`push data key ${k} is reserved by FCM`);
  }
  const size = Buffer.byteLength(JSON.stringify({ notification: { title: msg.title, body: msg.body }, data }));
  if (size > MAX_MESSAGE_BYTES) throw invalid(`push is ${size} bytes; FCM takes at most 4 KB`);
  return data;
}

/**
 * Push notifications: a workspace's FCM credentials (private key sealed at rest), the devices of its users and
 * API clients, and the durable queue the sender works through. Nothing here sends inline: enqueue* writes rows
 * and wakes the sender.
 */
export function notificationService(db: Executor, clock: Clock, box: SecretBox, audit: AuditLog, opts: NotificationOptions = {}) {
  const store = notificationStore(db);
  const fcm = fcmClient({ clock, baseUrl: opts.fcmBaseUrl, timeoutMs: opts.requestTimeoutMs });
  const sealContext = (workspaceId: string) => `fcm_private_key:${workspaceId}`;
  // Parsed keys by credentials id; a replaced or deleted set is dropped here and in the token cache.
  const accounts = new Map<string, FcmAccount>();

  async function account(workspaceId: string): Promise<FcmAccount | null> {
    const row = await store.credentials(workspaceId);
    if (!row) return null;
    let acc = accounts.get(row.id);
    if (!acc) {
      let key: KeyObject;
      try {
        key = createPrivateKey({ key: box.open(row.private_key_sealed, sealContext(workspaceId)), format: 'pem' });
      } catch (e) {
        throw new UnreadableCredentials((e as Error).message);
      }
      acc = {
        credentialsId: row.id, projectId: row.project_id, clientEmail: row.client_email, privateKeyId: row.private_key_id,
        tokenUri: row.token_uri, key,
      };
      accounts.set(row.id, acc);
    }
    return acc;
  }

  const forget = (row: CredentialsRow | undefined) => {
    if (!row) return;
    accounts.delete(row.id);
    fcm.forget(row.id);
  };

  const sender = pushSender({ db, store, clock, fcm, account }, opts);

  /** POST /notification/fcm-creds: validates the key for real and stores it, replacing any earlier set. */
  async function setCredentials(ctx: RequestContext, sa: SaKey): Promise<void> {
    if (sa.type !== 'service_account') throw invalid('sa_key.type must be service_account');
    if (!PROJECT_ID.test(sa.project_id)) throw invalid('sa_key.project_id is not a valid project id');
    if (!EMAIL.test(sa.client_email)) throw invalid('sa_key.client_email is not an e-mail address');
    checkTokenUri(sa.token_uri);
    if (sa.universal_domain !== undefined && sa.universe_domain !== undefined && sa.universal_domain !== sa.universe_domain) {
      throw invalid('sa_key.universal_domain and sa_key.universe_domain differ; send one of them');
    }
    if (typeof sa.client_id === 'number' && !Number.isFinite(sa.client_id)) throw invalid('sa_key.client_id must be a number or a string');
    const { pem } = parsePrivateKey(sa.private_key);
    const workspaceId = ctx.caller.workspaceId;
    const now = isoNow(clock);
    const id = randomUUID();
    const previous = await store.credentials(workspaceId);
    await transaction(db, async (tx) => {
      await notificationStore(tx).upsertCredentials({
        workspace_id: workspaceId,
        id,
        project_id: sa.project_id,
        client_email: sa.client_email,
        client_id: sa.client_id === undefined ? null : String(sa.client_id),
        private_key_id: sa.private_key_id ?? null,
        private_key_sealed: box.seal(pem, sealContext(workspaceId)),
        token_uri: sa.token_uri,
        auth_uri: sa.auth_uri ?? null,
        auth_provider_x509_cert_url: sa.auth_provider_x509_cert_url ?? null,
        client_x509_cert_url: sa.client_x509_cert_url ?? null,
        universe_domain: sa.universe_domain ?? sa.universal_domain ?? null,
        created_at: previous?.created_at ?? now,
        updated_at: now,
      });
      await audit.inTransaction(tx, ctx, {
        action: previous ? 'notification.credentials.replace' : 'notification.credentials.add',
        resourceType: 'fcm_credentials', resourceIds: [id], outcome: 'success',
      });
    });
    forget(previous);
  }

  async function credentials(ctx: RequestContext): Promise<FcmCredsInfo> {
    const row = await store.credentials(ctx.caller.workspaceId);
    audit.later(ctx, {
      action: 'notification.credentials.read', resourceType: 'fcm_credentials', resourceIds: row ? [row.id] : [],
      outcome: row ? 'success' : 'not_found',
    });
    if (!row) throw notFound('No FCM credentials are stored for this workspace');
    return toCredsInfo(row);
  }

  /** Removes the credentials; pushes still queued for the workspace are cancelled (nothing could send them). */
  async function deleteCredentials(ctx: RequestContext): Promise<void> {
    const workspaceId = ctx.caller.workspaceId;
    const row = await store.credentials(workspaceId);
    if (!row) {
      audit.later(ctx, { action: 'notification.credentials.delete', resourceType: 'fcm_credentials', outcome: 'not_found' });
      throw notFound('No FCM credentials are stored for this workspace');
    }
    await transaction(db, async (tx) => {
      const inTx = notificationStore(tx);
      await inTx.deleteCredentials(workspaceId);
      await inTx.cancelForWorkspace(workspaceId, isoNow(clock), 'FCM credentials deleted');
      await audit.inTransaction(tx, ctx, {
        action: 'notification.credentials.delete', resourceType: 'fcm_credentials', resourceIds: [row.id], outcome: 'success',
      });
    });
    forget(row);
  }

  const owner = (ctx: RequestContext): [OwnerType, string] => [staffKind(ctx.caller), ctx.caller.id];

  /**
   * Registers (or refreshes) a device of the caller. A registration token held by another device row of the
   * workspace moves here: the app instance now belongs to this caller. An owner keeps at most
   * MAX_DEVICES_PER_OWNER devices.
   */
  async function addDevice(ctx: RequestContext, p: DevicePayload): Promise<DeviceInfo> {
    const workspaceId = ctx.caller.workspaceId;
    const [ownerType, ownerId] = owner(ctx);
    const now = isoNow(clock);
    return transaction(db, async (tx) => {
      const inTx = notificationStore(tx);
      const row = await inTx.upsertDevice({
        id: randomUUID(), workspace_id: workspaceId, owner_type: ownerType, owner_id: ownerId, device_id: p.did,
        fcm_token: p['fcm-id'], app_version: p['app-version'], platform: p['app-platform'] ?? p['app-id'] ?? null,
        created_at: now, updated_at: now,
      });
      const dropped = await inTx.otherDevicesWithToken(workspaceId, row.fcm_token, row.id);
      const devices = await inTx.devicesOf(workspaceId, ownerType, ownerId);
      dropped.push(...devices.slice(MAX_DEVICES_PER_OWNER).map((d) => d.id));
      for (const id of dropped) {
        await inTx.deleteDevice(id);
        await inTx.cancelForDevice(id, now, 'device replaced');
      }
      await audit.inTransaction(tx, ctx, { action: 'notification.device.add', resourceType: 'push_device', resourceIds: [row.id], outcome: 'success' });
      return toDeviceInfo(row);
    });
  }

  /** Removes one of the caller's devices by its did; another caller's device is not found. */
  async function deleteDevice(ctx: RequestContext, did: string): Promise<void> {
    const [ownerType, ownerId] = owner(ctx);
    const row = await store.ownDevice(ctx.caller.workspaceId, ownerType, ownerId, did);
    if (!row) {
      audit.later(ctx, { action: 'notification.device.delete', resourceType: 'push_device', outcome: 'not_found' });
      throw notFound('No device with this device-id is registered for you');
    }
    await transaction(db, async (tx) => {
      const inTx = notificationStore(tx);
      await inTx.deleteDevice(row.id);
      await inTx.cancelForDevice(row.id, isoNow(clock), 'device removed');
      await audit.inTransaction(tx, ctx, { action: 'notification.device.delete', resourceType: 'push_device', resourceIds: [row.id], outcome: 'success' });
    });
  }

  async function devices(ctx: RequestContext): Promise<DeviceInfo[]> {
    const [ownerType, ownerId] = owner(ctx);
    return (await store.devicesOf(ctx.caller.workspaceId, ownerType, ownerId)).map(toDeviceInfo);
  }

  /** Queues in its own transaction, or within `e`'s when it is one (the scribe's outcome). */
  async function enqueueFor(e: Executor, workspaceId: string, ownerType: OwnerType, ownerId: string, msg: PushMessage): Promise<EnqueueResult> {
    const data = checkMessage(msg);
    const now = isoNow(clock);
    const result = await transaction(e, async (tx): Promise<EnqueueResult> => {
      const inTx = notificationStore(tx);
      if (!(await inTx.credentials(workspaceId))) return { queued: 0, skipped: 'no_credentials' };
      const targets = await inTx.devicesOf(workspaceId, ownerType, ownerId);
      if (targets.length === 0) return { queued: 0, skipped: 'no_devices' };
      for (const d of targets) {
        await inTx.insertJob({
          id: randomUUID(), workspace_id: workspaceId, device_row_id: d.id, title: msg.title, body: msg.body,
          data: JSON.stringify(data), next_attempt_at: now, created_at: now,
        });
      }
      return { queued: targets.length };
    });
    if (result.queued) sender.wake();
    return result;
  }

  return {
    setCredentials,
    credentials,
    deleteCredentials,
    addDevice,
    deleteDevice,
    devices,
    /**
     * Queues a push to every device of a user (e.g. the scribe: "your session is ready"). Durable: the sender
     * delivers it after a restart too. Nothing is queued when the workspace has no credentials or the user no device.
     */
    enqueueForUser: (workspaceId: string, userId: string, msg: PushMessage) => enqueueFor(db, workspaceId, 'user', userId, msg),
    /** Queues a push to every device an API client registered. */
    enqueueForClient: (workspaceId: string, clientId: string, msg: PushMessage) => enqueueFor(db, workspaceId, 'client', clientId, msg),
    /** Either of those inside the transaction `tx` of the change it tells about (a savepoint: a refusal leaves `tx` going). */
    enqueueIn: (tx: Tx, workspaceId: string, ownerType: OwnerType, ownerId: string, msg: PushMessage) => enqueueFor(tx, workspaceId, ownerType, ownerId, msg),
    /** The workspace's most recent pushes and their state, newest first (support and tests). */
    pushes: (workspaceId: string, limit = 100): Promise<JobRow[]> => store.jobs(workspaceId, limit),
    /** Starts the queue worker; createService does this. */
    startSender: () => sender.start(),
    /** Stops the queue worker at once (no database access after this returns); resolves when its tick unwound. */
    stopSender: () => sender.stop(),
    /** One pass over due pushes now. */
    sendDue: () => sender.runOnce(),
    fcmStats: fcm.stats,
  };
}
export type NotificationService = ReturnType<typeof notificationService>;
