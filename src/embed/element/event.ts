/// <reference lib="dom" />
/** The event widget: the question, each outcome's probability and depth, every operator's price. */
import type { EventWidgetPayload } from '../../widgets/payload-schemas.js';
import { bestOddsBadge, cta, esc, note, scroller } from './html.js';
import type { Labels } from './labels.js';

export function renderEvent(p: EventWidgetPayload, L: Labels): string {
  const outcomes = p.outcomes.map((o, i) => {
    const rows = o.comparison_pool.map((c) =>
      `<tr data-operator="${esc(c.operator_id)}"${c.is_best_odds ? ' class="best"' : ''}><th scope="row">${esc(c.operator_name)}${c.is_best_odds ? ` ${bestOddsBadge(L)}` : ''}` +
      `${c.promo_applied ? `<br><span class="code">${esc(L.code)} <code>${esc(c.promo_applied)}</code></span>` : ''}<br>${cta(L, c.deep_link, L.trade, c.operator_name, `e:${i}:${c.operator_id}`)}</th>` +
      `<td class="num">${esc(c.contract_price)}</td><td class="num">${esc(c.contract_volume)}</td></tr>`,
    );
    const table = `<table><caption class="sr">${esc(L.pricesFor(o.outcome_name))}</caption><thead><tr><th scope="col">${esc(L.operator)}</th><th scope="col">${esc(L.yesPrice)}</th><th scope="col">${esc(L.volume24h)}</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
    return `<section class="outcome"><h3>${esc(o.outcome_name)} <span class="pct">${esc(o.aggregated_probability_pct.toFixed(1))}%</span></h3>` +
      `<div class="bar" aria-hidden="true"><span style="width:${Math.max(0, Math.min(100, o.aggregated_probability_pct))}%"></span></div>` +
      `<p class="muted">${esc(L.marketDepth)} ${esc(o.market_depth_volume)}</p>` +
      (rows.length ? scroller(L.pricesFor(o.outcome_name), table) : note(L.noOperator)) +
      '</section>';
  });
  return `<h2>${esc(p.event_question)}</h2>${outcomes.join('') || note(L.noOutcomes)}`;
}
