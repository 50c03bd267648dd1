/**
 * The spot's path through one contract window since its strike, for the live market's sparkline:
 * the window is cut into {@link SPOT_PATH_POINTS} equal slots (5 s of a 5-minute window, 15 s of a
 * 15-minute one) and each slot keeps its newest tick, so the path is bounded whatever the tick rate.
 * The first slot is the strike's: the path starts with the strike at the window start.
 */
import type { ContractWindow } from './window.js';

/** At most this many points, the strike included. */
export const SPOT_PATH_POINTS = 60;

/** [epoch ms of the tick, price]. */
export type PathPoint = readonly [number, number];

export class SpotPath {
  /** By slot, 1..SPOT_PATH_POINTS-1 (slot 0 is the strike's). */
  readonly #slots: Array<PathPoint | undefined> = [];
  readonly #slotMs: number;

  constructor(readonly window: ContractWindow) {
    this.#slotMs = (window.endMs - window.startMs) / SPOT_PATH_POINTS;
  }

  /** Folds in a tick; one outside the window, or in the strike's slot, changes nothing. */
  add(tickMs: number, price: number): void {
    if (tickMs < this.window.startMs || tickMs >= this.window.endMs) return;
    const slot = Math.floor((tickMs - this.window.startMs) / this.#slotMs);
    if (slot === 0) return;
    const held = this.#slots[slot];
    if (!held || tickMs >= held[0]) this.#slots[slot] = [tickMs, price];
  }

  /** The path from `strike` on, oldest first. */
  points(strike: number): PathPoint[] {
    const out: PathPoint[] = [[this.window.startMs, strike]];
    for (const p of this.#slots) if (p) out.push(p);
    return out;
  }
}
