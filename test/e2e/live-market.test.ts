/**
 * The live market end to end: real API processes on one real Redis, ticks published on
 * `pw:ticks:{ASSET}` by the test, REST and WebSocket clients over real sockets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Tick } from '../../src/model/index.js';
import { writeSnapshot } from '../../src/store/snapshots.js';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import { frameViolation } from '../support/contract.js';
import { oneEvent } from '../support/fixtures.js';
import { formatContractPrice } from '../../src/domain/contract-price.js';
import { formatMoneyPrecise } from '../../src/domain/money.js';
import { windowAt } from '../../src/live/window.js';
import { publishTick as publish, seedStrike } from '../support/live.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, wsConnections, type ServiceProcess } from '../support/service.js';
import { fedSlug } from '../support/slugs.js';

// The simulator's Fed event today: its slug rolls with the meetings.
const FED = fedSlug();

const redis = useRedis();
let a: ServiceProcess;
let b: ServiceProcess;

beforeAll(async () => {
  [a, b] = await Promise.all([spawnProcess('src/main.ts', liveEnv()), spawnProcess('src/main.ts', liveEnv())]);
  await Promise.all([
    waitFor(`${a.base}/healthz`, (s) => s === 200, a),
    waitFor(`${b.base}/healthz`, (s) => s === 200, b),
  ]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const publishTick = (asset: Tick['asset'], price: number, at = Date.now()) => publish(redis.client, asset, price, at);

// From loopback the address gives no country: New Jersey stands in, where Kalshi's 15-minute markets may be shown.
const GEO = 'fallback_geo=US-NJ';

/** The API as `npm start` runs it (API workers at their default), with this file's settings. */
const liveEnv = (extra: Record<string, string> = {}) => {
  const { API_WORKERS: _single, ...env } = testEnv(redis.url, extra);
  return env;
};

const live = async (proc: ServiceProcess, query: string) => {
  const res = await fetch(`${proc.base}/v1/widgets/live-market${query}${query.includes('?') ? '&' : '?'}${GEO}`);
  expect(res.status).toBe(200);
  return LiveMarketPayload.parse(await res.json());
};

/** A WebSocket client that collects parsed frames. */
/** A frame the document describes (test/support/contract.ts), else an error that fails the file. */
function checkedFrame<T>(frame: T): T {
  const problem = frameViolation(frame);
  if (problem) throw new Error(problem);
  return frame;
}

