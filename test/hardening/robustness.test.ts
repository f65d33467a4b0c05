import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type RunningServer, call as httpCall, startServer } from '../helpers/server.js';
import { DATABASES } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

/**
 * Hostile input over real HTTP. Every answer, whatever the input, must be one of the documented statuses and
 * codes, in the error shape of its route family, with an x-request-id header, and never a stack trace or a file
 * path; 5xx bodies carry the request id. The service must still be healthy afterwards.
 */

type Style = 'envelope' | 'bare' | 'plain';
interface Res { status: number; headers: Headers; text: string; json: any }

// Stack frames ("    at fn (/x/y.ts:1:2)", "at file:///…", "at node:internal/…") and file paths. The brief's
// literal "at " is matched as a stack frame rather than as any substring: validation messages legitimately say
// 'must match format "date"'.
const LEAKS: RegExp[] = [
  /\n\s*at\s/,
  /\bat\s+(?:async\s+)?\S*\s*\(?(?:file:\/\/|node:|\/[\w.-]+\/)/,
  /\bat\s+\S+\s+\(.*:\d+:\d+\)/,
  /\.ts:/,
  /\.[cm]?js:\d/,
  /node_modules/,
];

function expectClean(r: Res) {
  for (const leak of LEAKS) expect(r.text, `body leaks internals (${leak}): ${r.text.slice(0, 300)}`).not.toMatch(leak);
  expect(r.text).not.toContain(ROOT);
  const rid = r.headers.get('x-request-id');
  expect(rid, `x-request-id missing on ${r.status} ${r.text.slice(0, 200)}`).toBeTruthy();
  if (r.status >= 500) {
    expect(r.json?.error?.request_id, `5xx without error.request_id: ${r.text.slice(0, 200)}`).toBe(rid);
  }
}

/** Asserts a documented error: status, code, the route family's shape, and a clean body. */
function expectError(r: Res, style: Style, status: number | number[], code: string | string[]) {
  const statuses = Array.isArray(status) ? status : [status];
  const codes = Array.isArray(code) ? code : [code];
  expect(statuses, `status ${r.status}: ${r.text.slice(0, 300)}`).toContain(r.status);
  expectClean(r);
  const body = r.json;
  expect(body, `not JSON: ${r.text.slice(0, 200)}`).toBeTypeOf('object');
  expect(codes, `code of ${r.text.slice(0, 300)}`).toContain(body.error?.code);
  expect(body.error.message).toBeTypeOf('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  const errorKeys = Object.keys(body.error).sort();
  expect(errorKeys).toEqual(r.status >= 500 ? ['code', 'message', 'request_id'] : ['code', 'message']);
  if (style === 'envelope') {
    const keys = body.error.code === 'PATIENTS_NOT_FOUND' ? ['error', 'status_code', 'success'] : ['data', 'error', 'status_code', 'success'];
    expect(Object.keys(body).sort()).toEqual(keys);
    expect(body.status_code).toBe(r.status);
    expect(body.success).toBe(false);
    if ('data' in body) expect(body.data).toEqual({});
  } else {
    // bare (parked, change-status) and plain (outside /dr) are both exactly {error:{code,message}}
    expect(Object.keys(body)).toEqual(['error']);
  }
}

/**
 * The pass's tally: requests sent, requests that got no answer (a crash or a dropped connection) and 5xx answers
 * the interface does not plan (it plans only /dr's 500 SERVER_ERROR for malformed JSON and a wrong URL).
 */
const tally = { requests: 0, unanswered: 0, unplanned5xx: [] as string[] };
const PLANNED_500 = new Set(['Malformed JSON request', 'Wrong API URL']);
function counted(method: string, path: string, r: Res): Res {
  tally.requests++;
  if (r.status >= 500 && !(r.status === 500 && PLANNED_500.has(r.json?.error?.message))) tally.unplanned5xx.push(`${method} ${path} → ${r.status}`);
  return r;
}
async function call(...args: Parameters<typeof httpCall>): Promise<Res> {
  try {
    return counted(args[1], args[2], await httpCall(...args));
  } catch (e) {
    tally.requests++;
    tally.unanswered++;
    throw e;
  }
}

/** A raw HTTP/1.1 request, for what fetch will not send: chunked bodies, unnormalised paths. */
function raw(baseUrl: string, method: string, path: string, headers: Record<string, string>, chunks: (string | Buffer)[] = []) {
  const url = new URL(baseUrl);
  return new Promise<Res>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        let json: any;
        try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
        resolve(counted(method, path, { status: res.statusCode ?? 0, headers: h, text, json }));
      });
    });
    req.on('error', (e) => {
      tally.requests++;
      tally.unanswered++;
      reject(e);
    });
    for (const c of chunks) req.write(c);
    req.end();
  });
}

