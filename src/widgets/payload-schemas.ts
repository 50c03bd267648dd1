/**
 * One zod schema per response payload, with the string forms of docs/contract.md. Tests validate
 * real responses against these; they also document the contract.
 */
import { z } from 'zod';
import { ODDS_FORMATS } from '../domain/odds.js';
import { Category, IsoTime, League, Slug } from '../model/index.js';

/** Money string (docs/contract.md): symbol, en-US figure, K/M/B suffix; or two decimals under 1,000. */
export const MoneyString = z
  .string()
  .regex(/^-?(\$|€|£|CA\$|A\$|R\$|MX\$|¥|CHF |₹)(\d{1,3}(,\d{3})*(\.\d)?[KMB]|\d{1,3}(,\d{3})*(\.\d{2})?)$/, 'money string');
export const SignedNumber = z.string().regex(/^([+-]\d+(\.\d+)?|0)$/, 'signed number');
export const AmericanOddsString = z.string().regex(/^[+-]\d{3,}$/, 'American odds');
/** Odds in the payload's `odds_format`: American "+225", decimal "3.25" or fractional "9/4". */
export const OddsString = z.string().regex(/^([+-]\d{3,}|\d+\.\d{2}|[1-9]\d*\/[1-9]\d*)$/, 'odds');
export const TotalString = z.string().regex(/^\d+(\.\d+)?$/, 'total');
export const WL = z.string().regex(/^\d+-\d+$/);
/** Counts may be halves: a quarter line grades as two half stakes ("3.5-1.5-1"). */
export const WLP = z.string().regex(/^\d+(\.5)?-\d+(\.5)?-\d+(\.5)?$/);
/** Football's wins-draws-losses record. */
export const WDL = z.string().regex(/^\d+-\d+-\d+$/);
export const ClickUrl = z.url().regex(/\/v1\/click\?/, 'click-tracking URL');
/** The signed URL that reports a viewable impression of the payload (GET; null when it shows no operator). */
export const ImpressionUrl = z
  .url()
  .regex(/\/v1\/impression\?/, 'impression URL')
  .nullable()
  .describe('GET it once the widget is viewable (at least half of it on screen for one second); counts each operator shown once per visitor and day. null when no operator is shown.');
/**
 * Present only when the payload was built from data whose source has not been refreshed for longer
 * than its staleness limit (docs/operations.md, "Stale data"): the last good data is still served.
 */
export const StaleFields = {
  stale: z.literal(true).optional(),
  /** When the data was last fetched successfully; the client may compute its age. */
  data_fetched_at: IsoTime.optional(),
};

// -------------------------------------------------------------- 2.1 broad widget

/** The visitor's country the payload was built for (ZZ: unknown, so nothing that takes stakes). */
export const ResolvedGeo = z.string().regex(/^[A-Z]{2}$/).describe("The viewer's country (ISO 3166-1 alpha-2) the payload was built for; ZZ when unknown.");

/** Where licences are regional (US states, Canadian provinces): the subdivision the rules were applied for. */
export const ResolvedRegion = z
  .string()
  .regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/)
  .nullable()
  .describe(
    "The viewer's subdivision (ISO 3166-2, such as US-NJ) where licensing is regional (US, Canada); null elsewhere, and where the region is unknown (then only what is lawful in the whole country is shown).",
  );

/** What a page must show next to gambling advertising in the viewer's jurisdiction (docs/compliance.md). */
export const Disclosures = z
  .object({
    min_age: z.number().int().min(18).max(21).describe('The minimum age to open an account in the jurisdiction.'),
    ad_label: z.string().min(1).describe('"Advertisement" in the widget\'s language, to label the widget as advertising.'),
    responsible_gambling: z
      .object({
        text: z.string().min(1).describe("The jurisdiction's responsible-gambling message, in its language."),
        url: z.url().describe('The help service the message names.'),
        phone: z.string().nullable().describe('The helpline, where the jurisdiction has one.'),
      })
      .describe('Responsible-gambling message and help.'),
  })
  .nullable()
  .describe('Required disclosures for the jurisdiction; null when the payload shows no operator.');

/** The jurisdiction fields every widget payload carries. */
export type Disclosures = z.infer<typeof Disclosures>;
export const JurisdictionFields = { resolved_geo: ResolvedGeo, resolved_region: ResolvedRegion, disclosures: Disclosures };

