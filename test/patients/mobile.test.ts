import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile } from '../../server/config.js';
import { openDatabase } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import { buildMcpServer } from '../../server/mcp/server.js';
import { auth, expectDrError, expectDrOk } from '../helpers/dr.js';
import { call, type RunningServer, startServer, tempDir } from '../helpers/server.js';

/**
 * Issue 14, items 1-3 over HTTP: the mobile rule (only numbers search can find and that are mobiles), age instead of
 * a date of birth (an estimated, flagged dob), plain error messages, and the list of existing patients whose mobile
 * breaks the rule (nothing deleted).
 */

const SEARCH = '/dr/v1/business/patients/search';
// 10 March 2026, 11:30 at the demo clinics (Asia/Kolkata).
const NOW = new Date('2026-03-10T06:00:00Z');

let srv: RunningServer;
let A: DemoWorkspace;
let token: string;
let seq = 0;

beforeAll(async () => {
  srv = await startServer({ clock: { now: () => NOW } });
  A = srv.demo.workspaces[0]!;
  token = A.users.reception.auth_token;
});
afterAll(async () => srv?.close());

const nextName = () => `Mob${String.fromCharCode(97 + (seq % 26))}${String.fromCharCode(97 + Math.floor(seq++ / 26))}`;
const register = (body: Record<string, unknown>) => call(srv.baseUrl, 'POST', '/dr/v1/patient', {
  headers: auth(token), body: { first_name: nextName(), last_name: 'Tester', gender: 'F', dob: '1990-05-17', ...body },
});
const search = (mobile: string) => call(srv.baseUrl, 'GET', `${SEARCH}?mobile=${mobile}`, { headers: auth(token) });

describe('the mobile rule (clinic in India)', () => {
  it.each([
    ['9 digits', '987650001', /10 digits.*has 9 digits/],
    ['11 digits', '98765000123', /has 11 digits/],
    ['1234567890', '1234567890', /starts with 6, 7, 8 or 9; 1234567890 does not/],
    ['starting with 5', '5876543210', /starts with 6, 7, 8 or 9/],
    ['+91 and starting with 5', '+91 58765 43210', /starts with 6, 7, 8 or 9/],
    ['letters', '98765abcde', /only digits/],
  ])('refuses %s with 400 INVALID_REQUEST in the dr envelope, a sentence naming the field, and registers nobody', async (_l, mobile, words) => {
    const res = await register({ mobile });
    expectDrError(res, 400, 'INVALID_REQUEST', words);
    expect(res.json.error.message).toMatch(/^mobile: [A-Z]/);
    expect(res.json.error.message).not.toMatch(/pattern|\^|\$|must match/);
    const digits = mobile.replace(/\D/g, '');
    if (digits.length === 10) expectDrError(await search(digits), 404, 'PATIENTS_NOT_FOUND');
  });

  it.each([
    ['bare 10 digits', '7012340001', '7012340001'],
    ['+91', '+917012340002', '7012340002'],
    ['+91 with spaces', '+91 70123 40003', '7012340003'],
    ['0 in front', '07012340004', '7012340004'],
    ['91 without +', '91 70123 40005', '7012340005'],
    ['spaces and dashes', '70123-400 06', '7012340006'],
    ['a new series (6-prefixed)', '6111234567', '6111234567'],
  ])('accepts %s, stores +91 and the 10 digits, and search finds it', async (_l, mobile, national) => {
    const data = expectDrOk(await register({ mobile }), 201);
    expect(data.patient_profile.mobile).toBe(`+91${national}`);
    const found = expectDrOk(await search(national), 200);
    expect(found.profiles.map((p: { patient_id: string }) => p.patient_id)).toContain(data.patient_id);
  });

  it('accepts an international mobile entered with +, and search finds it by its 10-digit national number', async () => {
    const uk = expectDrOk(await register({ mobile: '+44 7911 123456' }), 201);
    expect(uk.patient_profile.mobile).toBe('+447911123456');
    expect(expectDrOk(await search('7911123456'), 200).profiles.map((p: { patient_id: string }) => p.patient_id)).toEqual([uk.patient_id]);
    const us = expectDrOk(await register({ mobile: '+1 415 555 2671' }), 201);
    expect(us.patient_profile.mobile).toBe('+14155552671');
  });

  it.each([
    ['a UK landline', '+44 20 7946 0958'],
    ['too short', '+44 1234'],
    ['an unknown country code', '+999 12345678'],
  ])('refuses an international number that is not a mobile: %s', async (_l, mobile) => {
    const res = await register({ mobile });
    expectDrError(res, 400, 'INVALID_REQUEST', /^mobile: .*is not a mobile number/);
  });

  it('applies the rule on PATCH too, and a valid correction makes the patient findable', async () => {
    const p = expectDrOk(await register({ mobile: '7012340100' }), 201);
    const url = `/dr/v1/patient/${p.patient_id}`;
    expectDrError(await call(srv.baseUrl, 'PATCH', url, { headers: auth(token), body: { mobile: '987650001' } }), 400, 'INVALID_REQUEST', /has 9 digits/);
    const fixed = expectDrOk(await call(srv.baseUrl, 'PATCH', url, { headers: auth(token), body: { mobile: '0 70123 40101' } }), 200);
    expect(fixed.patient_profile.mobile).toBe('+917012340101');
  });
});

