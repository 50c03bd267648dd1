/**
 * Properties of the simulator's prices, over several seeds and clocks: spreads that make sense for
 * integer margins, exchange asks rounded up (never a 0 % vig), and event probabilities that add up.
 */
import { describe, expect, it } from 'vitest';
import { operatorById } from '../../src/catalog/operators.js';
import { americanToDecimal, americanToProbability } from '../../src/domain/odds.js';
import type { BookOdds, League } from '../../src/model/index.js';
import { createSimulator } from '../../src/sources/simulator/index.js';
import { askOnTick, bidOnTick } from '../../src/sources/simulator/ticks.js';
import { venueProfile } from '../../src/sources/simulator/venues.js';
import { buildEventWidget } from '../../src/widgets/event-widget.js';
import { makeContext } from './_widget-fixtures.js';

const SEEDS = [1, 42, 2026];
const CLOCKS = ['2026-01-15T18:00:00Z', '2026-04-02T03:30:00Z', '2026-11-23T12:00:00Z'].map((t) => new Date(t));
const CONTRACT_VENUES = new Set(['kalshi', 'polymarket']);

const cache = new Map<League, Promise<Array<{ where: string; book: BookOdds }>>>();

/** Every book's odds for a league over {@link SEEDS} x {@link CLOCKS} (built once per league). */
function books(league: League): Promise<Array<{ where: string; book: BookOdds }>> {
  let p = cache.get(league);
  if (!p) cache.set(league, (p = buildBooks(league)));
  return p;
}

async function buildBooks(league: League): Promise<Array<{ where: string; book: BookOdds }>> {
  const out: Array<{ where: string; book: BookOdds }> = [];
  for (const seed of SEEDS) {
    const sim = createSimulator({ seed });
    for (const now of CLOCKS) {
      const data = await sim.fetchLeague(league, { now });
      for (const m of data.upcoming)
        for (const book of m.books)
          out.push({ where: `seed ${seed} ${now.toISOString()} ${m.id} ${book.operatorId}`, book });
    }
  }
  return out;
}

describe('simulator spreads', () => {
  it.each(['NBA', 'NCAAB', 'NFL'] as const)(
    '%s never shows a 0 or ±0.5 spread, upcoming or closing',
    async (league) => {
      const all = await books(league);
      expect(all.length).toBeGreaterThan(100);
      for (const { where, book } of all) {
        for (const line of [book.homeSpread, book.awaySpread]) {
          if (line) expect(Math.abs(line.point), where).toBeGreaterThanOrEqual(1);
        }
      }
      const finished = (await createSimulator({ seed: 42 }).fetchLeague(league, { now: CLOCKS[2]! })).finished;
      expect(finished.length).toBeGreaterThan(0);
      for (const g of finished) expect(Math.abs(g.closingSpreadHome), g.id).toBeGreaterThanOrEqual(1);
    },
  );

  it.each(['NBA', 'NCAAB', 'NFL', 'EPL'] as const)(
    "%s: a spread never contradicts the same book's moneyline",
    async (league) => {
      for (const { where, book } of await books(league)) {
        if (!book.homeSpread || book.homeMoneyline === undefined || book.awayMoneyline === undefined) continue;
        const home = americanToDecimal(book.homeMoneyline);
        const away = americanToDecimal(book.awayMoneyline);
        // The side giving points is never the moneyline underdog (it pays no more than the other side).
        if (book.homeSpread.point < 0) expect(home, where).toBeLessThanOrEqual(away);
        if (book.homeSpread.point > 0) expect(home, where).toBeGreaterThanOrEqual(away);
      }
    },
  );
});

