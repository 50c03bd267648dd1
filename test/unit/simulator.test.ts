import { describe, expect, it } from 'vitest';
import { OPERATORS, operatorById } from '../../src/catalog/operators.js';
import { OperatorCatalog } from '../../src/catalog/operator-schema.js';
import { createSimulator } from '../../src/sources/simulator/index.js';
import {
  EventsData,
  LeagueData,
  LEAGUES,
  LOCALES,
  MetricsData,
  Slug,
  type League,
  type MarketEvent,
} from '../../src/model/index.js';

const NOW = new Date('2026-11-22T14:05:00.000Z');
const at = (ms: number): { now: Date } => ({ now: new Date(NOW.getTime() + ms) });
const SEC = 1000;
const HOUR = 3600 * SEC;
const DAY = 24 * HOUR;

const sim = createSimulator({ seed: 42 });

/** Every (event, outcome, operator) price, keyed so snapshots can be compared quote by quote. */
function priceMap(events: readonly MarketEvent[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of events)
    for (const o of e.outcomes) for (const q of o.quotes) out.set(`${e.slug}|${o.name}|${q.operatorId}`, q.yesPrice);
  return out;
}

function decimal(american: number): number {
  return american > 0 ? 1 + american / 100 : 1 + 100 / -american;
}

describe('operator catalog', () => {
  it('has at least 10 valid operators of every kind', () => {
    expect(OPERATORS.length).toBeGreaterThanOrEqual(10);
    expect(() => OperatorCatalog.parse(OPERATORS)).not.toThrow();
    const kinds = new Set(OPERATORS.map((o) => o.kind));
    expect([...kinds].sort()).toEqual(['crypto', 'exchange', 'sportsbook']);
    expect(operatorById('kalshi')?.kind).toBe('exchange');
    expect(operatorById('polymarket')?.kind).toBe('crypto');
    for (const id of ['draftkings', 'fanduel', 'betmgm', 'caesars', 'bet365', 'betfair']) {
      expect(operatorById(id)?.kind).toBe('sportsbook');
    }
    expect(OPERATORS.filter((o) => o.kind === 'exchange').length).toBeGreaterThanOrEqual(2);
    expect(OPERATORS.filter((o) => o.kind === 'crypto').length).toBeGreaterThanOrEqual(2);
  });

  it('looks up by id, and returns undefined for an unknown id', () => {
    for (const op of OPERATORS) expect(operatorById(op.id)).toBe(op);
    expect(operatorById('nope')).toBeUndefined();
  });

  it('localizes every offer into all five locales with real translations', () => {
    for (const op of OPERATORS) {
      for (const offer of op.offers) {
        const copy = offer.copy as Record<string, { promoText: string; ctaLabel: string } | undefined>;
        for (const loc of LOCALES) {
          expect(copy[loc], `${op.id} ${loc}`).toBeDefined();
          if (loc !== 'en') expect(copy[loc]?.promoText, `${op.id} ${loc}`).not.toBe(offer.copy.en.promoText);
        }
      }
    }
  });

  it('has promo codes on most but not all operators, coupons on some, deep books flagged', () => {
    const withCode = OPERATORS.filter((o) => o.offers.some((f) => f.promoCode)).length;
    expect(withCode).toBeGreaterThan(OPERATORS.length / 2);
    expect(withCode).toBeLessThan(OPERATORS.length);
    const withCoupon = OPERATORS.filter((o) => o.offers.some((f) => f.couponValue)).length;
    expect(withCoupon).toBeGreaterThan(0);
    expect(withCoupon).toBeLessThan(OPERATORS.length);
    expect(operatorById('kalshi')?.capabilities).toContain('PRO_LIQUIDITY');
    expect(operatorById('polymarket')?.capabilities).toContain('PRO_LIQUIDITY');
    for (const op of OPERATORS) {
      expect(op.affiliateUrl.startsWith('https://')).toBe(true);
      expect(Math.round(op.rating * 10) / 10).toBe(op.rating);
    }
  });
});

