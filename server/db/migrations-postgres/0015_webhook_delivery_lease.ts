import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0015_webhook_delivery_lease.ts.
export const webhookDeliveryLease: Migration = {
  version: 15,
  name: 'webhook_delivery_lease',
  sql: `
ALTER TABLE webhook_deliveries ADD COLUMN lease_until TEXT;
`,
};
