/// <reference lib="dom" />
/**
 * The event widget: the question, each outcome's probability and depth, and its operators' prices:
 * the TOP best of them at once, the rest behind an expander (the element toggles `open`).
 */
import type { EventHistoryPayload } from '../../widgets/event-history.js';
import type { EventWidgetPayload } from '../../widgets/payload-schemas.js';
import { localNumber } from './format.js';
import { bestOddsBadge, cta, esc, note } from './html.js';
import type { Labels } from './labels.js';
import { spark } from './spark.js';

/** Operators shown per outcome before the expander. */
export const TOP = 2;

/** An outcome's probability over the day, from the event's history (nulls left out). */
function trend(history: EventHistoryPayload | undefined, name: string): string {
  const series = history?.outcomes.find((o) => o.outcome_name === name)?.probability_pct ?? [];
  const points = series.flatMap((v, i) => (v === null ? [] : [[i, v] as const]));
  return spark(points, series.length - 1);
}

/** `open`: the outcomes whose expander the reader opened (by index); `history`: the day's points, once loaded. */
export function renderEvent(
  p: EventWidgetPayload,
  L: Labels,
  locale: string | undefined,
  open: ReadonlySet<number> = new Set(),
  history?: EventHistoryPayload,
): string {
  const outcomes = p.outcomes.map((o, i) => {
    // One quote is no comparison: no badge then.
    const compared = o.comparison_pool.length > 1;
    // The best prices first, so the collapsed outcome shows them (a stable sort keeps the payload's order otherwise).
    const pool = [...o.comparison_pool].sort((a, b) => Number(b.is_best_odds) - Number(a.is_best_odds));
    const rows = pool.map((c, j) => {
      const best = compared && c.is_best_odds;
      const cls = [best && 'best', j >= TOP && 'more'].filter(Boolean).join(' ');
      return (
        `<tr data-operator="${esc(c.operator_id)}"${cls ? ` class="${cls}"` : ''}><th scope="row">${esc(c.operator_name)}${best ? ` ${bestOddsBadge(L)}` : ''}` +
        `${c.promo_applied ? `<br><span class="code">${esc(L.code)} <code>${esc(c.promo_applied)}</code></span>` : ''}</th>` +
        `<td class="num">${esc(localNumber(c.contract_price, locale))}</td><td class="num">${c.contract_volume === null ? '—' : esc(localNumber(c.contract_volume, locale))}</td>` +
        `<td>${cta(L, c.deep_link, L.trade, c.operator_name, `e:${i}:${c.operator_id}`)}</td></tr>`
      );
    });
    const hidden = rows.length - TOP;
    const id = `o${i}`;
    const expander =
      hidden > 0
        ? `<button type="button" class="toggle" data-outcome="${i}" aria-controls="${id}" aria-expanded="${open.has(i)}">${esc(open.has(i) ? L.fewer : L.more(hidden))}</button>`
        : '';
    const pct = Math.max(0, Math.min(100, o.aggregated_probability_pct));
    return (
      `<section class="outcome"><h3>${esc(o.outcome_name)} <span class="pct">${esc(localNumber(`${o.aggregated_probability_pct.toFixed(1)}%`, locale))}</span></h3>` +
      // The bar's width is set through the CSSOM by the element: no inline style attribute (strict CSP).
      `<div class="bar" aria-hidden="true"><span data-w="${pct}"></span></div>` +
      trend(history, o.outcome_name) +
      // An unknown volume (null) is shown as a dash, never as 0.
      `<p class="muted small">${esc(L.marketDepth)} ${o.market_depth_volume === null ? '—' : esc(localNumber(o.market_depth_volume, locale))}</p>` +
      (rows.length
        ? `<table id="${id}"${open.has(i) ? ' class="open"' : ''}><caption class="sr">${esc(L.pricesFor(o.outcome_name))}</caption><thead><tr><th scope="col">${esc(L.operator)}</th><th scope="col">${esc(L.yesPrice)}</th><th scope="col">${esc(L.volume24h)}</th><td></td></tr></thead><tbody>${rows.join('')}</tbody></table>`
        : note(L.noOperator)) +
      expander +
      '</section>'
    );
  });
  return `<h2>${esc(p.event_question)}</h2>${outcomes.join('')}`;
}
