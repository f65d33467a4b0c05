import { Type } from 'typebox';
import { DayQuery } from '../appointments/schemas.js';
import { ServiceError } from '../shared/errors.js';
import { arg, appMethod, optionalArg } from '../shared/app-method.js';
import { DayReminders, NoShowReport, SettingsBody, SettingsView } from './schemas.js';

/** Settings → Reminders, and the queue's reminder and confirmation column (server/shared/app-method.ts). */
export const reminderMethods = {
  /** The clinic's reminder settings without secrets, or null when it has none. */
  reminderSettings: appMethod({
    args: [], result: Type.Union([SettingsView, Type.Null()]), access: 'admin',
    async run(c) {
      try {
        return await c.service.reminders.getSettings(c.ctx);
      } catch (err) {
        if (err instanceof ServiceError && err.status === 404) return null;
        throw err;
      }
    },
  }),
  setReminderSettings: appMethod({
    args: [arg('input', SettingsBody)], result: SettingsView, access: 'admin',
    run: (c, input) => c.service.reminders.setSettings(c.ctx, input),
  }),
  /** Per appointment of the day: its latest reminder's status and the patient's answer. */
  dayReminders: appMethod({
    args: [optionalArg('date', DayQuery.properties.date)], result: DayReminders, access: 'appointments:read',
    run: (c, date) => c.service.reminders.day(c.ctx, date),
  }),
  noShowReport: appMethod({
    args: [optionalArg('weeks', Type.Integer({ minimum: 1, maximum: 52 }))], result: NoShowReport, access: 'appointments:read',
    run: (c, weeks) => c.service.reminders.report(c.ctx, weeks),
  }),
};
