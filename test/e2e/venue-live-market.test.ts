/**
 * Issue 14 end to end, every link real: the feed process (`workers/feed/main.ts`) with
 * `SOURCES=quotes=venues` holds the connections to the local venue replays (Gamma + CLOB market
 * channel, Kalshi REST) and publishes quotes; real API processes fold them and serve
 * /v1/widgets/live-market. Expected figures are computed here from the replayed books with the
 * venues' fee schedules, never written down. Every process, and the replays, run on one test clock
 * set a minute into a 15-minute window, so no venue rolls to its next tokens during the tests.
 *
 * Geo: Polymarket is checked on processes whose DEFAULT_GEO is JP, Kalshi on one whose DEFAULT_GEO
 * is US, so the test holds whether or not geo compliance filters venues per country. Operators are
 * found by id, never by count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feeSchedule } from '../../src/catalog/fee-schedules.js';
import { priceAfterFee } from '../../src/domain/fees.js';
import { formatMoneyPrecise } from '../../src/domain/money.js';
import { VenueQuoteMessage, type Horizon } from '../../src/model/index.js';
import { windowAt } from '../../src/live/window.js';
import { quoteKey } from '../../src/store/keys.js';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import type { Level } from '../support/clob-ws-replay.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { testClock } from '../support/test-clock.js';
import {
  listKalshi15m,
  listUpDown,
  startVenueReplay,
  type BookLevels,
  type VenueReplay,
} from '../support/venue-replay.js';

const redis = useRedis();
let replay: VenueReplay;
let feed: ServiceProcess;
let apiA: ServiceProcess;
let apiB: ServiceProcess;
let us: ServiceProcess;
const WINDOW_MS = 15 * 60_000;
const clock = testClock((60_000 - (Date.now() % WINDOW_MS) + WINDOW_MS) % WINDOW_MS);

const level = (price: string, size = '40'): Level => ({ price, size });

/** The replayed books: BTC quoted by both venues, ETH's books empty on both. */
const POLY_BTC: { up: BookLevels; down: BookLevels; startPrice: number } = {
  up: { bids: [level('0.49')], asks: [level('0.53'), level('0.51'), level('0.52')] },
  down: { bids: [level('0.46')], asks: [level('0.50'), level('0.49')] },
  startPrice: 97_214.37,
};
const KALSHI_BTC = { floorStrike: 97_188.5, yesBid: '0.4800', yesAsk: '0.5100', noBid: '0.4700', noAsk: '0.5200' };
const EMPTY: BookLevels = { bids: [level('0.40')], asks: [] };
// Kalshi reports a side with no ask as 0.
const KALSHI_EMPTY = { floorStrike: 3_402.25, yesBid: '0.0000', yesAsk: '0.0000', noBid: '0.0000', noAsk: '0.0000' };

beforeAll(async () => {
  replay = await startVenueReplay(clock.now);
  // The current and the next window of each horizon, quoted alike, so a roll during the test changes nothing.
  for (const horizon of [5, 15] as const) {
    const cur = windowAt(clock.now(), horizon).startMs;
    for (const [i, start] of [cur, cur + horizon * 60_000].entries()) {
      const tag = `${horizon}-${i}`;
      listUpDown(
        replay,
        {
          asset: 'BTC',
          horizonMinutes: horizon,
          windowStartMs: start,
          upToken: `btc-up-${tag}`,
          downToken: `btc-down-${tag}`,
          priceToBeat: POLY_BTC.startPrice,
        },
        POLY_BTC,
      );
      listUpDown(
        replay,
        {
          asset: 'ETH',
          horizonMinutes: horizon,
          windowStartMs: start,
          upToken: `eth-up-${tag}`,
          downToken: `eth-down-${tag}`,
          priceToBeat: 3_401,
        },
        { up: EMPTY, down: EMPTY },
      );
      if (horizon === 15) {
        listKalshi15m(replay, { series: 'KXBTC15M', windowStartMs: start, ...KALSHI_BTC });
        listKalshi15m(replay, { series: 'KXETH15M', windowStartMs: start, ...KALSHI_EMPTY });
      }
    }
  }
  const env = (geo: string) => testEnv(redis.url, { SOURCES: 'quotes=venues', DEFAULT_GEO: geo, ...clock.env });
  [feed, apiA, apiB, us] = await Promise.all([
    spawnProcess('workers/feed/main.ts', testEnv(redis.url, { SOURCES: 'quotes=venues', ...replay.env, ...clock.env })),
    spawnProcess('src/main.ts', env('US-NJ')),
    spawnProcess('src/main.ts', env('US-NJ')),
    spawnProcess('src/main.ts', env('US-NJ')),
  ]);
  await Promise.all([apiA, apiB, us].map((p) => waitFor(`${p.base}/healthz`, (s) => s === 200, p)));
}, 90_000);

afterAll(async () => {
  await Promise.all([feed?.stop(), apiA?.stop(), apiB?.stop(), us?.stop()]);
  await replay?.stop();
});

const live = async (proc: ServiceProcess, asset: string, horizon: Horizon) => {
  const res = await fetch(`${proc.base}/v1/widgets/live-market?asset=${asset}&horizon_minutes=${horizon}`);
  expect(res.status).toBe(200);
  return LiveMarketPayload.parse(await res.json());
};

const provider = (p: LiveMarketPayload, operatorId: string) =>
  p.providers_pool.find((e) => e.operator_id === operatorId);

/** The quote the feed holds in Redis for a venue, as published. */
const stored = async (asset: string, horizon: Horizon, operatorId: string) => {
  const raw = await redis.client.get(quoteKey(asset as 'BTC', horizon, operatorId));
  return raw === null ? undefined : VenueQuoteMessage.parse(JSON.parse(raw));
};

