/**
 * The CLOB's price history of one token, `GET /prices-history?market={token id}&startTs&endTs&fidelity`
 * (docs.polymarket.com, "Get prices history", read 2026-11-25): `{history: [{t, p}]}`, `t` in Unix
 * seconds and `p` the token's price in dollars per $1 contract; `fidelity` is the spacing in minutes.
 */
import { z } from 'zod';
import type { Dropped } from '../quality/dropped.js';
import { Numeric } from './schemas.js';

export const PricesHistory = z.object({
  history: z.array(z.unknown()),
});

const HistoryPoint = z.object({
  t: z.number().int().positive(),
  p: Numeric.pipe(z.number().min(0).max(1)),
});

/** A venue price at a time: Unix seconds, dollars per $1 contract. */
export interface PricePoint {
  t: number;
  p: number;
}

/** The valid points of an answer, oldest first; a malformed point is dropped and reported. */
export function normalizePricesHistory(
  body: z.infer<typeof PricesHistory>,
  token: string,
): { points: PricePoint[]; dropped: Dropped[] } {
  const points: PricePoint[] = [];
  const dropped: Dropped[] = [];
  body.history.forEach((raw, i) => {
    const p = HistoryPoint.safeParse(raw);
    if (p.success) points.push(p.data);
    else
      dropped.push({
        id: `${token.slice(0, 24)}…[${i}]`,
        reason: p.error.issues[0]?.message ?? 'invalid',
        class: 'schema',
      });
  });
  return { points: points.sort((a, b) => a.t - b.t), dropped };
}
