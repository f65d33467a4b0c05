import { invalid } from '../shared/errors.js';
import { checkHttpsOrLoopback } from '../shared/loopback.js';
import type { SecretBox } from '../shared/secret-box.js';
import { DEFAULT_WHATSAPP_BASE_URL, DEFAULT_WHATSAPP_VERSION, type WhatsAppAccount } from './providers/whatsapp.js';
import { DEFAULT_TWILIO_BASE_URL, type TwilioAccount } from './providers/twilio.js';
import { DEFAULT_SCHEDULE, type Schedule } from './schedule.js';
import type { SettingsBody, SettingsView } from './schemas.js';
import type { Provider, SettingsRow } from './store.js';
import { LANGUAGES, type Language, type Texts } from './templates.js';

/** A clinic's reminder settings without their secrets (reminder_settings.config). */
export interface ReminderConfig {
  language: Language;
  clinic_address: string;
  public_url: string | null;
  schedule: Schedule;
  texts: SettingsBody['texts'] & object;
  whatsapp?: Omit<WhatsAppAccount, 'accessToken'>;
  twilio?: Omit<TwilioAccount, 'authToken'>;
}

/** The sealed part: the provider's token and what its webhooks are checked with. */
export interface ReminderSecrets {
  access_token?: string;
  app_secret?: string;
  verify_token?: string;
  auth_token?: string;
}

export interface Settings {
  workspaceId: string;
  provider: Provider;
  enabled: boolean;
  config: ReminderConfig;
  secrets: ReminderSecrets;
  created_at: string;
  updated_at: string;
}

export const sealContext = (workspaceId: string) => `reminder_secrets:${workspaceId}`;

export function openSettings(row: SettingsRow, box: SecretBox): Settings {
  return {
    workspaceId: row.workspace_id, provider: row.provider, enabled: row.enabled === 1,
    config: JSON.parse(row.config) as ReminderConfig,
    secrets: JSON.parse(box.open(row.secrets_sealed, sealContext(row.workspace_id))) as ReminderSecrets,
    created_at: row.created_at, updated_at: row.updated_at,
  };
}

/**
 * The settings a PUT makes of the body and what was stored: omitted fields keep their stored (or default) value, and
 * an omitted secret keeps the stored one of the same provider. 400 when a provider's secret is missing altogether.
 */
export function mergeSettings(body: SettingsBody, previous: Settings | null): { config: ReminderConfig; secrets: ReminderSecrets } {
  const before = previous?.config;
  const same = previous?.provider === body.provider ? previous.secrets : {};
  const publicUrl = body.public_url === undefined ? before?.public_url ?? null : body.public_url;
  if (publicUrl !== null) checkHttpsOrLoopback(publicUrl, 'public_url');
  const config: ReminderConfig = {
    language: body.language ?? before?.language ?? 'en',
    clinic_address: body.clinic_address?.trim() ?? before?.clinic_address ?? '',
    public_url: publicUrl?.replace(/\/+$/, '') ?? null,
    schedule: { ...DEFAULT_SCHEDULE, ...before?.schedule, ...body.schedule },
    texts: { ...before?.texts, ...body.texts },
  };
  const secrets: ReminderSecrets = {};
  if (body.provider === 'whatsapp') {
    const w = body.whatsapp;
    if (!w) throw invalid('whatsapp is required when provider is whatsapp');
    const baseUrl = w.base_url ?? before?.whatsapp?.baseUrl ?? DEFAULT_WHATSAPP_BASE_URL;
    checkHttpsOrLoopback(baseUrl, 'whatsapp.base_url');
    config.whatsapp = {
      baseUrl, phoneNumberId: w.phone_number_id, version: w.api_version ?? before?.whatsapp?.version ?? DEFAULT_WHATSAPP_VERSION,
      reminderTemplate: w.reminder_template ?? before?.whatsapp?.reminderTemplate ?? 'appointment_reminder',
      bookingTemplate: w.booking_template ?? before?.whatsapp?.bookingTemplate ?? 'appointment_booked',
    };
    secrets.access_token = w.access_token ?? same.access_token;
    secrets.app_secret = w.app_secret ?? same.app_secret;
    secrets.verify_token = w.verify_token ?? same.verify_token;
    for (const k of ['access_token', 'app_secret', 'verify_token'] as const) if (!secrets[k]) throw invalid(`whatsapp.${k} is required`);
  } else {
    const t = body.twilio;
    if (!t) throw invalid('twilio is required when provider is twilio');
    const baseUrl = t.base_url ?? before?.twilio?.baseUrl ?? DEFAULT_TWILIO_BASE_URL;
    checkHttpsOrLoopback(baseUrl, 'twilio.base_url');
    config.twilio = { baseUrl, accountSid: t.account_sid, from: t.from };
    secrets.auth_token = t.auth_token ?? same.auth_token;
    if (!secrets.auth_token) throw invalid('twilio.auth_token is required');
  }
  return { config, secrets };
}

/** Where the provider is to call this clinic's webhook. */
export const webhookPath = (provider: Provider, workspaceId: string) => `/api/v1/reminders/${provider}/${encodeURIComponent(workspaceId)}/webhook`;

export function toView(s: Settings): SettingsView {
  const c = s.config;
  return {
    provider: s.provider, enabled: s.enabled, language: c.language, clinic_address: c.clinic_address, public_url: c.public_url,
    schedule: c.schedule, texts: c.texts,
    ...(c.whatsapp ? { whatsapp: {
      phone_number_id: c.whatsapp.phoneNumberId, api_version: c.whatsapp.version, base_url: c.whatsapp.baseUrl,
      reminder_template: c.whatsapp.reminderTemplate, booking_template: c.whatsapp.bookingTemplate,
    } } : {}),
    ...(c.twilio ? { twilio: { account_sid: c.twilio.accountSid, from: c.twilio.from, base_url: c.twilio.baseUrl } } : {}),
    webhook_url: `${c.public_url ?? ''}${webhookPath(s.provider, s.workspaceId)}`,
    created_at: s.created_at, updated_at: s.updated_at,
  };
}

/** The clinic's texts in its language: the data file's, with the clinic's own booking and reminder texts over them. */
export function textsOf(c: ReminderConfig): Texts {
  return { ...LANGUAGES[c.language], ...c.texts[c.language] };
}
