import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every answer of the API in any test must match /v1/openapi.json (test/support/contract.ts).
    setupFiles: ['test/support/contract-setup.ts'],
    // Integration and e2e files each start their own redis-server and processes.
    pool: 'forks',
    // Files share a fork's loaded modules: importing the service's module graph (and the contract
    // check's document) once per fork, not once per file, is most of the suite's time otherwise.
    // Test files keep their own state: what they change globally (fake timers) they restore.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
