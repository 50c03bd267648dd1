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

/** A string array sent JSON-encoded (Gamma's usual form) or as a real array. */
const StringList = z.union([z.array(z.string()), JsonStringArray]);

/** A number sent as a number or a decimal string. */
export const Numeric = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)
      .transform(Number),
  ])
  .pipe(z.number().finite());

/** A field we only display or pass on: malformed reads as absent instead of costing the market. */
const Unused = <T extends z.ZodType>(t: T) => t.nullish().catch(undefined);

/**
 * A non-price field the normalizer reads and judges on its own (quality/fields.ts): a malformed one
 * becomes unknown and is reported, never costing the market its prices.
 */
const Field = z.unknown().optional();

export const GammaMarket = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    slug: z.string().min(1),
    question: z.string().min(1),
    conditionId: z.string().nullish(),
    outcomes: StringList,
    outcomePrices: Unused(StringList),
    clobTokenIds: StringList.nullish(),
    /** Protocol-V2 position (token) ids; preferred over clobTokenIds where present. */
    positionIds: StringList.nullish(),
    groupItemTitle: Unused(z.string()),
    description: Field,
    endDate: Unused(z.iso.datetime({ offset: true })),
    /** When Gamma last rewrote the market's record (its prices among it): the quote's own time. */
    updatedAt: Unused(z.iso.datetime({ offset: true })),
    active: z.boolean().nullish(),
    closed: z.boolean().nullish(),
    archived: z.boolean().nullish(),
    acceptingOrders: z.boolean().nullish(),
    bestBid: Numeric.nullish(),
    bestAsk: Numeric.nullish(),
    lastTradePrice: Numeric.nullish(),
    volume24hr: Field,
    liquidityNum: Field,
    liquidity: Field,
  })
  .refine((m) => m.outcomes.length === 2, 'a binary market has two outcomes')
  .refine(
    (m) => !m.clobTokenIds || m.clobTokenIds.length === m.outcomes.length,
    'clobTokenIds not aligned with outcomes',
  )
  .refine((m) => !m.positionIds || m.positionIds.length === m.outcomes.length, 'positionIds not aligned with outcomes');
export type GammaMarket = z.infer<typeof GammaMarket>;

/** An event; its markets are validated one by one by the normalizer. */
export const GammaEvent = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  slug: z.string().min(1),
  title: z.string().nullish().catch(undefined),
  endDate: Unused(z.iso.datetime({ offset: true })),
  markets: z
    .array(z.unknown())
    .nullish()
    .transform((m) => m ?? []),
});
export type GammaEvent = z.infer<typeof GammaEvent>;

/** CLOB `GET /price`: `{"price": "0.45"}`. */
export const ClobPrice = z.object({ price: Numeric });

/** Gamma's keyset listing envelope: `next_cursor` is absent on the last page. */
export const KeysetPage = z.object({ events: z.array(z.unknown()), next_cursor: z.string().nullish() });

/** Data API `GET /oi?market=`: `[{ market: conditionId, value: USD }]` (or the same rows under `data`). */
export const OpenInterestRows = z
  .union([z.array(z.unknown()), z.object({ data: z.array(z.unknown()) }).transform((o) => o.data)])
  .transform((rows) =>
    rows.flatMap((r) => {
      const row = z
        .object({
          market: z.string().min(1).optional(),
          condition_id: z.string().min(1).optional(),
          value: Numeric.pipe(z.number().nonnegative()),
        })
        .safeParse(r);
      const market = row.success ? (row.data.market ?? row.data.condition_id) : undefined;
      return row.success && market ? [{ market, value: row.data.value }] : [];
    }),
  );
