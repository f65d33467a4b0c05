/**
 * The one contract between the renderer and the rest of the app: every method the UI may call, by name and
 * type. preload/preload.ts implements it over IPC (main/ipc.ts answers each method with a handler that checks the
 * sender and validates the arguments with the same TypeBox schemas the HTTP routes use); renderer/src/transport/
 * http.ts implements it over HTTP for a plain browser. The UI gets one of the two and cannot tell which.
 *
 * Every method returns a promise; a failure rejects with a {@link ClinicFailure} (status, code, plain message).
 */
import type { NewApiClientBody, NewApiKeyBody, NewUserBody, SetupBody, SignInBody } from '../server/auth/app-schemas.js';
import type { BookBody } from '../server/appointments/schemas.js';
import type { SaKey } from '../server/notifications/schemas.js';
import type { CreatePatientBody, UpdatePatientBody } from '../server/patients/schemas.js';
import type { CreateSubscriptionBody } from '../server/webhooks/schemas.js';

export type { BookBody, CreatePatientBody, CreateSubscriptionBody, NewApiClientBody, NewApiKeyBody, NewUserBody, SaKey, SetupBody, SignInBody, UpdatePatientBody };

/** What every rejected call carries, whichever transport. `status` follows HTTP (0: the service did not answer). */
export interface ClinicFailure {
  status: number;
  code: string;
  message: string;
}

export interface ServiceInfo {
  /** Where local integrations reach the embedded clinic API. */
  baseUrl: string;
  version: string;
}

export type Role = 'admin' | 'doctor' | 'reception' | 'display';
export type Scope = 'patients:read' | 'patients:write' | 'appointments:read' | 'appointments:write' | 'notifications' | 'webhooks' | 'scribe' | 'admin' | 'queue:board';

export interface SessionInfo {
  user: { id: string; username: string; display_name: string; role: Role };
  workspace: { id: string; name: string; country: string; timezone: string };
}

export interface Patient {
  id: string;
  /** First, middle and last name joined. */
  name: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  /** YYYY-MM-DD */
  dob: string;
  /** dob was estimated from an age given at registration (1 July of the year, or the 15th of the month for an infant). */
  dob_estimated: boolean;
  gender: 'M' | 'F' | 'O';
  /** International form, +91… */
  mobile: string;
  email: string;
  created_at: string;
}

/** The first 500 patients (oldest first) whose mobile needs a correction, each with the problem in words; total counts all. */
export interface MobileReview {
  patients: (Patient & { problem: string })[];
  total: number;
}

export type AppointmentStatus = 'BK' | 'CK' | 'OG' | 'PK' | 'CM' | 'CN' | 'NS';
export type ChangeStatusTarget = 'NS' | 'CK' | 'OG' | 'CM' | 'CN';

export interface Appointment {
  appointment_id: string;
  partner_appointment_id: string | null;
  patient_id: string;
  doctor_id: string | null;
  scheduled_at: string;
  /** The clinic's calendar day, YYYY-MM-DD */
  date: string;
  reason: string;
  status: AppointmentStatus;
  created_at: string;
  updated_at: string;
  /** How long the booking holds the doctor's time. */
  duration_minutes: number;
  walk_in: boolean;
  /** Booked over a taken slot (or the patient's own overlapping booking), confirmed by whoever booked it. */
  overbook: boolean;
  /** Waiting-room token, given at the first check-in (per doctor per day); null before. */
  token: number | null;
}

export interface DayEntry extends Appointment {
  patient_name: string;
  patient_mobile: string;
  /** Until when undoAppointment can reverse the latest change (a check-in, park or no-show); null when it cannot. */
  undo_until: string | null;
}

export interface DayList {
  date: string;
  appointments: DayEntry[];
}

export interface StatusChange {
  appointment_id: string;
  status: AppointmentStatus;
  previous_status: AppointmentStatus;
  token?: number | null;
}

/** The waiting-room board (GET /dr/v1/queue/board): per doctor, first names and tokens only. */
export interface QueueBoard {
  date: string;
  doctors: { doctor_id: string | null; doctor_name: string; now: QueueBoardEntry[]; next: QueueBoardEntry[] }[];
}
export interface QueueBoardEntry { token: number | null; first_name: string }

export interface Doctor { id: string; display_name: string; role: Role }

export interface User {
  id: string;
  username: string;
  display_name: string;
  role: Role;
  created_at: string;
  disabled_at: string | null;
}

