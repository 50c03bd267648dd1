/**
 * Kalshi trade API v2 shapes, as far as we read them. Prices are the fixed-point dollar strings
 * (`yes_ask_dollars: "0.5600"`), counts the `*_fp` strings; the retired integer-cent fields
 * (`yes_ask`, `volume_24h`, ...) are deliberately not read: they now come back 0 or missing.
 */
import { z } from 'zod';

/** A fixed-point decimal string such as "0.5600" or "801.00"; a plain number is accepted too. */
const Fixed = z.union([
  z.number().finite().transform(String),
  z.string().regex(/^-?\d+(\.\d+)?$/, 'fixed-point decimal string'),
]);

/** A field we only display or pass on: malformed reads as absent instead of costing the market. */
const Unused = <T extends z.ZodType>(t: T) => t.nullish().catch(undefined);

/**
 * A non-price field the normalizer reads and judges on its own (quality/fields.ts): a malformed one
 * becomes unknown and is reported, never costing the market its prices.
 */
const Field = z.unknown().optional();

/** The retired integer-cent price fields; only their presence is read (to recognise a legacy market). */
const LEGACY_CENTS = ['yes_bid', 'yes_ask', 'no_bid', 'no_ask', 'last_price'] as const;
/** The documented price fields, in dollars per $1 contract. */
export const DOLLAR_PRICES = [
  'yes_bid_dollars',
  'yes_ask_dollars',
  'no_bid_dollars',
  'no_ask_dollars',
  'last_price_dollars',
] as const;

export const KalshiMarket = z
  .object({
    ticker: z.string().min(1),
    event_ticker: z.string().min(1),
    /** Deprecated by Kalshi: may be absent; the normalizer falls back to the event title and yes_sub_title. */
    title: z.string().min(1).nullish().catch(undefined),
    status: z.string().min(1),
    yes_sub_title: Unused(z.string()),
    no_sub_title: Unused(z.string()),
    close_time: z.iso.datetime({ offset: true }),
    expected_expiration_time: Unused(z.iso.datetime({ offset: true })),
    yes_bid_dollars: Fixed.nullish(),
    yes_ask_dollars: Fixed.nullish(),
    no_bid_dollars: Fixed.nullish(),
    no_ask_dollars: Fixed.nullish(),
    last_price_dollars: Fixed.nullish(),
    volume_fp: Unused(Fixed),
    volume_24h_fp: Field,
    open_interest_fp: Field,
    rules_primary: Field,
    rules_secondary: Field,
    /** "yes" or "no" once the market is determined; empty while it trades. */
    result: Unused(z.string()),
    yes_bid: z.unknown().optional(),
    yes_ask: z.unknown().optional(),
    no_bid: z.unknown().optional(),
    no_ask: z.unknown().optional(),
    last_price: z.unknown().optional(),
  })
  // A market quoting only the retired cents is schema drift, not an open market without a price.
  .refine(
    (m) => DOLLAR_PRICES.some((k) => m[k] != null) || !LEGACY_CENTS.some((k) => m[k] != null),
    'legacy cents-only market: no *_dollars price fields (schema drift)',
  );
export type KalshiMarket = z.infer<typeof KalshiMarket>;

/** An event; `markets` only with `with_nested_markets=true` (validated one by one, not here). */
export const KalshiEvent = z.object({
  event_ticker: z.string().min(1),
  series_ticker: z.string().min(1),
  title: z.string().nullish().catch(undefined),
  sub_title: Unused(z.string()),
  category: Unused(z.string()),
  markets: z.array(z.unknown()).nullish(),
});
export type KalshiEvent = z.infer<typeof KalshiEvent>;

/** `GET /markets` envelope. */
export const MarketsPage = z.object({ markets: z.array(z.unknown()), cursor: z.string().nullish() });
/** `GET /events` envelope. */
export const EventsPage = z.object({ events: z.array(z.unknown()), cursor: z.string().nullish() });
