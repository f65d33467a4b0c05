import { cpSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { ensureDemo } from '../../server/demo/demo.js';
import { createService, type ServiceOptions } from '../../server/service.js';
import { KEK_FILE } from '../../server/shared/secret-box.js';
import { type TestDatabase, freshPostgresDatabase } from './postgres.js';
import { TEST_KEK, tempDir } from './server.js';
import { copyPostgresDatabase } from './service.js';

/**
 * The demo clinics, made once per test process and copied for each server a test starts on them. Making them costs
 * twelve scrypt hashes at the service's own parameters (the users' passwords and the clients' secrets): 1–2 s of CPU,
 * 3–5 s on a loaded CI machine, paid by a hundred in-process servers and a dozen service processes a run. A copy
 * (the data folder; on PostgreSQL also the database, by CREATE DATABASE … TEMPLATE) opens as the same service
 * restarted: the demo is found and only its base_url corrected. Copies share the demo's ids and secrets; each is
 * still a database of its own. The demo books today's appointments in its clinics' zone, so a template serves only
 * the quarter hour it was made in: every zone's midnight falls on a quarter hour.
 */

interface DemoTemplate { dataDir: string; databaseUrl?: string }

declare module 'vitest' {
  export interface ProvidedContext {
    demoTemplates: string;
  }
}

const QUARTER_HOUR_MS = 15 * 60_000;
const templates = new Map<string, Promise<DemoTemplate>>();

/**
 * A folder for a template: in the run's folder for them (helpers/demo-template-global-setup.ts, removed at the end
 * of the run), or a temporary one where that setup did not run (a test started outside vitest.config.ts). The
 * PostgreSQL templates go with the tests' throwaway cluster.
 */
const templateDir = () => {
  const root = inject('demoTemplates');
  return root ? mkdtempSync(join(root, 'demo-')) : tempDir('demo-template');
};

function demoTemplate(database: TestDatabase['name']): Promise<DemoTemplate> {
  const key = `${database} ${Math.floor(Date.now() / QUARTER_HOUR_MS)}`;
  let template = templates.get(key);
  if (!template) {
    template = (async () => {
      const dataDir = templateDir();
      const pg = database === 'postgres' ? await freshPostgresDatabase('demo_template') : null;
      const service = await createService({ kek: TEST_KEK, dataDir, databaseUrl: pg?.url, webhooks: { dispatch: false } });
      await ensureDemo(service, 'http://127.0.0.1:0');
      await service.close();
      return { dataDir, databaseUrl: pg?.url };
    })();
    templates.set(key, template);
  }
  return template;
}

/**
 * Whether a service about to start on `dataDir` would make just what the template holds: a folder with nothing in it
 * yet, sealed with TEST_KEK (the one the template is sealed with), on a database of the helper's choosing, in the
 * production environment (the sandbox's credentials have their own prefix), on the real clock (a test's clock
 * decides the demo's "today" and every time it records).
 */
export function demoCopyFits(dataDir: string, opts: Pick<ServiceOptions, 'clock' | 'databaseUrl' | 'environment'> & { kek?: Buffer | null }): boolean {
  return opts.clock === undefined && (opts.kek === undefined || opts.kek === TEST_KEK) && opts.databaseUrl === undefined
    && opts.environment === undefined && readdirSync(dataDir).length === 0;
}

/**
 * Fills the empty `dataDir` with a copy of the demo clinics for a service given TEST_KEK; on PostgreSQL also makes
 * a copy of the template's database, for the service's databaseUrl.
 */
export async function copyDemo(dataDir: string, database: TestDatabase['name'] = 'sqlite'): Promise<{ url: string; drop(): Promise<void> } | null> {
  const template = await demoTemplate(database);
  cpSync(template.dataDir, dataDir, { recursive: true });
  return template.databaseUrl ? copyPostgresDatabase(template.databaseUrl, 'demo') : null;
}

/**
 * The same for `npm run serve --demo` as its own process, which reads its key from the data folder: the copy gets
 * TEST_KEK in its key file, as the service writes one.
 */
export async function copyDemoForProcess(dataDir: string, database: TestDatabase['name'] = 'sqlite'): Promise<{ url: string; drop(): Promise<void> } | null> {
  const pg = await copyDemo(dataDir, database);
  writeFileSync(join(dataDir, KEK_FILE), TEST_KEK.toString('base64'), { mode: 0o600 });
  return pg;
}
