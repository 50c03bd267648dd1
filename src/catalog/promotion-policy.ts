/**
 * Promotion policy per jurisdiction: where advertising inducements (sign-up offers, bonuses, promo
 * codes) to the public is banned, a widget shows no promo text, code or coupon and a neutral call to
 * action, whatever offers the catalog holds. Country level only, like the compliance rules: a ban in
 * part of a country (Ontario) applies to the whole country. Validated when this module loads.
 */
import { z } from 'zod';
import { isCountryCode } from '../geo/countries.js';
import type { Locale, Offer, Operator } from './operator-schema.js';

export const InducementBan = z.object({
  country: z.string().refine(isCountryCode, 'not an ISO 3166-1 alpha-2 country code'),
  source: z.string().min(10, 'say where the rule comes from'),
  asOf: z.iso.date('as-of date must be YYYY-MM-DD'),
});
export type InducementBan = z.infer<typeof InducementBan>;

const BANS: readonly InducementBan[] = z
  .array(InducementBan)
  .refine((bans) => new Set(bans.map((b) => b.country)).size === bans.length, 'one rule per country')
  .parse([
    {
      country: 'CA',
      source:
        "AGCO Registrar's Standards for Internet Gaming, standard 2.05: public advertising of inducements, bonuses and credits " +
        '(including the display of promo codes) is prohibited in Ontario; applied to all of Canada because the IP database has no provinces.',
      asOf: '2026-11-23',
    },
    {
      country: 'AU',
      source:
        'National Consumer Protection Framework for Online Wagering (2018), measure 1: online wagering providers may not offer ' +
        'inducements to open an account or to refer others.',
      asOf: '2026-11-23',
    },
  ]);

const BANNED: ReadonlyMap<string, InducementBan> = new Map(BANS.map((b) => [b.country, b]));

/** Every inducement ban, for documentation and tests. */
export const INDUCEMENT_BANS: readonly InducementBan[] = BANS;

/** The ban on inducement advertising in `country`, if there is one. */
export function inducementBan(country: string): InducementBan | undefined {
  return BANNED.get(country);
}

/** The offer a visitor from `country` may be shown for `op`: none where banned or where no offer names the country. */
export function offerFor(op: Operator, country: string): Offer | undefined {
  if (BANNED.has(country)) return undefined;
  return op.offers.find((o) => o.countries.includes(country));
}

/** A call to action that promises nothing, for operators shown without an offer. */
export const NEUTRAL_CTA: Readonly<Record<Locale, string>> = {
  en: 'Visit site',
  es: 'Visitar sitio',
  de: 'Zur Website',
  fr: 'Voir le site',
  pt: 'Visitar site',
};
