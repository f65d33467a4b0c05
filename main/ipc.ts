import type { IpcMainInvokeEvent } from 'electron';
import { type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { AppointmentParams, BookBody, CallNextQuery, ChangeStatusBody, DayQuery } from '../server/appointments/schemas.js';
import { type StatusChange as DomainStatusChange, toAppointment, undoUntil } from '../server/appointments/service.js';
import type { AppointmentListRow } from '../server/appointments/store.js';
import { appAccounts, needScope } from '../server/auth/app-accounts.js';
import {
  ChangePasswordBody, ClientParams, KeyParams, NewApiClientBody, NewApiKeyBody, NewUserBody, ResetPasswordBody, SetupBody, SignInBody,
  UserParams,
} from '../server/auth/app-schemas.js';
import type { RequestContext, Scope } from '../server/auth/permissions.js';
import { SaKey } from '../server/notifications/schemas.js';
import { formatMobile } from '../server/patients/mobile.js';
import { CreatePatientBody, PatientParams, SearchQuery, UpdatePatientBody } from '../server/patients/schemas.js';
import { fullName } from '../server/patients/service.js';
import type { PatientRow } from '../server/patients/store.js';
import type { Service } from '../server/service.js';
import { ServiceError } from '../server/shared/errors.js';
import { HistoryQuery } from '../server/scribe/schemas.js';
import { SpeechModelId } from '../server/scribe/speech-model-schemas.js';
import { CreateSubscriptionBody, DeliveryParams, SubscriptionParams } from '../server/webhooks/schemas.js';
import { type Violation, violationMessage } from '../server/shared/violations.js';
import {
  type Appointment, type ClinicApi, type ClinicFailure, type DayEntry, type IpcArgs, type Patient, type PushCredentials, type ServiceInfo,
  UPLOAD_PROGRESS_CHANNEL,
} from '../preload/contract.js';
import type { RecordingStore } from './recordings.js';
import type { EmbeddedHttp } from './scribe-http.js';
import { DictationOptionsSchema, RecordingIdSchema, RecordingMetaSchema, TxnIdSchema } from './schemas.js';

/** What a handler sees of an IPC event: the frame that sent it and the window (for its session and progress events). */
export type IpcEvent = Pick<IpcMainInvokeEvent, 'senderFrame'> & { sender: { id: number; send(channel: string, ...args: unknown[]): void } };

/** One plain function per contract method: the IPC layer, testable without Electron. */
export type Handlers = { [K in keyof ClinicApi]: (event: IpcEvent, ...args: IpcArgs<K>) => Promise<Awaited<ReturnType<ClinicApi[K]>>> };

export class ForbiddenSender extends Error {}

export function assertOwnRenderer(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, rendererUrl: string) {
  const url = event?.senderFrame?.url;
  if (!url) throw new ForbiddenSender('IPC call without a sender frame');
  const from = new URL(url);
  const ours = new URL(rendererUrl);
  if (from.protocol !== ours.protocol || from.host !== ours.host || from.pathname !== ours.pathname) {
    throw new ForbiddenSender(`IPC call from ${from.origin}${from.pathname} refused`);
  }
}

// ---- Arguments: each validated with the schema its HTTP route uses ---------------------------------------------

interface Arg { name: string; check: (v: unknown) => string | null; optional?: boolean }

function arg(name: string, schema: TSchema, optional = false): Arg {
  const compiled = Compile(schema);
  return {
    name, optional,
    check(v) {
      if (compiled.Check(v)) return null;
      // In words, as the HTTP errors say it (server/shared/violations.ts).
      return violationMessage(name, [...compiled.Errors(v)] as Violation[]);
    },
  };
}

const MAX_CHUNK = 16 * 1024 * 1024;
const bytes = (name: string): Arg => ({
  name,
  check: (v) => (v instanceof Uint8Array && v.byteLength <= MAX_CHUNK ? null : `${name} must be audio bytes (Uint8Array) of at most 16 MiB`),
});

const patientId = arg('patientId', PatientParams.properties.patient_id);
const appointmentId = arg('appointmentId', AppointmentParams.properties.appointment_id);
const subscriptionId = arg('subscriptionId', SubscriptionParams.properties.id);
const recordingId = arg('recordingId', RecordingIdSchema);

/** The arguments of every method, in order. Extra arguments are refused too. */
export const ARGS: { [K in keyof ClinicApi]: Arg[] } = {
  serviceInfo: [],
  setupStatus: [],
  setup: [arg('input', SetupBody)],
  signIn: [arg('input', SignInBody)],
  signOut: [],
  changePassword: [arg('current', ChangePasswordBody.properties.current_password), arg('next', ChangePasswordBody.properties.new_password)],
  session: [],
  searchPatients: [arg('mobile', SearchQuery.properties.mobile)],
  getPatient: [patientId],
  createPatient: [arg('input', CreatePatientBody)],
  updatePatient: [patientId, arg('patch', UpdatePatientBody)],
  mobileReview: [],
  dayAppointments: [arg('date', DayQuery.properties.date, true)],
  bookAppointment: [arg('input', BookBody)],
  parkAppointment: [appointmentId],
  setAppointmentStatus: [appointmentId, arg('status', ChangeStatusBody.properties.status)],
  doctors: [],
  undoAppointment: [appointmentId],
  callNextPatient: [arg('doctorId', CallNextQuery.properties.doctor_id, true)],
  queueBoard: [],
  serverStatus: [],
  users: [],
  createUser: [arg('input', NewUserBody)],
  setUserDisabled: [arg('userId', UserParams.properties.user_id), arg('disabled', Type.Boolean())],
  resetUserPassword: [arg('userId', UserParams.properties.user_id), arg('next', ResetPasswordBody.properties.new_password)],
  apiClients: [],
  createApiClient: [arg('input', NewApiClientBody)],
  revokeApiClient: [arg('clientId', ClientParams.properties.client_id)],
  apiKeys: [],
  createApiKey: [arg('input', NewApiKeyBody)],
  revokeApiKey: [arg('keyId', KeyParams.properties.key_id)],
  webhooks: [],
  createWebhook: [arg('input', CreateSubscriptionBody)],
  deleteWebhook: [subscriptionId],
  webhookDeliveries: [subscriptionId],
  redeliverWebhook: [subscriptionId, arg('deliveryId', DeliveryParams.properties.delivery_id)],
  pushCredentials: [],
  setPushCredentials: [arg('saKey', SaKey)],
  deletePushCredentials: [],
  backups: [],
  backup: [],
  connectedAssistants: [],
  disconnectAssistant: [arg('assistantId', Type.String({ minLength: 1, maxLength: 128 }))],
  speechModels: [],
  speechModelDownload: [arg('modelId', SpeechModelId)],
  speechModelSetDefault: [arg('modelId', SpeechModelId)],
  recordingStart: [arg('meta', RecordingMetaSchema)],
  recordingAppend: [recordingId, arg('seq', Type.Integer({ minimum: 0, maximum: 999_999 })), bytes('chunk')],
  recordingFinish: [recordingId, arg('durationS', Type.Number({ minimum: 0, maximum: 24 * 3600 }))],
  recordings: [],
  recordingAudio: [recordingId],
  recordingDiscard: [recordingId],
  uploadDictation: [recordingId, arg('options', DictationOptionsSchema)],
  dictationStatus: [arg('txnId', TxnIdSchema)],
  scribeHistory: [patientId, arg('cursor', HistoryQuery.properties.cursor, true)],
  dictationLanguages: [],
};

export function checkArgs(method: string, specs: Arg[], args: unknown[]) {
  if (args.length > specs.length) throw new ServiceError(400, 'INVALID_REQUEST', `${method} takes ${specs.length} argument(s), not ${args.length}`);
  specs.forEach((spec, i) => {
    if (spec.optional && args[i] === undefined) return;
    const problem = spec.check(args[i]);
    if (problem) throw new ServiceError(400, 'INVALID_REQUEST', problem);
  });
}

// ---- Shapes -------------------------------------------------------------------------------------------------

const toPatient = (p: PatientRow): Patient => ({
  id: p.id, name: fullName(p), first_name: p.first_name, middle_name: p.middle_name, last_name: p.last_name, dob: p.dob,
  dob_estimated: p.dob_estimated === 1, gender: p.gender,
  mobile: formatMobile({ cc: p.mobile_cc, national: p.mobile_national }), email: p.email ?? '', created_at: p.created_at,
});

const toStatusChange = (r: DomainStatusChange) =>
  ({ appointment_id: r.appointment.id, status: r.appointment.status, previous_status: r.previous_status, token: r.appointment.token });

const toDayEntry = (a: AppointmentListRow, now: Date): DayEntry => ({
  ...toAppointment(a), patient_name: fullName(a), patient_mobile: formatMobile({ cc: a.mobile_cc, national: a.mobile_national }),
  undo_until: undoUntil(a, now),
});

/** Any thrown value as the contract's failure: service errors keep their status and code; anything else is a 500. */
export function toFailure(e: unknown): ClinicFailure {
  if (e instanceof ServiceError) return { status: e.status, code: e.code, message: e.message };
  if (e instanceof ForbiddenSender) return { status: 403, code: 'FORBIDDEN_SENDER', message: e.message };
  if (e && typeof e === 'object' && 'code' in e && 'message' in e && 'status' in e) {
    const f = e as ClinicFailure;
    return { status: Number(f.status), code: String(f.code), message: String(f.message) };
  }
  console.error('clinic-desk: IPC handler failed', e);
  return { status: 500, code: 'SERVER_ERROR', message: 'Something went wrong inside Clinic Desk. Try again; if it keeps happening, restart the app.' };
}

export interface IpcDeps {
  service: Service;
  /** The renderer page every call must come from. */
  rendererUrl: string;
  info: ServiceInfo;
  recordings: RecordingStore;
  /** Backends reached through the embedded HTTP server (scribe, assistants, speech models). */
  http: EmbeddedHttp;
}

/**
 * The handler table: one function per contract method, each checking the sender, validating its arguments with
 * the HTTP routes' TypeBox schemas, then calling the same domain services the routes call. A window's session
 * (its user token) lives here in main, never in the renderer.
 */
export function createHandlers(deps: IpcDeps): Handlers {
  const { service, recordings, http } = deps;
  const { auth, patients, appointments, webhooks, notifications } = service;
  const accounts = appAccounts(service);
  const sessions = new Map<number, string>();

  function token(event: IpcEvent): string {
    const t = sessions.get(event.sender.id);
    if (!t) throw new ServiceError(401, 'UNAUTHORIZED_ACCESS', 'You are signed out. Sign in again to continue.');
    return t;
  }

  /** The window's caller; `scope` null for what every signed-in user may do. */
  function ctx(event: IpcEvent, scope: Scope | null): RequestContext {
    const caller = auth.authenticateToken(token(event));
    if (!caller) {
      sessions.delete(event.sender.id);
      throw new ServiceError(401, 'UNAUTHORIZED_ACCESS', 'Your session has ended (signed out, or the account was disabled). Sign in again.');
    }
    const c: RequestContext = { caller, ip: null, requestId: null };
    if (scope) needScope(c, scope);
    return c;
  }

  const toPush = (c: ReturnType<typeof notifications.credentials>): PushCredentials => ({
    project_id: c.sa_key.project_id, client_email: c.sa_key.client_email, private_key_id: c.sa_key.private_key_id, token_uri: c.sa_key.token_uri,
    created_at: c.created_at, updated_at: c.updated_at,
  });

  const impl: Handlers = {
    serviceInfo: async () => deps.info,
    setupStatus: async () => accounts.setupStatus(),
    async setup(e, input) {
      const { token: t, ...info } = await accounts.setup(input, null);
      sessions.set(e.sender.id, t);
      return info;
    },
    async signIn(e, input) {
      const { token: t, ...info } = await accounts.signIn(input, null);
      sessions.set(e.sender.id, t);
      return info;
    },
    async signOut(e) {
      const t = sessions.get(e.sender.id);
      sessions.delete(e.sender.id);
      if (t) {
        const caller = auth.authenticateToken(t);
        accounts.signOut(t, caller ? { caller, ip: null, requestId: null } : undefined);
      }
    },
    changePassword: async (e, current, next) => accounts.changePassword(ctx(e, null), token(e), { current_password: current, new_password: next }),
    async session(e) {
      const t = sessions.get(e.sender.id);
      const caller = t ? auth.authenticateToken(t) : null;
      if (!caller) return null;
      return accounts.session(caller);
    },

    searchPatients: async (e, mobile) => patients.search(ctx(e, 'patients:read'), mobile).map(toPatient),
    getPatient: async (e, id) => toPatient(patients.get(ctx(e, 'patients:read'), id)),
    createPatient: async (e, input) => toPatient(patients.create(ctx(e, 'patients:write'), input)),
    updatePatient: async (e, id, patch) => toPatient(patients.update(ctx(e, 'patients:write'), id, patch)),
    async mobileReview(e) {
      const { items, total } = patients.mobileReview(ctx(e, 'admin'));
      return { patients: items.map((i) => ({ ...toPatient(i.patient), problem: i.problem })), total };
    },
    async dayAppointments(e, date) {
      const r = appointments.day(ctx(e, 'appointments:read'), date);
      // The day list's rows carry the patient's name and mobile (a join in the store).
      const now = service.clock.now();
      return { date: r.date, appointments: (r.rows as AppointmentListRow[]).map((a) => toDayEntry(a, now)) };
    },
    bookAppointment: async (e, input): Promise<Appointment> => toAppointment(appointments.book(ctx(e, 'appointments:write'), input).appointment),
    parkAppointment: async (e, id) => toStatusChange(appointments.park(ctx(e, 'appointments:write'), id, false)),
    setAppointmentStatus: async (e, id, status) => toStatusChange(appointments.changeStatus(ctx(e, 'appointments:write'), id, false, status)),
    doctors: async (e) => accounts.doctors(ctx(e, 'appointments:read')),
    undoAppointment: async (e, id) => toStatusChange(appointments.undo(ctx(e, 'appointments:write'), id, false)),
    callNextPatient: async (e, doctorId) => toStatusChange(appointments.callNext(ctx(e, 'appointments:write'), doctorId)),
    queueBoard: async (e) => appointments.board(ctx(e, 'queue:board')),

    serverStatus: async (e) => accounts.status(ctx(e, 'admin'), deps.info.baseUrl, deps.info.version),
    users: async (e) => accounts.users(ctx(e, 'admin')),
    createUser: async (e, input) => accounts.createUser(ctx(e, 'admin'), input),
    setUserDisabled: async (e, id, disabled) => accounts.setUserDisabled(ctx(e, 'admin'), id, disabled),
    resetUserPassword: async (e, id, next) => accounts.resetPassword(ctx(e, 'admin'), id, { new_password: next }),
    apiClients: async (e) => accounts.apiClients(ctx(e, 'admin')),
    createApiClient: async (e, input) => accounts.createApiClient(ctx(e, 'admin'), input),
    revokeApiClient: async (e, id) => accounts.revokeApiClient(ctx(e, 'admin'), id),
    apiKeys: async (e) => accounts.apiKeys(ctx(e, 'admin')),
    createApiKey: async (e, input) => accounts.createApiKey(ctx(e, 'admin'), input),
    revokeApiKey: async (e, id) => accounts.revokeApiKey(ctx(e, 'admin'), id),
    async webhooks(e) {
      const c = ctx(e, 'webhooks');
      // The list's shape is the HTTP API's (no state); the deliveries read, limited to one row, adds it.
      return webhooks.list(c).map((s) => {
        const { status, disabled_reason } = webhooks.deliveries(c, s.id, { limit: 1 }).subscription;
        return { ...s, status, disabled_reason };
      });
    },
    createWebhook: async (e, input) => ({ id: webhooks.create(ctx(e, 'webhooks'), input) }),
    deleteWebhook: async (e, id) => webhooks.remove(ctx(e, 'webhooks'), id),
    webhookDeliveries: async (e, id) => webhooks.deliveries(ctx(e, 'webhooks'), id),
    redeliverWebhook: async (e, id, deliveryId) => webhooks.redeliver(ctx(e, 'webhooks'), id, deliveryId),
    async pushCredentials(e) {
      try {
        return toPush(notifications.credentials(ctx(e, 'notifications')));
      } catch (err) {
        if (err instanceof ServiceError && err.status === 404) return null;
        throw err;
      }
    },
    async setPushCredentials(e, saKey) {
      const c = ctx(e, 'notifications');
      notifications.setCredentials(c, saKey);
      return toPush(notifications.credentials(c));
    },
    deletePushCredentials: async (e) => notifications.deleteCredentials(ctx(e, 'notifications')),
    backups: async (e) => accounts.backups(ctx(e, 'admin')),
    backup: async (e) => accounts.backup(ctx(e, 'admin')),
    async connectedAssistants(e) {
      ctx(e, 'admin');
      return http.assistants(token(e));
    },
    async disconnectAssistant(e, id) {
      ctx(e, 'admin');
      return http.disconnectAssistant(token(e), id);
    },
    async speechModels(e) {
      ctx(e, 'admin');
      return http.speechModels(token(e));
    },
    async speechModelDownload(e, id) {
      ctx(e, 'admin');
      return http.speechModelDownload(token(e), id);
    },
    async speechModelSetDefault(e, id) {
      ctx(e, 'admin');
      return http.speechModelSetDefault(token(e), id);
    },

    async recordingStart(e, meta) {
      ctx(e, 'scribe');
      return recordings.start(meta);
    },
    async recordingAppend(e, id, seq, chunk) {
      ctx(e, 'scribe');
      recordings.append(id, seq, chunk);
    },
    async recordingFinish(e, id, durationS) {
      ctx(e, 'scribe');
      return recordings.finish(id, durationS);
    },
    async recordings(e) {
      ctx(e, 'scribe');
      return recordings.list();
    },
    async recordingAudio(e, id) {
      ctx(e, 'scribe');
      return new Uint8Array(recordings.audio(id));
    },
    async recordingDiscard(e, id) {
      ctx(e, 'scribe');
      recordings.discard(id);
    },
    async uploadDictation(e, id, options) {
      ctx(e, 'scribe');
      const rec = recordings.get(id);
      const audio = recordings.audio(id);
      if (audio.length === 0) throw new ServiceError(400, 'EMPTY_RECORDING', 'This recording has no audio. Record again, and check the microphone level meter moves.');
      const r = await http.upload(token(e), rec, audio, options, (p) => e.sender.send(UPLOAD_PROGRESS_CHANNEL, { recordingId: id, ...p }));
      recordings.markUploaded(id, r.txn_id);
      return r;
    },
    async dictationStatus(e, txnId) {
      ctx(e, 'scribe');
      return http.status(token(e), txnId);
    },
    async scribeHistory(e, id, cursor) {
      ctx(e, 'scribe');
      return http.history(token(e), id, cursor);
    },
    async dictationLanguages(e) {
      ctx(e, 'scribe');
      return http.languages(token(e));
    },
  };

  const guarded = {} as Record<string, (event: IpcEvent, ...args: unknown[]) => Promise<unknown>>;
  for (const method of Object.keys(impl) as (keyof ClinicApi)[]) {
    const fn = impl[method] as (event: IpcEvent, ...args: unknown[]) => Promise<unknown>;
    guarded[method] = async (event, ...args) => {
      assertOwnRenderer(event, deps.rendererUrl);
      checkArgs(method, ARGS[method], args);
      return fn(event, ...args);
    };
  }
  return guarded as unknown as Handlers;
}
