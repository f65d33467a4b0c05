import { contextBridge, ipcRenderer } from 'electron';
import { APP_METHOD_ARITY, APP_METHOD_NAMES, PROGRESS_METHODS } from './app-methods.js';
import { CHANNELS, type ClinicApi, type IpcResult, type ProgressEvent, UPLOAD_PROGRESS_CHANNEL } from './contract.js';

/**
 * window.clinic over IPC, one named method per declared app method (the names: app-methods.ts, generated from
 * server/app-api.ts). Named methods only: the renderer gets no generic invoke/send it could point at any
 * channel. A failure comes back from main as a value ({ok:false,error}) and is rethrown here as a plain
 * {status, code, message} object, which (unlike an Error's own fields) survives the context bridge intact.
 */
function call(method: keyof ClinicApi, args: unknown[]): Promise<unknown> {
  // As many as the method takes: a method handed on as a callback (onClick={clinic.x}) does not send its caller's event.
  return ipcRenderer.invoke(CHANNELS[method], ...args.slice(0, APP_METHOD_ARITY[method])).then((result: IpcResult<unknown>) => {
    if (!result || typeof result !== 'object' || !('ok' in result)) throw { status: 0, code: 'IPC_ERROR', message: 'The app did not answer as expected' };
    if (!result.ok) throw { ...result.error };
    return result.value;
  });
}

/** A method with progress: its callback (after the arguments) stays here and hears main's events for this call. */
function withProgress(method: keyof ClinicApi) {
  return async (...args: unknown[]) => {
    const onProgress = typeof args.at(-1) === 'function' ? (args.pop() as (p: unknown) => void) : undefined;
    const listener = (_e: unknown, p: ProgressEvent) => {
      if (p.method === method && p.key === args[0]) onProgress?.(p.progress);
    };
    ipcRenderer.on(UPLOAD_PROGRESS_CHANNEL, listener);
    try {
      return await call(method, args);
    } finally {
      ipcRenderer.removeListener(UPLOAD_PROGRESS_CHANNEL, listener);
    }
  };
}

const progress: readonly string[] = PROGRESS_METHODS;
const clinic = Object.fromEntries(APP_METHOD_NAMES.map((method) => [
  method,
  progress.includes(method) ? withProgress(method) : (...args: unknown[]) => call(method, args),
])) as unknown as ClinicApi;

contextBridge.exposeInMainWorld('clinic', clinic);
