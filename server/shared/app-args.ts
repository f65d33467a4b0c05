import { Compile } from 'typebox/compile';
import type { ArgSpec } from './app-method.js';
import { ServiceError } from './errors.js';
import { type Violation, violationMessage } from './violations.js';

/**
 * An app method's arguments, each validated with the schema its declaration gives (its HTTP route's): by main's IPC
 * handlers and by the browser's POST /api/v1/app/<name> alike.
 */
export function compileArgs(specs: readonly ArgSpec[]) {
  return specs.map((spec) => ({ ...spec, compiled: Compile(spec.schema) }));
}

export function checkArgs(method: string, specs: ReturnType<typeof compileArgs>, args: unknown[]) {
  if (args.length > specs.length) throw new ServiceError(400, 'INVALID_REQUEST', `${method} takes ${specs.length} argument(s), not ${args.length}`);
  specs.forEach((spec, i) => {
    if (spec.optional && args[i] === undefined) return;
    if (spec.compiled.Check(args[i])) return;
    // In words, as the HTTP errors say it (server/shared/violations.ts).
    throw new ServiceError(400, 'INVALID_REQUEST', violationMessage(spec.name, [...spec.compiled.Errors(args[i])] as Violation[]));
  });
}