for (const db of DATABASES) describe(`hostile input over HTTP (${db.name})`, skipFor(db.skip), () => {
  let srv: RunningServer;
  let base: string;
  let token: string;
  let auth: Record<string, string>;
  let jsonAuth: Record<string, string>;
  let apptId: string;
  let changeStatus: string;
  let parked: string;
  let mobileSeq = 0;
  const nextMobile = () => `90000${String(++mobileSeq).padStart(5, '0')}`;
  const goodPatient = (over: Record<string, unknown> = {}) => ({
    first_name: 'Asha', last_name: 'Verma', dob: '1990-01-01', gender: 'F', mobile: nextMobile(), ...over,
  });
  const post = (path: string, body: unknown, headers = auth) => call(base, 'POST', path, { headers, body });
  const postRaw = (path: string, rawBody: string, headers = jsonAuth) => call(base, 'POST', path, { headers, rawBody });

  beforeAll(async () => {
    Object.assign(tally, { requests: 0, unanswered: 0, unplanned5xx: [] });
    srv = await startServer({ database: db });
    base = srv.baseUrl;
    const ws = srv.demo.workspaces[0]!;
    token = ws.users.reception.auth_token;
    auth = { auth: token };
    jsonAuth = { auth: token, 'content-type': 'application/json' };
    apptId = ws.appointments[0]!.appointment_id;
    changeStatus = `/dr/v1/appointment/${apptId}/change-status?partner_id=0`;
    parked = `/dr/v1/appointment/${apptId}/parked`;
  });
  afterAll(() => srv?.close());

  const MALFORMED = [
    '{"first_name":"Asha","last_name":"Ve', // truncated
    '{"status":}',
    '{',
    '}',
    '{"a":1,}',
    "{'status':'NS'}",
    '{"status":"NS"',
    '{"status":NaN}',
    'nul',
    '"unterminated',
    '{"status":"NS"}garbage',
    '\u0000',
  ];

  it('malformed JSON on POST /dr/v1/patient is 500 SERVER_ERROR "Malformed JSON request" in the dr envelope', async () => {
    for (const body of MALFORMED) {
      const r = await postRaw('/dr/v1/patient', body);
      expectError(r, 'envelope', 500, 'SERVER_ERROR');
      expect(r.json.error.message).toMatch(/malformed json/i);
    }
  });

  it('malformed JSON on change-status and parked is 500 SERVER_ERROR, in the dr envelope like every /dr route', async () => {
    // decisions.md: "malformed JSON on /dr endpoints: 500 SERVER_ERROR in the dr envelope", bare routes included.
    for (const path of [changeStatus, parked]) {
      for (const body of MALFORMED) {
        const r = await postRaw(path, body);
        expectError(r, 'envelope', 500, 'SERVER_ERROR');
        expect(r.json.error.message).toMatch(/malformed json/i);
      }
    }
    // OPTIONS that is not a preflight from an allowed origin: 405 in the family's shape (docs/API.md, CORS), never 500.
    for (const path of ['/dr/v1/patient', changeStatus, '/dr/v1/nowhere', '/api/v1/clinic', '/nowhere']) {
      const r = await call(base, 'OPTIONS', path, { headers: { ...auth, origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expectError(r, path.startsWith('/dr/v1/appointment/') || !path.startsWith('/dr') ? 'plain' : 'envelope', 405, 'METHOD_NOT_ALLOWED');
    }
    const a = await call(base, 'GET', `/dr/v1/appointment/${apptId}`, { headers: auth });
    expect(a.json.data.status).toBe('BK');
  });

  it('JSON that is not an object (string, number, array, null, boolean) is 400 INVALID_REQUEST', async () => {
    for (const body of ['"hello"', '42', '[1,2,3]', '[{"status":"NS"}]', 'null', 'true', '[]']) {
      expectError(await postRaw('/dr/v1/patient', body), 'envelope', 400, 'INVALID_REQUEST');
      expectError(await postRaw(changeStatus, body), 'bare', 400, 'INVALID_REQUEST');
    }
  });

  it('__proto__ and constructor.prototype payloads are refused and pollute nothing', async () => {
    const payloads = (mobile: string) => {
      const good = JSON.stringify(goodPatient({ mobile }));
      return [
        good.replace('{', '{"__proto__":{"polluted":"yes","status":"NS"},'),
        good.replace('{', '{"constructor":{"prototype":{"polluted":"yes"}},'),
        good.replace('{', '{"nested":{"__proto__":{"polluted":"yes"}},'),
        good.replace('{', '{"nested":[{"constructor":{"prototype":{"polluted":"yes"}}}],'),
        '{"__proto__":{"status":"NS"}}',
      ];
    };
    const mobile = nextMobile();
    for (const body of payloads(mobile)) {
      expectError(await postRaw('/dr/v1/patient', body), 'envelope', [400, 500], ['INVALID_REQUEST', 'SERVER_ERROR']);
    }
    for (const body of ['{"__proto__":{"status":"NS"}}', '{"constructor":{"prototype":{"status":"NS"}}}', '{"status":"NS","__proto__":{"x":1}}']) {
      // Refused as invalid input (400, bare) or as malformed JSON (500, in the envelope like all malformed JSON).
      const r = await postRaw(changeStatus, body);
      if (r.status === 500) expectError(r, 'envelope', 500, 'SERVER_ERROR');
      else expectError(r, 'bare', 400, 'INVALID_REQUEST');
    }
    // Nothing leaked into this process's prototypes (the server runs in it) and nothing was stored.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).status).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    const search = await call(base, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, { headers: auth });
    expectError(search, 'envelope', 404, 'PATIENTS_NOT_FOUND');
    // OPTIONS that is not a preflight from an allowed origin: 405 in the family's shape (docs/API.md, CORS), never 500.
    for (const path of ['/dr/v1/patient', changeStatus, '/dr/v1/nowhere', '/api/v1/clinic', '/nowhere']) {
      const r = await call(base, 'OPTIONS', path, { headers: { ...auth, origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expectError(r, path.startsWith('/dr/v1/appointment/') || !path.startsWith('/dr') ? 'plain' : 'envelope', 405, 'METHOD_NOT_ALLOWED');
    }
    const a = await call(base, 'GET', `/dr/v1/appointment/${apptId}`, { headers: auth });
    expect(a.json.data.status).toBe('BK');
  });

  it('wrong types in patient fields are 400 INVALID_REQUEST naming the field, never coerced', async () => {
    const cases: [string, unknown][] = [
      ['first_name', 123], ['first_name', true], ['first_name', null], ['first_name', {}], ['first_name', ['Asha']],
      ['last_name', 0], ['last_name', false], ['middle_name', null], ['middle_name', 7],
      ['dob', 19900101], ['dob', null], ['dob', { year: 1990 }],
      ['gender', 1], ['gender', 'X'], ['gender', 'female'], ['gender', null],
      ['mobile', 9876543210], ['mobile', null], ['mobile', ['9876543210']],
      ['email', 5], ['email', false],
    ];
    for (const [field, value] of cases) {
      const mobile = nextMobile();
      const r = await post('/dr/v1/patient', goodPatient({ mobile, [field]: value }));
      expectError(r, 'envelope', 400, 'INVALID_REQUEST');
      expect(r.json.error.message, `${field}=${JSON.stringify(value)}`).toContain(field);
    }
  });

  it('wrong types and values for change-status are 400 INVALID_REQUEST in the bare body, status untouched', async () => {
    const bodies: unknown[] = [
      { status: 1 }, { status: true }, { status: null }, { status: {} }, { status: { $ne: null } }, { status: ['NS'] },
      { status: 'ns' }, { status: 'NS ' }, { status: ' NS' }, { status: 'BK' }, { status: 'PK' }, { status: '' },
      { status: 'NS\u0000' }, { status: "NS' OR '1'='1" }, { Status: 'NS' },
    ];
    for (const body of bodies) {
      const r = await post(changeStatus, body);
      expectError(r, 'bare', 400, 'INVALID_REQUEST');
    }
    for (const q of ['', '?partner_id=1&partner_id=0', `?partner_id=${'1'.repeat(50)}`]) {
      const r = await post(`/dr/v1/appointment/${apptId}/change-status${q}`, { status: 'NS' });
      if (q.includes('1'.repeat(50))) expectError(r, 'bare', [400, 404], ['INVALID_REQUEST', 'APPOINTMENT_NOT_FOUND']);
      else expectError(r, 'bare', 400, 'INVALID_REQUEST');
    }
    const a = await call(base, 'GET', `/dr/v1/appointment/${apptId}`, { headers: auth });
    expect(a.status).toBe(200);
    expect(a.json.data.status).toBe('BK');
    expect(a.json.data.status_history).toHaveLength(1);
  });

  it('missing fields and missing bodies are 400 INVALID_REQUEST', async () => {
    for (const field of ['first_name', 'last_name', 'dob', 'gender', 'mobile']) {
      const body = goodPatient();
      delete (body as Record<string, unknown>)[field];
      const r = await post('/dr/v1/patient', body);
      expectError(r, 'envelope', 400, 'INVALID_REQUEST');
      expect(r.json.error.message).toContain(field);
    }
    expectError(await post('/dr/v1/patient', {}), 'envelope', 400, 'INVALID_REQUEST');
    expectError(await postRaw('/dr/v1/patient', ''), 'envelope', 400, 'INVALID_REQUEST');
    expectError(await call(base, 'POST', '/dr/v1/patient', { headers: auth }), 'envelope', 400, 'INVALID_REQUEST');
    expectError(await post(changeStatus, {}), 'bare', 400, 'INVALID_REQUEST');
    expectError(await postRaw(changeStatus, ''), 'bare', 400, 'INVALID_REQUEST');
    expectError(await call(base, 'POST', changeStatus, { headers: auth }), 'bare', 400, 'INVALID_REQUEST');
    const noQuery = await post(`/dr/v1/appointment/${apptId}/change-status`, { status: 'NS' });
    expectError(noQuery, 'bare', 400, 'INVALID_REQUEST');
    expect(noQuery.json.error.message).toContain('partner_id');
    expectError(await call(base, 'GET', '/dr/v1/business/patients/search', { headers: auth }), 'envelope', 400, 'INVALID_REQUEST');
  });

  it('absurdly long field values are 400 INVALID_REQUEST', async () => {
    const tenK = 'x'.repeat(10_000);
    for (const field of ['first_name', 'middle_name', 'last_name', 'dob', 'mobile', 'email', 'gender']) {
      const r = await post('/dr/v1/patient', goodPatient({ [field]: field === 'email' ? `${tenK}@example.com` : tenK }));
      expectError(r, 'envelope', 400, 'INVALID_REQUEST');
    }
    expectError(await post(changeStatus, { status: tenK }), 'bare', 400, 'INVALID_REQUEST');
    const search = await call(base, 'GET', `/dr/v1/business/patients/search?mobile=${'9'.repeat(10_000)}`, { headers: auth });
    expectError(search, 'envelope', 400, 'INVALID_REQUEST');
  });

  it('bodies over 1 MB are 413 INVALID_REQUEST, with or without a content-length', async () => {
    const big = 'x'.repeat(1_100_000);
    expectError(await post('/dr/v1/patient', goodPatient({ first_name: big })), 'envelope', 413, 'INVALID_REQUEST');
    expectError(await post(changeStatus, { status: big }), 'bare', 413, 'INVALID_REQUEST');
    expectError(await post(parked, { note: big }), 'bare', 413, 'INVALID_REQUEST');
    // 3 MB of padding, chunked (no content-length): the limit must hold while streaming too.
    const chunk = `"${'y'.repeat(64 * 1024)}",`;
    const chunks = ['{"pad":[', ...Array.from({ length: 48 }, () => chunk), '"end"],"status":"NS"}'];
    const headers = { ...jsonAuth, 'transfer-encoding': 'chunked' };
    expectError(await raw(base, 'POST', '/dr/v1/patient', headers, chunks), 'envelope', 413, 'INVALID_REQUEST');
    expectError(await raw(base, 'POST', changeStatus, headers, chunks), 'bare', 413, 'INVALID_REQUEST');
    // OPTIONS that is not a preflight from an allowed origin: 405 in the family's shape (docs/API.md, CORS), never 500.
    for (const path of ['/dr/v1/patient', changeStatus, '/dr/v1/nowhere', '/api/v1/clinic', '/nowhere']) {
      const r = await call(base, 'OPTIONS', path, { headers: { ...auth, origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expectError(r, path.startsWith('/dr/v1/appointment/') || !path.startsWith('/dr') ? 'plain' : 'envelope', 405, 'METHOD_NOT_ALLOWED');
    }
    const a = await call(base, 'GET', `/dr/v1/appointment/${apptId}`, { headers: auth });
    expect(a.json.data.status).toBe('BK');
  });

  it('long auth headers are 401 UNAUTHORIZED_ACCESS in the dr envelope', async () => {
    const long = 'x'.repeat(8_000);
    const longHeaders: Record<string, string>[] = [{ auth: long }, { authorization: `Bearer ${long}` }, { auth: `${token}${long}` }];
    for (const headers of longHeaders) {
      const s = await call(base, 'GET', '/dr/v1/business/patients/search?mobile=9876543210', { headers });
      expectError(s, 'envelope', 401, 'UNAUTHORIZED_ACCESS');
      const c = await post(changeStatus, { status: 'NS' }, headers);
      expectError(c, 'envelope', 401, 'UNAUTHORIZED_ACCESS'); // every 401 is the envelope, also on appointment routes
    }
    const junk: Record<string, string>[] = [{ auth: "' OR '1'='1" }, { auth: 'null' }, { authorization: 'Bearer' }, { authorization: 'Basic Zm9vOmJhcg==' }];
    for (const headers of junk) {
      expectError(await call(base, 'GET', '/dr/v1/business/patients/search?mobile=9876543210', { headers }), 'envelope', 401, 'UNAUTHORIZED_ACCESS');
    }
  });

  it('a very long appointment id in the path is a documented error in the bare body, with a request id', async () => {
    // Documented outcomes: 400 INVALID_REQUEST (the id is longer than any id can be) or 404 APPOINTMENT_NOT_FOUND.
    for (const len of [129, 1_000, 5_000]) {
      const r = await post(`/dr/v1/appointment/${'a'.repeat(len)}/change-status?partner_id=0`, { status: 'NS' });
      expectError(r, 'bare', [400, 404], ['INVALID_REQUEST', 'APPOINTMENT_NOT_FOUND']);
      const p = await post(`/dr/v1/appointment/${'a'.repeat(len)}/parked`, undefined);
      expectError(p, 'bare', [400, 404], ['INVALID_REQUEST', 'APPOINTMENT_NOT_FOUND']);
    }
  });

  it('a very long patient id in the path is a documented error in the dr envelope, with a request id', async () => {
    for (const len of [65, 200, 5_000]) {
      const r = await call(base, 'GET', `/dr/v1/patient/${'p'.repeat(len)}`, { headers: auth });
      expectError(r, 'envelope', [400, 404], ['INVALID_REQUEST', 'PATIENT_NOT_FOUND']);
    }
  });

  it('an appointment booked with a partner id of the allowed length (up to 128) can be addressed by it', async () => {
    const ws = srv.demo.workspaces[0]!;
    for (const len of [100, 101, 128]) {
      const partnerId = `P${'9'.repeat(len - 1)}`;
      const booked = await post('/dr/v1/appointment', {
        patient_id: ws.patients[0]!.patient_id, scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
        partner_appointment_id: partnerId,
      });
      expect(booked.status, booked.text).toBe(201);
      const got = await call(base, 'GET', `/dr/v1/appointment/${partnerId}?partner_id=1`, { headers: auth });
      expectClean(got);
      expect(got.status, `GET by ${len}-char partner id: ${got.text.slice(0, 200)}`).toBe(200);
      const changed = await post(`/dr/v1/appointment/${partnerId}/change-status?partner_id=1`, { status: 'NS' });
      expectClean(changed);
      expect(changed.status, `change-status by ${len}-char partner id: ${changed.text.slice(0, 200)}`).toBe(200);
      expect(changed.json.data).toMatchObject({ appointment_id: partnerId, status: 'NS', previous_status: 'BK' });
    }
  });

  it('an undecodable path under /dr is a documented dr error with a request id', async () => {
    for (const path of ['/dr/v1/patient/%E0%A4%A', '/dr/v1/appointment/%ZZ/change-status?partner_id=0']) {
      const r = await raw(base, path.includes('change-status') ? 'POST' : 'GET', path, jsonAuth, ['{"status":"NS"}']);
      // Each route family keeps its own error shape: bare for change-status, the envelope elsewhere.
      expectError(r, path.includes('change-status') ? 'bare' : 'envelope', [400], ['INVALID_REQUEST']);
    }
  });

  it('a header block over Node\'s limit gets an answer with a request id and no internals', async () => {
    const r = await call(base, 'GET', '/dr/v1/business/patients/search?mobile=9876543210', { headers: { auth: 'x'.repeat(20_000) } });
    expect([400, 401, 431]).toContain(r.status);
    expectClean(r);
  });

  it('SQL-looking strings are stored and returned verbatim, and the tables survive', async () => {
    const samples = [
      "Robert'); DROP TABLE patients;--",
      '" OR 1=1 --',
      "' OR '1'='1",
      '1; DELETE FROM appointments WHERE 1=1',
      "x' UNION SELECT token_digest FROM auth_tokens --",
      '%_\\%',
      '$1 @id :name ?',
    ];
    for (const s of samples) {
      const mobile = nextMobile();
      const r = await post('/dr/v1/patient', goodPatient({ first_name: s, last_name: s, middle_name: s, mobile }));
      expect(r.status, r.text).toBe(201);
      expectClean(r);
      const id = r.json.data.patient_id as string;
      expect(r.json.data.patient_profile).toMatchObject({ first_name: s, middle_name: s, last_name: s });
      const got = await call(base, 'GET', `/dr/v1/patient/${id}`, { headers: auth });
      expect(got.status).toBe(200);
      expect(got.json.data.patient_profile).toMatchObject({ first_name: s, middle_name: s, last_name: s });
      const found = await call(base, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, { headers: auth });
      expect(found.status).toBe(200);
      expect(found.json.data.profiles.map((p: any) => p.patient_id)).toEqual([id]);
    }
    for (const s of ["1' OR '1'='1", '1;DROP TABLE appointments', '%27%20OR%201=1--']) {
      const enc = encodeURIComponent(s);
      expectError(await post(`/dr/v1/appointment/${enc}/change-status?partner_id=0`, { status: 'NS' }), 'bare', 404, 'APPOINTMENT_NOT_FOUND');
      expectError(await post(`/dr/v1/appointment/${enc}/change-status?partner_id=1`, { status: 'NS' }), 'bare', 404, 'APPOINTMENT_NOT_FOUND');
      expectError(await call(base, 'GET', `/dr/v1/patient/${enc}`, { headers: auth }), 'envelope', 404, 'PATIENT_NOT_FOUND');
      expectError(await call(base, 'GET', `/dr/v1/business/patients/search?mobile=${enc}`, { headers: auth }), 'envelope', 400, 'INVALID_REQUEST');
    }
    const demo = await call(base, 'GET', '/dr/v1/business/patients/search?mobile=9876543210', { headers: auth });
    expect(demo.status).toBe(200);
    expect(demo.json.data.profiles).toHaveLength(2);
  });

  it('unicode, emoji and RTL names are stored verbatim; control and bidi-override characters refused with 400, never a 500', async () => {
    const samples = [
      'Zoë Ångström', 'José Ñúñez', 'प्रिया', 'ஆனந்த்', 'فاطمة', 'שרה', '王小明', 'Ιωάννης',
      '😀', '👨‍👩‍👧‍👦 Family', '🏳️‍🌈', 'e\u0301\u0301\u0301', // combining marks
      '\u202Eevil\u202C', '\u200F\u200Bhidden\u200D', '\u2066isolate\u2069', // bidi overrides, zero-width
      'Nu\u0000ll', 'tab\there', 'line\nbreak', 'bell\u0007', '\u007F', '\uFFFD', '\uFFFF', '\uFEFFbom',
      '😀'.repeat(100), // 100 code points, 200 UTF-16 units
    ];
    const seen: Record<string, number> = {};
    for (const s of samples) {
      const mobile = nextMobile();
      const r = await post('/dr/v1/patient', goodPatient({ first_name: s, last_name: `${s}x`, mobile }));
      seen[r.status] = (seen[r.status] ?? 0) + 1;
      // Controls (C0, DEL, C1) and bidi overrides/isolates are always refused, naming the field.
      if (/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/.test(s)) {
        expect(r.status, JSON.stringify(s)).toBe(400);
        expect(r.json.error.message).toContain('body.first_name');
      }
      // So are the invisible formatting characters in a name (docs/API.md, Text).
      if (/[\u00AD\u061C\u180E\u200B\u200E\u200F\u2060-\u2064\u206A-\u206F\uFEFF\uFFF9-\uFFFB]/.test(s)) {
        expect(r.status, JSON.stringify(s)).toBe(400);
        expect(r.json.error.message).toContain('invisible formatting characters');
      }
      if (r.status === 400) {
        expectError(r, 'envelope', 400, 'INVALID_REQUEST');
        continue;
      }
      expect(r.status, `${JSON.stringify(s)} → ${r.text.slice(0, 200)}`).toBe(201);
      expectClean(r);
      const id = r.json.data.patient_id as string;
      const stored = s.trim() === s ? s : s.trim(); // the service trims surrounding whitespace, nothing else
      expect(r.json.data.patient_profile.first_name, JSON.stringify(s)).toBe(stored);
      const got = await call(base, 'GET', `/dr/v1/patient/${id}`, { headers: auth });
      expect(got.status).toBe(200);
      expect(got.json.data.patient_profile.first_name, JSON.stringify(s)).toBe(stored);
      expect(got.json.data.patient_profile.last_name, JSON.stringify(s)).toBe(`${s}x`.trim());
      const found = await call(base, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, { headers: auth });
      expect(found.status).toBe(200);
      expect(found.json.data.profiles[0].patient_profile.first_name).toBe(stored);
    }
    expect(seen[500]).toBeUndefined();
    expect(seen[201]).toBeGreaterThan(0);
    // 101 code points is over the limit
    expectError(await post('/dr/v1/patient', goodPatient({ first_name: '😀'.repeat(101) })), 'envelope', 400, 'INVALID_REQUEST');
  });

  it('names with lone UTF-16 surrogates are refused with 400, or stored and read back exactly as the 201 said', async () => {
    // JSON.stringify escapes lone surrogates, so they reach the server as \\uD800 escapes: valid JSON, invalid text.
    for (const s of ['\uD800lone', 'lone\uDFFF', 'a\uDBFF\uDBFFb']) {
      const mobile = nextMobile();
      const r = await post('/dr/v1/patient', goodPatient({ first_name: s, mobile }));
      if (r.status === 400) {
        expectError(r, 'envelope', 400, 'INVALID_REQUEST');
        continue;
      }
      expect(r.status, r.text).toBe(201);
      expectClean(r);
      const said = r.json.data.patient_profile.first_name as string;
      const got = await call(base, 'GET', `/dr/v1/patient/${r.json.data.patient_id}`, { headers: auth });
      expect(got.status).toBe(200);
      expect(got.json.data.patient_profile.first_name, `created as ${JSON.stringify(s)}, 201 said ${JSON.stringify(said)}`).toBe(said);
      expect(said).toBe(s);
    }
  });

  it('non-JSON content types are 415 INVALID_REQUEST in the route family\'s shape, forms and text/plain included', async () => {
    const body = JSON.stringify(goodPatient());
    // Forms, text/plain and multipart are what a web page may post cross-site without a CORS preflight.
    const types = [
      'text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x',
      'application/octet-stream', 'image/png', 'text/html', 'application/jsonx', 'json',
    ];
    for (const type of types) {
      const headers = { auth: token, 'content-type': type };
      const p = await call(base, 'POST', '/dr/v1/patient', { headers, rawBody: body });
      expectError(p, 'envelope', 415, 'INVALID_REQUEST');
      const c = await call(base, 'POST', changeStatus, { headers, rawBody: '{"status":"NS"}' });
      expectError(c, 'bare', 415, 'INVALID_REQUEST');
      const s = await call(base, 'POST', '/api/v1/session', { headers: { 'content-type': type }, rawBody: 'username=a&password=b' });
      expectError(s, 'plain', 415, 'INVALID_REQUEST');
    }
    // A form body that would be a valid patient and a valid status change as fields: still refused, nothing made.
    const form = { auth: token, 'content-type': 'application/x-www-form-urlencoded' };
    const mobile = nextMobile();
    const fields = new URLSearchParams({ first_name: 'Form', last_name: 'Post', dob: '1990-01-01', gender: 'F', mobile }).toString();
    expectError(await call(base, 'POST', '/dr/v1/patient', { headers: form, rawBody: fields }), 'envelope', 415, 'INVALID_REQUEST');
    expectError(await call(base, 'POST', changeStatus, { headers: form, rawBody: 'status=NS' }), 'bare', 415, 'INVALID_REQUEST');
    const search = await call(base, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, { headers: auth });
    expect(search.json?.data?.profiles ?? []).toEqual([]);
    // a body with no content type at all
    expectError(await call(base, 'POST', changeStatus, { headers: auth, rawBody: '{"status":"NS"}' }), 'bare', [400, 415], 'INVALID_REQUEST');
    // OPTIONS that is not a preflight from an allowed origin: 405 in the family's shape (docs/API.md, CORS), never 500.
    for (const path of ['/dr/v1/patient', changeStatus, '/dr/v1/nowhere', '/api/v1/clinic', '/nowhere']) {
      const r = await call(base, 'OPTIONS', path, { headers: { ...auth, origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expectError(r, path.startsWith('/dr/v1/appointment/') || !path.startsWith('/dr') ? 'plain' : 'envelope', 405, 'METHOD_NOT_ALLOWED');
    }
    const a = await call(base, 'GET', `/dr/v1/appointment/${apptId}`, { headers: auth });
    expect(a.json.data.status).toBe('BK');
  });

  it('a foreign Host (DNS rebinding) is 421 in the route family\'s shape before any route runs, with or without a valid token', async () => {
    const foreign = `rebind.attacker.example:${new URL(base).port}`;
    const mobile = nextMobile();
    const p = await raw(base, 'POST', '/dr/v1/patient', { ...jsonAuth, host: foreign }, [JSON.stringify(goodPatient({ mobile }))]);
    expectError(p, 'envelope', 421, 'MISDIRECTED_REQUEST');
    const c = await raw(base, 'POST', changeStatus, { ...jsonAuth, host: foreign }, ['{"status":"NS"}']);
    expectError(c, 'bare', 421, 'MISDIRECTED_REQUEST');
    const f = await raw(base, 'POST', '/api/v1/session', { 'content-type': 'application/x-www-form-urlencoded', host: foreign }, ['username=a&password=b']);
    expectError(f, 'plain', 421, 'MISDIRECTED_REQUEST');
    const search = await call(base, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, { headers: auth });
    expect(search.json?.data?.profiles ?? []).toEqual([]);
    // OPTIONS that is not a preflight from an allowed origin: 405 in the family's shape (docs/API.md, CORS), never 500.
    for (const path of ['/dr/v1/patient', changeStatus, '/dr/v1/nowhere', '/api/v1/clinic', '/nowhere']) {
      const r = await call(base, 'OPTIONS', path, { headers: { ...auth, origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expectError(r, path.startsWith('/dr/v1/appointment/') || !path.startsWith('/dr') ? 'plain' : 'envelope', 405, 'METHOD_NOT_ALLOWED');
    }
    const a = await call(base, 'GET', `/dr/v1/appointment/${apptId}`, { headers: auth });
    expect(a.json.data.status).toBe('BK');
  });

  it('methods a path does not have: 500 "Wrong API URL" in the dr envelope under /dr, plain 404/405 elsewhere', async () => {
    const drCases: [string, string][] = [
      ['DELETE', '/dr/v1/patient'], ['PUT', '/dr/v1/patient'], ['GET', '/dr/v1/patient'], ['PATCH', '/dr/v1/patient'],
      ['GET', changeStatus], ['PUT', changeStatus], ['DELETE', changeStatus], ['PATCH', changeStatus],
      ['GET', parked], ['DELETE', parked], ['POST', '/dr/v1/business/patients/search'],
      ['DELETE', `/dr/v1/appointment/${apptId}`], ['POST', '/dr/v2/patient'], ['GET', '/dr'],
    ];
    for (const [method, path] of drCases) {
      const r = await call(base, method, path, { headers: jsonAuth, rawBody: method === 'GET' ? undefined : '{"status":"NS"}' });
      expectError(r, 'envelope', 500, 'SERVER_ERROR');
      expect(r.json.error.message).toBe('Wrong API URL');
    }
    for (const [method, path] of [['DELETE', '/health'], ['POST', '/health'], ['PUT', '/openapi.json'], ['PATCH', '/nowhere'], ['GET', '/../../etc/passwd']] as const) {
      const r = await call(base, method, path, method === 'POST' ? { body: {} } : {});
      expectError(r, 'plain', [404, 405], ['NOT_FOUND', 'METHOD_NOT_ALLOWED']);
    }
    // OPTIONS that is not a preflight from an allowed origin: 405 in the family's shape (docs/API.md, CORS), never 500.
    for (const path of ['/dr/v1/patient', changeStatus, '/dr/v1/nowhere', '/api/v1/clinic', '/nowhere']) {
      const r = await call(base, 'OPTIONS', path, { headers: { ...auth, origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expectError(r, path.startsWith('/dr/v1/appointment/') || !path.startsWith('/dr') ? 'plain' : 'envelope', 405, 'METHOD_NOT_ALLOWED');
    }
    const a = await call(base, 'GET', `/dr/v1/appointment/${apptId}`, { headers: auth });
    expect(a.json.data.status).toBe('BK');
  });

  it('after the barrage the service is healthy and a normal search and create still work', async () => {
    const h = await call(base, 'GET', '/health');
    expect(h.status).toBe(200);
    expect(h.json).toEqual({ status: 'ok', version: '1.0' });
    expectClean(h);
    const s = await call(base, 'GET', '/dr/v1/business/patients/search?mobile=9876543210', { headers: auth });
    expect(s.status).toBe(200);
    expectClean(s);
    expect(s.json.data.profiles.map((p: any) => p.patient_profile.first_name).sort()).toEqual(['Priya', 'Rahul']);
    const mobile = nextMobile();
    const c = await post('/dr/v1/patient', goodPatient({ mobile }));
    expect(c.status).toBe(201);
    const found = await call(base, 'GET', `/dr/v1/business/patients/search?mobile=${mobile}`, { headers: auth });
    expect(found.json.data.profiles).toHaveLength(1);
    const ns = await post(changeStatus, { status: 'NS' });
    expect(ns.status, ns.text).toBe(200);
    expect(ns.json.data).toMatchObject({ status: 'NS', previous_status: 'BK' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The whole pass: every request answered, no 5xx but the planned ones.
    console.info(`hostile-input pass (${db.name}): ${tally.requests} requests, ${tally.unanswered} unanswered, ${tally.unplanned5xx.length} unplanned 5xx`);
    expect(tally.unanswered).toBe(0);
    expect(tally.unplanned5xx).toEqual([]);
  });
});
