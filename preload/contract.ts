/**
 * The one contract between the renderer and the main process: every method the renderer may call, by name and
 * type. preload implements it over IPC; a plain browser gets the same interface over HTTP.
 */
export interface ServiceInfo {
  /** Where local integrations reach the embedded clinic API. */
  baseUrl: string;
  version: string;
}

export interface ClinicApi {
  serviceInfo(): Promise<ServiceInfo>;
}

/** IPC channel per method; main registers exactly these. */
export const CHANNELS = {
  serviceInfo: 'clinic:service-info',
} as const satisfies Record<keyof ClinicApi, string>;
