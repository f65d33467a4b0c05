import type { Migration } from '../migrate.js';

export const nameKeySeparator: Migration = {
  version: 14,
  name: 'name_key_separator',
  sql: `
-- patients.name_key (the duplicate rule's first and last name) separated the two with U+0000, which PostgreSQL's text
-- cannot store; U+001F, which names cannot contain either (server/shared/text.ts), keeps every key as distinct as it
-- was, so the identity index stays valid through the update. SQLite's text functions stop at U+0000, so the key is cut
-- as bytes (one separator per key: names cannot contain it).
UPDATE patients SET name_key = CAST(
    substr(CAST(name_key AS BLOB), 1, instr(CAST(name_key AS BLOB), x'00') - 1)
    || char(31)
    || substr(CAST(name_key AS BLOB), instr(CAST(name_key AS BLOB), x'00') + 1) AS TEXT)
  WHERE instr(CAST(name_key AS BLOB), x'00') > 0;
`,
};
