import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authenticate } from '../http/auth.js';
import { plainErrors } from '../http/errors.js';
import { registerOperationRoutes } from '../http/operation-routes.js';
import type { Service } from '../service.js';
import { ServiceError, invalid } from '../shared/errors.js';
import { TOO_DEEP_MESSAGE, jsonTextTooDeep } from '../shared/json-depth.js';
import { parseTwilioWebhook, twilioSignatureValid } from './providers/twilio.js';
import { parseWhatsAppWebhook, whatsappSignatureValid } from './providers/whatsapp.js';
import { reminderOperations, sandboxReminderOperations } from './operations.js';
import { VerifyQuery, WorkspaceParams } from './schemas.js';
import type { Settings } from './settings.js';

const config = { errors: 'plain' as const };
/** Providers' webhook bodies are small; a larger one is not theirs. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Reminder settings (admin), each appointment's reminders and the clinic's delivery log (appointments:read): the
 * operations' routes (operations.ts); and the providers' webhooks. Those carry no credentials of ours: each is
 * checked with its provider's signature under the clinic's sealed secret, and refused (403) when it does not match.
 */
export const reminderRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  const { audit, reminders } = service;

  await app.register(async (api) => {
    api.addHook('onRequest', authenticate(service));
    registerOperationRoutes(api, service, reminderOperations);
    if (reminders.sandbox) registerOperationRoutes(api, service, sandboxReminderOperations);
  });

  // The providers' webhooks: bodies kept as bytes, since the signature is over them exactly.
  await app.register(async (plugin) => {
    const hooks = plugin.withTypeProvider<TypeBoxTypeProvider>();
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded'], { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body));

    async function clinic(request: FastifyRequest, provider: Settings['provider'], workspaceId: string): Promise<Settings> {
      const s = await reminders.settingsOf(workspaceId).catch(() => null);
      if (!s || s.provider !== provider) throw new ServiceError(404, 'NOT_FOUND', 'No clinic receives this provider\'s webhooks here');
      audit.later({ caller: null, ip: request.ip, requestId: request.id }, { action: `reminders.webhook.${provider}`, resourceType: 'workspace', resourceIds: [workspaceId], outcome: 'success' });
      return s;
    }
    const forged = () => new ServiceError(403, 'INVALID_SIGNATURE', 'The signature does not match this clinic\'s provider secret');
    const raw = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

    hooks.get('/api/v1/reminders/whatsapp/:workspace_id/webhook', {
      config,
      schema: {
        operationId: 'verifyWhatsAppWebhook',
        tags: ['reminders'],
        summary: 'Meta\'s webhook verification: answers hub.challenge when hub.verify_token is the clinic\'s',
        params: WorkspaceParams,
        querystring: VerifyQuery,
        response: { 200: Type.String(), ...plainErrors([403, 404, 500]) },
      },
    }, async (request, reply) => {
      const s = await clinic(request, 'whatsapp', request.params.workspace_id);
      const q = request.query;
      if (q['hub.mode'] !== 'subscribe' || !q['hub.challenge'] || q['hub.verify_token'] !== s.secrets.verify_token) throw forged();
      return reply.type('text/plain').send(q['hub.challenge']);
    });

    hooks.post('/api/v1/reminders/whatsapp/:workspace_id/webhook', {
      config,
      schema: {
        operationId: 'whatsAppWebhook',
        tags: ['reminders'],
        summary: 'WhatsApp Cloud API webhook: delivery statuses and the patients\' messages, signed X-Hub-Signature-256',
        params: WorkspaceParams,
        response: { 200: Type.Object({ received: Type.Boolean() }), ...plainErrors([400, 403, 404, 500]) },
      },
    }, async (request) => {
      const s = await clinic(request, 'whatsapp', request.params.workspace_id);
      const body = raw(request.body);
      if (!whatsappSignatureValid(request.headers['x-hub-signature-256'] as string | undefined, body, s.secrets.app_secret ?? '')) throw forged();
      if (jsonTextTooDeep(body)) throw invalid(TOO_DEEP_MESSAGE);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        throw invalid('The body is not JSON');
      }
      const answer = await reminders.inbound(s, parseWhatsAppWebhook(parsed), request.id);
      if (answer) reminders.answerOnWhatsApp(s, answer);
      return { received: true };
    });

    hooks.post('/api/v1/reminders/twilio/:workspace_id/webhook', {
      config,
      schema: {
        operationId: 'twilioWebhook',
        tags: ['reminders'],
        summary: 'Twilio-compatible webhook: status callbacks and inbound SMS, signed X-Twilio-Signature; answers TwiML',
        params: WorkspaceParams,
        response: { 200: Type.String({ description: 'TwiML' }), ...plainErrors([400, 403, 404, 500]) },
      },
    }, async (request, reply) => {
      const s = await clinic(request, 'twilio', request.params.workspace_id);
      const params = Object.fromEntries(new URLSearchParams(raw(request.body).toString('utf8')));
      // The signature covers the address Twilio called: the clinic's public address, else this request's own.
      const url = `${s.config.public_url ?? `${request.protocol}://${request.headers.host ?? ''}`}${request.url}`;
      if (!twilioSignatureValid(request.headers['x-twilio-signature'] as string | undefined, s.secrets.auth_token ?? '', url, params)) throw forged();
      const answer = await reminders.inbound(s, parseTwilioWebhook(params), request.id);
      return reply.type('text/xml').send(`<?xml version="1.0" encoding="UTF-8"?><Response>${answer ? `<Message>${escapeXml(answer.text)}</Message>` : ''}</Response>`);
    });
  });
};
