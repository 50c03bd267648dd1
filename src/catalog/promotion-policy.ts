/**
 * Promotion policy per jurisdiction: where advertising inducements (sign-up offers, bonuses, promo
 * codes) to the public is banned (the rules' `inducement_bans`), a widget shows no promo text, code
 * or coupon and a neutral call to action, whatever offers the catalog holds.
 */
import { jurisdictionOf } from '../model/jurisdiction.js';
import type { ComplianceRules } from './compliance/rules.js';
import type { Offer, Operator } from './operator-schema.js';
import type { Locale } from '../model/index.js';

/** The offer a visitor in `jurisdiction` may be shown for `op` under `rules`: none where banned or where no offer names it. */
export function offerFor(
  op: Operator,
  jurisdiction: string,
  rules: Pick<ComplianceRules, 'inducementBan'>,
): Offer | undefined {
  if (rules.inducementBan(jurisdiction)) return undefined;
  const j = jurisdictionOf(jurisdiction);
  return op.offers.find(
    (o) => (j.region !== null && o.jurisdictions.includes(j.region)) || o.jurisdictions.includes(j.country),
  );
}

/** A call to action that promises nothing, for operators shown without an offer. */
export const NEUTRAL_CTA: Readonly<Record<Locale, string>> = {
  en: 'Visit site',
  es: 'Visitar sitio',
  de: 'Zur Website',
  fr: 'Voir le site',
  pt: 'Visitar site',
};
