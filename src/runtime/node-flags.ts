/**
 * The V8 flags the API process runs with wherever it starts: the Dockerfile and docker-compose.yml
 * (test/unit/deploy-config.test.ts holds them to this list), `npm start`, the tests' and the
 * benchmarks' API processes. API workers inherit them from their primary (`fork` passes execArgv).
 *
 * `--max-semi-space-size=4` (MiB): V8 grows its young generation to 16 MiB a semi-space under a
 * burst of allocation, such as thousands of WebSocket clients connecting at once, and keeps the
 * pages: at 10,000 idle subscribers that was most of the 2.1 KiB of RSS per socket, where the
 * sockets themselves keep about 0.5 KiB; at 4 MiB it is 0.8-0.9 KiB. At 2 MiB the more frequent
 * scavenges cost the mixed workload about 2 µs a request; at 4 MiB no difference was measurable
 * (bench/log/2026-11.md).
 */
export const API_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/** The V8 flags to start `entry` with: the API's for its entry (src/main.ts, or dist/src/main.js), none for any other. */
export function nodeFlagsFor(entry: string): readonly string[] {
  return /(^|\/)src\/main\.[jt]s$/.test(entry) ? API_NODE_FLAGS : [];
}
