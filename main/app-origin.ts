import { isAbsolute, join, relative, resolve } from 'node:path';
import { UI_CSP } from '../server/http/static.js';

/**
 * The app's own origin, app://clinic-desk. The screens load from it rather than file://, so the page has a real
 * origin to grant the microphone to and to keep navigation on, and file:// needs none of its old privileges
 * (the GrantFileProtocolExtraPrivileges fuse is off). Plain functions, so tests run them without Electron.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'clinic-desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page main loads and the only frame main/ipc.ts answers. */
export const RENDERER_URL = `${APP_ORIGIN}/index.html`;

function parse(url: string | undefined): URL | null {
  if (!url) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Whether a URL (or an origin, as permission checks give it) is ours. Compared by scheme and host, because
 * WHATWG URL gives a non-special scheme such as app: the opaque origin "null".
 */
export function isAppUrl(url: string | undefined): boolean {
  const u = parse(url);
  return !!u && u.protocol === `${APP_SCHEME}:` && u.hostname === APP_HOST && !u.port && !u.username && !u.password;
}

/**
 * The file under the built renderer folder that an app:// request asks for, or null (answered 404): another
 * host, a path that is not valid percent-encoding, holds a NUL or a backslash (a Windows separator once
 * decoded), or leaves the folder once decoded ("/..%2f..%2fetc/passwd", which the URL parser does not collapse).
 */
export function rendererFile(rendererDir: string, url: string): string | null {
  const u = parse(url);
  if (!u || !isAppUrl(u.href)) return null;
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  const root = resolve(rendererDir);
  const file = resolve(join(root, path === '' || path === '/' ? 'index.html' : path));
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return file;
}

/**
 * The one permission the app grants: the microphone (dictation), asked by our own page (app://clinic-desk, or the
 * clinic server's pages when the app uses one: main/connection.ts isServerUrl). A request naming video (camera) is
 * refused; a check that names no media type (Chromium asks before listing devices) is not.
 */
export function allowsPermission(
  permission: string, origin: string | undefined, mediaTypes: readonly string[] = [], isOurPage: (url: string | undefined) => boolean = isAppUrl,
): boolean {
  return permission === 'media' && isOurPage(origin) && mediaTypes.every((t) => t === 'audio');
}

/**
 * The app page's content security policy, sent with every app:// answer: the browser UI's policy
 * (server/http/static.ts), with connections to the embedded service's own loopback port and nowhere else on the
 * computer, and no native form posts (the screens submit through the bridge).
 */
export function appContentSecurityPolicy(servicePort: number): string {
  if (!Number.isInteger(servicePort) || servicePort < 1 || servicePort > 65535) throw new RangeError(`not a TCP port: ${servicePort}`);
  const directives = new Map(UI_CSP.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...sources] = d.split(/\s+/);
    return [name!, sources.join(' ')] as const;
  }));
  directives.set('connect-src', `'self' http://127.0.0.1:${servicePort}`);
  directives.set('form-action', "'none'");
  return [...directives].map(([name, sources]) => `${name} ${sources}`).join('; ');
}
