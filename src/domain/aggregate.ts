/**
 * Aggregates over several operators' quotes, and the one rounding rule the domain shares.
 */

/**
 * Moves the decimal point of `n` by `places` through its shortest decimal string, so the shift is
 * exact in decimal terms (1.005 becomes 100.5, not 100.49999999999999 as `1.005 * 100` does).
 */
function shiftDecimal(n: number, places: number): number {
  const [mantissa, exponent] = String(n).split('e');
  return Number(`${mantissa}e${Number(exponent ?? 0) + places}`);
}

/**
 * Rounds `value` to `decimals` decimal places, halves away from zero (1.005 → 1.01, -2.5 → -3 at 0).
 *
 * The halfway test is made on the number's shortest decimal representation, the one people read,
 * so binary float noise never turns a written half into a round-down.
 *
 * @param value - any finite number
 * @param decimals - an integer; negative values round to tens, hundreds, ...
 * @throws RangeError when `value` is not finite or `decimals` is not an integer
 */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`roundTo: value must be finite, got ${value}`);
  if (!Number.isInteger(decimals)) throw new RangeError(`roundTo: decimals must be an integer, got ${decimals}`);
  // Work on the magnitude: Math.round is half-up, which on |value| is half away from zero.
  const abs = Math.abs(value);
  const magnitude = roundedByProduct(abs, decimals) ?? shiftDecimal(Math.round(shiftDecimal(abs, decimals)), -decimals);
  // `0 * -1` would give -0, which prints as "0" but is not what callers compare against.
  if (magnitude === 0) return 0;
  return value < 0 ? -magnitude : magnitude;
}

/** 10^0 … 10^22: every power of ten a double holds exactly. */
const EXACT_POWERS = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/**
 * `roundTo`'s answer for a magnitude without strings, when the product `abs × 10^decimals` lies
 * clearly away from a half; undefined when the string shift must decide. A body rebuild rounds
 * hundreds of figures, and the four string conversions of the shift were about a quarter of an
 * event body's build (bench/log/2026-12.md). The product is within two units in the last place of
 * the exact decimal shift (one for the double nearest the decimal, one for the multiplication), far
 * inside the margin, so both round to the same integer k; k ÷ 10^d and the parse of "k e-d" are
 * both the double nearest the same fraction.
 */
function roundedByProduct(abs: number, decimals: number): number | undefined {
  const scale = EXACT_POWERS[decimals];
  if (scale === undefined) return undefined;
  const x = abs * scale;
  if (!(x < 2 ** 52)) return undefined;
  if (Math.abs(x - Math.floor(x) - 0.5) <= 1e-9 * Math.max(1, x)) return undefined;
  return Math.round(x) / scale;
}

/**
 * The combined probability of one outcome across operators: YES prices weighted by each operator's
 * 24-hour volume, so a thin market moves the figure less than a deep one. When no operator has
 * traded in 24 hours, or one operator's volume is unknown (null), there is nothing to weight by,
 * so the plain mean is used.
 *
 * @returns a probability in (0, 1) (YES prices are in (0, 1), so any weighted mean is too)
 * @throws RangeError for an empty list, a volume that is negative or not finite, or a price
 *   outside (0, 1)
 */
export function volumeWeightedProbability(
  quotes: ReadonlyArray<{ yesPrice: number; volume24hUsd: number | null }>,
): number {
  if (quotes.length === 0) throw new RangeError('volumeWeightedProbability: no quotes');
  let weighted = 0;
  let totalVolume = 0;
  let priceSum = 0;
  let unknown = false;
  for (const { yesPrice, volume24hUsd } of quotes) {
    if (!(yesPrice > 0 && yesPrice < 1)) {
      throw new RangeError(`volumeWeightedProbability: yesPrice must be in (0, 1), got ${yesPrice}`);
    }
    priceSum += yesPrice;
    if (volume24hUsd === null) {
      unknown = true;
      continue;
    }
    if (!(Number.isFinite(volume24hUsd) && volume24hUsd >= 0)) {
      throw new RangeError(`volumeWeightedProbability: bad volume ${volume24hUsd}`);
    }
    weighted += yesPrice * volume24hUsd;
    totalVolume += volume24hUsd;
  }
  return totalVolume > 0 && !unknown ? weighted / totalVolume : priceSum / quotes.length;
}

/** A quote as the probability maths reads it: the YES ask, the bid when known, the 24-hour volume (null: unknown). */
export interface PricedQuote {
  yesPrice: number;
  yesBid?: number;
  volume24hUsd: number | null;
}

/** The sum of volumes, or null when any of them is unknown: a partial sum would read as a real, smaller figure. */
export function totalVolume(volumes: Iterable<number | null>): number | null {
  let sum = 0;
  for (const v of volumes) {
    if (v === null) return null;
    sum += v;
  }
  return sum;
}

/**
 * A quote's mid price, (bid + ask) / 2, where a bid below the ask exists; the ask alone otherwise.
 * The mid is the market's estimate of the probability; the ask carries half the spread on top.
 */
export function quoteMid(q: { yesPrice: number; yesBid?: number }): number {
  return q.yesBid !== undefined && q.yesBid > 0 && q.yesBid < q.yesPrice ? (q.yesBid + q.yesPrice) / 2 : q.yesPrice;
}

/**
 * The combined probability of each of an event's outcomes: the volume-weighted mid over the
 * outcome's quotes ({@link volumeWeightedProbability}), then, when the outcomes are mutually
 * exclusive and exhaustive, divided by their sum so they add up to 1 (asks and leans make the raw
 * figures sum above or below 1). Independent outcomes are left as they are.
 *
 * @param outcomes - each outcome's quotes, at least one each
 * @returns probabilities in (0, 1), index-aligned with `outcomes`
 * @throws RangeError as {@link volumeWeightedProbability}
 */
export function outcomeProbabilities(
  outcomes: ReadonlyArray<ReadonlyArray<PricedQuote>>,
  exclusive: boolean,
): number[] {
  const raw = outcomes.map((quotes) =>
    volumeWeightedProbability(quotes.map((q) => ({ yesPrice: quoteMid(q), volume24hUsd: q.volume24hUsd }))),
  );
  if (!exclusive) return raw;
  const sum = raw.reduce((s, p) => s + p, 0);
  return raw.map((p) => p / sum);
}
