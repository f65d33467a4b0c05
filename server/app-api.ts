import { appointmentOperations } from './appointments/operations.js';
import { authMethods } from './auth/app-api.js';
import { authOperations } from './auth/operations.js';
import { profileOperations } from './auth/profile-operations.js';
import { desktopMethods } from './desktop/app-api.js';
import { noteOperations } from './notes/operations.js';
import { prescriptionOperations } from './notes/prescription-operations.js';
import { notificationOperations } from './notifications/operations.js';
import { assistantOperations } from './oidc/operations.js';
import { patientOperations } from './patients/operations.js';
import { reminderOperations } from './reminders/operations.js';
import { sandboxOperations } from './sandbox/operations.js';
import { dictationOperations } from './scribe/api/operations.js';
import { speechModelOperations } from './scribe/speech-models/operations.js';
import { statusOperations } from './status/operations.js';
import type { ApiOf, IpcArgsOf } from './shared/app-method.js';
import { appMethodsOf } from './shared/operation.js';
import { webhookOperations } from './webhooks/operations.js';

/**
 * Every method of the desktop app, each declared once in its domain: an operation's app binding (operations.ts,
 * server/shared/operation.ts) or, in the domains not converted yet, an app method (app-api.ts, server/shared/app-method.ts).
 * The order is the preload object's. Adding one: docs/ARCHITECTURE.md, "How to add an operation".
 */
/** Every declared operation (server/shared/operation.ts), by name: their app bindings are app methods of that name. */
export const OPERATIONS = {
  ...patientOperations, ...appointmentOperations, ...authOperations, ...webhookOperations, ...notificationOperations, ...reminderOperations,
  ...sandboxOperations, ...noteOperations, ...profileOperations, ...prescriptionOperations, ...statusOperations, ...speechModelOperations,
  ...dictationOperations, ...assistantOperations,
};

export const APP_METHODS = {
  ...authMethods,
  ...appMethodsOf(OPERATIONS),
  ...desktopMethods,
};
export type AppMethods = typeof APP_METHODS;
export type MethodName = keyof AppMethods;

/** The one contract between the renderer and the rest of the app: every method the UI may call, by name and type. */
export type ClinicApi = ApiOf<AppMethods>;

/** What a method's IPC channel carries. */
export type IpcArgs<K extends MethodName> = IpcArgsOf<AppMethods[K]>;
