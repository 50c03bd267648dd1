/// <reference lib="dom" />
/** The broad widget: operators by rank with rating, metrics, promo and its terms, and the call to action. */
import type { BroadWidgetPayload } from '../../widgets/payload-schemas.js';
import { localNumber } from './format.js';
import { cta, esc, facts, out, sr } from './html.js';
import type { Labels } from './labels.js';

/** Issue "Lawful where shown" adds the promotion's significant terms; absent until the API sends them. */
type Incentives = BroadWidgetPayload['operators'][number]['incentives'] & {
  promo_terms?: string;
  promo_terms_url?: string;
};

/** The promotion, its code, and its significant terms with the link to the full ones (a sponsored link of `operator`). */
function promo(i: Incentives, L: Labels, operator: string): string {
  const terms =
    i.promo_terms || i.promo_terms_url
      ? `<p class="terms small">${esc(i.promo_terms ?? '')}${i.promo_terms_url ? ` <a ${out(i.promo_terms_url, true)} data-op="${esc(operator)}">${esc(L.terms)}</a>` : ''}</p>`
      : '';
  return (
    (i.promo_text || i.promo_code
      ? `<p class="promo">${esc(i.promo_text)}${i.promo_code ? ` <span class="code">${esc(L.code)} <code>${esc(i.promo_code)}</code></span>` : ''}</p>`
      : '') + terms
  );
}

export function renderBroad(p: BroadWidgetPayload, L: Labels, locale: string | undefined): string {
  const n = (text: string) => localNumber(text, locale);
  const summary = facts(
    [
      [L.volume24hAll, n(p.trending_summary.global_24h_volume)],
      [L.busiestCategory, p.trending_summary.highest_volume_category],
    ],
    'facts summary',
  );
  const items = p.operators.map((op) => {
    const apps = op.routing.app_store_available.length
      ? `<span class="muted">${esc(L.app)} ${esc(op.routing.app_store_available.join(', '))}</span>`
      : '';
    return (
      `<li><div class="head"><span class="rank">${sr(`${L.rank} `)}${op.rank}</span><strong>${esc(op.operator_name)}</strong>` +
      `<span class="rating">${sr(`${L.rating} `)}★ ${esc(n(op.rating))}</span></div>` +
      facts([
        [L.volume24h, n(op.metrics.volume_24h)],
        [L.avgPerEvent, n(op.metrics.avg_value_per_event)],
        [L.liquidity, op.metrics.total_liquidity ? n(op.metrics.total_liquidity) : L.notReported],
      ]) +
      `${promo(op.incentives, L, op.operator_name)}<p class="actions">${cta(L, op.routing.web_url, op.incentives.cta_label, op.operator_name, `b:${op.operator_name}`)} ${apps}</p></li>`
    );
  });
  return `<h2>${esc(L.topOperators)}</h2>${summary}<ol class="ops">${items.join('')}</ol>`;
}
