/// <reference lib="dom" />
/** The broad widget: operators by rank with rating, metrics, promo and code, and the call to action. */
import type { BroadWidgetPayload } from '../../widgets/payload-schemas.js';
import { cta, esc, facts, note, sr } from './html.js';
import type { Labels } from './labels.js';

export function renderBroad(p: BroadWidgetPayload, L: Labels): string {
  const summary = facts([
    [L.volume24hAll, p.trending_summary.global_24h_volume],
    [L.busiestCategory, p.trending_summary.highest_volume_category],
  ], 'facts summary');
  const heading = `<h2>${esc(L.topOperators)}</h2>`;
  if (!p.operators.length) return `${heading}${summary}${note(L.noOperator)}`;
  const items = p.operators.map((op) => {
    const { promo_text, promo_code, cta_label } = op.incentives;
    const promo = promo_text || promo_code
      ? `<p class="promo">${esc(promo_text)}${promo_code ? ` <span class="code">${esc(L.code)} <code>${esc(promo_code)}</code></span>` : ''}</p>`
      : '';
    const apps = op.routing.app_store_available.length ? `<span class="muted">${esc(L.app)} ${esc(op.routing.app_store_available.join(', '))}</span>` : '';
    return `<li><div class="head"><span class="rank">${sr(`${L.rank} `)}${op.rank}</span><strong>${esc(op.operator_name)}</strong>` +
      `<span class="rating">${sr(`${L.rating} `)}★ ${esc(op.rating)}</span></div>` +
      facts([
        [L.volume24h, op.metrics.volume_24h],
        [L.avgPerEvent, op.metrics.avg_value_per_event],
        [L.liquidity, op.metrics.total_liquidity ?? L.notReported],
      ]) +
      `${promo}<p class="actions">${cta(L, op.routing.web_url, cta_label, op.operator_name, `b:${op.operator_name}`)} ${apps}</p></li>`;
  });
  return `${heading}${summary}<ol class="ops">${items.join('')}</ol>`;
}
