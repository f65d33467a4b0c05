import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { DATABASES } from '../helpers/postgres.js';
import { call, type RunningServer, startServer } from '../helpers/server.js';
import { rowOf, rowsOf } from '../helpers/service.js';
import { skipFor } from '../helpers/skip.js';
import { ISO_MS_UTC, type Res, auth, bearer, expectBareError, expectDrError, expectDrOk, sleep } from '../helpers/dr.js';

type Status = 'BK' | 'CK' | 'OG' | 'PK' | 'CM' | 'CN' | 'NS';
type Role = 'admin' | 'doctor' | 'reception';

/** Parked success: 204 and nothing at all in the body. */
function expectParked(res: Res) {
  expect(res.status, res.text).toBe(204);
  expect(res.text).toBe('');
  expect(res.headers.get('x-request-id')).toMatch(/\S/);
}

let partnerSeq = 0;
const freshPartnerId = (prefix = 'T') => `${prefix}-${process.pid}-${++partnerSeq}`;

const userId = async (srv: RunningServer, ws: DemoWorkspace, role: Role) =>
  (await srv.service.auth.users(ws.workspace_id)).find((u) => u.role === role)!.id;

interface BookBody { patient_id: string; scheduled_at: string; partner_appointment_id?: string; doctor_id?: string; reason?: string }

let slot = 0;
/** Books an appointment over HTTP (201 asserted) on a far-future day unless told otherwise. */
async function book(srv: RunningServer, ws: DemoWorkspace, body: Partial<BookBody> = {}, token = ws.users.reception.auth_token) {
  const n = ++slot;
  const full: BookBody = {
    patient_id: ws.patients[n % ws.patients.length]!.patient_id,
    scheduled_at: new Date(Date.UTC(2033, 0, 1 + (n % 300), 3, 30)).toISOString(),
    partner_appointment_id: freshPartnerId(),
    ...body,
  };
  const res = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', { headers: auth(token), body: full });
  return expectDrOk(res, 201) as any;
}

