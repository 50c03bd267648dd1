/**
 * The operator catalog: our own editorial data (ratings, offers, capabilities), reviewed by hand.
 * Validated when the module loads, so a bad edit fails at start-up rather than in a widget.
 * Offers name the jurisdictions they are for: the dollar offers are US offers (amounts stay in US dollars
 * in every language; only the words are localized) and are shown to US visitors only. The crypto
 * markets have no offer here: none is verified for any country they may be shown in.
 */
import { OperatorCatalog, type Operator, type OperatorInput } from './operator-schema.js';

const OFFER_SOURCE = "Demo catalog offer modelled on the operator's public sign-up terms for the jurisdictions listed";

const CATALOG: OperatorInput[] = [
  // ------------------------------------------------------------ regulated prediction exchanges
  {
    id: 'kalshi',
    name: 'Kalshi',
    kind: 'exchange',
    rating: 4.7,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['PRO_LIQUIDITY', 'API_ACCESS', 'CASH_OUT', 'LIVE_BETTING'],
    affiliateUrl: 'https://kalshi.com/sign-up',
    subIdParams: { impression: 'subId1', advertiser: 'subId2', placement: 'subId3', click: 'subId4' },
    webDomains: ['kalshi.com'],
    offers: [
      {
        jurisdictions: ['US'],
        promoCode: 'WIRE10',
        couponValue: '$10 bonus',
        copy: {
          en: {
            promoText: 'Trade $100 on any event contract and get a $10 bonus',
            ctaLabel: 'Start trading',
            terms:
              '18+ (21+ for sports contracts). New US members only; trade $100 within 30 days of sign-up. The $10 bonus is credited within 7 days and can be traded, not withdrawn, for 30 days.',
          },
          es: {
            promoText: 'Opera $100 en cualquier contrato de eventos y recibe un bono de $10',
            ctaLabel: 'Empieza a operar',
          },
          de: {
            promoText: 'Handeln Sie für 100 $ mit einem beliebigen Ereigniskontrakt und erhalten Sie 10 $ Bonus',
            ctaLabel: 'Jetzt handeln',
          },
          fr: {
            promoText: "Tradez 100 $ sur n'importe quel contrat d'événement et recevez 10 $ de bonus",
            ctaLabel: 'Commencer à trader',
          },
          pt: {
            promoText: 'Negocie $100 em qualquer contrato de evento e ganhe um bônus de $10',
            ctaLabel: 'Começar a negociar',
          },
        },
        termsUrl: 'https://kalshi.com/terms',
        source: OFFER_SOURCE,
        asOf: '2026-11-22',
      },
    ],
  },
  {
    id: 'forecastex',
    name: 'ForecastEx',
    kind: 'exchange',
    rating: 4.1,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['API_ACCESS', 'CASH_OUT'],
    affiliateUrl: 'https://forecastex.com/get-started',
    subIdParams: { impression: 'sub1', advertiser: 'sub2', click: 'sub3' },
    webDomains: ['forecastex.com'],
    offers: [
      {
        jurisdictions: ['US'],
        copy: {
          en: {
            promoText: 'Earn an annual incentive coupon on your open forecast positions',
            ctaLabel: 'Open an account',
            terms:
              'Interactive Brokers LLC clients only. The incentive coupon accrues daily on the value of open forecast positions at a rate that may change; see the terms.',
          },
          es: {
            promoText: 'Gana un cupón de incentivo anual sobre tus posiciones de pronóstico abiertas',
            ctaLabel: 'Abrir una cuenta',
          },
          de: {
            promoText: 'Erhalten Sie einen jährlichen Anreizkupon auf Ihre offenen Prognosepositionen',
            ctaLabel: 'Konto eröffnen',
          },
          fr: {
            promoText: 'Recevez un coupon incitatif annuel sur vos positions de prévision ouvertes',
            ctaLabel: 'Ouvrir un compte',
          },
          pt: {
            promoText: 'Receba um cupom de incentivo anual sobre suas posições de previsão abertas',
            ctaLabel: 'Abrir uma conta',
          },
        },
        termsUrl: 'https://forecastex.com/terms',
        source: OFFER_SOURCE,
        asOf: '2026-11-22',
      },
    ],
  },
  // ------------------------------------------------------------ crypto prediction markets
  {
    id: 'polymarket',
    name: 'Polymarket',
    kind: 'crypto',
    rating: 4.6,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['PRO_LIQUIDITY', 'API_ACCESS', 'CASH_OUT'],
    affiliateUrl: 'https://polymarket.com/?via=predictwire',
    subIdParams: { impression: 'sub_id', advertiser: 'sub_id2', country: 'sub_id3', click: 'sub_id4' },
    webDomains: ['polymarket.com'],
  },
  {
    id: 'limitless',
    name: 'Limitless',
    kind: 'crypto',
    rating: 3.9,
    appStores: [],
    capabilities: ['API_ACCESS', 'CASH_OUT'],
    affiliateUrl: 'https://limitless.exchange/?r=predictwire',
    subIdParams: { impression: 'sub', click: 'click_id' },
    webDomains: ['limitless.exchange'],
  },
  // ------------------------------------------------------------ sportsbooks
  {
    id: 'draftkings',
    name: 'DraftKings',
    kind: 'sportsbook',
    rating: 4.6,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'CASH_OUT', 'SAME_GAME_PARLAY'],
    affiliateUrl: 'https://sportsbook.draftkings.com/r/sb/predictwire',
    subIdParams: {
      impression: 'aff_sub',
      advertiser: 'aff_sub2',
      placement: 'aff_sub3',
      country: 'aff_sub4',
      click: 'aff_click_id',
    },
    webDomains: ['draftkings.com'],
    offers: [
      {
        jurisdictions: ['US'],
        promoCode: 'DKWIRE',
        couponValue: '$200 in bonus bets',
        copy: {
          en: {
            promoText: 'Bet $5, get $200 in bonus bets instantly',
            ctaLabel: 'Claim offer',
            terms:
              '21+, new customers in eligible states only. Min. $5 first bet at odds of -500 or longer. Bonus bets expire 7 days after issue; their stake is not returned. Void where prohibited.',
          },
          es: {
            promoText: 'Apuesta $5 y recibe al instante $200 en apuestas de bonificación',
            ctaLabel: 'Reclamar oferta',
          },
          de: { promoText: 'Setzen Sie 5 $ und erhalten Sie sofort 200 $ in Bonuswetten', ctaLabel: 'Angebot sichern' },
          fr: {
            promoText: 'Pariez 5 $ et recevez immédiatement 200 $ en paris bonus',
            ctaLabel: "Profiter de l'offre",
          },
          pt: { promoText: 'Aposte $5 e ganhe na hora $200 em apostas bônus', ctaLabel: 'Resgatar oferta' },
        },
        termsUrl: 'https://sportsbook.draftkings.com/promos',
        source: OFFER_SOURCE,
        asOf: '2026-11-22',
      },
    ],
  },
  {
    id: 'fanduel',
    name: 'FanDuel',
    kind: 'sportsbook',
    rating: 4.8,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'CASH_OUT', 'SAME_GAME_PARLAY'],
    affiliateUrl: 'https://sportsbook.fanduel.com/join',
    subIdParams: { impression: 'aff_sub', advertiser: 'aff_sub2', widget: 'aff_sub3', click: 'aff_click_id' },
    webDomains: ['fanduel.com'],
    offers: [
      {
        jurisdictions: ['US'],
        couponValue: '$150 in bonus bets',
        copy: {
          en: {
            promoText: 'Bet $5 and get $150 in bonus bets if your bet wins',
            ctaLabel: 'Join now',
            terms:
              '21+, new customers in eligible states only. First bet of $5 or more must win. $150 in bonus bets expires 7 days after issue; their stake is not returned. Void where prohibited.',
          },
          es: {
            promoText: 'Apuesta $5 y recibe $150 en apuestas de bonificación si tu apuesta gana',
            ctaLabel: 'Únete ahora',
          },
          de: {
            promoText: 'Setzen Sie 5 $ und erhalten Sie 150 $ in Bonuswetten, wenn Ihre Wette gewinnt',
            ctaLabel: 'Jetzt beitreten',
          },
          fr: {
            promoText: 'Pariez 5 $ et recevez 150 $ en paris bonus si votre pari est gagnant',
            ctaLabel: "S'inscrire",
          },
          pt: { promoText: 'Aposte $5 e ganhe $150 em apostas bônus se a sua aposta vencer', ctaLabel: 'Cadastre-se' },
        },
        termsUrl: 'https://sportsbook.fanduel.com/promos',
        source: OFFER_SOURCE,
        asOf: '2026-11-22',
      },
    ],
  },
  {
    id: 'betmgm',
    name: 'BetMGM',
    kind: 'sportsbook',
    rating: 4.4,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'CASH_OUT', 'SAME_GAME_PARLAY'],
    affiliateUrl: 'https://sports.betmgm.com/en/mobileportal/register',
    subIdParams: { impression: 'subid', advertiser: 'pid', click: 'clickid' },
    webDomains: ['betmgm.com'],
    offers: [
      {
        jurisdictions: ['US'],
        promoCode: 'BETWIRE',
        couponValue: 'Up to $1,500 back',
        copy: {
          en: {
            promoText: 'First bet offer: up to $1,500 back in bonus bets if you lose',
            ctaLabel: 'Bet now',
            terms:
              '21+, new customers in eligible states only. If the first bet loses, its stake up to $1,500 is returned in bonus bets, which expire 7 days after issue. Void where prohibited.',
          },
          es: {
            promoText: 'Oferta de primera apuesta: hasta $1,500 de reembolso en apuestas de bonificación si pierdes',
            ctaLabel: 'Apuesta ahora',
          },
          de: {
            promoText: 'Erstwetten-Angebot: bis zu 1.500 $ zurück in Bonuswetten, falls Sie verlieren',
            ctaLabel: 'Jetzt wetten',
          },
          fr: {
            promoText: "Offre premier pari : jusqu'à 1 500 $ remboursés en paris bonus si vous perdez",
            ctaLabel: 'Parier maintenant',
          },
          pt: {
            promoText: 'Oferta de primeira aposta: até $1.500 de volta em apostas bônus se você perder',
            ctaLabel: 'Apostar agora',
          },
        },
        termsUrl: 'https://sports.betmgm.com/promotions',
        source: OFFER_SOURCE,
        asOf: '2026-11-22',
      },
    ],
  },
  {
    id: 'caesars',
    name: 'Caesars Sportsbook',
    kind: 'sportsbook',
    rating: 4.3,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'CASH_OUT', 'SAME_GAME_PARLAY'],
    affiliateUrl: 'https://www.caesars.com/sportsbook-and-casino/referral',
    subIdParams: { impression: 'aff_sub', advertiser: 'aff_sub2', click: 'aff_click_id' },
    webDomains: ['caesars.com'],
    offers: [
      {
        jurisdictions: ['US'],
        promoCode: 'WIREFULL',
        copy: {
          en: {
            promoText: 'Get 10 boosted bets on your first wager',
            ctaLabel: 'Claim offer',
            terms:
              '21+, new customers in eligible states only. 10 profit boost tokens after the first wager; each boosts one bet of up to $25 and expires 14 days after issue. Void where prohibited.',
          },
          es: { promoText: 'Consigue 10 apuestas mejoradas con tu primera apuesta', ctaLabel: 'Reclamar oferta' },
          de: {
            promoText: 'Erhalten Sie 10 Wetten mit erhöhten Quoten auf Ihre erste Wette',
            ctaLabel: 'Angebot sichern',
          },
          fr: { promoText: 'Obtenez 10 paris à cote boostée sur votre premier pari', ctaLabel: "Profiter de l'offre" },
          pt: { promoText: 'Ganhe 10 apostas com odds turbinadas na sua primeira aposta', ctaLabel: 'Resgatar oferta' },
        },
        termsUrl: 'https://www.caesars.com/sportsbook-and-casino/promos',
        source: OFFER_SOURCE,
        asOf: '2026-11-22',
      },
    ],
  },
  {
    id: 'bet365',
    name: 'bet365',
    kind: 'sportsbook',
    rating: 4.5,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'CASH_OUT', 'SAME_GAME_PARLAY', 'LIVE_STREAMING'],
    affiliateUrl: 'https://www.bet365.com/olp/open-account',
    subIdParams: { impression: 'btag', advertiser: 'aff_sub', click: 'clickid' },
    webDomains: ['bet365.com'],
    offers: [
      {
        jurisdictions: ['US'],
        promoCode: 'WIRE365',
        copy: {
          en: {
            promoText: 'Bet $5 and get $150 in bonus bets, win or lose',
            ctaLabel: 'Open account',
            terms:
              '21+, new customers in eligible states only. Min. $5 first bet at odds of -500 or longer. $150 in bonus bets expires 7 days after issue; their stake is not returned. Void where prohibited.',
          },
          es: {
            promoText: 'Apuesta $5 y recibe $150 en apuestas de bonificación, ganes o pierdas',
            ctaLabel: 'Abrir cuenta',
          },
          de: {
            promoText: 'Setzen Sie 5 $ und erhalten Sie 150 $ in Bonuswetten, egal ob Sie gewinnen oder verlieren',
            ctaLabel: 'Konto eröffnen',
          },
          fr: {
            promoText: 'Pariez 5 $ et recevez 150 $ en paris bonus, que vous gagniez ou perdiez',
            ctaLabel: 'Ouvrir un compte',
          },
          pt: { promoText: 'Aposte $5 e ganhe $150 em apostas bônus, ganhando ou perdendo', ctaLabel: 'Abrir conta' },
        },
        termsUrl: 'https://www.bet365.com/promotions',
        source: OFFER_SOURCE,
        asOf: '2026-11-22',
      },
    ],
  },
  {
    id: 'betfair',
    name: 'Betfair Exchange',
    kind: 'sportsbook',
    rating: 4.2,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['PRO_LIQUIDITY', 'LIVE_BETTING', 'CASH_OUT', 'API_ACCESS'],
    affiliateUrl: 'https://register.betfair.com/account/registration',
    subIdParams: { impression: 'btag', country: 'aff_sub', click: 'clickid' },
    webDomains: ['betfair.com'],
    offers: [
      {
        jurisdictions: ['GB'],
        promoCode: 'EXCH100',
        copy: {
          en: {
            promoText: 'Back the best prices with reduced commission for your first month',
            ctaLabel: 'Join the exchange',
            terms:
              '18+, new customers only. Commission on net winnings reduced for 30 days from the first matched bet. T&Cs apply.',
          },
          es: {
            promoText: 'Apuesta a las mejores cuotas con comisión reducida durante tu primer mes',
            ctaLabel: 'Únete al exchange',
          },
          de: {
            promoText: 'Setzen Sie zu den besten Quoten mit reduzierter Kommission in Ihrem ersten Monat',
            ctaLabel: 'Zur Börse anmelden',
          },
          fr: {
            promoText: 'Pariez aux meilleures cotes avec une commission réduite pendant votre premier mois',
            ctaLabel: "Rejoindre l'exchange",
          },
          pt: {
            promoText: 'Aposte nas melhores odds com comissão reduzida no seu primeiro mês',
            ctaLabel: 'Entrar na exchange',
          },
        },
        termsUrl: 'https://promos.betfair.com/terms',
        source: OFFER_SOURCE,
        asOf: '2026-11-22',
      },
    ],
  },
  {
    id: 'fanatics',
    name: 'Fanatics Sportsbook',
    kind: 'sportsbook',
    rating: 4,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'SAME_GAME_PARLAY'],
    affiliateUrl: 'https://sportsbook.fanatics.com/join',
    subIdParams: { impression: 'sub1', advertiser: 'sub2', placement: 'sub3', click: 'sub4' },
    webDomains: ['fanatics.com'],
    offers: [
      {
        jurisdictions: ['US'],
        promoCode: 'FANWIRE',
        copy: {
          en: {
            promoText: 'Bet $1 a day for ten days and get up to $1,000 in FanCash',
            ctaLabel: 'Get started',
            terms:
              "21+, new customers in eligible states only. Bet $1 or more on 10 days to earn FanCash matching each day's stake, up to $100 a day and $1,000 in all. FanCash expires 365 days after issue. Void where prohibited.",
          },
          es: {
            promoText: 'Apuesta $1 al día durante diez días y recibe hasta $1,000 en FanCash',
            ctaLabel: 'Comenzar',
          },
          de: {
            promoText: 'Setzen Sie zehn Tage lang täglich 1 $ und erhalten Sie bis zu 1.000 $ in FanCash',
            ctaLabel: 'Jetzt starten',
          },
          fr: {
            promoText: "Pariez 1 $ par jour pendant dix jours et recevez jusqu'à 1 000 $ en FanCash",
            ctaLabel: 'Commencer',
          },
          pt: { promoText: 'Aposte $1 por dia durante dez dias e ganhe até $1.000 em FanCash', ctaLabel: 'Começar' },
        },
        termsUrl: 'https://sportsbook.fanatics.com/promotions',
        source: OFFER_SOURCE,
        asOf: '2026-11-22',
      },
    ],
  },
];

/** Every operator, in catalog order (exchanges, crypto markets, sportsbooks). */
export const OPERATORS: readonly Operator[] = Object.freeze(OperatorCatalog.parse(CATALOG));

const BY_ID = new Map<string, Operator>(OPERATORS.map((op) => [op.id, op]));

/** The operator with this id, or undefined for an id the catalog does not know. */
export function operatorById(id: string): Operator | undefined {
  return BY_ID.get(id);
}
