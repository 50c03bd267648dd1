/** A small least-recently-used map with a fixed bound (Map keeps insertion order). */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('LRU size must be a positive integer');
  }

  /** The value for `key`, marking it most recently used (store null, not undefined, for "known absent"). */
  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v === undefined && !this.#map.has(key)) return undefined;
    this.#map.delete(key);
    this.#map.set(key, v as V);
    return v;
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as K);
  }

  get size(): number {
    return this.#map.size;
  }
}
