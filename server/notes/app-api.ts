import { Clinic, ClinicBody, Profile, ProfileBody, profiles } from '../auth/profile.js';
import { UserParams } from '../auth/app-schemas.js';
import type { Service } from '../service.js';
import { SavedPdf, arg, appMethod } from '../shared/app-method.js';
import { ServiceError } from '../shared/errors.js';
import { PdfFileName } from './schemas.js';

/** The profile statements, prepared once per service. */
const profilesOf = (() => {
  const made = new WeakMap<Service, ReturnType<typeof profiles>>();
  return (service: Service) => made.get(service) ?? made.set(service, profiles(service)).get(service)!;
})();

/**
 * What a signed note's prescription prints (the profile routes of server/auth/profile.ts) and saving it as a PDF, as
 * app methods (server/shared/app-method.ts). The note itself is declared in operations.ts.
 */
export const noteMethods = {
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
