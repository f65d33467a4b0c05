import type { Migration } from '../migrate.js';
import { initial } from './0001_initial.js';
import { tokens } from './0002_tokens.js';
import { webhooks } from './0003_webhooks.js';
import { notifications } from './0004_notifications.js';
import { scribe } from './0005_scribe.js';
import { oidc } from './0006_oidc.js';
import { scribeHistory } from './0007_scribe_history.js';
import { workspaceSettings } from './0008_workspace_settings.js';
import { patientDobEstimated } from './0009_patient_dob_estimated.js';
import { queue } from './0010_queue.js';
import { notes } from './0011_notes.js';
import { webhookFhir } from './0012_webhook_fhir.js';
import { patientAllergies } from './0013_patient_allergies.js';
import { nameKeySeparator } from './0014_name_key_separator.js';
import { webhookDeliveryLease } from './0015_webhook_delivery_lease.js';
import { auditReadsMoved } from './0016_audit_reads_moved.js';
import { reminders } from './0017_reminders.js';

/**
 * Migrations are TypeScript modules holding SQL rather than loose .sql files so that the same list reaches
 * every build (tsx headless, the esbuild bundle of the Electron main process) without copying files around.
 * Append only: never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [initial, tokens, webhooks, notifications, scribe, oidc, scribeHistory, workspaceSettings,
  patientDobEstimated, queue, notes, webhookFhir, patientAllergies,
  nameKeySeparator, webhookDeliveryLease, auditReadsMoved, reminders];
