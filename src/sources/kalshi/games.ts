/**
 * Kalshi game-winner contracts in the odds matrix. Each game is an event with one market per team
 * (yes_sub_title names the team, or "Tie" for soccer's draw); the YES ask of a team's market plus
 * Kalshi's taker fee is the price of backing it, turned into American odds (p >= 0.5: -100p/(1-p),
 * else 100(1-p)/p) so Kalshi sits beside the books.
 * Pure, apart from the series table.
 */
import { probabilityToAmerican } from '../../domain/odds.js';
import { afterFeePrice } from '../../catalog/fee-schedules.js';
import type { BookOdds, League, Matchup, Team, VenueMarket } from '../../model/index.js';
import { MONTH_NAMES } from '../../model/months.js';
import { foldName } from '../../domain/text.js';

/** Kalshi's game-winner series per league. */
export const KALSHI_GAME_SERIES: Readonly<Record<League, string>> = {
  NBA: 'KXNBAGAME',
  NFL: 'KXNFLGAME',
  NCAAB: 'KXNCAAMBGAME',
  EPL: 'KXEPLGAME',
};

const MONTHS: readonly string[] = MONTH_NAMES.map((m) => m.slice(0, 3).toUpperCase());

/** The game date in an event ticker (KXNCAAMBGAME-26MAR18GWUVU → 2026-03-18), as UTC midnight ms. */
export function gameDateOf(eventTicker: string): number | undefined {
  const m = /-(\d{2})([A-Z]{3})(\d{2})/.exec(eventTicker);
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[2] as string);
  if (month < 0) return undefined;
  return Date.UTC(2000 + Number(m[1]), month, Number(m[3]));
}

const fold = foldName;

const TIE_LABEL = /^(tie|draw)$/i;

/** A YES ask as American odds after Kalshi's taker fee (beside the books, exchange prices are after fees). */
function moneyline(yesAsk: number): number {
  return probabilityToAmerican(afterFeePrice('kalshi', 'sports', yesAsk));
}

/** Finds a team by a venue's label: exact name/alias, or a name starting with the label ("Utah Valley" → "Utah Valley Wolverines"). */
export function findTeam(teams: readonly Team[], label: string): Team | undefined {
  const l = fold(label);
  return (
    teams.find((t) => [t.name, ...t.aliases].some((n) => fold(n) === l)) ??
    teams.find((t) => fold(t.name).startsWith(`${l} `))
  );
}

/**
 * Adds a Kalshi row to each matchup whose two teams both have an open game contract on the same
 * date (the ticker's date is US Eastern, so a game up to a day either side in UTC matches).
 */
export function addKalshiGameOdds(
  matchups: readonly Matchup[],
  markets: readonly VenueMarket[],
  teams: readonly Team[],
  now: Date,
): Matchup[] {
  const byEvent = new Map<string, VenueMarket[]>();
  for (const m of markets) if (m.open) byEvent.set(m.eventId, [...(byEvent.get(m.eventId) ?? []), m]);
  return matchups.map((mu) => {
    if (mu.books.some((b) => b.operatorId === 'kalshi')) return mu;
    const start = Date.parse(mu.scheduledTime);
    for (const [eventTicker, ms] of byEvent) {
      const day = gameDateOf(eventTicker);
      if (day === undefined || Math.abs(start - day) > 36 * 3_600_000) continue;
      const side = (code: string) => ms.find((m) => m.outcomeLabel && findTeam(teams, m.outcomeLabel)?.code === code);
      const home = side(mu.homeCode);
      const away = side(mu.awayCode);
      if (!home?.yesAsk || !away?.yesAsk) continue;
      // A soccer game event has a third market, the tie (yes_sub_title "Tie").
      const tie = ms.find((m) => m.outcomeLabel !== undefined && TIE_LABEL.test(m.outcomeLabel.trim()));
      const row: BookOdds = {
        operatorId: 'kalshi',
        lastUpdate: now.toISOString(),
        homeMoneyline: moneyline(home.yesAsk),
        awayMoneyline: moneyline(away.yesAsk),
        ...(tie?.yesAsk ? { drawMoneyline: moneyline(tie.yesAsk) } : {}),
      };
      return { ...mu, books: [row, ...mu.books] };
    }
    return mu;
  });
}
