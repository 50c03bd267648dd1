/** Small statistics for the benchmark's own figures. */

/** The p-th percentile (0..100) of ascending `sorted`, nearest rank; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** The middle value (the mean of the two middle ones for an even count); NaN when empty. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The least and greatest of the per-round ratios `other[i] / base[i]`: runs of one round are taken
 * back to back, so their ratio is what the machine's state at that moment allowed.
 */
export function roundSpread(base: readonly number[], other: readonly number[]): [min: number, max: number] {
  const ratios = other.map((x, i) => x / base[i]!).filter(Number.isFinite);
  return ratios.length === 0 ? [Number.NaN, Number.NaN] : [Math.min(...ratios), Math.max(...ratios)];
}

/** When a REST row is taken again: its rounds disagree, or its server worked far harder than usual. */
export const NOISE = {
  /** Greatest / least per-round ratio above this: one round met a busy machine. */
  maxSpread: 1.15,
  /** CPU per request above this multiple of the run's median across rows. */
  cpuOverMedian: 1.5,
  /** Re-runs of one row at most; the one with the narrowest spread is kept. */
  retries: 2,
  /**
   * A wide spread is taken again only for a row whose ratio is below its target times this: a
   * verdict it could change. Rows well above their target kept a noisy machine re-running them
   * (27 of 36 rows on 2026-12-02, a full run of 27 minutes), and their spread is in the table.
   */
  nearTarget: 1.05,
} as const;

/**
 * Whether a row's measurement is noise rather than the server: a server of the row spent
 * NOISE.cpuOverMedian times the CPU per request that the same server spent on the run's median row
 * (`cpuOverRunMedian`, the larger of the two servers'), or its per-round ratios spread wider than
 * NOISE.maxSpread while its `ratio` is near enough its `target` for the verdict to turn on it. On
 * a quiet machine every row costs about the same (10-13 µs here, whatever the body or coding), so
 * a row far off met something else using the core.
 */
export function isNoisy(
  spread: readonly [number, number],
  cpuOverRunMedian: number,
  ratio: number,
  target: number,
): boolean {
  const [min, max] = spread;
  const wide = min > 0 && max / min > NOISE.maxSpread;
  return (wide && ratio < target * NOISE.nearTarget) || cpuOverRunMedian > NOISE.cpuOverMedian;
}

/** A price as a widget shows it, seen (published or observed) at `atUs` (monotonic microseconds). */
export interface PriceEvent {
  price: string;
  atUs: number;
}

export interface Matched {
  /** Tick-to-client latencies, ms, ascending. */
  latenciesMs: number[];
  /** Frames whose price no earlier tick carried. */
  unmatched: number;
}

/**
 * Tick-to-client latency of frames matched to ticks by the price they carry. A run of ticks with
 * the same shown price counts from its first (the price a client sees changed then); a frame
 * counts from the latest such change to its price at or before its arrival. `arrivals` holds, per
 * price, when clients first saw a frame with it.
 *
 * The bench hears a tick from Redis like any subscriber, and Redis serves its subscribers one after
 * another: a fast publisher's clients can have the frame before the bench has stamped the tick.
 * So a change stamped up to `slackUs` after a frame's arrival is still that frame's, at latency 0;
 * without this, such a frame matched an older change to the same price, seconds earlier.
 */
export function matchByPrice(
  ticks: readonly PriceEvent[],
  arrivals: ReadonlyMap<string, readonly number[]>,
  slackUs = 0,
): Matched {
  const changes = new Map<string, number[]>();
  let last: string | undefined;
  for (const t of [...ticks].sort((a, b) => a.atUs - b.atUs)) {
    if (t.price === last) continue;
    last = t.price;
    const list = changes.get(t.price) ?? [];
    list.push(t.atUs);
    changes.set(t.price, list);
  }
  const latenciesMs: number[] = [];
  let unmatched = 0;
  for (const [price, times] of arrivals) {
    const starts = changes.get(price);
    for (const at of times) {
      // Latest change to `price` not after `at` + slack (starts ascend).
      let best: number | undefined;
      for (const s of starts ?? []) {
        if (s > at + slackUs) break;
        best = s;
      }
      if (best === undefined) unmatched++;
      else latenciesMs.push(Math.max(0, at - best) / 1000);
    }
  }
  latenciesMs.sort((a, b) => a - b);
  return { latenciesMs, unmatched };
}
