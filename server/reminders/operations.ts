import { type Static, Type } from 'typebox';
import { DayQuery } from '../appointments/schemas.js';
import { plainErrors } from '../http/errors.js';
import { arg, optionalArg } from '../shared/app-method.js';
import { ServiceError, orNone } from '../shared/errors.js';
import { guard, operation } from '../shared/operation.js';
import {
  AppointmentParams, AppointmentReminders, DayReminders, LogQuery, NoShowReport, ReminderLog, ReportQuery, SandboxInboundBody, SandboxInboundResult,
  SettingsBody, SettingsView,
} from './schemas.js';

/**
 * The reminders domain's operations, each declared once (server/shared/operation.ts): the clinic's reminder settings
 * (admin), each appointment's reminders, the delivery log, the day's reminders and the no-show report
 * (appointments:read), as routes and as Settings → Reminders' and the queue's app methods. The order is the routes'
 * (and the OpenAPI document's). The providers' webhooks, which carry no credentials of ours, stay routes of their
 * own (routes.ts).
 */

const admin = guard('admin', { code: 'UNAUTHORIZED_ACCESS', audit: 'reminders.settings' });
const read = guard('appointments:read', { code: 'UNAUTHORIZED_ACCESS', audit: 'reminders.read' });

const security: Record<string, string[]>[] = [{ authHeader: [] }, { bearer: [] }];

export const reminderOperations = {
  /** Settings' view of the clinic's reminder settings, or null when it has none (the route's GET answers 404). */
  reminderSettings: operation({
    access: admin,
    run: ({ service, ctx }, _input: undefined) => orNone(service.reminders.getSettings(ctx)),
    app: { args: [], result: Type.Union([SettingsView, Type.Null()]), input: () => undefined, output: (settings) => settings },
  }),

  setReminderSettings: operation({
    access: admin,
    run: ({ service, ctx }, body: Static<typeof SettingsBody>) => service.reminders.setSettings(ctx, body),
    route: {
      method: 'PUT', url: '/api/v1/reminders/settings', errors: 'plain',
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
      input: (request) => request.body,
      status: 200,
      body: (settings) => settings,
    },
    app: { args: [arg('input', SettingsBody)], result: SettingsView, input: (input) => input, output: (settings) => settings, viaRoute: {} },
  }),

  getReminderSettings: operation({
    access: admin,
    run: ({ service, ctx }, _input: undefined) => service.reminders.getSettings(ctx),
    route: {
      method: 'GET', url: '/api/v1/reminders/settings', errors: 'plain',
      schema: {
        operationId: 'getReminderSettings',
        tags: ['reminders'],
        summary: 'The clinic\'s reminder settings, without secrets, and the webhook address to give the provider',
        security,
        response: { 200: SettingsView, ...plainErrors([401, 403, 404, 500]) },
      },
      input: () => undefined,
      status: 200,
      body: (settings) => settings,
    },
  }),

  deleteReminderSettings: operation({
    access: admin,
    run: ({ service, ctx }, _input: undefined) => service.reminders.deleteSettings(ctx),
    route: {
      method: 'DELETE', url: '/api/v1/reminders/settings', errors: 'plain',
      schema: {
        operationId: 'deleteReminderSettings',
        tags: ['reminders'],
        summary: 'Remove the clinic\'s reminder settings: nothing more is sent',
        security,
        response: { 204: Type.Null(), ...plainErrors([401, 403, 404, 500]) },
      },
      input: () => undefined,
      status: 204,
    },
  }),

  appointmentReminders: operation({
    access: read,
    run: ({ service, ctx }, appointmentId: string) => service.reminders.ofAppointment(ctx, appointmentId),
    route: {
      method: 'GET', url: '/api/v1/reminders/appointments/:appointment_id', errors: 'plain',
      schema: {
        operationId: 'getAppointmentReminders',
        tags: ['reminders'],
        summary: 'An appointment\'s reminders (each with its delivery status) and the patient\'s answer',
        security,
        params: AppointmentParams,
        response: { 200: AppointmentReminders, ...plainErrors([401, 403, 404, 500]) },
      },
      input: (request) => request.params.appointment_id,
      status: 200,
      body: (reminders) => reminders,
    },
  }),

  reminderLog: operation({
    access: read,
    run: ({ service, ctx }, limit: number | undefined) => service.reminders.log(ctx, limit),
    route: {
      method: 'GET', url: '/api/v1/reminders/log', errors: 'plain',
      schema: {
        operationId: 'listReminderLog',
        tags: ['reminders'],
        summary: 'The clinic\'s reminders, most recently changed first: sent, delivered, read, failed with the provider\'s reason',
        security,
        querystring: LogQuery,
        response: { 200: ReminderLog, ...plainErrors([400, 401, 403, 500]) },
      },
      input: (request) => (request.query.limit ? Number(request.query.limit) : undefined),
      status: 200,
      body: (data) => ({ data }),
    },
  }),

  /** Per appointment of the day: its latest reminder's status and the patient's answer. */
  dayReminders: operation({
    access: read,
    run: ({ service, ctx }, date: string | undefined) => service.reminders.day(ctx, date),
    route: {
      method: 'GET', url: '/api/v1/reminders/day', errors: 'plain',
      schema: {
        operationId: 'dayReminders',
        tags: ['reminders'],
        summary: 'A day\'s appointments (default today, clinic time) with their latest reminder\'s status and the patient\'s answer',
        security,
        querystring: DayQuery,
        response: { 200: DayReminders, ...plainErrors([400, 401, 403, 500]) },
      },
      input: (request) => request.query.date,
      status: 200,
      body: (day) => day,
    },
    app: { args: [optionalArg('date', DayQuery.properties.date)], result: DayReminders, input: (date) => date, output: (day) => day, viaRoute: {} },
  }),

  noShowReport: operation({
    access: read,
    run: ({ service, ctx }, weeks: number | undefined) => service.reminders.report(ctx, weeks),
    route: {
      method: 'GET', url: '/api/v1/reminders/no-show-report', errors: 'plain',
      schema: {
        operationId: 'noShowReport',
        tags: ['reminders'],
        summary: 'No-show rate per week, split by confirmed / reminded without a reply / not reminded',
        security,
        querystring: ReportQuery,
        response: { 200: NoShowReport, ...plainErrors([400, 401, 403, 500]) },
      },
      input: (request) => (request.query.weeks ? Number(request.query.weeks) : undefined),
      status: 200,
      body: (report) => report,
    },
    // The route's weeks is query text; the app's a number, so a browser calls the app route.
    app: { args: [optionalArg('weeks', Type.Integer({ minimum: 1, maximum: 52 }))], result: NoShowReport, input: (weeks) => weeks, output: (report) => report },
  }),
};

