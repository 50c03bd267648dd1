/// <reference lib="dom" />
/** The live-market widget: the question with its strike, spot, a countdown, and each venue's multipliers. */
import type { LiveMarketPayload } from '../../widgets/payload-schemas.js';
import { BEST_ODDS_BADGE, cta, esc, note, scroller, sr } from './html.js';

const STATUS: Record<LiveMarketPayload['market_status'], string> = {
  open: '',
  awaiting_strike: 'The window has just started: waiting for its strike price.',
  no_strike: 'No strike was captured for this window; prices return with the next one.',
  stale: 'The price feed is delayed; prices are hidden until it is back.',
};

/** "4:05" for 245 seconds. */
export const clock = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

export function renderLive(p: LiveMarketPayload): string {
  const rows = p.providers_pool.map((v) => {
    const diff = v.live_metrics.spot_difference;
    return `<tr data-operator="${esc(v.operator_id)}"${v.is_best_odds ? ' class="best"' : ''}><th scope="row">${esc(v.operator_name)}${v.is_best_odds ? ` ${BEST_ODDS_BADGE}` : ''}` +
      `${v.incentives.coupon_value ? `<br><span class="code">${esc(v.incentives.coupon_value)}</span>` : ''}<br>${cta(v.incentives.cta_url, 'Trade', v.operator_name, `l:${v.operator_id}`)}</th>` +
      `<td class="num">${esc(v.live_metrics.target_price)}<br><span class="${diff.startsWith('-') ? 'down' : 'up'} small">${sr('spot vs strike ')}${esc(diff)}</span></td>` +
      `<td class="num up">${esc(v.live_metrics.multipliers.payout_up)}</td><td class="num down">${esc(v.live_metrics.multipliers.payout_down)}</td></tr>`;
  });
  const table = `<table><caption class="sr">Up and down payouts</caption><thead><tr><th scope="col">Venue</th><th scope="col">Strike</th><th scope="col">Up</th><th scope="col">Down</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  const body = p.market_status !== 'open'
    ? note(STATUS[p.market_status])
    : rows.length ? scroller('Up and down payouts', table) : note('No venue can be shown in your region.');
  return `<h2>${esc(p.active_micro_question)}</h2>` +
    `<p class="live"><span>${esc(p.underlying_asset)} <b class="spot">${esc(p.spot_price ?? '—')}</b></span> ` +
    `<span role="timer" aria-atomic="true">Closes in <b class="countdown">${clock(p.seconds_left)}</b></span> <span class="muted">${esc(p.expiration_horizon)} window</span></p>` +
    body;
}
