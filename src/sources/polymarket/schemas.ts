/**
 * Polymarket Gamma and CLOB shapes, as far as we read them. In Gamma, `outcomes`, `outcomePrices`
 * and `clobTokenIds` are JSON-encoded strings ("[\"Yes\", \"No\"]"), index-aligned; numbers arrive
 * as numbers or decimal strings depending on the field.
 */
import { z } from 'zod';

/** A JSON-encoded array of strings, decoded. */
const JsonStringArray = z.string().transform((s, ctx) => {
  try {
    const v: unknown = JSON.parse(s);
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: 'not a JSON-encoded array of strings' });
  return z.NEVER;
});

/** A number sent as a number or a decimal string. */
export const Numeric = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/).transform(Number)]).pipe(z.number().finite());

export const GammaMarket = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    slug: z.string().min(1),
    question: z.string().min(1),
    conditionId: z.string().optional(),
    outcomes: JsonStringArray,
    outcomePrices: JsonStringArray.optional(),
    clobTokenIds: JsonStringArray.optional(),
    groupItemTitle: z.string().optional(),
    description: z.string().optional(),
    endDate: z.iso.datetime({ offset: true }).optional(),
    active: z.boolean().optional(),
    closed: z.boolean().optional(),
    acceptingOrders: z.boolean().optional(),
    bestBid: Numeric.optional(),
    bestAsk: Numeric.optional(),
    lastTradePrice: Numeric.optional(),
    volume24hr: Numeric.optional(),
    liquidityNum: Numeric.optional(),
    liquidity: Numeric.optional(),
  })
  .refine((m) => m.outcomes.length === 2, 'a binary market has two outcomes')
  .refine((m) => !m.clobTokenIds || m.clobTokenIds.length === m.outcomes.length, 'clobTokenIds not aligned with outcomes');
export type GammaMarket = z.infer<typeof GammaMarket>;

/** An event; its markets are validated one by one by the normalizer. */
export const GammaEvent = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  slug: z.string().min(1),
  title: z.string(),
  endDate: z.iso.datetime({ offset: true }).optional(),
  markets: z.array(z.unknown()).default([]),
});
export type GammaEvent = z.infer<typeof GammaEvent>;

/** CLOB `GET /price`: `{"price": "0.45"}`. */
export const ClobPrice = z.object({ price: Numeric });
