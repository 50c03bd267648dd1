/**
 * Where each operator may be shown: reviewed compliance data, one rule per catalog operator (its
 * licences or its own geoblock) plus national blocks (a country's own ban), each with its source
 * and the date it was last checked. Validated by compliance.ts at start-up (unknown country codes,
 * missing or extra operators, missing sources or dates fail). An operator is shown in a country
 * only when its rule allows it there and no national block covers it.
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
  /** When the source was last checked (YYYY-MM-DD). */
  asOf: string;
}

/**
 * A country's own block on operators, applied on top of the operators' rules: a regulator's order
 * or a law that forbids offering (or advertising) them there. `operators: 'all'` covers every
 * catalog operator (all of them take real-money positions).
 */
export interface NationalBlockData {
  country: string;
  operators: readonly string[] | 'all';
  source: string;
  asOf: string;
}

/** OFAC comprehensive sanctions; Crimea, Donetsk and Luhansk are parts of UA, so UA as a whole. */
const OFAC = ['CU', 'IR', 'KP', 'SY', 'UA'] as const;

/** Polymarket's published geoblock (blocked and close-only), as of late 2026. */
const POLYMARKET_BLOCKED = [
  'AU', 'BE', 'BY', 'BI', 'CF', 'CD', 'CU', 'DE', 'ET', 'FR', 'GB', 'IR', 'IQ', 'IT', 'KP', 'LB', 'LY',
  'MM', 'NI', 'NL', 'RU', 'SO', 'SS', 'SD', 'SY', 'UM', 'US', 'VE', 'YE',
] as const;
const POLYMARKET_CLOSE_ONLY = ['PL', 'SG', 'TH', 'TW'] as const;

/** Kalshi's restricted jurisdictions outside the US (the US itself is Kalshi's home market). */
const KALSHI_RESTRICTED = [
  'AF', 'DZ', 'AO', 'AU', 'BY', 'BE', 'BO', 'BG', 'BF', 'CM', 'CA', 'CF', 'CI', 'CU', 'CD', 'ET', 'FR', 'HT', 'IR', 'IQ',
  'IT', 'KE', 'LA', 'LB', 'LY', 'ML', 'MC', 'MZ', 'MM', 'NA', 'NI', 'NE', 'KP', 'CN', 'PL', 'RU', 'SG', 'SO', 'SS', 'SD',
  'CH', 'SY', 'TW', 'TH', 'UA', 'AE', 'GB', 'VE', 'YE', 'ZW',
] as const;

