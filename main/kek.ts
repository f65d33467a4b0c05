import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import { KEK_FILE } from '../server/shared/secret-box.js';

export const SEALED_KEK_FILE = 'master.key.sealed';

const decode = (base64: string, what: string) => {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${what} does not hold a 32-byte key`);
  return key;
};

function writeSealed(file: string, key: Buffer) {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, safeStorage.encryptString(key.toString('base64')), { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * The desktop app's key-encryption key (what seals token signing keys, webhook signing keys and push private
 * keys in the database): 32 random bytes made once, kept in `<userData>/master.key.sealed` encrypted by the OS
 * keychain through Electron's safeStorage (Keychain on macOS, DPAPI on Windows, libsecret/kwallet on Linux), and
 * opened at every start. Refuses to run without OS encryption rather than fall back to a key in the clear.
 * A plain `master.key` left by a headless run over the same directory is adopted once, then deleted.
 * `CLINIC_DESK_KEK` (base64 of 32 bytes), when set, is used instead: an explicit choice for machines without a
 * keychain (a keyring-less Linux test box), as for the headless service.
 */
export function appKek(userDataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.CLINIC_DESK_KEK) {
    console.warn('clinic-desk: using the key-encryption key from CLINIC_DESK_KEK, not the OS keychain');
    return decode(env.CLINIC_DESK_KEK, 'CLINIC_DESK_KEK');
  }
  if (!safeStorage.isEncryptionAvailable()) {
    throw new Error('The operating system\'s secure storage (keychain) is not available, so Clinic Desk cannot protect its '
      + 'encryption key. Sign in to a desktop session with a keyring (on Linux: GNOME Keyring or KWallet) and start again, '
      + 'or set CLINIC_DESK_KEK (base64 of 32 random bytes) and keep it safe yourself.');
  }
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
    console.warn('clinic-desk: no keyring found; the encryption key is only obfuscated on disk (Electron basic_text storage)');
  }
  const sealed = join(userDataDir, SEALED_KEK_FILE);
  const plain = join(userDataDir, KEK_FILE);
  if (existsSync(sealed)) {
    let base64: string;
    try {
      base64 = safeStorage.decryptString(readFileSync(sealed));
    } catch {
      // Never make a new key here: every secret sealed under the old one would be lost.
      throw new Error(`${sealed} cannot be opened with this user's keychain. Restore the keychain (or the file), `
        + 'or remove the data directory to start from scratch.');
    }
    return decode(base64, sealed);
  }
  const key = existsSync(plain) ? decode(readFileSync(plain, 'utf8'), plain) : randomBytes(32);
  writeSealed(sealed, key);
  // Only once the sealed copy reads back to the same key is the plain one removed.
  if (!decode(safeStorage.decryptString(readFileSync(sealed)), sealed).equals(key)) throw new Error(`${sealed} did not read back`);
  if (existsSync(plain)) unlinkSync(plain);
  return key;
}
