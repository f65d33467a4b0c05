import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { databaseFile } from '../../server/config.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import {
  TW_SID, TW_TOKEN, WA_PHONE_ID, WA_TOKEN, metaSignature, startProviders, twilioRequestSignature,
} from '../helpers/messaging-providers.js';
import { startSandbox } from '../../server/sandbox/sandbox.js';
import { DATABASES } from '../helpers/postgres.js';
import { type RunningServer, TEST_KEK, call, startServer } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';

/**
 * Appointment reminders (issue 29) against the stand-in providers, on one server with an injected clock: the
 * settings, booking → reminders at the schedule points, delivery statuses, replies through the state machine, STOP,
 * retry on 5xx and not on 4xx, and forged webhooks refused.
 */

for (const db of DATABASES) describe(`reminders (${db.name})`, skipFor(db.skip), () => {
  let t = Date.parse('2031-03-10T04:00:00Z'); // 09:30 at the demo clinics (Asia/Kolkata)
  const clock = { now: () => new Date(t) };
  let srv: RunningServer;
  let providers: Awaited<ReturnType<typeof startProviders>>;
  let ws: DemoWorkspace;
  let doctorId: string;
  // An integration following the reminders through appointment.reminder.* webhook events.
  const events: { event: string; data: Record<string, unknown> }[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  let receiver: Server;
  const APP_SECRET = 'meta-app-secret';
  const VERIFY = 'verify-me';

  const admin = () => ({ auth: ws.users.admin.auth_token });
  const desk = () => ({ auth: ws.users.reception.auth_token });
  /** An app method as a browser calls it at its app route (server/reminders/operations.ts). */
  const appMethod = (headers: { auth: string }, name: string, args: unknown[]) =>
    call(srv.baseUrl, 'POST', `/api/v1/app/${name}`, { headers: { authorization: `Bearer ${headers.auth}` }, body: args });

  beforeAll(async () => {
    providers = await startProviders();
    srv = await startServer({ clock, database: db, reminders: { sender: false, retry: { jitter: 0 } } });
    ws = srv.demo.workspaces[0]!;
    doctorId = (await srv.service.auth.authenticateToken(ws.users.doctor.auth_token))!.id;
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        // Deliveries are at least once: a receiver keeps one per Webhook-Id.
        const id = String(req.headers['webhook-id']);
        if (seen.has(id)) duplicates += 1;
        else events.push(JSON.parse(body) as (typeof events)[number]);
        seen.add(id);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const port = (receiver.address() as { port: number }).port;
    const sub = await call(srv.baseUrl, 'POST', '/notification/v1/connect/webhook/subscriptions', {
      headers: { authorization: `Bearer ${ws.users.admin.auth_token}` },
      body: { event_names: ['appointment.reminder.sent', 'appointment.reminder.read', 'appointment.reminder.failed', 'appointment.reminder.replied'], endpoint: `http://127.0.0.1:${port}/hook` },
    });
    expect(sub.status, sub.text).toBe(201);
  });
  afterAll(async () => {
    receiver?.close();
    await srv?.close();
    await providers?.close();
  });

  const whatsappSettings = () => ({
    provider: 'whatsapp', enabled: true, clinic_address: '12 MG Road, Pune',
    whatsapp: { phone_number_id: WA_PHONE_ID, access_token: WA_TOKEN, app_secret: APP_SECRET, verify_token: VERIFY, base_url: providers.baseUrl },
  });

  async function book(patientIndex: number, at: string) {
    const res = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
      headers: desk(), body: { patient_id: ws.patients[patientIndex]!.patient_id, scheduled_at: at, doctor_id: doctorId },
    });
    expect(res.status, res.text).toBe(201);
    return res.json.data.appointment_id as string;
  }
  const reminders = async (id: string) => (await call(srv.baseUrl, 'GET', `/api/v1/reminders/appointments/${id}`, { headers: desk() })).json;
  const runAt = async (iso: string) => {
    t = Date.parse(iso);
    await srv.service.reminders.runOnce();
  };

  function postWhatsApp(value: unknown, secret = APP_SECRET) {
    const raw = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'WABA', changes: [{ field: 'messages', value }] }] });
    return call(srv.baseUrl, 'POST', `/api/v1/reminders/whatsapp/${ws.workspace_id}/webhook`, {
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(secret, raw) }, rawBody: raw,
    });
  }
  function postTwilio(params: Record<string, string>, token = TW_TOKEN) {
    const path = `/api/v1/reminders/twilio/${ws.workspace_id}/webhook`;
    return call(srv.baseUrl, 'POST', path, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioRequestSignature(token, srv.baseUrl + path, params) },
      rawBody: new URLSearchParams(params).toString(),
    });
  }

  it('settings: admin only, secrets sealed and never returned, bad input is a 400', async () => {
    expect((await call(srv.baseUrl, 'GET', '/api/v1/reminders/settings', { headers: admin() })).status).toBe(404);
    expect((await appMethod(admin(), 'reminderSettings', [])).json).toEqual({ value: null });
    expect((await appMethod(desk(), 'reminderSettings', [])).status).toBe(403);
    expect((await call(srv.baseUrl, 'PUT', '/api/v1/reminders/settings', { headers: desk(), body: whatsappSettings() })).status).toBe(403);
    const missing = await call(srv.baseUrl, 'PUT', '/api/v1/reminders/settings', {
      headers: admin(), body: { ...whatsappSettings(), whatsapp: { phone_number_id: WA_PHONE_ID, base_url: providers.baseUrl } },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toMatch(/access_token is required/);
    const notHttps = await call(srv.baseUrl, 'PUT', '/api/v1/reminders/settings', {
      headers: admin(), body: { ...whatsappSettings(), whatsapp: { ...whatsappSettings().whatsapp, base_url: 'http://example.com' } },
    });
    expect(notHttps.status).toBe(400);
    const put = await call(srv.baseUrl, 'PUT', '/api/v1/reminders/settings', { headers: admin(), body: whatsappSettings() });
    expect(put.status, put.text).toBe(200);
    expect(put.json.schedule).toEqual({ evening_before: '18:00', minutes_before: [120], on_booking: false, quiet_hours: { start: '21:00', end: '08:00' }, states: ['BK'] });
    expect(put.json.webhook_url).toBe(`/api/v1/reminders/whatsapp/${ws.workspace_id}/webhook`);
    expect(put.text).not.toContain(WA_TOKEN);
    expect(put.text).not.toContain(APP_SECRET);
    expect((await appMethod(admin(), 'reminderSettings', [])).json).toEqual({ value: put.json });
    if (db.name === 'sqlite') {
      srv.service.db.pragma('wal_checkpoint(TRUNCATE)');
      expect(readFileSync(databaseFile(srv.dataDir)).includes(WA_TOKEN)).toBe(false);
    }

    // Meta's verification handshake.
    const verify = (token: string) => call(srv.baseUrl, 'GET',
      `/api/v1/reminders/whatsapp/${ws.workspace_id}/webhook?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`);
    const ok = await verify(VERIFY);
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('1158201444');
    expect((await verify('wrong')).status).toBe(403);
  });

  let first: string;
  /** The SMS tests' appointments, which the no-show report counts. */
  const week: Record<string, string> = {};
  let firstJobs: { id: string; point: string; due_at: string; status: string; provider_message_id: string | null }[];

  it('booking schedules the evening-before and 2-hours-before reminders; each goes once, at its time, by WhatsApp template', async () => {
    first = await book(0, '2031-03-12T05:00:00.000Z'); // 10:30 clinic time
    const r = await reminders(first);
    expect(r.reminders.map((j: { point: string; due_at: string; status: string }) => [j.point, j.due_at, j.status])).toEqual([
      ['evening', '2031-03-11T12:30:00.000Z', 'pending'], // 18:00 the day before
      ['before:120', '2031-03-12T03:00:00.000Z', 'pending'],
    ]);
    await runAt('2031-03-11T12:29:00Z');
    expect(providers.whatsapp).toHaveLength(0);
    await runAt('2031-03-11T12:30:00Z');
    await srv.service.reminders.runOnce();
    expect(providers.whatsapp).toHaveLength(1);
    const m = providers.whatsapp[0]!;
    expect(m.to).toBe('919876543210');
    expect(m.template.name).toBe('appointment_reminder');
    expect(m.template.language.code).toBe('en');
    const bodyParams = m.template.components[0].parameters.map((p: { text: string }) => p.text);
    expect(bodyParams.slice(0, 1)).toEqual(['Priya Sharma']);
    expect(bodyParams).toContain('12 MG Road, Pune');
    const buttons = m.template.components.filter((c: { type: string }) => c.type === 'button');
    expect(buttons.map((b: { sub_type: string }) => b.sub_type)).toEqual(['quick_reply', 'quick_reply', 'quick_reply']);
    await runAt('2031-03-12T03:00:00Z');
    expect(providers.whatsapp).toHaveLength(2);
    await srv.service.reminders.runOnce();
    expect(providers.whatsapp).toHaveLength(2);
    firstJobs = (await reminders(first)).reminders;
    expect(firstJobs.map((j) => j.status)).toEqual(['sent', 'sent']);
    expect(firstJobs[1]!.provider_message_id).toBe(providers.whatsapp[1]!.id);
    expect(buttons[1].parameters[0].payload).toBe(`cancel:${firstJobs[0]!.id}`);
  });

  it('delivery statuses come in signed; a forged webhook is refused and changes nothing', async () => {
    const wamid = firstJobs[1]!.provider_message_id!;
    const status = (s: string) => ({ messaging_product: 'whatsapp', metadata: { phone_number_id: WA_PHONE_ID },
      statuses: [{ id: wamid, status: s, timestamp: '1931234567', recipient_id: '919876543210' }] });
    expect((await postWhatsApp(status('read'), 'not-the-secret')).status).toBe(403);
    expect((await reminders(first)).reminders[1].status).toBe('sent');
    expect((await postWhatsApp(status('delivered'))).status).toBe(200);
    expect((await postWhatsApp(status('read'))).status).toBe(200);
    expect((await postWhatsApp(status('delivered'))).status).toBe(200); // late and out of order: stays read
    expect((await reminders(first)).reminders[1].status).toBe('read');
    const log = await call(srv.baseUrl, 'GET', '/api/v1/reminders/log?limit=10', { headers: desk() });
    expect(log.status).toBe(200);
    expect(log.json.data[0]).toMatchObject({ appointment_id: first, status: 'read', provider: 'whatsapp', to: '+919876543210' });
    await waitFor(() => events.length >= 3);
    await new Promise((r) => setTimeout(r, 200)); // and no more
    if (duplicates) console.log(`reminders test (${db.name}): ${duplicates} webhook deliveries received twice`);
    expect(events.map((e) => [e.event, e.data.point, e.data.status, e.data.channel]).sort()).toEqual([
      ['appointment.reminder.read', 'before:120', 'read', 'whatsapp'],
      ['appointment.reminder.sent', 'before:120', 'sent', 'whatsapp'],
      ['appointment.reminder.sent', 'evening', 'sent', 'whatsapp'],
    ]);
    expect(events.find((e) => e.data.point === 'evening')!.data).toMatchObject({ appointment_id: first, reminder_id: firstJobs[0]!.id });
  });

  async function waitFor(ok: () => boolean) {
    const until = Date.now() + 5000;
    while (!ok() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  }

  it('the Cancel button cancels through the state machine, as the patient, and tells the board', async () => {
    const told: string[] = [];
    const off = srv.service.appointments.onChange((w) => told.push(w));
    const press = (payload: string, from = '919876543210') => postWhatsApp({
      messaging_product: 'whatsapp', metadata: { phone_number_id: WA_PHONE_ID }, contacts: [{ wa_id: from, profile: { name: 'Priya' } }],
      messages: [{ from, id: 'wamid.in1', timestamp: '1931234567', type: 'button', button: { payload, text: 'Cancel' }, context: { id: firstJobs[0]!.provider_message_id } }],
    });
    // The button pressed on another phone (a forwarded message) changes nothing.
    expect((await press(`cancel:${firstJobs[0]!.id}`, '919999999999')).status).toBe(200);
    let a = await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${first}`, { headers: desk() });
    expect(a.json.data.status).toBe('BK');
    expect((await press(`cancel:${firstJobs[0]!.id}`)).status).toBe(200);
    a = await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${first}`, { headers: desk() });
    expect(a.json.data.status).toBe('CN');
    const last = a.json.data.status_history.at(-1);
    expect(last).toMatchObject({ from_status: 'BK', to_status: 'CN', actor_type: 'patient', actor_id: ws.patients[0]!.patient_id });
    expect((await reminders(first)).reply).toMatchObject({ reply: 'cancelled' });
    // The clinic's answer goes back as a WhatsApp text.
    await waitFor(() => providers.whatsappTexts.length > 0);
    expect(providers.whatsappTexts).toEqual([{ to: '919876543210', body: expect.stringMatching(/Priya Sharma's appointment .* is cancelled/), id: expect.any(String) }]);
    await waitFor(() => events.some((e) => e.event === 'appointment.reminder.replied'));
    expect(events.find((e) => e.event === 'appointment.reminder.replied')!.data).toMatchObject({ appointment_id: first, reply: 'cancelled' });
    await new Promise((r) => setImmediate(r));
    expect(told).toContain(ws.workspace_id);
    off();
  });

  it('by SMS: a 5xx is retried and a 4xx is not; a family on one number gets one message per appointment, each naming its patient', async () => {
    const put = await call(srv.baseUrl, 'PUT', '/api/v1/reminders/settings', {
      headers: admin(), body: {
        provider: 'twilio', enabled: true, public_url: srv.baseUrl, schedule: { evening_before: null, minutes_before: [60] },
        twilio: { account_sid: TW_SID, auth_token: TW_TOKEN, from: '+15005550006', base_url: providers.baseUrl },
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json.webhook_url).toBe(`${srv.baseUrl}/api/v1/reminders/twilio/${ws.workspace_id}/webhook`);
    t = Date.parse('2031-03-20T04:00:00Z');
    const priya = (week.priya = await book(0, '2031-03-21T05:00:00.000Z'));
    const rahul = (week.rahul = await book(1, '2031-03-21T05:30:00.000Z')); // same mobile as Priya
    const other = (week.other = await book(2, '2031-03-21T06:00:00.000Z'));

    providers.failNext(503, { code: 20500, message: 'Internal Server Error', status: 503 });
    await runAt('2031-03-21T04:00:00Z');
    let r = (await reminders(priya)).reminders[0];
    expect(r).toMatchObject({ status: 'pending', attempts: 1 });
    expect(r.error).toMatch(/503/);
    expect(providers.sms).toHaveLength(0);
    await runAt('2031-03-21T04:00:03Z'); // after the first backoff (2 s)
    r = (await reminders(priya)).reminders[0];
    expect(r).toMatchObject({ status: 'sent', attempts: 2 });
    expect(providers.sms).toHaveLength(1);
    expect(providers.sms[0]).toMatchObject({ To: '+919876543210', From: '+15005550006' });
    expect(providers.sms[0]!.Body).toContain('Priya Sharma');
    expect(providers.sms[0]!.Body).toContain('Reply C to confirm');
    expect(providers.sms[0]!.StatusCallback).toBe(put.json.webhook_url);

    await runAt('2031-03-21T04:30:00Z');
    expect(providers.sms).toHaveLength(2);
    expect(providers.sms[1]).toMatchObject({ To: '+919876543210' });
    expect(providers.sms[1]!.Body).toContain('Rahul Sharma');

    providers.failNext(400, { code: 21211, message: "The 'To' number is not a valid phone number.", more_info: 'https://www.twilio.com/docs/errors/21211', status: 400 });
    const before = providers.requests();
    await runAt('2031-03-21T05:00:00Z');
    await runAt('2031-03-21T05:10:00Z');
    expect(providers.requests() - before).toBe(1);
    const failed = (await reminders(other)).reminders[0];
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.error).toMatch(/21211/);

    // Twilio's status callback, signed.
    const sid = providers.sms[1]!.sid;
    expect((await postTwilio({ AccountSid: TW_SID, MessageSid: sid, MessageStatus: 'delivered', To: '+919876543210' }, 'forged')).status).toBe(403);
    expect((await postTwilio({ AccountSid: TW_SID, MessageSid: sid, MessageStatus: 'delivered', To: '+919876543210' })).status).toBe(200);
    expect((await reminders(rahul)).reminders[0].status).toBe('delivered');
  });

  it('SMS C confirms the latest reminder to that number; STOP opts the number out and nothing more is sent to it', async () => {
    const forged = await postTwilio({ AccountSid: TW_SID, MessageSid: 'SMin1', From: '+919876543210', To: '+15005550006', Body: 'X' }, 'forged');
    expect(forged.status).toBe(403);
    const c = await postTwilio({ AccountSid: TW_SID, MessageSid: 'SMin2', From: '+919876543210', To: '+15005550006', Body: 'c' });
    expect(c.status).toBe(200);
    expect(c.headers.get('content-type')).toMatch(/text\/xml/);
    expect(c.text).toMatch(/<Response><Message>.*Rahul Sharma.*confirmed.*<\/Message><\/Response>/);
    const rahul = (await call(srv.baseUrl, 'GET', '/api/v1/reminders/log?limit=10', { headers: desk() })).json.data
      .find((j: { to: string; status: string }) => j.to === '+919876543210' && j.status === 'delivered').appointment_id;
    expect((await reminders(rahul)).reply).toMatchObject({ reply: 'confirmed' });
    expect((await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${rahul}`, { headers: desk() })).json.data.status).toBe('BK');

    const stop = await postTwilio({ AccountSid: TW_SID, MessageSid: 'SMin3', From: '+919876543210', To: '+15005550006', Body: 'STOP' });
    expect(stop.text).toMatch(/no more messages/);
    const later = (week.later = await book(0, '2031-03-25T05:00:00.000Z'));
    const sent = providers.sms.length;
    await runAt('2031-03-25T04:00:00Z');
    expect(providers.sms).toHaveLength(sent);
    expect((await reminders(later)).reminders[0]).toMatchObject({ status: 'skipped', error: 'the number opted out (STOP)' });
  });

  it('parking or a no-show cancels the reminders still to come; a quiet-hours point waits for the morning', async () => {
    t = Date.parse('2031-04-01T04:00:00Z');
    const id = await book(3, '2031-04-03T03:00:00.000Z'); // 08:30 clinic time: an hour before is 07:30, inside the quiet hours
    const jobs = (await reminders(id)).reminders;
    expect(jobs.map((j: { point: string; due_at: string }) => [j.point, j.due_at])).toEqual([['before:60', '2031-04-03T02:30:00.000Z']]); // 08:00
    expect((await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${id}/parked`, { headers: desk() })).status).toBe(204);
    expect((await reminders(id)).reminders[0]).toMatchObject({ status: 'cancelled', error: 'the appointment became PK' });
  });

  it('a reminder left in doubt by a crash goes once more, and never a third time', async () => {
    t = Date.parse('2031-04-10T04:00:00Z');
    const a = await book(2, '2031-04-11T05:00:00.000Z');
    const b = await book(3, '2031-04-11T05:30:00.000Z');
    // As a process killed between the provider's answer and its record leaves them: sending, the lease over.
    const inDoubt = (id: string, times: number) => sql`UPDATE reminder_jobs SET status = 'sending', in_doubt = ${times}, attempts = ${times + 1},
      lease_until = ${'2031-04-11T03:00:00.000Z'} WHERE appointment_id = ${id}`.execute(srv.service.sql.k);
    await inDoubt(a, 0);
    await inDoubt(b, 1);
    const before = providers.sms.length;
    await runAt('2031-04-11T04:30:00Z'); // both due (an hour before each)
    expect(providers.sms.length - before).toBe(1);
    expect((await reminders(a)).reminders[0]).toMatchObject({ status: 'sent', attempts: 2 });
    const b1 = (await reminders(b)).reminders[0];
    expect(b1).toMatchObject({ status: 'failed', attempts: 3 });
    expect(b1.error).toMatch(/in doubt/);
  });

  it('the no-show report splits each week by confirmed, reminded without a reply, and not reminded', async () => {
    t = Date.parse('2031-03-26T12:00:00Z'); // a Wednesday
    const mark = async (id: string, status: string) =>
      expect((await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${id}/change-status?partner_id=0`, { headers: desk(), body: { status } })).status).toBe(200);
    await mark(week.priya!, 'NS'); // reminded, no answer
    await mark(week.rahul!, 'CK'); // confirmed, came
    await mark(week.other!, 'NS'); // the provider refused the number: not reminded
    await mark(week.later!, 'NS'); // opted out: not reminded
    const res = await call(srv.baseUrl, 'GET', '/api/v1/reminders/no-show-report?weeks=2', { headers: desk() });
    expect(res.status, res.text).toBe(200);
    const tally = (appointments: number, no_shows: number) => ({ appointments, no_shows, no_show_rate: appointments ? no_shows / appointments : null });
    expect(res.json.weeks).toEqual([
      { week_start: '2031-03-17', groups: { confirmed: tally(1, 0), no_reply: tally(1, 1), not_reminded: tally(1, 1) } },
      { week_start: '2031-03-24', groups: { confirmed: tally(0, 0), no_reply: tally(0, 0), not_reminded: tally(1, 1) } },
    ]);
    expect((await call(srv.baseUrl, 'GET', '/api/v1/reminders/no-show-report?weeks=99', { headers: desk() })).status).toBe(400);
    // The app's weeks is a number, so a browser asks at the app route: the same report.
    expect((await appMethod(desk(), 'noShowReport', [2])).json).toEqual({ value: res.json });
    expect((await appMethod(desk(), 'noShowReport', [99])).status).toBe(400);
  });

  // The sandbox keeps its own SQLite file whatever the live service runs on.
  it('the sandbox sends to its built-in stand-in provider, shows what it would have sent, and plays the patient\'s answers', skipFor(db.name === 'postgres' ? 'the sandbox keeps its own SQLite file, whatever the live service runs on: one run covers it' : null), async () => {
    expect((await call(srv.baseUrl, 'POST', '/api/v1/reminders/sandbox/inbound', { headers: admin(), body: { from: '+919876543210', text: 'X' } })).status).toBe(404);
    const sandbox = await startSandbox({
      liveDataDir: srv.dataDir, host: '127.0.0.1', port: 0, production: srv.service.environment, productionUrl: srv.baseUrl, service: { kek: TEST_KEK },
    });
    try {
      const creds = sandbox.credentials();
      const headers = { auth: creds.users.admin.auth_token };
      const put = await call(sandbox.url, 'PUT', '/api/v1/reminders/settings', {
        headers, body: { ...whatsappSettings(), language: 'hi', schedule: { on_booking: true, quiet_hours: null } },
      });
      expect(put.status, put.text).toBe(200);
      const sentBefore = providers.requests();
      const res = await call(sandbox.url, 'POST', '/dr/v1/appointment', {
        headers, body: { patient_id: creds.patients[0]!.patient_id, scheduled_at: new Date(Date.now() + 3 * 86_400_000).toISOString() },
      });
      expect(res.status, res.text).toBe(201);
      const id = res.json.data.appointment_id as string;
      let job;
      const until = Date.now() + 10_000;
      do job = (await call(sandbox.url, 'GET', `/api/v1/reminders/appointments/${id}`, { headers })).json.reminders[0];
      while (job?.status !== 'sent' && Date.now() < until && (await new Promise((r) => setTimeout(r, 50)), true));
      expect(job).toMatchObject({ point: 'booking', status: 'sent' });
      expect(job.provider_message_id).toMatch(/^sandbox\./);
      expect(job.text).toContain(creds.patients[0]!.first_name);
      expect(job.text).toContain('अपॉइंटमेंट'); // the clinic's language, Hindi (templates/hi.json)
      expect(providers.requests()).toBe(sentBefore); // the configured provider was never asked
      const answer = await call(sandbox.url, 'POST', '/api/v1/reminders/sandbox/inbound', { headers, body: { from: job.to, text: 'X' } });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json.answer).toMatch(/रद्द/);
      expect((await call(sandbox.url, 'GET', `/dr/v1/appointment/${id}`, { headers })).json.data.status).toBe('CN');
    } finally {
      await sandbox.close();
    }
  });
});
