import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';
import { noteOperations } from '../notes/operations.js';
import { toolsOf } from './operation-tools.js';
import { SCRIBE_TOOLS } from './scribe-tools.js';
import { CORE_TOOLS, MCP_SERVER_VERSION, type ToolDef, type ToolScope, registerTool } from './tools.js';

export const INSTRUCTIONS = 'Clinic Desk: a small clinic\'s front desk and dictation. You act as the signed-in user, within their '
  + 'role; every call is recorded in the clinic\'s audit log under their name. Patients are found by 10-digit mobile number. '
  + 'Appointment ids come from list_todays_appointments. Scribe sessions run in the background: start one, then fetch its '
  + 'documents until it is completed.';

/** Every tool this endpoint offers, in the order tools/list shows them. */
export const TOOLS = [...CORE_TOOLS, ...SCRIBE_TOOLS, ...toolsOf(noteOperations)] as unknown as ToolDef<z.ZodRawShape, z.ZodRawShape>[];

/** A fresh MCP server for one request, its tools bound to this caller. */
export function buildMcpServer(t: ToolScope) {
  const server = new McpServer({ name: 'clinic-desk', title: 'Clinic Desk', version: MCP_SERVER_VERSION }, { instructions: INSTRUCTIONS });
  for (const def of TOOLS) registerTool(server, t, def);
  return server;
}