export interface ApiClient { client_id: string; name: string; scopes: Scope[]; created_at: string; revoked_at: string | null }
export interface CreatedApiClient { client_id: string; client_secret: string; name: string; scopes: Scope[] }
export interface ApiKey { id: string; label: string; created_at: string; revoked_at: string | null }
export interface CreatedApiKey { id: string; label: string; api_key: string }

/** Whether Clinic Desk still sends to a subscription: a receiver that answers 410 Gone disables it for good. */
export interface WebhookState { status: 'active' | 'disabled'; disabled_reason: string | null }

/**
 * A list entry of the HTTP API (whose shape is the upstream platform's and has no state) with the state the
 * deliveries route reports, so the list can say which subscriptions were disabled.
 */
export interface WebhookSubscription extends WebhookState {
  id: string;
  event_names: string[];
  endpoint: string;
  protocol: string;
  client_id: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_name: string;
  status: 'pending' | 'delivered' | 'failed' | 'disabled' | 'cancelled';
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  attempt_log: { at: string; status: number | null; latency_ms: number; error: string | null }[];
}

export interface WebhookDeliveries {
  subscription: WebhookState & { id: string };
  deliveries: WebhookDelivery[];
}

export interface PushCredentials {
  project_id: string;
  client_email: string;
  private_key_id: string | null;
  token_uri: string;
  created_at: string;
  updated_at: string;
}

export interface Backup { name: string; path: string; size_bytes: number; created_at: string }

export interface ServerStatus {
  status: 'ok';
  version: string;
  base_url: string;
  /** Only for the installation owner's admins (docs/API.md, Hardening); another clinic's admin gets neither. */
  data_dir?: string;
  database_bytes?: number;
  started_at: string;
  uptime_s: number;
}

/** An AI assistant connected through the OIDC login (served by the OIDC provider when it is installed). */
export interface ConnectedAssistant { id: string; name: string; scopes: string[]; connected_at: string; last_used_at: string | null }

/** A model's download: idle (installed, or never fetched), running with its progress, or failed saying why. */
export interface SpeechModelDownload {
  state: 'idle' | 'downloading' | 'failed';
  bytes_done: number | null;
  bytes_total: number | null;
  percent: number | null;
  message: string | null;
}

export interface SpeechModel {
  id: string;
  name: string;
  description: string;
  languages: string[];
  size_bytes: number | null;
  installed: boolean;
  is_default: boolean;
  download: SpeechModelDownload;
}

/** A feature whose backend may not be installed yet: either its data or, in words, why it is not there. */
export type Optional<T> = { available: true; value: T } | { available: false; reason: string };

// ---- Dictation ----------------------------------------------------------------------------------------------

export type TemplateId = 'clinical_notes_template' | 'service_emr_template' | 'transcript_template';
export type Language = 'en-IN' | 'en-US' | 'hi' | 'gu' | 'kn' | 'ml' | 'ta' | 'te' | 'bn' | 'mr' | 'pa';

export interface RecordingMeta {
  patient_id?: string;
  patient_name?: string;
  appointment_id?: string;
  /** What MediaRecorder produces, e.g. audio/webm;codecs=opus */
  mime_type: string;
}

/** A recording kept on this computer, in chunks, as it was made (a crash loses at most the last second). */
export interface Recording extends RecordingMeta {
  id: string;
  created_at: string;
  chunks: number;
  bytes: number;
  /** Set when recording stopped normally; an unfinished one survived a crash and can still be uploaded. */
  finished: boolean;
  duration_s: number | null;
  /** The scribe transaction it was uploaded as, once uploaded. */
  txn_id: string | null;
  uploaded_at: string | null;
}

export interface DictationOptions {
  templates: TemplateId[];
  language: Language;
  mode: 'dictation' | 'consultation';
  model_type: 'pro' | 'lite';
  codify: boolean;
}

export interface UploadProgress {
  phase: 'preparing' | 'uploading' | 'starting';
  loaded: number;
  total: number;
}

export interface TemplateResult {
  template_id: string;
  name: string;
  status: 'success' | 'partial_success' | 'failure';
  /** The template's JSON (templates.md), decoded from Base64; null when it failed. */
  json: Record<string, unknown> | null;
  errors: string[];
  warnings: string[];
}

export interface DictationStatus {
  txn_id: string;
  state: 'processing' | 'completed' | 'partial' | 'failed';
  /** Our pipeline's stage and percent while processing, when the service reports them. */
  stage: string | null;
  percent: number | null;
  results: TemplateResult[];
  errors: string[];
}

/**
 * A language to dictate in, as the clinic server recognises it now (GET /voice/api/v2/languages): ready, needs a
 * speech model download (Settings → Speech models), or not on this server; reason says why and how, null when ready.
 */
