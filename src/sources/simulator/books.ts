/**
 * Who prices sportsbook matchups and how: each sportsbook's margin and price rounding, and the
 * two prediction markets whose game contracts are turned into American odds so the odds matrix
 * can put them beside the books.
 */
import { OPERATORS } from '../../catalog/operators.js';
import type { League } from '../../model/index.js';
import { between, key, mix, unit } from './rng.js';

export interface BookProfile {
  operatorId: string;
  /** A prediction market quotes contract prices; a sportsbook quotes odds with a margin. */
  market: 'contract' | 'odds';
  /** Two-way overround (0.045 ~ -110/-110); for contracts, the half-spread added to each ask. */
  margin: number;
  /** American odds rounding step (5 for US books, 1 for exchanges and contracts). */
  step: number;
  /** Contract tick for prediction markets. */
  tick: number;
  /** Seconds between the book's price updates. */
  cadenceSec: number;
  /** Markets offered: football prediction markets list winners and totals only. */
  offersSpread: boolean;
}

/** The prediction markets that price every matchup. */
export const GAME_CONTRACT_VENUES = ['kalshi', 'polymarket'] as const;

const SPORTSBOOK_MARGIN: Record<string, number> = {
  draftkings: 0.045,
  fanduel: 0.045,
  betmgm: 0.05,
  caesars: 0.05,
  bet365: 0.045,
  betfair: 0.025,
  fanatics: 0.05,
};

const SPORTSBOOK_IDS = OPERATORS.filter((op) => op.kind === 'sportsbook').map((op) => op.id);

/**
 * The books pricing one matchup, in catalog order: kalshi and polymarket always, and most
 * sportsbooks (a few sit some games out, but never fewer than four).
 */
export function booksFor(seed: number, league: League, matchupId: string): BookProfile[] {
  const chosen = new Set<string>(GAME_CONTRACT_VENUES);
  const ranked = SPORTSBOOK_IDS.map((id) => ({ id, u: unit(key(seed, matchupId, 'lists', id)) }));
  ranked.sort((a, b) => a.u - b.u);
  ranked.forEach((r, i) => {
    if (i < 4 || r.u < 0.8) chosen.add(r.id);
  });
  return OPERATORS.filter((op) => chosen.has(op.id)).map((op) =>
    profile(seed, league, op.id, op.kind !== 'sportsbook'),
  );
}

function profile(seed: number, league: League, id: string, contract: boolean): BookProfile {
  const k = key(seed, 'book', id);
  if (contract) {
    return {
      operatorId: id,
      market: 'contract',
      margin: between(k, 0.004, 0.012),
      step: 1,
      tick: id === 'polymarket' ? 0.001 : 0.01,
      cadenceSec: Math.round(between(mix(k, 2), 2, 6)),
      offersSpread: league !== 'EPL',
    };
  }
  return {
    operatorId: id,
    market: 'odds',
    margin: SPORTSBOOK_MARGIN[id] ?? 0.05,
    step: id === 'betfair' ? 1 : 5,
    tick: 0,
    cadenceSec: Math.round(between(mix(k, 2), 20, 90)),
    offersSpread: true,
  };
}
