import { UserParams } from '../auth/app-schemas.js';
import { Clinic, ClinicBody, Profile, ProfileBody, profiles } from '../auth/profile.js';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import type { Service } from '../service.js';
import { SavedPdf, arg } from '../shared/app-method.js';
import { ServiceError } from '../shared/errors.js';
import { type OperationCall, guard, operation } from '../shared/operation.js';
import { PdfFileName } from './schemas.js';

/** The profile statements, prepared once per service. */
const profilesOf = (() => {
  const made = new WeakMap<Service, ReturnType<typeof profiles>>();
  return (service: Service) => made.get(service) ?? made.set(service, profiles(service)).get(service)!;
})();

const tags = ['admin'];
const userId = arg('userId', UserParams.properties.user_id);
/** A user's profile is the user's own or an admin's business (auth/profile.ts decides; the route asks before the body). */
const selfOrAdmin = (write: boolean) => ({ service, ctx }: OperationCall, params: Readonly<Record<string, unknown>>) =>
  profilesOf(service).requireSelfOrAdmin(ctx, String(params.user_id), write);

type ProfileWrite = { userId: string; body: ProfileBody };

/**
 * What a signed note's prescription prints, each operation declared once (server/shared/operation.ts): under the
 * doctor's name their qualification and registration number, at the top the clinic's name and address (the profiles
 * over auth's tables, server/auth/profile.ts), and saving the prescription as a PDF. Errors
 * `{"error":{"code","message"}}`. The order is the routes' (and the OpenAPI document's).
 */
export const prescriptionOperations = {
  userProfile: operation({
    access: guard('signed-in', { code: 'FORBIDDEN', audit: 'user.profile.read' }),
    run: ({ service, ctx }, id: string) => profilesOf(service).get(ctx, id),
    route: {
      method: 'GET', url: '/api/v1/users/:user_id/profile', errors: 'plain',
      schema: { operationId: 'getUserProfile', tags, security, params: UserParams, summary: 'A user\'s prescription profile (the user or an admin)', response: { 200: Profile, ...plainErrors([400, 401, 403, 404, 500]) } },
      check: selfOrAdmin(false),
      input: (request) => request.params.user_id,
      status: 200,
      body: (profile) => profile,
    },
    app: { args: [userId], result: Profile, input: (id) => id, output: (profile) => profile, viaRoute: {} },
  }),

  setUserProfile: operation({
    access: guard('signed-in', { code: 'FORBIDDEN', audit: 'user.profile.update' }),
    run: ({ service, ctx }, { userId: id, body }: ProfileWrite) => profilesOf(service).set(ctx, id, body),
    route: {
      method: 'PUT', url: '/api/v1/users/:user_id/profile', errors: 'plain',
      schema: {
        operationId: 'setUserProfile', tags, security, params: UserParams, body: ProfileBody,
        summary: 'Set qualification and registration number (the user themself or an admin); a field left out is unchanged, null clears it',
        response: { 200: Profile, ...plainErrors([400, 401, 403, 404, 500]) },
      },
      check: selfOrAdmin(true),
      input: (request) => ({ userId: request.params.user_id, body: request.body }),
      status: 200,
      body: (profile) => profile,
    },
    app: { args: [userId, arg('body', ProfileBody)], result: Profile, input: (id, body) => ({ userId: id, body }), output: (profile) => profile, viaRoute: {} },
  }),

  // Every staff role (admin, doctor, reception) holds appointments:read; the display role does not: it reads the board only.
  clinicProfile: operation({
    access: guard('appointments:read', { code: 'FORBIDDEN', audit: 'workspace.read' }),
    run: ({ service, ctx }) => profilesOf(service).clinic(ctx),
    route: {
      method: 'GET', url: '/api/v1/clinic', errors: 'plain',
      schema: { operationId: 'getClinic', tags, security, summary: 'The clinic\'s name and address, as a prescription prints them (every role but display)', response: { 200: Clinic, ...plainErrors([401, 403, 500]) } },
      input: () => undefined,
      status: 200,
      body: (clinic) => clinic,
    },
    app: { args: [], result: Clinic, input: () => undefined, output: (clinic) => clinic, viaRoute: {} },
  }),

  setClinicProfile: operation({
    access: guard('admin', { code: 'FORBIDDEN', audit: 'workspace.update' }),
    run: ({ service, ctx }, body: ClinicBody) => profilesOf(service).setClinic(ctx, body),
    route: {
      method: 'PUT', url: '/api/v1/clinic', errors: 'plain',
      schema: { operationId: 'setClinic', tags, security, body: ClinicBody, summary: 'Set the clinic\'s address (admins)', response: { 200: Clinic, ...plainErrors([400, 401, 403, 500]) } },
      input: (request) => request.body,
      status: 200,
      body: (clinic) => clinic,
    },
    app: { args: [arg('body', ClinicBody)], result: Clinic, input: (body) => body, output: (clinic) => clinic, viaRoute: {} },
  }),

  /**
   * The prescription on screen (the calling window's page, laid out by the print stylesheet on the paper chosen) as a
   * PDF where the doctor saves it: the desktop app's host makes it (IPC). A browser has no such host: its transport
   * opens the browser's print dialog instead.
   */
  printPrescriptionPdf: operation({
    access: guard('scribe', { code: 'FORBIDDEN', audit: 'note.access' }),
    run: async ({ host }, fileName: string) => {
      if (!host?.printToPdf) throw new ServiceError(501, 'NOT_AVAILABLE', 'Saving as PDF works in the desktop app: here, print and choose "Save as PDF" as the printer');
      return host.printToPdf(fileName);
    },
    app: { args: [arg('fileName', PdfFileName)], result: SavedPdf, input: (fileName) => fileName, output: (saved) => saved, inTransport: true },
  }),
};
