import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0016_audit_reads_moved.ts. Unused here (read entries go straight into audit_log
// through the pool), kept so that both schemas have the same tables and a clinic moved in keeps its rows.
export const auditReadsMoved: Migration = {
  version: 16,
  name: 'audit_reads_moved',
  sql: `
CREATE TABLE audit_reads_moved (
  journal    TEXT PRIMARY KEY,
  last_batch BIGINT NOT NULL
);
`,
};
