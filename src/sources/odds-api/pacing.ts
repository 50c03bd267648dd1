/**
 * Pacing odds-provider spend to a monthly budget. The provider's quota is monthly and its
 * x-requests-remaining / x-requests-used headers say where we stand; spreading what is left evenly
 * over what is left of the month (UTC) gives the shortest interval between calls of one league
 * that still lasts the month. Pure.
 */
import type { QuotaState } from '../http/quota.js';

export interface PacingInput {
  now: Date;
  quota: QuotaState;
  /** ODDS_API_MONTHLY_CREDITS: our own budget, when lower than the plan's quota. */
  monthlyCredits?: number;
  /** Leagues polled independently from the one budget. */
  leagues: number;
  /** Credits one call costs when the provider has not said yet (markets x regions). */
  defaultCost: number;
}

/** The least interval between two calls for one league, ms; 0 when nothing is known yet. */
export function pacedIntervalMs(p: PacingInput): number {
  const { used } = p.quota;
  // None left at all is the provider's block to govern (an hour at a time, then one call reads the
  // quota again, so a renewed plan is seen): pacing spreads only what is left.
  const remaining = p.quota.remaining !== undefined && p.quota.remaining > 0 ? p.quota.remaining : undefined;
  if (remaining === undefined && p.monthlyCredits === undefined) return 0;
  const ownLeft = p.monthlyCredits !== undefined ? p.monthlyCredits - (used ?? 0) : Infinity;
  const left = Math.min(remaining ?? Infinity, ownLeft);
  if (!Number.isFinite(left)) return 0;
  const now = p.now.getTime();
  const monthEnd = Date.UTC(p.now.getUTCFullYear(), p.now.getUTCMonth() + 1, 1);
  const calls = Math.floor(left / Math.max(1, p.quota.last ?? p.defaultCost));
  // Nothing left for this month: wait for the reset.
  if (calls <= 0) return monthEnd - now;
  return Math.ceil(((monthEnd - now) * p.leagues) / calls);
}