describe('age instead of a date of birth', () => {
  it('stores 1 July of (this year - age) for an age in years, flagged estimated', async () => {
    const data = expectDrOk(await register({ dob: undefined, age_years: 45, mobile: '7012340200' }), 201);
    expect(data.patient_profile).toMatchObject({ dob: '1981-07-01', dob_estimated: true });
    const got = expectDrOk(await call(srv.baseUrl, 'GET', `/dr/v1/patient/${data.patient_id}`, { headers: auth(token) }), 200);
    expect(got.patient_profile).toMatchObject({ dob: '1981-07-01', dob_estimated: true });
    const listed = expectDrOk(await search('7012340200'), 200).profiles[0];
    expect(listed.patient_profile.dob_estimated).toBe(true);
  });

  it('stores the 15th of the month for an infant\'s age in months (today if the 15th is still to come)', async () => {
    const eight = expectDrOk(await register({ dob: undefined, age_months: 8, mobile: '7012340201' }), 201);
    expect(eight.patient_profile).toMatchObject({ dob: '2025-07-15', dob_estimated: true });
    const newborn = expectDrOk(await register({ dob: undefined, age_months: 0, mobile: '7012340202' }), 201);
    expect(newborn.patient_profile).toMatchObject({ dob: '2026-03-10', dob_estimated: true });
  });

  it('keeps a given date of birth exact, and a later exact date clears the estimate', async () => {
    const exact = expectDrOk(await register({ dob: '1990-05-17', mobile: '7012340203' }), 201);
    expect(exact.patient_profile.dob_estimated).toBe(false);
    const est = expectDrOk(await register({ dob: undefined, age_years: 30, mobile: '7012340204' }), 201);
    const fixed = expectDrOk(await call(srv.baseUrl, 'PATCH', `/dr/v1/patient/${est.patient_id}`, { headers: auth(token), body: { dob: '1995-11-02' } }), 200);
    expect(fixed.patient_profile).toMatchObject({ dob: '1995-11-02', dob_estimated: false });
  });

  it.each([
    ['a date before 1900', { dob: '1899-12-31' }, /^dob: The year of birth must be 1900 or later/],
    ['an age that means before 1900', { dob: undefined, age_years: 127 }, /^age_years: .*before 1900/],
    ['both a date and an age', { age_years: 40 }, /^age_years: Give either the date of birth or an age/],
    ['neither', { dob: undefined }, /^dob: Enter the date of birth, or the age/],
    ['a date in the future', { dob: '2026-03-11' }, /^dob: The date of birth cannot be in the future/],
    ['an age in years under 2', { dob: undefined, age_years: 1 }, /^body\.age_years must be at least 2$/],
    ['24 months', { dob: undefined, age_months: 24 }, /^body\.age_months must be at most 23$/],
  ])('refuses %s with a plain sentence', async (_l, body, words) => {
    expectDrError(await register({ ...body, mobile: '7012340299' }), 400, 'INVALID_REQUEST', words);
  });
});

