/**
 * Venue quotes judged by the venue's own clock, replayed end to end in one process: the feed
 * (`quotes=venues`, injected clock) against local replays of Gamma, Kalshi and the CLOB market
 * channel whose stamps follow the same clock, real Redis, and a live engine building the
 * live-market payload. A frozen book (the socket alive, the book never changing) is withdrawn once
 * its venue time passes the venue's bound; a venue that has published no strike is shown without
 * one, never with ours. The feed's pings and polls run on the test's manual clock
 * (test/support/manual-clock.ts): the bound is reached by moving time, not by waiting.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { shownOperators } from '../../src/catalog/shown-operators.js';
import { loadConfig } from '../../src/config.js';
import { formatMoneyPrecise } from '../../src/domain/money.js';
import { widgetContext } from '../../src/serve/widget-context.js';
import { LiveEngine } from '../../src/live/engine.js';
import { exposeLiveEngine } from '../../src/live/metrics.js';
import { register } from 'prom-client';
import { VENUE_QUOTE_MAX_AGE_MS } from '../../src/live/live-quotes.js';
import { VenueQuoteMessage, type Asset, type Horizon } from '../../src/model/index.js';
import { LIVE_VENUES } from '../../src/live/venues.js';
import { quoteKey } from '../../src/store/keys.js';
import { buildLiveMarketWidget } from '../../src/widgets/live-market-widget.js';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import { startFeed } from '../../workers/feed/feed.js';
import { useRedis } from '../support/redis.js';
import { ManualClock } from '../support/manual-clock.js';
import { listKalshi15m, listUpDown, startVenueReplay } from '../support/venue-replay.js';

const redis = useRedis();
const log = pino({ level: 'silent' });
const T0 = Date.parse('2026-11-22T14:00:00Z'); // a 15-minute boundary
const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' });
const level = (price: string) => ({ price, size: '100' });
const book = (bids: string[], asks: string[]) => ({ bids: bids.map(level), asks: asks.map(level) });
const BTC_START = 97_005.12;
const KALSHI_STRIKE = 97_012.55;
const ENGINE_STRIKE = { BTC: 97_001.5, ETH: 3_401.25 };
/** The CLOB socket's ping interval (src/sources/polymarket/updown-source.ts). */
const PING_MS = 5_000;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await redis.client.flushall();
});

