/**
 * A route's payload-cache keys, kept by the values they are made of, so a repeat request puts no key
 * string together; each key's slot also holds the body last served under it, so a repeat request
 * does no cache lookup either.
 *
 * Hand-written for the hot path: joining a key of four to seven parts and hashing the new string
 * cost about 0.4 µs of a cached widget request (bench/README.md, "Where the REST time went"), and
 * with thousands of variants the payload cache's own lookup by that string cost as much again. The
 * parts are values V8 has hashed before: strings of the parsed query (one frozen object per query
 * string, query.ts), the country and locale strings every request shares, small numbers, snapshot
 * objects (one per version). A Map read per part costs a tenth of the join.
 *
 * Memory: at most `max` keys (junk variants included, such as unknown slugs), after which the memo
 * starts over; the snapshot objects of old versions it still holds go with it. A slot lets go of
 * its body when the payload cache drops it (payload-cache.ts); of two slots with one key (a team
 * name in two spellings), the one read earlier keeps a dropped body until its next read.
 */

/** One variant: its payload-cache key and the body (`E`) last served for it (payload-cache.ts keeps it current). */
export interface VariantSlot<E> {
  readonly key: string;
  entry: E | undefined;
}

type Level<E> = Map<unknown, Level<E> | VariantSlot<E>>;

export class VariantKeys<E> {
  #root: Level<E> = new Map();
  #keys = 0;

  /**
   * `make` joins the parts into the key (called once per new combination). A part that is a
   * snapshot or signals object stands for its version: a new version is a new object, hence a new key.
   * Past `max` keys the memo starts over (keys of old versions pile up otherwise).
   */
  constructor(
    private readonly make: (parts: readonly unknown[]) => string,
    private readonly max = 20_000,
  ) {}

  /** The slot of `parts` (always the same number of parts for one instance). */
  of(parts: readonly unknown[]): VariantSlot<E> {
    let level = this.#root;
    const last = parts.length - 1;
    for (let i = 0; i < last; i++) {
      let next = level.get(parts[i]) as Level<E> | undefined;
      if (next === undefined) level.set(parts[i], (next = new Map()));
      level = next;
    }
    let slot = level.get(parts[last]) as VariantSlot<E> | undefined;
    if (slot === undefined) {
      if (this.#keys >= this.max) {
        this.#root = new Map();
        this.#keys = 0;
        return this.of(parts);
      }
      level.set(parts[last], (slot = { key: this.make(parts), entry: undefined }));
      this.#keys++;
    }
    return slot;
  }
}