export const BroadWidgetPayload = z.object({
  widget_class: z.literal('broad'),
  ...StaleFields,
  ...JurisdictionFields,
  timestamp: IsoTime,
  trending_summary: z.object({
    global_24h_volume: MoneyString,
    highest_volume_category: z.string(),
  }),
  operators: z.array(
    z.object({
      rank: z.number().int().min(1),
      operator_name: z.string(),
      rating: z.string().regex(/^\d(\.\d)?\/5$/),
      /** total_liquidity is null for sportsbooks (a book has no order book) and when no source reports it. */
      metrics: z.object({ volume_24h: MoneyString, avg_value_per_event: MoneyString, total_liquidity: MoneyString.nullable() }),
      incentives: z.object({
        promo_text: z.string(),
        promo_code: z.string(),
        cta_label: z.string(),
        promo_terms: z.string().describe("The offer's significant terms, shown with it; empty when there is no offer."),
        promo_terms_url: z.union([z.url(), z.literal('')]).describe("The offer's full terms; empty when there is no offer."),
      }),
      routing: z.object({
        web_url: ClickUrl,
        app_store_available: z.array(z.enum(['iOS', 'Google Play'])),
      }),
    }),
  ),
  impression_url: ImpressionUrl,
});
export type BroadWidgetPayload = z.infer<typeof BroadWidgetPayload>;

// -------------------------------------------------------------- 2.4 event-specific widget

export const ContractPriceString = z.string().regex(/^(\d{1,2}¢|\d{1,3}\.\d%|\d+\.\d{2})$/);

export const ComparisonEntry = z.object({
  operator_id: z.string(),
  operator_name: z.string(),
  contract_price: ContractPriceString,
  contract_volume: MoneyString,
  is_best_odds: z.boolean(),
  promo_applied: z.string().optional(),
  deep_link: ClickUrl,
});

export const EventWidgetPayload = z.object({
  widget_class: z.literal('event-specific'),
  ...StaleFields,
  ...JurisdictionFields,
  event_slug: Slug,
  event_question: z.string(),
  last_verified_timestamp: IsoTime,
  outcomes: z.array(
    z.object({
      outcome_name: z.string(),
      aggregated_probability_pct: z.number().min(0).max(100),
      market_depth_volume: MoneyString,
      comparison_pool: z.array(ComparisonEntry),
    }),
  ),
  impression_url: ImpressionUrl,
});
export type EventWidgetPayload = z.infer<typeof EventWidgetPayload>;

// -------------------------------------------------------------- 2.2 sportsbook widget

const LineOdds = z.object({ line: SignedNumber, odds: OddsString });
const TotalOdds = z.object({ line: TotalString, odds: OddsString });

export const SportsbookOperator = z.object({
  name: z.string(),
  capabilities: z.array(z.string()),
  lines: z.object({
    away_spread: LineOdds.optional(),
    home_spread: LineOdds.optional(),
    total_over: TotalOdds.optional(),
    total_under: TotalOdds.optional(),
    away_moneyline: OddsString.optional(),
    home_moneyline: OddsString.optional(),
    /** Football only: the draw of the three-way (1X2) market. */
    draw_moneyline: OddsString.optional(),
  }),
  /** The line keys this operator leads (docs/design.md, "Best odds"). */
  best_odds: z.array(z.enum(['away_spread', 'home_spread', 'total_over', 'total_under', 'away_moneyline', 'home_moneyline', 'draw_moneyline'])),
  /** A signed click link to the operator's site licensed in the viewer's jurisdiction, as in the broad widget. */
  routing: z.object({ web_url: ClickUrl }),
});

export const SportsbookWidgetPayload = z.object({
  widget_class: z.literal('sportsbook'),
  ...StaleFields,
  ...JurisdictionFields,
  league: League,
  /** How every `odds` of the payload is written: the `odds_format` asked for, else the country's. */
  odds_format: z.enum(ODDS_FORMATS),
  match_meta: z.object({
    event_id: z.string(),
    scheduled_time: IsoTime,
    status: z.literal('UPCOMING'),
    matchup: z.string(),
  }),
  team_analytics: z.record(
    z.string().regex(/^[a-z0-9]+_(record|record_wdl|ats_ou)$/),
    z.union([WL, WDL, z.object({ ats: WLP, ou: WLP })]),
  ),
  odds_matrix: z.object({ operators: z.array(SportsbookOperator) }),
});
export type SportsbookWidgetPayload = z.infer<typeof SportsbookWidgetPayload>;

// -------------------------------------------------------------- 2.5 / 2.6 advertiser

export const SpecificEventPayload = z.object({
  message: z.string(),
  ...StaleFields,
  data: z.object({
    event: z.object({ slug: Slug, title: z.string(), category: z.string(), closes_at: IsoTime, last_verified_timestamp: IsoTime }),
    /** The viewer's jurisdiction the `allowed_in_geo` flags are for. */
    resolved_geo: ResolvedGeo,
    resolved_region: ResolvedRegion,
    operators: z.object({
      /** allowed_in_geo: whether the operator may be shown to a viewer in resolved_geo. */
      operatorA: z.object({ id: z.string(), name: z.string(), allowed_in_geo: z.boolean() }),
      operatorB: z.object({ id: z.string(), name: z.string(), allowed_in_geo: z.boolean() }),
    }),
    outcomes: z.array(
      z.object({
        name: z.string(),
        operatorAPrice: z.number().gt(0).lt(1),
        operatorBPrice: z.number().gt(0).lt(1),
        spreadCents: z.number().nonnegative(),
        operatorAVolume24h: z.number().nonnegative(),
        operatorBVolume24h: z.number().nonnegative(),
        operatorAMarketUrl: z.url(),
        operatorBMarketUrl: z.url(),
      }),
    ),
  }),
});
export type SpecificEventPayload = z.infer<typeof SpecificEventPayload>;

