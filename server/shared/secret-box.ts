import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for secrets the service must be able to use again (token signing keys, webhook signing
 * keys, push private keys): AES-256-GCM under a key-encryption key (KEK) that never sits in the database.
 * `context` is bound as associated data, so a ciphertext copied into another row or column does not decrypt.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

export function secretBox(kek: Buffer): SecretBox {
  if (kek.length !== 32) throw new Error('the key-encryption key must be 32 bytes');
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', kek, iv);
      cipher.setAAD(Buffer.from(context));
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join(':');
    },
    open(sealed, context) {
      const [v, iv, tag, ct] = sealed.split(':');
      if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', kek, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

export const KEK_FILE = 'master.key';

/**
 * The headless KEK: `CLINIC_DESK_KEK` (base64 of 32 bytes) if set, else `<dataDir>/master.key`, created with
 * mode 0600 on first start. The desktop app does not use this: it keeps its KEK sealed by the OS keychain
 * (Electron safeStorage) and passes it to createService. Keep master.key out of backups of the database, or
 * the backup carries its own key.
 */
export function loadKek(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.CLINIC_DESK_KEK) {
    const key = Buffer.from(env.CLINIC_DESK_KEK, 'base64');
    if (key.length !== 32) throw new Error('CLINIC_DESK_KEK must be the base64 of 32 bytes');
    return key;
  }
  const file = join(dataDir, KEK_FILE);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}
