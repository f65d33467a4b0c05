import type { Static } from 'typebox';
import type { ClinicApi } from '../../../preload/contract';
import { clinic } from '../clinic';
import type { Clinic, ClinicBody, Profile, ProfileBody } from '../../../server/auth/profile';
import type { AmendBody, DraftBody, SignBody, Version, VersionList, WorkingDraft } from '../../../server/notes/schemas';

export type NoteDraft = Static<typeof WorkingDraft>;
export type NoteVersion = Static<typeof Version>;
export type NoteVersions = Static<typeof VersionList>;
export type DoctorProfile = Static<typeof Profile>;
export type ClinicProfile = Static<typeof Clinic>;
export type { AmendBody, ClinicBody, DraftBody, ProfileBody, SignBody };

/**
 * What the note editor, the prescription and the profile settings use of the clinic API (docs/API.md, "Notes: sign
 * and amend" and "The prescription's profile"): the operations of server/notes/operations.ts and
 * server/auth/profile-operations.ts, over IPC in the desktop app and over HTTP in a browser.
 */
export type NotesApi = Pick<ClinicApi, 'noteDraft' | 'saveNoteDraft' | 'signNote' | 'amendNote' | 'noteVersions' | 'noteVersion'
  | 'userProfile' | 'setUserProfile' | 'clinicProfile' | 'setClinicProfile'>;

export const notesApi: NotesApi = clinic;
