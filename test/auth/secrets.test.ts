import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hashSecret, verifySecret } from '../../server/shared/secrets.js';
import { ROOT } from '../helpers/server.js';

/** hashSecret in a fresh Node process whose CLINIC_DESK_SCRYPT_LOG2_N is `logN` (unset when undefined). */
function hashElsewhere(logN: string | undefined) {
  const env = { ...process.env };
  delete env.CLINIC_DESK_SCRYPT_LOG2_N;
  if (logN !== undefined) env.CLINIC_DESK_SCRYPT_LOG2_N = logN;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
    "const { hashSecret } = await import('./server/shared/secrets.ts'); console.log(await hashSecret('a secret'));"], {
    cwd: ROOT, env, encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr };
}

describe('secret hashes: scrypt, its cost from CLINIC_DESK_SCRYPT_LOG2_N', () => {
  it('hashes at N = 2^15 by default and at the cost the variable names; a hash keeps its own cost and verifies anywhere', async () => {
    const byDefault = hashElsewhere(undefined);
    expect(byDefault.code, byDefault.err).toBe(0);
    expect(byDefault.out).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    const raised = hashElsewhere('16');
    expect(raised.out).toMatch(/^scrypt\$65536\$8\$1\$/);
    // This process runs at the test run's own cost: hashes made at others still verify here.
    for (const stored of [byDefault.out, raised.out]) {
      expect(await verifySecret('a secret', stored)).toBe(true);
      expect(await verifySecret('another secret', stored)).toBe(false);
    }
    expect(await verifySecret('a secret', await hashSecret('a secret'))).toBe(true);
  });

  it('refuses a cost outside 10–17, naming the variable, instead of hashing at another', () => {
    for (const bad of ['9', '18', '15.5', 'high']) {
      const r = hashElsewhere(bad);
      expect(r.code).not.toBe(0);
      expect(r.out).toBe('');
      expect(r.err).toContain(`CLINIC_DESK_SCRYPT_LOG2_N must be a whole number from 10 to 17 (scrypt's N = 2^value), not "${bad}"`);
    }
  });
});
