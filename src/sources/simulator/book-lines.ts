/**
 * One book's prices for one upcoming matchup. A book re-prices on its own cadence, so its lines
 * are evaluated at its last update time (which is also the lastUpdate it reports).
 */
import type { BookOdds, League } from '../../model/index.js';
import type { BookProfile } from './books.js';
import { drift, type Octave } from './drift.js';
import { marketView, spreadLine, totalLine, type GameView } from './game-model.js';
import { probabilityToAmerican } from '../../domain/odds.js';
import { probToAmerican, roundAmerican } from './odds.js';
import { askOnTick } from './ticks.js';
import { afterFeeAmerican, afterFeePrice } from '../../catalog/fee-schedules.js';
import { createRng, key, unit } from './rng.js';
import type { ScheduledGame } from './schedule.js';

/** How far one book's opinion sits from the market's: points, or log goal rate for football. */
const BOOK_BIAS: Readonly<Record<League, number>> = { NBA: 0.3, NCAAB: 0.35, NFL: 0.25, EPL: 0.03 };

/** A book's own wander, plus price shading (a book moving the price rather than the line). */
const BOOK_OCTAVES: readonly Octave[] = [
  { periodSec: 6 * 3600, amp: 0.6 },
  { periodSec: 20 * 60, amp: 0.3 },
];

/** The book's last update at or before now: a fixed cadence with a per-book phase. */
function lastUpdateSec(seed: number, gameId: string, book: BookProfile, nowSec: number): number {
  const c = book.cadenceSec;
  const phase = unit(key(seed, gameId, book.operatorId, 'phase')) * c;
  return Math.floor((nowSec - phase) / c) * c + phase;
}

/**
 * Turns a fair probability into this book's quote for one side. A contract's ask is fair value plus
 * the half-spread, rounded up to the venue's tick, and shown after the venue's taker fee (sports
 * rate), as every exchange figure beside the books is.
 */
function quote(book: BookProfile, p: number, ways: number): number {
  if (book.market === 'contract') {
    // Exact, not rounded: what the contract pays after the fee (best odds compare exact prices).
    return probabilityToAmerican(afterFeePrice(book.operatorId, 'sports', askOnTick(p + book.margin, book.tick)));
  }
  // An exchange quoted in odds (Betfair) is shown after its commission on winnings, exactly.
  return afterFeeAmerican(book.operatorId, 'sports', roundAmerican(probToAmerican(p + book.margin / ways), book.step));
}

/** Prices of the bets on a game, as one book quotes them. */
function price(
  book: BookProfile,
  v: GameView,
  shade: number,
  league: League,
): Omit<BookOdds, 'operatorId' | 'lastUpdate'> {
  const out: Omit<BookOdds, 'operatorId' | 'lastUpdate'> = {};
  if (book.offersSpread) {
    const line = spreadLine(v);
    const p = v.homeCovers(line) + shade;
    out.homeSpread = { point: line, price: quote(book, p, 2) };
    out.awaySpread = { point: line === 0 ? 0 : -line, price: quote(book, 1 - p, 2) };
  }
  const total = totalLine(v);
  const pOver = v.over(total) - shade;
  out.totalOver = { point: total, price: quote(book, pOver, 2) };
  out.totalUnder = { point: total, price: quote(book, 1 - pOver, 2) };
  // Football moneylines are three-way (the draw is a third outcome), so each side carries less margin.
  const ways = league === 'EPL' ? 3 : 2;
  out.homeMoneyline = quote(book, v.homeWins, ways);
  out.awayMoneyline = quote(book, v.awayWins, ways);
  if (ways === 3) out.drawMoneyline = quote(book, v.draw, ways);
  return out;
}

/** One book's odds for an upcoming game at `now`. */
export function bookOdds(
  seed: number,
  league: League,
  season: number,
  g: ScheduledGame,
  book: BookProfile,
  now: Date,
): BookOdds {
  const tSec = lastUpdateSec(seed, g.id, book, now.getTime() / 1000);
  const k = key(seed, g.id, book.operatorId, 'bias');
  const own = createRng(k).normal() + drift(k, tSec, BOOK_OCTAVES);
  const view = marketView(seed, league, season, g.id, g.home, g.away, tSec, own * BOOK_BIAS[league]);
  // Sportsbooks shade prices a little around their line; contracts trade at the market.
  const shade =
    book.market === 'odds' ? drift(key(seed, g.id, book.operatorId, 'shade'), tSec, BOOK_OCTAVES) * 0.012 : 0;
  return {
    operatorId: book.operatorId,
    lastUpdate: new Date(Math.floor(tSec * 1000)).toISOString(),
    ...price(book, view, shade, league),
  };
}
