import type { Static } from 'typebox';
import type { ClinicFailure } from '../../../preload/contract';
import type { Clinic, ClinicBody, Profile, ProfileBody } from '../../../server/auth/profile';
import type { AmendBody, DraftBody, SignBody, Version, VersionList, WorkingDraft } from '../../../server/notes/schemas';

export type NoteDraft = Static<typeof WorkingDraft>;
export type NoteVersion = Static<typeof Version>;
export type NoteVersions = Static<typeof VersionList>;
export type DoctorProfile = Static<typeof Profile>;
export type ClinicProfile = Static<typeof Clinic>;
export type { AmendBody, ClinicBody, DraftBody, ProfileBody, SignBody };

/**
 * What the note editor, the prescription and the profile settings need from the clinic service (docs/API.md,
 * "Notes: sign and amend" and "The prescription's profile"), as the app methods they become. Each rejects with a
 * ClinicFailure like every clinic method.
 */
export interface NotesApi {
  noteDraft(txnId: string): Promise<NoteDraft>;
  saveNoteDraft(txnId: string, body: DraftBody): Promise<NoteDraft>;
  signNote(txnId: string, body: SignBody): Promise<NoteVersion>;
  amendNote(txnId: string, body: AmendBody): Promise<NoteVersion>;
  noteVersions(txnId: string): Promise<NoteVersions>;
  /** version: 'draft' | 'latest' | '1', '2'… */
  noteVersion(txnId: string, version: string): Promise<NoteVersion>;
  userProfile(userId: string): Promise<DoctorProfile>;
  setUserProfile(userId: string, body: ProfileBody): Promise<DoctorProfile>;
  clinicProfile(): Promise<ClinicProfile>;
  setClinicProfile(body: ClinicBody): Promise<ClinicProfile>;
}

// Until these are app methods (server/notes/app-api.ts), they go over HTTP with the tab's token, as the browser
// transport's own calls do; inside the desktop app there is no token and they fail with the reason.
const TOKEN_KEY = 'clinic-desk.token';

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) throw { status: 0, code: 'NOT_AVAILABLE', message: 'Editing and signing notes is not available in this window yet' } satisfies ClinicFailure;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw { status: 0, code: 'SERVICE_UNREACHABLE', message: 'The clinic server is not answering. Check that the clinic computer is on and Clinic Desk is running, then try again.' } satisfies ClinicFailure;
  }
  const parsed = await res.json().catch(() => undefined) as { error?: { code?: string; message?: string } } | undefined;
  if (res.ok) return parsed as T;
  throw { status: res.status, code: parsed?.error?.code ?? 'ERROR', message: parsed?.error?.message ?? `The server answered ${res.status}` } satisfies ClinicFailure;
}

const note = (txnId: string, rest: string) => `/api/v1/notes/${encodeURIComponent(txnId)}/${rest}`;

export const notesApi: NotesApi = {
  noteDraft: (txnId) => call('GET', note(txnId, 'draft')),
  saveNoteDraft: (txnId, body) => call('PUT', note(txnId, 'draft'), body),
  signNote: (txnId, body) => call('POST', note(txnId, 'sign'), body),
  amendNote: (txnId, body) => call('POST', note(txnId, 'amendments'), body),
  noteVersions: (txnId) => call('GET', note(txnId, 'versions')),
  noteVersion: (txnId, version) => call('GET', note(txnId, `versions/${encodeURIComponent(version)}`)),
  userProfile: (userId) => call('GET', `/api/v1/users/${encodeURIComponent(userId)}/profile`),
  setUserProfile: (userId, body) => call('PUT', `/api/v1/users/${encodeURIComponent(userId)}/profile`, body),
  clinicProfile: () => call('GET', '/api/v1/clinic'),
  setClinicProfile: (body) => call('PUT', '/api/v1/clinic', body),
};
