/**
 * The Odds API v4 odds → our Matchups. Pure. h2h → moneylines (and soccer's Draw), spreads → signed handicaps,
 * totals → over/under, in American odds (decimal input is converted). A malformed bookmaker or
 * market is dropped on its own; a bookmaker we do not carry is skipped silently.
 */
import { afterFeeAmerican } from '../../catalog/fee-schedules.js';
import { decimalToAmerican } from '../../domain/odds.js';
import { AmericanOdds, type BookOdds, type League, type Matchup, type PricedLine } from '../../model/index.js';
import { idField, parseEach, type Dropped } from '../http/parse.js';
import { BOOKMAKER_OPERATORS, TeamResolver } from './mapping.js';
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

function line(operatorId: string, point: number | undefined, price: number, format: OddsFormat): PricedLine | undefined {
  const a = bookPrice(operatorId, price, format);
  return point !== undefined && a !== undefined ? { point, price: a } : undefined;
}

/** One bookmaker's markets for one game, as BookOdds (only what it offers). */
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
  dropped.push(...parsed.dropped.map((d) => ({ id: `${ev.id}/${operatorId}/${d.id}`, reason: d.reason })));
  for (const m of parsed.ok) {
    const find = (name: string) => m.outcomes.find((o) => o.name === name);
    if (m.key === 'h2h') {
      const home = find(ev.home_team);
      const away = find(ev.away_team);
      const h = home && bookPrice(operatorId, home.price, format);
      const a = away && bookPrice(operatorId, away.price, format);
      if (h !== undefined) out.homeMoneyline = h;
      if (a !== undefined) out.awayMoneyline = a;
      // Soccer's h2h is three-way: the draw is an outcome named "Draw".
      const draw = find('Draw');
      const d = draw && bookPrice(operatorId, draw.price, format);
      if (d !== undefined) out.drawMoneyline = d;
    } else if (m.key === 'spreads') {
      const home = find(ev.home_team);
      const away = find(ev.away_team);
      const h = home && line(operatorId, home.point, home.price, format);
      const a = away && line(operatorId, away.point, away.price, format);
      if (h) out.homeSpread = h;
      if (a) out.awaySpread = a;
    } else if (m.key === 'totals') {
      const over = find('Over');
      const under = find('Under');
      const o = over && line(operatorId, over.point, over.price, format);
      const u = under && line(operatorId, under.point, under.price, format);
      if (o) out.totalOver = o;
      if (u) out.totalUnder = u;
    }
    // Other keys (h2h_lay, alternate lines, props) have no place in the matrix.
  }
  return out;
}

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
    const books = parseEach(ev.bookmakers, OddsBookmaker, idField('key'));
    dropped.push(...books.dropped.map((d) => ({ id: `${ev.id}/${d.id}`, reason: d.reason })));
    const seen = new Set<string>();
    const odds: BookOdds[] = [];
    for (const b of books.ok) {
      const operatorId = BOOKMAKER_OPERATORS[b.key];
      // One row per operator: the first of its keys (betfair_ex_uk/_eu) wins.
      if (!operatorId || seen.has(operatorId)) continue;
      seen.add(operatorId);
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
