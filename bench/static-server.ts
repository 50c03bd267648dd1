/**
 * Baseline for the REST benchmark: a raw uWebSockets.js server answering every request with one
 * static body (read from the file named in argv[2]) and the same JSON content type.
 *   npx tsx bench/static-server.ts BODY_FILE PORT
 */
import { readFileSync } from 'node:fs';
import { App } from 'uWebSockets.js';

const body = readFileSync(process.argv[2]!);
const port = Number(process.argv[3]);
App()
  .any('/*', (res) => {
    res.cork(() => res.writeHeader('content-type', 'application/json; charset=utf-8').end(body));
  })
  .listen('127.0.0.1', port, (socket) => {
    if (!socket) process.exit(1);
    console.log('listening');
  });
process.on('SIGTERM', () => process.exit(0));
