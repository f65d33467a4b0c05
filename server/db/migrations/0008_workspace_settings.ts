import type { Migration } from '../migrate.js';

export const workspaceSettings: Migration = {
  version: 8,
  name: 'workspace_settings',
  sql: `
-- A clinic's own settings, one row per (workspace, name), chosen in the desktop settings (e.g.
-- speech.default_model: the speech model the scribe tries first). Values are JSON text; a setting never set has no
-- row and its default lives in the code that reads it.
CREATE TABLE workspace_settings (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  name         TEXT NOT NULL,
  value        TEXT NOT NULL,           -- JSON
  updated_at   TEXT NOT NULL,
  updated_by   TEXT,                    -- users.id or api_clients.client_id of who set it
  PRIMARY KEY (workspace_id, name)
) WITHOUT ROWID;
`,
};
