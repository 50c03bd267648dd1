/**
 * Promotion policy per jurisdiction: where advertising inducements (sign-up offers, bonuses, promo
 * codes) to the public is banned, a widget shows no promo text, code or coupon and a neutral call to
 * action, whatever offers the catalog holds. A ban may be national (AU) or regional (CA-ON).
 * Validated when this module loads.
 */
import { z } from 'zod';
import { jurisdictionOf } from '../model/jurisdiction.js';
import { AsOfDate, entryFor, RuleJurisdiction, Source } from './jurisdiction-schema.js';
import type { Offer, Operator } from './operator-schema.js';
import type { Locale } from '../model/index.js';

export const InducementBan = z.object({
  jurisdiction: RuleJurisdiction,
  source: Source,
  asOf: AsOfDate,
});
export type InducementBan = z.infer<typeof InducementBan>;

const BANS: readonly InducementBan[] = z
  .array(InducementBan)
  .refine((bans) => new Set(bans.map((b) => b.jurisdiction)).size === bans.length, 'one rule per jurisdiction')
  .parse([
    {
      jurisdiction: 'CA-ON',
      source:
        "AGCO Registrar's Standards for Internet Gaming, standard 2.05: public advertising of inducements, bonuses and credits " +
        '(including the display of promo codes) is prohibited in Ontario.',
      asOf: '2026-11-25',
    },
    {
      jurisdiction: 'ES',
      source: 'Real Decreto 958/2020 on commercial communications of gambling: welcome bonuses and bonuses to attract new customers are banned.',
      asOf: '2026-11-25',
    },
    {
      jurisdiction: 'BR',
      source:
        'Portaria SPA/MF 1.231/2024 and SENACON Medida Cautelar 2.344/2024: advertising of bets that offers advance benefits, such as ' +
        'welcome bonuses, is prohibited in Brazil.',
      asOf: '2026-11-25',
    },
    {
      jurisdiction: 'AU',
      source:
        'National Consumer Protection Framework for Online Wagering (2018), measure 1: online wagering providers may not offer ' +
        'inducements to open an account or to refer others.',
      asOf: '2026-11-23',
    },
  ]);

const BANNED: ReadonlyMap<string, InducementBan> = new Map(BANS.map((b) => [b.jurisdiction, b]));
/** A visitor whose region is unknown gets the strictest rule of the country: any regional ban applies. */
const BANNED_SOMEWHERE: ReadonlyMap<string, InducementBan> = new Map(BANS.filter((b) => b.jurisdiction.length > 2).map((b) => [b.jurisdiction.slice(0, 2), b]));

/** Every inducement ban, for documentation and tests. */
export const INDUCEMENT_BANS: readonly InducementBan[] = BANS;

/** The ban on inducement advertising in `jurisdiction` ("CA-ON", "AU"), if there is one. */
export function inducementBan(jurisdiction: string): InducementBan | undefined {
  const j = jurisdictionOf(jurisdiction);
  return entryFor(BANNED, j.country, j.region) ?? (j.region === null ? BANNED_SOMEWHERE.get(j.country) : undefined);
}

/** The offer a visitor in `jurisdiction` may be shown for `op`: none where banned or where no offer names it. */
export function offerFor(op: Operator, jurisdiction: string): Offer | undefined {
  if (inducementBan(jurisdiction)) return undefined;
  const j = jurisdictionOf(jurisdiction);
  return op.offers.find((o) => (j.region !== null && o.jurisdictions.includes(j.region)) || o.jurisdictions.includes(j.country));
}

/** A call to action that promises nothing, for operators shown without an offer. */
export const NEUTRAL_CTA: Readonly<Record<Locale, string>> = {
  en: 'Visit site',
  es: 'Visitar sitio',
  de: 'Zur Website',
  fr: 'Voir le site',
  pt: 'Visitar site',
};
