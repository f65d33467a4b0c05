import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_METHODS, OPERATION_ROUTES } from '../../preload/app-methods.js';
import { bearer } from '../helpers/dr.js';
import { type RunningServer, call, startServer } from '../helpers/server.js';

/**
 * Settings → Webhooks as a browser calls it: the webhook operations' app methods at POST /api/v1/app/<name>
 * (server/webhooks/operations.ts), the same checks and implementation as IPC, each in one request (the list with
 * every subscription's state, which the public list route does not carry).
 */
describe('webhooks: the app methods at their app route', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer();
  });
  afterAll(() => srv.close());

  const ws = () => srv.demo.workspaces[0]!;
  const app = (name: string, args: unknown, token = ws().users.admin.auth_token) =>
    call(srv.baseUrl, 'POST', `/api/v1/app/${name}`, { headers: bearer(token), body: args });

  it('are derived from the declarations: every one at its app route, none written in the transport', () => {
    for (const m of ['webhooks', 'createWebhook', 'deleteWebhook', 'webhookDeliveries', 'redeliverWebhook'] as const) {
      expect(OPERATION_METHODS).toContain(m);
      expect(OPERATION_ROUTES).not.toHaveProperty(m);
    }
  });

  it('subscribes, lists with the state in one call, reads the log, and deletes', async () => {
    const created = await app('createWebhook', [{ event_names: ['appointment.statuschange'], endpoint: 'http://127.0.0.1:9/app-route' }]);
    expect(created.status, created.text).toBe(200);
    const { id } = created.json.value as { id: string };
    expect(Object.keys(created.json.value)).toEqual(['id']);

    const listed = await app('webhooks', []);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.value).toContainEqual(expect.objectContaining({ id, endpoint: 'http://127.0.0.1:9/app-route', status: 'active', disabled_reason: null, failing: null }));

    const log = await app('webhookDeliveries', [id]);
    expect(log.json).toEqual({ value: { subscription: { id, status: 'active', disabled_reason: null }, deliveries: [] } });

    const unknown = await app('redeliverWebhook', [id, 'no-such-delivery']);
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toBe('No delivery with this id for this subscription');

    const deleted = await app('deleteWebhook', [id]);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json).toEqual({});
    expect((await app('webhooks', [])).json.value.some((w: { id: string }) => w.id === id)).toBe(false);
    expect((await app('deleteWebhook', [id])).status).toBe(404);
  });

  it('checks the arguments as IPC does and refuses a caller without the webhooks scope', async () => {
    const bad = await app('createWebhook', [{ event_names: [], endpoint: 'ftp://x' }, 'extra']);
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toBe('createWebhook takes 1 argument(s), not 2');
    const refused = await app('webhooks', [], ws().users.reception.auth_token);
    expect(refused.status).toBe(403);
  });
});