describe('simulator: schemas', () => {
  it('is named simulator', () => {
    expect(sim.name).toBe('simulator');
  });

  it('produces events, every league and metrics that pass their schemas', async () => {
    EventsData.parse(await sim.fetchEvents({ now: NOW }));
    for (const lg of LEAGUES) LeagueData.parse(await sim.fetchLeague(lg, { now: NOW }));
    MetricsData.parse(await sim.fetchMetrics({ now: NOW }));
  });

  it('passes the schemas across a year of clocks and other seeds', async () => {
    for (const seed of [1, 7, 2026]) {
      const s = createSimulator({ seed });
      for (let m = 0; m < 12; m += 2) {
        const ctx = at(m * 30 * DAY + seed * HOUR);
        EventsData.parse(await s.fetchEvents(ctx));
        for (const lg of LEAGUES) LeagueData.parse(await s.fetchLeague(lg, ctx));
        MetricsData.parse(await s.fetchMetrics(ctx));
      }
    }
  });

  it('rejects a bad seed and an invalid clock', async () => {
    expect(() => createSimulator({ seed: 1.5 })).toThrow(RangeError);
    await expect(sim.fetchEvents({ now: new Date(Number.NaN) })).rejects.toThrow(RangeError);
  });
});

describe('simulator: determinism', () => {
  it('gives deep-equal output for the same seed and clock, whatever the instance', async () => {
    const a = createSimulator({ seed: 42 });
    const b = createSimulator({ seed: 42 });
    // Warm b's season cache at another clock first: cached and fresh paths must agree.
    await b.fetchLeague('NBA', at(3 * DAY));
    expect(await a.fetchEvents({ now: NOW })).toEqual(await b.fetchEvents({ now: NOW }));
    for (const lg of LEAGUES)
      expect(await a.fetchLeague(lg, { now: NOW })).toEqual(await b.fetchLeague(lg, { now: NOW }));
    expect(await a.fetchMetrics({ now: NOW })).toEqual(await b.fetchMetrics({ now: NOW }));
  });

  it('differs between seeds', async () => {
    const other = createSimulator({ seed: 43 });
    expect(await other.fetchEvents({ now: NOW })).not.toEqual(await sim.fetchEvents({ now: NOW }));
    expect(await other.fetchLeague('NBA', { now: NOW })).not.toEqual(await sim.fetchLeague('NBA', { now: NOW }));
  });

  it('hands out copies: mutating a snapshot does not change the next one', async () => {
    const first = await sim.fetchLeague('NFL', { now: NOW });
    const before = structuredClone(first);
    const g = first.finished[0];
    if (g) g.homeScore = 999;
    expect(await sim.fetchLeague('NFL', { now: NOW })).toEqual(before);
  });
});

describe('simulator: price drift', () => {
  it('moves some prices within 10 seconds, none by more than a few cents', async () => {
    for (let i = 0; i < 6; i++) {
      const t0 = i * 7 * HOUR + i * 1234 * SEC;
      const a = priceMap((await sim.fetchEvents(at(t0))).events);
      const b = priceMap((await sim.fetchEvents(at(t0 + 10 * SEC))).events);
      let changed = 0;
      let kalshiChanged = 0;
      for (const [k, p] of a) {
        const q = b.get(k);
        expect(q).toBeDefined();
        expect(Math.abs((q ?? 0) - p)).toBeLessThanOrEqual(0.03);
        if (q !== p) {
          changed++;
          if (k.endsWith('|kalshi')) kalshiChanged++;
        }
      }
      expect(changed).toBeGreaterThan(0);
      expect(kalshiChanged).toBeGreaterThan(0);
    }
  });

  it('moves many prices over a day', async () => {
    const a = priceMap((await sim.fetchEvents({ now: NOW })).events);
    const b = priceMap((await sim.fetchEvents(at(DAY))).events);
    let changed = 0;
    for (const [k, p] of a) if (b.get(k) !== p) changed++;
    expect(changed).toBeGreaterThan(a.size / 2);
  });

  it('moves sportsbook odds and metrics over time too', async () => {
    const a = await sim.fetchLeague('NBA', { now: NOW });
    const b = await sim.fetchLeague('NBA', at(2 * HOUR));
    const first = a.upcoming.find((m) => b.upcoming.some((n) => n.id === m.id));
    const later = b.upcoming.find((m) => m.id === first?.id);
    expect(first).toBeDefined();
    expect(later?.books).not.toEqual(first?.books);
    expect(await sim.fetchMetrics(at(HOUR))).not.toEqual(await sim.fetchMetrics({ now: NOW }));
  });
});

