import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestContext, Scope } from '../auth/permissions.js';
import { ROLES, type Role } from '../auth/permissions.js';
import type { Service } from '../service.js';
import { localDate, wallClockToInstant } from '../shared/time.js';

export const demoCredentialsFile = (dataDir: string) => join(dataDir, 'demo-credentials.json');

interface DemoUser { username: string; password: string; auth_token: string }
export interface DemoWorkspace {
  workspace_id: string;
  name: string;
  api_key: string;
  client_id: string;
  client_secret: string;
  limited_client: { client_id: string; client_secret: string };
  users: Record<Role, DemoUser>;
  patients: { patient_id: string; mobile: string; first_name: string; last_name: string }[];
  appointments: { appointment_id: string; partner_appointment_id: string; patient_id: string; status: string }[];
}
export interface DemoCredentials { base_url: string; workspaces: DemoWorkspace[] }

const FULL_CLIENT_SCOPES: Scope[] = ['patients:read', 'patients:write', 'appointments:read', 'appointments:write', 'notifications', 'webhooks', 'scribe'];

interface Plan {
  name: string;
  slug: string;
  country: string;
  timezone: string;
  mobilePrefix: string;
  patients: [first: string, middle: string, last: string, dob: string, gender: 'M' | 'F' | 'O', mobileSuffix: string][];
}

// Mobiles are per-workspace: the two clinics share no numbers, so isolation tests can tell them apart.
const PLANS: Plan[] = [
  {
    name: 'Sunrise Family Clinic', slug: 'sunrise', country: 'IN', timezone: 'Asia/Kolkata', mobilePrefix: '98765',
    patients: [
      ['Priya', '', 'Sharma', '1988-03-14', 'F', '43210'],
      ['Rahul', 'Kumar', 'Sharma', '1985-11-02', 'M', '43210'],
      ['Ananya', '', 'Iyer', '1999-07-21', 'F', '01234'],
      ['Mohan', 'Lal', 'Gupta', '1956-01-30', 'M', '11223'],
    ],
  },
  {
    name: 'Lakeview Medical Centre', slug: 'lakeview', country: 'IN', timezone: 'Asia/Kolkata', mobilePrefix: '91234',
    patients: [
      ['Fatima', '', 'Shaikh', '1979-05-09', 'F', '56789'],
      ['Imran', '', 'Shaikh', '1977-12-17', 'M', '56789'],
      ['Kavya', '', 'Reddy', '2012-09-03', 'F', '00001'],
      ['Vikram', 'Singh', 'Gill', '1968-04-25', 'M', '77665'],
    ],
  },
];

const password = () => randomBytes(12).toString('base64url');

async function createDemoWorkspace(service: Service, plan: Plan, index: number): Promise<DemoWorkspace> {
  const { auth, patients, appointments, clock } = service;
  const ws = await auth.createWorkspace({ name: plan.name, country: plan.country, timezone: plan.timezone });
  const users = {} as Record<Role, DemoUser>;
  const ids = {} as Record<Role, string>;
  // Every role, the waiting-room display included: users is a Record<Role, …>, so a role added later gets its demo user too.
  for (const role of ROLES) {
    const username = `${role}@${plan.slug}`;
    const pw = password();
    const user = await auth.createUser(ws.id, { username, password: pw, role, displayName: `${plan.name} ${role}` });
    ids[role] = user.id;
    users[role] = { username, password: pw, auth_token: await auth.issueAuthToken(user.id, 'demo') };
  }
  const client = await auth.createApiClient(ws.id, 'Demo integration', FULL_CLIENT_SCOPES);
  const limited = await auth.createApiClient(ws.id, 'Demo scribe-only integration', ['scribe']);
  const api_key = await auth.createApiKey(ws.id, 'demo');

  const caller = (await auth.authenticateToken(users.reception.auth_token))!;
  const ctx: RequestContext = { caller, ip: null, requestId: 'demo-setup' };
  const created = [];
  for (const [first_name, middle_name, last_name, dob, gender, suffix] of plan.patients) {
    const row = await patients.create(ctx, { first_name, middle_name, last_name, dob, gender, mobile: `+91${plan.mobilePrefix}${suffix}` });
    created.push({ patient_id: row.id, mobile: `${plan.mobilePrefix}${suffix}`, first_name, last_name });
  }

  const today = localDate(clock.now(), plan.timezone);
  const booked = [];
  for (let i = 0; i < 6; i++) {
    const patient = created[i % created.length]!;
    const at = wallClockToInstant(today, 9 + Math.floor(i / 2), (i % 2) * 30, plan.timezone);
    const partnerId = `EMR-${index + 1}${String(i + 1).padStart(3, '0')}`;
    const { appointment } = await appointments.book(ctx, {
      patient_id: patient.patient_id, scheduled_at: at.toISOString(), partner_appointment_id: partnerId, doctor_id: ids.doctor,
      reason: 'Consultation',
    }, { allowPast: true });
    booked.push({ appointment_id: appointment.id, partner_appointment_id: partnerId, patient_id: patient.patient_id, status: appointment.status });
  }

  return {
    workspace_id: ws.id, name: ws.name, api_key, client_id: client.client_id, client_secret: client.client_secret,
    limited_client: { client_id: limited.client_id, client_secret: limited.client_secret },
    users, patients: created, appointments: booked,
  };
}

function write(file: string, creds: DemoCredentials) {
  writeFileSync(file, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The demo's credentials file of a data folder, or null when the demo was never created there. */
export function readDemoCredentials(dataDir: string): DemoCredentials | null {
  const file = demoCredentialsFile(dataDir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials) : null;
}

/**
 * Creates the two demo clinics on first start and writes their credentials (plain secrets: demo only, file
 * mode 0600). Later starts keep the data and only correct base_url. Returns null when the database already
 * holds clinics that are not the demo's.
 */
export async function ensureDemo(service: Service, baseUrl: string): Promise<DemoCredentials | null> {
  const file = demoCredentialsFile(service.dataDir);
  const existing = readDemoCredentials(service.dataDir);
  if (existing) {
    if (existing.base_url !== baseUrl) write(file, { ...existing, base_url: baseUrl });
    return { ...existing, base_url: baseUrl };
  }
  if ((await service.auth.workspaces()).length > 0) return null;
  const workspaces: DemoWorkspace[] = [];
  for (const [i, plan] of PLANS.entries()) workspaces.push(await createDemoWorkspace(service, plan, i));
  const creds = { base_url: baseUrl, workspaces };
  write(file, creds);
  return creds;
}
