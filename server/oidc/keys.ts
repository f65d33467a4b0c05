import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { JWK } from 'jose';
import type { SecretBox } from '../shared/secret-box.js';
import type { OidcStore } from './store.js';

export const SIGNING_ALG = 'ES256';

export interface ProviderKeys {
  /** Private JWKs for oidc-provider's `jwks` (it signs ID tokens and JWT access tokens with the first). */
  signing: JWK[];
  /** Their public halves, which verify our access tokens. */
  verifying: JWK[];
  /** Keygrip keys for the provider's signed cookies, newest first. */
  cookies: string[];
}

const context = (kind: string, kid: string) => `oidc_${kind}:${kid}`;

/**
 * The provider's keys, created on first use and kept sealed with the key-encryption key (never in plain text in
 * the database), so tokens and browser sessions outlive a restart.
 */
export async function loadProviderKeys(store: OidcStore, box: SecretBox, nowIso: () => string): Promise<ProviderKeys> {
  if ((await store.keys('jwk')).length === 0) {
    const kid = randomUUID();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...(privateKey.export({ format: 'jwk' }) as JWK), kid, alg: SIGNING_ALG, use: 'sig' };
    await store.insertKey({ kid, kind: 'jwk', sealed: box.seal(JSON.stringify(jwk), context('jwk', kid)), created_at: nowIso() });
  }
  if ((await store.keys('cookie')).length === 0) {
    const kid = randomUUID();
    await store.insertKey({ kid, kind: 'cookie', sealed: box.seal(randomBytes(32).toString('base64url'), context('cookie', kid)), created_at: nowIso() });
  }
  const signing = (await store.keys('jwk')).map((k) => JSON.parse(box.open(k.sealed, context('jwk', k.kid))) as JWK);
  const verifying = signing.map(({ d: _d, ...pub }) => pub);
  const cookies = (await store.keys('cookie')).map((k) => box.open(k.sealed, context('cookie', k.kid)));
  return { signing, verifying, cookies };
}
