import { type Static, type TSchema, Type } from 'typebox';
import type { RequestContext, Scope } from '../auth/permissions.js';
import type { RecordingStore } from '../scribe/api/app-shapes.js';
import type { Service } from '../service.js';

/**
 * How the desktop app's methods are declared: each once, in its domain's app-api.ts, with its arguments' schemas
 * (the ones its HTTP route checks), its result's schema, who may call it and what it does over the domain
 * services. server/app-api.ts gathers them; from that one list come the ClinicApi type (preload/contract.ts), the
 * IPC channels and the preload's object (through the generated preload/app-methods.ts) and main's handler table
 * (main/ipc.ts, which checks the sender and the arguments before `run`). docs/ARCHITECTURE.md, "App methods".
 */

/** One argument: its name, as messages say it, and its schema. Optional arguments come last. */
export interface ArgSpec<S extends TSchema = TSchema, O extends boolean = boolean> {
  name: string;
  schema: S;
  optional: O;
}
export const arg = <S extends TSchema>(name: string, schema: S): ArgSpec<S, false> => ({ name, schema, optional: false });
export const optionalArg = <S extends TSchema>(name: string, schema: S): ArgSpec<S, true> => ({ name, schema, optional: true });

/** The argument list a method's declaration gives, as a tuple of values. */
export type ArgValues<A extends readonly ArgSpec[]> = A extends readonly [infer H extends ArgSpec, ...infer T extends readonly ArgSpec[]]
  ? H['optional'] extends true ? [arg?: Static<H['schema']>, ...ArgValues<T>] : [arg: Static<H['schema']>, ...ArgValues<T>]
  : [];

/** Who may call: anyone (first run, sign-in, what the window's own session is), any signed-in user, or a caller with this scope. */
export type Access = 'anyone' | 'signed-in' | Scope;

/** A failure in the app's shape: an HTTP status (0: nothing answered), a code and a plain sentence. */
export interface ClinicFailure {
  status: number;
  code: string;
  message: string;
}

/** Where a PDF of the page went: saved at path, or not saved (the person closed the save dialog, or a browser printed it). */
export const SavedPdf = Type.Object({ saved: Type.Boolean(), path: Type.Union([Type.String(), Type.Null()]) });
export type SavedPdf = Static<typeof SavedPdf>;

/** What the app process gives the implementations besides the service: its own facts and what it keeps on the computer. */
export interface AppHost {
  info: { baseUrl: string; version: string };
  recordings: RecordingStore;
  /**
   * Saves the calling window's page as a PDF (its print stylesheet, @page sizes), where the person chooses, with
   * fileName offered. Only the desktop app's windows can: absent elsewhere.
   */
  printToPdf?(fileName: string): Promise<SavedPdf>;
  /**
   * Settings → "Use a clinic server" (main/connection.ts): checks that a Clinic Desk server answers at an address,
   * keeps it as the app's choice (in choiceFile) and restarts the app on it. Only the desktop app can: absent elsewhere.
   */
  clinicServer?: { choiceFile: string; use(address: string): Promise<{ url: string }> };
}

/** A window's sign-in: the user token stays in the app process, one per window, never in the page. */
export interface WindowSession {
  token: string | null;
  set(token: string): void;
  clear(): void;
}

/** What an implementation gets: the service, the host, the window's session, and (unless anyone may call) the caller. */
export interface AnyoneCall<P = never> {
  service: Service;
  host: AppHost;
  session: WindowSession;
  /** Reports progress to the caller (methods that declare `progress`). */
  progress(p: P): void;
}
export interface SignedInCall<P = never> extends AnyoneCall<P> {
  ctx: RequestContext;
  /** The window's user token (what ctx was resolved from). */
  token: string;
}

type Call<X extends Access, P extends TSchema | undefined> = X extends 'anyone'
  ? AnyoneCall<P extends TSchema ? Static<P> : never>
  : SignedInCall<P extends TSchema ? Static<P> : never>;

export interface AppMethod<
  A extends readonly ArgSpec[] = readonly ArgSpec[],
  R extends TSchema = TSchema,
  X extends Access = Access,
  P extends TSchema | undefined = TSchema | undefined,
> {
  args: A;
  result: R;
  access: X;
  /** Progress events the caller may follow (the renderer passes a callback after the arguments). */
  progress?: P;
  run(call: Call<X, P>, ...args: ArgValues<A>): Promise<Static<R>> | Static<R>;
}

export const appMethod = <const A extends readonly ArgSpec[], R extends TSchema, X extends Access, P extends TSchema | undefined = undefined>(
  m: AppMethod<A, R, X, P>,
) => m;

/** The renderer's signature of a declared method: its arguments (and a progress callback when it has progress), a promise of its result. */
export type ApiFunction<M> = M extends AppMethod<infer A, infer R, Access, infer P>
  ? (...args: P extends TSchema ? [...ArgValues<A>, onProgress?: (p: Static<P>) => void] : ArgValues<A>) => Promise<Static<R>>
  : never;

export type ApiOf<T> = { [K in keyof T]: ApiFunction<T[K]> };

/** The arguments a method's IPC channel carries (a progress callback stays in the renderer; progress comes back as events). */
export type IpcArgsOf<M> = M extends AppMethod<infer A> ? ArgValues<A> : never;

/** A result for a backend that may not be installed: its data, or in words why it is not there. */
export const Available = <T extends TSchema>(value: T) => Type.Union([
  Type.Object({ available: Type.Literal(true), value }),
  Type.Object({ available: Type.Literal(false), reason: Type.String() }),
]);

/** Methods that answer nothing. */
export const Nothing = Type.Void();
