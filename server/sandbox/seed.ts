import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Status } from '../appointments/states.js';
import { ROLES, type RequestContext, type Role, type Scope } from '../auth/permissions.js';
import type { Service } from '../service.js';
import { localDate, wallClockToInstant } from '../shared/time.js';

/**
 * The sandbox's synthetic clinic (docs/API.md, Sandbox): one clinic's ordinary day, so an integration meets what
 * it will meet live. Users of every role and three doctors; families sharing a mobile; today's appointments in
 * every state with their waiting-room tokens, and tomorrow's booked; an API key and a client with every API scope.
 * Names are invented; mobiles follow the Indian rule (10 digits, 6-9 first) in a 90000 series.
 */

export const SANDBOX_CREDENTIALS_FILE = 'sandbox-credentials.json';

interface SandboxUser { user_id: string; username: string; password: string; auth_token: string }
export interface SandboxCredentials {
  environment: 'sandbox';
  base_url: string;
  seeded_at: string;
  workspace_id: string;
  name: string;
  api_key: string;
  client_id: string;
  client_secret: string;
  /** One user per role; `doctor` is the first of `doctors`. */
  users: Record<Role, SandboxUser>;
  doctors: SandboxUser[];
  patients: { patient_id: string; mobile: string; first_name: string; last_name: string }[];
  appointments: {
    appointment_id: string; partner_appointment_id: string; patient_id: string; doctor_id: string;
    day: 'today' | 'tomorrow'; scheduled_at: string; status: Status;
  }[];
}

const CLIENT_SCOPES: Scope[] = ['patients:read', 'patients:write', 'appointments:read', 'appointments:write', 'notifications', 'webhooks', 'scribe'];

const DOCTORS = [['dr.mehta', 'Dr. Asha Mehta'], ['dr.rao', 'Dr. Vinod Rao'], ['dr.khan', 'Dr. Sameer Khan']] as const;

// [first, middle, last, dob, gender, mobile]: rows sharing a mobile are a family on one phone.
const PATIENTS: [string, string, string, string, 'M' | 'F' | 'O', string][] = [
  ['Meera', '', 'Nair', '1984-06-12', 'F', '9000012345'],
  ['Arjun', '', 'Nair', '1981-02-03', 'M', '9000012345'],
  ['Diya', '', 'Nair', '2016-10-28', 'F', '9000012345'],
  ['Suresh', 'Kumar', 'Patel', '1959-08-19', 'M', '9000023456'],
  ['Lakshmi', '', 'Patel', '1962-12-01', 'F', '9000023456'],
  ['Farhan', '', 'Qureshi', '1993-04-07', 'M', '8000034567'],
  ['Neha', '', 'Joshi', '1990-09-15', 'F', '7000045678'],
  ['Gurpreet', 'Singh', 'Sandhu', '1975-01-22', 'M', '9000056789'],
  ['Anjali', '', 'Desai', '2001-03-30', 'F', '6000067890'],
  ['Ravi', '', 'Menon', '1948-11-11', 'M', '9000078901'],
  ['Pooja', '', 'Bhat', '1987-07-04', 'F', '8000089012'],
  ['Thomas', '', 'Mathew', '1970-05-26', 'M', '9000090123'],
];

// Today: [patient index, doctor index, hour, minute, the state it is left in]. Tomorrow's are all booked.
const TODAY: [number, number, number, number, Status][] = [
  [0, 0, 9, 0, 'CM'], [3, 0, 9, 15, 'CM'], [5, 0, 9, 30, 'OG'], [6, 0, 9, 45, 'CK'], [7, 0, 10, 0, 'BK'], [9, 0, 10, 15, 'BK'],
  [1, 1, 9, 0, 'NS'], [4, 1, 9, 15, 'CM'], [8, 1, 9, 30, 'PK'], [10, 1, 9, 45, 'CK'], [2, 1, 10, 30, 'BK'],
  [11, 2, 9, 0, 'CN'], [6, 2, 11, 0, 'BK'], [3, 2, 11, 15, 'BK'],
];
const TOMORROW: [number, number, number, number][] = [
  [0, 0, 9, 0], [5, 0, 9, 15], [7, 1, 9, 0], [8, 1, 9, 30], [10, 2, 10, 0], [11, 2, 10, 15],
];

