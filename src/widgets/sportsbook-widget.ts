/** Sportsbook widget (docs/contract.md): one matchup's odds matrix across operators, plus team trends. */
import { roundTo } from '../domain/aggregate.js';
import { LINE_KEYS, sportsbookLeaders, type LineKey } from '../domain/best-odds.js';
import { formatOdds, formatSignedPoint, oddsFormatFor } from '../domain/odds.js';
import { atsRecord, formatPair, formatTriple, overUnderRecord, straightUpRecord } from '../domain/team-records.js';
import { localeForJurisdiction } from '../domain/locale.js';
import type { BookOdds, LeagueData, Matchup, OddsFormat, PricedLine } from '../model/index.js';
import type { WidgetContext } from './context.js';
import { jurisdictionFields } from './disclosures.js';
import type { SportsbookWidgetPayload } from './payload-schemas.js';

/** The first matchup that has not started at `now` (optionally one involving `teamCode`). */
export function nextMatchup(data: LeagueData, now: Date, teamCode?: string): Matchup | undefined {
  return data.upcoming
    .filter((m) => Date.parse(m.scheduledTime) > now.getTime())
    .filter((m) => teamCode === undefined || m.homeCode === teamCode || m.awayCode === teamCode)
    .sort((a, b) => Date.parse(a.scheduledTime) - Date.parse(b.scheduledTime))[0];
}

function lines(
  book: BookOdds,
  format: OddsFormat,
): SportsbookWidgetPayload['odds_matrix']['operators'][number]['lines'] {
  const odds = (price: number) => formatOdds(price, format);
  const spread = (l: PricedLine) => ({ line: formatSignedPoint(l.point), odds: odds(l.price) });
  // Rounded like spreads so float noise from upstream arithmetic never reaches the page.
  const total = (l: PricedLine) => ({ line: String(roundTo(l.point, 4)), odds: odds(l.price) });
  const out: SportsbookWidgetPayload['odds_matrix']['operators'][number]['lines'] = {};
  // Only the markets the operator offers; an absent key means "not offered".
  if (book.awaySpread) out.away_spread = spread(book.awaySpread);
  if (book.homeSpread) out.home_spread = spread(book.homeSpread);
  if (book.totalOver) out.total_over = total(book.totalOver);
  if (book.totalUnder) out.total_under = total(book.totalUnder);
  if (book.awayMoneyline !== undefined) out.away_moneyline = odds(book.awayMoneyline);
  if (book.homeMoneyline !== undefined) out.home_moneyline = odds(book.homeMoneyline);
  if (book.drawMoneyline !== undefined) out.draw_moneyline = odds(book.drawMoneyline);
  return out;
}

/**
 * Each team's straight-up record (the spec's W-L; draws left out), ATS and O/U; football teams
 * also get `<code>_record_wdl` (W-D-L), since a W-L record hides their draws.
 */
function teamAnalytics(data: LeagueData, codes: readonly string[]): SportsbookWidgetPayload['team_analytics'] {
  const out: SportsbookWidgetPayload['team_analytics'] = {};
  for (const code of codes) {
    const key = code.toLowerCase();
    const su = straightUpRecord(data.finished, code);
    const ats = atsRecord(data.finished, code);
    const ou = overUnderRecord(data.finished, code);
    out[`${key}_record`] = formatPair(su.wins, su.losses);
    if (data.league === 'EPL') out[`${key}_record_wdl`] = formatTriple(su.wins, su.draws, su.losses);
    out[`${key}_ats_ou`] = {
      ats: formatTriple(ats.wins, ats.losses, ats.pushes),
      ou: formatTriple(ou.overs, ou.unders, ou.pushes),
    };
  }
  return out;
}

/** "Away @ Home" for the US leagues; "Home vs Away" for football, as each is usually written. */
function matchupText(data: LeagueData, m: Matchup): string {
  const name = (code: string) => data.teams.find((t) => t.code === code)?.name ?? code;
  return data.league === 'EPL'
    ? `${name(m.homeCode)} vs ${name(m.awayCode)}`
    : `${name(m.awayCode)} @ ${name(m.homeCode)}`;
}

/**
 * Builds the sportsbook widget payload for one matchup, for the jurisdiction of `ctx`: each book
 * shown there with a signed click link to its site licensed there, its odds in `format` (by default
 * the one the visitor's country reads).
 */
export function buildSportsbookWidget(
  data: LeagueData,
  matchup: Matchup,
  ctx: WidgetContext,
  format: OddsFormat = oddsFormatFor(ctx.country),
): SportsbookWidgetPayload {
  const books = matchup.books.filter((b) => ctx.operatorOn(b.operatorId, 'sports'));
  // Judged on the figures shown in `format`: every book showing the best figure is flagged.
  const leaders = sportsbookLeaders(books, format);
  return {
    widget_class: 'sportsbook',
    ...jurisdictionFields(
      ctx,
      localeForJurisdiction(ctx.jurisdiction),
      books.map((b) => b.operatorId),
      'sports',
    ),
    league: data.league,
    odds_format: format,
    match_meta: {
      event_id: matchup.id,
      scheduled_time: matchup.scheduledTime,
      status: 'UPCOMING',
      matchup: matchupText(data, matchup),
    },
    team_analytics: teamAnalytics(data, [matchup.awayCode, matchup.homeCode]),
    odds_matrix: {
      operators: books.map((book) => {
        const op = ctx.operatorOn(book.operatorId, 'sports')!;
        return {
          name: op.name,
          capabilities: op.capabilities,
          lines: lines(book, format),
          best_odds: LINE_KEYS.filter((k: LineKey) => leaders[k].has(book.operatorId)),
          updated_at: book.lastUpdate,
          routing: {
            web_url: ctx.clickUrl({
              operatorId: op.id,
              widget: 'sportsbook',
              placement: `${data.league}:${matchup.id}`,
              country: ctx.jurisdiction,
              advertiserId: ctx.advertiserId,
              impressionId: ctx.impressionId,
              expiresAt: ctx.linkExpiresAt,
            }),
          },
        };
      }),
    },
  };
}
