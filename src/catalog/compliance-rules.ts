/**
 * Where each operator may be shown: reviewed compliance data, validated by compliance.ts at
 * start-up. Deny by default: an operator is shown only in the jurisdictions its rules list, each
 * rule with its source and the date it was last checked, and never where a national block covers it.
 * A rule lists a jurisdiction only where the operator is licensed or lawfully offered there AND the
 * law there does not ban advertising it (docs/compliance.md says what was left out and why).
 *
 * Conventions:
 * - Where licences are regional (US states, Canadian provinces) rules list subdivisions. A visitor
 *   whose region is unknown sees only operators listed for the whole country: none of these.
 * - Where the facts could not be confirmed from a primary or reputable source, the jurisdiction is
 *   not listed (unconfirmed is denied, not guessed).
 * - An operator may have rules with no jurisdiction: the rule then records why it is shown nowhere.
 */
import { SUBDIVISION_CODES } from '../geo/subdivisions.js';

export interface ComplianceRuleData {
  operatorId: string;
  /** Countries (ISO 3166-1 alpha-2) or subdivisions (ISO 3166-2) where the operator may be shown. */
  jurisdictions: readonly string[];
  /** Why: the licence, terms, order or law the list comes from. */
  source: string;
  /** When the source was last checked (YYYY-MM-DD). */
  asOf: string;
}

/**
 * A jurisdiction's own block on operators, applied on top of the operators' rules: a regulator's
 * order or a law that forbids offering (or advertising) them there. `operators: 'all'` covers every
 * catalog operator (all of them take real-money positions).
 */
export interface NationalBlockData {
  jurisdiction: string;
  operators: readonly string[] | 'all';
  source: string;
  asOf: string;
}

const US_STATES = SUBDIVISION_CODES.filter((c) => c.startsWith('US-'));
const us = (...states: string[]) => states.map((s) => `US-${s}`);
const usExcept = (...states: string[]) => US_STATES.filter((c) => !states.includes(c.slice(3)));

const PREDICTION_MARKETS = ['kalshi', 'forecastex', 'polymarket', 'limitless'];

/**
 * States that have taken Kalshi to court, ordered it to stop, or charged it over its event contracts
 * (sports above all), as of the last check; MN also bans advertising prediction markets (below).
 */
const KALSHI_CONTESTED = ['NV', 'MA', 'MD', 'WA', 'AZ', 'CT', 'TN', 'OH', 'IL', 'MT', 'NY', 'WI', 'MN'];