describe('plain error messages', () => {
  it.each([
    ['a 101-character name', { first_name: 'a'.repeat(101) }, 'body.first_name must be at most 100 characters'],
    ['a gender outside M, F, O', { gender: 'X' }, 'body.gender must be one of M, F, O'],
    ['a malformed date', { dob: '17/05/1990' }, 'body.dob must be a date written YYYY-MM-DD'],
    ['a number for a name', { last_name: 42 }, 'body.last_name must be text (a JSON string)'],
    ['a malformed email', { email: 'not-an-email' }, 'body.email must be an email address'],
  ])('%s: the field, then what is wrong in words', async (_l, body, message) => {
    expectDrError(await register({ mobile: '7012340300', ...body }), 400, 'INVALID_REQUEST', message);
  });

  it('names a missing field', async () => {
    const res = await call(srv.baseUrl, 'POST', '/dr/v1/patient', { headers: auth(token), body: { first_name: 'No', last_name: 'Mobile', gender: 'M', dob: '1990-01-01' } });
    expectDrError(res, 400, 'INVALID_REQUEST', 'body.mobile is required');
  });

  it('says search takes 10 digits without a regular expression', async () => {
    expectDrError(await search('98765'), 400, 'INVALID_REQUEST', 'querystring.mobile must be exactly 10 digits');
  });
});

