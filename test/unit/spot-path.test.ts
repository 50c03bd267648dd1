/** The live window's spot path: the strike first, then the newest tick of each slot, bounded. */
import { describe, expect, it } from 'vitest';
import { SPOT_PATH_POINTS, SpotPath } from '../../src/live/spot-path.js';
import { windowAt } from '../../src/live/window.js';

const W = windowAt(Date.parse('2026-11-22T14:05:00.000Z'), 5);
const SLOT_MS = (W.endMs - W.startMs) / SPOT_PATH_POINTS;

describe('SpotPath', () => {
  it('starts at the strike and keeps the newest tick of each slot', () => {
    const path = new SpotPath(W);
    path.add(W.startMs + 100, 1); // the strike's slot: the strike stands for it
    path.add(W.startMs + SLOT_MS + 10, 2);
    path.add(W.startMs + SLOT_MS + 900, 3);
    path.add(W.startMs + SLOT_MS + 500, 4); // late, older than the slot's newest
    path.add(W.startMs + 7 * SLOT_MS, 5);
    path.add(W.startMs - 1, 6); // the window before
    path.add(W.endMs, 7); // the next window
    expect(path.points(100)).toEqual([
      [W.startMs, 100],
      [W.startMs + SLOT_MS + 900, 3],
      [W.startMs + 7 * SLOT_MS, 5],
    ]);
  });

  it('holds at most one point per slot however many ticks come', () => {
    const path = new SpotPath(W);
    for (let ms = W.startMs; ms < W.endMs; ms += 250) path.add(ms, ms % 1000);
    const points = path.points(1);
    expect(points).toHaveLength(SPOT_PATH_POINTS);
    // Each slot's last tick: 250 ms before the next slot begins.
    expect(points.at(-1)).toEqual([W.endMs - 250, (W.endMs - 250) % 1000]);
  });
});