describe('simulator: events', () => {
  it('lists at least 14 events over all five categories with 2-6 outcomes and 2-4 quotes each', async () => {
    const { events } = await sim.fetchEvents({ now: NOW });
    expect(events.length).toBeGreaterThanOrEqual(14);
    expect(new Set(events.map((e) => e.category)).size).toBe(5);
    const venues = new Set(OPERATORS.filter((o) => o.kind !== 'sportsbook').map((o) => o.id));
    for (const e of events) {
      expect(e.outcomes.length).toBeGreaterThanOrEqual(2);
      expect(e.outcomes.length).toBeLessThanOrEqual(6);
      for (const o of e.outcomes) {
        expect(o.quotes.length).toBeGreaterThanOrEqual(2);
        expect(o.quotes.length).toBeLessThanOrEqual(4);
        const ids = o.quotes.map((q) => q.operatorId);
        expect(new Set(ids).size).toBe(ids.length);
        for (const id of ids) expect(venues.has(id), id).toBe(true);
      }
    }
  });

  it('has kalshi and polymarket on most events, a few on only one, some outcomes missing at one', async () => {
    const { events } = await sim.fetchEvents({ now: NOW });
    const lists = (e: MarketEvent, id: string): boolean =>
      e.outcomes.some((o) => o.quotes.some((q) => q.operatorId === id));
    const both = events.filter((e) => lists(e, 'kalshi') && lists(e, 'polymarket'));
    expect(both.length).toBeGreaterThanOrEqual(Math.ceil(events.length * 0.7));
    expect(events.some((e) => lists(e, 'kalshi') !== lists(e, 'polymarket'))).toBe(true);
    const gap = both.some((e) =>
      e.outcomes.some(
        (o) => o.quotes.some((q) => q.operatorId === 'kalshi') !== o.quotes.some((q) => q.operatorId === 'polymarket'),
      ),
    );
    expect(gap).toBe(true);
  });

  it('prices binary events Yes/No and multi-outcome events like real books', async () => {
    const { events } = await sim.fetchEvents({ now: NOW });
    for (const e of events) {
      const byVenue = new Map<string, number[]>();
      for (const o of e.outcomes)
        for (const q of o.quotes) byVenue.set(q.operatorId, [...(byVenue.get(q.operatorId) ?? []), q.yesPrice]);
      const binary = e.outcomes.length === 2 && e.outcomes[0]?.name === 'Yes';
      if (binary) expect(e.outcomes.map((o) => o.name)).toEqual(['Yes', 'No']);
      for (const [venue, prices] of byVenue) {
        if (prices.length !== e.outcomes.length) continue;
        const sum = prices.reduce((s, p) => s + p, 0);
        // Asks: over 1 in total (no free money), never wildly off.
        expect(sum, `${e.slug} ${venue}`).toBeGreaterThan(1);
        expect(sum, `${e.slug} ${venue}`).toBeLessThanOrEqual(binary ? 1.06 : 1.2);
      }
    }
  });

  it('rounds to each venue tick and stays inside (0, 1)', async () => {
    const { events } = await sim.fetchEvents({ now: NOW });
    for (const e of events) {
      for (const o of e.outcomes) {
        for (const q of o.quotes) {
          expect(q.yesPrice).toBeGreaterThan(0);
          expect(q.yesPrice).toBeLessThan(1);
          const ticks = q.operatorId === 'kalshi' ? 100 : q.operatorId === 'polymarket' ? 1000 : undefined;
          if (ticks) expect(Math.round(q.yesPrice * ticks) / ticks).toBe(q.yesPrice);
        }
      }
    }
  });

  it('has heavy-tailed volumes and venue-shaped market URLs', async () => {
    const { events } = await sim.fetchEvents({ now: NOW });
    const quotes = events.flatMap((e) => e.outcomes.flatMap((o) => o.quotes.map((q) => ({ e, q }))));
    const vols = quotes.map(({ q }) => q.volume24hUsd!);
    expect(Math.max(...vols)).toBeGreaterThan(1_000_000);
    expect(Math.min(...vols)).toBeLessThan(10_000);
    for (const { e, q } of quotes) {
      if (q.operatorId === 'kalshi')
        expect(q.marketUrl).toMatch(/^https:\/\/kalshi\.com\/markets\/[a-z0-9]+\/[a-z0-9-]+\/[a-z0-9-]+$/);
      if (q.operatorId === 'polymarket')
        expect(q.marketUrl.startsWith(`https://polymarket.com/event/${e.slug}`)).toBe(true);
    }
    expect(
      events.find((e) => e.slug === 'fed-december-2026')?.outcomes[0]?.quotes.find((q) => q.operatorId === 'kalshi')
        ?.marketUrl,
    ).toBe('https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-26dec');
  });

  it('keeps slugs valid, unique and stable across refreshes', async () => {
    const slugs = async (ms: number): Promise<string[]> => (await sim.fetchEvents(at(ms))).events.map((e) => e.slug);
    const base = await slugs(0);
    expect(new Set(base).size).toBe(base.length);
    for (const s of base) expect(Slug.safeParse(s).success, s).toBe(true);
    expect(base).toContain('bitcoin-above-150k-end-of-2026');
    expect(base).toContain('oscars-2027-best-picture');
    for (const ms of [5 * SEC, 10 * SEC, HOUR, DAY]) expect(await slugs(ms)).toEqual(base);
  });

  it('always closes in the future, rolling to the next edition as dates pass', async () => {
    for (let d = 0; d < 800; d += 17) {
      const ctx = at(d * DAY);
      const { events } = await sim.fetchEvents(ctx);
      expect(events.length).toBeGreaterThanOrEqual(14);
      for (const e of events) expect(Date.parse(e.closesAt)).toBeGreaterThan(ctx.now.getTime());
    }
  });
});

