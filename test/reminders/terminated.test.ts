import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../server/audit/service.js';
import { openSql } from '../../server/db/sql.js';
import { rootExecutor } from '../../server/db/tx.js';
import { reminderService } from '../../server/reminders/service.js';
import { mergeSettings, sealContext } from '../../server/reminders/settings.js';
import { reminderStore } from '../../server/reminders/store.js';
import { secretBox } from '../../server/shared/secret-box.js';
import { systemClock } from '../../server/shared/time.js';
import { outbox } from '../../server/webhooks/outbox.js';
import { openTestExecutor } from '../helpers/executor.js';
import { TW_SID, TW_TOKEN, startProviders } from '../helpers/messaging-providers.js';
import { DATABASES } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';
import { terminateSessions } from '../helpers/terminate.js';

const T0 = '2030-01-01T00:00:00.000Z';
const pg = DATABASES.find((d) => d.name === 'postgres')!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tally = (keys: string[]) => keys.reduce<Record<string, number>>((m, k) => ((m[k] = (m[k] ?? 0) + 1), m), {});

// The reminder sender leases a job ('sending') before it reads what the message says and asks the provider. A step
// that fails on a terminated session must not leave the job 'sending' with nobody sending it until the lease runs out
// (60 s), after which it is taken as in doubt (as if the provider might have had it) and, the second time, failed
// without ever being sent; nor must a sent reminder whose result was not written be sent again.
describe('reminder sender while PostgreSQL sessions are terminated again and again', skipFor(pg.skip), () => {
  it('every reminder sent once and recorded as sent, none left waiting out a lease', async () => {
    const t = await openTestExecutor(pg, 'reminders-terminated');
    const box = secretBox(randomBytes(32));
    const providers = await startProviders();
    const admin = reminderStore(t.e);
    await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES ('w-term', 'Clinic', 'IN', 'Asia/Kolkata', ${T0})`.execute(t.e.k);
    await sql`INSERT INTO patients (id, workspace_id, first_name, last_name, dob, gender, mobile_cc, mobile_national, name_key, created_at, updated_at)
      VALUES ('p1', 'w-term', 'Asha', 'Rao', '1980-01-01', 'F', '91', '9876543210', 'asha rao', ${T0}, ${T0})`.execute(t.e.k);
    const { config, secrets } = mergeSettings({
      provider: 'twilio', enabled: true, schedule: { on_booking: true, evening_before: null, minutes_before: [], quiet_hours: null },
      twilio: { account_sid: TW_SID, auth_token: TW_TOKEN, from: '+15005550006', base_url: providers.baseUrl },
    } as Parameters<typeof mergeSettings>[0], null);
    await admin.upsertSettings({
      workspace_id: 'w-term', provider: 'twilio', enabled: 1, config: JSON.stringify(config),
      secrets_sealed: box.seal(JSON.stringify(secrets), sealContext('w-term')), created_at: T0, updated_at: T0,
    });
    // 100 appointments a month ahead, each at its own time (so its message's text is its own), each with its booking
    // reminder falling due one every 25 ms while the sessions are being terminated.
    const n = 100;
    const startedAt = Date.now();
    const from = Math.ceil(startedAt / 86_400_000) * 86_400_000 + 30 * 86_400_000;
    for (let i = 0; i < n; i++) {
      const at = new Date(from + i * 30 * 60_000).toISOString();
      await sql`INSERT INTO appointments (id, workspace_id, patient_id, scheduled_at, local_date, status, created_at, updated_at)
        VALUES (${`a${i}`}, 'w-term', 'p1', ${at}, ${at.slice(0, 10)}, 'BK', ${T0}, ${T0})`.execute(t.e.k);
      const due = new Date(startedAt + 300 + i * 25).toISOString();
      await admin.schedule({ id: `r${i}`, workspace_id: 'w-term', appointment_id: `a${i}`, point: 'booking', due_at: due, created_at: T0 });
    }
    // Connections of its own, whose breaking is counted rather than logged (hundreds of times).
    let broken = 0;
    const database = openSql({ postgresUrl: t.url!, onIdleClientError: () => (broken += 1) });
    const e = rootExecutor(database, null);
    const service = reminderService(e, systemClock, box, auditLog(e, systemClock), outbox(systemClock, () => {}),
      { pollIntervalMs: 50, leaseMs: 60_000, onError: () => {} });
    const terminator = terminateSessions(t.e);
    await service.startSender();
    try {
      while (Date.now() < startedAt + 300 + n * 25 + 300) await sleep(50);
      await terminator.beyond(10, 8_000);
      await terminator.stop();
      const stoppedAt = Date.now();
      // Every reminder settled, well within the 60 s lease: the sender polls every 50 ms.
      const rows = () => sql<{ id: string; status: string; in_doubt: number; last_error: string | null; lease_until: string | null }>`SELECT id,
        status, in_doubt, last_error, lease_until FROM reminder_jobs WHERE workspace_id = 'w-term'`.execute(t.e.k).then((r) => r.rows);
      const deadline = Date.now() + 10_000;
      while ((await rows()).some((r) => r.status !== 'sent') && Date.now() < deadline) await sleep(50);
      const all = await rows();
      const unsettled = all.filter((r) => r.status !== 'sent');
      const byBody = tally(providers.sms.map((m) => m.Body));
      console.log(`reminders: settled ${Date.now() - stoppedAt} ms after the terminations; ${terminator.terminated} sessions terminated, `
        + `${broken} idle connections broken; ${Object.keys(byBody).length} of ${n} messages at the provider, `
        + `${Object.values(byBody).filter((c) => c > 1).length} twice; ${unsettled.length} not sent `
        + `(${JSON.stringify(tally(unsettled.map((r) => `${r.status}${r.lease_until ? ', leased' : ''}, in doubt ${r.in_doubt}: ${r.last_error ?? ''}`)))})`);
      expect(terminator.terminated).toBeGreaterThan(10);
      expect(unsettled).toEqual([]);
      expect(Object.keys(byBody)).toHaveLength(n);
      expect(Object.values(byBody).filter((c) => c > 1)).toEqual([]);
    } finally {
      await terminator.stop();
      await service.stopSender();
      await database.close();
      await providers.close();
      await t.close();
    }
  }, 30_000);
});
