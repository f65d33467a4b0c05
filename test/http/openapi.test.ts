import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, call, startServer } from '../helpers/server.js';

describe('OpenAPI document', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer();
  });
  afterAll(() => srv.close());

  it('is generated from the route schemas', async () => {
    const res = await call(srv.baseUrl, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.json;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe('1.0');
    const search = doc.paths['/dr/v1/business/patients/search'].get;
    expect(search.parameters).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'mobile', in: 'query', required: true, schema: expect.objectContaining({ pattern: '^[0-9]{10}$' }) }),
    ]));
    expect(Object.keys(search.responses).sort()).toEqual(['200', '400', '401', '403', '404', '500']);
    expect(doc.paths['/dr/v1/appointment/{appointment_id}/parked'].post.responses).toHaveProperty('204');
    const change = doc.paths['/dr/v1/appointment/{appointment_id}/change-status'].post;
    expect(change.requestBody.content['application/json'].schema.properties.status).toBeDefined();
    expect(change.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'partner_id', in: 'query', required: true })]));
    expect(doc.components.securitySchemes.authHeader).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'auth' }));
  });

  it('has a browsable reference page', async () => {
    const res = await call(srv.baseUrl, 'GET', '/docs/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('swagger');
  });
});
