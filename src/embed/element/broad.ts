/// <reference lib="dom" />
/** The broad widget: operators by rank with rating, metrics, promo and code, and the call to action. */
import type { BroadWidgetPayload } from '../../widgets/payload-schemas.js';
import { cta, esc, facts, note, sr } from './html.js';

export function renderBroad(p: BroadWidgetPayload): string {
  const summary = facts([
    ['24h volume, all operators', p.trending_summary.global_24h_volume],
    ['Busiest category', p.trending_summary.highest_volume_category],
  ], 'facts summary');
  if (!p.operators.length) return `<h2>Top operators</h2>${summary}${note('No operator can be shown in your region.')}`;
  const items = p.operators.map((op) => {
    const { promo_text, promo_code, cta_label } = op.incentives;
    const promo = promo_text || promo_code
      ? `<p class="promo">${esc(promo_text)}${promo_code ? ` <span class="code">Code <code>${esc(promo_code)}</code></span>` : ''}</p>`
      : '';
    const apps = op.routing.app_store_available.length ? `<span class="muted">App: ${esc(op.routing.app_store_available.join(', '))}</span>` : '';
    return `<li><div class="head"><span class="rank">${sr('Rank ')}${op.rank}</span><strong>${esc(op.operator_name)}</strong>` +
      `<span class="rating">${sr('Rating ')}★ ${esc(op.rating)}</span></div>` +
      facts([
        ['24h volume', op.metrics.volume_24h],
        ['Avg per event', op.metrics.avg_value_per_event],
        ['Liquidity', op.metrics.total_liquidity ?? 'not reported'],
      ]) +
      `${promo}<p class="actions">${cta(op.routing.web_url, cta_label, op.operator_name, `b:${op.operator_name}`)} ${apps}</p></li>`;
  });
  return `<h2>Top operators</h2>${summary}<ol class="ops">${items.join('')}</ol>`;
}
