/**
 * REST throughput of GET /v1/widgets/live-market against a baseline measured in the same run: a
 * raw uWebSockets.js server answering a static body of the same size. Prices keep moving during the
 * run (the simulator feed publishes several ticks a second per asset).
 *
 *   npx tsx bench/rest-throughput.ts [seconds] [connections]      (defaults: 10 s, 64)
 *
 * Needs wrk (Debian: apt-get install wrk).
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, startPrivateRedis } from '../src/dev/private-redis.js';
import { stopChild } from '../src/dev/stop-child.js';
import { spawnProcess, testEnv, waitFor } from '../test/support/service.js';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 64);
const root = resolve(import.meta.dirname, '..');

function wrk(url: string): { rps: number; p50: string; p99: string } {
  const out = spawnSync('wrk', ['-t2', `-c${connections}`, `-d${seconds}s`, '--latency', url], { encoding: 'utf8' });
  if (out.error) throw new Error('wrk is not installed (apt-get install wrk)');
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out.stdout)?.[1]);
  const p50 = /\s50%\s+(\S+)/.exec(out.stdout)?.[1] ?? '?';
  const p99 = /\s99%\s+(\S+)/.exec(out.stdout)?.[1] ?? '?';
  return { rps, p50, p99 };
}

const redis = await startPrivateRedis();
const env = testEnv(redis.url, { LOG_LEVEL: 'error' });
const api = await spawnProcess('src/main.ts', env);
const feed = await spawnProcess('workers/feed/main.ts', env);
try {
  await waitFor(`${api.base}/healthz`, (s) => s === 200, api);
  const path = '/v1/widgets/live-market?asset=BTC&horizon_minutes=5';
  // Wait for prices so the body has its full size.
  let body = '';
  for (let i = 0; i < 100 && !body.includes('"market_status":"open"'); i++) {
    body = await (await fetch(`${api.base}${path}`)).text();
    await new Promise((r) => setTimeout(r, 100));
  }
  const file = join(tmpdir(), `pw-bench-body-${process.pid}.json`);
  writeFileSync(file, body);
  const port = await freePort();
  const baseline = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'bench/static-server.ts'), file, String(port)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => baseline.stdout!.once('data', r));

  const base = wrk(`http://127.0.0.1:${port}/`);
  const live = wrk(`${api.base}${path}`);
  await stopChild(baseline);
  console.log(`body ${Buffer.byteLength(body)} bytes, wrk -t2 -c${connections} -d${seconds}s`);
  console.log(`baseline static uWS : ${Math.round(base.rps)} req/s  p50 ${base.p50}  p99 ${base.p99}`);
  console.log(`live-market endpoint: ${Math.round(live.rps)} req/s  p50 ${live.p50}  p99 ${live.p99}`);
  console.log(`ratio live/baseline : ${(live.rps / base.rps).toFixed(2)}`);
} finally {
  await Promise.all([api.stop(), feed.stop()]);
  await redis.stop();
}