const bestAsk = (levels: readonly Level[]) => Math.min(...levels.map((l) => Number(l.price)));
const payout = (operatorId: string, ask: number) =>
  `x${(1 / priceAfterFee(feeSchedule(operatorId), 'crypto', ask)).toFixed(2)}`;
const dollars = (s: string) => Number(s.replace(/[$,+]/g, ''));

/** What a venue's row must show for these asks and strike: the payouts after its fee, and its own strike. */
function expectRow(p: LiveMarketPayload, operatorId: string, up: number, down: number, strike: number): void {
  const row = provider(p, operatorId);
  expect(row, `${operatorId} listed`).toBeDefined();
  expect(row!.live_metrics.multipliers).toEqual({
    payout_up: payout(operatorId, up),
    payout_down: payout(operatorId, down),
  });
  expect(row!.live_metrics.target_price).toBe(formatMoneyPrecise(strike, 'USD'));
  // Measured from the venue's own strike, at the spot the payload shows.
  expect(dollars(row!.live_metrics.spot_difference!)).toBeCloseTo(dollars(p.spot_price!) - strike, 2);
}

// Polls of up to 30 s.
describe('live market on the venues own quotes, feed process to API processes', { timeout: 60_000 }, () => {
  it("holds Polymarket's own asks and start price, and shows them in no widget (no licence anywhere)", async () => {
    for (const horizon of [5, 15] as const) {
      await expect
        .poll(() => stored('BTC', horizon, 'polymarket'), { timeout: 30_000 })
        .toMatchObject({
          up: bestAsk(POLY_BTC.up.asks),
          down: bestAsk(POLY_BTC.down.asks),
          strike: POLY_BTC.startPrice,
        });
      for (const proc of [apiA, apiB]) expect(provider(await live(proc, 'BTC', horizon), 'polymarket')).toBeUndefined();
    }
  });

  it("shows Kalshi's own row the same on two API processes", async () => {
    const strike = formatMoneyPrecise(KALSHI_BTC.floorStrike, 'USD');
    for (const proc of [apiA, apiB]) {
      await expect
        .poll(async () => provider(await live(proc, 'BTC', 15), 'kalshi')?.live_metrics.target_price, {
          timeout: 30_000,
        })
        .toBe(strike);
    }
    const [a, b] = await Promise.all([live(apiA, 'BTC', 15), live(apiB, 'BTC', 15)]);
    expect(provider(a, 'kalshi')!.live_metrics.multipliers).toEqual(provider(b, 'kalshi')!.live_metrics.multipliers);
    // Kalshi is the one venue listed: the question names its strike
    expect(a.active_micro_question).toContain(strike);
  });

  it("shows Kalshi's own asks after fees and its strike where Kalshi may be shown", async () => {
    const strike = formatMoneyPrecise(KALSHI_BTC.floorStrike, 'USD');
    await expect
      .poll(async () => provider(await live(us, 'BTC', 15), 'kalshi')?.live_metrics.target_price, { timeout: 30_000 })
      .toBe(strike);
    const p = await live(us, 'BTC', 15);
    expect(p.market_status).toBe('open');
    expectRow(p, 'kalshi', Number(KALSHI_BTC.yesAsk), Number(KALSHI_BTC.noAsk), KALSHI_BTC.floorStrike);
    // Kalshi lists no 5-minute series: never shown there.
    expect(provider(await live(us, 'BTC', 5), 'kalshi')).toBeUndefined();
  });

  it('leaves out a venue whose book is empty', async () => {
    // The feed did hear both empty books: each venue's quote for ETH is held with null asks.
    for (const [horizon, operatorId] of [
      [5, 'polymarket'],
      [15, 'polymarket'],
      [15, 'kalshi'],
    ] as const) {
      await expect
        .poll(() => stored('ETH', horizon, operatorId), { timeout: 30_000 })
        .toMatchObject({ up: null, down: null });
    }
    // Let the API processes fold the latest quotes (each one is re-sent at least every 5 s).
    await expect.poll(async () => (await live(apiA, 'ETH', 15)).spot_price, { timeout: 10_000 }).not.toBeNull();
    for (const proc of [apiA, apiB, us]) {
      for (const horizon of [5, 15] as const)
        expect(provider(await live(proc, 'ETH', horizon), 'kalshi')).toBeUndefined();
    }
    // While the same venue's BTC book is shown.
    expect(provider(await live(apiA, 'BTC', 15), 'kalshi')).toBeDefined();
  });

  it('says why a horizon shows no venue: none lawful here for 5 minutes, none quoting for an empty book', async () => {
    await expect.poll(async () => provider(await live(us, 'BTC', 15), 'kalshi'), { timeout: 30_000 }).toBeDefined();
    // Only Polymarket and Limitless list 5-minute windows, and neither may be shown in New Jersey.
    const five = await live(us, 'BTC', 5);
    expect([five.providers_pool, five.unavailable_venues, five.unavailable_reason]).toEqual([
      [],
      [],
      'not_lawful_here',
    ]);
    // Kalshi may be shown here, but its ETH book is empty: named as unavailable, and the reason says so.
    await expect.poll(async () => (await live(us, 'ETH', 15)).spot_price, { timeout: 10_000 }).not.toBeNull();
    const empty = await live(us, 'ETH', 15);
    expect([
      empty.providers_pool,
      empty.unavailable_venues.map((v) => v.operator_id),
      empty.unavailable_reason,
    ]).toEqual([[], ['kalshi'], 'no_quote']);
    expect((await live(us, 'BTC', 15)).unavailable_reason).toBeNull();
  });
});
