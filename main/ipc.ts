import { writeFileSync } from 'node:fs';
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { APP_METHODS, type ClinicApi, type IpcArgs, type MethodName } from '../server/app-api.js';
import { needScope } from '../server/auth/app-accounts.js';
import type { RequestContext } from '../server/auth/permissions.js';
import type { Service } from '../server/service.js';
import type { AnyoneCall, AppHost, AppMethod, ClinicFailure, SavedPdf, SignedInCall, WindowSession } from '../server/shared/app-method.js';
import { ServiceError } from '../server/shared/errors.js';
import { ensurePrivateFile } from '../server/shared/private-files.js';
import { checkArgs, compileArgs } from '../server/shared/app-args.js';
import { type ProgressEvent, UPLOAD_PROGRESS_CHANNEL } from '../preload/contract.js';

/**
 * What a handler sees of an IPC event: the frame that sent it and the window (for its session, progress events and,
 * where it can, a PDF of its page).
 */
export type IpcEvent = Pick<IpcMainInvokeEvent, 'senderFrame'> & {
  sender: { id: number; send(channel: string, ...args: unknown[]): void } & Partial<Pick<WebContents, 'printToPDF'>>;
};

/** One plain function per app method: the IPC layer, testable without Electron. */
export type Handlers = { [K in MethodName]: (event: IpcEvent, ...args: IpcArgs<K>) => Promise<Awaited<ReturnType<ClinicApi[K]>>> };

export class ForbiddenSender extends Error {}

export function assertOwnRenderer(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, rendererUrl: string) {
  const url = event?.senderFrame?.url;
  if (!url) throw new ForbiddenSender('IPC call without a sender frame');
  const from = new URL(url);
  const ours = new URL(rendererUrl);
  if (from.protocol !== ours.protocol || from.host !== ours.host || from.pathname !== ours.pathname) {
    throw new ForbiddenSender(`IPC call from ${from.origin}${from.pathname} refused`);
  }
}

/** Any thrown value as the contract's failure: service errors keep their status and code; anything else is a 500. */
export function toFailure(e: unknown): ClinicFailure {
  if (e instanceof ServiceError) return { status: e.status, code: e.code, message: e.message };
  if (e instanceof ForbiddenSender) return { status: 403, code: 'FORBIDDEN_SENDER', message: e.message };
  if (e && typeof e === 'object' && 'code' in e && 'message' in e && 'status' in e) {
    const f = e as ClinicFailure;
    return { status: Number(f.status), code: String(f.code), message: String(f.message) };
  }
  console.error('clinic-desk: IPC handler failed', e);
  return { status: 500, code: 'SERVER_ERROR', message: 'Something went wrong inside Clinic Desk. Try again; if it keeps happening, restart the app.' };
}

export interface IpcDeps extends Pick<AppHost, 'info' | 'recordings' | 'clinicServer'> {
  service: Service;
  /** The renderer page every call must come from. */
  rendererUrl: string;
  /**
   * Asks the person where to save a PDF, over the window whose web contents has this id, offering fileName; null
   * when they cancel (main/print.ts, Electron's save dialog). Without it the windows cannot save PDFs.
   */
  choosePdfPath?(contentsId: number, fileName: string): Promise<string | null>;
}

/**
 * The page as the print stylesheet lays it out: the @page size the page chose (the prescription's A5 or A4, margins
 * its own) rather than Chromium's default Letter, with its coloured letterhead.
 */
const PDF_OPTIONS = { preferCSSPageSize: true, printBackground: true } as const;

type PdfSender = IpcEvent['sender'] & Pick<WebContents, 'printToPDF'>;
const canPrint = (sender: IpcEvent['sender']): sender is PdfSender => typeof sender.printToPDF === 'function';

/** The calling window's page as a PDF, saved where the person chooses, readable by this account only (patient data). */
async function savePagePdf(sender: PdfSender, choosePath: NonNullable<IpcDeps['choosePdfPath']>, fileName: string): Promise<SavedPdf> {
  // Rendered before the dialog opens: the PDF is the page as it was when the person asked for it.
  const pdf = await sender.printToPDF(PDF_OPTIONS);
  const path = await choosePath(sender.id, fileName);
  if (!path) return { saved: false, path: null };
  ensurePrivateFile(path);
  writeFileSync(path, pdf);
  return { saved: true, path };
}

/**
 * The handler table, made from the app methods' declarations (server/app-api.ts): each handler checks the
 * sender, validates the arguments with the declared schemas, resolves the window's caller and asks the declared
 * scope, then runs the declaration over the domain services. A window's session (its user token) lives here in
 * main, never in the renderer.
 */
export function createHandlers(deps: IpcDeps): Handlers {
  const { service } = deps;
  const host: AppHost = { info: deps.info, recordings: deps.recordings, clinicServer: deps.clinicServer };
  const { choosePdfPath } = deps;
  // A PDF is of the calling window's own page, so the host that can make one is per call.
  const hostFor = ({ sender }: IpcEvent): AppHost =>
    choosePdfPath && canPrint(sender) ? { ...host, printToPdf: (fileName) => savePagePdf(sender, choosePdfPath, fileName) } : host;
  const tokens = new Map<number, string>();

  const sessionOf = (event: IpcEvent): WindowSession => ({
    get token() {
      return tokens.get(event.sender.id) ?? null;
    },
    set: (t) => void tokens.set(event.sender.id, t),
    clear: () => void tokens.delete(event.sender.id),
  });

  async function signedIn(event: IpcEvent, method: AppMethod): Promise<{ ctx: RequestContext; token: string }> {
    const token = tokens.get(event.sender.id);
    if (!token) throw new ServiceError(401, 'UNAUTHORIZED_ACCESS', 'You are signed out. Sign in again to continue.');
    const caller = await service.auth.authenticateToken(token);
    if (!caller) {
      tokens.delete(event.sender.id);
      throw new ServiceError(401, 'UNAUTHORIZED_ACCESS', 'Your session has ended (signed out, or the account was disabled). Sign in again.');
    }
    const ctx: RequestContext = { caller, ip: null, requestId: null };
    if (method.access !== 'signed-in' && method.access !== 'anyone') needScope(ctx, method.access);
    return { ctx, token };
  }

  const handlers = {} as Record<string, (event: IpcEvent, ...args: unknown[]) => Promise<unknown>>;
  for (const [name, declared] of Object.entries(APP_METHODS)) {
    const method = declared as unknown as AppMethod & { run(call: AnyoneCall<unknown> | SignedInCall<unknown>, ...args: unknown[]): unknown };
    const specs = compileArgs(method.args);
    handlers[name] = async (event, ...args) => {
      assertOwnRenderer(event, deps.rendererUrl);
      checkArgs(name, specs, args);
      const base: AnyoneCall<unknown> = {
        service, host: hostFor(event), session: sessionOf(event),
        progress: (progress) => event.sender.send(UPLOAD_PROGRESS_CHANNEL, { method: name, key: args[0], progress } as ProgressEvent),
      };
      return method.run(method.access === 'anyone' ? base : { ...base, ...(await signedIn(event, method)) }, ...args);
    };
  }
  return handlers as unknown as Handlers;
}