describe("venue quotes on the venue's clock (replay)", () => {
  it('withdraws a frozen Polymarket book once past its bound, and never shows our strike under a venue without one', async () => {
    const clock = new ManualClock(T0);
    const conns = [new Redis(redis.url), new Redis(redis.url), new Redis(redis.url)];
    const engine = new LiveEngine({
      redis: conns[0]!,
      subscriber: conns[1]!,
      quoteSubscriber: conns[2]!,
      log,
      strikeMaxLagMs: 2_000,
      now: clock.now,
    });
    await engine.start();
    cleanups.push(() => {
      engine.stop();
      for (const c of conns) c.disconnect();
    });
    const tick = (asset: Asset, price: number) =>
      engine.apply({ asset, price, ts: new Date(clock.now()).toISOString(), source: 'test' });
    // Our own window strikes, from ticks at the window start.
    tick('BTC', ENGINE_STRIKE.BTC);
    tick('ETH', ENGINE_STRIKE.ETH);
    await expect.poll(() => engine.view('ETH', 15).strike, { timeout: 2_000, interval: 10 }).toBe(ENGINE_STRIKE.ETH);

    await clock.advanceTo(T0 + 60_000);
    const replay = await startVenueReplay(clock.now);
    cleanups.push(() => replay.stop());
    listUpDown(
      replay,
      {
        asset: 'BTC',
        horizonMinutes: 15,
        windowStartMs: T0,
        upToken: 'btc-up',
        downToken: 'btc-down',
        priceToBeat: BTC_START,
      },
      { up: book(['0.49'], ['0.52']), down: book(['0.47'], ['0.5']) },
    );
    // Polymarket has not published ETH's start price for this window.
    listUpDown(
      replay,
      { asset: 'ETH', horizonMinutes: 15, windowStartMs: T0, upToken: 'eth-up', downToken: 'eth-down' },
      { up: book(['0.49'], ['0.52']), down: book(['0.47'], ['0.5']) },
    );
    listKalshi15m(replay, {
      series: 'KXBTC15M',
      windowStartMs: T0,
      floorStrike: KALSHI_STRIKE,
      yesBid: '0.5100',
      yesAsk: '0.5300',
      noBid: '0.4700',
      noAsk: '0.4900',
    });
    const feed = await startFeed(loadConfig({ REDIS_URL: redis.url, SOURCES: 'quotes=venues', ...replay.env }), log, {
      now: clock.now,
      timers: clock.timers,
    });
    cleanups.push(() => feed.stop());

    const payload = (asset: Asset, h: Horizon) => {
      const opts = { refreshIntervalSeconds: 2, staleAfterMs: 15_000, venues: LIVE_VENUES, modelMissingVenues: false };
      // A viewer who may be shown every venue: this test is about the venues' clocks (compliance is tested elsewhere).
      const ctx = {
        ...widgetContext(config, new Date(clock.now()), undefined, undefined, 'US-NJ'),
        ...shownOperators('US-NJ', { shown: () => true }),
      };
      return LiveMarketPayload.parse(buildLiveMarketWidget(engine.view(asset, h), clock.now(), opts, ctx));
    };
    const strikes = (asset: Asset) =>
      Object.fromEntries(payload(asset, 15).providers_pool.map((p) => [p.operator_id, p.live_metrics.target_price]));
    const stored = async (asset: Asset, operatorId: string) => {
      const raw = await redis.client.get(quoteKey(asset, 15, operatorId));
      return raw === null ? undefined : VenueQuoteMessage.parse(JSON.parse(raw));
    };

    tick('BTC', ENGINE_STRIKE.BTC + 10);
    tick('ETH', ENGINE_STRIKE.ETH + 1);
    await expect
      .poll(() => strikes('BTC'), { timeout: 10_000 })
      .toEqual({ polymarket: formatMoneyPrecise(BTC_START, 'USD'), kalshi: formatMoneyPrecise(KALSHI_STRIKE, 'USD') });
    // ETH: Polymarket's row has no strike; ours is only the question's, never under its name.
    await expect.poll(() => strikes('ETH'), { timeout: 10_000 }).toEqual({ polymarket: null });
    expect(payload('ETH', 15).providers_pool[0]!.live_metrics.spot_difference).toBeNull();
    expect(payload('ETH', 15).active_micro_question).toContain(formatMoneyPrecise(ENGINE_STRIKE.ETH, 'USD'));

    // The book never changes again, while the socket keeps answering PINGs: at its bound it still counts...
    const bookAt = Date.parse((await stored('BTC', 'polymarket'))!.venueTs);
    const bound = bookAt + VENUE_QUOTE_MAX_AGE_MS.polymarket!;
    // Kalshi polls every 250 ms of the clock, each poll due 250 ms after the last answer: the last
    // two seconds are walked a poll at a time, until one is answered in them.
    const kalshiAt = async () => Date.parse((await stored('BTC', 'kalshi'))!.venueTs);
    await clock.advanceTo(bound - 2_000);
    await expect
      .poll(
        async () => {
          await clock.advanceTo(Math.min(clock.now() + 250, bound));
          return kalshiAt();
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(bound - 3_000); // the venue's Date header: whole seconds
    await clock.advanceTo(bound);
    tick('BTC', ENGINE_STRIKE.BTC + 20);
    // The feed confirmed the socket within its last PING interval (each PONG at the time it is heard).
    await expect
      .poll(async () => Date.parse((await stored('BTC', 'polymarket'))!.ts), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(bound - PING_MS);
    await expect.poll(() => Object.keys(strikes('BTC')).sort(), { timeout: 10_000 }).toEqual(['kalshi', 'polymarket']);
    // ...and a millisecond later the frozen book is withdrawn, though the feed still confirms it; Kalshi stays.
    await clock.advance(1);
    expect(Object.keys(strikes('BTC'))).toEqual(['kalshi']);
    // Shown as unavailable, not silently gone (Limitless quotes nothing here at all).
    expect(payload('BTC', 15).unavailable_venues.map((v) => v.operator_id)).toEqual(['polymarket', 'limitless']);
    // The operator sees why: the venue's quote age by its own clock, past the bound.
    exposeLiveEngine(engine, 15_000, clock.now);
    const age = (await register.getSingleMetric('predictwire_venue_quote_age_seconds')!.get()).values.find(
      (v) => v.labels.operator === 'polymarket' && v.labels.asset === 'BTC' && v.labels.horizon === '15',
    );
    expect(age!.value).toBe((VENUE_QUOTE_MAX_AGE_MS.polymarket! + 1) / 1000);
    expect((await stored('BTC', 'polymarket'))!.venueTs).toBe(new Date(bookAt).toISOString());
    // A fresh book from the venue brings it back.
    replay.clob.broadcast({
      event_type: 'price_change',
      price_changes: [{ asset_id: 'btc-up', price: '0.51', size: '10', side: 'SELL' }],
      timestamp: String(clock.now()),
    });
    await expect
      .poll(
        () => payload('BTC', 15).providers_pool.find((p) => p.operator_id === 'polymarket')?.live_metrics.multipliers,
        { timeout: 10_000 },
      )
      .toBeDefined();
  });
});