async function getAppt(srv: RunningServer, token: string, id: string, partner = false) {
  const res = await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${encodeURIComponent(id)}${partner ? '?partner_id=1' : ''}`, { headers: auth(token) });
  return expectDrOk(res, 200) as any;
}

const park = (srv: RunningServer, token: string, id: string, query = '', headers: Record<string, string> = auth(token)) =>
  call(srv.baseUrl, 'POST', `/dr/v1/appointment/${encodeURIComponent(id)}/parked${query}`, { headers });

const changeStatus = (srv: RunningServer, token: string, id: string, status: unknown, query = '?partner_id=0', headers: Record<string, string> = auth(token)) =>
  call(srv.baseUrl, 'POST', `/dr/v1/appointment/${encodeURIComponent(id)}/change-status${query}`, { headers, body: { status } });

/** The state machine as decisions.md (PK, NS) and server/appointments/states.ts (the rest) define it. */
const ALLOWED_FROM: Record<Exclude<Status, 'BK'>, Status[]> = {
  PK: ['BK', 'CK', 'OG'],
  NS: ['BK', 'CK', 'PK'],
  CK: ['BK', 'NS', 'PK'],
  OG: ['BK', 'CK', 'PK'],
  CM: ['CK', 'OG', 'PK'],
  CN: ['BK', 'CK', 'PK'],
};

/** How a doctor drives a fresh BK appointment into each state. */
const PATH_TO: Record<Status, Exclude<Status, 'BK'>[]> = {
  BK: [], CK: ['CK'], OG: ['OG'], PK: ['PK'], CM: ['CK', 'CM'], CN: ['CN'], NS: ['NS'],
};

async function drive(srv: RunningServer, token: string, id: string, to: Exclude<Status, 'BK'>) {
  if (to === 'PK') expectParked(await park(srv, token, id));
  else expect((await changeStatus(srv, token, id, to)).status).toBe(200);
}

/** Audit rows of one request: read entries are queued and written in batches, so the log is flushed first. */
async function auditRowsOf(srv: RunningServer, requestId: string): Promise<any[]> {
  await srv.service.audit.flush();
  return rowsOf(srv.service, sql`SELECT * FROM audit_log WHERE request_id = ${requestId} ORDER BY id`);
}

// ---------------------------------------------------------------------------------------------------------------

for (const db of DATABASES) describe(`booking: POST /dr/v1/appointment (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  let B: DemoWorkspace;
  beforeAll(async () => {
    srv = await startServer({ database: db });
    [A, B] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
  });
  afterAll(async () => srv?.close());

  it('books: 201 with the exact appointment, status BK and one history entry, readable by GET', async () => {
    const patient = A.patients[2]!;
    const doctor = await userId(srv, A, 'doctor');
    const partner = freshPartnerId('BOOK');
    const before = Date.now();
    const res = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
      headers: auth(A.users.reception.auth_token),
      body: { patient_id: patient.patient_id, scheduled_at: '2031-01-15T10:00:00+05:30', partner_appointment_id: partner, doctor_id: doctor, reason: ' Fever ' },
    });
    const data = expectDrOk(res, 201);
    expect(res.json.status_code).toBe(201);
    expect(data).toStrictEqual({
      appointment_id: expect.stringMatching(/\S/),
      partner_appointment_id: partner,
      patient_id: patient.patient_id,
      doctor_id: doctor,
      scheduled_at: '2031-01-15T04:30:00.000Z',
      date: '2031-01-15',
      reason: 'Fever',
      status: 'BK',
      created_at: expect.stringMatching(ISO_MS_UTC),
      updated_at: data.created_at,
      duration_minutes: 15,
      walk_in: false,
      overbook: false,
      token: null,
      status_history: [{
        from_status: null, to_status: 'BK', changed_at: data.created_at, actor_type: 'user', actor_id: await userId(srv, A, 'reception'),
        correction: false, overbook: false, token: null,
      }],
    });
    expect(Date.parse(data.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(data.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(data.appointment_id).not.toBe(partner);
    expect(await getAppt(srv, A.users.doctor.auth_token, data.appointment_id)).toStrictEqual(data);
    expect(await getAppt(srv, A.users.doctor.auth_token, partner, true)).toStrictEqual(data);
  });

  it('books without the optional fields: partner id and doctor null, reason empty', async () => {
    const res = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
      headers: bearer(A.users.doctor.auth_token), body: { patient_id: A.patients[0]!.patient_id, scheduled_at: '2031-02-01T06:00:00Z' },
    });
    const data = expectDrOk(res, 201);
    expect(data).toMatchObject({ partner_appointment_id: null, doctor_id: null, reason: '', status: 'BK', scheduled_at: '2031-02-01T06:00:00.000Z', date: '2031-02-01' });
    expect(data.status_history).toHaveLength(1);
    expect(data.status_history[0]).toMatchObject({ actor_id: await userId(srv, A, 'doctor'), from_status: null, to_status: 'BK' });
  });

  it('dates an appointment by the clinic\'s calendar day (Asia/Kolkata), not UTC\'s', async () => {
    const late = await book(srv, A, { scheduled_at: '2031-03-09T20:00:00Z' }); // 01:30 on the 10th in Kolkata
    expect(late.date).toBe('2031-03-10');
    expect(late.scheduled_at).toBe('2031-03-09T20:00:00.000Z');
    const early = await book(srv, A, { scheduled_at: '2031-03-10T18:29:59.999Z' }); // 23:59:59.999 on the 10th
    expect(early.date).toBe('2031-03-10');
    const next = await book(srv, A, { scheduled_at: '2031-03-10T18:30:00Z' });
    expect(next.date).toBe('2031-03-11');
  });

  it('answers 409 APPOINTMENT_ALREADY_EXISTS for a duplicate partner_appointment_id and keeps the original', async () => {
    const original = await book(srv, A, { scheduled_at: '2031-04-01T04:00:00Z' });
    for (const token of [A.users.reception.auth_token, A.users.doctor.auth_token]) {
      const res = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
        headers: auth(token),
        body: { patient_id: A.patients[1]!.patient_id, scheduled_at: '2031-04-01T05:00:00Z', partner_appointment_id: original.partner_appointment_id },
      });
      expectDrError(res, 409, 'APPOINTMENT_ALREADY_EXISTS');
    }
    // The demo's own partner ids are taken too.
    const demo = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
      headers: auth(A.users.reception.auth_token),
      body: { patient_id: A.patients[1]!.patient_id, scheduled_at: '2031-04-01T05:00:00Z', partner_appointment_id: A.appointments[0]!.partner_appointment_id },
    });
    expectDrError(demo, 409, 'APPOINTMENT_ALREADY_EXISTS');
    expect(await getAppt(srv, A.users.reception.auth_token, original.partner_appointment_id, true)).toStrictEqual(original);
    const day = expectDrOk(await call(srv.baseUrl, 'GET', '/dr/v1/appointments?date=2031-04-01', { headers: auth(A.users.reception.auth_token) }), 200);
    expect(day.appointments.map((a: any) => a.appointment_id)).toEqual([original.appointment_id]);
  });

  it('partner ids are per clinic: workspace B may use the same partner id as A', async () => {
    const a = await book(srv, A);
    const b = await book(srv, B, { partner_appointment_id: a.partner_appointment_id });
    expect(b.appointment_id).not.toBe(a.appointment_id);
    expect((await getAppt(srv, B.users.reception.auth_token, a.partner_appointment_id, true)).appointment_id).toBe(b.appointment_id);
    expect((await getAppt(srv, A.users.reception.auth_token, a.partner_appointment_id, true)).appointment_id).toBe(a.appointment_id);
  });

  it('answers 404 PATIENT_NOT_FOUND for an unknown patient and for another clinic\'s patient', async () => {
    for (const patient_id of ['no-such-patient', B.patients[0]!.patient_id]) {
      const res = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
        headers: auth(A.users.reception.auth_token), body: { patient_id, scheduled_at: '2031-05-01T04:00:00Z', partner_appointment_id: freshPartnerId() },
      });
      expectDrError(res, 404, 'PATIENT_NOT_FOUND');
    }
    const day = expectDrOk(await call(srv.baseUrl, 'GET', '/dr/v1/appointments?date=2031-05-01', { headers: auth(A.users.reception.auth_token) }), 200);
    expect(day.appointments).toEqual([]);
  });

  it.each([
    ['missing patient_id', { patient_id: undefined }],
    ['missing scheduled_at', { scheduled_at: undefined }],
    ['scheduled_at not a date-time', { scheduled_at: 'tomorrow at ten' }],
    ['scheduled_at without a time', { scheduled_at: '2031-06-01' }],
    ['scheduled_at without an offset', { scheduled_at: '2031-06-01T10:00:00' }],
    ['scheduled_at as a number', { scheduled_at: 1_900_000_000 }],
    ['partner id with a space', { partner_appointment_id: 'EMR 1' }],
    ['empty partner id', { partner_appointment_id: '' }],
    ['partner id as a number', { partner_appointment_id: 12345 }],
    ['reason as a number', { reason: 5 }],
  ])('answers 400 INVALID_REQUEST for %s', async (_label, change: Record<string, unknown>) => {
    const body: Record<string, unknown> = { patient_id: A.patients[0]!.patient_id, scheduled_at: '2031-06-01T04:00:00Z', partner_appointment_id: freshPartnerId(), ...change };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    const res = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', { headers: auth(A.users.reception.auth_token), body });
    expectDrError(res, 400, 'INVALID_REQUEST');
    const day = expectDrOk(await call(srv.baseUrl, 'GET', '/dr/v1/appointments?date=2031-06-01', { headers: auth(A.users.reception.auth_token) }), 200);
    expect(day.appointments).toEqual([]);
  });

  it('answers 400 INVALID_REQUEST for a doctor_id that is not a doctor of this clinic', async () => {
    for (const doctor_id of [await userId(srv, B, 'doctor'), await userId(srv, A, 'reception'), 'no-such-user']) {
      const res = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
        headers: auth(A.users.reception.auth_token), body: { patient_id: A.patients[0]!.patient_id, scheduled_at: '2031-06-02T04:00:00Z', doctor_id },
      });
      expectDrError(res, 400, 'INVALID_REQUEST');
    }
  });

  it('answers 401 in the dr envelope without a valid token and 403 COMPLETE_NOT_ALLOWED without appointments:write', async () => {
    const body = { patient_id: A.patients[0]!.patient_id, scheduled_at: '2031-06-03T04:00:00Z' };
    expectDrError(await call(srv.baseUrl, 'POST', '/dr/v1/appointment', { body }), 401, 'UNAUTHORIZED_ACCESS');
    expectDrError(await call(srv.baseUrl, 'POST', '/dr/v1/appointment', { headers: bearer('nope'), body }), 401, 'UNAUTHORIZED_ACCESS');
    const readOnly = await srv.service.auth.issueAuthToken(await userId(srv, A, 'reception'), 'read-only', ['appointments:read', 'patients:read']);
    expectDrError(await call(srv.baseUrl, 'POST', '/dr/v1/appointment', { headers: auth(readOnly), body }), 403, 'COMPLETE_NOT_ALLOWED');
    const day = expectDrOk(await call(srv.baseUrl, 'GET', '/dr/v1/appointments?date=2031-06-03', { headers: auth(readOnly) }), 200);
    expect(day.appointments).toEqual([]);
  });
});

