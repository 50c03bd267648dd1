/**
 * Venue quotes end to end with real sources selected (`SOURCES=quotes=venues`): two real API
 * processes on one real Redis, quotes published on `pw:quotes:{ASSET}` by the test exactly as the
 * venue feed publishes them (wire contract: src/model/live.ts). Both processes must show the same
 * venues, the venues' own strikes and their asks after fees, and leave out what a venue does not quote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Horizon } from '../../src/model/index.js';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import { publishQuote, publishTick, seedStrike, venueQuote } from '../support/live.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { testClock } from '../support/test-clock.js';

const redis = useRedis();
let a: ServiceProcess;
let b: ServiceProcess;
// The processes' time (and the quotes' stamps) a minute into a 15-minute window, so no window rolls
// under a test (they take seconds of the 4 minutes left in the 5-minute window).
const WINDOW_MS = 15 * 60_000;
const clock = testClock((60_000 - (Date.now() % WINDOW_MS) + WINDOW_MS) % WINDOW_MS);

beforeAll(async () => {
  // New Jersey, where Kalshi (15-minute markets) may be shown; Polymarket and Limitless nowhere.
  const env = testEnv(redis.url, { SOURCES: 'quotes=venues', DEFAULT_GEO: 'US-NJ', ...clock.env });
  [a, b] = await Promise.all([spawnProcess('src/main.ts', env), spawnProcess('src/main.ts', env)]);
  await Promise.all([
    waitFor(`${a.base}/healthz`, (s) => s === 200, a),
    waitFor(`${b.base}/healthz`, (s) => s === 200, b),
  ]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const live = async (proc: ServiceProcess, query: string) => {
  const res = await fetch(`${proc.base}/v1/widgets/live-market${query}`);
  expect(res.status).toBe(200);
  return LiveMarketPayload.parse(await res.json());
};

/** What a viewer compares: everything but the per-request tracking links. */
const shown = (p: LiveMarketPayload) => ({
  status: p.market_status,
  question: p.active_micro_question,
  window: p.window_start,
  providers: p.providers_pool.map((e) => ({ name: e.operator_name, best: e.is_best_odds, metrics: e.live_metrics })),
});

const quote = (horizon: Horizon, operatorId: string, up: number | null, down: number | null, strike: number | null) =>
  venueQuote(operatorId, up, down, clock.now(), { horizonMinutes: horizon, strike });

describe('live market on venue quotes (real sources)', () => {
  it("shows the venue's own quote and strike on both processes, after fees; a venue no rule allows is never shown", async () => {
    // The window's own strike, and a spot to measure against.
    await seedStrike(redis.client, 'BTC', 15, 97_100, clock.now());
    await publishTick(redis.client, 'BTC', 97_262.62, clock.now());
    await publishQuote(redis.client, quote(15, 'kalshi', 0.5, 0.48, 97_230.55));
    await publishQuote(redis.client, quote(15, 'limitless', 0.4, 0.4, 97_111.11));

    for (const proc of [a, b]) {
      await expect
        .poll(async () => (await live(proc, '?asset=BTC&horizon_minutes=15')).providers_pool.length, { timeout: 5_000 })
        .toBe(1);
    }
    const [a15, b15] = await Promise.all([
      live(a, '?asset=BTC&horizon_minutes=15'),
      live(b, '?asset=BTC&horizon_minutes=15'),
    ]);
    expect(shown(a15)).toEqual(shown(b15));
    expect(a15.market_status).toBe('open');
    expect(shown(a15).providers).toEqual([
      {
        name: 'Kalshi',
        best: true,
        metrics: {
          // Its own strike: 97,262.62 - 97,230.55 = +32.07
          target_price: '$97,230.55',
          spot_difference: '+$32.07',
          // Kalshi's fee per contract, round_up(0.07 x 100 x p x (1 - p)) / 100: up 0.50 -> 1.75 -> 0.5175,
          // 1/ = 1.9324; down 0.48 -> 1.7472 -> 1.75 -> 0.4975, 1/ = 2.0101
          multipliers: { payout_up: 'x1.93', payout_down: 'x2.01' },
        },
      },
    ]);
    // The question is built around the venue listed, and names its strike.
    expect(a15.active_micro_question).toContain('$97,230.55');

    // The same venue with no ask in its book (null) is left out.
    await publishQuote(redis.client, quote(15, 'kalshi', null, null, 97_230.55));
    for (const proc of [a, b]) {
      await expect
        .poll(async () => (await live(proc, '?asset=BTC&horizon_minutes=15')).providers_pool.length, { timeout: 5_000 })
        .toBe(0);
    }
  });

  it('a window whose start no instance caught reports no_strike on both processes, with no prices and no links', async () => {
    // Both processes started mid-window and nothing stored a strike for SOL.
    await publishTick(redis.client, 'SOL', 187.31, clock.now());
    for (const proc of [a, b]) {
      await expect.poll(async () => (await live(proc, '?asset=SOL')).spot_price, { timeout: 5_000 }).toBe('$187.31');
      const p = await live(proc, '?asset=SOL');
      expect(p.market_status).toBe('no_strike');
      expect(p.providers_pool).toEqual([]);
      expect(p.active_micro_question).toContain('the opening price');
    }
  });
});
