/**
 * One zod schema per response payload, with the string forms of docs/contract.md. Tests validate
 * real responses against these; they also document the contract.
 */
import { z } from 'zod';
import { Category, IsoTime, League, ODDS_FORMATS, Slug } from '../model/index.js';

/** Money string (docs/contract.md): symbol, en-US figure, K/M/B suffix; or two decimals under 1,000. */
export const MoneyString = z
  .string()
  .regex(
    /^-?(\$|€|£|CA\$|A\$|R\$|MX\$|¥|CHF |₹)(\d{1,3}(,\d{3})*(\.\d)?[KMB]|\d{1,3}(,\d{3})*(\.\d{2})?)$/,
    'money string',
  );
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
  .describe(
    'GET it once the widget is viewable (at least half of it on screen for one second); counts each operator shown once per visitor and day. null when no operator is shown.',
  );
/**
 * Present only when the payload was built from data whose source has not been refreshed for longer
 * than its staleness limit (docs/operations.md, "Stale data"): the last good data is still served.
 */
export const StaleFields = {
  stale: z
    .literal(true)
    .optional()
    .describe(
      'Present (true) only when the data behind the payload has not been refreshed for longer than its staleness limit: the last good data is still served.',
    ),
  /** When the data was last fetched successfully; the client may compute its age. */
  data_fetched_at: IsoTime.optional().describe('With `stale`: when the data was last fetched successfully (RFC 3339).'),
};

// -------------------------------------------------------------- 2.1 broad widget

/** The visitor's country the payload was built for (ZZ: unknown, so nothing that takes stakes). */
export const ResolvedGeo = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .describe("The viewer's country (ISO 3166-1 alpha-2) the payload was built for; ZZ when unknown.");

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
    ad_label: z
      .string()
      .min(1)
      .describe('"Advertisement" in the widget\'s language, to label the widget as advertising.'),
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
export const JurisdictionFields = {
  resolved_geo: ResolvedGeo,
  resolved_region: ResolvedRegion,
  disclosures: Disclosures,
};

export const BroadWidgetPayload = z
  .object({
    widget_class: z.literal('broad').describe('Always "broad".'),
    ...StaleFields,
    ...JurisdictionFields,
    timestamp: IsoTime.describe('When the metrics (or the FX rates used) last changed (RFC 3339).'),
    trending_summary: z
      .object({
        global_24h_volume: MoneyString.describe(
          '24-hour volume of every operator, whatever the country, as a money string ($1.2B).',
        ),
        highest_volume_category: z
          .string()
          .describe('The category with the most 24-hour volume; empty when there is no volume at all.'),
      })
      .describe('Market-wide figures.'),
    operators: z
      .array(
        z.object({
          rank: z.number().int().min(1).describe('Position in the ranking, from 1.'),
          operator_name: z.string().describe('Display name.'),
          rating: z
            .string()
            .regex(/^\d(\.\d)?\/5$/)
            .describe('Editorial rating out of 5, such as 4.6/5.'),
          /** total_liquidity is null for sportsbooks (a book has no order book) and when no source reports it. */
          metrics: z
            .object({
              volume_24h: MoneyString.describe("The operator's 24-hour volume, as a money string."),
              avg_value_per_event: MoneyString.describe('Average 24-hour volume per listed event, as a money string.'),
              total_liquidity: MoneyString.nullable().describe(
                'Order-book depth as a money string; null for a sportsbook (no order book) and when no source reports it.',
              ),
            })
            .describe('Volume and liquidity in the payload currency.'),
          incentives: z
            .object({
              promo_text: z
                .string()
                .describe(
                  "The offer for the viewer's country, localized; empty with no offer or where inducements are banned.",
                ),
              promo_code: z.string().describe('The promo code; empty when there is none.'),
              cta_label: z.string().describe('Button label, localized; a neutral "Visit site" when no offer is shown.'),
              promo_terms: z
                .string()
                .describe("The offer's significant terms, shown with it; empty when there is no offer."),
              promo_terms_url: z
                .union([z.url(), z.literal('')])
                .describe("The offer's full terms; empty when there is no offer."),
            })
            .describe('The offer shown with the operator.'),
          routing: z
            .object({
              web_url: ClickUrl.describe(
                "Signed click link landing on the operator's site licensed in the viewer's jurisdiction.",
              ),
              app_store_available: z
                .array(z.enum(['iOS', 'Google Play']))
                .describe('The app stores the operator has an app in.'),
            })
            .describe('Where the operator is reached.'),
        }),
      )
      .describe('Operators allowed in resolved_geo, by rank; may be empty, never non-compliant.'),
    impression_url: ImpressionUrl,
  })
  .describe("GET /v1/widgets/broad: operators allowed in the viewer's jurisdiction, ranked.");