// How each state is reached through the state machine (states.ts), so history, tokens and audit are as live.
const PATH: Record<Status, Exclude<Status, 'BK'>[]> = {
  BK: [], CK: ['CK'], OG: ['CK', 'OG'], PK: ['CK', 'PK'], CM: ['CK', 'OG', 'CM'], CN: ['CN'], NS: ['NS'],
};

const password = () => randomBytes(12).toString('base64url');

/** Seeds an empty sandbox service (environment sandbox, so every credential made here carries `_test_`). */
export async function seedSandbox(service: Service, baseUrl: string): Promise<SandboxCredentials> {
  const { auth, patients, appointments, clock } = service;
  const ws = await auth.createWorkspace({ name: 'Sandbox Clinic (synthetic data)', country: 'IN', timezone: 'Asia/Kolkata' });
  const user = async (username: string, role: Role, displayName: string): Promise<SandboxUser> => {
    const pw = password();
    const row = await auth.createUser(ws.id, { username, password: pw, role, displayName });
    return { user_id: row.id, username, password: pw, auth_token: await auth.issueAuthToken(row.id, 'sandbox seed') };
  };
  const doctors: SandboxUser[] = [];
  for (const [username, name] of DOCTORS) doctors.push(await user(`${username}@sandbox`, 'doctor', name));
  const users = {} as Record<Role, SandboxUser>;
  for (const role of ROLES) users[role] = role === 'doctor' ? doctors[0]! : await user(`${role}@sandbox`, role, `Sandbox ${role}`);
  const client = await auth.createApiClient(ws.id, 'Sandbox integration', CLIENT_SCOPES);
  const api_key = await auth.createApiKey(ws.id, 'sandbox');

  const ctx: RequestContext = { caller: (await auth.authenticateToken(users.admin.auth_token))!, ip: null, requestId: 'sandbox-seed' };
  const created: SandboxCredentials['patients'] = [];
  for (const [first_name, middle_name, last_name, dob, gender, mobile] of PATIENTS) {
    const row = await patients.create(ctx, { first_name, middle_name, last_name, dob, gender, mobile: `+91${mobile}` });
    created.push({ patient_id: row.id, mobile, first_name, last_name });
  }

  const today = localDate(clock.now(), ws.timezone);
  const tomorrow = localDate(new Date(clock.now().getTime() + 24 * 3600_000), ws.timezone);
  const book = async (day: 'today' | 'tomorrow', n: number, [p, d, hour, minute]: readonly [number, number, number, number, ...unknown[]]) => {
    const at = wallClockToInstant(day === 'today' ? today : tomorrow, hour, minute, ws.timezone);
    const partner = `SBX-${day === 'today' ? 'T' : 'M'}${String(n + 1).padStart(3, '0')}`;
    const { appointment } = await appointments.book(ctx, {
      patient_id: created[p]!.patient_id, scheduled_at: at.toISOString(), partner_appointment_id: partner, doctor_id: doctors[d]!.user_id,
      reason: 'Consultation',
    }, { allowPast: true });
    return { appointment_id: appointment.id, partner_appointment_id: partner, patient_id: appointment.patient_id, doctor_id: doctors[d]!.user_id, day, scheduled_at: appointment.scheduled_at };
  };
  const booked: SandboxCredentials['appointments'] = [];
  for (const [n, plan] of TODAY.entries()) {
    const a = await book('today', n, plan);
    for (const to of PATH[plan[4]]) {
      if (to === 'PK') await appointments.park(ctx, a.appointment_id, false);
      else await appointments.changeStatus(ctx, a.appointment_id, false, to);
    }
    booked.push({ ...a, status: plan[4] });
  }
  for (const [n, plan] of TOMORROW.entries()) booked.push({ ...(await book('tomorrow', n, plan)), status: 'BK' });

  return {
    environment: 'sandbox', base_url: baseUrl, seeded_at: clock.now().toISOString(), workspace_id: ws.id, name: ws.name,
    api_key, client_id: client.client_id, client_secret: client.client_secret, users, doctors, patients: created, appointments: booked,
  };
}

export function writeSandboxCredentials(dir: string, creds: SandboxCredentials) {
  const file = join(dir, SANDBOX_CREDENTIALS_FILE);
  writeFileSync(file, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function readSandboxCredentials(dir: string): SandboxCredentials | null {
  const file = join(dir, SANDBOX_CREDENTIALS_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SandboxCredentials) : null;
}
