import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { scribeRoutes } from '../../server/scribe/api/routes.js';
import { routePlugin } from '../../server/http/route-plugin.js';
import { ROOT } from '../helpers/server.js';

/**
 * Route plugins get only what they use (issue 28, item 2; server/http/route-plugin.ts): each declares the services
 * it uses as Fastify plugin metadata, receives those alone, and leaves authentication to the `signedIn` subtree it is
 * registered in (server/http/app.ts).
 */
describe('route plugins', () => {
  it('refuse to start where a service they declare is not there, naming it', async () => {
    const app = Fastify();
    app.decorate('audit', {});
    await expect(app.register(scribeRoutes)).rejects.toThrow(/scribe.*required by 'scribe'/);
    await app.close();
  });

  it('receive the services they declare and no other', async () => {
    const app = Fastify();
    app.decorate('audit', { name: 'the audit log' });
    app.decorate('notes', { name: 'the notes' });
    let seen: unknown;
    await app.register(routePlugin('probe', ['audit'], async (_app, services) => {
      seen = services;
    }));
    await app.ready();
    expect(seen).toEqual({ audit: { name: 'the audit log' } });
    await app.close();
  });
});

const SERVER = join(ROOT, 'server');
const sourceFiles = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);

/**
 * The route files that still install `authenticate` themselves, in the domains not moved to `signedIn` subtrees yet.
 * An entry no longer needed fails the test, so the list only shrinks.
 */
const AUTHENTICATE_THEMSELVES = [
  'appointments/routes.ts', 'notifications/routes.ts', 'patients/routes.ts', 'reminders/routes.ts', 'sandbox/sandbox.ts', 'webhooks/routes.ts',
];

describe('authentication', () => {
  it('is installed by signedIn subtrees, not by route files (but for the domains listed)', () => {
    const installing = sourceFiles(SERVER)
      .filter((f) => /\bauthenticate\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SERVER, f).split(sep).join('/'))
      .filter((f) => f !== 'http/auth.ts')
      .sort();
    expect(installing).toEqual(AUTHENTICATE_THEMSELVES);
  });
});
