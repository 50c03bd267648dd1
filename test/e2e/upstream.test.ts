/**
 * End to end on real sources: a local server replays the recorded Kalshi, Polymarket, Odds API and
 * ECB responses; the real worker and API processes are pointed at it through SOURCES and the base
 * URL variables. The widgets serve the recorded prices converted; killing the replay server leaves
 * the last good data served and /readyz reporting the stale source once the processes' clock has
 * moved past the configured age; restarting it recovers with no service restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSnapshot } from '../../src/store/snapshots.js';
import {
  EventListPayload,
  EventWidgetPayload,
  SpecificEventPayload,
  SportsbookWidgetPayload,
} from '../../src/widgets/payload-schemas.js';
import { useRedis } from '../support/redis.js';
import {
  advertiserKeys,
  spawnProcess,
  FAST_REFRESH,
  testEnv,
  waitFor,
  type ServiceProcess,
} from '../support/service.js';
import { testClock } from '../support/test-clock.js';
import { replayEnv, startReplayServer, type ReplayServer } from '../support/upstream-replay.js';

const redis = useRedis();
let replay: ReplayServer;
let api: ServiceProcess;
let worker: ServiceProcess;
let apiKey: string;
const ADVERTISER = 'e2e-upstream';
// The worker's and the API's time: the outage is aged by moving it, not by waiting. It starts when
// the recorded prediction markets were listed (late February 2026), so every market open then is
// open here; later, Kalshi's "before April" market is past its close whatever its status says.
const clock = testClock(Date.parse('2026-02-27T12:00:00.000Z') - Date.now());
// Events refresh every second and are stale after 10 missed refreshes: far more than a loaded
// machine ever delays a healthy refresh, and less than the move below (which stays under
// HANG_SECONDS, so no hang watch mistakes the jump for a stuck process).
const STALE_AFTER_INTERVALS = 10;
const OUTAGE_AGE_MS = 15_000;

beforeAll(async () => {
  replay = await startReplayServer();
  replay.oddsRemaining = 1_000_000;
  // The upstreams share the processes' time: the books' stamps and the games move with it.
  replay.clock = clock.now;
  replay.oddsStartAt = clock.now() + 86_400_000;
  // The quality gate refuses a fixing older than a few days: the recorded one is served as today's.
  replay.ecbToday = true;
  const env = testEnv(redis.url, {
    ...FAST_REFRESH,
    ...replayEnv(replay.base),
    ...clock.env,
    SOURCES: 'events=kalshi+polymarket,sportsbook=odds-api,metrics=derived,fx=ecb',
    STALE_AFTER_INTERVALS: String(STALE_AFTER_INTERVALS),
    UPSTREAM_TIMEOUT_MS: '1000',
  });
  worker = await spawnProcess('workers/main.ts', env);
  api = await spawnProcess('src/main.ts', env);
  apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'E2E upstream', new Date());
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await replay?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${api.base}${path}`, { headers, redirect: 'manual' });
const adv = (path: string) => get(path, { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey });
// From loopback the address gives no country: fallback_geo stands in (Kalshi is shown in New Jersey;
// Polymarket is shown nowhere, so its recorded prices are checked in the worker's snapshot).
const widget = async (slug: string, format = 'cents', geo = 'US-NJ') => {
  const res = await get(`/v1/widgets/event?slug=${slug}&display_format=${format}&fallback_geo=${geo}`);
  expect(res.status).toBe(200);
  return EventWidgetPayload.parse(await res.json());
};
/** Where a signed deep link lands (the click endpoint's 302). */
const landing = async (deepLink: string) => {
  const u = new URL(deepLink);
  const res = await get(`${u.pathname}${u.search}`);
  expect(res.status).toBe(302);
  return res.headers.get('location');
};
const pool = (w: EventWidgetPayload) =>
  w.outcomes.map((o) => [
    o.outcome_name,
    o.comparison_pool.map((e) => `${e.operator_id} ${e.contract_price} ${e.contract_volume}`),
  ]);

interface Ready {
  status: string;
  snapshots: Array<{
    kind: string;
    key: string;
    stale: boolean;
    stale_after_seconds: number;
    failures: number;
    last_error?: string;
  }>;
}
const ready = async () => {
  const res = await get('/readyz');
  return { status: res.status, body: (await res.json()) as Ready };
};
const eventsEntry = (r: Ready) => r.snapshots.find((s) => s.kind === 'events')!;

