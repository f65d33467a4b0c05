import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// OWASP's scrypt floor (N=2^17, r=8, p=1) costs ~128 MiB and ~0.3 s here; 2^15 keeps a sign-in under 0.1 s on
// a clinic PC while staying far above what a stolen database can be brute-forced with cheaply. A faster machine may
// raise it with CLINIC_DESK_SCRYPT_LOG2_N (10–17); the test run lowers it to 10, as test suites do with bcrypt's
// rounds: it had spent some 370 s of a CI run's 880 on about 1,300 hashes. A stored hash keeps its own parameters, so
// a change applies to secrets set from then on.
const LOG2_N = logN(process.env.CLINIC_DESK_SCRYPT_LOG2_N);
// scrypt needs 128·N·r bytes: 128 MiB at 2^17, within maxmem.
const PARAMS = { N: 2 ** LOG2_N, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };

function logN(value: string | undefined): number {
  if (value === undefined || value === '') return 15;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 10 || n > 17) {
    throw new Error(`CLINIC_DESK_SCRYPT_LOG2_N must be a whole number from 10 to 17 (scrypt's N = 2^value), not "${value}"`);
  }
  return n;
}
const KEYLEN = 32;

/** Hashes a password or client secret for storage: `scrypt$N$r$p$salt$hash`, base64url parts. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, KEYLEN, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Checks a secret against a stored scrypt hash in constant time. Unknown formats never verify. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

/** A fresh bearer secret: a readable prefix (so a leaked one can be recognised) and 256 random bits. */
export function newToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Digest under which a high-entropy token is stored and looked up. */
export function tokenDigest(token: string): string {
  // One call instead of a Hash object: it runs on every authenticated request (a third of the cost, Node ≥ 20.12).
  return hash('sha256', token, 'hex');
}
