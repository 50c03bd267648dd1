import { describe, expect, it } from 'vitest';
import { QUOTE_MAX_AGE_MS, quotesForWindow, VENUE_QUOTE_MAX_AGE_MS } from '../../src/live/live-quotes.js';
import type { VenueQuoteMessage } from '../../src/model/index.js';
import { windowAt } from '../../src/live/window.js';

const NOW = Date.parse('2026-11-22T14:08:00.000Z');
const W5 = windowAt(NOW, 5); // 14:05 -> 14:10

const q = (operatorId: string, over: Partial<VenueQuoteMessage> = {}): VenueQuoteMessage => ({
  asset: 'BTC',
  horizonMinutes: 5,
  operatorId,
  windowStart: '2026-11-22T14:05:00.000Z',
  expiresAt: '2026-11-22T14:10:00.000Z',
  up: 0.5,
  down: 0.51,
  strike: 97_000,
  marketUrl: 'https://venue.example/m',
  ts: new Date(NOW).toISOString(),
  venueTs: new Date(NOW).toISOString(),
  source: 'test',
  ...over,
});

describe('quotesForWindow', () => {
  it('keeps quotes for this window, by operator, including null asks (venue out)', () => {
    const m = quotesForWindow([q('polymarket'), q('kalshi', { up: null, down: null })], W5, NOW);
    expect([...m.keys()]).toEqual(['polymarket', 'kalshi']);
    expect(m.get('kalshi')!.up).toBeNull();
  });

  it('drops quotes older than 15 s, stamped over 5 s ahead, or for another window or horizon', () => {
    expect(QUOTE_MAX_AGE_MS).toBe(15_000);
    const dropped = [
      q('a', { ts: new Date(NOW - 15_001).toISOString() }),
      q('b', { ts: new Date(NOW + 5_001).toISOString() }),
      q('c', { windowStart: '2026-11-22T14:00:00.000Z', expiresAt: '2026-11-22T14:05:00.000Z' }),
      // Right start, wrong expiry: a 15-minute market mislabelled as 5.
      q('d', { expiresAt: '2026-11-22T14:20:00.000Z' }),
      q('e', { horizonMinutes: 15 }),
    ];
    expect(quotesForWindow(dropped, W5, NOW).size).toBe(0);
    const kept = [
      q('a', { ts: new Date(NOW - 15_000).toISOString() }),
      q('b', { ts: new Date(NOW + 5_000).toISOString() }),
    ];
    expect(quotesForWindow(kept, W5, NOW).size).toBe(2);
  });

  it("withholds a quote whose venue time is past that venue's bound, however fresh the feed's confirmation", () => {
    const bound = VENUE_QUOTE_MAX_AGE_MS.polymarket!;
    const frozen = q('polymarket', { venueTs: new Date(NOW - bound - 1).toISOString() });
    const recent = q('kalshi', { venueTs: new Date(NOW - VENUE_QUOTE_MAX_AGE_MS.kalshi!).toISOString() });
    // A recorded book stamped months ago is never live, nor is one stamped ahead of our clock.
    const old = q('limitless', { venueTs: new Date(NOW - 104 * 86_400_000).toISOString() });
    const ahead = q('other', { venueTs: new Date(NOW + 5_001).toISOString() });
    expect([...quotesForWindow([frozen, recent, old, ahead], W5, NOW).keys()]).toEqual(['kalshi']);
    expect(quotesForWindow([q('polymarket', { venueTs: new Date(NOW - bound).toISOString() })], W5, NOW).size).toBe(1);
  });
});
