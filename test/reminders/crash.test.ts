import { expect, it } from 'vitest';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { TW_SID, TW_TOKEN, startProviders } from '../helpers/messaging-providers.js';
import { copyDemoForProcess } from '../helpers/demo-template.js';
import { type ServerProcess, call, exited, spawnServer, tempDir, startedByTests } from '../helpers/server.js';

/**
 * Reminders survive kill -9 (issue 29): the service as a real process books 30 appointments, each with a booking
 * confirmation by SMS; the stand-in provider takes each message and then answers slowly, and the process is killed
 * while it waits for one of those answers. Restarted on the same data, every reminder reaches the provider (never
 * zero), and the one whose answer was lost goes a second time at most (never more).
 */

const TOTAL = 30;
const { children, dirs } = startedByTests({ perTest: false });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function serve(dataDir: string): Promise<ServerProcess> {
  // --demo for its clinics; not its sandbox, which would double the start-up.
  const s = await spawnServer(['--data-dir', dataDir, '--demo', '--log-level', 'warn'], { CLINIC_DESK_SANDBOX: '0' });
  children.add(s.child);
  return s;
}

it('kill -9 while the provider answers: after a restart every reminder is sent, none more than twice', async () => {
  const dataDir = tempDir('reminders-crash');
  dirs.push(dataDir);
  // The demo clinics, copied (helpers/demo-template.ts): what this test is about comes after them.
  await copyDemoForProcess(dataDir);
  const providers = await startProviders({ delayMs: 60 });
  try {
    const t0 = Date.now();
    let s = await serve(dataDir);
    const started = Date.now() - t0;
    const ws = s.demo().workspaces[0] as DemoWorkspace;
    const put = await call(s.baseUrl, 'PUT', '/api/v1/reminders/settings', {
      headers: { auth: ws.users.admin.auth_token },
      body: {
        provider: 'twilio', enabled: true, schedule: { on_booking: true, evening_before: null, minutes_before: [], quiet_hours: null },
        twilio: { account_sid: TW_SID, auth_token: TW_TOKEN, from: '+15005550006', base_url: providers.baseUrl },
      },
    });
    expect(put.status, put.text).toBe(200);
    const booked: string[] = [];
    const from = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 30 * 86_400_000;
    for (let i = 0; i < TOTAL; i++) {
      const at = new Date(from + i * 30 * 60_000).toISOString();
      const res = await call(s.baseUrl, 'POST', '/dr/v1/appointment', {
        headers: { auth: ws.users.reception.auth_token }, body: { patient_id: ws.patients[i % ws.patients.length]!.patient_id, scheduled_at: at },
      });
      expect(res.status, res.text).toBe(201);
      booked.push(res.json.data.appointment_id);
    }
    // Killed while the provider holds the answer to a message it has taken.
    while (providers.sms.length < 10) await sleep(5);
    const takenAtKill = providers.sms.length;
    s.child.kill('SIGKILL');
    await exited(s.child);
    expect(takenAtKill).toBeLessThan(TOTAL);

    const killedAt = Date.now() - t0;
    s = await serve(dataDir);
    const restarted = Date.now() - t0;
    const byBody = new Map<string, number>();
    const deadline = Date.now() + 30_000;
    for (;;) {
      byBody.clear();
      for (const m of providers.sms) byBody.set(m.Body, (byBody.get(m.Body) ?? 0) + 1);
      if (byBody.size >= TOTAL || Date.now() > deadline) break;
      await sleep(50);
    }
    expect(byBody.size).toBe(TOTAL);
    const twice = [...byBody.values()].filter((n) => n === 2).length;
    expect(Math.max(...byBody.values())).toBeLessThanOrEqual(2);
    // Sent one at a time: only the message in flight at the kill can go twice.
    expect(twice).toBeLessThanOrEqual(1);
    // The last answer may still be on its way back.
    let log;
    do log = await call(s.baseUrl, 'GET', '/api/v1/reminders/log?limit=200', { headers: { auth: ws.users.reception.auth_token } });
    while (log.json.data.some((j: { status: string }) => j.status !== 'sent') && Date.now() < deadline && (await sleep(50), true));
    expect(log.json.data).toHaveLength(TOTAL);
    expect(new Set(log.json.data.map((j: { appointment_id: string }) => j.appointment_id))).toEqual(new Set(booked));
    expect(log.json.data.filter((j: { status: string }) => j.status !== 'sent')).toEqual([]);
    console.log(`reminders crash test: ${takenAtKill} taken by the provider before kill -9, ${providers.sms.length} in all, ${twice} sent twice; `
      + `first start ${started} ms, kill at ${killedAt} ms, restarted at ${restarted} ms, all sent at ${Date.now() - t0} ms`);
  } finally {
    await providers.close();
  }
}, 120_000);
