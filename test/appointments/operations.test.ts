import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_ROUTES } from '../../preload/app-methods.js';
import { OPERATIONS } from '../../server/app-api.js';
import { browserRoute, erased } from '../../server/shared/operation.js';
import { auth, bearer, expectDrOk } from '../helpers/dr.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';

/**
 * Operations declared once (server/shared/operation.ts): what a browser calls for an app method whose public route
 * answers in another shape (POST /api/v1/app/<name>), and the generated description of the ones it calls on their
 * public route. The routes, app methods and MCP tools made from the declarations are covered by the appointments,
 * ipc, mcp and openapi suites, which did not change with them.
 */
describe('operations', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer();
  });
  afterAll(() => srv.close());

  const ws = () => srv.demo.workspaces[0]!;
  const app = (name: string, args: unknown, headers: Record<string, string> = bearer(ws().users.reception.auth_token)) =>
    call(srv.baseUrl, 'POST', `/api/v1/app/${name}`, { headers, body: args });
  let seq = 0;
  async function booked() {
    const res = await call(srv.baseUrl, 'POST', '/dr/v1/appointment', {
      headers: auth(ws().users.reception.auth_token),
      body: { patient_id: ws().patients[0]!.patient_id, scheduled_at: new Date(Date.UTC(2032, 2, 1 + (++seq), 4)).toISOString() },
    });
    return (expectDrOk(res, 201) as { appointment_id: string }).appointment_id;
  }

  it('parks in one call and answers the app\'s status change, previous status included, as IPC does', async () => {
    const id = await booked();
    const res = await app('parkAppointment', [id]);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ value: { appointment_id: id, status: 'PK', previous_status: 'BK', token: null } });
    const again = await app('parkAppointment', [id]);
    expect(again.json.value).toMatchObject({ status: 'PK', previous_status: 'PK' });
  });

  it('books and lists the doctors in the app\'s shapes (no status history, no wrapper)', async () => {
    const res = await app('bookAppointment', [{ patient_id: ws().patients[1]!.patient_id, scheduled_at: '2032-06-01T05:00:00.000Z' }]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.value).toMatchObject({ status: 'BK', scheduled_at: '2032-06-01T05:00:00.000Z' });
    expect(res.json.value).not.toHaveProperty('status_history');
    const doctors = await app('doctors', []);
    expect(doctors.status, doctors.text).toBe(200);
    expect(doctors.json.value.map((d: { role: string }) => d.role)).toContain('doctor');
  });

  it('checks the arguments as IPC does, in words, and refuses extra ones', async () => {
    const bad = await app('parkAppointment', [42]);
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_REQUEST');
    expect(bad.json.error.message).toMatch(/appointmentId/);
    const extra = await app('parkAppointment', ['a', 'b']);
    expect(extra.status).toBe(400);
    expect(extra.json.error.message).toBe('parkAppointment takes 1 argument(s), not 2');
    const notArray = await app('parkAppointment', { appointment_id: 'x' });
    expect(notArray.status).toBe(400);
  });

  it('needs a caller, the operation\'s scope and the caller\'s own clinic', async () => {
    const id = await booked();
    expect((await app('parkAppointment', [id], {})).status).toBe(401);
    const display = await app('parkAppointment', [id], bearer(ws().users.display.auth_token));
    expect(display.status).toBe(403);
    // The same refusal as the public route's, before the body is read: a bad body from the display is still 403.
    expect((await app('parkAppointment', 'not json at all', bearer(ws().users.display.auth_token))).status).toBe(403);
    const other = await app('parkAppointment', [id], bearer(srv.demo.workspaces[1]!.users.reception.auth_token));
    expect(other.status).toBe(404);
    expect(other.json.error.code).toBe('APPOINTMENT_NOT_FOUND');
  });

  it('reads one appointment\'s status history (the operation added as docs/ARCHITECTURE.md\'s example), in the clinic only', async () => {
    const id = await booked();
    await app('parkAppointment', [id]);
    const res = await app('appointmentHistory', [id]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.value.map((h: { from_status: string | null; to_status: string }) => [h.from_status, h.to_status])).toEqual([[null, 'BK'], ['BK', 'PK']]);
    expect((await app('appointmentHistory', [id], bearer(ws().users.display.auth_token))).status).toBe(403);
    expect((await app('appointmentHistory', [id], bearer(srv.demo.workspaces[1]!.users.reception.auth_token))).status).toBe(404);
  });

  it('reads and corrects a patient in the app\'s flat shape, and keeps the admins\' list to admins', async () => {
    const p = ws().patients[2]!;
    const got = await app('getPatient', [p.patient_id]);
    expect(got.status, got.text).toBe(200);
    expect(got.json.value).toMatchObject({ id: p.patient_id });
    expect(got.json.value).not.toHaveProperty('patient_profile');
    const upd = await app('updatePatient', [p.patient_id, { email: 'ops@example.com' }]);
    expect(upd.json.value).toMatchObject({ id: p.patient_id, email: 'ops@example.com' });
    const refused = await app('mobileReview', []);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('FORBIDDEN');
    const review = await app('mobileReview', [], bearer(ws().users.admin.auth_token));
    expect(review.status, review.text).toBe(200);
    expect(review.json.value).toMatchObject({ total: expect.any(Number), patients: expect.any(Array) });
  });

  it('offers no app route for a method a browser calls on its public route, or as the transport writes it', async () => {
    expect((await app('dayAppointments', [])).status).toBe(404);
    expect((await app('searchPatients', ['9876543210'])).status).toBe(404);
    // The desktop app's sandbox is its own to turn on: a browser, an admin's included, has no way in (sandbox/operations.ts).
    expect((await app('setSandboxEnabled', [true], bearer(ws().users.admin.auth_token))).status).toBe(404);
  });

  it('the generated browser routes are the declarations\' (npx tsx scripts/app-methods.ts is not stale)', () => {
    const fromDeclarations = Object.fromEntries(Object.entries(OPERATIONS).flatMap(([name, op]) => {
      const r = browserRoute(erased(op));
      return r ? [[name, r]] : [];
    }));
    expect(OPERATION_ROUTES).toEqual(fromDeclarations);
    expect(OPERATION_ROUTES.setAppointmentStatus).toEqual({
      method: 'POST', url: '/dr/v1/appointment/:appointment_id/change-status', query: { partner_id: '0' },
      args: [{ in: 'path', name: 'appointment_id' }, { in: 'body', name: 'status' }], dr: true,
    });
  });
});
