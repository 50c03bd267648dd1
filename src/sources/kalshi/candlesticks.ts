/**
 * A market's candlesticks, `GET /series/{series_ticker}/markets/{ticker}/candlesticks?start_ts&end_ts&period_interval`
 * (docs.kalshi.com, "Get Market Candlesticks" and its MarketCandlestick / BidAskDistribution
 * models, read 2026-11-25): `{ticker, candlesticks: [{end_period_ts, yes_bid, yes_ask, price,
 * volume, open_interest}]}`, where `yes_bid` and `yes_ask` carry open/low/high/close in cents and
 * as `*_dollars` fixed-point strings; `period_interval` is 1, 60 or 1440 minutes. The dollar
 * strings are read; the integer cents only where a candle carries no dollar string.
 */
import { z } from 'zod';
import type { Dropped } from '../quality/dropped.js';

export const CandlesticksPage = z.object({
  candlesticks: z.array(z.unknown()),
});

const Side = z
  .object({
    close: z.number().int().min(0).max(100).nullish(),
    close_dollars: z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .nullish(),
  })
  .nullish();

const Candle = z.object({
  end_period_ts: z.number().int().positive(),
  yes_bid: Side,
  yes_ask: Side,
});

/** A candle's closing YES quote: Unix seconds, dollars per $1 contract (undefined: that side was empty). */
export interface CandleQuote {
  t: number;
  yesAsk: number | undefined;
  yesBid: number | undefined;
}

/** A side's close in dollars; 0 and 1 are an empty side of the book, not a price. */
function close(side: z.infer<typeof Side>): number | undefined {
  const dollars =
    side?.close_dollars != null ? Number(side.close_dollars) : side?.close != null ? side.close / 100 : undefined;
  return dollars !== undefined && dollars > 0 && dollars < 1 ? dollars : undefined;
}

/** The closing quotes of an answer's candles, oldest first; a malformed candle is dropped and reported. */
export function normalizeCandlesticks(
  body: z.infer<typeof CandlesticksPage>,
  ticker: string,
): { quotes: CandleQuote[]; dropped: Dropped[] } {
  const quotes: CandleQuote[] = [];
  const dropped: Dropped[] = [];
  body.candlesticks.forEach((raw, i) => {
    const c = Candle.safeParse(raw);
    if (!c.success) {
      dropped.push({ id: `${ticker}[${i}]`, reason: c.error.issues[0]?.message ?? 'invalid', class: 'schema' });
      return;
    }
    quotes.push({ t: c.data.end_period_ts, yesAsk: close(c.data.yes_ask), yesBid: close(c.data.yes_bid) });
  });
  return { quotes: quotes.sort((a, b) => a.t - b.t), dropped };
}
