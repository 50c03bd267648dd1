/**
 * The height a widget reserves before its first data, so the page does not shift when it arrives:
 * a typical payload's height for the kind, from its attributes (the broad widget's `limit`, the
 * league, `compact`) and the width it has. Measured on the simulator's payloads at 375 and 1280 px
 * (an event of four outcomes, a live market of two venues), plus their sparklines (24 px each); between
 * them it is interpolated.
 */

/** [height at 375 px, at 1280 px, share of it under `compact`]. */
type Size = readonly [number, number, number];
const SIZES: Readonly<Record<string, Size>> = {
  event: [777, 713, 0.81],
  sportsbook: [778, 430, 0.84],
  epl: [898, 528, 0.84],
  'live-market': [306, 245, 0.9],
  broad: [135, 120, 0.65],
};
/** One operator of the broad widget, and how many a page typically gets without `limit`. */
const BROAD_ROW: Size = [150, 132, 0.65];
const BROAD_TYPICAL = 8;

const at = ([narrow, wide]: Size, width: number) =>
  narrow + ((wide - narrow) * (Math.min(1280, Math.max(375, width || 1280)) - 375)) / 905;

/** Reserved height in px for the widget `attr` describes at `width` px. */
export function reservedHeight(attr: (name: string) => string | null, width: number): number {
  const kind = attr('kind') ?? '';
  const size = SIZES[kind === 'sportsbook' && attr('league') === 'EPL' ? 'epl' : kind];
  if (!size) return 60;
  let h = at(size, width);
  if (kind === 'broad') h += at(BROAD_ROW, width) * (Number(attr('limit')) || BROAD_TYPICAL);
  return Math.round(attr('compact') === null ? h : h * size[2]);
}
