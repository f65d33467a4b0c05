import { statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { app, net, protocol, session, shell } from 'electron';
import { APP_SCHEME, allowsPermission, isAppUrl, rendererFile } from './app-origin.js';
import { vettedExternalUrl } from './links.js';

/**
 * Electron's side of main/app-origin.ts: the app:// scheme, the microphone grant and the guard on every web
 * contents. Kept thin; the decisions are the pure functions there, tested without Electron.
 */

/**
 * Before the app is ready (Electron's rule): app:// becomes a standard scheme (real origin, relative URLs) and a
 * secure one (getUserMedia needs a secure context).
 */
export function registerAppScheme() {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** Serves the built renderer folder at app://clinic-desk/, each answer with the app's CSP. */
export function serveRenderer(rendererDir: string, csp: string) {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = rendererFile(rendererDir, request.url);
    if (!file || !isFile(file)) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    const res = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(res.headers);
    headers.set('content-security-policy', csp);
    headers.set('x-content-type-options', 'nosniff');
    return new Response(res.body, { status: res.status, headers });
  });
}

type PageTest = (url: string | undefined) => boolean;

/**
 * The microphone for our own page (the app's, or the clinic server's the app uses); every other permission, and
 * every other page, refused.
 */
export function grantMicrophoneToApp(isOurPage: PageTest = isAppUrl) {
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback, details) => {
    callback(allowsPermission(permission, details.requestingUrl, 'mediaTypes' in details ? details.mediaTypes : undefined, isOurPage));
  });
  session.defaultSession.setPermissionCheckHandler((_wc, permission, origin, details) => (
    allowsPermission(permission, origin, details.mediaType === 'video' ? ['video'] : undefined, isOurPage)
  ));
}

/**
 * For every web contents the app ever creates (windows, frames' contents, anything a future change adds): no
 * navigation or redirect off our origin (app://clinic-desk, or the clinic server's when the app uses one), no new
 * windows (a vetted link goes to the system browser, main/links.ts), no <webview>. `serviceUrls` gives the
 * service's addresses (the embedded one once it listens, or the clinic server): its API reference may open.
 */
export function guardEveryContents(serviceUrls: () => readonly string[], isOurPage: PageTest = isAppUrl) {
  app.on('web-contents-created', (_event, contents) => {
    const stayOnOrigin = (e: { url: string; preventDefault(): void }) => {
      if (!isOurPage(e.url)) e.preventDefault();
    };
    contents.on('will-navigate', stayOnOrigin);
    contents.on('will-frame-navigate', stayOnOrigin);
    contents.on('will-redirect', stayOnOrigin);
    contents.on('will-attach-webview', (e) => e.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      const vetted = vettedExternalUrl(url, serviceUrls());
      if (vetted) void shell.openExternal(vetted);
      return { action: 'deny' };
    });
  });
}