export const EventListPayload = z.object({
  message: z.string(),
  ...StaleFields,
  data: z.object({ events: z.array(Slug) }),
});
export type EventListPayload = z.infer<typeof EventListPayload>;

// -------------------------------------------------------------- 2.3 live-market widget

export const LiveMarketProvider = z.object({
  /** Machine identifier of the operator (as in the event widget); added beside operator_name. */
  operator_id: z.string(),
  operator_name: z.string(),
  is_best_odds: z.boolean(),
  live_metrics: z.object({
    /** Spot minus this venue's strike, signed, full precision: "+$12.50"; null with no strike of its own. */
    spot_difference: z.string().regex(/^[+-]\$\d{1,3}(,\d{3})*\.\d{2}$/).nullable(),
    /** This venue's own strike (its reference price): "$97,250.12"; null until the venue publishes one (never ours under its name). */
    target_price: z.string().regex(/^\$\d{1,3}(,\d{3})*\.\d{2}$/).nullable(),
    /** 1 / (ask + the venue's taker fee per contract). */
    multipliers: z.object({
      payout_up: z.string().regex(/^x\d+\.\d{2}$/),
      payout_down: z.string().regex(/^x\d+\.\d{2}$/),
    }),
  }),
  incentives: z.object({ coupon_value: z.string(), cta_url: ClickUrl }),
});

export const LiveMarketPayload = z.object({
  widget_class: z.literal('live-market'),
  ...StaleFields,
  ...JurisdictionFields,
  refresh_interval_seconds: z.number().int().positive(),
  underlying_asset: z.enum(['BTC', 'ETH', 'SOL']),
  active_micro_question: z.string(),
  expiration_horizon: z.enum(['5 minutes', '15 minutes']),
  providers_pool: z.array(LiveMarketProvider),
  /**
   * Venues that list this horizon and may be shown here but have no usable quote now (none
   * published, not confirmed for 15 s, the venue's own time past its bound, or an empty book):
   * shown as unavailable, never priced by us.
   */
  unavailable_venues: z.array(z.object({ operator_id: z.string(), operator_name: z.string() })),
  /**
   * open: priced; awaiting_strike: the window has just started and its strike is not in yet;
   * no_strike: no tick caught the window start, so this window shows no prices until the next one;
   * stale: no recent tick, no prices shown.
   */
  market_status: z.enum(['open', 'awaiting_strike', 'no_strike', 'stale']),
  window_start: IsoTime,
  expires_at: IsoTime,
  seconds_left: z.number().int().nonnegative(),
  spot_price: z.string().nullable(),
  /** When the data last changed: the last tick's time (or the window start before any tick). */
  timestamp: IsoTime,
});
export type LiveMarketPayload = z.infer<typeof LiveMarketPayload>;

// -------------------------------------------------------------- catalog (discovery, no key)

/** One team of a catalog matchup: the code `team_context` accepts, and its display name. */
const CatalogTeam = z.object({ code: z.string(), name: z.string() });

/**
 * GET /v1/catalog: what a publisher can embed. The same for every caller (no country, no
 * advertiser): which operators a visitor then sees is decided per widget request.
 */
export const CatalogPayload = z.object({
  ...StaleFields,
  /** When the events or sportsbook data behind this list last changed. */
  timestamp: IsoTime,
  /** Events not yet closed: `slug` is the event widget's `slug`; the WebSocket topic is `event:{slug}`. */
  events: z.array(
    z.object({
      slug: Slug,
      question: z.string(),
      category: Category,
      closes_at: IsoTime,
      outcomes: z.array(z.string()),
    }),
  ),
  /** Every league the sportsbook widget takes, with its matchups not yet started, soonest first. */
  leagues: z.array(
    z.object({
      league: League,
      upcoming: z.array(
        z.object({
          event_id: z.string(),
          scheduled_time: IsoTime,
          home: CatalogTeam,
          away: CatalogTeam,
        }),
      ),
    }),
  ),
  /** Each live market: the live-market widget's `asset` and `horizon_minutes`; WebSocket topic `live-market:{asset}:{horizon_minutes}`. */
  live_markets: z.array(
    z.object({
      asset: z.enum(['BTC', 'ETH', 'SOL']),
      horizon_minutes: z.array(z.number().int().positive()),
    }),
  ),
});
export type CatalogPayload = z.infer<typeof CatalogPayload>;