for (const db of DATABASES) describe(`GET /dr/v1/appointment/:id and GET /dr/v1/appointments?date= (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  let B: DemoWorkspace;
  beforeAll(async () => {
    srv = await startServer({ database: db });
    [A, B] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
  });
  afterAll(async () => srv?.close());

  it('reads by service id, and by partner id only with partner_id=1', async () => {
    const a = await book(srv, A);
    const token = A.users.reception.auth_token;
    expect(await getAppt(srv, token, a.appointment_id)).toStrictEqual(a);
    expect(await getAppt(srv, token, a.partner_appointment_id, true)).toStrictEqual(a);
    for (const q of ['', '?partner_id=0', '?partner_id=2', '?partner_id=true']) {
      expect(expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${a.appointment_id}${q}`, { headers: auth(token) }), 200)).toStrictEqual(a);
      expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${a.partner_appointment_id}${q}`, { headers: auth(token) }), 404, 'APPOINTMENT_NOT_FOUND');
    }
    expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${a.appointment_id}?partner_id=1`, { headers: auth(token) }), 404, 'APPOINTMENT_NOT_FOUND');
    expectDrError(await call(srv.baseUrl, 'GET', '/dr/v1/appointment/00000000-0000-0000-0000-000000000000', { headers: auth(token) }), 404, 'APPOINTMENT_NOT_FOUND');
  });

  it('answers 401 and 403 UNAUTHORIZED_ACCESS (envelope) on reading without the right credentials', async () => {
    const id = A.appointments[0]!.appointment_id;
    expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${id}`, {}), 401, 'UNAUTHORIZED_ACCESS');
    expectDrError(await call(srv.baseUrl, 'GET', '/dr/v1/appointments', { headers: { auth: 'bad' } }), 401, 'UNAUTHORIZED_ACCESS');
    const patientsOnly = await srv.service.auth.issueAuthToken(await userId(srv, A, 'reception'), 'patients-only', ['patients:read']);
    expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${id}`, { headers: auth(patientsOnly) }), 403, 'UNAUTHORIZED_ACCESS');
    expectDrError(await call(srv.baseUrl, 'GET', '/dr/v1/appointments', { headers: bearer(patientsOnly) }), 403, 'UNAUTHORIZED_ACCESS');
  });

  it('lists today at the clinic by default: the six demo appointments in time order, with patient name and mobile', async () => {
    const res = await call(srv.baseUrl, 'GET', '/dr/v1/appointments', { headers: auth(A.users.reception.auth_token) });
    const data = expectDrOk(res, 200);
    expect(Object.keys(data).sort()).toEqual(['appointments', 'date']);
    const demoFirst = await getAppt(srv, A.users.reception.auth_token, A.appointments[0]!.appointment_id);
    expect(data.date).toBe(demoFirst.date);
    const ours = data.appointments.filter((a: any) => a.partner_appointment_id?.startsWith('EMR-1'));
    expect(ours.map((a: any) => a.partner_appointment_id)).toEqual(['EMR-1001', 'EMR-1002', 'EMR-1003', 'EMR-1004', 'EMR-1005', 'EMR-1006']);
    const times = data.appointments.map((a: any) => a.scheduled_at);
    expect([...times].sort()).toEqual(times);
    const first = ours[0];
    const patient = A.patients.find((p) => p.patient_id === first.patient_id)!;
    expect(first.patient_name).toBe(`${patient.first_name} ${patient.last_name}`);
    expect(first.patient_mobile).toBe(`+91${patient.mobile}`);
    const { status_history: _h, ...withoutHistory } = demoFirst;
    // Nothing has happened to a demo booking yet, so there is nothing to undo.
    expect(first).toStrictEqual({ ...withoutHistory, patient_name: first.patient_name, patient_mobile: first.patient_mobile, undo_until: null });
    // Workspace B's demo appointments are not in A's list.
    expect(data.appointments.some((a: any) => a.partner_appointment_id?.startsWith('EMR-2'))).toBe(false);
    const rahul = data.appointments.find((a: any) => a.patient_id === A.patients[1]!.patient_id);
    expect(rahul.patient_name).toBe('Rahul Kumar Sharma');
  });

  it('lists the asked day only, in time order, by the clinic\'s calendar', async () => {
    const D = '2032-07-14';
    const token = A.users.reception.auth_token;
    const noon = await book(srv, A, { scheduled_at: `${D}T06:30:00Z` }); // 12:00 IST
    const evening = await book(srv, A, { scheduled_at: `${D}T12:30:00Z` }); // 18:00 IST
    const dawn = await book(srv, A, { scheduled_at: '2032-07-13T19:00:00Z' }); // 00:30 IST on D
    const morning = await book(srv, A, { scheduled_at: `${D}T03:30:00+00:00` }); // 09:00 IST
    const lastMinute = await book(srv, A, { scheduled_at: `${D}T18:29:00Z` }); // 23:59 IST
    await book(srv, A, { scheduled_at: `${D}T18:30:00Z` }); // 00:00 IST the next day
    await book(srv, A, { scheduled_at: '2032-07-13T18:29:00Z' }); // 23:59 IST the day before
    await book(srv, B, { scheduled_at: `${D}T06:00:00Z` }); // another clinic
    const data = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/appointments?date=${D}`, { headers: auth(token) }), 200);
    expect(data.date).toBe(D);
    expect(data.appointments.map((a: any) => a.appointment_id)).toEqual(
      [dawn, morning, noon, evening, lastMinute].map((a) => a.appointment_id));
    for (const a of data.appointments) {
      expect(a.date).toBe(D);
      expect(a.status).toBe('BK');
      expect(a.patient_mobile).toMatch(/^\+91\d{10}$/);
    }
    // Status changes show in the list.
    expectParked(await park(srv, A.users.doctor.auth_token, noon.appointment_id));
    const after = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/appointments?date=${D}`, { headers: auth(token) }), 200);
    expect(after.appointments.map((a: any) => a.status)).toEqual(['BK', 'BK', 'PK', 'BK', 'BK']);
    // B's list for the same day holds only B's appointment.
    const b = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/appointments?date=${D}`, { headers: auth(B.users.reception.auth_token) }), 200);
    expect(b.appointments).toHaveLength(1);
    expect(B.patients.map((p) => p.patient_id)).toContain(b.appointments[0].patient_id);
  });

  it('answers an empty day with an empty list', async () => {
    const data = expectDrOk(await call(srv.baseUrl, 'GET', '/dr/v1/appointments?date=2040-01-01', { headers: auth(A.users.reception.auth_token) }), 200);
    expect(data).toStrictEqual({ date: '2040-01-01', appointments: [] });
  });

  it.each(['2032-02-30', '2032-13-01', '2032-7-4', 'tomorrow', '14-07-2032', ''])('answers 400 INVALID_REQUEST for date=%s', async (date) => {
    const res = await call(srv.baseUrl, 'GET', `/dr/v1/appointments?date=${encodeURIComponent(date)}`, { headers: auth(A.users.reception.auth_token) });
    expectDrError(res, 400, 'INVALID_REQUEST');
  });
});

for (const db of DATABASES) describe(`endpoint 2: POST /dr/v1/appointment/:id/parked (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  let doctor: string;
  beforeAll(async () => {
    srv = await startServer({ database: db });
    A = srv.demo.workspaces[0]!;
    doctor = A.users.doctor.auth_token;
  });
  afterAll(async () => srv?.close());

  it('parks a booked appointment: 204 with an empty body, recorded in the history with the actor', async () => {
    const a = await book(srv, A);
    const res = await park(srv, doctor, a.appointment_id);
    expectParked(res);
    expect(res.headers.get('content-length') ?? '0').toBe('0');
    const after = await getAppt(srv, doctor, a.appointment_id);
    expect(after.status).toBe('PK');
    expect(after.status_history).toHaveLength(2);
    expect(after.status_history[1]).toStrictEqual({
      from_status: 'BK', to_status: 'PK', changed_at: expect.stringMatching(ISO_MS_UTC), actor_type: 'user', actor_id: await userId(srv, A, 'doctor'),
      correction: false, overbook: false, token: null,
    });
    expect(after.updated_at).toBe(after.status_history[1].changed_at);
    expect(after.created_at).toBe(a.created_at);
  });

  it('parks a demo appointment by its partner id with partner_id=1', async () => {
    const demo = A.appointments[3]!;
    expectParked(await park(srv, doctor, demo.partner_appointment_id, '?partner_id=1'));
    expect((await getAppt(srv, doctor, demo.appointment_id)).status).toBe('PK');
  });

  it('partner_id: 1 means partner id; 0, other values or none mean service id', async () => {
    const a = await book(srv, A);
    const b = await book(srv, A);
    const c = await book(srv, A);
    // A partner id looked up as a service id, and a service id looked up as a partner id, are not found.
    for (const q of ['', '?partner_id=0', '?partner_id=2', '?partner_id=yes']) {
      expectBareError(await park(srv, doctor, a.partner_appointment_id, q), 404, 'APPOINTMENT_NOT_FOUND');
    }
    expectBareError(await park(srv, doctor, a.appointment_id, '?partner_id=1'), 404, 'APPOINTMENT_NOT_FOUND');
    expect((await getAppt(srv, doctor, a.appointment_id)).status).toBe('BK');
    expectParked(await park(srv, doctor, a.partner_appointment_id, '?partner_id=1'));
    expectParked(await park(srv, doctor, b.appointment_id, '?partner_id=0'));
    expectParked(await park(srv, doctor, c.appointment_id));
    for (const x of [a, b, c]) expect((await getAppt(srv, doctor, x.appointment_id)).status).toBe('PK');
  });

  it('ignores an optional JSON body', async () => {
    const a = await book(srv, A);
    const res = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${a.appointment_id}/parked`, { headers: auth(doctor), body: { status: 'CM', reason: 'ignored' } });
    expectParked(res);
    const b = await book(srv, A);
    const empty = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${b.appointment_id}/parked`, {
      headers: { ...auth(doctor), 'content-type': 'application/json' }, rawBody: '',
    });
    expectParked(empty);
    expect((await getAppt(srv, doctor, a.appointment_id)).status).toBe('PK');
    expect((await getAppt(srv, doctor, b.appointment_id)).status).toBe('PK');
  });

  it.each(['BK', 'CK', 'OG'] as const)('parks from %s', async (from) => {
    const a = await book(srv, A);
    for (const step of PATH_TO[from]) await drive(srv, doctor, a.appointment_id, step);
    expectParked(await park(srv, A.users.reception.auth_token, a.appointment_id));
    const after = await getAppt(srv, doctor, a.appointment_id);
    expect(after.status).toBe('PK');
    expect(after.status_history.at(-1)).toMatchObject({ from_status: from, to_status: 'PK', actor_id: await userId(srv, A, 'reception') });
  });

  it('parking a parked appointment is a 204 no-op: no new history, no new updated_at', async () => {
    const a = await book(srv, A);
    expectParked(await park(srv, doctor, a.appointment_id));
    const parked = await getAppt(srv, doctor, a.appointment_id);
    await sleep(5);
    expectParked(await park(srv, doctor, a.appointment_id));
    expectParked(await park(srv, A.users.reception.auth_token, a.partner_appointment_id, '?partner_id=1'));
    expect(await getAppt(srv, doctor, a.appointment_id)).toStrictEqual(parked);
  });

  it.each(['CM', 'CN', 'NS'] as const)('refuses to park a %s appointment with 400 INVALID_REQUEST naming the state', async (from) => {
    const a = await book(srv, A);
    for (const step of PATH_TO[from]) await drive(srv, doctor, a.appointment_id, step);
    const before = await getAppt(srv, doctor, a.appointment_id);
    expect(before.status).toBe(from);
    const res = await park(srv, doctor, a.appointment_id);
    expectBareError(res, 400, 'INVALID_REQUEST');
    expect(res.json.error.message).toContain(from);
    expect(await getAppt(srv, doctor, a.appointment_id)).toStrictEqual(before);
  });

  it('answers 404 APPOINTMENT_NOT_FOUND (bare) for an unknown id', async () => {
    expectBareError(await park(srv, doctor, '00000000-0000-0000-0000-000000000000'), 404, 'APPOINTMENT_NOT_FOUND');
    expectBareError(await park(srv, doctor, 'NO-SUCH-PARTNER-ID', '?partner_id=1'), 404, 'APPOINTMENT_NOT_FOUND');
  });

  it('answers malformed JSON with 500 SERVER_ERROR and leaves the appointment alone', async () => {
    const a = await book(srv, A);
    const res = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${a.appointment_id}/parked`, {
      headers: { ...auth(doctor), 'content-type': 'application/json' }, rawBody: '{oops',
    });
    // decisions.md: malformed JSON on any /dr endpoint is answered in the dr envelope.
    expectDrError(res, 500, 'SERVER_ERROR', 'Malformed JSON request');
    expect((await getAppt(srv, doctor, a.appointment_id)).status).toBe('BK');
  });
});

for (const db of DATABASES) describe(`endpoint 3: POST /dr/v1/appointment/:id/change-status (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  let doctor: string;
  let reception: string;
  beforeAll(async () => {
    srv = await startServer({ database: db });
    A = srv.demo.workspaces[0]!;
    doctor = A.users.doctor.auth_token;
    reception = A.users.reception.auth_token;
  });
  afterAll(async () => srv?.close());

  it('marks a no-show by service id: 200 with {appointment_id, partner_appointment_id, status, previous_status}', async () => {
    const a = await book(srv, A);
    const res = await changeStatus(srv, reception, a.appointment_id, 'NS', '?partner_id=0');
    const data = expectDrOk(res, 200);
    expect(data).toStrictEqual({ appointment_id: a.appointment_id, partner_appointment_id: a.partner_appointment_id, status: 'NS', previous_status: 'BK' });
    const after = await getAppt(srv, doctor, a.appointment_id);
    expect(after.status).toBe('NS');
    expect(after.status_history).toHaveLength(2);
    expect(after.status_history[1]).toStrictEqual({
      from_status: 'BK', to_status: 'NS', changed_at: after.updated_at, actor_type: 'user', actor_id: await userId(srv, A, 'reception'),
      correction: false, overbook: false, token: null,
    });
    expect(after.updated_at).toMatch(ISO_MS_UTC);
  });

  it('with partner_id=1 finds the appointment by partner id and echoes the partner id as appointment_id', async () => {
    const demo = A.appointments[4]!;
    const res = await changeStatus(srv, reception, demo.partner_appointment_id, 'NS', '?partner_id=1');
    expect(expectDrOk(res, 200)).toStrictEqual({
      appointment_id: demo.partner_appointment_id, partner_appointment_id: demo.partner_appointment_id, status: 'NS', previous_status: 'BK',
    });
    expect((await getAppt(srv, doctor, demo.appointment_id)).status).toBe('NS');
  });

  it('treats partner_id values other than 1 as the service id', async () => {
    const a = await book(srv, A);
    for (const q of ['?partner_id=0', '?partner_id=', '?partner_id=2', '?partner_id=true']) {
      expectBareError(await changeStatus(srv, doctor, a.partner_appointment_id, 'CK', q), 404, 'APPOINTMENT_NOT_FOUND');
    }
    expectBareError(await changeStatus(srv, doctor, a.appointment_id, 'CK', '?partner_id=1'), 404, 'APPOINTMENT_NOT_FOUND');
    expect((await getAppt(srv, doctor, a.appointment_id)).status).toBe('BK');
    const res = await changeStatus(srv, doctor, a.appointment_id, 'CK', '?partner_id=7');
    expect(expectDrOk(res, 200)).toStrictEqual({ appointment_id: a.appointment_id, partner_appointment_id: a.partner_appointment_id, status: 'CK', previous_status: 'BK' });
  });

  it('returns partner_appointment_id null for an appointment booked without one', async () => {
    const res = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
      headers: auth(reception), body: { patient_id: A.patients[0]!.patient_id, scheduled_at: '2033-05-05T05:05:00Z' },
    });
    const a = expectDrOk(res, 201);
    expect(expectDrOk(await changeStatus(srv, reception, a.appointment_id, 'CN'), 200)).toStrictEqual({
      appointment_id: a.appointment_id, partner_appointment_id: null, status: 'CN', previous_status: 'BK',
    });
  });

  it('answers 400 INVALID_REQUEST (bare) when partner_id is missing, and changes nothing', async () => {
    const a = await book(srv, A);
    for (const id of [a.appointment_id, a.partner_appointment_id]) {
      const res = await changeStatus(srv, doctor, id, 'NS', '');
      expectBareError(res, 400, 'INVALID_REQUEST');
      expect(res.json.error.message).toContain('partner_id');
    }
    expect(await getAppt(srv, doctor, a.appointment_id)).toStrictEqual(a);
  });

  it.each([
    ['status PK (parking has its own endpoint)', { status: 'PK' }],
    ['status BK', { status: 'BK' }],
    ['lower-case ns', { status: 'ns' }],
    ['an unknown status', { status: 'XX' }],
    ['a number', { status: 5 }],
    ['null', { status: null }],
    ['no status', {}],
    ['status in another field', { state: 'NS' }],
  ])('answers 400 INVALID_REQUEST (bare) for %s, and changes nothing', async (_label, body) => {
    const a = await book(srv, A);
    const res = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${a.appointment_id}/change-status?partner_id=0`, { headers: auth(doctor), body });
    expectBareError(res, 400, 'INVALID_REQUEST');
    expect(await getAppt(srv, doctor, a.appointment_id)).toStrictEqual(a);
  });

  it('answers 400 INVALID_REQUEST for a missing or non-object body', async () => {
    const a = await book(srv, A);
    for (const rawBody of ['', '[]', '"NS"']) {
      const res = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${a.appointment_id}/change-status?partner_id=0`, {
        headers: { ...auth(doctor), 'content-type': 'application/json' }, rawBody,
      });
      expectBareError(res, 400, 'INVALID_REQUEST');
    }
    expect(await getAppt(srv, doctor, a.appointment_id)).toStrictEqual(a);
  });

  it('answers malformed JSON with 500 SERVER_ERROR "Malformed JSON request" and the request id, and changes nothing', async () => {
    const a = await book(srv, A);
    for (const rawBody of ['{"status": "NS"', '{status: NS}', "{'status':'NS'}"]) {
      const res = await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${a.appointment_id}/change-status?partner_id=0`, {
        headers: { ...auth(doctor), 'content-type': 'application/json' }, rawBody,
      });
      expectDrError(res, 500, 'SERVER_ERROR', 'Malformed JSON request');
      expect(res.json.error.request_id).toBe(res.headers.get('x-request-id'));
      expect(res.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
    }
    expect(await getAppt(srv, doctor, a.appointment_id)).toStrictEqual(a);
  });

  it('setting the current status again is an idempotent 200 that records nothing', async () => {
    const a = await book(srv, A);
    expect(expectDrOk(await changeStatus(srv, doctor, a.appointment_id, 'NS'), 200).previous_status).toBe('BK');
    const once = await getAppt(srv, doctor, a.appointment_id);
    await sleep(5);
    for (const [id, q] of [[a.appointment_id, '?partner_id=0'], [a.partner_appointment_id, '?partner_id=1']] as const) {
      const res = await changeStatus(srv, reception, id, 'NS', q);
      expect(expectDrOk(res, 200)).toStrictEqual({
        appointment_id: id, partner_appointment_id: a.partner_appointment_id, status: 'NS', previous_status: 'NS',
      });
    }
    expect(await getAppt(srv, doctor, a.appointment_id)).toStrictEqual(once);
  });

  it('reception may not set OG or CM (403 COMPLETE_NOT_ALLOWED), while doctor and admin may', async () => {
    const a = await book(srv, A);
    const b = await book(srv, A);
    expect(expectDrOk(await changeStatus(srv, reception, a.appointment_id, 'CK'), 200).status).toBe('CK');
    expect(expectDrOk(await changeStatus(srv, reception, b.appointment_id, 'CK'), 200).status).toBe('CK');
    const checkedIn = await getAppt(srv, doctor, a.appointment_id);
    for (const status of ['OG', 'CM'] as const) {
      for (const [id, q] of [[a.appointment_id, '?partner_id=0'], [a.partner_appointment_id, '?partner_id=1']] as const) {
        expectBareError(await changeStatus(srv, reception, id, status, q), 403, 'COMPLETE_NOT_ALLOWED');
        expectBareError(await changeStatus(srv, reception, id, status, q, bearer(reception)), 403, 'COMPLETE_NOT_ALLOWED');
      }
    }
    expect(await getAppt(srv, doctor, a.appointment_id)).toStrictEqual(checkedIn);
    // The doctor starts and completes a's consultation; the admin does b's.
    expect(expectDrOk(await changeStatus(srv, doctor, a.appointment_id, 'OG'), 200)).toMatchObject({ status: 'OG', previous_status: 'CK' });
    expect(expectDrOk(await changeStatus(srv, doctor, a.appointment_id, 'CM'), 200)).toMatchObject({ status: 'CM', previous_status: 'OG' });
    expect(expectDrOk(await changeStatus(srv, A.users.admin.auth_token, b.appointment_id, 'CM'), 200)).toMatchObject({ status: 'CM', previous_status: 'CK' });
    // Reception may not even repeat a completed appointment's status.
    expectBareError(await changeStatus(srv, reception, a.appointment_id, 'CM'), 403, 'COMPLETE_NOT_ALLOWED');
    const history = (await getAppt(srv, doctor, a.appointment_id)).status_history;
    expect(history.map((h: any) => [h.from_status, h.to_status, h.actor_id])).toEqual([
      [null, 'BK', await userId(srv, A, 'reception')],
      ['BK', 'CK', await userId(srv, A, 'reception')],
      ['CK', 'OG', await userId(srv, A, 'doctor')],
      ['OG', 'CM', await userId(srv, A, 'doctor')],
    ]);
  });

  it('reception may set NS, CK and CN', async () => {
    for (const status of ['NS', 'CK', 'CN'] as const) {
      const a = await book(srv, A);
      expect(expectDrOk(await changeStatus(srv, reception, a.appointment_id, status), 200)).toMatchObject({ status, previous_status: 'BK' });
    }
  });

  it('reception may check a parked or no-show patient in again (the front desk\'s undo of CK → PK and CK → NS)', async () => {
    const a = await book(srv, A);
    expect(expectDrOk(await changeStatus(srv, reception, a.appointment_id, 'CK'), 200).status).toBe('CK');
    expectParked(await park(srv, reception, a.appointment_id));
    expect(expectDrOk(await changeStatus(srv, reception, a.appointment_id, 'CK'), 200)).toMatchObject({ status: 'CK', previous_status: 'PK' });
    expect(expectDrOk(await changeStatus(srv, reception, a.appointment_id, 'NS'), 200)).toMatchObject({ status: 'NS', previous_status: 'CK' });
    expect(expectDrOk(await changeStatus(srv, reception, a.appointment_id, 'CK'), 200)).toMatchObject({ status: 'CK', previous_status: 'NS' });
    const history = (await getAppt(srv, doctor, a.appointment_id)).status_history;
    expect(history.map((h: any) => [h.from_status, h.to_status])).toEqual([[null, 'BK'], ['BK', 'CK'], ['CK', 'PK'], ['PK', 'CK'], ['CK', 'NS'], ['NS', 'CK']]);
  });

  it('records every change of a day\'s journey in status_history, in order, with actor, from and to', async () => {
    const a = await book(srv, A);
    await changeStatus(srv, reception, a.appointment_id, 'CK');
    await sleep(2);
    await changeStatus(srv, doctor, a.partner_appointment_id, 'OG', '?partner_id=1');
    await sleep(2);
    expectParked(await park(srv, doctor, a.appointment_id));
    await sleep(2);
    await changeStatus(srv, A.users.admin.auth_token, a.appointment_id, 'OG');
    await sleep(2);
    await changeStatus(srv, doctor, a.appointment_id, 'CM', '?partner_id=0', bearer(doctor));
    const after = await getAppt(srv, reception, a.appointment_id);
    expect(after.status).toBe('CM');
    const ids = { reception: await userId(srv, A, 'reception'), doctor: await userId(srv, A, 'doctor'), admin: await userId(srv, A, 'admin') };
    expect(after.status_history.map((h: any) => ({ from: h.from_status, to: h.to_status, actor: h.actor_id, type: h.actor_type }))).toEqual([
      { from: null, to: 'BK', actor: ids.reception, type: 'user' },
      { from: 'BK', to: 'CK', actor: ids.reception, type: 'user' },
      { from: 'CK', to: 'OG', actor: ids.doctor, type: 'user' },
      { from: 'OG', to: 'PK', actor: ids.doctor, type: 'user' },
      { from: 'PK', to: 'OG', actor: ids.admin, type: 'user' },
      { from: 'OG', to: 'CM', actor: ids.doctor, type: 'user' },
    ]);
    const times = after.status_history.map((h: any) => h.changed_at);
    for (const t of times) expect(t).toMatch(ISO_MS_UTC);
    expect([...times].sort()).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
    expect(after.updated_at).toBe(times.at(-1));
    for (const h of after.status_history) {
      expect(Object.keys(h).sort()).toEqual(['actor_id', 'actor_type', 'changed_at', 'correction', 'from_status', 'overbook', 'to_status', 'token']);
    }
    // The check-in gave the token; the later moves (back into OG included) keep it and give none.
    expect(after.status_history.map((h: any) => h.token)).toEqual([null, 1, null, null, null, null]);
    expect(after.token).toBe(1);
  });

  it('answers 404 APPOINTMENT_NOT_FOUND (bare) for an unknown id', async () => {
    expectBareError(await changeStatus(srv, doctor, 'no-such-appointment', 'NS', '?partner_id=0'), 404, 'APPOINTMENT_NOT_FOUND');
    expectBareError(await changeStatus(srv, doctor, 'no-such-appointment', 'NS', '?partner_id=1'), 404, 'APPOINTMENT_NOT_FOUND');
  });
});

for (const db of DATABASES) describe(`the appointment state machine, every source and target (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  beforeAll(async () => {
    srv = await startServer({ database: db });
    A = srv.demo.workspaces[0]!;
  });
  afterAll(async () => srv?.close());

  const FROM: Status[] = ['BK', 'CK', 'OG', 'PK', 'CM', 'CN', 'NS'];
  const TO: Exclude<Status, 'BK'>[] = ['PK', 'NS', 'CK', 'OG', 'CM', 'CN'];
  const cases = FROM.flatMap((from) => TO.map((to) => {
    const outcome = from === to ? 'no-op' : ALLOWED_FROM[to].includes(from) ? 'allowed' : 'refused';
    return { from, to, outcome, label: `${from} -> ${to}: ${outcome}` };
  }));

  it('decisions.md: parked from BK, CK, OG; no-show from BK, CK, PK', () => {
    expect(cases.filter((c) => c.to === 'PK' && c.outcome === 'allowed').map((c) => c.from)).toEqual(['BK', 'CK', 'OG']);
    expect(cases.filter((c) => c.to === 'NS' && c.outcome === 'allowed').map((c) => c.from)).toEqual(['BK', 'CK', 'PK']);
  });

  it.each(cases)('$label', async ({ from, to, outcome }) => {
    const doctor = A.users.doctor.auth_token;
    const a = await book(srv, A);
    for (const step of PATH_TO[from]) await drive(srv, doctor, a.appointment_id, step);
    const before = await getAppt(srv, doctor, a.appointment_id);
    expect(before.status).toBe(from);

    const res = to === 'PK' ? await park(srv, doctor, a.appointment_id) : await changeStatus(srv, doctor, a.appointment_id, to);
    const after = await getAppt(srv, doctor, a.appointment_id);

    if (outcome === 'refused') {
      expectBareError(res, 400, 'INVALID_REQUEST');
      expect(res.json.error.message).toContain(from); // names the state that blocks the move
      expect(after).toStrictEqual(before);
      return;
    }
    if (to === 'PK') expectParked(res);
    else {
      expect(expectDrOk(res, 200)).toStrictEqual({
        appointment_id: a.appointment_id, partner_appointment_id: a.partner_appointment_id, status: to, previous_status: from,
      });
    }
    if (outcome === 'no-op') {
      expect(after).toStrictEqual(before);
      return;
    }
    expect(after.status).toBe(to);
    expect(after.status_history).toHaveLength(before.status_history.length + 1);
    // The first move into CK or OG gives the token (the day's first: each booked day holds one appointment); later moves keep it.
    const givesToken = before.token === null && (to === 'CK' || to === 'OG');
    expect(after.token).toBe(givesToken ? 1 : before.token);
    expect(after.status_history.at(-1)).toStrictEqual({
      from_status: from, to_status: to, changed_at: after.updated_at, actor_type: 'user', actor_id: await userId(srv, A, 'doctor'),
      correction: false, overbook: false, token: givesToken ? 1 : null,
    });
  });
});

for (const db of DATABASES) describe(`authentication and permissions on parked and change-status (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  beforeAll(async () => {
    srv = await startServer({ database: db });
    A = srv.demo.workspaces[0]!;
  });
  afterAll(async () => srv?.close());

  const invalidHeaders: [string, Record<string, string>][] = [
    ['no token', {}],
    ['an empty auth header', { auth: '' }],
    ['a bad auth header', { auth: 'cdt_not_a_token' }],
    ['a bad bearer token', { authorization: 'Bearer cdt_not_a_token' }],
    ['a bearer scheme without a token', { authorization: 'Bearer ' }],
    ['an over-long token', { auth: 'y'.repeat(1000) }],
  ];

  it.each(invalidHeaders)('answers 401 UNAUTHORIZED_ACCESS in the dr envelope for %s, and changes nothing', async (_label, headers) => {
    const a = await book(srv, A);
    expectDrError(await park(srv, '', a.appointment_id, '', headers), 401, 'UNAUTHORIZED_ACCESS');
    expectDrError(await changeStatus(srv, '', a.appointment_id, 'NS', '?partner_id=0', headers), 401, 'UNAUTHORIZED_ACCESS');
    expectDrError(await changeStatus(srv, '', a.partner_appointment_id, 'NS', '?partner_id=1', headers), 401, 'UNAUTHORIZED_ACCESS');
    // 401 comes before input checks.
    expectDrError(await changeStatus(srv, '', a.appointment_id, 'NS', '', headers), 401, 'UNAUTHORIZED_ACCESS');
    expect(await getAppt(srv, A.users.doctor.auth_token, a.appointment_id)).toStrictEqual(a);
  });

  it('accepts the token in the auth header or as Authorization: Bearer', async () => {
    const a = await book(srv, A);
    const b = await book(srv, A);
    const token = A.users.reception.auth_token;
    expectParked(await park(srv, token, a.appointment_id, '', bearer(token)));
    expect(expectDrOk(await changeStatus(srv, token, b.appointment_id, 'NS', '?partner_id=0', bearer(token)), 200).status).toBe('NS');
    expect(expectDrOk(await changeStatus(srv, token, a.appointment_id, 'NS', '?partner_id=0', auth(token)), 200).previous_status).toBe('PK');
  });

  it('refuses a revoked token with 401 in both header forms', async () => {
    const a = await book(srv, A);
    const token = await srv.service.auth.issueAuthToken(await userId(srv, A, 'doctor'), 'soon-revoked');
    expect(expectDrOk(await changeStatus(srv, token, a.appointment_id, 'CK'), 200).status).toBe('CK');
    await srv.service.auth.revokeAuthToken(token);
    for (const headers of [auth(token), bearer(token)]) {
      expectDrError(await park(srv, token, a.appointment_id, '', headers), 401, 'UNAUTHORIZED_ACCESS');
      expectDrError(await changeStatus(srv, token, a.appointment_id, 'OG', '?partner_id=0', headers), 401, 'UNAUTHORIZED_ACCESS');
      expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${a.appointment_id}`, { headers }), 401, 'UNAUTHORIZED_ACCESS');
    }
    expect((await getAppt(srv, A.users.doctor.auth_token, a.appointment_id)).status).toBe('CK');
  });

  it('answers 403 COMPLETE_NOT_ALLOWED (bare) to a token narrowed to appointments:read, which may still read', async () => {
    const a = await book(srv, A);
    const token = await srv.service.auth.issueAuthToken(await userId(srv, A, 'doctor'), 'read-only', ['appointments:read']);
    for (const headers of [auth(token), bearer(token)]) {
      expectBareError(await park(srv, token, a.appointment_id, '', headers), 403, 'COMPLETE_NOT_ALLOWED');
      expectBareError(await park(srv, token, a.partner_appointment_id, '?partner_id=1', headers), 403, 'COMPLETE_NOT_ALLOWED');
      expectBareError(await changeStatus(srv, token, a.appointment_id, 'NS', '?partner_id=0', headers), 403, 'COMPLETE_NOT_ALLOWED');
      expectBareError(await changeStatus(srv, token, a.partner_appointment_id, 'CM', '?partner_id=1', headers), 403, 'COMPLETE_NOT_ALLOWED');
    }
    expect(await getAppt(srv, token, a.appointment_id)).toStrictEqual(a);
    // And the same token gets 403 UNAUTHORIZED_ACCESS on patient search (the patients route family's code).
    const search = await call(srv.baseUrl, 'GET', '/dr/v1/business/patients/search?mobile=9876543210', { headers: auth(token) });
    expectDrError(search, 403, 'UNAUTHORIZED_ACCESS');
  });
});

