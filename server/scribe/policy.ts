import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../shared/secret-box.js';
import type { Clock } from '../shared/time.js';
import type { ScribeStore } from './store.js';

/**
 * The signed upload policy of the presigned POST (the `policy` and `signature` fields), our stand-in for an object
 * store's: it binds the workspace, the transaction (and our session row), the key prefix (folder), an expiry and
 * the largest file it admits. The HMAC key is 32 random bytes made on first use and kept sealed with the
 * key-encryption key, so policies outlive a restart and a copied database alone cannot mint them.
 */
export interface UploadPolicy {
  v: 1;
  /** workspace id */
  ws: string;
  txn: string;
  /** our session id */
  sid: string;
  /** key prefix every upload must use */
  folder: string;
  /** expiry, unix milliseconds */
  exp: number;
  /** largest single file, bytes */
  max: number;
}

export class PolicyError extends Error {}

const KEY_NAME = 'upload_policy';
const keyContext = (name: string) => `scribe_keys:${name}`;

export function uploadPolicies(store: ScribeStore, box: SecretBox, clock: Clock) {
  let key: Buffer | null = null;

  async function hmacKey(): Promise<Buffer> {
    if (key) return key;
    let sealed = await store.key(KEY_NAME);
    if (!sealed) {
      await store.insertKey(KEY_NAME, box.seal(randomBytes(32).toString('base64'), keyContext(KEY_NAME)), clock.now().toISOString());
      sealed = (await store.key(KEY_NAME))!;
    }
    key = Buffer.from(box.open(sealed, keyContext(KEY_NAME)), 'base64');
    return key;
  }

  const sign = async (encoded: string) => createHmac('sha256', await hmacKey()).update(encoded).digest('hex');

  return {
    /** The `policy` and `signature` form fields for a policy. */
    async issue(p: Omit<UploadPolicy, 'v'>): Promise<{ policy: string; signature: string }> {
      const encoded = Buffer.from(JSON.stringify({ v: 1, ...p })).toString('base64url');
      return { policy: encoded, signature: await sign(encoded) };
    },
    /** The policy, if the signature is ours and it has not expired; otherwise a PolicyError saying which. */
    async verify(encoded: string, signature: string): Promise<UploadPolicy> {
      const expected = Buffer.from(await sign(encoded), 'hex');
      const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new PolicyError('The upload policy signature does not match: the policy was altered or not issued by this service');
      }
      let p: UploadPolicy;
      try {
        p = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as UploadPolicy;
      } catch {
        throw new PolicyError('The upload policy is not readable');
      }
      if (p.v !== 1 || typeof p.exp !== 'number' || typeof p.folder !== 'string') throw new PolicyError('The upload policy is not readable');
      if (clock.now().getTime() >= p.exp) {
        throw new PolicyError(`The upload policy expired at ${new Date(p.exp).toISOString()}; ask POST /v1/file-upload for a new one`);
      }
      return p;
    },
  };
}
export type UploadPolicies = ReturnType<typeof uploadPolicies>;
