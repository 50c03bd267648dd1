/** Operator-level market metrics (volume, open interest, liquidity) behind the broad widget. */
import { z } from 'zod';
import { Category, OperatorId } from './common.js';

export const OperatorMetrics = z.object({
  operatorId: OperatorId,
  volume24hUsd: z.number().nonnegative().finite(),
  /** null = unknown (the source publishes no figure we trust). */
  openInterestUsd: z.number().nonnegative().finite().nullable(),
  /** null = unknown (the source publishes no figure we trust). */
  liquidityUsd: z.number().nonnegative().finite().nullable(),
  /** Active events or matchups the operator prices. */
  activeEvents: z.number().int().nonnegative(),
  volumeByCategoryUsd: z.partialRecord(z.enum([...Category.options]), z.number().nonnegative().finite()),
});
export type OperatorMetrics = z.infer<typeof OperatorMetrics>;

export const MetricsData = z.object({
  operators: z.array(OperatorMetrics),
});
export type MetricsData = z.infer<typeof MetricsData>;
