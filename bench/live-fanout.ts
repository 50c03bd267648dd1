/**
 * Live-market fan-out benchmark.
 *
 *   npx tsx bench/live-fanout.ts [subscribers...]      (default: 1000 10000)
 *
 * For each subscriber count: starts a private redis-server and one API process, connects N
 * WebSocket clients to `live-market:ETH:15`, then publishes ticks into Redis one at a time and
 * measures tick-to-client latency (publish → frame received, every client, p50/p99/max). Then it
 * publishes ticks as fast as Redis takes them and reports how many per second the engine absorbs
 * (from the API's own counter on /readyz). The clients run in this process, on the same two
 * cores as the server, so latency includes the clients' own event loop.
 */
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { startPrivateRedis } from '../src/dev/private-redis.js';
import { ticksChannel } from '../src/store/keys.js';
import { seedStrike } from '../test/support/live.js';
import { spawnProcess, testEnv, waitFor } from '../test/support/service.js';

const TOPIC = 'live-market:ETH:15';
const LATENCY_TICKS = 40;
const ABSORB_TICKS = 50_000;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function connectClients(url: string, n: number, onFrame: (data: Buffer, at: number) => void): Promise<WebSocket[]> {
  const clients: WebSocket[] = [];
  for (let i = 0; i < n; i += 250) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(250, n - i) }, async () => {
        const ws = new WebSocket(url, { perMessageDeflate: false });
        await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
        let subscribed = false;
        const ready = new Promise<void>((resolve) =>
          ws.on('message', (data: Buffer) => {
            const at = performance.now();
            if (!subscribed) {
              subscribed = true;
              return resolve();
            }
            onFrame(data, at);
          }),
        );
        ws.send(JSON.stringify({ op: 'subscribe', topic: TOPIC }));
        await ready;
        return ws;
      }),
    );
    clients.push(...batch);
  }
  return clients;
}

async function run(n: number) {
  const redis = await startPrivateRedis();
  const pub = new Redis(redis.url);
  // Every client connects from loopback: lift the per-address WebSocket limits for the bench.
  const api = await spawnProcess(
    'src/main.ts',
    testEnv(redis.url, { LOG_LEVEL: 'error', WS_MAX_CONNECTIONS_PER_ADDRESS: '100000', RATE_LIMIT_WS_UPGRADE: '1000000/60' }),
  );
  try {
    await waitFor(`${api.base}/healthz`, (s) => s === 200, api);
    // The API started mid-window: store the strike an instance at the window start would have, so
    // the frames carry priced venues (a window without one is no_strike and much smaller).
    await seedStrike(pub, 'ETH', 15, 3_400);
    // Tick markers: each latency tick has a unique price, found in the frame's bytes.
    let marker = '';
    let sentAt = 0;
    let samples: number[] = [];
    const clients = await connectClients(`${api.base.replace('http', 'ws')}/v1/ws`, n, (data, at) => {
      if (marker && data.includes(marker)) samples.push(at - sentAt);
    });

    const all: number[] = [];
    for (let i = 0; i < LATENCY_TICKS; i++) {
      const price = 3_400 + i + 0.37;
      marker = `"spot_price":"$${price.toLocaleString('en-US', { minimumFractionDigits: 2 })}"`;
      samples = [];
      sentAt = performance.now();
      await pub.publish(ticksChannel('ETH'), JSON.stringify({ asset: 'ETH', price, ts: new Date().toISOString(), source: 'bench' }));
      const deadline = performance.now() + 5_000;
      while (samples.length < n && performance.now() < deadline) await new Promise((r) => setImmediate(r));
      if (i >= 5) all.push(...samples); // the first few warm up JIT and buffers
      marker = '';
      await new Promise((r) => setTimeout(r, 150)); // past the push coalescing interval
    }
    all.sort((a, b) => a - b);
    const delivered = all.length / ((LATENCY_TICKS - 5) * n);

    const stats = async () => ((await (await fetch(`${api.base}/readyz`)).json()) as { live: { ticks_applied: number } }).live.ticks_applied;
    const before = await stats();
    const t0 = performance.now();
    const pipe = pub.pipeline();
    for (let i = 0; i < ABSORB_TICKS; i++) {
      pipe.publish(ticksChannel('BTC'), JSON.stringify({ asset: 'BTC', price: 97_000 + i / 100, ts: new Date().toISOString(), source: 'bench' }));
    }
    await pipe.exec();
    while ((await stats()) - before < ABSORB_TICKS && performance.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 20));
    const absorbed = (await stats()) - before;
    const perSec = absorbed / ((performance.now() - t0) / 1000);

    clients.forEach((c) => c.terminate());
    return { n, min: all[0]!, p50: pct(all, 50), p99: pct(all, 99), max: all.at(-1)!, delivered, absorbed, perSec };
  } finally {
    pub.disconnect();
    await api.stop();
    await redis.stop();
  }
}

const counts = process.argv.slice(2).map(Number).filter((x) => x > 0);
for (const n of counts.length ? counts : [1_000, 10_000]) {
  const r = await run(n);
  console.log(
    `subscribers=${r.n} tick-to-client first=${r.min.toFixed(2)}ms p50=${r.p50.toFixed(2)}ms p99=${r.p99.toFixed(2)}ms max=${r.max.toFixed(2)}ms ` +
      `delivered=${(r.delivered * 100).toFixed(1)}% | engine absorbed ${r.absorbed} ticks at ${Math.round(r.perSec)}/s`,
  );
}
