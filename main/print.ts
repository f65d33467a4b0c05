import { join } from 'node:path';
import { BrowserWindow, type SaveDialogOptions, app, dialog, webContents } from 'electron';

/**
 * Electron's save dialog for a PDF of a window's page (main/ipc.ts makes the PDF and writes it): over the window
 * that asked, in the Documents folder, offering the page's name for it. Null when the person cancels.
 */
export async function choosePdfPath(contentsId: number, fileName: string): Promise<string | null> {
  const contents = webContents.fromId(contentsId);
  const win = contents ? BrowserWindow.fromWebContents(contents) : null;
  const options: SaveDialogOptions = {
    title: 'Save as PDF',
    defaultPath: join(app.getPath('documents'), fileName),
    filters: [{ name: 'PDF', extensions: ['pdf'] }],
    properties: ['showOverwriteConfirmation', 'createDirectory'],
  };
  const { canceled, filePath } = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
  return canceled || !filePath ? null : filePath;
}
