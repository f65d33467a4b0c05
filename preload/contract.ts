/**
 * The one contract between the renderer and the rest of the app, derived from the methods' declarations
 * (server/app-api.ts; docs/ARCHITECTURE.md, "App methods"): ClinicApi is every method the UI may call, by name and
 * type, its result types Static<> of the server's schemas. preload/preload.ts implements it over IPC (main/ipc.ts
 * answers each channel from the declarations); renderer/src/transport/http.ts implements it over HTTP for a plain
 * browser. The UI gets one of the two and cannot tell which.
 *
 * Every method returns a promise; a failure rejects with a {@link ClinicFailure} (status, code, plain message).
 * Only types come from the server here: at run time the preload bundles this file and app-methods.ts alone.
 */
import type { ClinicApi, IpcArgs as MethodIpcArgs, MethodName } from '../server/app-api.js';
import type { Role, Scope } from '../server/auth/permissions.js';
import type { Status } from '../server/appointments/states.js';
import type { ClinicFailure } from '../server/shared/app-method.js';
import { APP_METHOD_NAMES } from './app-methods.js';

export type { ClinicApi, ClinicFailure, Role, Scope };
export type { NewApiClientBody, NewApiKeyBody, NewUserBody, SetupBody, SignInBody } from '../server/auth/app-schemas.js';
export type { BookBody } from '../server/appointments/schemas.js';
export type { ChangeStatusTarget } from '../server/appointments/states.js';
export type { SaKey } from '../server/notifications/schemas.js';
export type { CreatePatientBody, UpdatePatientBody } from '../server/patients/schemas.js';
export type { CreateSubscriptionBody } from '../server/webhooks/schemas.js';
export type { MobileReview, Patient } from '../server/patients/app-shapes.js';
export type { AppAssistant as ConnectedAssistant } from '../server/oidc/app-shapes.js';
export type {
  DictationLanguage, DictationOptions, DictationStatus, Language, Recording, RecordingMeta, ScribeHistoryPage, ScribeSessionSummary, TemplateId,
  TemplateResult, UploadProgress,
} from '../server/scribe/api/app-shapes.js';
export type { SpeechModel } from '../server/scribe/speech-models/schemas.js';

/** What a method resolves with. */
type Result<K extends MethodName> = Awaited<ReturnType<ClinicApi[K]>>;

export type ServiceInfo = Result<'serviceInfo'>;
export type SessionInfo = Result<'signIn'>;
export type AppointmentStatus = Status;
export type Appointment = Result<'bookAppointment'>;
export type DayList = Result<'dayAppointments'>;
export type DayEntry = DayList['appointments'][number];
export type StatusChange = Result<'setAppointmentStatus'>;
export type QueueBoard = Result<'queueBoard'>;
export type Doctor = Result<'doctors'>[number];
export type User = Result<'createUser'>;
export type ApiClient = Result<'apiClients'>[number];
export type CreatedApiClient = Result<'createApiClient'>;
export type ApiKey = Result<'apiKeys'>[number];
export type CreatedApiKey = Result<'createApiKey'>;
export type WebhookSubscription = Result<'webhooks'>[number];
export type WebhookState = Pick<WebhookSubscription, 'status' | 'disabled_reason'>;
export type WebhookDeliveries = Result<'webhookDeliveries'>;
export type PushCredentials = Result<'setPushCredentials'>;
export type Backup = Result<'backup'>;
export type ServerStatus = Result<'serverStatus'>;
export type ReminderSettings = Result<'setReminderSettings'>;
export type ReminderSettingsInput = Parameters<ClinicApi['setReminderSettings']>[0];
export type DayReminders = Result<'dayReminders'>;
export type NoShowReport = Result<'noShowReport'>;

/** A feature whose backend may not be installed yet: either its data or, in words, why it is not there. */
export type Optional<T> = { available: true; value: T } | { available: false; reason: string };

// The generated list must name exactly the declared methods (npx tsx scripts/app-methods.ts rewrites it).
type Listed = (typeof APP_METHOD_NAMES)[number];
const everyMethodListed: [Exclude<MethodName, Listed>, Exclude<Listed, MethodName>] extends [never, never] ? true : false = true;
void everyMethodListed;

/** A method's IPC channel: clinic: and its name in kebab case. */
const channelOf = (method: string) => `clinic:${method.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** IPC channel per method; main registers exactly these, preload calls exactly these. */
export const CHANNELS = Object.fromEntries(APP_METHOD_NAMES.map((m) => [m, channelOf(m)])) as Record<MethodName, string>;

/** Main → renderer: progress of a method that reports it (uploadDictation's upload), tagged with the call's first argument. */
export const UPLOAD_PROGRESS_CHANNEL = 'clinic:upload-progress';
export interface ProgressEvent { method: MethodName; key: unknown; progress: unknown }

/** What main answers on every channel: the value, or the failure (preload turns it into a rejection). */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: ClinicFailure };

/** The arguments a method's IPC channel carries (callbacks stay in the renderer: progress comes back as events). */
export type IpcArgs<K extends MethodName> = MethodIpcArgs<K>;
