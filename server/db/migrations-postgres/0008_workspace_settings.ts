import type { Migration } from '../migrate.js';

// PostgreSQL's twin of migrations/0008_workspace_settings.ts.
export const workspaceSettings: Migration = {
  version: 8,
  name: 'workspace_settings',
  sql: `
CREATE TABLE workspace_settings (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  name         TEXT NOT NULL,
  value        TEXT NOT NULL,
  updated_at   TEXT NOT NULL,
  updated_by   TEXT,
  PRIMARY KEY (workspace_id, name)
);
`,
};
