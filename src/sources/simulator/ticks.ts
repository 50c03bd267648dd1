/**
 * Contract prices on a venue's tick. An ask rounds up and a bid down, never to the nearest: a
 * venue's book is never narrower than its spread, so its asks over a market's outcomes always sum
 * above 1 (rounding to the nearest could show a 0 % vig, -100/-100). Dividing by an integer keeps
 * 0.57 exactly 0.57.
 */

/** An ask on the venue's tick: rounded up, kept within [tick, 1 - tick]. */
export function askOnTick(price: number, tick: number): number {
  const inv = Math.round(1 / tick);
  // 1e-9: a price already on the tick (0.57 * 100 = 56.99999999999999) must not move up a tick.
  const p = Math.ceil(price * inv - 1e-9) / inv;
  return Math.min(1 - tick, Math.max(tick, p));
}

/** A bid on the venue's tick: rounded down; undefined when it would be 0 (an empty bid side). */
export function bidOnTick(price: number, tick: number): number | undefined {
  const inv = Math.round(1 / tick);
  const p = Math.min(1 - tick, Math.floor(price * inv + 1e-9) / inv);
  return p >= tick ? p : undefined;
}
