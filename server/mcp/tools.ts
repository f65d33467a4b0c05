import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Compile } from 'typebox/compile';
import { z } from 'zod';
import { STATUS_NAMES, type Status } from '../appointments/states.js';
import { toDayEntry } from '../appointments/app-api.js';
import type { AppointmentListRow } from '../appointments/store.js';
import { type RequestContext, ROLE_SCOPES, type Scope, can } from '../auth/permissions.js';
import type { AuditEntry } from '../audit/store.js';
import type { AssistantInfo } from '../oidc/service.js';
import type { PatientRow } from '../patients/store.js';
import { CreatePatientBody } from '../patients/schemas.js';
import { fromEntry } from '../patients/app-shapes.js';
import { toEntry } from '../patients/service.js';
import type { Service } from '../service.js';
import { ServiceError } from '../shared/errors.js';
import { type Violation, violationMessage } from '../shared/violations.js';

export const MCP_SERVER_VERSION = '1.0.0';

/** Everything a tool call needs: the service, and who is calling (the signed-in user behind the assistant). */
export interface ToolScope {
  service: Service;
  ctx: RequestContext;
  assistant?: AssistantInfo;
}

type Shape = z.ZodRawShape;
type Out = Record<string, unknown>;

/** A tool refused for a reason the assistant can act on: returned as an error result, never thrown. */
export class ToolError extends Error {
  constructor(readonly code: string, message: string, readonly outcome: AuditEntry['outcome'] = 'invalid') {
    super(message);
  }
}

const outcomeOf = (status: number): AuditEntry['outcome'] =>
  status === 403 ? 'denied' : status === 404 ? 'not_found' : status === 409 ? 'conflict' : status >= 500 ? 'error' : 'invalid';

/** A tool: its contract, the permission it needs, and what it does through the domain services. */
export interface ToolDef<I extends Shape, O extends Shape> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  scope: Scope;
  /** The audit action a permission denial is recorded under (the same as the HTTP route's). */
  deniedAction: string;
  readOnly: boolean;
  idempotent: boolean;
  run: (args: z.infer<z.ZodObject<I>>, t: ToolScope) => Promise<z.infer<z.ZodObject<O>>> | z.infer<z.ZodObject<O>>;
}

export const defineTool = <I extends Shape, O extends Shape>(d: ToolDef<I, O>) => d;

// No structuredContent on an error: clients validate it against the tool's output schema even then.
const errorResult = (code: string, message: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `${code}: ${message}` }],
});

/**
 * Registers `def` on `server`. Each call: the permission check (role, then what the user approved for this
 * assistant), the work through the domain services under the user's RequestContext (so their own audit rows
 * land under the user), and one `mcp.tool_call` audit row naming the tool and the assistant.
 */
export function registerTool<I extends Shape, O extends Shape>(server: McpServer, t: ToolScope, def: ToolDef<I, O>) {
  const { ctx, service } = t;
  const auditCall = (outcome: AuditEntry['outcome']) => service.audit.later(ctx, {
    action: 'mcp.tool_call', resourceType: 'mcp_tool',
    resourceIds: [def.name, ...(t.assistant ? [`client:${t.assistant.clientId}`] : [])], outcome,
  });
  server.registerTool(def.name, {
    title: def.title,
    description: def.description,
    inputSchema: def.input,
    outputSchema: def.output,
    annotations: { title: def.title, readOnlyHint: def.readOnly, destructiveHint: false, idempotentHint: def.idempotent, openWorldHint: false },
  }, (async (args: z.infer<z.ZodObject<I>>): Promise<CallToolResult> => {
    const { caller } = ctx;
    if (!can(caller, def.scope)) {
      service.audit.later(ctx, { action: def.deniedAction, outcome: 'denied' });
      auditCall('denied');
      if (!caller.workspaceActive) return errorResult('FORBIDDEN', 'Your clinic workspace is not active');
      const roleHas = caller.role !== null && ROLE_SCOPES[caller.role].includes(def.scope);
      return errorResult('FORBIDDEN', roleHas
        ? `This assistant was not given the ${def.scope} permission when it was connected; reconnect it and approve that permission`
        : `Your role (${caller.role ?? 'API client'}) does not include the ${def.scope} permission, so this assistant cannot ${def.title.toLowerCase()}`);
    }
    try {
      const out = await def.run(args, t) as Out;
      auditCall('success');
      return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
    } catch (e) {
      if (e instanceof ToolError) {
        auditCall(e.outcome);
        return errorResult(e.code, e.message);
      }
      if (e instanceof ServiceError) {
        auditCall(outcomeOf(e.status));
        if (e.status < 500) return errorResult(e.code, e.message);
      } else auditCall('error');
      // Never an internal message: the request id finds the details in the service's log.
      return errorResult('SERVER_ERROR', `An unexpected error occurred on the server (request ${ctx.requestId})`);
    }
  }) as never);
}

