import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0012_webhook_fhir.ts.
export const webhookFhir: Migration = {
  version: 12,
  name: 'webhook_fhir',
  sql: `
ALTER TABLE webhook_subscriptions ADD COLUMN fhir INTEGER NOT NULL DEFAULT 0 CHECK (fhir IN (0, 1));
`,
};