export type BroadWidgetPayload = z.infer<typeof BroadWidgetPayload>;

// -------------------------------------------------------------- 2.4 event-specific widget

export const ContractPriceString = z.string().regex(/^(\d{1,2}¢|\d{1,3}\.\d%|\d+\.\d{2})$/);

export const ComparisonEntry = z.object({
  operator_id: z.string().describe('Machine identifier of the operator.'),
  operator_name: z.string().describe('Display name.'),
  contract_price: ContractPriceString.describe(
    "The YES ask after the venue's taker fee, in display_format: 62¢, 62.0% or 1.61.",
  ),
  contract_volume: MoneyString.nullable().describe(
    "The operator's 24-hour volume on the outcome, as a money string; null when the venue sent a malformed figure (unknown; the price still stands).",
  ),
  is_best_odds: z
    .boolean()
    .describe(
      'True for the lowest after-fee YES price among the operators shown, judged on contract_price as displayed (every operator showing it).',
    ),
  updated_at: IsoTime.nullable().describe(
    'When the venue last updated this quote, by its own clock (RFC 3339); null when the venue states no time for its prices (Kalshi: its order book as read at last_verified_timestamp).',
  ),
  promo_applied: z.string().optional().describe("The operator's promo code for the country, when it has one."),
  deep_link: ClickUrl.describe("Signed click link landing on the operator's contract page."),
});

export const EventWidgetPayload = z
  .object({
    widget_class: z.literal('event-specific').describe('Always "event-specific".'),
    ...StaleFields,
    ...JurisdictionFields,
    event_slug: Slug.describe('The slug asked for.'),
    event_question: z.string().describe("The event's question."),
    last_verified_timestamp: IsoTime.describe('When the prices last changed (RFC 3339).'),
    outcomes: z
      .array(
        z.object({
          outcome_name: z.string().describe('The outcome.'),
          aggregated_probability_pct: z
            .number()
            .min(0)
            .max(100)
            .describe('Volume-weighted probability over the operators shown, 0-100, one decimal.'),
          market_depth_volume: MoneyString.nullable().describe(
            "The outcome's 24-hour volume over the operators shown, as a money string; null when one of them is unknown.",
          ),
          comparison_pool: z.array(ComparisonEntry).describe("Each allowed operator's price for the outcome."),
        }),
      )
      .describe("In the event's order; an outcome no allowed operator quotes is left out."),
    impression_url: ImpressionUrl,
  })
  .describe("GET /v1/widgets/event: one event, every allowed operator's price per outcome.");
export type EventWidgetPayload = z.infer<typeof EventWidgetPayload>;

// -------------------------------------------------------------- 2.2 sportsbook widget

const Odds = OddsString.describe("Odds in the payload's odds_format: +225, 3.25 or 9/4.");
const LineOdds = z.object({
  line: SignedNumber.describe('Signed line: +3.5 (EPL: the Asian handicap, such as -0.25).'),
  odds: Odds,
});
const TotalOdds = z.object({ line: TotalString.describe('The total, such as 220.5.'), odds: Odds });

export const SportsbookOperator = z.object({
  name: z.string().describe('Display name.'),
  capabilities: z.array(z.string()).describe('Features of the book, such as PRO_LIQUIDITY.'),
  lines: z
    .object({
      away_spread: LineOdds.optional().describe('Away team spread.'),
      home_spread: LineOdds.optional().describe('Home team spread.'),
      total_over: TotalOdds.optional().describe('Over the total.'),
      total_under: TotalOdds.optional().describe('Under the total.'),
      away_moneyline: Odds.optional().describe('Away team to win.'),
      home_moneyline: Odds.optional().describe('Home team to win.'),
      draw_moneyline: Odds.optional().describe('Football only: the draw of the three-way (1X2) market.'),
    })
    .describe('The lines the book offers; a missing key is a line it does not offer.'),
  best_odds: z
    .array(
      z.enum([
        'away_spread',
        'home_spread',
        'total_over',
        'total_under',
        'away_moneyline',
        'home_moneyline',
        'draw_moneyline',
      ]),
    )
    .describe(
      'The line keys this operator leads (docs/design.md, "Best odds": bettor-favourable point, then payout), judged on the lines as displayed in odds_format: every operator showing the best figure leads.',
    ),
  updated_at: IsoTime.describe(
    "When the book last updated these lines, by its source's clock (RFC 3339). Lines older than their source's bound are never shown.",
  ),
  routing: z
    .object({
      web_url: ClickUrl.describe(
        "Signed click link landing on the operator's site licensed in the viewer's jurisdiction.",
      ),
    })
    .describe('Where the operator is reached.'),
});

