import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every answer of the API in any test must match /v1/openapi.json (test/support/contract.ts).
    setupFiles: ['test/support/contract-setup.ts'],
    // Integration and e2e files each start their own redis-server and processes.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
