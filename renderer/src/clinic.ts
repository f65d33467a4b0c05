import type { ClinicApi, ClinicFailure } from '../../preload/contract';
import { httpClinic } from './transport/http';

declare global {
  interface Window {
    clinic?: ClinicApi;
  }
}

/** The clinic API: the preload bridge inside the app, HTTP in a browser. The UI does not know which. */
export const clinic: ClinicApi = window.clinic ?? httpClinic;

/** Any rejection as the contract's failure. */
export function asFailure(e: unknown): ClinicFailure {
  if (e && typeof e === 'object' && 'message' in e) {
    const f = e as Partial<ClinicFailure>;
    return { status: typeof f.status === 'number' ? f.status : 0, code: typeof f.code === 'string' ? f.code : 'ERROR', message: String(f.message) };
  }
  return { status: 0, code: 'ERROR', message: String(e) };
}

/** What to tell a person about a failure: what happened, and what to do next. */
export function explain(e: unknown): { title: string; detail: string } {
  const f = asFailure(e);
  switch (f.code) {
    case 'SERVICE_UNREACHABLE':
      return { title: 'The clinic server is not answering', detail: f.message };
    case 'UNAUTHORIZED_ACCESS':
      if (f.status === 401) return { title: 'You are signed out', detail: 'Your session ended. Sign in again to continue.' };
      return { title: 'Not allowed for your role', detail: `${f.message}. Ask your clinic's admin if you need it.` };
    case 'FORBIDDEN':
      return { title: 'Only an admin can do this', detail: f.message };
    case 'COMPLETE_NOT_ALLOWED':
      return { title: 'Not allowed for your role', detail: f.message };
    case 'PATIENT_ALREADY_EXISTS':
      return { title: 'This patient is already registered', detail: 'Someone with this mobile, name and date of birth exists. Search by the mobile number to find them.' };
    case 'INVALID_CREDENTIALS':
      return { title: 'Wrong username or password', detail: f.message };
    case 'TOO_MANY_ATTEMPTS':
      return { title: 'Too many tries', detail: f.message };
    case 'INVALID_REQUEST':
      return { title: 'Please check the details', detail: f.message };
    default:
      if (f.status >= 500) return { title: 'Something went wrong on the clinic server', detail: `${f.message}. Try again in a moment; if it keeps happening, restart Clinic Desk on the clinic computer.` };
      return { title: 'That did not work', detail: f.message };
  }
}
