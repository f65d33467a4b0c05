import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { DATABASES } from '../helpers/postgres.js';
import { call, type RunningServer, startServer } from '../helpers/server.js';
import { rowsOf } from '../helpers/service.js';
import { skipFor } from '../helpers/skip.js';
import { ISO_MS_UTC, type Res, auth, bearer, expectDrError, expectDrOk, sleep } from '../helpers/dr.js';

const SEARCH = '/dr/v1/business/patients/search';

/**
 * The search result list. The interface states two shapes (data.profiles with gender, or data.patients with gen);
 * the implementation follows the first and these tests tolerate the second.
 */
function profilesOf(res: Res): any[] {
  const data = expectDrOk(res, 200);
  expect(Object.keys(data)).toHaveLength(1);
  const list = data.profiles ?? data.patients;
  expect(Array.isArray(list)).toBe(true);
  return list;
}
const genderOf = (profile: any) => profile.gender ?? profile.gen;

/** Checks one patient profile entry's shape and formats. */
function expectEntryShape(entry: any) {
  for (const key of ['name', 'patient_id', 'patient_profile']) expect(entry).toHaveProperty(key);
  const p = entry.patient_profile;
  for (const key of ['patient_id', 'first_name', 'middle_name', 'last_name', 'dob', 'mobile', 'created_at']) {
    expect(typeof p[key], key).toBe('string');
  }
  expect(p.patient_id).toBe(entry.patient_id);
  expect(['M', 'F', 'O']).toContain(genderOf(p));
  expect(p.dob).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(p.mobile).toMatch(/^\+[1-9]\d{6,14}$/);
  expect(p.created_at).toMatch(ISO_MS_UTC);
  expect(new Date(p.created_at).toISOString()).toBe(p.created_at);
  expect(entry.name).toBe([p.first_name, p.middle_name, p.last_name].filter((s: string) => s !== '').join(' '));
  expect(entry.name).not.toMatch(/^\s|\s$|\s{2}/);
}

let mobileSeq = 0;
/** A 10-digit Indian mobile not used by the demo clinics (they use 98765… and 91234…). */
const freshMobile = () => `70${String(process.pid % 1000).padStart(3, '0')}${String(++mobileSeq).padStart(5, '0')}`;

let nameSeq = 0;
const freshName = (base: string) => `${base}${String.fromCharCode(97 + (nameSeq % 26))}${String.fromCharCode(97 + (Math.floor(nameSeq++ / 26) % 26))}`;

interface NewPatient { first_name: string; middle_name?: string; last_name: string; dob: string; gender: string; mobile: string; email?: string }

async function createPatient(srv: RunningServer, token: string, body: Partial<NewPatient> = {}) {
  const full: NewPatient = {
    first_name: freshName('Test'), last_name: freshName('Patient'), dob: '1990-05-17', gender: 'F', mobile: freshMobile(), ...body,
  };
  const res = await call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers: auth(token), body: full });
  const data = expectDrOk(res, 201);
  return data as any;
}

const userId = async (srv: RunningServer, ws: DemoWorkspace, role: 'admin' | 'doctor' | 'reception') =>
  (await srv.service.auth.users(ws.workspace_id)).find((u) => u.role === role)!.id;

/** Audit rows of one request: read entries are queued and written in batches, so the log is flushed first. */
async function auditRowsOf(srv: RunningServer, requestId: string): Promise<any[]> {
  await srv.service.audit.flush();
  return rowsOf(srv.service, sql`SELECT * FROM audit_log WHERE request_id = ${requestId} ORDER BY id`);
}

// ---------------------------------------------------------------------------------------------------------------

