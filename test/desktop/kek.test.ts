import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/server.js';

/**
 * The desktop app's key-encryption key (main/kek.ts), which seals push private keys among other secrets. Electron
 * is not available to plain Node, so its safeStorage is replaced by a stand-in that really transforms the bytes
 * (so a plain key can never pass for a sealed one) and can be switched off.
 */
const keychain = vi.hoisted(() => ({ available: true, backend: 'gnome_libsecret', secret: 0x5a }));
vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => keychain.available,
    getSelectedStorageBackend: () => keychain.backend,
    encryptString: (s: string) => Buffer.concat([Buffer.from('SEALED:'), Buffer.from(s).map((b) => b ^ keychain.secret)]),
    decryptString: (b: Buffer) => {
      if (!b.subarray(0, 7).equals(Buffer.from('SEALED:'))) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      const plain = Buffer.from(b.subarray(7).map((x) => x ^ keychain.secret)).toString();
      if (!/^[A-Za-z0-9+/=]+$/.test(plain)) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return plain;
    },
  },
}));

const { appKek, SEALED_KEK_FILE } = await import('../../main/kek.js');

let dir: string;
beforeEach(() => {
  dir = tempDir('kek');
  Object.assign(keychain, { available: true, backend: 'gnome_libsecret', secret: 0x5a });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the app KEK sealed by the OS keychain', () => {
  it('is made once (32 random bytes), kept only sealed, mode 0600, and the same at every start', () => {
    const first = appKek(dir, {});
    expect(first).toHaveLength(32);
    const file = join(dir, SEALED_KEK_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const raw = readFileSync(file);
    expect(raw.includes(Buffer.from(first.toString('base64')))).toBe(false);
    expect(existsSync(join(dir, 'master.key'))).toBe(false);
    expect(appKek(dir, {}).equals(first)).toBe(true);
    expect(appKek(tempDir('kek-other'), {}).equals(first)).toBe(false);
  });

  it('refuses to start, saying why, when the keychain is unavailable', () => {
    keychain.available = false;
    expect(() => appKek(dir, {})).toThrow(/secure storage \(keychain\) is not available/);
    expect(existsSync(join(dir, SEALED_KEK_FILE))).toBe(false);
  });

  it('refuses, and never makes a new key, when the sealed file cannot be opened', () => {
    const first = appKek(dir, {});
    keychain.secret = 0x11; // another user's keychain
    expect(() => appKek(dir, {})).toThrow(/cannot be opened with this user's keychain/);
    keychain.secret = 0x5a;
    expect(appKek(dir, {}).equals(first)).toBe(true);
  });

  it('adopts a plain master.key left by a headless run, then deletes it', () => {
    const key = Buffer.alloc(32, 7);
    writeFileSync(join(dir, 'master.key'), key.toString('base64'), { mode: 0o600 });
    expect(appKek(dir, {}).equals(key)).toBe(true);
    expect(existsSync(join(dir, 'master.key'))).toBe(false);
    expect(appKek(dir, {}).equals(key)).toBe(true);
  });

  it('CLINIC_DESK_KEK, when set, is used instead of the keychain', () => {
    keychain.available = false;
    const key = Buffer.alloc(32, 9);
    expect(appKek(dir, { CLINIC_DESK_KEK: key.toString('base64') }).equals(key)).toBe(true);
    expect(() => appKek(dir, { CLINIC_DESK_KEK: 'c2hvcnQ=' })).toThrow(/32-byte/);
  });
});
