import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that must have a fresh worker of their own: they vi.mock electron, then import main-process modules. In
 * a shared worker such a module, once imported by an earlier file, would keep the electron it was first given, and
 * the mock could leak into later files. None of them uses PostgreSQL.
 */
const ISOLATED = ['test/desktop/electron-guards.test.ts', 'test/desktop/kek.test.ts'];

/**
 * The slowest files, slowest first (seconds alone on a loaded 2-core machine, or in a CI run). With two workers a
 * run ends when the later one is done: a long file started late leaves the other worker idle while it finishes.
 * Vitest orders files longest first from the timings it keeps in node_modules/.vite, but a fresh machine has none,
 * and then it starts the largest files first, which put these anywhere in the run. They start first here; the rest
 * follow in Vitest's order. Update the list when a file becomes (or stops being) one of the slowest.
 */
const SLOWEST_FIRST = [
  'test/cli/durability.test.ts', // 73 s in a CI run
  'test/chain/instances.test.ts', // 56 s
  'test/ui/dictation.test.ts', // 54 s
  'test/auth/tokens.test.ts', // 26 s
  'test/notes/notes.test.ts', // 25 s
  'test/webhooks/webhooks.test.ts', // 22 s
  'test/notes/safety.test.ts', // 21 s
  'test/ui/notes.test.ts', // 19 s
  'test/ui/settings.test.ts', // 19 s
  'test/scribe/crash.test.ts', // 19 s
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i === -1 ? SLOWEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the files not listed keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// Secrets hashed at scrypt's N = 2^10 instead of the service's 2^15 (server/shared/secrets.ts), in this process, its
// workers and every service they start: the tests hash and check some 1,300 passwords and client secrets.
// test/auth/secrets.test.ts checks the default in a process of its own.
process.env.CLINIC_DESK_SCRYPT_LOG2_N ??= '10';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Test files start real servers and browsers; two at a time suits a 2-core machine.
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
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