export const COMPLIANCE_RULES: readonly ComplianceRuleData[] = [
  // ------------------------------------------------------------ prediction exchanges
  {
    operatorId: 'kalshi',
    jurisdictions: usExcept(...KALSHI_CONTESTED),
    source:
      'KalshiEX LLC is a CFTC-designated contract market, lawful under US federal law. Left out: the states with an injunction, ' +
      'cease-and-desist, criminal charge or open suit against it (NV state-court injunction 2026-04-03, 9th Cir. stay denied 2026-05-21; ' +
      'MA injunction Jan 2026; MD (4th Cir. No. 25-1892, undecided); WA; AZ criminal charges Mar 2026; CT; TN; OH; IL; MT; NY; WI) and MN ' +
      '(statute SF 4760, see the US-MN block). Outside the US Kalshi holds no licence anywhere, so no country is listed (its own ' +
      'restricted list is not a licence; BR blocked it on 2026-04-24).',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'forecastex',
    jurisdictions: usExcept('MN'),
    source:
      'ForecastEx LLC, a CFTC-designated contract market owned by Interactive Brokers, reached through ForecastTrader by eligible ' +
      'clients of Interactive Brokers LLC (press release of 2024-08-01). Its contracts are economic, climate and government ' +
      'indicators, which no state has contested; MN is left out (statute SF 4760). The Hong Kong and Singapore entities were ' +
      'eligible at launch, but their current eligibility is unconfirmed, so no country outside the US is listed.',
    asOf: '2026-11-25',
  },
  // ------------------------------------------------------------ crypto prediction markets
  {
    operatorId: 'polymarket',
    jurisdictions: [],
    source:
      'The international Polymarket (Adventure One QSS Inc., Panama) holds no licence anywhere, and regulators treat it as unlicensed ' +
      'gambling: blocked or ordered out in FR (ANJ, 2024-11-21), BE, SG (GRA, 2025-01-12), TW, RO (ONJN, 2025-10-29), UA (2025-12-10), ' +
      'HU (SZTFH, 2026-01-19), PT (SRIJ, 2026-01-16) and BR (SPA/Anatel, 2026-04-24), and geoblocked by itself in 33 more ' +
      '(docs.polymarket.com, Geoblock). Polymarket US (QCX LLC, CFTC-designated 2025-11-25) is a separate exchange with its own ' +
      'order book: the prices shown here are the international book\'s, so they are not shown to US visitors as Polymarket US\'s.',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'limitless',
    jurisdictions: [],
    source:
      'Limitless (limitless.exchange, on Base) holds no licence anywhere and is not a CFTC-registered exchange; the countries that ' +
      'require a local licence to offer or advertise betting (DE GlüStV 2021 s.5, ES Ley 13/2011, CH BGS, SG, HK Cap. 148, AE, TR, ' +
      'ID, PH and others) leave no jurisdiction where it is lawfully offered.',
    asOf: '2026-11-25',
  },
  // ------------------------------------------------------------ sportsbooks, US states
  {
    operatorId: 'draftkings',
    jurisdictions: us('AZ', 'CO', 'CT', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MO', 'NH', 'NJ', 'NY', 'NC', 'OH', 'OR', 'PA', 'TN', 'VT', 'VA', 'WV', 'WY'),
    source:
      'State online sports wagering licences: the 26 states where DraftKings Sportsbook is live (state lists of early 2026; MO since ' +
      '2025-12-01, Missouri Gaming Commission). Not DC (unconfirmed). Not CA-ON: registered with the AGCO since 2022-05-13, but its ' +
      'Ontario site is unconfirmed, so no licensed destination can be linked.',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'fanduel',
    jurisdictions: us('AZ', 'CO', 'CT', 'DC', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'MD', 'MA', 'MI', 'MO', 'NJ', 'NY', 'NC', 'OH', 'PA', 'TN', 'VT', 'VA', 'WV', 'WY'),
    source:
      'State online sports wagering licences: the states where FanDuel Sportsbook is live (list of 2025-10-29; MO since 2025-12-01; ' +
      'DC citywide since 2024-07-17). Retail-only states (MS, NV, WA) are not listed.',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'fanduel',
    jurisdictions: ['CA-ON'],
    source: 'AGCO registration of FanDuel Canada ULC (2022), renewed 2024, with an iGaming Ontario operating agreement (on.sportsbook.fanduel.ca).',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'caesars',
    jurisdictions: us('AZ', 'CO', 'DC', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MO', 'NJ', 'NV', 'NY', 'NC', 'OH', 'PA', 'TN', 'VA', 'WV', 'WY'),
    source:
      "Caesars Sportsbook's own disclaimer (must be 21+ and physically present in AZ, CO, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, NJ, NY, " +
      'NC, OH, PA, TN, VA, WV or WY), plus DC citywide (2024-07-17), NV and MO (2025-12-01). Not CA-ON: its 2026 registration is unconfirmed.',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'betmgm',
    jurisdictions: us('AZ', 'DC', 'IN', 'KS', 'MA', 'MD', 'MO', 'NJ', 'NV', 'OH', 'PA', 'TN'),
    source:
      'BetMGM state sites and help centres confirmed live (AZ, IN, KS, NV, TN, NJ, MD, OH, PA, MA; DC citywide 2024-07-17; MO 2025-12-01). ' +
      'BetMGM reports more states, but only these are confirmed: the rest stay unlisted until checked against the regulators.',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'betmgm',
    jurisdictions: ['CA-ON', 'GB'],
    source:
      'AGCO registration of BetMGM Canada Inc. (2022-03-21, renewed 2024) for Ontario (on.betmgm.ca); Great Britain Gambling Commission ' +
      'licence of LeoVegas behind betmgm.co.uk.',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'bet365',
    jurisdictions: us('AZ', 'CO', 'IL', 'IN', 'IA', 'KY', 'LA', 'MO', 'NC', 'NJ', 'OH', 'PA', 'VA'),
    source:
      'State online sports wagering licences: live in AZ, CO, IN, IA, KY, LA, NJ, NC, OH, PA, VA (late 2024), IL (March 2025) and MO ' +
      '(2025-12-01). TN approved but its launch is unconfirmed.',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'bet365',
    jurisdictions: ['GB', 'ES', 'BR'],
    source:
      'Great Britain Gambling Commission licence (bet365.com); DGOJ licence under Ley 13/2011 (bet365.es); Secretaria de Prêmios e ' +
      'Apostas authorisation under Lei 14.790/2023 (bet365.bet.br, the .bet.br domain every authorised operator must use since ' +
      '2025-01-01). Not CA-ON: its registration ran to April 2026 and its renewal is unconfirmed. Its other European, Mexican and ' +
      'Australian licences are not listed until their sites and responsible-gambling services are confirmed.',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'betfair',
    jurisdictions: ['GB'],
    source:
      'Betfair Exchange under the Great Britain Gambling Commission licence (betfair.com). Not IE, ES or IT until their current ' +
      'exchange licences are confirmed; not CY or GR (betting exchanges prohibited); not DE (not licensable under the GlüStV 2021).',
    asOf: '2026-11-25',
  },
  {
    operatorId: 'fanatics',
    jurisdictions: us('IL', 'MA', 'MD', 'MO', 'OH', 'PA', 'TN'),
    source:
      'Fanatics Sportsbook state launches confirmed (OH and TN 2023, MA and MD licences 2023, PA terms of service, IL, MO 2025-12-01). ' +
      'Fanatics reports more states; the rest stay unlisted until checked against the regulators. No licence outside the US.',
    asOf: '2026-11-25',
  },
];

export const NATIONAL_BLOCKS: readonly NationalBlockData[] = [
  {
    jurisdiction: 'US-MN',
    operators: PREDICTION_MARKETS,
    source:
      'Minnesota SF 4760 (signed 2026-05-19, in force 2026-08-01) makes operating, hosting, promoting or advertising a prediction market ' +
      'a felony; the CFTC sued to enjoin it the same day, with no ruling found.',
    asOf: '2026-11-25',
  },
  {
    jurisdiction: 'IN',
    operators: 'all',
    source:
      'Promotion and Regulation of Online Gaming Act, 2025 (in force 1 October 2025): offering, facilitating and advertising ' +
      'online money games is an offence; its rules (from 1 May 2026) treat real-money prediction markets as online money games. ' +
      'Polymarket was blocked at ISP level on 21 May 2026 under IT Act s.69A, with Kalshi announced next. Every catalog operator takes real money.',
    asOf: '2026-11-23',
  },
  {
    jurisdiction: 'BR',
    operators: ['kalshi', 'polymarket'],
    source:
      'Ministério da Fazenda, Secretaria de Prêmios e Apostas: order of 24 April 2026, executed by Anatel at ISP level, ' +
      'blocking 27 prediction-market platforms including Kalshi and Polymarket.',
    asOf: '2026-11-23',
  },
  {
    jurisdiction: 'BR',
    operators: ['limitless'],
    source:
      'Lei 14.790/2023: only operators authorised by the Secretaria de Prêmios e Apostas (on .bet.br domains) may offer fixed-odds ' +
      'bets in Brazil, and the SPA has Anatel block the rest; Limitless holds no authorisation.',
    asOf: '2026-11-23',
  },
];
