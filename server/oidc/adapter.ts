import { tokenDigest } from '../shared/secrets.js';
import type { SecretBox } from '../shared/secret-box.js';
import type { OidcStore } from './store.js';

/** What oidc-provider hands its adapter: a JSON object (AdapterPayload in its types). */
type Payload = Record<string, unknown> & { jti?: string; grantId?: string; uid?: string; userCode?: string; accountId?: string; clientId?: string };

/**
 * Models whose id is not a credential, kept under their own id: registered clients (the id is public), grants
 * (listed and revoked by id from the desktop settings) and replay-detection entries (already digests).
 * Every other model's id is a bearer secret (refresh tokens, codes, session and interaction cookies): the row
 * is keyed by its SHA-256 digest and the id itself is kept only sealed, like every other secret at rest.
 */
const PLAIN_ID = new Set(['Client', 'Grant', 'ReplayDetection']);

const now = () => Math.floor(Date.now() / 1000);

/**
 * The oidc-provider adapter over the service's database, SQLite or PostgreSQL (the library's Adapter interface: one
 * instance per model name).
 * Times are the library's own (wall-clock unix seconds), not the service's injectable clock: the library reads
 * Date.now() for every expiry it checks, so the adapter agrees with it.
 */
export function modelAdapter(store: OidcStore, box: SecretBox) {
  const keyOf = (model: string, id: string) => (PLAIN_ID.has(model) ? id : tokenDigest(id));
  const context = (model: string, key: string) => `oidc:${model}:${key}`;

  /** The stored payload as the library wrote it (with its id restored), or undefined when gone or expired. */
  function load(model: string, row: Awaited<ReturnType<OidcStore['find']>>, id?: string): Payload | undefined {
    if (!row) return undefined;
    if (row.expires_at !== null && row.expires_at <= now()) return undefined;
    const payload = JSON.parse(row.payload) as Payload & { jti_sealed?: string };
    if (!PLAIN_ID.has(model)) {
      const sealed = payload.jti_sealed;
      delete payload.jti_sealed;
      if (id !== undefined) payload.jti = id;
      else if (sealed) payload.jti = box.open(sealed, context(model, row.key));
    }
    return payload;
  }

  return class ModelAdapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number) {
      const key = keyOf(this.model, id);
      const stored: Payload & { jti_sealed?: string } = { ...payload };
      if (!PLAIN_ID.has(this.model)) {
        delete stored.jti;
        stored.jti_sealed = box.seal(id, context(this.model, key));
      }
      const at = now();
      await store.upsert({
        model: this.model,
        key,
        payload: JSON.stringify(stored),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
        account_id: typeof payload.accountId === 'string' ? payload.accountId : null,
        client_id: typeof payload.clientId === 'string' ? payload.clientId : null,
        created_at: typeof payload.iat === 'number' ? payload.iat : at,
        expires_at: expiresIn ? at + expiresIn : null,
        consumed_at: typeof payload.consumed === 'number' ? payload.consumed : null,
      });
    }

    async find(id: string) {
      return load(this.model, await store.find(this.model, keyOf(this.model, id)), id);
    }

    async findByUid(uid: string) {
      return load(this.model, await store.findByUid(this.model, uid));
    }

    async findByUserCode(userCode: string) {
      return load(this.model, await store.findByUserCode(this.model, userCode));
    }

    async consume(id: string) {
      const key = keyOf(this.model, id);
      const row = await store.find(this.model, key);
      if (!row) return;
      const at = now();
      await store.consume(this.model, key, at, JSON.stringify({ ...JSON.parse(row.payload), consumed: at }));
    }

    async destroy(id: string) {
      await store.destroy(this.model, keyOf(this.model, id));
    }

    async revokeByGrantId(grantId: string) {
      await store.revokeByGrant(this.model, grantId);
    }
  };
}
