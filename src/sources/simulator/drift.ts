/**
 * Deterministic, smooth, mean-reverting drift as a function of time: a sum of value-noise octaves.
 * Each octave interpolates hashed lattice values with a quintic curve, so the path is continuous
 * with a continuous slope (small moves over seconds, larger over hours and days) and bounded
 * (it always returns towards zero rather than wandering off like a random walk).
 */
import { mix, unit } from './rng.js';

/** One octave: lattice spacing in seconds and peak amplitude. */
export interface Octave {
  periodSec: number;
  amp: number;
}

/** Value noise in [-1, 1] at lattice coordinate x for a key. */
function valueNoise(k: number, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const a = unit(mix(k, i)) * 2 - 1;
  const b = unit(mix(k, i + 1)) * 2 - 1;
  // Quintic smoothstep: zero slope and curvature at lattice points, so octaves join smoothly.
  const s = f * f * f * (f * (f * 6 - 15) + 10);
  return a + (b - a) * s;
}

/**
 * Drift value for a key at a time (seconds since the epoch). Octaves get their own key and a
 * random phase so their lattice points never line up.
 */
export function drift(k: number, tSec: number, octaves: readonly Octave[]): number {
  let sum = 0;
  for (let o = 0; o < octaves.length; o++) {
    const oct = octaves[o] as Octave;
    const ok = mix(k, o + 1);
    const phase = unit(mix(ok, 0x51ed));
    sum += oct.amp * valueNoise(ok, tSec / oct.periodSec + phase);
  }
  return sum;
}

/** Seconds since the epoch, the time axis of every drift. */
export function epochSec(d: Date): number {
  return d.getTime() / 1000;
}

const MIN = 60;
const HOUR = 3600;
const DAY = 86400;

/** Fair-probability drift of prediction markets, in logit units. */
export const EVENT_OCTAVES: readonly Octave[] = [
  { periodSec: 40 * DAY, amp: 0.5 },
  { periodSec: 5 * DAY, amp: 0.25 },
  { periodSec: 12 * HOUR, amp: 0.14 },
  { periodSec: 1 * HOUR, amp: 0.06 },
  { periodSec: 5 * MIN, amp: 0.035 },
  { periodSec: 45, amp: 0.035 },
  { periodSec: 15, amp: 0.016 },
];

/** Extra fast component for markets tied to a live price (crypto thresholds move with the coin). */
export const HOT_OCTAVES: readonly Octave[] = [
  { periodSec: 10 * MIN, amp: 0.08 },
  { periodSec: 30, amp: 0.045 },
];

/** A venue's own deviation from the fair price, in logit units: slow, with some fast jitter. */
export const VENUE_OCTAVES: readonly Octave[] = [
  { periodSec: 2 * DAY, amp: 0.04 },
  { periodSec: 3 * HOUR, amp: 0.02 },
  { periodSec: 2 * MIN, amp: 0.01 },
];

/** Log-volume drift: 24-hour volume wanders over hours and days. */
export const VOLUME_OCTAVES: readonly Octave[] = [
  { periodSec: 7 * DAY, amp: 0.45 },
  { periodSec: 1 * DAY, amp: 0.2 },
  { periodSec: 2 * HOUR, amp: 0.06 },
  { periodSec: 10 * MIN, amp: 0.01 },
];

/** Sportsbook line drift in "strength" units (points for US sports); scaled by the caller. */
export const LINE_OCTAVES: readonly Octave[] = [
  { periodSec: 3 * DAY, amp: 0.6 },
  { periodSec: 8 * HOUR, amp: 0.3 },
  { periodSec: 40 * MIN, amp: 0.12 },
  { periodSec: 3 * MIN, amp: 0.05 },
];