for (const db of DATABASES) describe(`workspace isolation for appointments (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  let B: DemoWorkspace;
  beforeAll(async () => {
    srv = await startServer({ database: db });
    [A, B] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
  });
  afterAll(async () => srv?.close());

  async function expectInvisible(owner: DemoWorkspace, other: DemoWorkspace, appt: { appointment_id: string; partner_appointment_id: string }) {
    const before = await getAppt(srv, owner.users.admin.auth_token, appt.appointment_id);
    for (const role of ['admin', 'doctor', 'reception'] as const) {
      const t = other.users[role].auth_token;
      for (const [id, q] of [[appt.appointment_id, ''], [appt.appointment_id, '?partner_id=0'], [appt.partner_appointment_id, '?partner_id=1']] as const) {
        expectBareError(await park(srv, t, id, q), 404, 'APPOINTMENT_NOT_FOUND');
        expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${id}${q}`, { headers: auth(t) }), 404, 'APPOINTMENT_NOT_FOUND');
      }
      for (const status of ['NS', 'CK', 'CN', 'OG', 'CM']) {
        for (const [id, q] of [[appt.appointment_id, '?partner_id=0'], [appt.partner_appointment_id, '?partner_id=1']] as const) {
          // Even the reception role, which may not set OG or CM, learns nothing: not found, never "not allowed".
          expectBareError(await changeStatus(srv, t, id, status, q), 404, 'APPOINTMENT_NOT_FOUND');
        }
      }
    }
    expect(await getAppt(srv, owner.users.admin.auth_token, appt.appointment_id)).toStrictEqual(before);
    const list = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/appointments?date=${before.date}`, { headers: auth(other.users.admin.auth_token) }), 200);
    expect(list.appointments.map((x: any) => x.appointment_id)).not.toContain(appt.appointment_id);
  }

  it('workspace B cannot see or change A\'s appointments, by service id or partner id', async () => {
    await expectInvisible(A, B, A.appointments[0]!);
    const fresh = await book(srv, A);
    await expectInvisible(A, B, fresh);
  });

  it('workspace A cannot see or change B\'s appointments either', async () => {
    await expectInvisible(B, A, B.appointments[0]!);
  });

  it('with the same partner id in both clinics, each clinic changes only its own', async () => {
    const shared = freshPartnerId('SHARED');
    const a = await book(srv, A, { partner_appointment_id: shared, scheduled_at: '2034-02-02T05:00:00Z' });
    const b = await book(srv, B, { partner_appointment_id: shared, scheduled_at: '2034-02-02T05:00:00Z' });
    expectParked(await park(srv, B.users.doctor.auth_token, shared, '?partner_id=1'));
    expect((await getAppt(srv, B.users.doctor.auth_token, b.appointment_id)).status).toBe('PK');
    expect(await getAppt(srv, A.users.doctor.auth_token, a.appointment_id)).toStrictEqual(a);
    const res = await changeStatus(srv, A.users.reception.auth_token, shared, 'NS', '?partner_id=1');
    expect(expectDrOk(res, 200)).toStrictEqual({ appointment_id: shared, partner_appointment_id: shared, status: 'NS', previous_status: 'BK' });
    expect((await getAppt(srv, A.users.doctor.auth_token, a.appointment_id)).status).toBe('NS');
    expect((await getAppt(srv, B.users.doctor.auth_token, b.appointment_id)).status).toBe('PK');
  });
});

for (const db of DATABASES) describe(`a disabled workspace (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer({ database: db });
  });
  afterAll(async () => srv?.close());

  it('answers 403 UNAUTHORIZED_ACCESS to its users on every appointment endpoint, and the other workspace carries on', async () => {
    const [A, B] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
    const demo = A.appointments[0]!;
    expect(await srv.service.auth.disableWorkspace(A.workspace_id)).toBe(true);
    for (const role of ['admin', 'doctor', 'reception'] as const) {
      const t = A.users[role].auth_token;
      for (const headers of [auth(t), bearer(t)]) {
        expectBareError(await park(srv, t, demo.appointment_id, '', headers), 403, 'UNAUTHORIZED_ACCESS');
        expectBareError(await changeStatus(srv, t, demo.partner_appointment_id, 'NS', '?partner_id=1', headers), 403, 'UNAUTHORIZED_ACCESS');
        expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/appointment/${demo.appointment_id}`, { headers }), 403, 'UNAUTHORIZED_ACCESS');
        expectDrError(await call(srv.baseUrl, 'GET', '/dr/v1/appointments', { headers }), 403, 'UNAUTHORIZED_ACCESS');
        expectDrError(await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
          headers, body: { patient_id: A.patients[0]!.patient_id, scheduled_at: '2034-01-01T05:00:00Z' },
        }), 403, 'UNAUTHORIZED_ACCESS');
        expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${A.patients[0]!.mobile}`, { headers }), 403, 'UNAUTHORIZED_ACCESS');
      }
    }
    const status = (await rowOf<{ status: string }>(srv.service, sql`SELECT status FROM appointments WHERE id = ${demo.appointment_id}`))!;
    expect(status.status).toBe('BK');
    expectParked(await park(srv, B.users.doctor.auth_token, B.appointments[0]!.appointment_id));
  });
});

