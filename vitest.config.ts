import { defineConfig } from 'vitest/config';

/**
 * Test files that must have a fresh worker of their own: they vi.mock electron, then import main-process modules. In
 * a shared worker such a module, once imported by an earlier file, would keep the electron it was first given, and
 * the mock could leak into later files. None of them uses PostgreSQL.
 */
const ISOLATED = ['test/desktop/electron-guards.test.ts', 'test/desktop/kek.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Test files start real servers and browsers; two at a time suits a 2-core machine.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ISOLATED,
          // Importing the service's module graph (Fastify, the OIDC provider, the clinical vocabularies checked
          // against their schemas) takes seconds, and a fresh worker per file paid it for every file. These files
          // share the two workers and so import it about once each; every file still starts its own servers on its
          // own data, and puts back what it changes in the process (environment variables, umask).
          isolate: false,
          // One throwaway PostgreSQL for the whole run (each test file makes its own databases on it), this run's
          // bundle of `npm run serve` for the tests that start the service as a process, the folder for the demo
          // clinics the test processes copy, and the one for the speech model they link.
          globalSetup: [
            'test/helpers/postgres-global-setup.ts', 'test/helpers/serve-bundle-global-setup.ts', 'test/helpers/demo-template-global-setup.ts',
            'test/helpers/speech-model-global-setup.ts',
          ],
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, globalSetup: ['test/helpers/demo-template-global-setup.ts'] } },
    ],
  },
});
