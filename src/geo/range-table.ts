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

/**
 * Appends ranges in ascending order, merging a start whose value repeats the previous one's. The
 * starts and values go straight into typed arrays that double when full: a build adds some 15
 * million ranges, and JavaScript arrays of numbers took a third of its time.
 */
export class RangeTableBuilder {
  #starts: Uint32Array;
  #values = new Uint16Array(1 << 16);
  #size = 0;

  constructor(readonly words: number) {
    this.#starts = new Uint32Array(this.#values.length * words);
  }

  /** The value of the last range added, if any. */
  get lastValue(): number | undefined {
    return this.#size === 0 ? undefined : this.#values[this.#size - 1];
  }

  /** Adds a range starting at `start` (`words` words); nothing when it continues the previous value. */
  add(start: ArrayLike<number>, value: number): void {
    if (value === this.lastValue) return;
    const size = this.#size;
    if (size === this.#values.length) this.#grow();
    const at = size * this.words;
    for (let i = 0; i < this.words; i++) this.#starts[at + i] = start[i]!;
    this.#values[size] = value;
    this.#size = size + 1;
  }

  build(): RangeTable {
    const size = this.#size;
    return new RangeTable(this.words, this.#starts.slice(0, size * this.words), this.#values.slice(0, size));
  }

  #grow(): void {
    const starts = new Uint32Array(this.#starts.length * 2);
    starts.set(this.#starts);
    this.#starts = starts;
    const values = new Uint16Array(this.#values.length * 2);
    values.set(this.#values);
    this.#values = values;
  }
}
