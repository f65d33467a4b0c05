import { EventEmitter } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_ORIGIN, RENDERER_URL, allowsPermission, appContentSecurityPolicy, isAppUrl, rendererFile } from '../../main/app-origin.js';
import { ForbiddenSender, assertOwnRenderer } from '../../main/ipc.js';
import { UI_CSP } from '../../server/http/static.js';
import { ROOT, tempDir } from '../helpers/server.js';

/**
 * The app window's guards without Electron (no runtime here): the pure decisions in main/app-origin.ts, and
 * main/app-security.ts wired to a stand-in for Electron's API (its event emitter, protocol and session hooks; net.fetch
 * reads the file as Electron's would) so the handlers it installs run for real.
 */
const electron = vi.hoisted(() => ({
  app: null as unknown as EventEmitter,
  handler: null as null | ((request: Request) => Promise<Response>),
  schemes: [] as unknown[],
  opened: [] as string[],
  requestHandler: null as null | ((wc: unknown, permission: string, callback: (ok: boolean) => void, details: object) => void),
  checkHandler: null as null | ((wc: unknown, permission: string, origin: string, details: object) => boolean),
}));
vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  electron.app = new Emitter();
  return {
    app: electron.app,
    shell: { openExternal: async (url: string) => void electron.opened.push(url) },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => void electron.schemes.push(...schemes),
      handle: (_scheme: string, handler: (request: Request) => Promise<Response>) => void (electron.handler = handler),
    },
    net: { fetch: async (url: string) => new Response(await readFile(fileURLToPath(url)), { headers: { 'content-type': url.endsWith('.html') ? 'text/html' : 'text/javascript' } }) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: typeof electron.requestHandler) => void (electron.requestHandler = h),
        setPermissionCheckHandler: (h: typeof electron.checkHandler) => void (electron.checkHandler = h),
      },
    },
  };
});
const { grantMicrophoneToApp, guardEveryContents, registerAppScheme, serveRenderer } = await import('../../main/app-security.js');

describe('app:// origin', () => {
  it.each([
    RENDERER_URL, `${RENDERER_URL}#/settings/server`, APP_ORIGIN, `${APP_ORIGIN}/assets/index-abc.js`,
  ])('%s is ours', (url) => expect(isAppUrl(url)).toBe(true));

  it.each([
    'app://evil/index.html', 'app://clinic-desk.evil/index.html', 'app://clinic-desk:8080/index.html', 'app://x@clinic-desk/',
    'file:///opt/clinic-desk/resources/app.asar/dist/renderer/index.html', 'http://127.0.0.1:4810/', 'https://clinic-desk/',
    'javascript:alert(1)', 'not a url', '', undefined,
  ])('%s is not', (url) => expect(isAppUrl(url)).toBe(false));

  it('is the only page the IPC handlers answer', () => {
    const from = (url: string) => ({ senderFrame: { url } as never });
    expect(() => assertOwnRenderer(from(`${RENDERER_URL}#/front-desk`), RENDERER_URL)).not.toThrow();
    for (const url of ['app://evil/index.html', `${APP_ORIGIN}/other.html`, 'file:///dist/renderer/index.html', 'http://127.0.0.1:4810/']) {
      expect(() => assertOwnRenderer(from(url), RENDERER_URL), url).toThrow(ForbiddenSender);
    }
  });
});

