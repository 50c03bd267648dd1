/**
 * The height a widget reserves before its first data, so the page does not shift when it arrives:
 * a typical payload's height for the kind, from its attributes (the broad widget's `limit`, the
 * compact layout) and the width it has. Measured on the simulator's payloads at 1280 and 375 px.
 */

/** Heights in px: [wide, narrow (under 480 px)]. */
const BASE: Readonly<Record<string, readonly [number, number]>> = {
  event: [520, 560],
  broad: [110, 130],
  sportsbook: [420, 640],
  'live-market': [330, 370],
};
/** One operator of the broad widget. */
const BROAD_ROW: readonly [number, number] = [130, 170];
const BROAD_DEFAULT_LIMIT = 10;

/** Reserved height in px for the widget `attr` describes at `width` px. */
export function reservedHeight(attr: (name: string) => string | null, width: number): number {
  const kind = attr('kind') ?? '';
  const i = width && width < 480 ? 1 : 0;
  let h = BASE[kind]?.[i] ?? 60;
  if (kind === 'broad') h += BROAD_ROW[i] * (Number(attr('limit')) || BROAD_DEFAULT_LIMIT);
  return attr('compact') === null ? h : Math.round(h * 0.75);
}