export const SportsbookWidgetPayload = z
  .object({
    widget_class: z.literal('sportsbook').describe('Always "sportsbook".'),
    ...StaleFields,
    ...JurisdictionFields,
    league: League.describe('The league asked for.'),
    odds_format: z
      .enum(ODDS_FORMATS)
      .describe("How every odds value is written: the odds_format asked for, else the viewer's country's."),
    match_meta: z
      .object({
        event_id: z.string().describe('Identifier of the game.'),
        scheduled_time: IsoTime.describe('Start time (RFC 3339).'),
        status: z.literal('UPCOMING').describe('Always UPCOMING: started games are never shown.'),
        matchup: z.string().describe('Both teams: "Away @ Home" (EPL: "Home vs Away").'),
      })
      .describe('The next game of the league (or of team_context).'),
    team_analytics: z
      .record(
        z.string().regex(/^[a-z0-9]+_(record|record_wdl|ats_ou)$/),
        z.union([
          WL,
          WDL,
          z.object({
            ats: WLP.describe('Wins-losses-pushes against the closing spread (halves for quarter lines).'),
            ou: WLP.describe('Overs-unders-pushes against the closing total.'),
          }),
        ]),
      )
      .describe(
        'Per team code: <code>_record (wins-losses), <code>_record_wdl (EPL: wins-draws-losses), <code>_ats_ou ({ats, ou}).',
      ),
    odds_matrix: z
      .object({ operators: z.array(SportsbookOperator).describe("Books allowed in the viewer's jurisdiction.") })
      .describe("Every allowed book's lines for the game."),
  })
  .describe("GET /v1/widgets/sportsbook: the next game of a league with every allowed book's lines.");
export type SportsbookWidgetPayload = z.infer<typeof SportsbookWidgetPayload>;

// -------------------------------------------------------------- 2.5 / 2.6 advertiser

/** One compared operator; allowed_in_geo: whether it may be shown to a viewer in resolved_geo. */
const ComparedOperator = z.object({
  id: z.string().describe('Machine identifier of the operator.'),
  name: z.string().describe('Display name.'),
  allowed_in_geo: z.boolean().describe('Whether the operator may be shown to a viewer in resolved_geo.'),
});

export const SpecificEventPayload = z
  .object({
    message: z.string().describe('ok, or "ok: <n> of <m> outcomes" when limit cut some.'),
    ...StaleFields,
    data: z
      .object({
        event: z
          .object({
            slug: Slug.describe('The event slug.'),
            title: z.string().describe("The event's question."),
            category: z.string().describe("The event's category."),
            closes_at: IsoTime.describe('When the event closes (RFC 3339).'),
            last_verified_timestamp: IsoTime.describe('When the prices last changed (RFC 3339).'),
          })
          .describe('The event.'),
        /** The viewer's jurisdiction the `allowed_in_geo` flags are for. */
        resolved_geo: ResolvedGeo,
        resolved_region: ResolvedRegion,
        operators: z
          .object({
            operatorA: ComparedOperator.describe('Operator A: the regulated exchange (ADVERTISER_OPERATOR_A).'),
            operatorB: ComparedOperator.describe('Operator B: the crypto-based market (ADVERTISER_OPERATOR_B).'),
          })
          .describe('The two operators compared.'),
        outcomes: z
          .array(
            z.object({
              name: z.string().describe('The outcome.'),
              operatorAPrice: z
                .number()
                .gt(0)
                .lt(1)
                .describe("Operator A's YES price in dollars per $1 contract, after its taker fee (0.62 = 62¢)."),
              operatorBPrice: z.number().gt(0).lt(1).describe("Operator B's YES price, the same way."),
              spreadCents: z.number().nonnegative().describe('|A - B| x 100 of the after-fee prices.'),
              operatorAVolume24h: z
                .number()
                .nonnegative()
                .nullable()
                .describe(
                  "Operator A's 24-hour volume on the outcome, USD; null when the venue sent a malformed figure (unknown).",
                ),
              operatorBVolume24h: z
                .number()
                .nonnegative()
                .nullable()
                .describe("Operator B's 24-hour volume on the outcome, USD; null when unknown."),
              operatorAMarketUrl: z.url().describe('The contract page at operator A.'),
              operatorBMarketUrl: z.url().describe('The contract page at operator B.'),
            }),
          )
          .describe('The outcomes both operators list (limit: the highest combined 24-hour volume first).'),
      })
      .describe('The comparison.'),
  })
  .describe('GET /advertiser/v1/widgets/specific/{event_slug}: one event compared between operator A and operator B.');