describe('rendererFile: the app:// path to a file of the built renderer', () => {
  const base = tempDir('renderer-root');
  const root = join(base, 'renderer');
  beforeAll(() => {
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Clinic Desk</title>');
    writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
    writeFileSync(join(base, 'secret.txt'), 'outside the renderer');
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it.each([
    [APP_ORIGIN, 'index.html'], [`${APP_ORIGIN}/`, 'index.html'], [RENDERER_URL, 'index.html'], [`${RENDERER_URL}?x=1#/settings`, 'index.html'],
    [`${APP_ORIGIN}/assets/index-abc.js`, 'assets/index-abc.js'], [`${APP_ORIGIN}/assets/%69ndex-abc.js`, 'assets/index-abc.js'],
    // The URL parser collapses plain and encoded dot segments before the path is looked at.
    [`${APP_ORIGIN}/../secret.txt`, 'secret.txt'], [`${APP_ORIGIN}/%2e%2e/secret.txt`, 'secret.txt'],
  ])('%s → %s', (url, rel) => expect(rendererFile(root, url)).toBe(join(root, rel)));

  it.each([
    `${APP_ORIGIN}/..%2fsecret.txt`, `${APP_ORIGIN}/assets/..%2f..%2fsecret.txt`, `${APP_ORIGIN}/..%5csecret.txt`,
    `${APP_ORIGIN}/index.html%00.js`, `${APP_ORIGIN}/%E0%A4%A`, `${APP_ORIGIN}/assets/..%2f`,
    'app://evil/index.html', 'file:///etc/passwd', 'http://127.0.0.1:4810/index.html',
  ])('%s → refused', (url) => expect(rendererFile(root, url)).toBeNull());
});

describe('the app page\'s content security policy', () => {
  const directives = (csp: string) => new Map(csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...sources] = d.split(/\s+/);
    return [name!, sources.join(' ')];
  }));

  it('connects to the embedded service\'s own port only, and keeps the browser UI\'s other directives', () => {
    const app = directives(appContentSecurityPolicy(48123));
    expect(app.get('connect-src')).toBe("'self' http://127.0.0.1:48123");
    expect(app.get('form-action')).toBe("'none'");
    for (const [name, sources] of directives(UI_CSP)) {
      if (name !== 'connect-src' && name !== 'form-action') expect(app.get(name), name).toBe(sources);
    }
    expect(appContentSecurityPolicy(4810)).not.toMatch(/\*|unsafe/);
  });

  it.each([0, -1, 65536, 1.5, Number.NaN])('refuses port %s', (port) => {
    expect(() => appContentSecurityPolicy(port)).toThrow(RangeError);
  });

  it('index.html\'s own policy (the same file a browser gets from the service) names no loopback port', () => {
    const html = readFileSync(join(ROOT, 'renderer', 'index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBeDefined();
    expect(directives(meta!).get('connect-src')).toBe("'self'");
    expect(meta).not.toMatch(/\*|unsafe|https?:/);
  });
});

describe('permissions: the microphone, for our page only', () => {
  it.each([
    ['media', APP_ORIGIN, ['audio'], true],
    ['media', RENDERER_URL, ['audio'], true],
    ['media', APP_ORIGIN, [], true], // a check that names no device type
    ['media', APP_ORIGIN, ['audio', 'video'], false],
    ['media', APP_ORIGIN, ['video'], false],
    ['media', 'http://127.0.0.1:4810', ['audio'], false],
    ['media', 'file:///', ['audio'], false],
    ['media', 'https://evil.example', ['audio'], false],
    ['geolocation', APP_ORIGIN, [], false],
    ['notifications', APP_ORIGIN, [], false],
    ['openExternal', APP_ORIGIN, [], false],
  ] as const)('%s from %s (%j): %s', (permission, origin, types, granted) => {
    expect(allowsPermission(permission, origin, types)).toBe(granted);
  });

  it('is what the session handlers answer', () => {
    grantMicrophoneToApp();
    const asked: boolean[] = [];
    electron.requestHandler!(null, 'media', (ok) => asked.push(ok), { requestingUrl: `${RENDERER_URL}#/dictation`, mediaTypes: ['audio'] });
    electron.requestHandler!(null, 'media', (ok) => asked.push(ok), { requestingUrl: `${RENDERER_URL}#/dictation`, mediaTypes: ['audio', 'video'] });
    electron.requestHandler!(null, 'media', (ok) => asked.push(ok), { requestingUrl: 'http://127.0.0.1:4810/', mediaTypes: ['audio'] });
    electron.requestHandler!(null, 'geolocation', (ok) => asked.push(ok), { requestingUrl: RENDERER_URL });
    expect(asked).toEqual([true, false, false, false]);
    expect(electron.checkHandler!(null, 'media', APP_ORIGIN, { isMainFrame: true, mediaType: 'audio' })).toBe(true);
    expect(electron.checkHandler!(null, 'media', APP_ORIGIN, { isMainFrame: true, mediaType: 'unknown' })).toBe(true);
    expect(electron.checkHandler!(null, 'media', APP_ORIGIN, { isMainFrame: true, mediaType: 'video' })).toBe(false);
    expect(electron.checkHandler!(null, 'media', 'file://', { isMainFrame: true, mediaType: 'audio' })).toBe(false);
  });
});

describe('serveRenderer: the app:// handler', () => {
  const base = tempDir('renderer-served');
  const root = join(base, 'renderer');
  const csp = appContentSecurityPolicy(48123);
  beforeAll(() => {
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Clinic Desk</title>');
    writeFileSync(join(base, 'secret.txt'), 'outside the renderer');
    registerAppScheme();
    serveRenderer(root, csp);
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('registers app: as a standard, secure scheme (getUserMedia needs a secure context)', () => {
    expect(electron.schemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
  });

  it('answers our page with the CSP header', async () => {
    const r = await electron.handler!(new Request(RENDERER_URL));
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('<title>Clinic Desk</title>');
    expect(r.headers.get('content-security-policy')).toBe(csp);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each([`${APP_ORIGIN}/..%2fsecret.txt`, `${APP_ORIGIN}/assets`, `${APP_ORIGIN}/missing.js`, 'app://evil/index.html'])('answers %s with 404', async (url) => {
    const r = await electron.handler!(new Request(url));
    expect(r.status).toBe(404);
    expect(await r.text()).not.toContain('outside the renderer');
  });
});

describe('guardEveryContents: every web contents the app creates', () => {
  const own = ['http://127.0.0.1:48123', 'http://192.168.1.20:48123'];
  class Contents extends EventEmitter {
    openHandler: ((d: { url: string }) => { action: string }) | null = null;
    setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
      this.openHandler = h;
    }
  }
  const contents = new Contents();
  beforeAll(() => {
    guardEveryContents(() => own);
    electron.app.emit('web-contents-created', {}, contents);
  });
  const attempt = (name: string, url: string) => {
    let prevented = false;
    contents.emit(name, { url, preventDefault: () => void (prevented = true) });
    return prevented;
  };

  it.each(['will-navigate', 'will-frame-navigate', 'will-redirect'])('%s: stays on app://clinic-desk', (name) => {
    expect(contents.listenerCount(name)).toBe(1);
    expect(attempt(name, `${RENDERER_URL}#/settings`)).toBe(false);
    for (const url of ['https://evil.example/', 'http://127.0.0.1:48123/', 'file:///etc/passwd', 'app://evil/index.html', 'javascript:alert(1)']) {
      expect(attempt(name, url), url).toBe(true);
    }
  });

  it('refuses every <webview>', () => {
    expect(attempt('will-attach-webview', RENDERER_URL)).toBe(true);
  });

  it('opens no window; a vetted link goes to the system browser', () => {
    electron.opened.length = 0;
    for (const url of ['https://icd.who.int/browse10/2019/en#/J20.9', 'http://192.168.1.20:48123/docs', 'https://evil.example/', RENDERER_URL, 'http://127.0.0.1:48124/docs']) {
      expect(contents.openHandler!({ url }), url).toEqual({ action: 'deny' });
    }
    expect(electron.opened).toEqual(['https://icd.who.int/browse10/2019/en#/J20.9', 'http://192.168.1.20:48123/docs']);
  });
});
