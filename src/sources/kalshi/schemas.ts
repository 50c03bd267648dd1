/**
 * Kalshi trade API v2 shapes, as far as we read them. Prices are the fixed-point dollar strings
 * (`yes_ask_dollars: "0.5600"`), counts the `*_fp` strings; the retired integer-cent fields
 * (`yes_ask`, `volume_24h`, ...) are deliberately not read: they now come back 0 or missing.
 */
import { z } from 'zod';

/** A fixed-point decimal string such as "0.5600" or "801.00". */
const Fixed = z.string().regex(/^-?\d+(\.\d+)?$/, 'fixed-point decimal string');

export const KalshiMarket = z.object({
  ticker: z.string().min(1),
  event_ticker: z.string().min(1),
  title: z.string(),
  status: z.string().min(1),
  yes_sub_title: z.string().optional(),
  no_sub_title: z.string().optional(),
  close_time: z.iso.datetime({ offset: true }),
  expected_expiration_time: z.iso.datetime({ offset: true }).nullish(),
  yes_bid_dollars: Fixed.optional(),
  yes_ask_dollars: Fixed.optional(),
  no_bid_dollars: Fixed.optional(),
  no_ask_dollars: Fixed.optional(),
  last_price_dollars: Fixed.optional(),
  liquidity_dollars: Fixed.optional(),
  volume_fp: Fixed.optional(),
  volume_24h_fp: Fixed.optional(),
  open_interest_fp: Fixed.optional(),
  rules_primary: z.string().optional(),
  rules_secondary: z.string().optional(),
  result: z.string().optional(),
});
export type KalshiMarket = z.infer<typeof KalshiMarket>;

/** An event; `markets` only with `with_nested_markets=true` (validated one by one, not here). */
export const KalshiEvent = z.object({
  event_ticker: z.string().min(1),
  series_ticker: z.string().min(1),
  title: z.string(),
  sub_title: z.string().optional(),
  category: z.string().optional(),
  markets: z.array(z.unknown()).optional(),
});
export type KalshiEvent = z.infer<typeof KalshiEvent>;

/** `GET /markets` envelope. */
export const MarketsPage = z.object({ markets: z.array(z.unknown()), cursor: z.string().nullish() });
/** `GET /events` envelope. */
export const EventsPage = z.object({ events: z.array(z.unknown()), cursor: z.string().nullish() });