export interface DictationLanguage {
  id: Language;
  name: string;
  status: 'ready' | 'needs_model' | 'unavailable';
  reason: string | null;
}

/** A page of a patient's past sessions; pass next_cursor back for older ones (null: no more). */
export interface ScribeHistoryPage {
  sessions: ScribeSessionSummary[];
  next_cursor: string | null;
}

/** A past scribe session (GET /voice/api/v2/sessions): status as the service says it (awaiting_init … failed). */
export interface ScribeSessionSummary {
  txn_id: string;
  created_at: string;
  status: string;
  stage: string | null;
  percent: number | null;
  patient_id: string | null;
  templates: string[];
  errors: string[];
}

export interface ClinicApi {
  // Service and session
  serviceInfo(): Promise<ServiceInfo>;
  setupStatus(): Promise<{ needed: boolean }>;
  setup(input: SetupBody): Promise<SessionInfo>;
  signIn(input: SignInBody): Promise<SessionInfo>;
  signOut(): Promise<void>;
  /** The signed-in user's own password; other sessions of the user end, this one stays (401 INVALID_CREDENTIALS: wrong current). */
  changePassword(current: string, next: string): Promise<void>;
  /** The signed-in user, or null (the browser keeps its session per tab; the app per window). */
  session(): Promise<SessionInfo | null>;

  // Front desk
  searchPatients(mobile: string): Promise<Patient[]>;
  getPatient(patientId: string): Promise<Patient>;
  createPatient(input: CreatePatientBody): Promise<Patient>;
  updatePatient(patientId: string, patch: UpdatePatientBody): Promise<Patient>;
  /** Admins: patients whose stored mobile breaks the mobile rule (search cannot find them), for correction. */
  mobileReview(): Promise<MobileReview>;
  dayAppointments(date?: string): Promise<DayList>;
  bookAppointment(input: BookBody): Promise<Appointment>;
  parkAppointment(appointmentId: string): Promise<StatusChange>;
  setAppointmentStatus(appointmentId: string, status: ChangeStatusTarget): Promise<StatusChange>;
  doctors(): Promise<Doctor[]>;
  /** Undoes the latest check-in, park or no-show within 10 minutes (409 NOTHING_TO_UNDO / UNDO_WINDOW_PASSED). */
  undoAppointment(appointmentId: string): Promise<StatusChange>;
  /** The doctor's next checked-in patient goes in (OG); without a doctor id, the signed-in doctor's. */
  callNextPatient(doctorId?: string): Promise<StatusChange>;
  queueBoard(): Promise<QueueBoard>;

  // Settings (admin)
  serverStatus(): Promise<ServerStatus>;
  users(): Promise<User[]>;
  createUser(input: NewUserBody): Promise<User>;
  setUserDisabled(userId: string, disabled: boolean): Promise<User>;
  /** A new password for another user of the clinic; all their sessions end. */
  resetUserPassword(userId: string, next: string): Promise<void>;
  apiClients(): Promise<ApiClient[]>;
  createApiClient(input: NewApiClientBody): Promise<CreatedApiClient>;
  revokeApiClient(clientId: string): Promise<void>;
  apiKeys(): Promise<ApiKey[]>;
  createApiKey(input: NewApiKeyBody): Promise<CreatedApiKey>;
  revokeApiKey(keyId: string): Promise<void>;
  webhooks(): Promise<WebhookSubscription[]>;
  createWebhook(input: CreateSubscriptionBody): Promise<{ id: string }>;
  deleteWebhook(subscriptionId: string): Promise<void>;
  webhookDeliveries(subscriptionId: string): Promise<WebhookDeliveries>;
  redeliverWebhook(subscriptionId: string, deliveryId: string): Promise<void>;
  pushCredentials(): Promise<PushCredentials | null>;
  setPushCredentials(saKey: SaKey): Promise<PushCredentials>;
  deletePushCredentials(): Promise<void>;
  backups(): Promise<Backup[]>;
  backup(): Promise<Backup>;
  connectedAssistants(): Promise<Optional<ConnectedAssistant[]>>;
  disconnectAssistant(assistantId: string): Promise<void>;
  speechModels(): Promise<Optional<SpeechModel[]>>;
  /** Starts downloading a model in the background; speechModels() shows the progress. */
  speechModelDownload(modelId: string): Promise<SpeechModel>;
  /** Makes an installed model the clinic's default; the list as it is now. */
  speechModelSetDefault(modelId: string): Promise<SpeechModel[]>;

