import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authenticate, requireScope } from '../http/auth.js';
import { plainErrors } from '../http/errors.js';
import type { Service } from '../service.js';
import { DayQuery } from '../appointments/schemas.js';
import { ServiceError, invalid } from '../shared/errors.js';
import { TOO_DEEP_MESSAGE, jsonTextTooDeep } from '../shared/json-depth.js';
import { parseTwilioWebhook, twilioSignatureValid } from './providers/twilio.js';
import { parseWhatsAppWebhook, whatsappSignatureValid } from './providers/whatsapp.js';
import {
  AppointmentParams, AppointmentReminders, DayReminders, LogQuery, NoShowReport, ReminderLog, ReportQuery, SandboxInboundBody, SandboxInboundResult,
  SettingsBody, SettingsView, VerifyQuery, WorkspaceParams,
} from './schemas.js';
import type { Settings } from './settings.js';

const security: Record<string, string[]>[] = [{ authHeader: [] }, { bearer: [] }];
const config = { errors: 'plain' as const };
/** Providers' webhook bodies are small; a larger one is not theirs. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Reminder settings (admin), each appointment's reminders and the clinic's delivery log (appointments:read), and
 * the providers' webhooks. Those carry no credentials of ours: each is checked with its provider's signature under
 * the clinic's sealed secret, and refused (403) when it does not match.
 */
export const reminderRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  const { audit, reminders } = service;

  await app.register(async (plugin) => {
    const api = plugin.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', authenticate(service));
    const admin = requireScope('admin', 'UNAUTHORIZED_ACCESS', audit, 'reminders.settings');
    const read = requireScope('appointments:read', 'UNAUTHORIZED_ACCESS', audit, 'reminders.read');

    api.put('/api/v1/reminders/settings', {
      config,
      preParsing: admin,
      schema: {
        operationId: 'setReminderSettings',
        tags: ['reminders'],
        summary: 'Set the clinic\'s reminder provider (WhatsApp Cloud API or a Twilio-compatible SMS API) and schedule',
        description: 'Replaces the settings; omitted fields keep their stored values, an omitted secret the stored one of the same provider. '
          + 'Secrets are stored encrypted and never returned. Nothing is sent until a clinic has settings with enabled: true.',
        security,
        body: SettingsBody,
        response: { 200: SettingsView, ...plainErrors([400, 401, 403, 500]) },
      },
    }, async (request) => reminders.setSettings(request.ctx, request.body));

    api.get('/api/v1/reminders/settings', {
      config,
      preParsing: admin,
      schema: {
        operationId: 'getReminderSettings',
        tags: ['reminders'],
        summary: 'The clinic\'s reminder settings, without secrets, and the webhook address to give the provider',
        security,
        response: { 200: SettingsView, ...plainErrors([401, 403, 404, 500]) },
      },
    }, async (request) => reminders.getSettings(request.ctx));

    api.delete('/api/v1/reminders/settings', {
      config,
      preParsing: admin,
      schema: {
        operationId: 'deleteReminderSettings',
        tags: ['reminders'],
        summary: 'Remove the clinic\'s reminder settings: nothing more is sent',
        security,
        response: { 204: Type.Null(), ...plainErrors([401, 403, 404, 500]) },
      },
    }, async (request, reply) => {
      await reminders.deleteSettings(request.ctx);
      return reply.code(204).send(null);
    });

    api.get('/api/v1/reminders/appointments/:appointment_id', {
      config,
      preParsing: read,
      schema: {
        operationId: 'getAppointmentReminders',
        tags: ['reminders'],
        summary: 'An appointment\'s reminders (each with its delivery status) and the patient\'s answer',
        security,
        params: AppointmentParams,
        response: { 200: AppointmentReminders, ...plainErrors([401, 403, 404, 500]) },
      },
    }, async (request) => reminders.ofAppointment(request.ctx, request.params.appointment_id));

    api.get('/api/v1/reminders/log', {
      config,
      preParsing: read,
      schema: {
        operationId: 'listReminderLog',
        tags: ['reminders'],
        summary: 'The clinic\'s reminders, most recently changed first: sent, delivered, read, failed with the provider\'s reason',
        security,
        querystring: LogQuery,
        response: { 200: ReminderLog, ...plainErrors([400, 401, 403, 500]) },
      },
    }, async (request) => ({ data: await reminders.log(request.ctx, request.query.limit ? Number(request.query.limit) : undefined) }));

    api.get('/api/v1/reminders/day', {
      config,
      preParsing: read,
      schema: {
        operationId: 'dayReminders',
        tags: ['reminders'],
        summary: 'A day\'s appointments (default today, clinic time) with their latest reminder\'s status and the patient\'s answer',
        security,
        querystring: DayQuery,
        response: { 200: DayReminders, ...plainErrors([400, 401, 403, 500]) },
      },
    }, async (request) => reminders.day(request.ctx, request.query.date));

    api.get('/api/v1/reminders/no-show-report', {
      config,
      preParsing: read,
      schema: {
        operationId: 'noShowReport',
        tags: ['reminders'],
        summary: 'No-show rate per week, split by confirmed / reminded without a reply / not reminded',
        security,
        querystring: ReportQuery,
        response: { 200: NoShowReport, ...plainErrors([400, 401, 403, 500]) },
      },
    }, async (request) => reminders.report(request.ctx, request.query.weeks ? Number(request.query.weeks) : undefined));

    if (!reminders.sandbox) return;
    api.post('/api/v1/reminders/sandbox/inbound', {
      config,
      preParsing: requireScope('appointments:write', 'UNAUTHORIZED_ACCESS', audit, 'reminders.sandbox'),
      schema: {
        operationId: 'sandboxReminderReply',
        tags: ['reminders', 'sandbox'],
        summary: 'Sandbox only: a patient\'s message to the clinic, as the provider would bring it (C, X, R, STOP, a button)',
        security,
        body: SandboxInboundBody,
        response: { 200: SandboxInboundResult, ...plainErrors([400, 401, 403, 404, 500]) },
      },
    }, async (request) => {
      const s = await reminders.settingsOf(request.ctx.caller.workspaceId);
      if (!s) throw new ServiceError(404, 'NOT_FOUND', 'This clinic has no reminder settings');
      const { from, text, payload } = request.body;
      const answer = await reminders.inbound(s, [{ kind: 'message', from, text, payload: payload ?? null, contextMessageId: null }], request.id);
      return { answer: answer?.text ?? null };
    });
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
