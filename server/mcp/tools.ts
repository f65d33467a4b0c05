import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Compile } from 'typebox/compile';
import { z } from 'zod';
import { appointmentOperations } from '../appointments/operations.js';
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
import { toolsOf } from './operation-tools.js';

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

/** The domains' tools that are not declared as operations yet, then the appointments domain's operations' tools. */
export const CORE_TOOLS = [searchPatients, registerPatient, ...toolsOf(appointmentOperations)];
