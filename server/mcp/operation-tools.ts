import type { z } from 'zod';
import { type SomeOperation, erased } from '../shared/operation.js';
import type { ToolDef } from './tools.js';

type AnyTool = ToolDef<z.ZodRawShape, z.ZodRawShape>;

/**
 * The MCP tools of declared operations (server/shared/operation.ts) that offer one: the contract from the tool
 * binding, the permission and the audit action of a denial from the operation's guard, and the work through its
 * implementation.
 */
export function toolsOf(ops: Record<string, SomeOperation>): AnyTool[] {
  return Object.values(ops).flatMap((declared): AnyTool[] => {
    const op = erased(declared);
    const { tool, access } = op;
    if (!tool) return [];
    // An assistant acts within the scopes it was given: an operation open to any signed-in caller has none to ask.
    if (access.scope === 'signed-in') throw new Error(`The MCP tool ${tool.name} needs an operation guarded by a scope`);
    return [{
      name: tool.name,
      title: tool.title,
      description: tool.description,
      input: tool.input,
      output: tool.output,
      scope: access.scope,
      deniedAction: access.auditAction,
      readOnly: tool.readOnly,
      idempotent: tool.idempotent,
      run: async (args, { service, ctx }) => tool.toOutput(await op.run({ service, ctx }, tool.toInput(args)), args),
    }];
  });
}
