/**
 * The feed process as deployed (`workers/feed/main.ts`, real clock) with `SOURCES=quotes=venues`
 * against the local venue replays: the current window of each venue is found by time, and its
 * quote lands in Redis for API processes to read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueQuoteMessage } from '../../src/model/index.js';
import { windowAt } from '../../src/live/window.js';
import { quoteKey } from '../../src/store/keys.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, type ServiceProcess } from '../support/service.js';
import { listKalshi15m, listUpDown, startVenueReplay, type VenueReplay } from '../support/venue-replay.js';

const redis = useRedis();
let replay: VenueReplay;
let feed: ServiceProcess;
const level = (price: string) => ({ price, size: '50' });

beforeAll(async () => {
  replay = await startVenueReplay();
  // The current and the next window, quoted alike, so a boundary crossed during the test changes nothing.
  const cur = windowAt(Date.now(), 15).startMs;
  for (const [i, start] of [cur, cur + 900_000].entries()) {
    listUpDown(
      replay,
      {
        asset: 'ETH',
        horizonMinutes: 15,
        windowStartMs: start,
        upToken: `eth-up-${i}`,
        downToken: `eth-down-${i}`,
        priceToBeat: 3400.5,
      },
      {
        up: { bids: [level('0.44')], asks: [level('0.47'), level('0.46')] },
        down: { bids: [level('0.52')], asks: [level('0.55')] },
      },
    );
    listKalshi15m(replay, {
      series: 'KXETH15M',
      windowStartMs: start,
      floorStrike: 3401.25,
      yesBid: '0.4400',
      yesAsk: '0.4700',
      noBid: '0.5300',
      noAsk: '0.5600',
    });
  }
  feed = await spawnProcess('workers/feed/main.ts', testEnv(redis.url, { SOURCES: 'quotes=venues', ...replay.env }));
}, 60_000);

afterAll(async () => {
  await feed?.stop();
  await replay?.stop();
});

const quote = async (operator: string) => {
  const raw = await redis.client.get(quoteKey('ETH', 15, operator));
  return raw === null ? undefined : VenueQuoteMessage.parse(JSON.parse(raw));
};

describe('feed process with quotes=venues', () => {
  it("publishes both venues' quotes for the current window, each with its own strike", async () => {
    await expect
      .poll(() => quote('polymarket'), { timeout: 20_000 })
      .toMatchObject({ up: 0.46, down: 0.55, strike: 3400.5 });
    await expect
      .poll(() => quote('kalshi'), { timeout: 20_000 })
      .toMatchObject({ up: 0.47, down: 0.56, strike: 3401.25 });
    const poly = (await quote('polymarket'))!;
    // The window is the one holding the quote's time, found from the clock alone.
    expect(poly.windowStart).toBe(new Date(windowAt(Date.parse(poly.ts), 15).startMs).toISOString());
    // One connection, subscribed ahead to the next window's tokens too.
    expect(replay.clob.subscriptions[0]).toEqual(expect.arrayContaining(['eth-down-1', 'eth-up-1']));
    // Nothing for an asset no venue lists.
    expect(await redis.client.keys('pw:quote:BTC:*')).toEqual([]);
  });
});
