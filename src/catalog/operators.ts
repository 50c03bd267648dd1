/**
 * The operator catalog: our own editorial data (ratings, promos, capabilities), reviewed by hand.
 * Validated when the module loads, so a bad edit fails at start-up rather than in a widget.
 * Promo amounts are in US dollars in every language because the offers are US offers; only the
 * words are localized.
 */
import { OperatorCatalog, type Operator } from './operator-schema.js';

const CATALOG: Operator[] = [
  // ------------------------------------------------------------ regulated prediction exchanges
  {
    id: 'kalshi',
    name: 'Kalshi',
    kind: 'exchange',
    rating: 4.7,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['PRO_LIQUIDITY', 'API_ACCESS', 'CASH_OUT', 'LIVE_BETTING'],
    affiliateUrl: 'https://kalshi.com/sign-up',
    webDomains: ['kalshi.com'],
    promoCode: 'WIRE10',
    couponValue: '$10 bonus',
    promos: {
      en: { promoText: 'Trade $100 on any event contract and get a $10 bonus', ctaLabel: 'Start trading' },
      es: { promoText: 'Opera $100 en cualquier contrato de eventos y recibe un bono de $10', ctaLabel: 'Empieza a operar' },
      de: { promoText: 'Handeln Sie für 100 $ mit einem beliebigen Ereigniskontrakt und erhalten Sie 10 $ Bonus', ctaLabel: 'Jetzt handeln' },
      fr: { promoText: "Tradez 100 $ sur n'importe quel contrat d'événement et recevez 10 $ de bonus", ctaLabel: 'Commencer à trader' },
      pt: { promoText: 'Negocie $100 em qualquer contrato de evento e ganhe um bônus de $10', ctaLabel: 'Começar a negociar' },
    },
  },
  {
    id: 'forecastex',
    name: 'ForecastEx',
    kind: 'exchange',
    rating: 4.1,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['API_ACCESS', 'CASH_OUT'],
    affiliateUrl: 'https://forecastex.com/get-started',
    webDomains: ['forecastex.com'],
    promos: {
      en: { promoText: 'Earn an annual incentive coupon on your open forecast positions', ctaLabel: 'Open an account' },
      es: { promoText: 'Gana un cupón de incentivo anual sobre tus posiciones de pronóstico abiertas', ctaLabel: 'Abrir una cuenta' },
      de: { promoText: 'Erhalten Sie einen jährlichen Anreizkupon auf Ihre offenen Prognosepositionen', ctaLabel: 'Konto eröffnen' },
      fr: { promoText: 'Recevez un coupon incitatif annuel sur vos positions de prévision ouvertes', ctaLabel: 'Ouvrir un compte' },
      pt: { promoText: 'Receba um cupom de incentivo anual sobre suas posições de previsão abertas', ctaLabel: 'Abrir uma conta' },
    },
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
    webDomains: ['polymarket.com'],
    couponValue: '$5 USDC',
    promos: {
      en: { promoText: 'Trade the world’s biggest prediction markets with no deposit fees', ctaLabel: 'Trade now' },
      es: { promoText: 'Opera en los mayores mercados de predicción del mundo sin comisiones de depósito', ctaLabel: 'Operar ahora' },
      de: { promoText: 'Handeln Sie auf den größten Prognosemärkten der Welt ohne Einzahlungsgebühren', ctaLabel: 'Jetzt handeln' },
      fr: { promoText: 'Tradez sur les plus grands marchés prédictifs du monde sans frais de dépôt', ctaLabel: 'Trader maintenant' },
      pt: { promoText: 'Negocie nos maiores mercados de previsão do mundo sem taxas de depósito', ctaLabel: 'Negociar agora' },
    },
  },
  {
    id: 'limitless',
    name: 'Limitless',
    kind: 'crypto',
    rating: 3.9,
    appStores: [],
    capabilities: ['API_ACCESS', 'CASH_OUT'],
    affiliateUrl: 'https://limitless.exchange/?r=predictwire',
    webDomains: ['limitless.exchange'],
    promoCode: 'LIMITWIRE',
    couponValue: '$5 bonus',
    promos: {
      en: { promoText: 'Get a $5 bonus on your first $50 in predictions', ctaLabel: 'Claim bonus' },
      es: { promoText: 'Recibe un bono de $5 en tus primeros $50 en predicciones', ctaLabel: 'Reclamar bono' },
      de: { promoText: 'Erhalten Sie 5 $ Bonus auf Ihre ersten 50 $ an Prognosen', ctaLabel: 'Bonus sichern' },
      fr: { promoText: 'Recevez 5 $ de bonus sur vos 50 premiers dollars de prédictions', ctaLabel: 'Obtenir le bonus' },
      pt: { promoText: 'Ganhe um bônus de $5 nos seus primeiros $50 em previsões', ctaLabel: 'Resgatar bônus' },
    },
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
    webDomains: ['draftkings.com'],
    promoCode: 'DKWIRE',
    couponValue: '$200 in bonus bets',
    promos: {
      en: { promoText: 'Bet $5, get $200 in bonus bets instantly', ctaLabel: 'Claim offer' },
      es: { promoText: 'Apuesta $5 y recibe al instante $200 en apuestas de bonificación', ctaLabel: 'Reclamar oferta' },
      de: { promoText: 'Setzen Sie 5 $ und erhalten Sie sofort 200 $ in Bonuswetten', ctaLabel: 'Angebot sichern' },
      fr: { promoText: 'Pariez 5 $ et recevez immédiatement 200 $ en paris bonus', ctaLabel: "Profiter de l'offre" },
      pt: { promoText: 'Aposte $5 e ganhe na hora $200 em apostas bônus', ctaLabel: 'Resgatar oferta' },
    },
  },
  {
    id: 'fanduel',
    name: 'FanDuel',
    kind: 'sportsbook',
    rating: 4.8,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'CASH_OUT', 'SAME_GAME_PARLAY'],
    affiliateUrl: 'https://sportsbook.fanduel.com/join',
    webDomains: ['fanduel.com'],
    couponValue: '$150 in bonus bets',
    promos: {
      en: { promoText: 'Bet $5 and get $150 in bonus bets if your bet wins', ctaLabel: 'Join now' },
      es: { promoText: 'Apuesta $5 y recibe $150 en apuestas de bonificación si tu apuesta gana', ctaLabel: 'Únete ahora' },
      de: { promoText: 'Setzen Sie 5 $ und erhalten Sie 150 $ in Bonuswetten, wenn Ihre Wette gewinnt', ctaLabel: 'Jetzt beitreten' },
      fr: { promoText: 'Pariez 5 $ et recevez 150 $ en paris bonus si votre pari est gagnant', ctaLabel: "S'inscrire" },
      pt: { promoText: 'Aposte $5 e ganhe $150 em apostas bônus se a sua aposta vencer', ctaLabel: 'Cadastre-se' },
    },
  },
  {
    id: 'betmgm',
    name: 'BetMGM',
    kind: 'sportsbook',
    rating: 4.4,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'CASH_OUT', 'SAME_GAME_PARLAY'],
    affiliateUrl: 'https://sports.betmgm.com/en/mobileportal/register',
    webDomains: ['betmgm.com'],
    promoCode: 'BETWIRE',
    couponValue: 'Up to $1,500 back',
    promos: {
      en: { promoText: 'First bet offer: up to $1,500 back in bonus bets if you lose', ctaLabel: 'Bet now' },
      es: { promoText: 'Oferta de primera apuesta: hasta $1,500 de reembolso en apuestas de bonificación si pierdes', ctaLabel: 'Apuesta ahora' },
      de: { promoText: 'Erstwetten-Angebot: bis zu 1.500 $ zurück in Bonuswetten, falls Sie verlieren', ctaLabel: 'Jetzt wetten' },
      fr: { promoText: "Offre premier pari : jusqu'à 1 500 $ remboursés en paris bonus si vous perdez", ctaLabel: 'Parier maintenant' },
      pt: { promoText: 'Oferta de primeira aposta: até $1.500 de volta em apostas bônus se você perder', ctaLabel: 'Apostar agora' },
    },
  },
  {
    id: 'caesars',
    name: 'Caesars Sportsbook',
    kind: 'sportsbook',
    rating: 4.3,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'CASH_OUT', 'SAME_GAME_PARLAY'],
    affiliateUrl: 'https://www.caesars.com/sportsbook-and-casino/referral',
    webDomains: ['caesars.com'],
    promoCode: 'WIREFULL',
    promos: {
      en: { promoText: 'Get 10 boosted bets on your first wager', ctaLabel: 'Claim offer' },
      es: { promoText: 'Consigue 10 apuestas mejoradas con tu primera apuesta', ctaLabel: 'Reclamar oferta' },
      de: { promoText: 'Erhalten Sie 10 Wetten mit erhöhten Quoten auf Ihre erste Wette', ctaLabel: 'Angebot sichern' },
      fr: { promoText: 'Obtenez 10 paris à cote boostée sur votre premier pari', ctaLabel: "Profiter de l'offre" },
      pt: { promoText: 'Ganhe 10 apostas com odds turbinadas na sua primeira aposta', ctaLabel: 'Resgatar oferta' },
    },
  },
  {
    id: 'bet365',
    name: 'bet365',
    kind: 'sportsbook',
    rating: 4.5,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'CASH_OUT', 'SAME_GAME_PARLAY', 'LIVE_STREAMING'],
    affiliateUrl: 'https://www.bet365.com/olp/open-account',
    webDomains: ['bet365.com'],
    promoCode: 'WIRE365',
    promos: {
      en: { promoText: 'Bet $5 and get $150 in bonus bets, win or lose', ctaLabel: 'Open account' },
      es: { promoText: 'Apuesta $5 y recibe $150 en apuestas de bonificación, ganes o pierdas', ctaLabel: 'Abrir cuenta' },
      de: { promoText: 'Setzen Sie 5 $ und erhalten Sie 150 $ in Bonuswetten, egal ob Sie gewinnen oder verlieren', ctaLabel: 'Konto eröffnen' },
      fr: { promoText: 'Pariez 5 $ et recevez 150 $ en paris bonus, que vous gagniez ou perdiez', ctaLabel: 'Ouvrir un compte' },
      pt: { promoText: 'Aposte $5 e ganhe $150 em apostas bônus, ganhando ou perdendo', ctaLabel: 'Abrir conta' },
    },
  },
  {
    id: 'betfair',
    name: 'Betfair Exchange',
    kind: 'sportsbook',
    rating: 4.2,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['PRO_LIQUIDITY', 'LIVE_BETTING', 'CASH_OUT', 'API_ACCESS'],
    affiliateUrl: 'https://register.betfair.com/account/registration',
    webDomains: ['betfair.com'],
    promoCode: 'EXCH100',
    promos: {
      en: { promoText: 'Back the best prices with reduced commission for your first month', ctaLabel: 'Join the exchange' },
      es: { promoText: 'Apuesta a las mejores cuotas con comisión reducida durante tu primer mes', ctaLabel: 'Únete al exchange' },
      de: { promoText: 'Setzen Sie zu den besten Quoten mit reduzierter Kommission in Ihrem ersten Monat', ctaLabel: 'Zur Börse anmelden' },
      fr: { promoText: 'Pariez aux meilleures cotes avec une commission réduite pendant votre premier mois', ctaLabel: "Rejoindre l'exchange" },
      pt: { promoText: 'Aposte nas melhores odds com comissão reduzida no seu primeiro mês', ctaLabel: 'Entrar na exchange' },
    },
  },
  {
    id: 'fanatics',
    name: 'Fanatics Sportsbook',
    kind: 'sportsbook',
    rating: 4,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['LIVE_BETTING', 'SAME_GAME_PARLAY'],
    affiliateUrl: 'https://sportsbook.fanatics.com/join',
    webDomains: ['fanatics.com'],
    promoCode: 'FANWIRE',
    promos: {
      en: { promoText: 'Bet $1 a day for ten days and get up to $1,000 in FanCash', ctaLabel: 'Get started' },
      es: { promoText: 'Apuesta $1 al día durante diez días y recibe hasta $1,000 en FanCash', ctaLabel: 'Comenzar' },
      de: { promoText: 'Setzen Sie zehn Tage lang täglich 1 $ und erhalten Sie bis zu 1.000 $ in FanCash', ctaLabel: 'Jetzt starten' },
      fr: { promoText: "Pariez 1 $ par jour pendant dix jours et recevez jusqu'à 1 000 $ en FanCash", ctaLabel: 'Commencer' },
      pt: { promoText: 'Aposte $1 por dia durante dez dias e ganhe até $1.000 em FanCash', ctaLabel: 'Começar' },
    },
  },
];

/** Every operator, in catalog order (exchanges, crypto markets, sportsbooks). */
export const OPERATORS: readonly Operator[] = Object.freeze(OperatorCatalog.parse(CATALOG));

const BY_ID = new Map<string, Operator>(OPERATORS.map((op) => [op.id, op]));

/** The operator with this id, or undefined for an id the catalog does not know. */
export function operatorById(id: string): Operator | undefined {
  return BY_ID.get(id);
}
