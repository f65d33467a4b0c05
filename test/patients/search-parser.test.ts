import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnrecognisedSearchResult, parsePatientSearch } from '../../sdk/patient-search.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';

describe('client-side parser of patient search results', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer();
  });
  afterAll(() => srv.close());

  it('reads the data.profiles shape this service returns', async () => {
    const ws = srv.demo.workspaces[0]!;
    const family = ws.patients.filter((p) => ws.patients.filter((q) => q.mobile === p.mobile).length > 1);
    const res = await call(srv.baseUrl, 'GET', `/dr/v1/business/patients/search?mobile=${family[0]!.mobile}`, {
      headers: { auth: ws.users.reception.auth_token },
    });
    expect(res.status).toBe(200);
    const matches = parsePatientSearch(res.json);
    expect(matches.map((m) => m.patient_id).sort()).toEqual(family.map((p) => p.patient_id).sort());
    for (const m of matches) {
      expect(m.mobile).toBe(`+91${family[0]!.mobile}`);
      expect(m.gender).toMatch(/^[MFO]$/);
      expect(m.clinic_id).toBeNull();
    }
  });

  it('reads the declared data.patients shape (gen, clinic_id, is_recent, email)', () => {
    const body = {
      data: {
        patients: [{
          patient_id: 'p-1', name: 'Asha Devi Rao', clinic_id: 'c-9', is_recent: true,
          patient_profile: {
            patient_id: 'p-1', first_name: 'Asha', middle_name: 'Devi', last_name: 'Rao', dob: '1990-02-03',
            email: 'asha@example.org', gen: 'F', mobile: '+919800000001', created_at: '2026-01-02T03:04:05.678Z',
          },
        }],
      },
      status_code: 200,
      success: true,
    };
    expect(parsePatientSearch(body)).toEqual([{
      patient_id: 'p-1', name: 'Asha Devi Rao', first_name: 'Asha', middle_name: 'Devi', last_name: 'Rao',
      dob: '1990-02-03', gender: 'F', mobile: '+919800000001', email: 'asha@example.org',
      created_at: '2026-01-02T03:04:05.678Z', clinic_id: 'c-9', is_recent: true,
    }]);
  });

  it('refuses a body in neither shape', () => {
    expect(() => parsePatientSearch({ data: { people: [] } })).toThrow(UnrecognisedSearchResult);
    expect(() => parsePatientSearch({ data: { patients: [{ name: 'x' }] } })).toThrow(UnrecognisedSearchResult);
  });
});
