import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchema, HTTPMethods, RawRequestDefaultExpression, RawServerDefault, RouteGenericInterface } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { z } from 'zod';
import type { RequestContext, Scope } from '../auth/permissions.js';
import type { ErrorStyle } from '../http/errors.js';
import type { Service } from '../service.js';
import type { AppHost, AppMethod, ArgSpec, ArgValues } from './app-method.js';

/**
 * How an operation is declared: once, beside its domain (e.g. server/appointments/operations.ts), with the access it
 * needs, its implementation over the domain services, and how each edge that offers it maps onto that one
 * implementation. From the declaration come its HTTP route (server/http/operation-routes.ts), its app method (IPC,
 * the preload, and the browser's transport through POST /api/v1/app/<name>) and its MCP tool
 * (server/mcp/operation-tools.ts). docs/ARCHITECTURE.md, "How to add an operation".
 */

/**
 * The access an operation needs, one scope model for every edge: the scope, and how the public route family refuses a
 * caller without it (its error code) and records the refusal (its audit action, also the MCP tool's).
 */
export interface Guard {
  scope: Scope;
  deniedCode: string;
  auditAction: string;
  also?: AlsoCheck;
}
/**
 * A check of the caller beyond the scope (a note is written by a doctor alone; a profile is the user's own or an
 * admin's), throwing the refusal: made with the scope, before a route reads the body, so it sees the route's path
 * parameters alone (none at the app route). The implementation's own rule still holds at every edge.
 */
export type AlsoCheck = (call: OperationCall, path: Readonly<Record<string, string | undefined>>) => void;
/**
 * Any signed-in caller, where what they may reach is the caller's own (their profile, their connected assistants): the
 * `also` check and the implementation decide. No scope to refuse, so no refusal of the route family's.
 */
export interface SignedInGuard {
  scope: 'signed-in';
  also?: AlsoCheck;
}
export const guard = (scope: Scope, refusal: { code: string; audit: string }): Guard => ({ scope, deniedCode: refusal.code, auditAction: refusal.audit });
export const signedIn = (also?: AlsoCheck): SignedInGuard => (also ? { scope: 'signed-in', also } : { scope: 'signed-in' });

/** What an implementation gets: the service and who is calling (always a signed-in caller, holding the guard's scope if it names one). */
export interface OperationCall {
  service: Service;
  ctx: RequestContext;
  /**
   * The app process's host (server/shared/app-method.ts), when the desktop app calls over IPC: what it keeps on this
   * computer (the recordings), prints, and its facts. Absent on every HTTP edge, where a browser's transport does
   * that work itself (`inTransport`).
   */
  host?: AppHost;
  /** Reports progress to the app's caller, for an app binding that declares `progress` (IPC only). */
  progress?(p: unknown): void;
}

/** A route's request, typed from its schema as Fastify's TypeBox provider types it. */
export type RouteRequest<S extends FastifySchema> = FastifyRequest<RouteGenericInterface, RawServerDefault, RawRequestDefaultExpression, S, TypeBoxTypeProvider>;

/**
 * How an operation is offered as a public HTTP route, where the interface fixes its shape: path, schema (the OpenAPI
 * operation), error style, the request's fields as the implementation's input (partner ids included), and the answer.
 */
export interface RouteBinding<I, O, S extends FastifySchema> {
  method: HTTPMethods;
  url: string;
  errors: ErrorStyle;
  schema: S;
  input(request: RouteRequest<S>): I;
  status: number;
  /** Where the outcome decides the success's status (a download started, 202, or the model there already, 200). */
  statusOf?(out: O): number;
  /** The answer's headers, where the interface names them (the FHIR export's content type, no-store on a secret shown once). */
  headers?: Record<string, string>;
  /** The answer's data: in the dr envelope on a dr route, the body itself otherwise. Without it the answer is empty. */
  body?(out: O, request: RouteRequest<S>): unknown;
  /**
   * An everyday refusal the interface answers as it stands (endpoint 1's 404 for a number nobody has), instead of
   * the success: not thrown through the error handler, whose Error and stack cost as much as a search.
   */
  refuse?(out: O): { status: number; body: unknown } | null;
}

/** How an operation is offered to the app (window.clinic): its arguments and result, as an app method declares them. */
export interface AppBinding<I, O, A extends readonly ArgSpec[], R extends TSchema, P extends TSchema | undefined = undefined> {
  args: A;
  result: R;
  /** Progress events the app's caller may follow (`call.progress` reports them), as an app method declares them. */
  progress?: P;
  input(...args: ArgValues<A>): I;
  output(out: O): Static<R>;
  /**
   * A browser calls the operation's public route, whose answer (the dr envelope's data) is the app's result: each
   * argument goes where its schema sits in the route's schema, with these query fields besides. Without it, a browser
   * calls the app route (POST /api/v1/app/<name>), as for a route that answers in another shape (parking's 204).
   */
  viaRoute?: { query?: Record<string, string> };
  /**
   * A browser calls it as renderer/src/transport/http.ts writes it: the public route, its answer read with the
   * app-shapes mappers. For a route in the interface's own shape whose use by the browser is itself tested (the front
   * desk's search as typed, the registration's POST).
   */
  inTransport?: true;
}

/** How an operation is offered to AI assistants as an MCP tool: its contract and its mapping onto the implementation. */
export interface ToolBinding<I, O, TI extends z.ZodRawShape, TO extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: TI;
  output: TO;
  readOnly: boolean;
  idempotent: boolean;
  toInput(args: z.infer<z.ZodObject<TI>>): I;
  /** The tool's answer; `args` are the tool's own arguments, for an answer that repeats them. */
  toOutput(out: O, args: z.infer<z.ZodObject<TI>>): z.infer<z.ZodObject<TO>>;
}

