/**
 * Where each operator may be shown: reviewed compliance data, one rule per catalog operator.
 * Validated by compliance.ts at start-up (unknown country codes, missing or extra operators fail).
 *
 * Conventions:
 * - Country level only: the IP database has no subdivisions. Where a licence covers only some
 *   subdivisions (US states, Canadian provinces) the country is allowed and the operator's own
 *   geolocation check at sign-up (which every US state regulator and iGaming Ontario require)
 *   gates the rest; where an operator blocks part of a country, the whole country is denied.
 * - "Close-only" jurisdictions (no new positions) are denied: a sign-up link there is pointless.
 * - An allow list is preferred for licensed operators; a deny list only for operators that are
 *   open worldwide except where they say they are not. ZZ (unknown) sees only deny-list operators
 *   with an empty list, i.e. none today: an empty widget, never a non-compliant one.
 */
export interface ComplianceRuleData {
  operatorId: string;
  mode: 'allow' | 'deny';
  countries: readonly string[];
  /** Why: the licence, terms or notice the list comes from. */
  source: string;
}

/** OFAC comprehensive sanctions; Crimea, Donetsk and Luhansk are parts of UA, so UA as a whole. */
const OFAC = ['CU', 'IR', 'KP', 'SY', 'UA'] as const;

/** Polymarket's published geoblock (blocked and close-only), as of late 2026. */
const POLYMARKET_BLOCKED = [
  'AU', 'BE', 'BY', 'BI', 'CF', 'CD', 'CU', 'DE', 'ET', 'FR', 'GB', 'IR', 'IQ', 'IT', 'KP', 'LB', 'LY',
  'MM', 'NI', 'NL', 'RU', 'SO', 'SS', 'SD', 'SY', 'UM', 'US', 'VE', 'YE',
] as const;
const POLYMARKET_CLOSE_ONLY = ['PL', 'SG', 'TH', 'TW'] as const;

export const COMPLIANCE_RULES: readonly ComplianceRuleData[] = [
  {
    operatorId: 'kalshi',
    mode: 'allow',
    countries: ['US'],
    source:
      'CFTC-designated contract market for US residents (Kalshi Member Agreement, restricted jurisdictions). ' +
      'State challenges to sports contracts (NV, NJ, MD, AZ, IL, MT, OH) are subdivisions the country database cannot see; Kalshi geolocates at trade.',
  },
  {
    operatorId: 'forecastex',
    mode: 'allow',
    countries: ['US', 'CA', 'HK'],
    source:
      'CFTC-designated contract market reached through Interactive Brokers ForecastTrader: eligible clients of IBKR LLC (US), ' +
      'IBKR Canada and IBKR Hong Kong. Other IBKR entities are not listed until their eligibility is confirmed.',
  },
  {
    operatorId: 'polymarket',
    mode: 'deny',
    countries: [...new Set([...POLYMARKET_BLOCKED, ...POLYMARKET_CLOSE_ONLY, ...OFAC, 'CA'])],
    source:
      'Polymarket international geoblock (docs.polymarket.com, Geographic Restrictions): blocked and close-only countries, ' +
      'OFAC regions of UA, and Ontario (CA-ON), so CA as a whole. US users are served by the separate Polymarket US (QCX) venue, not this listing.',
  },
  {
    operatorId: 'limitless',
    mode: 'deny',
    countries: [...new Set([...POLYMARKET_BLOCKED, ...POLYMARKET_CLOSE_ONLY, ...OFAC, 'CA'])],
    source:
      'Unlicensed crypto prediction market (Base): not CFTC-registered, so no US; the same regulators that block Polymarket ' +
      '(ANJ, GGL, UKGC, ADM, KSA, ACMA and others) treat any such venue alike, so Polymarket\'s list applies; OFAC sanctions.',
  },
  {
    operatorId: 'draftkings',
    mode: 'allow',
    countries: ['US', 'CA'],
    source: 'US state sportsbook licences (about 25 states and DC; geolocation at wager) and iGaming Ontario registration.',
  },
  {
    operatorId: 'fanduel',
    mode: 'allow',
    countries: ['US', 'CA'],
    source: 'US state sportsbook licences (geolocation at wager) and iGaming Ontario registration.',
  },
  {
    operatorId: 'betmgm',
    mode: 'allow',
    countries: ['US', 'CA', 'GB'],
    source: 'US state licences, iGaming Ontario registration, and the Great Britain Gambling Commission licence behind betmgm.co.uk (via LeoVegas).',
  },
  {
    operatorId: 'caesars',
    mode: 'allow',
    countries: ['US', 'CA'],
    source: 'US state sportsbook licences and iGaming Ontario registration (the William Hill UK business was sold to 888 in 2022).',
  },
  {
    operatorId: 'bet365',
    mode: 'allow',
    countries: ['GB', 'IE', 'GI', 'MT', 'ES', 'IT', 'DE', 'AT', 'DK', 'SE', 'GR', 'CY', 'CA', 'US', 'AU', 'MX', 'BR'],
    source:
      'UKGC, Gibraltar and MGA licences; national licences in ES (DGOJ), IT (ADM), DE (GGL sports betting), AT, DK, SE, GR, CY; ' +
      'iGaming Ontario; US state licences; AU (Northern Territory); MX (SEGOB); BR (SPA/MF, bet365.bet.br). Not FR, NL, PT, BE.',
  },
  {
    operatorId: 'betfair',
    mode: 'allow',
    countries: ['GB', 'IE', 'GI', 'MT', 'ES', 'IT'],
    source:
      'Betfair Exchange under UKGC, Gibraltar and MGA licences and the ES (DGOJ) and IT (ADM) exchange licences. ' +
      'Not DE (betting exchanges are not licensable under the GlüStV 2021), not US (the NJ exchange closed).',
  },
  {
    operatorId: 'fanatics',
    mode: 'allow',
    countries: ['US'],
    source: 'US state sportsbook licences only; Fanatics Sportsbook does not operate outside the US.',
  },
];
