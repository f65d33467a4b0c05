import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../server/audit/service.js';
import { openSql } from '../../server/db/sql.js';
import { rootExecutor } from '../../server/db/tx.js';
import { notificationService } from '../../server/notifications/service.js';
import { notificationStore } from '../../server/notifications/store.js';
import { secretBox } from '../../server/shared/secret-box.js';
import { systemClock } from '../../server/shared/time.js';
import { openTestExecutor } from '../helpers/executor.js';
import { DATABASES } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';
import { terminateSessions } from '../helpers/terminate.js';

const T0 = '2030-01-01T00:00:00.000Z';
const pg = DATABASES.find((d) => d.name === 'postgres')!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tally = (keys: string[]) => keys.reduce<Record<string, number>>((m, k) => ((m[k] = (m[k] ?? 0) + 1), m), {});

// The push sender claims jobs with a lease (PostgreSQL: several instances share the queue). A step after the claim
// that fails on a terminated session (the device's or the credentials' read, the result's write, the claim's own
// commit whose answer was lost) must neither leave the job leased with nobody sending it until the lease runs out
// (60 s) nor settle it wrongly (a database error is no unreadable key).
describe('push sender while PostgreSQL sessions are terminated again and again', skipFor(pg.skip), () => {
  it('every push sent and settled as sent, none left waiting out a lease nor failed for the database\'s sake', async () => {
    const t = await openTestExecutor(pg, 'push-terminated');
    const box = secretBox(randomBytes(32));
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // The stand-in for token_uri and FCM: every push accepted.
    const got = new Map<string, number>();
    let seq = 0;
    const fcm = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        if (req.url === '/token') return res.end(JSON.stringify({ access_token: 'at', expires_in: 3600 }));
        const n = (JSON.parse(body) as { message: { data: { n: string } } }).message.data.n;
        got.set(n, (got.get(n) ?? 0) + 1);
        res.end(JSON.stringify({ name: `projects/p/messages/${seq++}` }));
      });
    });
    await new Promise<void>((r) => fcm.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(fcm.address() as AddressInfo).port}`;
    await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES ('w-term', 'w-term', 'IN', 'Asia/Kolkata', ${T0})`.execute(t.e.k);
    const admin = notificationStore(t.e);
    await admin.upsertCredentials({
      workspace_id: 'w-term', id: 'c1', project_id: 'p', client_email: 'push@p.example', client_id: null, private_key_id: 'k1',
      private_key_sealed: box.seal(pem, 'fcm_private_key:w-term'), token_uri: `${base}/token`, auth_uri: null,
      auth_provider_x509_cert_url: null, client_x509_cert_url: null, universe_domain: null, created_at: T0, updated_at: T0,
    });
    await admin.upsertDevice({
      id: 'dev-1', workspace_id: 'w-term', owner_type: 'user', owner_id: 'u1', device_id: 'did-1', fcm_token: 'tok-1', app_version: '1',
      platform: 'android', created_at: T0, updated_at: T0,
    });
    // Connections of its own, whose breaking is counted rather than logged (hundreds of times).
    let broken = 0;
    const database = openSql({ postgresUrl: t.url!, onIdleClientError: () => (broken += 1) });
    const e = rootExecutor(database, null);
    const service = notificationService(e, systemClock, box, auditLog(e, systemClock),
      { fcmBaseUrl: base, pollIntervalMs: 50, leaseMs: 60_000, onError: () => {} });
    // 100 pushes queued beforehand, falling due one every 25 ms while the sessions are being terminated: the sender's
    // claims, reads and writes meet them, whatever the machine's load (queuing them there would take most of the time).
    const queued = Array.from({ length: 100 }, (_, i) => String(i));
    const startedAt = Date.now();
    for (const n of queued) {
      await admin.insertJob({
        id: `job-${n}`, workspace_id: 'w-term', device_row_id: 'dev-1', title: 't', body: 'b', data: JSON.stringify({ n }),
        next_attempt_at: new Date(startedAt + 200 + Number(n) * 25).toISOString(), created_at: T0,
      });
    }
    const terminator = terminateSessions(t.e);
    service.startSender();
    try {
      while (Date.now() < startedAt + 200 + queued.length * 25 + 300) await sleep(50);
      await terminator.beyond(10, 8_000);
      await terminator.stop();
      const stoppedAt = Date.now();
      // Every job settled, well within the 60 s lease: the sender polls every 50 ms.
      const rows = () => sql<{ status: string; data: string; last_error: string | null; lease_until: string | null }>`SELECT status, data,
        last_error, lease_until FROM push_jobs WHERE workspace_id = 'w-term'`.execute(t.e.k).then((r) => r.rows);
      const deadline = Date.now() + 10_000;
      while (([...queued].some((n) => !got.has(n)) || (await rows()).some((r) => r.status === 'pending')) && Date.now() < deadline) await sleep(50);
      const all = await rows();
      const unsettled = all.filter((r) => r.status !== 'sent');
      console.log(`push: settled ${Date.now() - stoppedAt} ms after the terminations; ${terminator.terminated} sessions terminated, ${broken} idle connections broken; ${all.length} jobs, `
        + `${unsettled.length} not sent (${JSON.stringify(tally(unsettled.map((r) => `${r.status}${r.lease_until ? ', leased' : ''}: ${r.last_error ?? ''}`)))}); ${[...got.values()].filter((c) => c > 1).length} pushes received twice`);
      expect(terminator.terminated).toBeGreaterThan(10);
      expect([...queued].filter((n) => !got.has(n))).toEqual([]);
      expect(unsettled).toEqual([]);
    } finally {
      await terminator.stop();
      await service.stopSender();
      await database.close();
      await new Promise((r) => fcm.close(r));
      await t.close();
    }
  }, 30_000);
});
