/**
 * What a page must show next to gambling advertising, per jurisdiction: the minimum age, the
 * responsible-gambling message with its help service and helpline, each with its source and as-of
 * date. A subdivision's entry overrides its country's field by field (a state's own helpline).
 * Validated when this module loads, against every jurisdiction an operator may be shown in: an
 * operator shown where no disclosure is known fails start-up.
 */
import { z } from 'zod';
import { jurisdictionOf } from '../model/jurisdiction.js';
import { COMPLIANCE_RULES } from './compliance-rules.js';
import { AsOfDate, RuleJurisdiction, Source } from './jurisdiction-schema.js';
import type { Locale } from '../model/index.js';

export const DisclosureRule = z.object({
  jurisdiction: RuleJurisdiction,
  /** The minimum age to open an account (the strictest where operators differ). */
  minAge: z.number().int().min(18).max(21).optional(),
  /** The responsible-gambling message, in the jurisdiction's language. */
  text: z.string().min(10).optional(),
  /** The help service the message names. */
  url: z.url({ protocol: /^https$/ }).optional(),
  /** The helpline; null where the jurisdiction has none we could confirm. */
  phone: z.string().regex(/^[0-9A-Z +-]{3,20}$/).nullable().optional(),
  source: Source,
  asOf: AsOfDate,
});
export type DisclosureRule = z.infer<typeof DisclosureRule>;

/** The disclosure that applies in one jurisdiction, every field resolved. */
export interface Disclosure {
  minAge: number;
  text: string;
  url: string;
  phone: string | null;
}

const RULES: readonly DisclosureRule[] = z.array(DisclosureRule).parse([
  {
    jurisdiction: 'US',
    minAge: 21,
    text: 'If you or someone you know has a gambling problem, call the National Problem Gambling Helpline at 1-800-522-4700 or text 800GAM.',
    url: 'https://www.ncpgambling.org/',
    phone: '1-800-522-4700',
    source:
      'NCPG: 1-800-522-4700 (text 800GAM) is the National Problem Gambling Helpline since 2025-09-29 (SBC Americas, 2025-10-02). ' +
      'Age 21 is the online sports wagering age in almost every state; where a state allows 18 (KY, NH, WY, DC, RI) most operators still ' +
      'require 21, so 21 is shown.',
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'US-NJ',
    text: 'If you or someone you know has a gambling problem and wants help, call 1-800-GAMBLER.',
    url: 'https://800gambler.org/',
    phone: '1-800-GAMBLER',
    source: 'Council on Compulsive Gambling of New Jersey, which runs 1-800-GAMBLER (1-800-426-2537), the helpline New Jersey licensees cite.',
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'US-NY',
    text: 'If you or someone you know has a gambling problem, help is available. Call 877-8-HOPENY or text HOPENY (467369).',
    phone: '877-8-HOPENY',
    source: "New York's HOPEline (877-846-7369, text 467369), as New York licensees' disclaimers cite it (Caesars, 2024).",
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'US-AZ',
    text: 'Gambling problem? Call 1-800-NEXT-STEP.',
    phone: '1-800-NEXT-STEP',
    source: "Arizona's helpline, as Arizona licensees' disclaimers cite it (Caesars, 2024).",
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'US-IN',
    text: 'Gambling problem? Call 1-800-9-WITH-IT.',
    phone: '1-800-9-WITH-IT',
    source: "Indiana's helpline, as Indiana licensees' disclaimers cite it (Caesars, 2024).",
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'US-IA',
    text: 'Gambling problem? Call 1-800-BETSOFF.',
    phone: '1-800-BETSOFF',
    source: "Iowa's helpline, as Iowa licensees' disclaimers cite it (Caesars, 2024).",
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'US-MA',
    text: 'Gambling problem? Call the Massachusetts Problem Gambling Helpline at 1-800-327-5050.',
    phone: '1-800-327-5050',
    source: "Massachusetts Problem Gambling Helpline, as Massachusetts licensees' disclaimers cite it (Caesars, 2024).",
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'US-MI',
    text: 'Gambling problem? Call the Michigan Problem Gambling Helpline at 1-800-270-7117.',
    phone: '1-800-270-7117',
    source: "Michigan Problem Gambling Helpline, as Michigan licensees' disclaimers cite it (Caesars, 2024).",
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'CA-ON',
    minAge: 19,
    text: 'Gambling problem? ConnexOntario offers free, confidential help 24/7: call 1-866-531-2600.',
    url: 'https://www.connexontario.ca/',
    phone: '1-866-531-2600',
    source: "Ontario's 19+ age for iGaming (AGCO); ConnexOntario, the provincial helpline Ontario operators cite.",
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'GB',
    minAge: 18,
    text: 'Please gamble responsibly. For free, confidential help call the National Gambling Helpline on 0808 8020 133.',
    url: 'https://www.begambleaware.org/',
    phone: '0808 8020 133',
    source: 'Gambling Act 2005 (18+); the National Gambling Helpline run by GamCare (0808 8020 133) and BeGambleAware.org.',
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'ES',
    minAge: 18,
    text: 'Juega con responsabilidad. Prohibido a menores de 18 años. El juego puede causar adicción.',
    url: 'https://www.jugarbien.es/',
    phone: null,
    source: 'Ley 13/2011 del Juego (minors may not gamble); Real Decreto 958/2020 (responsible-gambling messages); jugarbien.es, the DGOJ\'s service.',
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'BR',
    minAge: 18,
    text: 'Proibido para menores de 18 anos. Apostas envolvem riscos de dependência e de perdas financeiras. Jogue com responsabilidade.',
    url: 'https://www.gov.br/fazenda/pt-br/composicao/orgaos/secretaria-de-premios-e-apostas/autoexclusao',
    phone: null,
    source:
      'Portaria SPA/MF 1.231/2024: advertising carries the "+18" / "proibido para menores de 18 anos" tagline and warns of the risks of ' +
      'dependence; the SPA\'s self-exclusion service.',
    asOf: '2026-11-25',
  },
]);