async function client(proc: ServiceProcess): Promise<{
  ws: WebSocket;
  frames: Array<Record<string, unknown>>;
  next(pred: (f: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}> {
  const ws = new WebSocket(`${proc.base.replace('http', 'ws')}/v1/ws?${GEO}`);
  const frames: Array<Record<string, unknown>> = [];
  ws.on('message', (d) => frames.push(checkedFrame(JSON.parse(d.toString()) as Record<string, unknown>)));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return {
    ws,
    frames,
    async next(pred) {
      // Generous: on a loaded CI machine the API's processes may wait seconds for a core.
      await expect.poll(() => frames.some(pred), { timeout: 15_000, interval: 10 }).toBe(true);
      return frames.find(pred)!;
    },
  };
}

describe('live-market REST', () => {
  it('carries the spot path since the strike: the strike, then the newest tick published in each sixtieth of the window', async () => {
    // BTC: no other test of this file has published a BTC tick before this one.
    const strike = 97_000.25;
    const w = windowAt(Date.now(), 15);
    await seedStrike(redis.client, 'BTC', 15, strike);
    // Ticks spread over the window so far, stamped from its start to now, published in order.
    const elapsed = Date.now() - w.startMs;
    const ticks = Array.from({ length: 24 }, (_, k) => ({
      at: w.startMs + Math.floor((elapsed * (k + 1)) / 24),
      price: strike + (k % 2 ? -1 : 1) * 1.25 * (k + 1),
    }));
    for (const t of ticks) await publishTick('BTC', t.price, t.at);
    const last = ticks.at(-1)!;
    // The process reads the seeded strike within a second; the path starts once it has it.
    await expect
      .poll(
        async () => {
          const b = await live(a, '?asset=BTC&horizon_minutes=15');
          return b.spot_price === formatMoneyPrecise(last.price, 'USD') && b.spot_path.length > 0;
        },
        { timeout: 5_000 },
      )
      .toBe(true);
    const body = await live(a, '?asset=BTC&horizon_minutes=15');
    expect(body.window_start).toBe(new Date(w.startMs).toISOString());
    // Expected from the ticks: the newest of each slot after the strike's, in seconds since the window start.
    const slotMs = (w.endMs - w.startMs) / 60;
    const newestBySlot = new Map<number, (typeof ticks)[number]>();
    for (const t of ticks) {
      const slot = Math.floor((t.at - w.startMs) / slotMs);
      if (slot > 0 && t.at >= (newestBySlot.get(slot)?.at ?? -1)) newestBySlot.set(slot, t);
    }
    const expected = [
      [0, strike],
      ...[...newestBySlot.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, t]) => [Math.floor((t.at - w.startMs) / 1000), t.price]),
    ];
    expect(body.spot_path).toEqual(expected);
    expect(body.spot_path.length).toBeLessThanOrEqual(60);
  });

  it('serves the spec form with the strike, spot difference and multipliers from the ticks', async () => {
    // The processes started mid-window: the strike comes from an instance that caught the start.
    await seedStrike(redis.client, 'ETH', 15, 3_400.5);
    await publishTick('ETH', 3_400.5);
    await expect
      .poll(async () => (await live(a, '?asset=ETH&horizon_minutes=15')).market_status, { timeout: 5_000 })
      .toBe('open');
    await publishTick('ETH', 3_412.75);
    await expect
      .poll(async () => (await live(a, '?asset=ETH&horizon_minutes=15')).spot_price, { timeout: 5_000 })
      .toBe('$3,412.75');
    const body = await live(a, '?asset=ETH&horizon_minutes=15');
    expect(body.expiration_horizon).toBe('15 minutes');
    expect(body.underlying_asset).toBe('ETH');
    // Kalshi is the one 15-minute venue lawful in New Jersey, so it is the best there
    expect(body.providers_pool.map((p) => [p.operator_id, p.is_best_odds])).toEqual([['kalshi', true]]);
    // Kalshi's own age for its crypto contracts (compliance/rules.json), not the 21 of sports wagering
    expect(body.disclosures).toMatchObject({ min_age: 18, ad_label: 'Advertisement' });
    const strike = Number(body.providers_pool[0]!.live_metrics.target_price!.replace(/[$,]/g, ''));
    const diff = Number(body.providers_pool[0]!.live_metrics.spot_difference!.replace(/[$,+]/g, ''));
    expect(diff).toBeCloseTo(3_412.75 - strike, 2);
    expect(body.active_micro_question).toContain(body.providers_pool[0]!.live_metrics.target_price);
    expect(body.providers_pool[0]!.live_metrics.target_price).toBe('$3,400.50');
    // 1 / price: an up multiplier of x2.00 means the up contract costs 0.50.
    for (const p of body.providers_pool) {
      const up = 1 / Number(p.live_metrics.multipliers.payout_up.slice(1));
      const down = 1 / Number(p.live_metrics.multipliers.payout_down.slice(1));
      expect(up + down).toBeGreaterThan(0.99); // every venue's asks carry a margin
    }
  });

  it('two API processes on one Redis show the same strike for the same window', async () => {
    await seedStrike(redis.client, 'SOL', 15, 187.31);
    await publishTick('SOL', 187.31);
    await expect
      .poll(async () => (await live(b, '?asset=SOL&horizon_minutes=15')).market_status, { timeout: 5_000 })
      .toBe('open');
    const [pa, pb] = await Promise.all([
      live(a, '?asset=SOL&horizon_minutes=15'),
      live(b, '?asset=SOL&horizon_minutes=15'),
    ]);
    expect(pa.window_start).toBe(pb.window_start);
    expect(pa.providers_pool[0]!.live_metrics.target_price).toBe(pb.providers_pool[0]!.live_metrics.target_price);
  });

  it('defaults to BTC and 5 minutes and refuses anything else', async () => {
    const body = await live(a, '');
    expect(body.underlying_asset).toBe('BTC');
    expect(body.expiration_horizon).toBe('5 minutes');
    for (const q of ['?asset=DOGE', '?asset=btc', '?horizon_minutes=10', '?horizon_minutes=5.0']) {
      const res = await fetch(`${a.base}/v1/widgets/live-market${q}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_parameter');
    }
  });
});

describe('WebSocket /v1/ws', () => {
  it('sends the current payload on subscribe, then an update after each tick', async () => {
    await seedStrike(redis.client, 'ETH', 15, 3_450);
    const c = await client(a);
    c.ws.send(JSON.stringify({ op: 'subscribe', topic: 'live-market:ETH:15' }));
    const first = await c.next((f) => f.topic === 'live-market:ETH:15');
    LiveMarketPayload.parse(first.data);
    await publishTick('ETH', 3_456.78);
    const update = await c.next(
      (f) => f.topic === 'live-market:ETH:15' && (f.data as { spot_price: string }).spot_price === '$3,456.78',
    );
    expect(LiveMarketPayload.parse(update.data).market_status).toBe('open');
    c.ws.close();
  }, 60_000);

  it('answers bad messages and unknown topics with an error frame, and unsubscribes', async () => {
    const c = await client(a);
    c.ws.send('not json');
    expect(await c.next((f) => f.op === 'error')).toMatchObject({ op: 'error', code: 'bad_request' });
    c.ws.send(JSON.stringify({ op: 'subscribe', topic: 'live-market:DOGE:5' }));
    expect(await c.next((f) => f.code === 'unknown_topic')).toMatchObject({ op: 'error', code: 'unknown_topic' });
    c.ws.send(JSON.stringify({ op: 'subscribe', topic: 'event:no-such-event' }));
    await expect.poll(() => c.frames.filter((f) => f.code === 'unknown_topic').length).toBe(2);
    // An alias of a real topic would subscribe to a channel nobody publishes on.
    c.ws.send(JSON.stringify({ op: 'subscribe', topic: 'live-market:BTC:05' }));
    await expect.poll(() => c.frames.filter((f) => f.code === 'unknown_topic').length).toBe(3);

    c.ws.send(JSON.stringify({ op: 'subscribe', topic: 'live-market:BTC:5' }));
    await c.next((f) => f.topic === 'live-market:BTC:5');
    c.ws.send(JSON.stringify({ op: 'unsubscribe', topic: 'live-market:BTC:5' }));
    await c.next((f) => f.op === 'unsubscribed');
    const before = c.frames.filter((f) => f.topic === 'live-market:BTC:5').length;
    for (let i = 0; i < 5; i++) await publishTick('BTC', 97_000 + i);
    await new Promise((r) => setTimeout(r, 1_500)); // a second's countdown push would land here too
    expect(c.frames.filter((f) => f.topic === 'live-market:BTC:5').length).toBe(before);
    c.ws.close();
  }, 60_000);

  it("decides an upgrade inside uWS's handler (the 101 corked): no uncorked-write warning on stderr", async () => {
    const before = a.output().length;
    const clients = await Promise.all(Array.from({ length: 4 }, () => client(a)));
    clients[0]!.ws.send(JSON.stringify({ op: 'subscribe', topic: 'live-market:BTC:5' }));
    await clients[0]!.next((f) => f.topic === 'live-market:BTC:5');
    for (const c of clients) c.ws.close();
    await expect.poll(() => wsConnections(a), { timeout: 5_000 }).toBe(0);
    expect(a.output().slice(before)).not.toContain('corked callback');
  });

  it('pushes the event widget when its snapshot changes', async () => {
    await writeSnapshot(redis.client, 'events', 'all', oneEvent(0.4), new Date());
    const c = await client(a);
    await expect
      .poll(
        async () => {
          c.ws.send(JSON.stringify({ op: 'subscribe', topic: `event:${FED}` }));
          await new Promise((r) => setTimeout(r, 100));
          return c.frames.some((f) => f.topic === `event:${FED}`);
        },
        { timeout: 5_000 },
      )
      .toBe(true);
    // A display format other than cents is a topic of its own; an unknown format is no topic.
    c.ws.send(JSON.stringify({ op: 'subscribe', topic: `event:${FED}:decimal` }));
    await c.next((f) => f.topic === `event:${FED}:decimal`);
    c.ws.send(JSON.stringify({ op: 'subscribe', topic: `event:${FED}:percent` }));
    expect(await c.next((f) => f.code === 'unknown_topic')).toMatchObject({ op: 'error', code: 'unknown_topic' });
    await writeSnapshot(redis.client, 'events', 'all', oneEvent(0.45), new Date());
    // Kalshi 0.45 after its fee: 0.45 + round_up(0.07 × 100 × 0.45 × 0.55 = 1.7325 → 1.74)/100 = 0.4674 → 47¢
    const afterFee = 0.45 + Math.ceil(0.07 * 100 * 0.45 * 0.55 * 100) / 100 / 100;
    const pushed = await c.next(
      (f) =>
        f.topic === `event:${FED}` &&
        JSON.stringify(f.data).includes(`"contract_price":"${formatContractPrice(afterFee, 'cents')}"`),
    );
    expect(pushed.data).toMatchObject({ widget_class: 'event-specific', event_slug: FED });
    await c.next(
      (f) =>
        f.topic === `event:${FED}:decimal` &&
        JSON.stringify(f.data).includes(`"contract_price":"${formatContractPrice(afterFee, 'decimal')}"`),
    );
    c.ws.close();
  });
});

describe('dead WebSocket clients', () => {
  it('pings an idle client and closes it when no pong comes back', async () => {
    const proc = await spawnProcess('src/main.ts', liveEnv({ WS_IDLE_TIMEOUT_SECONDS: '8' }));
    try {
      await waitFor(`${proc.base}/healthz`, (s) => s === 200, proc);
      const connections = () => wsConnections(proc);
      const alive = await client(proc); // the ws library answers pings by itself
      const dead = await client(proc);
      let pings = 0;
      alive.ws.on('ping', () => pings++);
      // The server counts a socket once its upgrade completes, which may trail the client's open.
      await expect.poll(connections, { timeout: 15_000, interval: 50 }).toBe(2);
      dead.ws.pause(); // reads nothing: never sees a ping, never answers one
      await expect.poll(connections, { timeout: 30_000, interval: 250 }).toBe(1);
      expect(pings).toBeGreaterThan(0);
      expect(alive.ws.readyState).toBe(WebSocket.OPEN);
      alive.ws.close();
      dead.ws.terminate();
    } finally {
      await proc.stop();
    }
  }, 60_000);
});

describe('slow WebSocket clients', () => {
  it('drops a client that stops reading, without holding up the others', async () => {
    const proc = await spawnProcess(
      'src/main.ts',
      liveEnv({ WS_MAX_BACKPRESSURE_BYTES: '4096', LIVE_PUSH_INTERVAL_MS: '10' }),
    );
    try {
      await waitFor(`${proc.base}/healthz`, (s) => s === 200, proc);
      const topics = ['BTC', 'ETH', 'SOL'].flatMap((x) => [`live-market:${x}:5`, `live-market:${x}:15`]);
      for (const x of ['BTC', 'ETH', 'SOL'] as const)
        for (const h of [5, 15] as const) await seedStrike(redis.client, x, h, 90_000);
      const slow = await client(proc);
      const fast = await client(proc);
      for (const topic of topics) {
        slow.ws.send(JSON.stringify({ op: 'subscribe', topic }));
        fast.ws.send(JSON.stringify({ op: 'subscribe', topic }));
      }
      await slow.next((f) => f.topic === topics[5]);
      const connections = () => wsConnections(proc);
      await expect.poll(connections, { timeout: 15_000, interval: 50 }).toBe(2);
      slow.ws.pause(); // stops reading: the server's send buffer for it fills up
      // Publish until the server has dropped the slow client (bounded: 30 s at most).
      const deadline = Date.now() + 30_000;
      let price = 90_000;
      let batches = 0;
      while (Date.now() < deadline) {
        await Promise.all(['BTC', 'ETH', 'SOL'].map((x) => publishTick(x as Tick['asset'], (price += 0.01))));
        await new Promise((r) => setTimeout(r, 5));
        if (++batches % 20 === 0 && (await connections()) === 1) break;
      }
      expect(await connections()).toBe(1);
      // The server's side is closed (counted out above); behind its close frame sit megabytes of the
      // kernel's buffered frames, which reading would only check again.
      slow.ws.terminate();
      // The reading client stayed connected and kept getting fresh prices.
      expect(fast.ws.readyState).toBe(WebSocket.OPEN);
      const received = fast.frames.length;
      await publishTick('BTC', 123_456.78);
      await fast.next((f) => (f.data as { spot_price?: string } | undefined)?.spot_price === '$123,456.78');
      expect(fast.frames.length).toBeGreaterThan(received);
      fast.ws.close();
    } finally {
      await proc.stop();
    }
  }, 60_000);
});
