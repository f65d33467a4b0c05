import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth } from '../helpers/dr.js';
import { call, type RunningServer, startServer } from '../helpers/server.js';

/**
 * Small input gaps (issue 26, item 8): invisible formatting characters in names are refused, and a booking further
 * ahead than the horizon (two years by default, configurable) is refused with a sentence.
 */
let srv: RunningServer;
beforeAll(async () => {
  // The service's default horizon (the test helper's servers otherwise take bookings a century ahead).
  srv = await startServer({ http: { ui: false }, appointments: {} });
});
afterAll(() => srv?.close());

const INVISIBLE = { 'zero-width space': '\u200B', 'byte order mark': '\uFEFF', 'soft hyphen': '\u00AD', 'word joiner': '\u2060', 'left-to-right mark': '\u200E' };
let seq = 0;
const mobile = () => `98${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(5, '0')}`;

describe('invisible formatting characters in names', () => {
  it('are refused on every name field with a sentence that names them', async () => {
    const ws = srv.demo.workspaces[0]!;
    const reception = auth(ws.users.reception.auth_token);
    const admin = auth(ws.users.admin.auth_token);
    for (const [what, ch] of Object.entries(INVISIBLE)) {
      const name = `Ra${ch}vi`;
      const attempts: [string, string, Record<string, string>, unknown][] = [
        ['POST', '/dr/v1/patient', reception, { first_name: name, last_name: 'Kumar', mobile: mobile(), gender: 'M', age_years: 30 }],
        ['POST', '/dr/v1/patient', reception, { first_name: 'Ravi', middle_name: name, last_name: 'Kumar', mobile: mobile(), gender: 'M', age_years: 30 }],
        ['POST', '/dr/v1/patient', reception, { first_name: 'Ravi', last_name: name, mobile: mobile(), gender: 'M', age_years: 30 }],
        ['PATCH', `/dr/v1/patient/${ws.patients[0]!.patient_id}`, reception, { first_name: name }],
        ['POST', '/api/v1/users', admin, { username: `u${++seq}`, password: 'correct horse', role: 'reception', display_name: name }],
        ['POST', '/api/v1/api-clients', admin, { name, scopes: ['patients:read'] }],
        ['POST', '/api/v1/api-keys', admin, { label: name }],
      ];
      for (const [method, path, headers, body] of attempts) {
        const res = await call(srv.baseUrl, method, path, { headers, body });
        expect({ what, method, path, status: res.status }).toEqual({ what, method, path, status: 400 });
        expect(res.text).toContain('invisible formatting characters');
      }
    }
    // Nothing was stored under a look-alike name.
    const names = (await srv.service.auth.users(ws.workspace_id)).map((u) => u.display_name);
    expect(names.some((n) => /[\u200B\uFEFF\u00AD\u2060\u200E]/.test(n))).toBe(false);
  });

  it('keeps the zero-width joiner and non-joiner, which Indic scripts spell names with', async () => {
    const ws = srv.demo.workspaces[0]!;
    const res = await call(srv.baseUrl, 'POST', '/dr/v1/patient', {
      headers: auth(ws.users.reception.auth_token),
      body: { first_name: 'അന്\u200Dവര്\u200D', last_name: 'क्\u200Cष', mobile: mobile(), gender: 'M', age_years: 40 },
    });
    expect(res.status, res.text).toBe(201);
  });
});

describe('the booking horizon', () => {
  const DAY = 86_400_000;
  const bookAt = (s: RunningServer, scheduled_at: string) => {
    const ws = s.demo.workspaces[0]!;
    return call(s.baseUrl, 'POST', '/dr/v1/appointment', {
      headers: auth(ws.users.reception.auth_token),
      body: { patient_id: ws.patients[1]!.patient_id, scheduled_at, partner_appointment_id: `H-${process.pid}-${++seq}` },
    });
  };

  it('refuses a booking more than two years ahead with a sentence, and takes one just inside', async () => {
    const far = await bookAt(srv, '9999-12-31T23:59:59.999Z');
    expect(far.status).toBe(400);
    expect(far.json).toMatchObject({ success: false, error: { code: 'TIME_TOO_FAR_AHEAD', message: 'Appointments can be booked at most 730 days ahead. Check the date, or pick one within that time' } });
    expect((await bookAt(srv, new Date(Date.now() + 731 * DAY).toISOString())).status).toBe(400);
    const inside = await bookAt(srv, new Date(Date.now() + 729 * DAY).toISOString());
    expect(inside.status, inside.text).toBe(201);
  });

  it('is configurable', async () => {
    const short = await startServer({ http: { ui: false }, appointments: { horizonDays: 30 } });
    try {
      const res = await bookAt(short, new Date(Date.now() + 31 * DAY).toISOString());
      expect(res.status).toBe(400);
      expect(res.json.error.message).toMatch(/at most 30 days ahead/);
      expect((await bookAt(short, new Date(Date.now() + 29 * DAY).toISOString())).status).toBe(201);
    } finally {
      await short.close();
    }
  });
});