export type SpecificEventPayload = z.infer<typeof SpecificEventPayload>;

export const EventListPayload = z
  .object({
    message: z.string().describe('"<n> active events".'),
    ...StaleFields,
    data: z
      .object({
        events: z
          .array(Slug)
          .describe('Slugs of the events not yet closed that both operators quote, in catalog order.'),
      })
      .describe('The list.'),
  })
  .describe('GET /advertiser/v1/widgets/events: the events that can be compared.');
export type EventListPayload = z.infer<typeof EventListPayload>;

// -------------------------------------------------------------- 2.3 live-market widget

export const LiveMarketProvider = z.object({
  /** Machine identifier of the operator (as in the event widget); added beside operator_name. */
  operator_id: z.string().describe('Machine identifier of the venue.'),
  operator_name: z.string().describe('Display name.'),
  is_best_odds: z
    .boolean()
    .describe(
      'True for the lowest after-fee overround (up + down), ties by the higher up payout, judged on the multipliers as displayed (every venue showing the best).',
    ),
  updated_at: IsoTime.nullable().describe(
    'When the venue last updated its quote, by its own clock (RFC 3339); null for a price modelled by the simulator.',
  ),
  live_metrics: z
    .object({
      spot_difference: z
        .string()
        .regex(/^[+-]\$\d{1,3}(,\d{3})*\.\d{2}$/)
        .nullable()
        .describe("Spot minus this venue's strike, signed: +$12.50; null with no strike of its own."),
      target_price: z
        .string()
        .regex(/^\$\d{1,3}(,\d{3})*\.\d{2}$/)
        .nullable()
        .describe("This venue's own strike (its reference price): $97,250.12; null until the venue publishes one."),
      multipliers: z
        .object({
          payout_up: z
            .string()
            .regex(/^x\d+\.\d{2}$/)
            .describe('Payout per stake if the price ends up: x1.92.'),
          payout_down: z
            .string()
            .regex(/^x\d+\.\d{2}$/)
            .describe('Payout per stake if the price ends down.'),
        })
        .describe("1 / (the venue's ask + its taker fee per contract), two decimals."),
    })
    .describe("The venue's prices for the window."),
  incentives: z
    .object({
      coupon_value: z.string().describe("The venue's offer for the country; empty when it has none."),
      cta_url: ClickUrl.describe(
        "Signed click link to the window's contract page where the venue publishes one, else its site.",
      ),
    })
    .describe('The offer and link.'),
});

