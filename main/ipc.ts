import type { IpcMainInvokeEvent } from 'electron';
import type { ClinicApi, ServiceInfo } from '../preload/contract.js';

/**
 * IPC handlers as plain functions over the services, so they are testable without Electron. Each checks that
 * the call comes from our own renderer before doing anything.
 */
export type Handlers = { [K in keyof ClinicApi]: (event: Pick<IpcMainInvokeEvent, 'senderFrame'>, ...args: Parameters<ClinicApi[K]>) => ReturnType<ClinicApi[K]> };

export class ForbiddenSender extends Error {}

export function assertOwnRenderer(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, rendererUrl: string) {
  const url = event.senderFrame?.url;
  if (!url) throw new ForbiddenSender('IPC call without a sender frame');
  const from = new URL(url);
  const ours = new URL(rendererUrl);
  if (from.protocol !== ours.protocol || from.host !== ours.host || from.pathname !== ours.pathname) {
    throw new ForbiddenSender(`IPC call from ${from.origin}${from.pathname} refused`);
  }
}

export function createHandlers(rendererUrl: string, info: ServiceInfo): Handlers {
  return {
    serviceInfo: async (event) => {
      assertOwnRenderer(event, rendererUrl);
      return info;
    },
  };
}