for (const db of DATABASES) describe(`errors, request ids and the audit trail (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  beforeAll(async () => {
    srv = await startServer({ database: db });
    A = srv.demo.workspaces[0]!;
  });
  afterAll(async () => srv?.close());

  it('answers unknown /dr paths with 500 SERVER_ERROR "Wrong API URL" in the dr envelope', async () => {
    const id = A.appointments[0]!.appointment_id;
    const token = A.users.doctor.auth_token;
    for (const [method, path, headers] of [
      ['POST', `/dr/v1/appointment/${id}/park`, auth(token)],
      ['POST', `/dr/v1/appointment/${id}/parked/now`, auth(token)],
      ['GET', `/dr/v1/appointment/${id}/parked`, auth(token)],
      ['PUT', `/dr/v1/appointment/${id}/change-status?partner_id=0`, auth(token)],
      ['POST', `/dr/v1/appointments/${id}/change-status?partner_id=0`, {}],
      ['POST', `/dr/v2/appointment/${id}/parked`, {}],
      ['DELETE', `/dr/v1/appointment/${id}`, auth(token)],
    ] as const) {
      const res = await call(srv.baseUrl, method, path, { headers });
      expectDrError(res, 500, 'SERVER_ERROR', 'Wrong API URL');
      expect(res.json.error.request_id).toBe(res.headers.get('x-request-id'));
    }
    expect((await getAppt(srv, token, id)).status).toBe('BK');
  });

  it('puts a distinct x-request-id on every response: 204, 200, 201, 400, 401, 403, 404, 500', async () => {
    const doctor = A.users.doctor.auth_token;
    const a = await book(srv, A);
    const narrowed = await srv.service.auth.issueAuthToken(await userId(srv, A, 'reception'), 'narrow', ['appointments:read']);
    const responses = [
      await park(srv, doctor, a.appointment_id),
      await changeStatus(srv, doctor, a.appointment_id, 'NS'),
      await call(srv.baseUrl, 'POST', '/dr/v1/appointment', { headers: auth(doctor), body: { patient_id: A.patients[0]!.patient_id, scheduled_at: '2035-01-01T05:00:00Z' } }),
      await changeStatus(srv, doctor, a.appointment_id, 'NS', ''),
      await park(srv, '', a.appointment_id, '', {}),
      await park(srv, narrowed, a.appointment_id),
      await park(srv, doctor, 'missing'),
      await call(srv.baseUrl, 'POST', `/dr/v1/appointment/${a.appointment_id}/change-status?partner_id=0`, {
        headers: { ...auth(doctor), 'content-type': 'application/json' }, rawBody: '{',
      }),
    ];
    expect(responses.map((r) => r.status)).toEqual([204, 200, 201, 400, 401, 403, 404, 500]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    const mine = await park(srv, doctor, a.appointment_id, '', { ...auth(doctor), 'x-request-id': 'emr-call:77' });
    expect(mine.headers.get('x-request-id')).toBe('emr-call:77');
  });

  it('audits a park (success, refused, not found, denied) with the right action and outcome, and no mobiles or names', async () => {
    const doctor = A.users.doctor.auth_token;
    const a = await book(srv, A);
    const ok = await park(srv, doctor, a.appointment_id);
    expectParked(ok);
    const okRows = await auditRowsOf(srv, ok.headers.get('x-request-id')!);
    expect(okRows).toHaveLength(1);
    expect(okRows[0]).toMatchObject({
      workspace_id: A.workspace_id, actor_type: 'user', actor_id: await userId(srv, A, 'doctor'), action: 'appointment.park',
      resource_type: 'appointment', outcome: 'success', ip: '127.0.0.1',
    });
    expect(JSON.parse(okRows[0].resource_ids)).toEqual([a.appointment_id]);
    expect(okRows[0].at).toMatch(ISO_MS_UTC);

    // A change-status is audited under its own action, also when addressed by partner id.
    const cs = await changeStatus(srv, doctor, a.partner_appointment_id, 'OG', '?partner_id=1');
    expect(cs.status).toBe(200);
    const csRows = await auditRowsOf(srv, cs.headers.get('x-request-id')!);
    expect(csRows).toHaveLength(1);
    expect(csRows[0]).toMatchObject({ action: 'appointment.change_status', outcome: 'success' });
    expect(JSON.parse(csRows[0].resource_ids)).toEqual([a.appointment_id]);

    const b = await book(srv, A);
    await changeStatus(srv, doctor, b.appointment_id, 'CN');
    const refused = await park(srv, doctor, b.appointment_id);
    expect(refused.status).toBe(400);
    const refusedRows = await auditRowsOf(srv, refused.headers.get('x-request-id')!);
    expect(refusedRows).toHaveLength(1);
    expect(refusedRows[0]).toMatchObject({ action: 'appointment.park', outcome: 'invalid', actor_id: await userId(srv, A, 'doctor') });
    expect(JSON.parse(refusedRows[0].resource_ids)).toEqual([b.appointment_id]);

    const missing = await park(srv, doctor, 'no-such-appointment');
    expect(missing.status).toBe(404);
    const missingRows = await auditRowsOf(srv, missing.headers.get('x-request-id')!);
    expect(missingRows).toHaveLength(1);
    expect(missingRows[0]).toMatchObject({ action: 'appointment.park', outcome: 'not_found' });

    const narrowed = await srv.service.auth.issueAuthToken(await userId(srv, A, 'reception'), 'narrow', ['appointments:read']);
    const denied = await park(srv, narrowed, a.appointment_id);
    expect(denied.status).toBe(403);
    const deniedRows = await auditRowsOf(srv, denied.headers.get('x-request-id')!);
    expect(deniedRows).toHaveLength(1);
    expect(deniedRows[0]).toMatchObject({ outcome: 'denied', actor_id: await userId(srv, A, 'reception'), workspace_id: A.workspace_id });

    // A search too, so the log holds patient ids next to appointment ids.
    const search = await call(srv.baseUrl, 'GET', '/dr/v1/business/patients/search?mobile=9876543210', { headers: auth(doctor) });
    expect(search.status).toBe(200);
    const searchRows = await auditRowsOf(srv, search.headers.get('x-request-id')!);
    expect(searchRows).toMatchObject([{ action: 'patient.search', outcome: 'success' }]);

    const all = JSON.stringify(await rowsOf(srv.service, sql`SELECT * FROM audit_log`));
    const patients = await rowsOf(srv.service, sql`SELECT first_name, middle_name, last_name, mobile_national FROM patients`);
    for (const p of patients) {
      expect(all).not.toContain(p.mobile_national);
      for (const name of [p.first_name, p.middle_name, p.last_name]) if (name) expect(all.toLowerCase()).not.toContain(name.toLowerCase());
    }
  });
});
