/**
 * The Odds API v4 odds → our Matchups. Pure. h2h → moneylines (and soccer's Draw), spreads → signed handicaps,
 * totals → over/under, in American odds (decimal input is converted). A malformed bookmaker,
 * market or line, a price in another unit, an outcome naming neither team, a bookmaker stamped in
 * the future or older than {@link MAX_BOOK_AGE_MS}, and a game of another sport are dropped on their
 * own and reported; a bookmaker we do not carry is skipped silently.
 */
import { afterFeeAmerican } from '../../catalog/fee-schedules.js';
import { decimalToAmerican } from '../../domain/odds.js';
import { AmericanOdds, type BookOdds, type League, type Matchup, type PricedLine } from '../../model/index.js';
import { idField, parseEach } from '../http/parse.js';
import type { Dropped } from '../quality/dropped.js';
import { BOOKMAKER_OPERATORS, SPORT_KEYS, type TeamResolver } from './mapping.js';
import { OddsBookmaker, OddsEvent, OddsMarket } from './schemas.js';

export type OddsFormat = 'american' | 'decimal';

/** A price in the requested format as valid American odds, or undefined. */
export function toAmerican(price: number, format: OddsFormat): number | undefined {
  let a: number;
  if (format === 'american') a = price;
  else if (price > 1) a = decimalToAmerican(price);
  else return undefined;
  return AmericanOdds.safeParse(a).success ? a : undefined;
}

/**
 * A bookmaker's price as American odds, after its commission when it is an exchange quoted in odds
 * (Betfair: back odds are before the commission on winnings); exact, as every exchange price beside
 * the books. Books without a schedule are returned as quoted.
 */
function bookPrice(operatorId: string, price: number, format: OddsFormat): number | undefined {
  const a = toAmerican(price, format);
  return a === undefined ? undefined : afterFeeAmerican(operatorId, 'sports', a);
}

/** One bookmaker's markets for one game, as BookOdds (only what it offers); lines we cannot read are reported. */
function bookOdds(
  operatorId: string,
  lastUpdate: string,
  markets: readonly unknown[],
  ev: OddsEvent,
  format: OddsFormat,
  dropped: Dropped[],
): BookOdds {
  const out: BookOdds = { operatorId, lastUpdate: new Date(lastUpdate).toISOString() };
  const parsed = parseEach(markets, OddsMarket, idField('key'));
  dropped.push(...parsed.dropped.map((d) => ({ ...d, id: `${ev.id}/${operatorId}/${d.id}` })));
  for (const m of parsed.ok) {
    const names = m.key === 'totals' ? ['Over', 'Under'] : [ev.home_team, ev.away_team, 'Draw'];
    if (!['h2h', 'spreads', 'totals'].includes(m.key)) continue; // h2h_lay, alternate lines, props: no place in the matrix
    const stray = m.outcomes.filter((o) => !names.includes(o.name)).map((o) => o.name);
    // A renamed team (or side) costs the lines it names: reported, never lost silently.
    if (stray.length > 0)
      dropped.push({
        id: `${ev.id}/${operatorId}/${m.key}`,
        reason: `outcome ${stray.map((n) => `"${n}"`).join(', ')} names neither side of ${ev.home_team} v ${ev.away_team}`,
        class: 'inconsistent',
      });
    const price = (o: { name: string; price: number } | undefined): number | undefined => {
      if (!o) return undefined;
      const a = bookPrice(operatorId, o.price, format);
      if (a === undefined)
        dropped.push({
          id: `${ev.id}/${operatorId}/${m.key}/${o.name}`,
          reason: `price ${o.price} is not ${format} odds: unit changed`,
          class: 'unit',
        });
      return a;
    };
    const priced = (
      o: { name: string; price: number; point?: number | undefined } | undefined,
    ): PricedLine | undefined => {
      if (o && o.point === undefined)
        dropped.push({
          id: `${ev.id}/${operatorId}/${m.key}/${o.name}`,
          reason: 'line without its point',
          class: 'schema',
        });
      const p = price(o);
      return o?.point !== undefined && p !== undefined ? { point: o.point, price: p } : undefined;
    };
    const find = (name: string) => m.outcomes.find((o) => o.name === name);
    if (m.key === 'h2h') {
      const h = price(find(ev.home_team));
      const a = price(find(ev.away_team));
      if (h !== undefined) out.homeMoneyline = h;
      if (a !== undefined) out.awayMoneyline = a;
      // Soccer's h2h is three-way: the draw is an outcome named "Draw".
      const d = price(find('Draw'));
      if (d !== undefined) out.drawMoneyline = d;
    } else if (m.key === 'spreads') {
      const h = priced(find(ev.home_team));
      const a = priced(find(ev.away_team));
      if (h) out.homeSpread = h;
      if (a) out.awaySpread = a;
    } else {
      const o = priced(find('Over'));
      const u = priced(find('Under'));
      if (o) out.totalOver = o;
      if (u) out.totalUnder = u;
    }
  }
  return out;
}

