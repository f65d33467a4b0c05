import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp } from '../../server/http/app.js';
import { UI_CSP } from '../../server/http/static.js';
import { createService, type Service } from '../../server/service.js';
import { TEST_KEK, tempDir } from '../helpers/server.js';

describe('the browser UI served at / (server/http/static.ts)', () => {
  const dataDir = tempDir('static');
  const root = tempDir('static-root');
  let service: Service;
  let app: Awaited<ReturnType<typeof buildHttpApp>>;
  const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

  beforeAll(async () => {
    service = await createService({ kek: TEST_KEK, dataDir });
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Clinic Desk</title><div id="root"></div>');
    writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
    app = await buildHttpApp(service, { ui: { root } });
  });
  afterAll(async () => {
    await app.close();
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('serves index.html at / with a strict CSP and no caching', async () => {
    const r = await app.inject({ method: 'GET', url: '/', headers: html });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('<div id="root">');
    expect(r.headers['content-security-policy']).toBe(UI_CSP);
    expect(UI_CSP).toContain("script-src 'self'");
    expect(UI_CSP).not.toMatch(/unsafe|https?:/);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('DENY');
  });

  it('caches hashed assets for a year', async () => {
    const r = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toContain('immutable');
  });

  it('answers a browser page request for an app path with index.html', async () => {
    for (const url of ['/front-desk', '/settings/webhooks', '/dictation?patient=1']) {
      const r = await app.inject({ method: 'GET', url, headers: html });
      expect(r.statusCode, url).toBe(200);
      expect(r.body).toContain('<div id="root">');
      expect(r.headers['content-security-policy']).toBe(UI_CSP);
    }
  });

  it('never shadows the API: unknown API paths keep their own answers, and API routes work', async () => {
    const dr = await app.inject({ method: 'GET', url: '/dr/v1/nowhere', headers: html });
    expect(dr.statusCode).toBe(500);
    expect(dr.json().error.message).toBe('Wrong API URL');
    for (const url of ['/api/v1/nowhere', '/notification/x', '/voice/api/v3/status', '/v1/x', '/oauth2/x', '/mcp/x', '/.well-known/x']) {
      const r = await app.inject({ method: 'GET', url, headers: html });
      expect(r.statusCode, url).toBe(404);
      expect(r.json().error.code).toBe('NOT_FOUND');
    }
    expect((await app.inject({ method: 'GET', url: '/health', headers: html })).json()).toMatchObject({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/setup' })).json()).toEqual({ needed: true });
  });

  it('does not answer non-page requests or missing files with the UI', async () => {
    expect((await app.inject({ method: 'GET', url: '/front-desk' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/assets/missing.js', headers: html })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/front-desk', headers: html })).statusCode).toBe(404);
  });

  it('says how to build the UI when it is not built', async () => {
    const s2 = await createService({ kek: TEST_KEK, dataDir: tempDir('static-unbuilt') });
    const a2 = await buildHttpApp(s2, { ui: { root: join(root, 'nothing-here') } });
    const r = await a2.inject({ method: 'GET', url: '/' });
    expect(r.statusCode).toBe(503);
    expect(r.body).toContain('npm run build');
    await a2.close();
    await s2.close();
  });
});
