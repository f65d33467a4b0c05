import type { Migration } from '../migrate.js';

export const auditReadsMoved: Migration = {
  version: 16,
  name: 'audit_reads_moved',
  sql: `
-- Read entries of a SQLite clinic wait in a journal file beside the database and are moved into audit_log every few
-- seconds (audit/reads-worker.ts). The journal's last batch moved, committed with the rows it moved: after a crash
-- between a move and the journal's cleanup, the batches already moved are dropped rather than moved twice.
CREATE TABLE audit_reads_moved (
  journal    TEXT PRIMARY KEY,   -- the journal file's own id
  last_batch INTEGER NOT NULL
);
`,
};