const BY_CODE: ReadonlyMap<string, DisclosureRule> = new Map(RULES.map((r) => [r.jurisdiction, r]));

/** Every disclosure rule, for documentation and tests. */
export const DISCLOSURE_RULES: readonly DisclosureRule[] = RULES;

/** The disclosure for `jurisdiction`: its subdivision's fields over its country's; undefined where none is complete. */
export function disclosureFor(jurisdiction: string): Disclosure | undefined {
  const j = jurisdictionOf(jurisdiction);
  const country = BY_CODE.get(j.country);
  const region = j.region === null ? undefined : BY_CODE.get(j.region);
  const minAge = region?.minAge ?? country?.minAge;
  const text = region?.text ?? country?.text;
  const url = region?.url ?? country?.url;
  const phone = region?.phone !== undefined ? region.phone : country?.phone;
  return minAge === undefined || text === undefined || url === undefined ? undefined : { minAge, text, url, phone: phone ?? null };
}

/** "Advertisement" per widget language: widgets that show operators are advertising. */
export const AD_LABEL: Readonly<Record<Locale, string>> = {
  en: 'Advertisement',
  es: 'Publicidad',
  de: 'Werbung',
  fr: 'Publicité',
  pt: 'Publicidade',
};

// Start-up check: every jurisdiction an operator may be shown in has a complete disclosure.
const missing = [...new Set(COMPLIANCE_RULES.flatMap((r) => r.jurisdictions))].filter((code) => disclosureFor(code) === undefined);
if (missing.length > 0) throw new Error(`invalid disclosures: no complete disclosure for ${missing.join(', ')}`);
if (BY_CODE.size !== RULES.length) throw new Error('invalid disclosures: one rule per jurisdiction');
