import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { appointmentOperations } from '../appointments/operations.js';
import { patientOperations } from '../patients/operations.js';
import { type RequestContext, ROLE_SCOPES, type Scope, can } from '../auth/permissions.js';
import type { AuditEntry } from '../audit/store.js';
import type { AssistantInfo } from '../oidc/service.js';
import type { Service } from '../service.js';
import { ServiceError } from '../shared/errors.js';
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

/** The patients and appointments domains' tools, from their operations' declarations. */
export const CORE_TOOLS = [...toolsOf(patientOperations), ...toolsOf(appointmentOperations)];
