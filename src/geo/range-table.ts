/**
 * Address ranges as a sorted table: each entry is the first address of a run of addresses that
 * share one value, so the value of any address is that of the last entry at or below it. Starts are
 * `words` unsigned 32-bit words each, most significant first (1 for IPv4, 2 for an IPv6 /64 prefix,
 * 4 for a whole IPv6 address), packed in one Uint32Array; values are 16-bit.
 *
 * Hand-written rather than a library: this is the lookup behind every new client address, and two
 * typed arrays hold a few million ranges in a tenth of the memory a general structure would.
 */
export class RangeTable {
  readonly size: number;

  constructor(
    readonly words: number,
    /** `size × words` words, the starts in ascending order. */
    readonly starts: Uint32Array,
    /** One value per start. */
    readonly values: Uint16Array,
  ) {
    if (starts.length !== values.length * words) throw new Error('range table: starts and values differ in length');
    this.size = values.length;
  }

  /** The value of the range holding `key` (its first `words` words), or undefined below the first start. */
  valueAt(key: ArrayLike<number>): number | undefined {
    const { starts, words } = this;
    let lo = 0;
    let hi = this.size - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (compareAt(starts, mid * words, key, words) <= 0) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? undefined : this.values[found];
  }
}

/** The sign of `starts[at..at+words]` against `key[0..words]`, word by word. */
function compareAt(starts: Uint32Array, at: number, key: ArrayLike<number>, words: number): number {
  for (let i = 0; i < words; i++) {
    const a = starts[at + i]!;
    const b = key[i]!;
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/** Appends ranges in ascending order, merging a start whose value repeats the previous one's. */
export class RangeTableBuilder {
  #starts: number[] = [];
  #values: number[] = [];

  constructor(readonly words: number) {}

  /** The value of the last range added, if any. */
  get lastValue(): number | undefined {
    return this.#values.at(-1);
  }

  /** Adds a range starting at `start` (`words` words); nothing when it continues the previous value. */
  add(start: ArrayLike<number>, value: number): void {
    if (value === this.lastValue) return;
    for (let i = 0; i < this.words; i++) this.#starts.push(start[i]! >>> 0);
    this.#values.push(value);
  }

  build(): RangeTable {
    return new RangeTable(this.words, Uint32Array.from(this.#starts), Uint16Array.from(this.#values));
  }
}