/** The sandbox's stand-in for a patient's message (registered only where reminders go to the sandbox's provider). */
export const sandboxReminderOperations = {
  sandboxReminderReply: operation({
    access: guard('appointments:write', { code: 'UNAUTHORIZED_ACCESS', audit: 'reminders.sandbox' }),
    async run({ service: { reminders }, ctx }, { from, text, payload, requestId }: Static<typeof SandboxInboundBody> & { requestId: string }) {
      const s = await reminders.settingsOf(ctx.caller.workspaceId);
      if (!s) throw new ServiceError(404, 'NOT_FOUND', 'This clinic has no reminder settings');
      const answer = await reminders.inbound(s, [{ kind: 'message', from, text, payload: payload ?? null, contextMessageId: null }], requestId);
      return { answer: answer?.text ?? null };
    },
    route: {
      method: 'POST', url: '/api/v1/reminders/sandbox/inbound', errors: 'plain',
      schema: {
        operationId: 'sandboxReminderReply',
        tags: ['reminders', 'sandbox'],
        summary: 'Sandbox only: a patient\'s message to the clinic, as the provider would bring it (C, X, R, STOP, a button)',
        security,
        body: SandboxInboundBody,
        response: { 200: SandboxInboundResult, ...plainErrors([400, 401, 403, 404, 500]) },
      },
      input: (request) => ({ ...request.body, requestId: request.id }),
      status: 200,
      body: (answer) => answer,
    },
  }),
};
