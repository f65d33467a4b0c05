import type { Migration } from '../migrate.js';

export const webhookDeliveryLease: Migration = {
  version: 15,
  name: 'webhook_delivery_lease',
  sql: `
-- Until when a process holds a pending delivery it is sending (issue 17: several instances on one database): a
-- delivery whose lease has not run out is not due for anybody else; a process that dies leaves its leases to run out.
ALTER TABLE webhook_deliveries ADD COLUMN lease_until TEXT;
`,
};