  // Dictation: audio kept on this computer in chunks while recording, then uploaded through the scribe flow
  recordingStart(meta: RecordingMeta): Promise<Recording>;
  recordingAppend(recordingId: string, seq: number, chunk: Uint8Array): Promise<void>;
  recordingFinish(recordingId: string, durationS: number): Promise<Recording>;
  recordings(): Promise<Recording[]>;
  recordingAudio(recordingId: string): Promise<Uint8Array>;
  recordingDiscard(recordingId: string): Promise<void>;
  uploadDictation(recordingId: string, options: DictationOptions, onProgress?: (p: UploadProgress) => void): Promise<{ txn_id: string }>;
  dictationStatus(txnId: string): Promise<DictationStatus>;
  /** A patient's scribe sessions on the service, newest first, a page at a time (cursor: the last page's next_cursor). */
  scribeHistory(patientId: string, cursor?: string): Promise<ScribeHistoryPage>;
  /** Each language the dictation can be in, and whether the server recognises it now. */
  dictationLanguages(): Promise<Optional<DictationLanguage[]>>;
}

/** IPC channel per method; main registers exactly these, preload calls exactly these. */
export const CHANNELS = {
  serviceInfo: 'clinic:service-info',
  setupStatus: 'clinic:setup-status',
  setup: 'clinic:setup',
  signIn: 'clinic:sign-in',
  signOut: 'clinic:sign-out',
  changePassword: 'clinic:change-password',
  session: 'clinic:session',
  searchPatients: 'clinic:search-patients',
  getPatient: 'clinic:get-patient',
  createPatient: 'clinic:create-patient',
  updatePatient: 'clinic:update-patient',
  mobileReview: 'clinic:mobile-review',
  dayAppointments: 'clinic:day-appointments',
  bookAppointment: 'clinic:book-appointment',
  parkAppointment: 'clinic:park-appointment',
  setAppointmentStatus: 'clinic:set-appointment-status',
  doctors: 'clinic:doctors',
  undoAppointment: 'clinic:undo-appointment',
  callNextPatient: 'clinic:call-next-patient',
  queueBoard: 'clinic:queue-board',
  serverStatus: 'clinic:server-status',
  users: 'clinic:users',
  createUser: 'clinic:create-user',
  setUserDisabled: 'clinic:set-user-disabled',
  resetUserPassword: 'clinic:reset-user-password',
  apiClients: 'clinic:api-clients',
  createApiClient: 'clinic:create-api-client',
  revokeApiClient: 'clinic:revoke-api-client',
  apiKeys: 'clinic:api-keys',
  createApiKey: 'clinic:create-api-key',
  revokeApiKey: 'clinic:revoke-api-key',
  webhooks: 'clinic:webhooks',
  createWebhook: 'clinic:create-webhook',
  deleteWebhook: 'clinic:delete-webhook',
  webhookDeliveries: 'clinic:webhook-deliveries',
  redeliverWebhook: 'clinic:redeliver-webhook',
  pushCredentials: 'clinic:push-credentials',
  setPushCredentials: 'clinic:set-push-credentials',
  deletePushCredentials: 'clinic:delete-push-credentials',
  backups: 'clinic:backups',
  backup: 'clinic:backup',
  connectedAssistants: 'clinic:connected-assistants',
  disconnectAssistant: 'clinic:disconnect-assistant',
  speechModels: 'clinic:speech-models',
  speechModelDownload: 'clinic:speech-model-download',
  speechModelSetDefault: 'clinic:speech-model-set-default',
  recordingStart: 'clinic:recording-start',
  recordingAppend: 'clinic:recording-append',
  recordingFinish: 'clinic:recording-finish',
  recordings: 'clinic:recordings',
  recordingAudio: 'clinic:recording-audio',
  recordingDiscard: 'clinic:recording-discard',
  uploadDictation: 'clinic:upload-dictation',
  dictationStatus: 'clinic:dictation-status',
  scribeHistory: 'clinic:scribe-history',
  dictationLanguages: 'clinic:dictation-languages',
} as const satisfies Record<keyof ClinicApi, string>;

/** Main → renderer: upload progress of uploadDictation, tagged with the recording id. */
export const UPLOAD_PROGRESS_CHANNEL = 'clinic:upload-progress';

/** What main answers on every channel: the value, or the failure (preload turns it into a rejection). */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: ClinicFailure };

/** The arguments a method's IPC channel carries (callbacks stay in the renderer: progress comes back as events). */
export type IpcArgs<K extends keyof ClinicApi> = K extends 'uploadDictation' ? [recordingId: string, options: DictationOptions] : Parameters<ClinicApi[K]>;
