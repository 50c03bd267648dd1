/**
 * The REST baseline: a raw uWebSockets.js app replaying responses captured from the real server.
 * Each request is routed by its full URL and Accept-Encoding to the captured answer, which is
 * written back as it was: the same status line, the same headers in the same order, the same body
 * bytes (uWS adds Date, its mark and Content-Length, as it does for the server). Nothing else
 * happens per request: this is the physical limit of one uWS app on one core.
 *
 * With `peer`, it also asks uWS for the peer's address on every request (and ignores it), as any
 * service that must know its client does: the REST part reports what that one call costs.
 *
 *   npx tsx bench/raw-replay.ts CAPTURE_FILE PORT [peer]     (prints "listening")
 */
import { readFileSync } from 'node:fs';
import { App } from 'uWebSockets.js';
import { replayKey, type ReplayEntry } from './lib/replay.js';

const entries = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ReplayEntry[];
const askPeer = process.argv[4] === 'peer';
const answers = new Map(
  entries.map((e) => [e.key, { status: e.status, headers: e.headers, body: Buffer.from(e.bodyBase64, 'base64') }]),
);
App()
  .get('/*', (res, req) => {
    if (askPeer) res.getRemoteAddress();
    const a = answers.get(replayKey(req.getUrl(), req.getQuery() ?? '', req.getHeader('accept-encoding')));
    if (!a) {
      res.writeStatus('404 Not Found').end();
      return;
    }
    res.writeStatus(a.status);
    for (const [k, v] of a.headers) res.writeHeader(k, v);
    res.end(a.body);
  })
  .listen('127.0.0.1', Number(process.argv[3]), (socket) => {
    if (!socket) process.exit(1);
    console.log('listening');
  });
process.on('SIGTERM', () => process.exit(0));
