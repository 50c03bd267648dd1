/** Thresholds of the quality gate (src/sources/quality/gate.ts). */
export interface QualityOptions {
  /** A refresh that loses more than this share of the last good snapshot's events, outcomes or operators fails. */
  maxLossShare: number;
  /** An operator's YES and NO asks of one binary event summing below this are a broken book. */
  minAskSum: number;
  /** An FX rate moving more than this share from the last good one fails the refresh. */
  maxFxMove: number;
  /** A fixing older than this many days fails the refresh (weekends and holidays fit inside). */
  maxFxAgeDays: number;
}

export const DEFAULT_QUALITY: QualityOptions = { maxLossShare: 0.5, minAskSum: 0.9, maxFxMove: 0.2, maxFxAgeDays: 5 };

/** Thrown when a fetched result fails the quality gate; the last good snapshot stays. */
export class QualityGateError extends Error {
  override name = 'QualityGateError';
  constructor(readonly violations: readonly string[]) {
    super(`quality gate: ${violations.slice(0, 5).join('; ')}${violations.length > 5 ? ` (+${violations.length - 5} more)` : ''}`);
  }
}

/** `lost / had` when more than `max` of `had` is gone, as a violation message; else undefined. */
export function lossViolation(what: string, had: number, kept: number, max: number): string | undefined {
  if (had === 0) return undefined;
  const lost = Math.max(0, had - kept);
  return lost / had > max ? `${lost} of ${had} ${what} lost (more than ${Math.round(max * 100)} %)` : undefined;
}
