import { Clinic, ClinicBody, Profile, ProfileBody, profiles } from '../auth/profile.js';
import { UserParams } from '../auth/app-schemas.js';
import type { Service } from '../service.js';
import { SavedPdf, arg, appMethod } from '../shared/app-method.js';
import { ServiceError } from '../shared/errors.js';
import { AmendBody, DraftBody, FhirBundle, NoteParams, PdfFileName, SignBody, Version, VersionList, VersionParams, WorkingDraft } from './schemas.js';

const txnId = arg('txnId', NoteParams.properties.txn_id);

/** The profile statements, prepared once per service. */
const profilesOf = (() => {
  const made = new WeakMap<Service, ReturnType<typeof profiles>>();
  return (service: Service) => made.get(service) ?? made.set(service, profiles(service)).get(service)!;
})();

/**
 * The doctor's note of a dictation (docs/API.md, "Notes: sign and amend") and what its prescription prints (the
 * profile routes of server/auth/profile.ts), as app methods (server/shared/app-method.ts). Who may write is the
 * note service's rule (doctors only), as over HTTP.
 */
export const noteMethods = {
  noteDraft: appMethod({
    args: [txnId], result: WorkingDraft, access: 'scribe',
    run: (c, id) => c.service.notes.workingDraft(c.ctx, id),
  }),
  saveNoteDraft: appMethod({
    args: [txnId, arg('body', DraftBody)], result: WorkingDraft, access: 'scribe',
    run: (c, id, body) => c.service.notes.saveDraft(c.ctx, id, body),
  }),
  signNote: appMethod({
    args: [txnId, arg('body', SignBody)], result: Version, access: 'scribe',
    run: (c, id, body) => c.service.notes.sign(c.ctx, id, body),
  }),
  amendNote: appMethod({
    args: [txnId, arg('body', AmendBody)], result: Version, access: 'scribe',
    run: (c, id, body) => c.service.notes.amend(c.ctx, id, body),
  }),
  noteVersions: appMethod({
    args: [txnId], result: VersionList, access: 'scribe',
    run: (c, id) => c.service.notes.versions(c.ctx, id),
  }),
  noteVersion: appMethod({
    args: [txnId, arg('version', VersionParams.properties.version)], result: Version, access: 'scribe',
    run: (c, id, version) => c.service.notes.version(c.ctx, id, version),
  }),
  /** A signed version as the FHIR document GET /api/v1/notes/{txn_id}/fhir answers, for the doctor to save. */
  noteFhir: appMethod({
    args: [txnId, arg('version', VersionParams.properties.version)], result: FhirBundle, access: 'scribe',
    run: (c, id, version) => c.service.notes.exportFhir(c.ctx, id, version),
  }),
  userProfile: appMethod({
    args: [arg('userId', UserParams.properties.user_id)], result: Profile, access: 'signed-in',
    run: (c, userId) => profilesOf(c.service).get(c.ctx, userId),
  }),
  setUserProfile: appMethod({
    args: [arg('userId', UserParams.properties.user_id), arg('body', ProfileBody)], result: Profile, access: 'signed-in',
    run: (c, userId, body) => profilesOf(c.service).set(c.ctx, userId, body),
  }),
  clinicProfile: appMethod({
    args: [], result: Clinic, access: 'appointments:read',
    run: (c) => profilesOf(c.service).clinic(c.ctx),
  }),
  setClinicProfile: appMethod({
    args: [arg('body', ClinicBody)], result: Clinic, access: 'signed-in',
    run: (c, body) => profilesOf(c.service).setClinic(c.ctx, body),
  }),
  /**
   * The prescription on screen (the calling window's page, laid out by the print stylesheet on the paper chosen) as a
   * PDF where the doctor saves it. A browser has no such host: its transport opens the browser's print dialog instead.
   */
  printPrescriptionPdf: appMethod({
    args: [arg('fileName', PdfFileName)], result: SavedPdf, access: 'scribe',
    run: (c, fileName) => {
      if (!c.host.printToPdf) throw new ServiceError(501, 'NOT_AVAILABLE', 'Saving as PDF works in the desktop app: here, print and choose "Save as PDF" as the printer');
      return c.host.printToPdf(fileName);
    },
  }),
};
