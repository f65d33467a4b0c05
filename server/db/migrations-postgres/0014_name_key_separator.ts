import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0014_name_key_separator.ts: its text never held U+0000, so a database here already
// has the new separator; the version is kept so both databases count migrations alike.
export const nameKeySeparator: Migration = {
  version: 14,
  name: 'name_key_separator',
  sql: `
SELECT 1;
`,
};