describe('simulated exchange asks round up: no 0 % vig', () => {
  it('rounds to the tick upward (asks) and downward (bids), never to the nearest', () => {
    // 0.501 is nearest 0.50, but an ask of 0.50 would sit below fair value plus the spread.
    expect(askOnTick(0.501, 0.01)).toBe(0.51);
    expect(askOnTick(0.57, 0.01)).toBe(0.57);
    expect(askOnTick(0.4991, 0.001)).toBe(0.5);
    expect(bidOnTick(0.509, 0.01)).toBe(0.5);
    expect(bidOnTick(0.004, 0.01)).toBeUndefined();
  });

  it.each(['NBA', 'NCAAB', 'NFL', 'EPL'] as const)(
    '%s: Kalshi and Polymarket rows sum above 100 percent on every market',
    async (league) => {
      let seen = 0;
      for (const { where, book } of await books(league)) {
        if (!CONTRACT_VENUES.has(book.operatorId)) continue;
        seen++;
        const sides = [
          [book.totalOver?.price, book.totalUnder?.price],
          [book.homeSpread?.price, book.awaySpread?.price],
          [book.homeMoneyline, book.awayMoneyline, book.drawMoneyline],
        ];
        for (const prices of sides) {
          const offered = prices.filter((p): p is number => p !== undefined);
          if (offered.length < 2) continue;
          expect(
            offered.reduce((s, p) => s + americanToProbability(p), 0),
            where,
          ).toBeGreaterThan(1);
        }
        // Never the even -100/-100 a nearest-tick rounding showed.
        if (book.totalOver && book.totalUnder)
          expect([book.totalOver.price, book.totalUnder.price], where).not.toEqual([-100, -100]);
      }
      expect(seen).toBeGreaterThan(0);
    },
  );

  it('quotes event asks on the tick, above the bid', async () => {
    for (const seed of SEEDS) {
      for (const now of CLOCKS) {
        for (const e of (await createSimulator({ seed }).fetchEvents({ now })).events) {
          for (const o of e.outcomes) {
            for (const q of o.quotes) {
              const inv = Math.round(1 / venueProfile(q.operatorId).tick);
              expect(
                Math.abs(q.yesPrice * inv - Math.round(q.yesPrice * inv)),
                `${e.slug} ${q.operatorId}`,
              ).toBeLessThan(1e-9);
              if (q.yesBid !== undefined) expect(q.yesBid, `${e.slug} ${q.operatorId}`).toBeLessThan(q.yesPrice);
            }
          }
        }
      }
    }
  });
});

describe('event outcomes sum to 100', () => {
  const ctx = makeContext({ operatorOn: (id) => operatorById(id) });

  it('for every simulated event (all are mutually exclusive), within rounding', async () => {
    for (const seed of SEEDS) {
      for (const now of CLOCKS) {
        for (const e of (await createSimulator({ seed }).fetchEvents({ now })).events) {
          expect(e.exclusive).toBe(true);
          const outcomes = buildEventWidget(e, now.toISOString(), 'cents', ctx).outcomes;
          const sum = outcomes.reduce((s, o) => s + o.aggregated_probability_pct, 0);
          // Each figure is rounded to 0.1, so the sum may be off by 0.05 per outcome.
          expect(Math.abs(sum - 100), `${e.slug}: ${sum}`).toBeLessThanOrEqual(0.05 * outcomes.length + 1e-9);
        }
      }
    }
  });

  it('keeps the share of an outcome no operator may show, so the listed ones are not inflated', async () => {
    const e = (await createSimulator({ seed: 42 }).fetchEvents({ now: CLOCKS[2]! })).events.find(
      (x) => x.outcomes.length > 3,
    )!;
    // Only Kalshi: outcomes only other venues list drop out of the list, but not out of the 100 %.
    const kalshiOnly = makeContext({ operatorOn: (id) => (id === 'kalshi' ? operatorById(id) : undefined) });
    const outcomes = buildEventWidget(e, CLOCKS[2]!.toISOString(), 'cents', kalshiOnly).outcomes;
    expect(outcomes.length).toBeGreaterThan(1);
    const hidden = e.outcomes.length - outcomes.length;
    const sum = outcomes.reduce((s, o) => s + o.aggregated_probability_pct, 0);
    if (hidden === 0) expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.05 * outcomes.length + 1e-9);
    else expect(sum).toBeLessThan(100 - 0.05 * outcomes.length);
  });
});
