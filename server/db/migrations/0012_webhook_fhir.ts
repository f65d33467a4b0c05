import type { Migration } from '../migrate.js';

export const webhookFhir: Migration = {
  version: 12,
  name: 'webhook_fhir',
  sql: `
-- A subscription may ask for the FHIR R4 document Bundle of a note in its note.signed / note.amended events
-- (docs/API.md, Webhooks). Existing subscriptions keep the events they had (0).
ALTER TABLE webhook_subscriptions ADD COLUMN fhir INTEGER NOT NULL DEFAULT 0 CHECK (fhir IN (0, 1));
`,
};