// A bookmaker's clock may run a little ahead of ours; beyond this its timestamp is wrong, and so may its prices be.
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * How old a bookmaker's `last_update` may be when the odds are called (freshness, docs/sources.md).
 * The provider refreshes featured markets every 60 s before a game (40 s in play, 30 s for
 * exchanges), and the recorded response has all 21 books within 3 minutes of each other: a book
 * 30 minutes behind has missed thirty updates, so its lines are frozen.
 */
export const MAX_BOOK_AGE_MS = 30 * 60_000;

/**
 * Normalizes one sport's odds list. Games that started before `now` are not upcoming and are left
 * out; the rest are sorted soonest first. Teams resolve through `teams` (shared with scores).
 */
export function normalizeOdds(
  raw: readonly unknown[],
  opts: { league: League; format: OddsFormat; now: Date; teams: TeamResolver },
): { upcoming: Matchup[]; dropped: Dropped[] } {
  const events = parseEach(raw, OddsEvent, idField('id'));
  const dropped = [...events.dropped];
  const upcoming: Matchup[] = [];
  for (const ev of events.ok) {
    if (Date.parse(ev.commence_time) <= opts.now.getTime()) continue;
    // An item of another sport in this league's list is another game, never this league's matchup.
    if (ev.sport_key !== SPORT_KEYS[opts.league]) {
      dropped.push({
        id: ev.id,
        reason: `sport_key ${ev.sport_key} in the ${opts.league} list (${SPORT_KEYS[opts.league]})`,
        class: 'identity',
      });
      continue;
    }
    const books = parseEach(ev.bookmakers, OddsBookmaker, idField('key'));
    dropped.push(...books.dropped.map((d) => ({ ...d, id: `${ev.id}/${d.id}` })));
    const seen = new Set<string>();
    const odds: BookOdds[] = [];
    for (const b of books.ok) {
      const operatorId = BOOKMAKER_OPERATORS[b.key];
      // One row per operator: the first of its keys (betfair_ex_uk/_eu) wins.
      if (!operatorId || seen.has(operatorId)) continue;
      seen.add(operatorId);
      if (Date.parse(b.last_update) > opts.now.getTime() + MAX_CLOCK_SKEW_MS) {
        dropped.push({
          id: `${ev.id}/${b.key}`,
          reason: `last_update ${b.last_update} is in the future`,
          class: 'future',
        });
        continue;
      }
      if (opts.now.getTime() - Date.parse(b.last_update) > MAX_BOOK_AGE_MS) {
        const minutes = Math.round((opts.now.getTime() - Date.parse(b.last_update)) / 60_000);
        dropped.push({
          id: `${ev.id}/${b.key}`,
          reason: `last_update ${b.last_update} is ${minutes} min old (bound ${MAX_BOOK_AGE_MS / 60_000} min): lines withheld as stale`,
          class: 'stale',
        });
        continue;
      }
      odds.push(bookOdds(operatorId, b.last_update, b.markets, ev, opts.format, dropped));
    }
    upcoming.push({
      id: ev.id,
      scheduledTime: new Date(ev.commence_time).toISOString(),
      homeCode: opts.teams.resolve(ev.home_team).code,
      awayCode: opts.teams.resolve(ev.away_team).code,
      books: odds,
    });
  }
  upcoming.sort((a, b) => Date.parse(a.scheduledTime) - Date.parse(b.scheduledTime));
  return { upcoming, dropped };
}
