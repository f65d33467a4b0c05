import { SavedPdf, arg, appMethod } from '../shared/app-method.js';
import { ServiceError } from '../shared/errors.js';
import { PdfFileName } from './schemas.js';

/**
 * Saving a signed note's prescription as a PDF, as an app method (server/shared/app-method.ts). The note itself is
 * declared in operations.ts, what the prescription prints in server/auth/profile-operations.ts.
 */
export const noteMethods = {
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