export interface Operation<
  I = unknown, O = unknown, S extends FastifySchema = FastifySchema, A extends readonly ArgSpec[] = readonly ArgSpec[], R extends TSchema = TSchema,
  TI extends z.ZodRawShape = z.ZodRawShape, TO extends z.ZodRawShape = z.ZodRawShape, P extends TSchema | undefined = TSchema | undefined,
> {
  access: Guard | SignedInGuard;
  run(call: OperationCall, input: I): Promise<O>;
  route?: RouteBinding<I, O, S>;
  app?: AppBinding<I, O, A, R, P>;
  tool?: ToolBinding<I, O, TI, TO>;
}

export const operation = <
  I, O, S extends FastifySchema, const A extends readonly ArgSpec[], R extends TSchema, TI extends z.ZodRawShape, TO extends z.ZodRawShape,
  P extends TSchema | undefined = undefined,
>(op: Operation<I, O, S, A, R, TI, TO, P>) => op;

/** Any declared operation, as the edges handle them in a loop (each declaration is checked where it is written). */
export type SomeOperation = Operation<unknown, unknown, FastifySchema, readonly ArgSpec[], TSchema, z.ZodRawShape, z.ZodRawShape, TSchema | undefined>;
/** What the edges call: an operation's parts with their types erased. */
export interface Erased {
  access: Guard | SignedInGuard;
  run(call: OperationCall, input: unknown): Promise<unknown>;
  route?: Omit<RouteBinding<unknown, unknown, FastifySchema>, 'input' | 'body' | 'refuse'> & {
    input(request: FastifyRequest): unknown;
    body?(out: unknown, request: FastifyRequest): unknown;
    refuse?(out: unknown): { status: number; body: unknown } | null;
  };
  app?: Omit<AppBinding<unknown, unknown, readonly ArgSpec[], TSchema, TSchema | undefined>, 'input' | 'output'> & { input(...args: unknown[]): unknown; output(out: unknown): unknown };
  tool?: Omit<ToolBinding<unknown, unknown, z.ZodRawShape, z.ZodRawShape>, 'toInput' | 'toOutput'> & {
    toInput(args: unknown): unknown;
    toOutput(out: unknown, args: unknown): Record<string, unknown>;
  };
}
export const erased = (op: SomeOperation) => op as unknown as Erased;

/** An operation as its app binding offers it: the app's arguments in, the app's result out (IPC and the browser's route alike). */
export function runApp(op: Erased) {
  const app = op.app;
  if (!app) throw new Error('The operation has no app binding');
  return async (call: OperationCall, args: unknown[]) => app.output(await op.run(call, app.input(...args)));
}

/**
 * The app method an operation with an app binding is: its arguments, result and scope. (Without an app binding the
 * arguments' tuple is not inferred and stays the general array, which is how the type tells the two apart.)
 */
type AppMethodOf<T> = T extends Operation<infer _I, infer _O, infer _S, infer A, infer R, infer _TI, infer _TO, infer P> ? AppMethod<A, R, Scope | 'signed-in', P> : never;
type HasApp<T> = T extends Operation<infer _I, infer _O, infer _S, infer A> ? (readonly ArgSpec[] extends A ? false : true) : false;
type WithApp<T> = { [K in keyof T as HasApp<T[K]> extends true ? K : never]: AppMethodOf<T[K]> };

export function appMethodsOf<T extends Record<string, SomeOperation>>(ops: T): WithApp<T> {
  const methods: Record<string, AppMethod<readonly ArgSpec[], TSchema, Scope | 'signed-in', TSchema | undefined>> = {};
  for (const [name, declared] of Object.entries(ops)) {
    const op = erased(declared);
    if (!op.app) continue;
    const run = runApp(op);
    methods[name] = {
      args: op.app.args, result: op.app.result, access: op.access.scope, ...(op.app.progress ? { progress: op.app.progress } : {}),
      run: (c, ...args) => run(c, args) as Promise<Static<TSchema>>,
    };
  }
  return methods as WithApp<T>;
}

/** Where an app argument goes on an operation's route, found by its schema: the very object the route's schema holds. */
export type ArgPlace = { in: 'path' | 'query'; name: string } | { in: 'body'; name?: string };

/**
 * How a browser calls an operation's app method on its public route (AppBinding.viaRoute), as data the renderer can
 * bundle (scripts/app-methods.ts writes it into preload/app-methods.ts); null when it calls the app route.
 */
export function browserRoute(op: Erased) {
  const { app, route } = op;
  if (!app?.viaRoute || !route) return null;
  const { params, querystring, body } = route.schema as { params?: TObjectLike; querystring?: TObjectLike; body?: TObjectLike };
  const keyOf = (o: TObjectLike | undefined, schema: TSchema) => Object.entries(o?.properties ?? {}).find(([, s]) => s === schema)?.[0];
  const place = (spec: ArgSpec): ArgPlace => {
    for (const [where, o] of [['path', params], ['query', querystring]] as const) {
      const name = keyOf(o, spec.schema);
      if (name !== undefined) return { in: where, name };
    }
    if (body === spec.schema) return { in: 'body' };
    const name = keyOf(body, spec.schema);
    if (name !== undefined) return { in: 'body', name };
    throw new Error(`${route.method} ${route.url}: the app argument ${spec.name} is not one of the route's own schemas`);
  };
  const args = app.args.map(place);
  return { method: route.method, url: route.url, query: app.viaRoute.query ?? {}, args, dr: route.errors === 'dr-envelope' || route.errors === 'dr-bare' };
}
interface TObjectLike {
  properties?: Record<string, TSchema>;
}