// ---- the tools -----------------------------------------------------------------------------------------------

const Patient = z.object({
  patient_id: z.string(),
  name: z.string(),
  first_name: z.string(),
  middle_name: z.string(),
  last_name: z.string(),
  dob: z.string().describe('YYYY-MM-DD'),
  dob_estimated: z.boolean().describe('true when dob was estimated from an age (1 July of the year; the 15th of the month for an infant)'),
  gender: z.enum(['M', 'F', 'O']),
  mobile: z.string().describe('International form, e.g. +919876543210'),
  email: z.string(),
  allergies: z.array(z.string()).describe("Allergies in the patient's record; [] when none are recorded"),
  created_at: z.string(),
});

export const searchPatients = defineTool({
  name: 'search_patients_by_mobile',
  title: 'Search patients by mobile number',
  description: 'Find the clinic\'s patients registered with a 10-digit mobile number (without country code). Families often '
    + 'share a number, so several patients may come back, newest first. An empty list means nobody is registered with it.',
  input: { mobile: z.string().regex(/^[0-9]{10}$/, 'mobile must be exactly 10 digits, without country code or spaces').describe('Exactly 10 digits, e.g. 9876543210') },
  output: { mobile: z.string(), count: z.number().int(), patients: z.array(Patient) },
  scope: 'patients:read',
  deniedAction: 'patient.read',
  readOnly: true,
  idempotent: true,
  run: async ({ mobile }, { service, ctx }) => {
    const patients = (await service.patients.search(ctx, mobile)).map(toolPatient);
    return { mobile, count: patients.length, patients };
  },
});

// The app's flat patient (patients/app-shapes.ts), named by patient_id as every tool names its ids.
function toolPatient(r: PatientRow): z.infer<typeof Patient> {
  const { id, ...p } = fromEntry(toEntry(r));
  return { patient_id: id, ...p };
}

// The HTTP route's schema checks the arguments, so names, dates and email follow the same rules everywhere.
const registerBody = Compile(CreatePatientBody);

export const registerPatient = defineTool({
  name: 'register_patient',
  title: 'Register a patient',
  description: 'Register a new patient of the clinic. Give the date of birth, or when it is not known an age: age_years (2 or more) '
    + 'or age_months for a baby under 2; the service then stores an estimated date of birth (1 July of the year, the 15th of '
    + 'the month for a baby) and marks it dob_estimated. The mobile must be one the clinic can search: for an Indian clinic 10 '
    + 'digits starting 6-9 (a +91 or 0 in front is fine), or + and the country code for a mobile of another country. A refusal '
    + 'names the field and says what is wrong; PATIENT_ALREADY_EXISTS means the same mobile, name and date of birth is registered.',
  input: {
    first_name: z.string().describe('Given name'),
    middle_name: z.string().optional(),
    last_name: z.string().describe('Family name'),
    dob: z.string().optional().describe('Date of birth, YYYY-MM-DD'),
    age_years: z.number().int().optional().describe('Age in years, instead of dob (2 or more)'),
    age_months: z.number().int().optional().describe('Age in months for a baby under 2, instead of dob'),
    gender: z.enum(['M', 'F', 'O']),
    mobile: z.string().describe('e.g. 9876543210, +91 98765 43210, or +44 7911 123456'),
    email: z.string().optional(),
  },
  output: Patient.shape,
  scope: 'patients:write',
  deniedAction: 'patient.write',
  readOnly: false,
  idempotent: false,
  run: async (args, { service, ctx }) => {
    if (!registerBody.Check(args)) throw new ToolError('INVALID_REQUEST', violationMessage('input', [...registerBody.Errors(args)] as Violation[]));
    return toolPatient(await service.patients.create(ctx, args));
  },
});

const StatusEnum = z.enum(Object.keys(STATUS_NAMES) as [Status, ...Status[]]);