describe('patients whose stored mobile breaks the rule', () => {
  it('are listed for admins with the problem in words, oldest first; nothing is deleted or changed', async () => {
    // Rows as the service stored them before the rule: the 9-digit and 1234567890 numbers of the issue, and a landline.
    const insert = srv.service.db.prepare(`INSERT INTO patients (id, workspace_id, first_name, middle_name, last_name, dob, gender,
      mobile_cc, mobile_national, email, name_key, created_at, updated_at) VALUES (?, ?, ?, '', 'Old', '1980-01-01', 'M', ?, ?, NULL, ?, ?, ?)`);
    const bad = [['91', '987650001'], ['91', '1234567890'], ['44', '2079460958']] as const;
    const ids = bad.map(([cc, national], i) => {
      const id = randomUUID();
      const at = `2020-01-0${i + 1}T00:00:00.000Z`;
      insert.run(id, A.workspace_id, `Legacy${i}`, cc, national, `legacy${i}\u0000old`, at, at);
      return id;
    });
    const before = srv.service.db.prepare('SELECT COUNT(*) FROM patients').pluck().get();

    const res = await call(srv.baseUrl, 'GET', '/api/v1/patients/mobile-review', { headers: { authorization: `Bearer ${A.users.admin.auth_token}` } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.total).toBe(3);
    expect(res.json.data.map((e: { patient_id: string }) => e.patient_id)).toEqual(ids);
    expect(res.json.data[0]).toMatchObject({ name: 'Legacy0 Old', patient_profile: { mobile: '+91987650001', dob_estimated: false }, problem: expect.stringMatching(/has 9 digits/) });
    expect(res.json.data[2].problem).toMatch(/is not a mobile number/);
    // The good patients of the demo clinic are not listed, nor another clinic's.
    expect(srv.service.db.prepare('SELECT COUNT(*) FROM patients').pluck().get()).toBe(before);

    // Front desk and doctors do not see the list: it is an admin screen.
    const denied = await call(srv.baseUrl, 'GET', '/api/v1/patients/mobile-review', { headers: { authorization: `Bearer ${token}` } });
    expect(denied.status).toBe(403);
    expect(denied.json.error.code).toBe('FORBIDDEN');

    // Corrected through the ordinary edit, a patient leaves the list and search finds them.
    const url = `/dr/v1/patient/${ids[0]}`;
    expectDrOk(await call(srv.baseUrl, 'PATCH', url, { headers: auth(token), body: { mobile: '9876500019' } }), 200);
    const after = await call(srv.baseUrl, 'GET', '/api/v1/patients/mobile-review', { headers: { authorization: `Bearer ${A.users.admin.auth_token}` } });
    expect(after.json.total).toBe(2);
    expect(expectDrOk(await search('9876500019'), 200).profiles.map((p: { patient_id: string }) => p.patient_id)).toContain(ids[0]);
  });

  it('migration 9 keeps every existing row as it was, dates exact', () => {
    const dir = tempDir('mig9');
    try {
      const db = openDatabase({ file: databaseFile(dir), migrate: false });
      migrate(db, migrations.filter((m) => m.version < 9));
      db.prepare(`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES ('w', 'Old clinic', 'IN', 'Asia/Kolkata', '2020-01-01T00:00:00.000Z')`).run();
      const insert = db.prepare(`INSERT INTO patients (id, workspace_id, first_name, middle_name, last_name, dob, gender, mobile_cc, mobile_national,
        email, name_key, created_at, updated_at) VALUES (?, 'w', ?, '', 'Old', '1970-01-01', 'F', '91', ?, NULL, ?, '2020', '2020')`);
      for (const [id, national] of [['p1', '987650001'], ['p2', '9876543210'], ['p3', '1234567890']]) insert.run(id, id, national, `${id}\u0000old`);
      const rows = () => db.prepare('SELECT id, first_name, mobile_cc, mobile_national, dob FROM patients ORDER BY id').all();
      const before = rows();
      expect(migrate(db)).toContain(9);
      expect(rows()).toEqual(before);
      expect(db.prepare('SELECT DISTINCT dob_estimated FROM patients').pluck().all()).toEqual([0]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the same rules through the MCP tool register_patient', () => {
  // The tools bound to the front-desk user behind the demo token, over the SDK's in-memory transport: the OAuth
  // flow that gives an assistant its /mcp token is test/mcp/mcp.test.ts's subject, and needs a browser.
  let client: Client;
  beforeAll(async () => {
    const caller = (await srv.service.auth.authenticateToken(token))!;
    const server = buildMcpServer({ service: srv.service, ctx: { caller, ip: null, requestId: 'mcp-test' } });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: 'patients-mobile-test', version: '1.0.0' });
    await client.connect(b);
  });
  afterAll(async () => client?.close());

  type Result = { isError?: boolean; structuredContent?: any; content?: { text: string }[] };
  const registerTool = (args: Record<string, unknown>) => client.callTool({
    name: 'register_patient', arguments: { first_name: nextName(), last_name: 'Assistant', gender: 'M', ...args },
  }) as Promise<Result>;

  it.each([
    ['9 digits', '987650001', /has 9 digits/],
    ['11 digits', '98765000123', /has 11 digits/],
    ['1234567890', '1234567890', /1234567890 does not/],
    ['starting with 5', '5876543210', /starts with 6, 7, 8 or 9/],
    ['a UK landline', '+44 20 7946 0958', /is not a mobile number/],
  ])('refuses %s as an error result naming the field', async (_l, mobile, words) => {
    const r = await registerTool({ dob: '1990-01-01', mobile });
    expect(r.isError).toBe(true);
    expect(r.content![0]!.text).toMatch(/^INVALID_REQUEST: mobile: /);
    expect(r.content![0]!.text).toMatch(words);
  });

  it('registers a valid Indian or international mobile, and an age-only patient with an estimated dob', async () => {
    const indian = await registerTool({ dob: '1990-01-01', mobile: '+91 70123 40400' });
    expect(indian.structuredContent).toMatchObject({ mobile: '+917012340400', dob: '1990-01-01', dob_estimated: false });
    const uk = await registerTool({ dob: '1990-01-01', mobile: '+44 7911 123457' });
    expect(uk.structuredContent.mobile).toBe('+447911123457');
    const aged = await registerTool({ age_years: 60, mobile: '7012340401' });
    expect(aged.structuredContent).toMatchObject({ dob: '1966-07-01', dob_estimated: true });
    const found = await client.callTool({ name: 'search_patients_by_mobile', arguments: { mobile: '7012340401' } }) as Result;
    expect(found.structuredContent.patients[0]).toMatchObject({ patient_id: aged.structuredContent.patient_id, dob_estimated: true });
  });

  it('refuses a birth year before 1900 and schema slips in words', async () => {
    const old = await registerTool({ dob: '1899-06-01', mobile: '7012340402' });
    expect(old.content![0]!.text).toBe('INVALID_REQUEST: dob: The year of birth must be 1900 or later.');
    const long = await registerTool({ first_name: 'a'.repeat(101), dob: '1990-01-01', mobile: '7012340402' });
    expect(long.content![0]!.text).toBe('INVALID_REQUEST: input.first_name must be at most 100 characters');
  });
});