const SCORE_RANGE: Record<League, [number, number]> = { NBA: [70, 170], NCAAB: [40, 120], NFL: [0, 70], EPL: [0, 9] };
const AVG_TOTAL: Record<League, [number, number]> = {
  NBA: [200, 250],
  NCAAB: [125, 165],
  NFL: [34, 56],
  EPL: [2, 3.6],
};
const MIN_GAMES: Record<League, number> = { NBA: 12, NCAAB: 5, NFL: 9, EPL: 10 };

describe('simulator: leagues', () => {
  for (const lg of LEAGUES) {
    describe(lg, () => {
      it('has at least 10 teams with unique codes and unambiguous aliases', async () => {
        const { teams } = await sim.fetchLeague(lg, { now: NOW });
        expect(teams.length).toBeGreaterThanOrEqual(10);
        expect(new Set(teams.map((t) => t.code)).size).toBe(teams.length);
        const names = teams.flatMap((t) => [t.code, t.name, ...t.aliases].map((n) => `${n.toLowerCase()}|${t.code}`));
        const owners = new Map<string, Set<string>>();
        for (const n of names) {
          const [name, code] = n.split('|') as [string, string];
          owners.set(name, (owners.get(name) ?? new Set()).add(code));
        }
        for (const [name, codes] of owners) expect(codes.size, name).toBe(1);
      });

      it('has finished games with plausible scores and closing lines, oldest first', async () => {
        const data = await sim.fetchLeague(lg, { now: NOW });
        const codes = new Set(data.teams.map((t) => t.code));
        const [lo, hi] = SCORE_RANGE[lg];
        const played = new Map<string, number>();
        let last = 0;
        let draws = 0;
        let total = 0;
        for (const g of data.finished) {
          expect(codes.has(g.homeCode) && codes.has(g.awayCode)).toBe(true);
          expect(g.homeCode).not.toBe(g.awayCode);
          const t = Date.parse(g.scheduledTime);
          expect(t).toBeLessThan(NOW.getTime());
          expect(t).toBeGreaterThanOrEqual(last);
          last = t;
          for (const s of [g.homeScore, g.awayScore]) {
            expect(s).toBeGreaterThanOrEqual(lo);
            expect(s).toBeLessThanOrEqual(hi);
          }
          if (g.homeScore === g.awayScore) draws++;
          total += g.homeScore + g.awayScore;
          const step = lg === 'EPL' ? 4 : 2;
          expect(Number.isInteger(g.closingSpreadHome * step)).toBe(true);
          expect(Number.isInteger(g.closingTotal * step)).toBe(true);
          played.set(g.homeCode, (played.get(g.homeCode) ?? 0) + 1);
          played.set(g.awayCode, (played.get(g.awayCode) ?? 0) + 1);
        }
        const [alo, ahi] = AVG_TOTAL[lg];
        expect(total / data.finished.length).toBeGreaterThanOrEqual(alo);
        expect(total / data.finished.length).toBeLessThanOrEqual(ahi);
        if (lg === 'EPL') expect(draws).toBeGreaterThan(0);
        else expect(draws).toBe(0);
        for (const code of codes) expect(played.get(code) ?? 0, code).toBeGreaterThanOrEqual(MIN_GAMES[lg]);
      });

      it('never rewrites history: earlier finished games are a prefix of later ones', async () => {
        const a = await sim.fetchLeague(lg, { now: NOW });
        const b = await sim.fetchLeague(lg, at(3 * DAY));
        expect(b.finished.length).toBeGreaterThan(a.finished.length);
        expect(b.finished.slice(0, a.finished.length)).toEqual(a.finished);
        // Upcoming games that have started since are now finished, with the same id.
        const passed = a.upcoming.filter((m) => Date.parse(m.scheduledTime) < NOW.getTime() + 3 * DAY);
        for (const m of passed) expect(b.finished.some((g) => g.id === m.id)).toBe(true);
      });

      it('lists upcoming matchups priced by 5+ books including kalshi and polymarket', async () => {
        const data = await sim.fetchLeague(lg, { now: NOW });
        const codes = new Set(data.teams.map((t) => t.code));
        expect(data.upcoming.length).toBeGreaterThanOrEqual(4);
        let last = NOW.getTime();
        for (const m of data.upcoming) {
          expect(m.id).toMatch(
            new RegExp(
              `^${lg.toLowerCase()}-\\d{4}-\\d{2}-\\d{2}-${m.homeCode.toLowerCase()}-${m.awayCode.toLowerCase()}$`,
            ),
          );
          expect(codes.has(m.homeCode) && codes.has(m.awayCode)).toBe(true);
          const t = Date.parse(m.scheduledTime);
          expect(t).toBeGreaterThanOrEqual(last);
          last = t;
          const ids = m.books.map((b) => b.operatorId);
          expect(ids.length).toBeGreaterThanOrEqual(5);
          expect(ids).toContain('kalshi');
          expect(ids).toContain('polymarket');
          expect(ids.filter((id) => operatorById(id)?.kind === 'sportsbook').length).toBeGreaterThanOrEqual(3);
          for (const b of m.books) {
            expect(Date.parse(b.lastUpdate)).toBeLessThanOrEqual(NOW.getTime());
            expect(Date.parse(b.lastUpdate)).toBeGreaterThan(NOW.getTime() - 5 * 60 * SEC);
            expect(b.homeMoneyline).toBeDefined();
            expect(b.awayMoneyline).toBeDefined();
            expect(b.totalOver?.point).toBe(b.totalUnder?.point);
            if (b.homeSpread && b.awaySpread) {
              expect(b.homeSpread.point).toBe(b.awaySpread.point === 0 ? 0 : -b.awaySpread.point);
              for (const price of [b.homeSpread.price, b.awaySpread.price]) {
                expect(price).toBeGreaterThanOrEqual(-150);
                expect(price).toBeLessThanOrEqual(130);
              }
              // The favourite gives points and pays less on the moneyline.
              const home = decimal(b.homeMoneyline ?? 0);
              const away = decimal(b.awayMoneyline ?? 0);
              if (b.homeSpread.point < 0) expect(home).toBeLessThanOrEqual(away);
              if (b.homeSpread.point > 0) expect(home).toBeGreaterThanOrEqual(away);
            }
          }
          const sportsbooks = m.books.filter((b) => operatorById(b.operatorId)?.kind === 'sportsbook');
          for (const b of sportsbooks) expect(b.homeSpread).toBeDefined();
          // Books agree on the game within a point or so.
          const lines = sportsbooks.map((b) => b.homeSpread?.point ?? 0);
          expect(Math.max(...lines) - Math.min(...lines)).toBeLessThanOrEqual(lg === 'EPL' ? 1 : 2.5);
        }
      });

      it('keeps matchup ids stable across refreshes', async () => {
        const a = await sim.fetchLeague(lg, { now: NOW });
        const b = await sim.fetchLeague(lg, at(30 * SEC));
        expect(b.upcoming.map((m) => m.id)).toEqual(a.upcoming.map((m) => m.id));
      });
    });
  }

  it('has upcoming games in the off-season (the next season opener) and a full last season', async () => {
    const summer = { now: new Date('2027-07-15T12:00:00.000Z') };
    const nba = await sim.fetchLeague('NBA', summer);
    expect(nba.upcoming.length).toBeGreaterThanOrEqual(4);
    expect(nba.upcoming[0]?.scheduledTime.startsWith('2027-10')).toBe(true);
    expect(nba.finished.length).toBeGreaterThan(1000);
    expect(nba.finished[0]?.scheduledTime.startsWith('2026-10')).toBe(true);
  });
});

