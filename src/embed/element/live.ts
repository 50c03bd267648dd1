/// <reference lib="dom" />
/** The live-market widget: the question with its strike, spot, a countdown, and each venue's multipliers. */
import type { LiveMarketPayload } from '../../widgets/payload-schemas.js';
import { localNumber } from './format.js';
import { bestOddsBadge, cta, esc, note, sr } from './html.js';
import type { Labels } from './labels.js';
import { spark } from './spark.js';

/** Why a market that is not open shows no prices. */
const status = (s: Exclude<LiveMarketPayload['market_status'], 'open'>, L: Labels): string =>
  ({ awaiting_strike: L.statusAwaitingStrike, no_strike: L.statusNoStrike, stale: L.statusStale })[s];

/** "4:05" for 245 seconds. */
export const clock = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

export function renderLive(p: LiveMarketPayload, L: Labels, locale: string | undefined): string {
  const n = (text: string) => esc(localNumber(text, locale));
  const path = p.spot_path ?? [];
  // One venue is no comparison: no badge then.
  const compared = p.providers_pool.length > 1;
  const rows = p.providers_pool.map((v) => {
    // A venue that has published no strike of its own shows none (never ours under its name).
    const diff = v.live_metrics.spot_difference ?? '';
    const best = compared && v.is_best_odds;
    return (
      `<tr data-operator="${esc(v.operator_id)}"${best ? ' class="best"' : ''}><th scope="row">${esc(v.operator_name)}${best ? ` ${bestOddsBadge(L)}` : ''}` +
      `${v.incentives.coupon_value ? `<br><span class="code">${esc(v.incentives.coupon_value)}</span>` : ''}<br>${cta(L, v.incentives.cta_url, L.trade, v.operator_name, `l:${v.operator_id}`)}</th>` +
      (v.live_metrics.target_price === null
        ? '<td class="num">—</td>'
        : `<td class="num">${n(v.live_metrics.target_price)}<br><span class="${diff.startsWith('-') ? 'down' : 'up'} small">${sr(`${L.spotVsStrike} `)}${n(diff)}</span></td>`) +
      `<td class="num up">${n(v.live_metrics.multipliers.payout_up)}</td><td class="num down">${n(v.live_metrics.multipliers.payout_down)}</td></tr>`
    );
  });
  const table = `<table><caption class="sr">${esc(L.upDownPayouts)}</caption><thead><tr><th scope="col">${esc(L.venue)}</th><th scope="col">${esc(L.strike)}</th><th scope="col">${esc(L.up)}</th><th scope="col">${esc(L.down)}</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  // Venues that list the window but have no usable quote now are named, never priced.
  const away = (p.unavailable_venues ?? []).map((v) => esc(v.operator_name));
  const unavailable = away.length ? `<p class="muted small">${esc(L.venuesUnavailable)} ${away.join(', ')}</p>` : '';
  const body =
    p.market_status !== 'open'
      ? note(status(p.market_status, L))
      : (rows.length ? table : away.length ? '' : note(L.noVenue)) + unavailable;
  // The payload's horizon is English ("15 minutes"): its number goes into the chosen language's phrase.
  const horizon = L.window(Number.parseInt(p.expiration_horizon, 10));
  return (
    `<h2>${esc(p.active_micro_question)}</h2>` +
    `<p class="live"><span>${esc(p.underlying_asset)} <b class="spot">${p.spot_price ? n(p.spot_price) : '—'}</b></span> ` +
    `<span role="timer" aria-atomic="true">${esc(L.closesIn)} <b class="countdown">${clock(p.seconds_left)}</b></span> <span class="muted">${esc(horizon)}</span></p>` +
    // The spot since the strike (the dashed line) across the whole window, coloured by which side it is on.
    spark(
      path,
      Number.parseInt(p.expiration_horizon, 10) * 60,
      (path.at(-1)?.[1] ?? 0) < (path[0]?.[1] ?? 0) ? 'down' : 'up',
      path[0]?.[1],
    ) +
    body
  );
}