for (const db of DATABASES) describe(`endpoint 1: GET /dr/v1/business/patients/search (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  let B: DemoWorkspace;
  beforeAll(async () => {
    srv = await startServer({ database: db });
    A = srv.demo.workspaces[0]!;
    B = srv.demo.workspaces[1]!;
  });
  afterAll(async () => srv?.close());

  it('returns the exact profile entry for a registered patient', async () => {
    const created = await createPatient(srv, A.users.reception.auth_token, {
      first_name: 'Meera', middle_name: 'Devi', last_name: 'Nair', dob: '1972-02-29', gender: 'F', mobile: '+91 70111 22334',
      email: 'meera@example.com',
    });
    const res = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=7011122334`, { headers: auth(A.users.reception.auth_token) });
    const list = profilesOf(res);
    expect(list).toHaveLength(1);
    const entry = list[0];
    expectEntryShape(entry);
    expect(entry.name).toBe('Meera Devi Nair');
    expect(entry.patient_id).toBe(created.patient_id);
    expect(entry.patient_profile).toMatchObject({
      patient_id: created.patient_id,
      first_name: 'Meera',
      middle_name: 'Devi',
      last_name: 'Nair',
      dob: '1972-02-29',
      mobile: '+917011122334',
      created_at: created.patient_profile.created_at,
    });
    expect(genderOf(entry.patient_profile)).toBe('F');
    expect(res.json.status_code).toBe(200);
  });

  it('returns the demo family sharing a mobile with the documented profile fields', async () => {
    const res = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers: auth(A.users.doctor.auth_token) });
    const list = profilesOf(res);
    expect(list.map((e) => e.name).sort()).toEqual(['Priya Sharma', 'Rahul Kumar Sharma']);
    for (const e of list) {
      expectEntryShape(e);
      expect(e.patient_profile.mobile).toBe('+919876543210');
    }
    const rahul = list.find((e) => e.name === 'Rahul Kumar Sharma');
    expect(rahul.patient_profile).toMatchObject({ first_name: 'Rahul', middle_name: 'Kumar', last_name: 'Sharma', dob: '1985-11-02' });
    expect(genderOf(rahul.patient_profile)).toBe('M');
    const priya = list.find((e) => e.name === 'Priya Sharma');
    expect(priya.patient_profile.middle_name).toBe('');
  });

  it('joins name parts with single spaces, dropping an empty middle name and trimming parts', async () => {
    const mobile = freshMobile();
    await createPatient(srv, A.users.reception.auth_token, { first_name: '  Asha ', middle_name: '   ', last_name: ' Rao  ', mobile, gender: 'O' });
    const list = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(A.users.reception.auth_token) }));
    expect(list).toHaveLength(1);
    expectEntryShape(list[0]);
    expect(list[0].name).toBe('Asha Rao');
    expect(list[0].patient_profile).toMatchObject({ first_name: 'Asha', middle_name: '', last_name: 'Rao' });
    expect(genderOf(list[0].patient_profile)).toBe('O');
  });

  it('returns every family member sharing a mobile, newest first', async () => {
    const mobile = freshMobile();
    const ids: string[] = [];
    for (const [first_name, dob, gender] of [['Arun', '1970-01-01', 'M'], ['Lata', '1972-06-30', 'F'], ['Dev', '2001-12-24', 'M'], ['Isha', '2005-03-03', 'F']] as const) {
      ids.push((await createPatient(srv, A.users.reception.auth_token, { first_name, last_name: 'Menon', dob, gender, mobile })).patient_id);
      await sleep(3); // distinct created_at
    }
    const list = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(A.users.reception.auth_token) }));
    expect(list.map((e) => e.patient_id)).toEqual([...ids].reverse());
    expect(list.map((e) => e.name)).toEqual(['Isha Menon', 'Dev Menon', 'Lata Menon', 'Arun Menon']);
    const times = list.map((e) => e.patient_profile.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    for (const e of list) expectEntryShape(e);
  });

  it('stores and returns mobiles in international form whatever form they were typed in', async () => {
    const token = A.users.reception.auth_token;
    const forms = ['+91 70222 00001', '070222 00002', '70222-00003', '+91 (70222) 00004', '7022200005'];
    for (const [i, mobile] of forms.entries()) {
      const created = await createPatient(srv, token, { mobile });
      expect(created.patient_profile.mobile).toBe(`+91702220000${i + 1}`);
      const list = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=702220000${i + 1}`, { headers: auth(token) }));
      expect(list.map((e) => e.patient_id)).toEqual([created.patient_id]);
      expect(list[0].patient_profile.mobile).toBe(`+91702220000${i + 1}`);
    }
    // A foreign number keeps its own country code and is found by its 10-digit national number.
    const uk = await createPatient(srv, token, { mobile: '+44 7911 123456' });
    expect(uk.patient_profile.mobile).toBe('+447911123456');
    const list = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=7911123456`, { headers: auth(token) }));
    expect(list.map((e) => e.patient_profile.mobile)).toEqual(['+447911123456']);
  });

  it('answers 404 PATIENTS_NOT_FOUND, without data, when nobody has the mobile', async () => {
    const res = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=7999999999`, { headers: auth(A.users.reception.auth_token) });
    expectDrError(res, 404, 'PATIENTS_NOT_FOUND');
    expect(res.json).not.toHaveProperty('data');
  });

  it('does not match partial numbers or prefixes of a registered mobile', async () => {
    // 98765 43210 is registered; none of these are its 10 digits.
    for (const mobile of ['9876543211', '0987654321', '8765432100']) {
      expectDrError(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(A.users.reception.auth_token) }), 404, 'PATIENTS_NOT_FOUND');
    }
  });

  it.each([
    ['9 digits', '?mobile=987654321'],
    ['11 digits', '?mobile=98765432101'],
    ['letters', '?mobile=98765abcde'],
    ['all letters', '?mobile=abcdefghij'],
    ['empty', '?mobile='],
    ['missing', ''],
    ['other parameter only', '?phone=9876543210'],
    ['with country code', '?mobile=%2B919876543210'],
    ['with a space', '?mobile=98765%2043210'],
    ['with a hyphen', '?mobile=98765-43210'],
    ['12 digits with 91', '?mobile=919876543210'],
    ['10 digits and a newline', '?mobile=9876543210%0A'],
  ])('answers 400 INVALID_REQUEST for a mobile that is not exactly 10 digits (%s)', async (_label, query) => {
    const res = await call(srv.baseUrl, 'GET', `${SEARCH}${query}`, { headers: auth(A.users.reception.auth_token) });
    expectDrError(res, 400, 'INVALID_REQUEST');
  });

  describe('401 UNAUTHORIZED_ACCESS in the dr envelope', () => {
    it.each([
      ['no token at all', {}],
      ['an empty auth header', { auth: '' }],
      ['a bad auth header', { auth: 'not-a-real-token' }],
      ['a bad bearer token', { authorization: 'Bearer not-a-real-token' }],
      ['a non-bearer Authorization scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['an over-long token', { auth: 'x'.repeat(600) }],
    ])('with %s', async (_label, headers: Record<string, string>) => {
      const res = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers });
      expectDrError(res, 401, 'UNAUTHORIZED_ACCESS');
    });

    it('accepts the token in the auth header and as Authorization: Bearer', async () => {
      for (const headers of [auth(A.users.reception.auth_token), bearer(A.users.reception.auth_token)]) {
        const list = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers }));
        expect(list).toHaveLength(2);
      }
    });

    it('refuses a revoked token, in both header forms, and only that token', async () => {
      const token = await srv.service.auth.issueAuthToken(await userId(srv, A, 'reception'), 'to-revoke');
      expect(profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers: auth(token) }))).toHaveLength(2);
      expect(await srv.service.auth.revokeAuthToken(token)).toBe(true);
      expectDrError(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers: auth(token) }), 401, 'UNAUTHORIZED_ACCESS');
      expectDrError(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers: bearer(token) }), 401, 'UNAUTHORIZED_ACCESS');
      // The user's other token still works.
      expect(profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers: auth(A.users.reception.auth_token) }))).toHaveLength(2);
    });

    it('checks the token before validating the query', async () => {
      expectDrError(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=12`, { headers: { auth: 'bogus' } }), 401, 'UNAUTHORIZED_ACCESS');
    });
  });

  it('answers 403 UNAUTHORIZED_ACCESS to a token without the patients:read permission', async () => {
    const token = await srv.service.auth.issueAuthToken(await userId(srv, A, 'reception'), 'appointments-only', ['appointments:read']);
    for (const headers of [auth(token), bearer(token)]) {
      const res = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers });
      expectDrError(res, 403, 'UNAUTHORIZED_ACCESS');
    }
    // The same narrowed token may not read or write patient records either.
    const get = await call(srv.baseUrl, 'GET', `/dr/v1/patient/${A.patients[0]!.patient_id}`, { headers: auth(token) });
    expectDrError(get, 403, 'UNAUTHORIZED_ACCESS');
    const post = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
      headers: auth(token), body: { first_name: 'No', last_name: 'Access', dob: '1990-01-01', gender: 'M', mobile: freshMobile() },
    });
    expectDrError(post, 403, 'UNAUTHORIZED_ACCESS');
  });

  it('a read-only patients token may search but not register', async () => {
    const token = await srv.service.auth.issueAuthToken(await userId(srv, A, 'reception'), 'search-only', ['patients:read']);
    expect(profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers: auth(token) }))).toHaveLength(2);
    const mobile = freshMobile();
    const post = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
      headers: auth(token), body: { first_name: 'Read', last_name: 'Only', dob: '1990-01-01', gender: 'M', mobile },
    });
    expectDrError(post, 403, 'UNAUTHORIZED_ACCESS');
    expectDrError(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(A.users.admin.auth_token) }), 404, 'PATIENTS_NOT_FOUND');
  });

  describe('workspace isolation', () => {
    it('workspace B never finds workspace A\'s patients by mobile, and A never finds B\'s', async () => {
      // Sanity: each clinic finds its own family.
      expect(profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers: auth(A.users.reception.auth_token) }))).toHaveLength(2);
      expect(profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9123456789`, { headers: auth(B.users.reception.auth_token) }))).toHaveLength(2);
      for (const p of A.patients) {
        const res = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${p.mobile}`, { headers: auth(B.users.admin.auth_token) });
        expectDrError(res, 404, 'PATIENTS_NOT_FOUND');
      }
      for (const p of B.patients) {
        const res = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${p.mobile}`, { headers: bearer(A.users.admin.auth_token) });
        expectDrError(res, 404, 'PATIENTS_NOT_FOUND');
      }
    });

    it('when both clinics register the same mobile, each sees only its own patient', async () => {
      const mobile = freshMobile();
      const a = await createPatient(srv, A.users.reception.auth_token, { first_name: 'Shared', last_name: 'Number', mobile });
      const b = await createPatient(srv, B.users.reception.auth_token, { first_name: 'Shared', last_name: 'Number', mobile });
      expect(a.patient_id).not.toBe(b.patient_id);
      const listA = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(A.users.reception.auth_token) }));
      const listB = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(B.users.reception.auth_token) }));
      expect(listA.map((e) => e.patient_id)).toEqual([a.patient_id]);
      expect(listB.map((e) => e.patient_id)).toEqual([b.patient_id]);
    });

    it('workspace B cannot read or change workspace A\'s patient by id, and the patient is unchanged', async () => {
      const a = await createPatient(srv, A.users.reception.auth_token, { first_name: 'Private', last_name: 'Person' });
      const get = await call(srv.baseUrl, 'GET', `/dr/v1/patient/${a.patient_id}`, { headers: auth(B.users.admin.auth_token) });
      expectDrError(get, 404, 'PATIENT_NOT_FOUND');
      const patch = await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${a.patient_id}`, {
        headers: auth(B.users.admin.auth_token), body: { first_name: 'Hijacked' },
      });
      expectDrError(patch, 404, 'PATIENT_NOT_FOUND');
      // And the reverse direction.
      const bPatient = B.patients[0]!;
      expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${bPatient.patient_id}`, { headers: auth(A.users.admin.auth_token) }), 404, 'PATIENT_NOT_FOUND');
      const after = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${a.patient_id}`, { headers: auth(A.users.reception.auth_token) }), 200);
      expect(after).toEqual(a);
    });
  });

  it('answers an unknown /dr path with 500 SERVER_ERROR "Wrong API URL" in the dr envelope, with or without a token', async () => {
    for (const [method, path, headers] of [
      ['GET', '/dr/v1/business/patients/searchx?mobile=9876543210', auth(A.users.reception.auth_token)],
      ['GET', '/dr/v1/business/patient/search?mobile=9876543210', {}],
      ['GET', '/dr/v2/business/patients/search?mobile=9876543210', auth(A.users.reception.auth_token)],
      ['POST', '/dr/v1/business/patients/search?mobile=9876543210', auth(A.users.reception.auth_token)],
      ['DELETE', `/dr/v1/patient/${A.patients[0]!.patient_id}`, auth(A.users.reception.auth_token)],
      ['GET', '/dr', {}],
    ] as const) {
      const res = await call(srv.baseUrl, method, path, { headers });
      expectDrError(res, 500, 'SERVER_ERROR', 'Wrong API URL');
    }
  });

  it('puts an x-request-id on every response and echoes a well-formed one the client sends', async () => {
    const responses = [
      await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers: auth(A.users.reception.auth_token) }),
      await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=7999999998`, { headers: auth(A.users.reception.auth_token) }),
      await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=12`, { headers: auth(A.users.reception.auth_token) }),
      await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, {}),
      await call(srv.baseUrl, 'GET', '/dr/v1/nowhere', {}),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 404, 400, 401, 500]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^\S+$/);
    expect(new Set(ids).size).toBe(ids.length);
    const echoed = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, {
      headers: { ...auth(A.users.reception.auth_token), 'x-request-id': 'integration-req.42' },
    });
    expect(echoed.status).toBe(200);
    expect(echoed.headers.get('x-request-id')).toBe('integration-req.42');
  });

  it('audits a search (success and not found) without any mobile number or name in the audit log', async () => {
    const mobile = freshMobile();
    const first = 'Quennell';
    const last = 'Zaveriwala';
    const created = await createPatient(srv, A.users.reception.auth_token, { first_name: first, last_name: last, mobile });
    const found = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(A.users.reception.auth_token) });
    expect(found.status).toBe(200);
    const rows = await auditRowsOf(srv, found.headers.get('x-request-id')!);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      workspace_id: A.workspace_id, actor_type: 'user', actor_id: await userId(srv, A, 'reception'), action: 'patient.search',
      resource_type: 'patient', outcome: 'success', ip: '127.0.0.1',
    });
    expect(JSON.parse(rows[0].resource_ids)).toEqual([created.patient_id]);
    expect(rows[0].at).toMatch(ISO_MS_UTC);

    const missing = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=7999999997`, { headers: auth(A.users.reception.auth_token) });
    expect(missing.status).toBe(404);
    const missRows = await auditRowsOf(srv, missing.headers.get('x-request-id')!);
    expect(missRows).toHaveLength(1);
    expect(missRows[0]).toMatchObject({ action: 'patient.search', outcome: 'not_found', workspace_id: A.workspace_id });

    const narrowed = await srv.service.auth.issueAuthToken(await userId(srv, A, 'doctor'), 'narrow', ['appointments:read']);
    const denied = await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(narrowed) });
    expect(denied.status).toBe(403);
    const deniedRows = await auditRowsOf(srv, denied.headers.get('x-request-id')!);
    expect(deniedRows).toHaveLength(1);
    expect(deniedRows[0]).toMatchObject({ outcome: 'denied', actor_id: await userId(srv, A, 'doctor'), workspace_id: A.workspace_id });

    // No audit row anywhere holds a mobile number or a patient's name.
    const all = JSON.stringify(await rowsOf(srv.service, sql`SELECT * FROM audit_log`));
    const patients = await rowsOf(srv.service, sql`SELECT first_name, last_name, mobile_national FROM patients`);
    expect(patients.length).toBeGreaterThan(8);
    for (const p of patients) {
      expect(all).not.toContain(p.mobile_national);
      for (const name of [p.first_name, p.last_name]) if (name.length >= 4) expect(all.toLowerCase()).not.toContain(name.toLowerCase());
    }
    expect(all).not.toContain(mobile);
    expect(all).not.toContain(first);
    expect(all).not.toContain(last);
  });
});

for (const db of DATABASES) describe(`endpoint 1: newest first among family members registered in the same millisecond (${db.name})`, skipFor(db.skip), () => {
  // A frozen clock: every patient gets the same created_at, as happens when a family is registered in one batch.
  // "Newest first" must then still mean the most recently registered first, every time.
  let srv: RunningServer;
  beforeAll(async () => {
    const fixed = new Date('2026-03-02T04:05:06.789Z');
    srv = await startServer({ database: db, clock: { now: () => new Date(fixed) } });
  });
  afterAll(async () => srv?.close());

  it('returns the family in reverse registration order', async () => {
    const A = srv.demo.workspaces[0]!;
    const mobile = freshMobile();
    const ids: string[] = [];
    for (const first_name of ['One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven']) {
      ids.push((await createPatient(srv, A.users.reception.auth_token, { first_name, last_name: 'Batch', mobile })).patient_id);
    }
    const list = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(A.users.reception.auth_token) }));
    expect(list.map((e) => e.patient_profile.created_at)).toEqual(Array(7).fill('2026-03-02T04:05:06.789Z'));
    expect(list.map((e) => e.patient_profile.first_name)).toEqual(['Seven', 'Six', 'Five', 'Four', 'Three', 'Two', 'One']);
    expect(list.map((e) => e.patient_id)).toEqual([...ids].reverse());
  });
});

for (const db of DATABASES) describe(`endpoint 1: disabled workspace (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer({ database: db });
  });
  afterAll(async () => srv?.close());

  it('answers 403 UNAUTHORIZED_ACCESS to every user of a disabled workspace, and nothing to the other workspace', async () => {
    const [A, B] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
    expect(profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers: auth(A.users.admin.auth_token) }))).toHaveLength(2);
    expect(await srv.service.auth.disableWorkspace(A.workspace_id)).toBe(true);
    for (const role of ['admin', 'doctor', 'reception'] as const) {
      for (const headers of [auth(A.users[role].auth_token), bearer(A.users[role].auth_token)]) {
        expectDrError(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9876543210`, { headers }), 403, 'UNAUTHORIZED_ACCESS');
      }
    }
    expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${A.patients[0]!.patient_id}`, { headers: auth(A.users.admin.auth_token) }), 403, 'UNAUTHORIZED_ACCESS');
    const post = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
      headers: auth(A.users.reception.auth_token), body: { first_name: 'Late', last_name: 'Comer', dob: '1990-01-01', gender: 'M', mobile: freshMobile() },
    });
    expectDrError(post, 403, 'UNAUTHORIZED_ACCESS');
    // Workspace B is unaffected.
    expect(profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=9123456789`, { headers: auth(B.users.reception.auth_token) }))).toHaveLength(2);
  });
});

for (const db of DATABASES) describe(`patient records: POST /dr/v1/patient, GET and PATCH /dr/v1/patient/:id (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let A: DemoWorkspace;
  let token: string;
  beforeAll(async () => {
    srv = await startServer({ database: db });
    A = srv.demo.workspaces[0]!;
    token = A.users.reception.auth_token;
  });
  afterAll(async () => srv?.close());

  it('registers a patient: 201 with the exact profile entry, readable by id and findable by search', async () => {
    const before = Date.now();
    const res = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
      headers: auth(token),
      body: { first_name: 'Kiran', middle_name: 'Bala', last_name: 'Joshi', dob: '1995-08-15', gender: 'F', mobile: '+91 70333 44556', email: 'kiran@example.org' },
    });
    const data = expectDrOk(res, 201);
    expect(res.json.status_code).toBe(201);
    expectEntryShape(data);
    expect(data).toStrictEqual({
      name: 'Kiran Bala Joshi',
      patient_id: expect.stringMatching(/\S/),
      patient_profile: {
        patient_id: data.patient_id, first_name: 'Kiran', middle_name: 'Bala', last_name: 'Joshi', dob: '1995-08-15', dob_estimated: false, gender: 'F',
        mobile: '+917033344556', email: 'kiran@example.org', created_at: expect.stringMatching(ISO_MS_UTC), allergies: [],
      },
    });
    const created = Date.parse(data.patient_profile.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);

    const got = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${data.patient_id}`, { headers: bearer(token) }), 200);
    expect(got).toStrictEqual(data);
    const list = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=7033344556`, { headers: auth(token) }));
    expect(list.map((e) => e.patient_id)).toEqual([data.patient_id]);
    expect(list[0].name).toBe('Kiran Bala Joshi');
  });

  it('answers 404 PATIENT_NOT_FOUND in the dr envelope for an unknown id', async () => {
    expectDrError(await call(srv.baseUrl, 'GET', '/dr/v1/patient/00000000-0000-0000-0000-000000000000', { headers: auth(token) }), 404, 'PATIENT_NOT_FOUND');
    expectDrError(await call(srv.baseUrl, 'PATCH', '/dr/v1/patient/no-such-patient', { headers: auth(token), body: { first_name: 'X' } }), 404, 'PATIENT_NOT_FOUND');
  });

  it('answers 401 on the record endpoints without a valid token', async () => {
    const id = A.patients[0]!.patient_id;
    expectDrError(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${id}`, {}), 401, 'UNAUTHORIZED_ACCESS');
    expectDrError(await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${id}`, { headers: { auth: 'bogus' }, body: { first_name: 'X' } }), 401, 'UNAUTHORIZED_ACCESS');
    expectDrError(await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
      headers: bearer('bogus'), body: { first_name: 'A', last_name: 'B', dob: '1990-01-01', gender: 'M', mobile: freshMobile() },
    }), 401, 'UNAUTHORIZED_ACCESS');
  });

  describe('duplicates', () => {
    it('answers 409 PATIENT_ALREADY_EXISTS for the same mobile, names (any case, any spacing) and date of birth', async () => {
      const mobile = freshMobile();
      const original = await createPatient(srv, token, { first_name: 'Sunita', last_name: 'Kapoor', dob: '1980-04-04', gender: 'F', mobile });
      for (const body of [
        { first_name: 'Sunita', last_name: 'Kapoor' },
        { first_name: 'SUNITA', last_name: 'kapoor' },
        { first_name: ' sunita ', last_name: 'KAPOOR ' },
        { first_name: 'Sunita', last_name: 'Kapoor', mobile: `+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}` },
        { first_name: 'Sunita', last_name: 'Kapoor', mobile: `0${mobile}` },
        { first_name: 'Sunita', last_name: 'Kapoor', gender: 'O', email: 'other@example.com' },
      ]) {
        const res = await call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers: auth(token), body: { dob: '1980-04-04', gender: 'F', mobile, ...body } });
        expectDrError(res, 409, 'PATIENT_ALREADY_EXISTS');
      }
      const list = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(token) }));
      expect(list.map((e) => e.patient_id)).toEqual([original.patient_id]);
    });

    it('treats names case-insensitively beyond ASCII too', async () => {
      const mobile = freshMobile();
      await createPatient(srv, token, { first_name: 'Élodie', last_name: 'Ünal', dob: '1991-01-01', mobile });
      const res = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
        headers: auth(token), body: { first_name: 'élodie', last_name: 'ünal', dob: '1991-01-01', gender: 'F', mobile },
      });
      expectDrError(res, 409, 'PATIENT_ALREADY_EXISTS');
      expect(profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(token) }))).toHaveLength(1);
    });

    it('accepts family members sharing the mobile, and a namesake with another date of birth', async () => {
      const mobile = freshMobile();
      const parent = await createPatient(srv, token, { first_name: 'Ravi', last_name: 'Verma', dob: '1965-07-07', gender: 'M', mobile });
      const child = await createPatient(srv, token, { first_name: 'Neha', last_name: 'Verma', dob: '1995-09-09', gender: 'F', mobile });
      const junior = await createPatient(srv, token, { first_name: 'Ravi', last_name: 'Verma', dob: '1992-02-02', gender: 'M', mobile });
      const inLaw = await createPatient(srv, token, { first_name: 'Ravi', last_name: 'Sinha', dob: '1965-07-07', gender: 'M', mobile });
      const ids = new Set([parent.patient_id, child.patient_id, junior.patient_id, inLaw.patient_id]);
      expect(ids.size).toBe(4);
      const list = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(token) }));
      expect(new Set(list.map((e) => e.patient_id))).toEqual(ids);
      // The same person at a different mobile is also a different record.
      await createPatient(srv, token, { first_name: 'Ravi', last_name: 'Verma', dob: '1965-07-07', gender: 'M', mobile: freshMobile() });
    });
  });

  describe('POST validation', () => {
    const valid = () => ({ first_name: 'Valid', last_name: 'Body', dob: '1990-01-01', gender: 'M', mobile: freshMobile() });
    it.each([
      ['missing first_name', { first_name: undefined }],
      ['missing last_name', { last_name: undefined }],
      ['missing dob', { dob: undefined }],
      ['missing gender', { gender: undefined }],
      ['missing mobile', { mobile: undefined }],
      ['empty first_name', { first_name: '' }],
      ['blank last_name', { last_name: '   ' }],
      ['gender X', { gender: 'X' }],
      ['gender lower-case m', { gender: 'm' }],
      ['gender Male', { gender: 'Male' }],
      ['dob not a date', { dob: '01/02/1990' }],
      ['dob not on the calendar', { dob: '1990-02-30' }],
      ['dob in the future', { dob: '2999-01-01' }],
      ['mobile with letters', { mobile: '98765abcde' }],
      ['mobile too short', { mobile: '12345' }],
      ['mobile not a phone number', { mobile: '1234567' }],
      ['email malformed', { email: 'not-an-email' }],
      ['number where a string belongs', { first_name: 42 }],
      ['null name', { last_name: null }],
    ])('answers 400 INVALID_REQUEST for %s and registers nobody', async (_label, change: Record<string, unknown>) => {
      const body: Record<string, unknown> = { ...valid(), ...change };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const res = await call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers: auth(token), body });
      expectDrError(res, 400, 'INVALID_REQUEST');
      if (typeof body.mobile === 'string' && /^\d{10}$/.test(body.mobile)) {
        expectDrError(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${body.mobile}`, { headers: auth(token) }), 404, 'PATIENTS_NOT_FOUND');
      }
    });

    it('answers malformed JSON with 500 SERVER_ERROR "Malformed JSON request" in the dr envelope', async () => {
      const res = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
        headers: { ...auth(token), 'content-type': 'application/json' }, rawBody: '{"first_name": "Broken",',
      });
      expectDrError(res, 500, 'SERVER_ERROR', 'Malformed JSON request');
      expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
    });
  });

  describe('PATCH', () => {
    it('changes only the fields sent and returns the whole updated entry', async () => {
      const p = await createPatient(srv, token, { first_name: 'Gopal', middle_name: 'Krishna', last_name: 'Pillai', dob: '1960-10-10', gender: 'M' });
      await sleep(3);
      const res = await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${p.patient_id}`, {
        headers: auth(A.users.doctor.auth_token), body: { middle_name: '', email: 'gopal@example.net' },
      });
      const data = expectDrOk(res, 200);
      expectEntryShape(data);
      expect(data).toStrictEqual({
        ...p,
        name: 'Gopal Pillai',
        patient_profile: { ...p.patient_profile, middle_name: '', email: 'gopal@example.net' },
      });
      // created_at never changes.
      expect(data.patient_profile.created_at).toBe(p.patient_profile.created_at);
      const got = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${p.patient_id}`, { headers: auth(token) }), 200);
      expect(got).toStrictEqual(data);

      const again = expectDrOk(await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${p.patient_id}`, {
        headers: auth(token), body: { first_name: ' Gopala ', gender: 'O', dob: '1961-01-31', email: '' },
      }), 200);
      expect(again.name).toBe('Gopala Pillai');
      expect(again.patient_profile).toMatchObject({ first_name: 'Gopala', gender: 'O', dob: '1961-01-31', email: '', middle_name: '' });
    });

    it('moves a patient to a new mobile: found by the new number, no longer by the old', async () => {
      const oldMobile = freshMobile();
      const newMobile = freshMobile();
      const p = await createPatient(srv, token, { mobile: oldMobile });
      const data = expectDrOk(await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${p.patient_id}`, {
        headers: auth(token), body: { mobile: `+91 ${newMobile}` },
      }), 200);
      expect(data.patient_profile.mobile).toBe(`+91${newMobile}`);
      expectDrError(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${oldMobile}`, { headers: auth(token) }), 404, 'PATIENTS_NOT_FOUND');
      const list = profilesOf(await call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${newMobile}`, { headers: auth(token) }));
      expect(list.map((e) => e.patient_id)).toEqual([p.patient_id]);
    });

    it.each([
      ['an empty body', {}],
      ['gender X', { gender: 'X' }],
      ['dob not on the calendar', { dob: '2001-02-29' }],
      ['dob in the future', { dob: '2999-12-31' }],
      ['dob malformed', { dob: '31-12-1990' }],
      ['empty first_name', { first_name: '' }],
      ['blank last_name', { last_name: '  ' }],
      ['null first_name', { first_name: null }],
      ['mobile with letters', { mobile: 'call-me' }],
      ['mobile not a phone number', { mobile: '1234567' }],
      ['email malformed', { email: 'x@' }],
      ['number for a name', { last_name: 7 }],
    ])('answers 400 INVALID_REQUEST for %s and changes nothing', async (_label, body) => {
      const p = await createPatient(srv, token);
      const res = await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${p.patient_id}`, { headers: auth(token), body });
      expectDrError(res, 400, 'INVALID_REQUEST');
      const got = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${p.patient_id}`, { headers: auth(token) }), 200);
      expect(got).toStrictEqual(p);
    });

    it('answers 400 for a body that is not a JSON object', async () => {
      const p = await createPatient(srv, token);
      for (const rawBody of ['[]', '"text"', '42']) {
        const res = await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${p.patient_id}`, {
          headers: { ...auth(token), 'content-type': 'application/json' }, rawBody,
        });
        expectDrError(res, 400, 'INVALID_REQUEST');
      }
    });

    it('answers 409 PATIENT_ALREADY_EXISTS when the change would make a true duplicate, and changes nothing', async () => {
      const mobile = freshMobile();
      await createPatient(srv, token, { first_name: 'Tara', last_name: 'Bose', dob: '2000-01-01', gender: 'F', mobile });
      const sibling = await createPatient(srv, token, { first_name: 'Tanu', last_name: 'Bose', dob: '2000-01-01', gender: 'F', mobile });
      const res = await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${sibling.patient_id}`, { headers: auth(token), body: { first_name: 'TARA' } });
      expectDrError(res, 409, 'PATIENT_ALREADY_EXISTS');
      const got = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${sibling.patient_id}`, { headers: auth(token) }), 200);
      expect(got).toStrictEqual(sibling);
      // A change that keeps them distinct is fine.
      const ok = expectDrOk(await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${sibling.patient_id}`, { headers: auth(token), body: { first_name: 'Tanvi' } }), 200);
      expect(ok.name).toBe('Tanvi Bose');
    });

    it('answers malformed JSON with 500 SERVER_ERROR "Malformed JSON request"', async () => {
      const p = await createPatient(srv, token);
      const res = await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${p.patient_id}`, {
        headers: { ...auth(token), 'content-type': 'application/json' }, rawBody: "{first_name:'x'}",
      });
      expectDrError(res, 500, 'SERVER_ERROR', 'Malformed JSON request');
    });
  });
});