export const listTodaysAppointments = defineTool({
  name: 'list_todays_appointments',
  title: 'List today\'s appointments',
  description: 'The clinic\'s appointments for today (the clinic\'s own time zone), in time order, with each patient\'s name and '
    + 'mobile and the appointment\'s status (BK booked, CK checked in, OG ongoing, PK parked, CM completed, CN cancelled, NS no-show). '
    + 'Pass date (YYYY-MM-DD) for another day.',
  input: { date: z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'date must be YYYY-MM-DD').optional().describe('Defaults to today at the clinic') },
  output: {
    date: z.string(),
    count: z.number().int(),
    appointments: z.array(z.object({
      appointment_id: z.string(),
      partner_appointment_id: z.string().nullable(),
      patient_id: z.string(),
      patient_name: z.string(),
      patient_mobile: z.string(),
      doctor_id: z.string().nullable(),
      scheduled_at: z.string().describe('ISO 8601 UTC'),
      status: StatusEnum,
      status_name: z.string(),
      reason: z.string(),
    })),
  },
  scope: 'appointments:read',
  deniedAction: 'appointment.read',
  readOnly: true,
  idempotent: true,
  run: async ({ date }, { service, ctx }) => {
    if (date !== undefined && Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new ToolError('INVALID_REQUEST', `${date} is not a calendar date`);
    const day = await service.appointments.day(ctx, date);
    const now = service.clock.now();
    const appointments = (day.rows as AppointmentListRow[]).map((row) => {
      const a = toDayEntry(row, now);
      return {
        appointment_id: a.appointment_id, partner_appointment_id: a.partner_appointment_id, patient_id: a.patient_id, patient_name: a.patient_name,
        patient_mobile: a.patient_mobile, doctor_id: a.doctor_id, scheduled_at: a.scheduled_at, status: a.status, status_name: STATUS_NAMES[a.status],
        reason: a.reason,
      };
    });
    return { date: day.date, count: appointments.length, appointments };
  },
});

const AppointmentRef = {
  appointment_id: z.string().min(1).max(128).describe('The appointment\'s id (from list_todays_appointments)'),
  id_type: z.enum(['service', 'partner']).default('service')
    .describe('partner: appointment_id is your own system\'s appointment id (partner_appointment_id)'),
};
const StatusChangeOut = {
  appointment_id: z.string(),
  partner_appointment_id: z.string().nullable(),
  status: StatusEnum,
  previous_status: StatusEnum,
  changed: z.boolean().describe('false when the appointment already had this status (nothing was changed)'),
};

export const parkAppointment = defineTool({
  name: 'park_appointment',
  title: 'Park an appointment',
  description: 'Move an appointment to parked (PK): the patient stepped out and will be seen later. Allowed from booked, checked in '
    + 'and ongoing; parking a parked appointment changes nothing.',
  input: AppointmentRef,
  output: StatusChangeOut,
  scope: 'appointments:write',
  deniedAction: 'appointment.write',
  readOnly: false,
  idempotent: true,
  run: async ({ appointment_id, id_type }, { service, ctx }) => {
    const r = await service.appointments.park(ctx, appointment_id, id_type === 'partner');
    return {
      appointment_id: r.appointment.id, partner_appointment_id: r.appointment.partner_appointment_id, status: r.appointment.status,
      previous_status: r.previous_status, changed: r.changed,
    };
  },
});

export const markNoShow = defineTool({
  name: 'mark_no_show',
  title: 'Mark an appointment as a no-show',
  description: 'Mark an appointment as no-show (NS): the patient did not come. Allowed from booked, checked in and parked.',
  input: AppointmentRef,
  output: StatusChangeOut,
  scope: 'appointments:write',
  deniedAction: 'appointment.write',
  readOnly: false,
  idempotent: true,
  run: async ({ appointment_id, id_type }, { service, ctx }) => {
    const r = await service.appointments.changeStatus(ctx, appointment_id, id_type === 'partner', 'NS');
    return {
      appointment_id: r.appointment.id, partner_appointment_id: r.appointment.partner_appointment_id, status: r.appointment.status,
      previous_status: r.previous_status, changed: r.changed,
    };
  },
});

export const CORE_TOOLS = [searchPatients, registerPatient, listTodaysAppointments, parkAppointment, markNoShow];