export const COMPLIANCE_RULES: readonly ComplianceRuleData[] = [
  {
    operatorId: 'kalshi',
    mode: 'deny',
    countries: [...new Set([...KALSHI_RESTRICTED, ...OFAC])],
    source:
      "Kalshi's restricted jurisdictions for non-US access (Kalshi member obligations as published for builders, " +
      'pond.dflow.net/prediction-markets/prediction-market-compliance) plus comprehensive US sanctions. In the US it is a ' +
      'CFTC-designated contract market; state challenges to sports contracts are subdivisions the country database cannot see.',
    asOf: '2026-11-23',
  },
  {
    operatorId: 'forecastex',
    mode: 'allow',
    countries: ['US', 'CA', 'HK'],
    source:
      'CFTC-designated contract market reached through Interactive Brokers ForecastTrader: eligible clients of IBKR LLC (US), ' +
      'IBKR Canada and IBKR Hong Kong. Other IBKR entities are not listed until their eligibility is confirmed.',
    asOf: '2026-11-22',
  },
  {
    operatorId: 'polymarket',
    mode: 'deny',
    countries: [...new Set([...POLYMARKET_BLOCKED, ...POLYMARKET_CLOSE_ONLY, ...OFAC, 'CA'])],
    source:
      'Polymarket international geoblock (docs.polymarket.com/api-reference/geoblock): blocked and close-only countries, ' +
      'OFAC regions of UA, and Ontario (CA-ON), so CA as a whole. US users are served by the separate Polymarket US (QCX) venue, not this listing.',
    asOf: '2026-11-23',
  },
  {
    operatorId: 'limitless',
    mode: 'deny',
    countries: [...new Set([...POLYMARKET_BLOCKED, ...POLYMARKET_CLOSE_ONLY, ...OFAC, 'CA'])],
    source:
      'Unlicensed crypto prediction market (Base): not CFTC-registered, so no US; the same regulators that block Polymarket ' +
      '(ANJ, GGL, UKGC, ADM, KSA, ACMA and others) treat any such venue alike, so Polymarket\'s list applies; OFAC sanctions.',
    asOf: '2026-11-22',
  },
  {
    operatorId: 'draftkings',
    mode: 'allow',
    countries: ['US', 'CA'],
    source: 'US state sportsbook licences (about 25 states and DC; geolocation at wager) and iGaming Ontario registration.',
    asOf: '2026-11-22',
  },
  {
    operatorId: 'fanduel',
    mode: 'allow',
    countries: ['US', 'CA'],
    source: 'US state sportsbook licences (geolocation at wager) and iGaming Ontario registration.',
    asOf: '2026-11-22',
  },
  {
    operatorId: 'betmgm',
    mode: 'allow',
    countries: ['US', 'CA', 'GB'],
    source: 'US state licences, iGaming Ontario registration, and the Great Britain Gambling Commission licence behind betmgm.co.uk (via LeoVegas).',
    asOf: '2026-11-22',
  },
  {
    operatorId: 'caesars',
    mode: 'allow',
    countries: ['US', 'CA'],
    source: 'US state sportsbook licences and iGaming Ontario registration (the William Hill UK business was sold to 888 in 2022).',
    asOf: '2026-11-22',
  },
  {
    operatorId: 'bet365',
    mode: 'allow',
    countries: ['GB', 'IE', 'GI', 'MT', 'ES', 'IT', 'DE', 'AT', 'DK', 'SE', 'GR', 'CY', 'CA', 'US', 'AU', 'MX', 'BR'],
    source:
      'UKGC, Gibraltar and MGA licences; national licences in ES (DGOJ), IT (ADM), DE (GGL sports betting), AT, DK, SE, GR, CY; ' +
      'iGaming Ontario; US state licences; AU (Northern Territory); MX (SEGOB); BR (SPA/MF, bet365.bet.br). Not FR, NL, PT, BE.',
    asOf: '2026-11-22',
  },
  {
    operatorId: 'betfair',
    mode: 'allow',
    countries: ['GB', 'IE', 'GI', 'MT', 'ES', 'IT'],
    source:
      'Betfair Exchange under UKGC, Gibraltar and MGA licences and the ES (DGOJ) and IT (ADM) exchange licences. ' +
      'Not DE (betting exchanges are not licensable under the GlüStV 2021), not US (the NJ exchange closed).',
    asOf: '2026-11-22',
  },
  {
    operatorId: 'fanatics',
    mode: 'allow',
    countries: ['US'],
    source: 'US state sportsbook licences only; Fanatics Sportsbook does not operate outside the US.',
    asOf: '2026-11-22',
  },
];

export const NATIONAL_BLOCKS: readonly NationalBlockData[] = [
  {
    country: 'IN',
    operators: 'all',
    source:
      'Promotion and Regulation of Online Gaming Act, 2025 (in force 1 October 2025): offering, facilitating and advertising ' +
      'online money games is an offence; its rules (from 1 May 2026) treat real-money prediction markets as online money games. ' +
      'Polymarket was blocked at ISP level on 21 May 2026 under IT Act s.69A, with Kalshi announced next. Every catalog operator takes real money.',
    asOf: '2026-11-23',
  },
  {
    country: 'BR',
    operators: ['kalshi', 'polymarket'],
    source:
      'Ministério da Fazenda, Secretaria de Prêmios e Apostas: order of 24 April 2026, executed by Anatel at ISP level, ' +
      'blocking 27 prediction-market platforms including Kalshi and Polymarket.',
    asOf: '2026-11-23',
  },
  {
    country: 'BR',
    operators: ['limitless'],
    source:
      'Lei 14.790/2023: only operators authorised by the Secretaria de Prêmios e Apostas (on .bet.br domains) may offer fixed-odds ' +
      'bets in Brazil, and the SPA has Anatel block the rest; Limitless holds no authorisation.',
    asOf: '2026-11-23',
  },
];