describe('recorded prices through the real sources', () => {
  it('event widget: Kalshi prices from *_dollars, volumes from contracts x traded price, links to the market', async () => {
    const w = await widget('us-iran-nuclear-deal-2026');
    expect(w.event_question).toBe('When will the US agree to a new Iranian nuclear deal?');
    // yes_ask_dollars 0.18 / 0.45 / 0.63 plus Kalshi's fee per 100 contracts, round_up(0.07 × 100 × p × (1 − p)):
    // 1.0332 → 1.04, 1.7325 → 1.74, 1.6317 → 1.64, so 0.1904 / 0.4674 / 0.6464 per contract.
    // volume_24h_fp 90806 x 0.16, 28052 x 0.45, 9380 x 0.64
    expect(pool(w)).toEqual([
      ['Before April 2026', ['kalshi 19¢ $14.5K']],
      ['Before August 2026', ['kalshi 47¢ $12.6K']],
      ['Before 2027', ['kalshi 65¢ $6K']],
    ]);
    // The mid of yes_bid 0.16 and yes_ask 0.18; the deadlines are nested, so not normalised.
    expect(w.outcomes.map((o) => o.aggregated_probability_pct)).toEqual([17, 43, 61.5]);
    expect(
      (await widget('us-iran-nuclear-deal-2026', 'implied_pct')).outcomes[1]!.comparison_pool[0]!.contract_price,
    ).toBe('46.7%');
    // the contract page, with Kalshi's tracking sub-ids like every other link
    const landed = new URL((await landing(w.outcomes[0]!.comparison_pool[0]!.deep_link))!);
    expect(`${landed.origin}${landed.pathname}`).toBe('https://kalshi.com/events/KXUSAIRANAGREEMENT-27');
    expect(landed.searchParams.get('subId3')).toBe('us-iran-nuclear-deal-2026');
  });

  /** The worker's normalized quotes of one event: outcome, venue, YES ask, 24 h USD volume, market page. */
  const snapshotQuotes = async (slug: string) => {
    const events = (await readSnapshot(redis.client, 'events', 'all'))!.data.events;
    return events
      .find((e) => e.slug === slug)!
      .outcomes.map((o) => [
        o.name,
        o.quotes.map((q) => [q.operatorId, q.yesPrice, Math.round(q.volume24hUsd!), q.marketUrl]),
      ]);
  };

  it('Polymarket prices from bestAsk, USDC volume, the event/market page; shown in no widget (no licence anywhere)', async () => {
    const page = 'https://polymarket.com/event/iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by';
    expect(await snapshotQuotes('iran-israel-us-conflict-ends-march-2026')).toEqual([
      ['By March 7', [['polymarket', 0.09, 224488, `${page}-march-7`]]],
      ['By March 15', [['polymarket', 0.24, 93119, `${page}-march-15`]]],
      ['By March 31', [['polymarket', 0.64, 34767, `${page}-march-31`]]],
    ]);
    for (const geo of ['US-NJ', 'JP', 'GB'])
      expect(pool(await widget('iran-israel-us-conflict-ends-march-2026', 'cents', geo)), geo).toEqual([]);
  });

  it('a pair whose Kalshi side is finalized keeps Polymarket only; the A/B comparison invents no Kalshi price', async () => {
    // bestAsk 0.999; NO = 1 - bestBid 0.998
    const quotes = await snapshotQuotes('khamenei-out-by-end-of-february-2026');
    expect(quotes.map(([name, qs]) => [name, (qs as unknown[][]).map((q) => [q[0], q[1]])])).toEqual([
      ['Yes', [['polymarket', 0.999]]],
      ['No', [['polymarket', 0.002]]],
    ]);
    const res = await adv('/advertiser/v1/widgets/specific/khamenei-out-by-end-of-february-2026');
    expect(res.status).toBe(200);
    const body = SpecificEventPayload.parse(await res.json());
    expect(body.data.event.title).toBe(
      'Will Ali Khamenei be out as Supreme Leader of Iran by the end of February 2026?',
    );
    expect(body.data.outcomes).toEqual([]);
  });

  it('advertiser list: only open events whose A/B comparison has an outcome', async () => {
    const res = await adv('/advertiser/v1/widgets/events');
    const slugs = EventListPayload.parse(await res.json()).data.events;
    // open, but quoted by Kalshi only: the Kalshi/Polymarket comparison would be empty
    for (const kalshiOnly of [
      'us-iran-nuclear-deal-2026',
      'us-recognizes-reza-pahlavi-2026',
      'iran-democracy-index-2026',
    ]) {
      expect(slugs).not.toContain(kalshiOnly);
      expect(
        SpecificEventPayload.parse(await (await adv(`/advertiser/v1/widgets/specific/${kalshiOnly}`)).json()).data
          .outcomes,
      ).toEqual([]);
    }
    // quoted by Polymarket only (its Kalshi side is finalized): left out of the list
    expect(slugs).not.toContain('khamenei-out-by-end-of-february-2026');
    for (const slug of slugs) {
      expect(
        SpecificEventPayload.parse(await (await adv(`/advertiser/v1/widgets/specific/${slug}`)).json()).data.outcomes
          .length,
        slug,
      ).toBeGreaterThan(0);
    }
  });

  it('sportsbook widget: the recorded bookmaker odds in American form, keyed to our operators', async () => {
    const res = await get('/v1/widgets/sportsbook?league=NBA&fallback_geo=US-NJ');
    expect(res.status).toBe(200);
    const body = SportsbookWidgetPayload.parse(await res.json());
    expect(body.match_meta.matchup).toBe('Los Angeles Lakers @ Orlando Magic');
    const dk = body.odds_matrix.operators.find((o) => o.name === 'DraftKings')!;
    expect(dk.lines).toEqual({
      away_spread: { line: '+3.5', odds: '-110' },
      home_spread: { line: '-3.5', odds: '-110' },
      total_over: { line: '236.5', odds: '-110' },
      total_under: { line: '236.5', odds: '-110' },
      away_moneyline: '+135',
      home_moneyline: '-155',
    });
    // williamhill_us is shown as Caesars; Betfair's exchange is not shown in the US
    const names = body.odds_matrix.operators.map((o) => o.name);
    expect(names).toEqual(expect.arrayContaining(['DraftKings', 'FanDuel', 'BetMGM', 'Caesars Sportsbook']));
    expect(names).not.toContain('Betfair Exchange');
    // ...but is in GB, where it prices only the moneyline: back odds +140 / -143, shown after its 5 %
    // commission on winnings (decimal 2.4 → 1 + 1.4 × 0.95 = 2.33, +133; 1.6993 → 1.66434, -150.5 → -151)
    const gb = SportsbookWidgetPayload.parse(
      await (await get('/v1/widgets/sportsbook?league=NBA&fallback_geo=GB&odds_format=american')).json(),
    );
    expect(gb.odds_matrix.operators.map((o) => o.name)).not.toContain('DraftKings');
    expect(gb.odds_matrix.operators.find((o) => o.name === 'Betfair Exchange')!.lines).toEqual({
      away_moneyline: '+133',
      home_moneyline: '-151',
    });
  });

  it('FX from the ECB file, per USD; metrics derived from the fetched markets', async () => {
    const fx = (await readSnapshot(redis.client, 'fx', 'daily'))!;
    expect(fx.data).toMatchObject({
      asOfDate: new Date(clock.now()).toISOString().slice(0, 10),
      rates: { USD: 1, EUR: 0.888731, GBP: 0.753377 },
    });
    const metrics = (await readSnapshot(redis.client, 'metrics', 'all'))!;
    const poly = metrics.data.operators.find((o) => o.operatorId === 'polymarket')!;
    expect(poly.activeEvents).toBe(2);
    expect(poly.volume24hUsd).toBe(Math.round(36397256.45 + 224487.95 + 93118.59 + 34766.86));
  });
});

