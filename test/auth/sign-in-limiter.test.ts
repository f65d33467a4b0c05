import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeBus, changeBus } from '../../server/db/change-bus.js';
import { type SqlDatabase, openSql } from '../../server/db/sql.js';
import { signInLimiter } from '../../server/shared/sign-in-limiter.js';
import type { Clock } from '../../server/shared/time.js';
import { freshPostgresDatabase, postgresSkipReason } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

const limits = { perUser: 3, perAddress: 10, perUserAnyAddress: 20, windowMs: 60_000 };
const clock: Clock = { now: () => new Date('2026-11-25T03:00:00.000Z') };
const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  return check();
};

// Two instances of a chain, each with its own limiter and change bus on one PostgreSQL database: a guesser
// spreading tries over both meets the limit as if there were one.
describe('sign-in limiter across instances (postgres)', skipFor(postgresSkipReason()), () => {
  let drop: () => Promise<void>;
  const databases: SqlDatabase[] = [];
  const buses: ChangeBus[] = [];
  beforeAll(async () => {
    const pg = await freshPostgresDatabase('limiter');
    drop = pg.drop;
    for (let i = 0; i < 2; i++) {
      const database = openSql({ postgresUrl: pg.url });
      databases.push(database);
      const bus = changeBus(database, { postgresUrl: pg.url });
      await bus.ready();
      buses.push(bus);
    }
  });
  afterAll(async () => {
    for (const b of buses) await b.close();
    for (const d of databases) await d.close();
    await drop?.();
  });

  it('counts failures seen by either instance, and a success or a pardon on one clears the other', async () => {
    const [a, b] = buses.map((bus) => signInLimiter(clock, limits, bus));
    a!.failed('Reception@Sunrise', '10.0.0.7');
    b!.failed('reception@sunrise', '10.0.0.7');
    a!.failed('reception@sunrise', '10.0.0.7');
    // Three failures of the pair, two of them on a: b must lock the pair out once it has heard of them.
    expect(await until(() => b!.retryAfter('reception@sunrise', '10.0.0.7') > 0)).toBe(true);
    expect(await until(() => a!.retryAfter('RECEPTION@sunrise', '10.0.0.7') > 0)).toBe(true);
    // Another address is not locked out by this pair.
    expect(b!.retryAfter('reception@sunrise', '10.0.0.8')).toBe(0);
    a!.forgive('reception@sunrise');
    expect(a!.retryAfter('reception@sunrise', '10.0.0.7')).toBe(0);
    expect(await until(() => b!.retryAfter('reception@sunrise', '10.0.0.7') === 0)).toBe(true);
  });
});

describe('sign-in limiter on its own', () => {
  it('locks a pair out after perUser failures, not another address; a success clears its pair', () => {
    const l = signInLimiter(clock, limits);
    for (let i = 0; i < 3; i++) l.failed('doctor@sunrise', '10.0.0.7');
    expect(l.retryAfter('Doctor@Sunrise', '10.0.0.7')).toBe(60);
    expect(l.retryAfter('doctor@sunrise', '10.0.0.9')).toBe(0);
    l.succeeded('doctor@sunrise', '10.0.0.7');
    expect(l.retryAfter('doctor@sunrise', '10.0.0.7')).toBe(0);
  });
});
