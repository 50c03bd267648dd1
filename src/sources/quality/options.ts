/** Thresholds of the quality gate (src/sources/quality/gate.ts). */
export interface QualityOptions {
  /** A refresh that loses more than this share of the last good snapshot's events, outcomes or operators fails. */
  maxLossShare: number;
  /** An operator's YES and NO asks of one binary event summing below this are a broken book (one book's two asks sum to 1 plus its spread; the margin is for rounding). */
  minAskSum: number;
  /** An FX rate moving more than this share from the last good one, per business day (scaled by its square root), fails the refresh. */
  maxFxMove: number;
  /** Every FX rate moving together by at least this (log) share, nearly all within `fxCommonSpread` of it, fails the refresh: the USD row is suspect. */
  fxMinCommonMove: number;
  fxCommonSpread: number;
  /** A fixing older than this many days fails the refresh (weekends and holidays fit inside). */
  maxFxAgeDays: number;
  /** An operator's YES and NO asks of one binary event summing above this are a broken book (a wide but real book stays under it). */
  maxAskSum: number;
  /** A book's moneyline implied probabilities summing outside [min, max] contradict each other (a book's margin keeps them a little above 1). */
  minOverround: number;
  maxOverround: number;
  /** A moneyline favourite at least this likely (margin removed) that receives points on the spread contradicts itself. */
  favouriteShare: number;
  /** A price moving more than this (probability, or a moneyline's implied probability) between refreshes without new volume is held. */
  maxJump: number;
  /** A held jump that persists this long is accepted: a real move, not a glitch. */
  jumpHoldMs: number;
  /** A book's no-vig moneyline probability further than this from the other books' median is an outlier (consensus.ts). */
  maxConsensusGap: number;
}

export const DEFAULT_QUALITY: QualityOptions = {
  maxLossShare: 0.5,
  minAskSum: 0.99,
  // A major currency moves well under 2 % on most days; 5 % is a crisis day (GBP fell about 8 % on
  // 24 June 2016, CHF rose about 20 % on 15 January 2015), which a person should confirm.
  maxFxMove: 0.05,
  fxMinCommonMove: 0.01,
  fxCommonSpread: 0.005,
  maxFxAgeDays: 5,
  maxAskSum: 1.5,
  minOverround: 0.97,
  maxOverround: 1.3,
  favouriteShare: 0.6,
  maxJump: 0.3,
  jumpHoldMs: 120_000,
  // Seven times the widest gap among the 21 recorded NBA books (1.2 points of probability); a
  // relabelled or frozen book sits 15-20 points away.
  maxConsensusGap: 0.08,
};

/** Thrown when a fetched result fails the quality gate; the last good snapshot stays. */
export class QualityGateError extends Error {
  override name = 'QualityGateError';
  constructor(readonly violations: readonly string[]) {
    super(
      `quality gate: ${violations.slice(0, 5).join('; ')}${violations.length > 5 ? ` (+${violations.length - 5} more)` : ''}`,
    );
  }
}

/** `lost / had` when more than `max` of `had` is gone, as a violation message; else undefined. */
export function lossViolation(what: string, had: number, kept: number, max: number): string | undefined {
  if (had === 0) return undefined;
  const lost = Math.max(0, had - kept);
  return lost / had > max ? `${lost} of ${had} ${what} lost (more than ${Math.round(max * 100)} %)` : undefined;
}
