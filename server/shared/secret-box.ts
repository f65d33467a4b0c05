import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, type Warn, startupWarning, tightenIfPresent } from './private-files.js';

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

export interface KekOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the key file is: `--kek-file`; else `CLINIC_DESK_KEK_FILE`; else `<dataDir>/master.key`. */
  file?: string;
  warn?: Warn;
}

/** Whether `path` is `dir` or anything under it. */
const isInside = (dir: string, path: string) => {
  const rel = relative(resolve(dir), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The headless KEK: `CLINIC_DESK_KEK` (base64 of 32 bytes) if set, else the key file (`--kek-file`,
 * `CLINIC_DESK_KEK_FILE`, or `<dataDir>/master.key`), created with mode 0600 on first start. The desktop app
 * does not use this: it keeps its KEK sealed by the OS keychain (Electron safeStorage) and passes it to
 * createService. A key file inside the data folder travels with every copy of the folder, next to the database
 * it protects: that is the default, and it is warned about at each start.
 */
export function loadKek(dataDir: string, opts: KekOptions = {}): Buffer {
  const env = opts.env ?? process.env;
  const warn = opts.warn ?? startupWarning;
  if (env.CLINIC_DESK_KEK) {
    const key = Buffer.from(env.CLINIC_DESK_KEK, 'base64');
    if (key.length !== 32) throw new Error('CLINIC_DESK_KEK must be the base64 of 32 bytes');
    return key;
  }
  const inDataDir = join(dataDir, KEK_FILE);
  const file = resolve(opts.file ?? (env.CLINIC_DESK_KEK_FILE || inDataDir));
  if (!existsSync(file)) {
    if (file !== resolve(inDataDir) && existsSync(inDataDir)) {
      // A new key would leave every secret sealed under the old one unreadable.
      throw new Error(`the key file ${file} does not exist, but ${inDataDir} does: move that file to ${file}, then start again`);
    }
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  }
  tightenIfPresent(file, warn);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  if (isInside(dataDir, file)) {
    warn(`the key-encryption key ${file} is inside the data folder, beside the database it protects: a copy of the folder `
      + 'holds both. Keep it elsewhere with --kek-file or CLINIC_DESK_KEK_FILE (docs/API.md, Hardening)');
  }
  return key;
}
