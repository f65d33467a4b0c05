import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseFile } from '../../server/config.js';
import { openDatabase } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import { ensureDemo } from '../../server/demo/demo.js';
import { createService } from '../../server/service.js';
import { TEST_KEK, tempDir } from '../helpers/server.js';

// Migration 14 changes the separator of patients.name_key; a clinic's existing patients must keep their duplicate
// rule across the upgrade, or the same patient could be registered twice after it.
describe('migration 14: name_key separator', () => {
  const dataDir = tempDir('name-key');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('rewrites keys made with U+0000 so that the duplicate rule still finds those patients', async () => {
    const db = openDatabase({ file: databaseFile(dataDir), migrate: false });
    migrate(db, migrations.filter((m) => m.version < 14));
    db.close();
    const service = await createService({ kek: TEST_KEK, dataDir });
    try {
      const demo = (await ensureDemo(service, 'http://127.0.0.1:0'))!;
      const caller = (await service.auth.authenticateToken(demo.workspaces[0]!.users.reception.auth_token))!;
      const ctx = { caller, ip: null, requestId: null };
      // A row as version 13 wrote it, straight into the table.
      service.db.prepare(`INSERT INTO patients (id, workspace_id, first_name, middle_name, last_name, dob, gender, mobile_cc,
        mobile_national, email, name_key, created_at, updated_at) VALUES ('p-old', ?, 'Asha', '', 'Rao', '1980-01-02', 'F', '91',
        '9876500001', NULL, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`).run(caller.workspaceId, 'asha\u0000rao');
      service.db.prepare('DELETE FROM schema_migrations WHERE version = 14').run();
      migrate(service.db);
      const key = (service.db.prepare("SELECT name_key FROM patients WHERE id = 'p-old'").get() as { name_key: string }).name_key;
      expect(key).toBe('asha\u001frao');
      await expect(service.patients.create(ctx, {
        first_name: 'ASHA', last_name: 'Rao', dob: '1980-01-02', gender: 'F', mobile: '9876500001',
      } as Parameters<typeof service.patients.create>[1])).rejects.toThrow(/already registered/);
    } finally {
      await service.close();
    }
  });
});
