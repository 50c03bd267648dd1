/** Contract windows aligned to the clock: a 5-minute window starts at :00, :05, :10, ... UTC. */

export interface ContractWindow {
  horizonMinutes: number;
  /** Epoch ms, inclusive. */
  startMs: number;
  /** Epoch ms, exclusive: the expiry. */
  endMs: number;
}

/** The window containing `atMs`: start = floor(at / h) * h. */
export function windowAt(atMs: number, horizonMinutes: number): ContractWindow {
  const len = horizonMinutes * 60_000;
  const startMs = Math.floor(atMs / len) * len;
  return { horizonMinutes, startMs, endMs: startMs + len };
}

/**
 * Whether a tick stamped `tickMs` may set the strike of `w`: at or after the start and at most
 * `maxLagMs` after it (and before expiry). A later tick is not the price at the window start, so it
 * never becomes the strike, however long the feed was silent.
 */
export function tickMaySetStrike(tickMs: number, w: ContractWindow, maxLagMs: number): boolean {
  return tickMs >= w.startMs && tickMs <= w.startMs + maxLagMs && tickMs < w.endMs;
}
