import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { localDate, wallClockToInstant } from '../../server/shared/time.js';
import { DATABASES } from '../helpers/postgres.js';
import { call, type RunningServer, startServer } from '../helpers/server.js';
import { rowOf, rowsOf } from '../helpers/service.js';
import { skipFor } from '../helpers/skip.js';
import { auth, expectBareError, expectDrError, expectDrOk, sleep } from '../helpers/dr.js';

// The service's clock runs from the real one plus an offset: set so that the suite starts at 06:00 in the clinic
// (its bookings up to a few hours ahead fall on one clinic day, whatever the hour the tests run at), and moved by
// the tests (the undo window, the next day).
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const CLINIC_TZ = 'Asia/Kolkata';
const sixInTheMorning = () => wallClockToInstant(localDate(new Date(), CLINIC_TZ), 6, 0, CLINIC_TZ).getTime() - Date.now();

let srv: RunningServer;
let ws: DemoWorkspace;
let doctorA: string;
let doctorB: string;
// The demo doctor has today's demo appointments: the tests book their own doctors' time.
let doctorC: string;
let displayToken: string;
const reception = () => ws.users.reception.auth_token;

const MIN = 60_000;
// When the running test started, in real time: its times are counted from there, so that a minute turning while it
// runs cannot move one of its bookings onto another (120 minutes from now, asked a minute later, overlaps 135).
let testStartMs = 0;
beforeEach(() => {
  testStartMs = Date.now();
});
/** An instant `minutes` from the service's now when the test started (moved with the clock), on a whole minute. */
const inMinutes = (minutes: number) => new Date(Math.floor((testStartMs + offsetMs) / MIN) * MIN + minutes * MIN).toISOString();

async function newPatient(first: string) {
  const mobile = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const res = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
    headers: auth(reception()), body: { first_name: first, last_name: 'Queue', dob: '1990-01-01', gender: 'F', mobile },
  });
  return (expectDrOk(res, 201) as { patient_id: string }).patient_id;
}

const book = (body: Record<string, unknown>, token = reception()) =>
  call(srv.baseUrl, 'POST', '/dr/v1/appointment', { headers: auth(token), body });

async function booked(body: Record<string, unknown>) {
  return expectDrOk(await book(body), 201) as { appointment_id: string; status: string; token: number | null; status_history: any[] };
}

const setStatus = (id: string, status: string, token = reception()) =>
  call(srv.baseUrl, 'POST', `/dr/v1/appointment/${id}/change-status?partner_id=0`, { headers: auth(token), body: { status } });
