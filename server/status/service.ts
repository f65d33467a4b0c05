import { existsSync, statSync } from 'node:fs';
import type { AuditLog } from '../audit/service.js';
import { type RequestContext, can, ownsInstallation } from '../auth/permissions.js';
import { authStore } from '../auth/store.js';
import { databaseFile } from '../config.js';
import { type Executor, ping } from '../db/tx.js';
import type { ScribeService } from '../scribe/service.js';
import { ServiceError } from '../shared/errors.js';
import type { Clock } from '../shared/time.js';
import type { ServerStatus } from './schemas.js';

export interface StatusDeps {
  db: Executor;
  clock: Clock;
  audit: AuditLog;
  scribe: Pick<ScribeService, 'readiness'>;
  dataDir: string;
}

/**
 * The installation's status (GET /api/v1/status, Settings → Clinic server): up since when, the database answering,
 * and what the scribe can do; the data folder and the database's size (every clinic's) only for the installation
 * owner's admins. Its own domain because it reports on others (the scribe's readiness, auth's installation owner).
 */
export function statusService({ db, clock, audit, scribe, dataDir }: StatusDeps) {
  const startedAt = clock.now();
  const store = authStore(db);
  return {
    async status(ctx: RequestContext, baseUrl: string, version: string): Promise<ServerStatus> {
      if (!can(ctx.caller, 'admin')) {
        audit.later(ctx, { action: 'admin.access', outcome: 'denied' });
        throw new ServiceError(403, 'FORBIDDEN', 'Only a clinic admin may see the server status');
      }
      await ping(db);
      const view: ServerStatus = {
        status: 'ok', version, base_url: baseUrl,
        started_at: startedAt.toISOString(), uptime_s: Math.max(0, Math.round((clock.now().getTime() - startedAt.getTime()) / 1000)),
        scribe: await scribe.readiness(),
      };
      if (!ownsInstallation(ctx.caller, await store.ownerWorkspace())) return view;
      const file = databaseFile(dataDir);
      const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
      return { ...view, data_dir: dataDir, database_bytes: size(file) + size(`${file}-wal`) };
    },
  };
}
export type StatusService = ReturnType<typeof statusService>;
