import type { ClinicApi } from '../../preload/contract';

declare global {
  interface Window {
    clinic?: ClinicApi;
  }
}

/** Over HTTP, for a plain browser that opened the embedded server's address. */
const httpClinic: ClinicApi = {
  async serviceInfo() {
    const res = await fetch('/health');
    if (!res.ok) throw new Error(`The clinic service answered ${res.status}`);
    const body = (await res.json()) as { version: string };
    return { baseUrl: window.location.origin, version: body.version };
  },
};

/** The clinic API: the preload bridge inside the app, HTTP in a browser. The UI does not know which. */
export const clinic: ClinicApi = window.clinic ?? httpClinic;
