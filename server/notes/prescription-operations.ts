import { SavedPdf, arg } from '../shared/app-method.js';
import { ServiceError } from '../shared/errors.js';
import { guard, operation } from '../shared/operation.js';
import { PdfFileName } from './schemas.js';

/**
 * The prescription as a file, declared once (server/shared/operation.ts). What it prints (the doctor's profile, the
 * clinic's address) is auth's: server/auth/profile-operations.ts.
 */
export const prescriptionOperations = {
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
