/** The `disclosures` and jurisdiction fields every widget payload carries (docs/contract.md). */
import { AD_LABEL } from '../catalog/disclosures.js';
import type { Surface } from '../catalog/shown-operators.js';
import type { Locale } from '../model/index.js';
import type { WidgetContext } from './context.js';
import type { Disclosures } from './payload-schemas.js';

type DisclosuresPayload = NonNullable<Disclosures>;

/**
 * resolved_geo, resolved_region and disclosures for a payload in `locale` that shows the operators
 * `shown` on `surface`: disclosures are null when it shows none (nothing is advertised), and the
 * minimum age is the strictest of theirs.
 */
export function jurisdictionFields(
  ctx: Pick<WidgetContext, 'country' | 'region' | 'disclosureFor'>,
  locale: Locale,
  shown: readonly string[],
  surface: Surface,
) {
  const d = shown.length === 0 ? undefined : ctx.disclosureFor(shown, surface);
  const disclosures: DisclosuresPayload | null =
    d === undefined
      ? null
      : {
          min_age: d.minAge,
          ad_label: AD_LABEL[locale],
          responsible_gambling: { text: d.text, url: d.url, phone: d.phone },
        };
  return { resolved_geo: ctx.country, resolved_region: ctx.region, disclosures };
}