describe('simulator: metrics', () => {
  it('covers every catalog operator, consistent with the events they price', async () => {
    const metrics = await sim.fetchMetrics({ now: NOW });
    const { events } = await sim.fetchEvents({ now: NOW });
    expect(metrics.operators.map((m) => m.operatorId)).toEqual(OPERATORS.map((o) => o.id));
    for (const m of metrics.operators) {
      const op = operatorById(m.operatorId);
      const cats = Object.values(m.volumeByCategoryUsd);
      expect(m.volume24hUsd).toBe(cats.reduce((s, v) => s + v, 0));
      expect(m.volume24hUsd).toBeGreaterThan(0);
      expect(m.liquidityUsd).toBeGreaterThan(0);
      expect(m.activeEvents).toBeGreaterThan(0);
      if (op?.kind === 'sportsbook') {
        expect(Object.keys(m.volumeByCategoryUsd)).toEqual(['sports']);
        continue;
      }
      const fromEvents: Record<string, number> = {};
      for (const e of events) {
        for (const o of e.outcomes) {
          for (const q of o.quotes)
            if (q.operatorId === m.operatorId) fromEvents[e.category] = (fromEvents[e.category] ?? 0) + q.volume24hUsd!;
        }
      }
      for (const [cat, v] of Object.entries(fromEvents)) {
        const reported = (m.volumeByCategoryUsd as Record<string, number>)[cat] ?? 0;
        // Sports adds the venue's game contracts on top of its event markets.
        if (cat === 'sports') expect(reported).toBeGreaterThanOrEqual(Math.round(v) - 1);
        else expect(Math.abs(reported - v)).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('simulator: FX reference rates', () => {
  const sim = createSimulator({ seed: 7 });
  const rates = (iso: string) => sim.fetchRates({ now: new Date(iso) });

  it('publishes one set per business day at the 16:00 UTC fixing', async () => {
    const before = await rates('2026-11-20T15:59:00.000Z'); // Friday, before the fixing
    const after = await rates('2026-11-20T16:00:00.000Z');
    expect(before.asOfDate).toBe('2026-11-19');
    expect(after.asOfDate).toBe('2026-11-20');
    expect(after.rates).not.toEqual(before.rates);
    // Saturday and Sunday keep Friday's fixing.
    expect(await rates('2026-11-22T12:00:00.000Z')).toEqual(after);
    expect(await rates('2026-11-23T10:00:00.000Z')).toEqual(after); // Monday before 16:00
  });

  it('quotes every supported currency per USD at realistic levels', async () => {
    const { rates: r } = await rates('2026-11-22T12:00:00.000Z');
    expect(r.USD).toBe(1);
    expect(r.EUR).toBeGreaterThan(0.8);
    expect(r.EUR).toBeLessThan(1.05);
    expect(r.JPY).toBeGreaterThan(120);
    expect(Object.keys(r).sort()).toEqual(['AUD', 'BRL', 'CAD', 'CHF', 'EUR', 'GBP', 'INR', 'JPY', 'MXN', 'USD']);
  });
});
