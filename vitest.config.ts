import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The service compiled once per run: the processes tests start run it on plain node.
    globalSetup: ['test/support/test-build.ts'],
    // Every answer of the API in any test must match /v1/openapi.json (test/support/contract.ts).
    setupFiles: ['test/support/contract-setup.ts'],
    // Integration and e2e files each start their own redis-server and processes.
    pool: 'forks',
    // vitest's default (cores - 1) runs files one at a time on two cores; most of an e2e file's time
    // is spent waiting on the processes it started, so two files at once fit on two cores. Three
    // were faster here (350 s against 415) but made the Sentinel drill and two tests that compare
    // answers across a one-second refresh fail on a fresh clone (docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism()),
    // Files share a fork's loaded modules: importing the service's module graph (and the contract
    // check's document) once per fork, not once per file, is most of the suite's time otherwise.
    // Test files keep their own state: what they change globally (fake timers) they restore.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
