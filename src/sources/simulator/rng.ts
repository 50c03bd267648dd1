/**
 * Seeded randomness for the simulator. Everything is derived by hashing (seed, names, numbers), so
 * any value can be recomputed on its own: no shared generator state, no Math.random.
 */

/** 32-bit avalanche mix (the murmur3 finalizer): a good spread for small, related inputs. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a hash of a string, finalized so nearby strings land far apart. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix(h);
}

/** Combines hashes and integers into one 32-bit hash, order-sensitive. */
export function mix(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    // Fold in both 32-bit halves so large integers (e.g. epoch seconds / small periods) stay distinct.
    const lo = p >>> 0;
    const hi = Math.floor(p / 4294967296) >>> 0;
    h = fmix((h ^ lo) + 0x7f4a7c15);
    h = fmix((h ^ hi) + 0x632be5ab);
  }
  return h;
}

/** A key for (seed, name parts): the usual way simulator code names one random quantity. */
export function key(seed: number, ...names: string[]): number {
  return mix(seed, ...names.map(hashString));
}

/** Maps a hash to a uniform number in [0, 1). */
export function unit(h: number): number {
  return h / 4294967296;
}

/** Uniform number in [lo, hi) from a hash. */
export function between(h: number, lo: number, hi: number): number {
  return lo + unit(h) * (hi - lo);
}

/** A small deterministic stream (mulberry32) for code that needs many draws in sequence. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number;
  /** Poisson draw (Knuth); fine for the small means used here. */
  poisson(mean: number): number;
}

/** Creates a stream from a 32-bit seed. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    normal() {
      // 1 - u keeps the log argument in (0, 1].
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    int(lo, hi) {
      return lo + Math.floor(next() * (hi - lo + 1));
    },
    poisson(mean) {
      const limit = Math.exp(-mean);
      let k = 0;
      let p = next();
      while (p > limit) {
        k++;
        p *= next();
      }
      return k;
    },
  };
}

/** Fisher-Yates shuffle of a copy, driven by a stream. */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
}