export const LiveMarketPayload = z
  .object({
    widget_class: z.literal('live-market').describe('Always "live-market".'),
    ...StaleFields,
    ...JurisdictionFields,
    refresh_interval_seconds: z.number().int().positive().describe('How often to ask again, per horizon.'),
    underlying_asset: z.enum(['BTC', 'ETH', 'SOL']).describe('The asset asked for.'),
    active_micro_question: z.string().describe("The question, naming the strike and the window's end."),
    expiration_horizon: z.enum(['5 minutes', '15 minutes']).describe('The window length.'),
    providers_pool: z
      .array(LiveMarketProvider)
      .describe('Venues allowed in resolved_geo with a price, in venue order; empty unless market_status is open.'),
    /**
     * Venues that list this horizon and may be shown here but have no usable quote now (none
     * published, not confirmed for 15 s, the venue's own time past its bound, or an empty book):
     * shown as unavailable, never priced by us.
     */
    unavailable_venues: z
      .array(
        z.object({
          operator_id: z.string().describe('Machine identifier of the venue.'),
          operator_name: z.string().describe('Display name of the venue.'),
        }),
      )
      .describe(
        'Venues that list this horizon and may be shown here but have no usable quote now (none published, too old, an empty book, or no payout above the stake): shown as unavailable, never priced.',
      ),
    /**
     * open: priced; awaiting_strike: the window has just started and its strike is not in yet;
     * no_strike: no tick caught the window start, so this window shows no prices until the next one;
     * stale: no recent tick, no prices shown.
     */
    unavailable_reason: z
      .enum(['no_venue_for_horizon', 'not_lawful_here', 'no_quote', 'stale'])
      .nullable()
      .describe(
        'Why providers_pool is empty; null when it is not. no_venue_for_horizon: no venue lists this horizon; not_lawful_here: the venues that list it may not be shown in resolved_geo; no_quote: they may, but none has a usable quote now (unavailable_venues names them); stale: no recent tick.',
      ),
    market_status: z
      .enum(['open', 'awaiting_strike', 'no_strike', 'stale'])
      .describe(
        "open: priced; awaiting_strike: the window's strike is not in yet; no_strike: no tick caught the window start; stale: no recent tick.",
      ),
    window_start: IsoTime.describe('Start of the window (RFC 3339).'),
    expires_at: IsoTime.describe('End of the window (RFC 3339).'),
    seconds_left: z.number().int().nonnegative().describe('Seconds until expires_at.'),
    spot_price: z.string().nullable().describe('The last price, to the cent ($97,262.62); null while stale.'),
    spot_path: z
      .array(
        z
          .tuple([
            z.number().int().nonnegative().describe('Seconds since window_start.'),
            z.number().positive().describe('The price in USD.'),
          ])
          .describe('One point: [seconds since window_start, price].'),
      )
      .max(60)
      .describe(
        "The spot's path through the window since its strike, oldest first: [0, strike], then the newest tick of each sixtieth of the window (5 s of a 5-minute window, 15 s of a 15-minute one) that had one; at most 60 points. Empty without a strike or while stale.",
      ),
    /** When the data last changed: the last tick's time (or the window start before any tick). */
    timestamp: IsoTime.describe("The last tick's time (the window start when no tick came since)."),
  })
  .describe('GET /v1/widgets/live-market: short up/down contracts on a crypto asset.');
export type LiveMarketPayload = z.infer<typeof LiveMarketPayload>;

// -------------------------------------------------------------- catalog (discovery, no key)

/** One team of a catalog matchup: the code `team_context` accepts, and its display name. */
const CatalogTeam = z.object({
  code: z.string().describe('The code team_context accepts.'),
  name: z.string().describe('Display name.'),
});

/**
 * GET /v1/catalog: what a publisher can embed. The same for every caller (no country, no
 * advertiser): which operators a visitor then sees is decided per widget request.
 */
export const CatalogPayload = z
  .object({
    ...StaleFields,
    timestamp: IsoTime.describe('When the events or sportsbook data behind this list last changed (RFC 3339).'),
    events: z
      .array(
        z.object({
          slug: Slug.describe("The event widget's slug; WebSocket topic event:{slug}."),
          question: z.string().describe("The event's question."),
          category: Category.describe("The event's category."),
          closes_at: IsoTime.describe('When the event closes (RFC 3339).'),
          outcomes: z.array(z.string()).describe('The outcomes, in order.'),
        }),
      )
      .describe('Events not yet closed.'),
    leagues: z
      .array(
        z.object({
          league: League.describe("The sportsbook widget's league."),
          upcoming: z
            .array(
              z.object({
                event_id: z.string().describe('Identifier of the game.'),
                scheduled_time: IsoTime.describe('Start time (RFC 3339).'),
                home: CatalogTeam.describe('Home team.'),
                away: CatalogTeam.describe('Away team.'),
              }),
            )
            .describe('Games not yet started, soonest first.'),
        }),
      )
      .describe('Every league the sportsbook widget takes.'),
    live_markets: z
      .array(
        z.object({
          asset: z.enum(['BTC', 'ETH', 'SOL']).describe("The live-market widget's asset."),
          horizon_minutes: z
            .array(z.number().int().positive())
            .describe('Its horizons; WebSocket topic live-market:{asset}:{horizon_minutes}.'),
        }),
      )
      .describe('Each live market.'),
  })
  .describe('GET /v1/catalog: what can be embedded.');
export type CatalogPayload = z.infer<typeof CatalogPayload>;
