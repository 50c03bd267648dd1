/**
 * A sparkline: an inline SVG polyline scaled into a 100×24 box that stretches to the widget's
 * width. No chart library, no style attribute (strict CSP): its look is the stylesheet's `.spark`.
 */

/**
 * The SVG of `points` ([x, y], x from 0 to `xMax`), with a dashed line at `base` when given; an
 * empty box (it keeps its place, so nothing shifts when data comes) with fewer than two points.
 */
export function spark(points: ReadonlyArray<readonly [number, number]>, xMax: number, cls = '', base?: number): string {
  let inner = '';
  if (points.length > 1) {
    const ys = points.map((p) => p[1]).concat(base ?? []);
    const lo = Math.min(...ys);
    const span = Math.max(...ys) - lo;
    // A flat series runs through the middle.
    const y = (v: number) => (span ? 22 - ((v - lo) / span) * 20 : 12).toFixed(1);
    inner =
      `<polyline points="${points.map(([x, v]) => `${((x / (xMax || 1)) * 100).toFixed(1)},${y(v)}`).join(' ')}"/>` +
      (base === undefined ? '' : `<line x1="0" x2="100" y1="${y(base)}" y2="${y(base)}"/>`);
  }
  return `<svg class="spark ${cls}" viewBox="0 0 100 24" preserveAspectRatio="none" aria-hidden="true">${inner}</svg>`;
}
