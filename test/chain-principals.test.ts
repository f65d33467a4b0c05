import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemo } from '../server/demo/demo.js';
import { type Service, createService } from '../server/service.js';
import { freshPostgresDatabase, postgresSkipReason } from './helpers/postgres.js';
import { tempDir } from './helpers/server.js';
import { skipFor } from './helpers/skip.js';

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
};

// Two instances of a chain on one PostgreSQL database: a token one of them revokes stops working on the other at
// once, although the other had it cached (issue 17 item 2: caches correct across instances, through the change bus).
describe('token principals across instances (postgres)', skipFor(postgresSkipReason()), () => {
  let drop: () => Promise<void>;
  const services: Service[] = [];
  beforeAll(async () => {
    const pg = await freshPostgresDatabase('principals');
    drop = pg.drop;
    const kek = Buffer.alloc(32, 7);
    for (let i = 0; i < 2; i++) {
      services.push(await createService({
        dataDir: tempDir(`principals-${i}`), databaseUrl: pg.url, kek,
        webhooks: { dispatch: false }, push: { sender: false }, scribe: { worker: false },
      }));
    }
    await Promise.all(services.map((s) => s.bus.ready()));
  });
  afterAll(async () => {
    for (const s of services) await s.close();
    await drop?.();
  });

  it('a revocation on one instance reaches the other\'s cache', async () => {
    const [a, b] = services as [Service, Service];
    const demo = (await ensureDemo(a, 'http://127.0.0.1:0'))!;
    const user = (await a.auth.users(demo.workspaces[0]!.workspace_id))[0]!;
    const token = await a.auth.issueAuthToken(user.id, 'chain test');
    expect((await b.auth.authenticateToken(token))?.id).toBe(user.id);
    // Now cached on b: without the bus, b would go on accepting it.
    expect(b.auth.cachedCaller(token)?.id).toBe(user.id);
    await a.auth.revokeAuthToken(token);
    expect(await a.auth.authenticateToken(token)).toBeNull();
    expect(await until(async () => b.auth.cachedCaller(token) == null && (await b.auth.authenticateToken(token)) === null)).toBe(true);
  });

  it('a booking on one instance reaches the live boards of the other (the waiting-room display)', async () => {
    const [a, b] = services as [Service, Service];
    const demo = (await ensureDemo(a, 'http://127.0.0.1:0'))!;
    const ws = demo.workspaces[0]!;
    const caller = (await a.auth.authenticateToken(ws.users.reception.auth_token))!;
    const ctx = { caller, ip: null, requestId: 'chain-board' };
    const heard: string[] = [];
    const off = b.appointments.onChange((w) => heard.push(w));
    try {
      const patient = await a.patients.create(ctx, { first_name: 'Board', last_name: 'Test', dob: '1985-05-05', gender: 'M', mobile: '7000012345' });
      await a.appointments.book(ctx, { patient_id: patient.id, walk_in: true });
      expect(await until(async () => heard.includes(ws.workspace_id))).toBe(true);
    } finally {
      off();
    }
  });
});
