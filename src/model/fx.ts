/** Daily FX reference rates used to show money in the visitor's currency. */
import { z } from 'zod';

/** Units of each currency per 1 USD (EUR 0.92 means $1 = €0.92), from a daily reference. */
export const FxData = z.object({
  /** The reference date the publisher stamped on the rates (YYYY-MM-DD). */
  asOfDate: z.iso.date(),
  rates: z.record(z.string().regex(/^[A-Z]{3}$/), z.number().positive().finite()),
});
export type FxData = z.infer<typeof FxData>;