const park = (id: string) => call(srv.baseUrl, 'POST', `/dr/v1/appointment/${id}/parked`, { headers: auth(reception()) });
const undo = (id: string, token = reception()) => call(srv.baseUrl, 'POST', `/dr/v1/appointment/${id}/undo`, { headers: auth(token) });
const getAppt = async (id: string) => expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${id}`, { headers: auth(reception()) }), 200);

const auditActions = async (id: string) =>
  (await rowsOf<{ action: string }>(srv.service, sql`SELECT action FROM audit_log WHERE resource_ids LIKE ${`%${id}%`} ORDER BY id`)).map((r) => r.action);

for (const db of DATABASES) describe(`appointments: booking rules, undo, tokens, the waiting-room board (${db.name})`, skipFor(db.skip), () => {
  beforeAll(async () => {
    offsetMs = sixInTheMorning();
    srv = await startServer({ database: db, clock });
    ws = srv.demo.workspaces[0]!;
    doctorA = (await srv.service.auth.users(ws.workspace_id)).find((u) => u.role === 'doctor')!.id;
    const b = await srv.service.auth.createUser(ws.workspace_id, { username: 'second-doctor@sunrise', password: 'second-doctor-pw', role: 'doctor', displayName: 'Dr Second' });
    doctorB = b.id;
    doctorC = (await srv.service.auth.createUser(ws.workspace_id, { username: 'third-doctor@sunrise', password: 'third-doctor-pw', role: 'doctor', displayName: 'Dr Third' })).id;
    const tv = await srv.service.auth.createUser(ws.workspace_id, { username: 'tv@sunrise', password: 'waiting-room-tv', role: 'display', displayName: 'Waiting room TV' });
    displayToken = await srv.service.auth.issueAuthToken(tv.id, 'tv');
  });
  afterAll(async () => {
    await srv?.close();
  });

  describe('no double booking', () => {
    it("refuses the doctor's taken slot with 409 SLOT_TAKEN, and books beside it", async () => {
      const [p1, p2] = [await newPatient('Asha'), await newPatient('Bina')];
      const first = await booked({ patient_id: p1, doctor_id: doctorB, scheduled_at: inMinutes(120) });
      // 10 minutes into a 15-minute booking: taken.
      expectDrError(await book({ patient_id: p2, doctor_id: doctorB, scheduled_at: inMinutes(130) }), 409, 'SLOT_TAKEN', /already has a patient at .* \(booked\)/);
      // Starting as the first one ends: free; another doctor at the same time: free.
      await booked({ patient_id: p2, doctor_id: doctorB, scheduled_at: inMinutes(135) });
      await booked({ patient_id: await newPatient('Chitra'), doctor_id: doctorC, scheduled_at: inMinutes(120) });
      // A cancelled or no-show booking frees its slot.
      expect((await setStatus(first.appointment_id, 'CN')).status).toBe(200);
      await booked({ patient_id: await newPatient('Devi'), doctor_id: doctorB, scheduled_at: inMinutes(120) });
    });

    it('a longer booking holds the doctor for its whole duration', async () => {
      await booked({ patient_id: await newPatient('Esha'), doctor_id: doctorB, scheduled_at: inMinutes(300), duration_minutes: 45 });
      expectDrError(await book({ patient_id: await newPatient('Farah'), doctor_id: doctorB, scheduled_at: inMinutes(340) }), 409, 'SLOT_TAKEN');
      expectDrError(await book({ patient_id: await newPatient('Gita'), doctor_id: doctorB, scheduled_at: inMinutes(290), duration_minutes: 20 }), 409, 'SLOT_TAKEN');
    });

    it('refuses the same patient twice at overlapping times with 409 PATIENT_DOUBLE_BOOKED, whatever the doctor', async () => {
      const p = await newPatient('Hema');
      await booked({ patient_id: p, doctor_id: doctorC, scheduled_at: inMinutes(400) });
      expectDrError(await book({ patient_id: p, doctor_id: doctorB, scheduled_at: inMinutes(405) }), 409, 'PATIENT_DOUBLE_BOOKED', /already has an appointment/);
      expectDrError(await book({ patient_id: p, scheduled_at: inMinutes(395) }), 409, 'PATIENT_DOUBLE_BOOKED');
    });

    it('books a confirmed overbook, recorded on the appointment, in its history and in the audit log', async () => {
      const [p1, p2] = [await newPatient('Indu'), await newPatient('Jaya')];
      const taken = await booked({ patient_id: p1, doctor_id: doctorB, scheduled_at: inMinutes(500) });
      const res = await book({ patient_id: p2, doctor_id: doctorB, scheduled_at: inMinutes(505), overbook: true });
      const a = expectDrOk(res, 201);
      expect(a).toMatchObject({ overbook: true, walk_in: false, duration_minutes: 15, token: null, status: 'BK' });
      expect(a.status_history).toEqual([expect.objectContaining({ from_status: null, to_status: 'BK', overbook: true, correction: false })]);
      expect((await getAppt(a.appointment_id)).overbook).toBe(true);
      await expect.poll(() => auditActions(a.appointment_id)).toContain('appointment.overbook');
      const overbookRow = (await rowOf<{ resource_ids: string }>(srv.service, sql`SELECT resource_ids FROM audit_log WHERE action = 'appointment.overbook' ORDER BY id DESC LIMIT 1`))!;
      expect(JSON.parse(overbookRow.resource_ids)).toEqual([a.appointment_id, taken.appointment_id]);
      // overbook: true over a free slot is an ordinary booking.
      const free = expectDrOk(await book({ patient_id: await newPatient('Kala'), doctor_id: doctorB, scheduled_at: inMinutes(600), overbook: true }), 201);
      expect(free.overbook).toBe(false);
    });

    it('keeps 409 APPOINTMENT_ALREADY_EXISTS for a partner id sent again (not a clash with itself)', async () => {
      const body = { patient_id: await newPatient('Lata'), doctor_id: doctorB, scheduled_at: inMinutes(700), partner_appointment_id: `Q-${process.pid}` };
      await booked(body);
      expectDrError(await book(body), 409, 'APPOINTMENT_ALREADY_EXISTS');
    });
  });

  describe('the past and walk-ins', () => {
    it('refuses a time already past with 400 TIME_IN_PAST, allowing a few minutes of "now"', async () => {
      const p = await newPatient('Mala');
      expectDrError(await book({ patient_id: p, scheduled_at: inMinutes(-30) }), 400, 'TIME_IN_PAST', /already passed/);
      expectDrError(await book({ patient_id: p, scheduled_at: new Date(clock.now().getTime() - 86_400_000).toISOString() }), 400, 'TIME_IN_PAST');
      await booked({ patient_id: p, scheduled_at: new Date(clock.now().getTime() - 2 * MIN).toISOString() });
    });

    it('books a walk-in for now without a time; a walk-in for another time is refused', async () => {
      const p = await newPatient('Nila');
      const before = clock.now().getTime();
      const a = expectDrOk(await book({ patient_id: p, walk_in: true, doctor_id: doctorC }), 201);
      expect(a.walk_in).toBe(true);
      expect(Math.abs(new Date(a.scheduled_at).getTime() - before)).toBeLessThan(5_000);
      expectDrError(await book({ patient_id: await newPatient('Oja'), walk_in: true, scheduled_at: inMinutes(-90) }), 400, 'INVALID_REQUEST', /walk-in is booked for now/);
      expectDrError(await book({ patient_id: await newPatient('Pia') }), 400, 'INVALID_REQUEST', /scheduled_at is required/);
    });
  });

  describe('undo means undo', () => {
    async function fresh(minutes: number) {
      return booked({ patient_id: await newPatient('Undo'), doctor_id: doctorB, scheduled_at: inMinutes(minutes) });
    }

    it.each([
      ['check-in', 'CK', 'BK'],
      ['no-show', 'NS', 'BK'],
      ['park', 'PK', 'BK'],
    ] as const)('undoes a %s of a booked patient back to booked, recorded as a correction with who and when', async (_name, to, back) => {
      const a = await fresh({ CK: 800, NS: 850, PK: 900 }[to]);
      expect(to === 'PK' ? (await park(a.appointment_id)).status : (await setStatus(a.appointment_id, to)).status).toBe(to === 'PK' ? 204 : 200);
      const data = expectDrOk(await undo(a.appointment_id), 200);
      expect(data).toMatchObject({ appointment_id: a.appointment_id, status: back, previous_status: to, token: null });
      const got = await getAppt(a.appointment_id);
      expect(got.status).toBe(back);
      expect(got.status_history.at(-1)).toMatchObject({
        from_status: to, to_status: back, correction: true, actor_type: 'user', actor_id: (await srv.service.auth.users(ws.workspace_id)).find((u) => u.role === 'reception')!.id,
      });
      expect(got.status_history.at(-1).changed_at).toMatch(/Z$/);
      await expect.poll(() => auditActions(a.appointment_id)).toContain('appointment.undo');
    });

    it('undoes a park or no-show of a checked-in patient back to checked in, keeping the token', async () => {
      const a = await fresh(1400);
      const ck = expectDrOk(await setStatus(a.appointment_id, 'CK'), 200);
      const token = (await getAppt(a.appointment_id)).token;
      expect(token).toBeGreaterThan(0);
      expect(ck.status).toBe('CK');
      expect((await park(a.appointment_id)).status).toBe(204);
      expect(expectDrOk(await undo(a.appointment_id), 200)).toMatchObject({ status: 'CK', previous_status: 'PK', token });
      expect((await setStatus(a.appointment_id, 'NS')).status).toBe(200);
      expect(expectDrOk(await undo(a.appointment_id), 200)).toMatchObject({ status: 'CK', previous_status: 'NS', token });
    });

    it('corrects a wrong check-in: the token it gave is taken back', async () => {
      const a = await fresh(1450);
      expect((await setStatus(a.appointment_id, 'CK')).status).toBe(200);
      expect((await getAppt(a.appointment_id)).token).not.toBeNull();
      expect(expectDrOk(await undo(a.appointment_id), 200)).toMatchObject({ status: 'BK', token: null });
      expect((await getAppt(a.appointment_id)).token).toBeNull();
    });

    it('refuses with 409 NOTHING_TO_UNDO: nothing since booking, an undo of an undo, a change that is not the front desk\'s', async () => {
      const a = await fresh(1500);
      expectDrError(await undo(a.appointment_id), 409, 'NOTHING_TO_UNDO', /since it was booked/);
      expect((await setStatus(a.appointment_id, 'NS')).status).toBe(200);
      expectDrOk(await undo(a.appointment_id), 200);
      expectDrError(await undo(a.appointment_id), 409, 'NOTHING_TO_UNDO', /itself an undo/);
      expect((await setStatus(a.appointment_id, 'CN')).status).toBe(200);
      expectDrError(await undo(a.appointment_id), 409, 'NOTHING_TO_UNDO', /CN \(cancelled\).*not a check-in, park or no-show/);
      expectDrError(await undo('no-such-appointment'), 404, 'APPOINTMENT_NOT_FOUND');
      expectDrError(await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${a.appointment_id}/undo`, { headers: auth(displayToken) }), 403, 'COMPLETE_NOT_ALLOWED');
    });

    it('undoes within 10 minutes only: 409 UNDO_WINDOW_PASSED after', async () => {
      const a = await fresh(1600);
      const b = await fresh(1650);
      expect((await setStatus(a.appointment_id, 'NS')).status).toBe(200);
      expect((await setStatus(b.appointment_id, 'NS')).status).toBe(200);
      offsetMs += 9 * MIN + 30_000;
      try {
        expectDrOk(await undo(a.appointment_id), 200);
        offsetMs += MIN;
        expectDrError(await undo(b.appointment_id), 409, 'UNDO_WINDOW_PASSED', /10 minutes only/);
        expect((await getAppt(b.appointment_id)).status).toBe('NS');
      } finally {
        offsetMs -= 10 * MIN + 30_000;
      }
    });
  });

  describe('tokens and calling the next patient', () => {
    it('gives tokens 1, 2, 3 per doctor per day at check-in, in check-in order', async () => {
      const doc = await srv.service.auth.createUser(ws.workspace_id, { username: 'token-doctor@sunrise', password: 'token-doctor-pw', role: 'doctor', displayName: 'Dr Token' });
      const other = await srv.service.auth.createUser(ws.workspace_id, { username: 'token-doctor-2@sunrise', password: 'token-doctor-pw', role: 'doctor', displayName: 'Dr Other' });
      const mk = async (d: string, m: number) => booked({ patient_id: await newPatient('Tok'), doctor_id: d, scheduled_at: inMinutes(m) });
      const [x, y, z] = [await mk(doc.id, 30), await mk(doc.id, 60), await mk(other.id, 30)];
      for (const a of [y, x, z]) expect((await setStatus(a.appointment_id, 'CK')).status).toBe(200);
      expect((await getAppt(y.appointment_id)).token).toBe(1);
      expect((await getAppt(x.appointment_id)).token).toBe(2);
      expect((await getAppt(z.appointment_id)).token).toBe(1);
      // A checked-in patient parked and back keeps their token; the history says which change gave it.
      expect((await park(x.appointment_id)).status).toBe(204);
      expect((await setStatus(x.appointment_id, 'CK')).status).toBe(200);
      const xs = await getAppt(x.appointment_id);
      expect(xs.token).toBe(2);
      expect(xs.status_history.map((h: any) => h.token)).toEqual([null, 2, null, null]);
      // The next day starts at 1 again.
      offsetMs += 86_400_000;
      try {
        const tomorrow = await mk(doc.id, 30);
        expect((await setStatus(tomorrow.appointment_id, 'CK')).status).toBe(200);
        expect((await getAppt(tomorrow.appointment_id)).token).toBe(1);
      } finally {
        offsetMs -= 86_400_000;
      }
    });

    it('"call next" takes the doctor\'s lowest waiting token in, once the one inside is done; 409 NO_PATIENT_WAITING when nobody waits; reception may not', async () => {
      const doc = await srv.service.auth.createUser(ws.workspace_id, { username: 'caller@sunrise', password: 'caller-doctor-pw', role: 'doctor', displayName: 'Dr Caller' });
      const docToken = await srv.service.auth.issueAuthToken(doc.id, 'test');
      const mk = async (m: number) => booked({ patient_id: await newPatient('Call'), doctor_id: doc.id, scheduled_at: inMinutes(m) });
      const [late, early] = [await mk(90), await mk(20)];
      expect((await setStatus(late.appointment_id, 'CK')).status).toBe(200);
      expect((await setStatus(early.appointment_id, 'CK')).status).toBe(200);
      const callNext = (token: string, doctorId?: string, current?: string) => {
        const q = new URLSearchParams({ ...(doctorId ? { doctor_id: doctorId } : {}), ...(current ? { current } : {}) }).toString();
        return call(srv.baseUrl, 'POST', `/dr/v1/queue/call-next${q ? `?${q}` : ''}`, { headers: auth(token) });
      };
      expectDrError(await callNext(reception(), doc.id), 403, 'COMPLETE_NOT_ALLOWED');
      expect(expectDrOk(await callNext(docToken), 200)).toMatchObject({ appointment_id: late.appointment_id, status: 'OG', previous_status: 'CK', token: 1 });
      // One patient with the doctor at a time (issue 24, item 10): calling again asks for the one inside to be done first.
      expectDrError(await callNext(ws.users.admin.auth_token, doc.id), 409, 'PATIENT_WITH_DOCTOR', /^Token 1 is still with Dr Caller/);
      expect((await getAppt(early.appointment_id)).status).toBe('CK');
      expectDrError(await callNext(docToken, undefined, 'later'), 400, 'INVALID_REQUEST');
      expect(expectDrOk(await callNext(ws.users.admin.auth_token, doc.id, 'complete'), 200)).toMatchObject({ appointment_id: early.appointment_id, token: 2 });
      expect((await getAppt(late.appointment_id)).status).toBe('CM');
      expectDrError(await callNext(docToken), 409, 'NO_PATIENT_WAITING');
      expectDrError(await callNext(ws.users.admin.auth_token, ws.patients[0]!.patient_id), 400, 'INVALID_REQUEST');
      // The role is checked first: reception learns nothing about the doctor_id it left out (issue 26, item 5).
      expectDrError(await callNext(reception()), 403, 'COMPLETE_NOT_ALLOWED');
    });
  });

  describe('the waiting-room board and the display role', () => {
    it('shows per doctor who is with the doctor and the next tokens, first name and token only', async () => {
      const doc = await srv.service.auth.createUser(ws.workspace_id, { username: 'board@sunrise', password: 'board-doctor-pw', role: 'doctor', displayName: 'Dr Board' });
      const p = await newPatient('Rekha');
      const a = await booked({ patient_id: p, doctor_id: doc.id, scheduled_at: inMinutes(45), reason: 'Private reason' });
      expect((await setStatus(a.appointment_id, 'CK')).status).toBe(200);
      const board = expectDrOk(await call(srv.baseUrl, 'GET', '/dr/v1/queue/board', { headers: auth(displayToken) }), 200);
      const mine = board.doctors.find((d: any) => d.doctor_id === doc.id);
      expect(mine).toEqual({ doctor_id: doc.id, doctor_name: 'Dr Board', now: [], next: [{ token: 1, first_name: 'Rekha' }] });
      expect(JSON.stringify(board)).not.toMatch(/Queue|Private reason|\+91|patient_id/);
    });

    it('the display role reads the board and nothing else', async () => {
      const h = auth(displayToken);
      const a = ws.appointments[0]!;
      expectDrError(await call(srv.baseUrl, 'GET', '/dr/v1/appointments', { headers: h }), 403, 'UNAUTHORIZED_ACCESS');
      expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${a.appointment_id}`, { headers: h }), 403, 'UNAUTHORIZED_ACCESS');
      expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${ws.patients[0]!.mobile}`, { headers: h }), 403, 'UNAUTHORIZED_ACCESS');
      expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${ws.patients[0]!.patient_id}`, { headers: h }), 403, 'UNAUTHORIZED_ACCESS');
      expectDrError(await book({ patient_id: ws.patients[0]!.patient_id, scheduled_at: inMinutes(60) }, displayToken), 403, 'COMPLETE_NOT_ALLOWED');
      expectBareError(await setStatus(a.appointment_id, 'CK', displayToken), 403, 'COMPLETE_NOT_ALLOWED');
      expectDrError(await call(srv.baseUrl, 'POST', `/dr/v1/queue/call-next?doctor_id=${doctorA}`, { headers: h }), 403, 'COMPLETE_NOT_ALLOWED');
      expect((await call(srv.baseUrl, 'GET', '/api/v1/doctors', { headers: h })).status).toBe(403);
      expect((await call(srv.baseUrl, 'GET', '/api/v1/users', { headers: h })).status).toBe(403);
      expect((await call(srv.baseUrl, 'GET', '/notification/v1/connect/webhook/subscriptions', { headers: { authorization: `Bearer ${displayToken}` } })).status).toBe(403);
      // Not listed among the doctors a booking can name, and not bookable as one.
      const doctors = (await call(srv.baseUrl, 'GET', '/api/v1/doctors', { headers: { authorization: `Bearer ${reception()}` } })).json.doctors as { role: string }[];
      expect(doctors.map((d) => d.role)).not.toContain('display');
      const tv = (await srv.service.auth.users(ws.workspace_id)).find((u) => u.role === 'display')!;
      expectDrError(await book({ patient_id: ws.patients[0]!.patient_id, doctor_id: tv.id, scheduled_at: inMinutes(61) }), 400, 'INVALID_REQUEST', /not a doctor/);
      // Another clinic's board is not reachable: the board is the caller's clinic's.
      const other = srv.demo.workspaces[1]!;
      const board = expectDrOk(await call(srv.baseUrl, 'GET', '/dr/v1/queue/board', { headers: auth(other.users.reception.auth_token) }), 200);
      expect(board.doctors.map((d: any) => d.doctor_name)).not.toContain('Dr Board');
    });

    it('signs a display user in over the app route (its role in the session)', async () => {
      const res = await call(srv.baseUrl, 'POST', '/api/v1/session', { body: { username: 'tv@sunrise', password: 'waiting-room-tv' } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.user.role).toBe('display');
    });

    it('streams the board over server-sent events: at once, then within 2 s of a check-in', async () => {
      const doc = await srv.service.auth.createUser(ws.workspace_id, { username: 'sse@sunrise', password: 'sse-doctor-pw', role: 'doctor', displayName: 'Dr Stream' });
      const a = await booked({ patient_id: await newPatient('Sunita'), doctor_id: doc.id, scheduled_at: inMinutes(50) });
      const controller = new AbortController();
      const res = await fetch(`${srv.baseUrl}/dr/v1/queue/events`, { headers: auth(displayToken), signal: controller.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      const nextBoard = async () => {
        for (;;) {
          const end = buffer.indexOf('\n\n');
          if (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = /^event: board\ndata: (.*)$/m.exec(block);
            if (data) return JSON.parse(data[1]!);
            continue;
          }
          const { value, done } = await reader.read();
          if (done) throw new Error('stream ended');
          buffer += decoder.decode(value, { stream: true });
        }
      };
      try {
        const first = await nextBoard();
        expect(first.doctors.find((d: any) => d.doctor_id === doc.id)).toMatchObject({ now: [], next: [] });
        const t0 = Date.now();
        expect((await setStatus(a.appointment_id, 'CK')).status).toBe(200);
        const second = await nextBoard();
        expect(Date.now() - t0).toBeLessThan(2_000);
        expect(second.doctors.find((d: any) => d.doctor_id === doc.id)).toMatchObject({ next: [{ token: 1, first_name: 'Sunita' }] });
      } finally {
        controller.abort();
      }
    });

    it('refuses the stream without a token (401) and to a caller without queue:board (403)', async () => {
      expectDrError(await call(srv.baseUrl, 'GET', '/dr/v1/queue/events'), 401, 'UNAUTHORIZED_ACCESS');
      const narrow = await srv.service.auth.issueAuthToken((await srv.service.auth.users(ws.workspace_id)).find((u) => u.role === 'reception')!.id, 'narrow', ['appointments:read']);
      expectDrError(await call(srv.baseUrl, 'GET', '/dr/v1/queue/events', { headers: auth(narrow) }), 403, 'UNAUTHORIZED_ACCESS');
      await sleep(0);
    });
  });
});
