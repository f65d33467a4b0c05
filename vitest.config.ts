import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Test files start real servers and browsers; two at a time suits a 2-core machine.
    maxWorkers: 2,
    // One throwaway PostgreSQL for the whole run (each test file makes its own databases on it).
    globalSetup: ['test/postgres-global-setup.ts'],
  },
});