describe('upstream outage', () => {
  it('keeps serving the last good data, reports the stale source, and recovers without a restart', async () => {
    const before = await widget('us-recognizes-reza-pahlavi-2026');
    expect(pool(before)).toEqual([
      // 0.27 + round_up(1.3797 → 1.38)/100 = 0.2838; 0.75 + round_up(1.3125 → 1.32)/100 = 0.7632
      ['Yes', ['kalshi 28¢ $11.3K']],
      ['No', ['kalshi 76¢ $11.3K']],
    ]);
    // Mids of 0.25/0.27 and (NO side) 0.73/0.75: a Yes/No pair is exclusive and sums to 100.
    expect(before.outcomes.map((o) => o.aggregated_probability_pct)).toEqual([26, 74]);
    expect((await ready()).status).toBe(200);

    await replay.stop();
    // Refreshes now fail; once one has, the data ages past its limit.
    await expect
      .poll(async () => eventsEntry((await ready()).body).failures, { timeout: 20_000, interval: 100 })
      .toBeGreaterThan(0);
    clock.advance(OUTAGE_AGE_MS);
    await expect
      .poll(async () => eventsEntry((await ready()).body).stale, { timeout: 20_000, interval: 100 })
      .toBe(true);
    const down = await ready();
    // Stale data is served and flagged: degraded, never a 503 that would pull every instance out.
    expect(down.status).toBe(200);
    expect(down.body.status).toBe('degraded');
    expect(eventsEntry(down.body)).toMatchObject({ stale_after_seconds: STALE_AFTER_INTERVALS });
    expect(eventsEntry(down.body).failures).toBeGreaterThan(0);
    expect(eventsEntry(down.body).last_error).toMatch(/^(kalshi|polymarket-gamma): /);
    // Same prices, same timestamp: the payload says how old its data is.
    const during = await widget('us-recognizes-reza-pahlavi-2026');
    expect(pool(during)).toEqual(pool(before));
    expect(during.last_verified_timestamp).toBe(before.last_verified_timestamp);
    expect(during.stale).toBe(true);
    expect(Date.parse(during.data_fetched_at!)).toBeLessThan(clock.now() - STALE_AFTER_INTERVALS * 1_000);
    expect(before.stale).toBeUndefined();
    expect((await get('/v1/widgets/sportsbook?league=NBA')).status).toBe(200);

    await replay.restart();
    await expect
      .poll(async () => eventsEntry((await ready()).body).stale, { timeout: 30_000, interval: 100 })
      .toBe(false);
    const back = await ready();
    expect(back.status).toBe(200);
    expect(eventsEntry(back.body)).toMatchObject({ stale: false, failures: 0 });
    expect(eventsEntry(back.body).last_error).toBeUndefined();
    const after = await widget('us-recognizes-reza-pahlavi-2026');
    expect(pool(after)).toEqual(pool(before));
    expect(after.stale).toBeUndefined();
  });
});
