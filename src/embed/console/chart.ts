/// <reference lib="dom" />
/**
 * A daily bar chart as inline SVG, drawn by the console itself (no chart library, no style
 * attribute: colours come from the page's stylesheet through classes). One group of bars per day,
 * one bar per series; each bar names its day and value in a <title> (a tooltip), and the chart as a
 * whole is an image whose label sums it up for screen readers (the tables below give every figure).
 */
import type { Formats } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
const H = 200;
const LEFT = 48;
const BOTTOM = 22;
const TOP = 8;

export interface Series {
  name: string;
  /** The class that colours its bars (the page's stylesheet). */
  cls: string;
  values: readonly number[];
}

function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * The chart of `series` over `days` (YYYY-MM-DD), its label saying what it shows, drawn `width`
 * units wide: the width it is shown at, so its text reads at its own size.
 */
export function barChart(
  label: string,
  days: readonly string[],
  series: readonly Series[],
  fmt: Formats,
  width = 640,
): SVGSVGElement {
  const W = Math.max(240, Math.round(width));
  // An even top, so the middle gridline is a whole number too.
  const highest = Math.max(0, ...series.flatMap((s) => s.values));
  const max = highest <= 1 ? 1 : Math.ceil(highest / 2) * 2;
  const totals = series.map((s) => `${s.name} ${fmt.count(s.values.reduce((a, b) => a + b, 0))}`).join(', ');
  const span = days.length > 0 ? `${fmt.day(days[0]!)} – ${fmt.day(days[days.length - 1]!)}` : '';
  const svg = el('svg', {
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-label': `${label}, ${span}: ${totals}`,
    class: 'chart',
  });
  const plotH = H - TOP - BOTTOM;
  const y = (v: number) => TOP + plotH - (v / max) * plotH;
  // Gridlines at 0, half and the top, with their values.
  for (const v of max === 1 ? [0, 1] : [0, max / 2, max]) {
    svg.append(el('line', { x1: LEFT, x2: W, y1: y(v), y2: y(v), class: 'grid' }));
    svg.append(el('text', { x: LEFT - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, fmt.count(v)));
  }
  const slot = (W - LEFT) / Math.max(1, days.length);
  const barW = Math.max(1, (slot * 0.8) / series.length);
  days.forEach((day, d) => {
    series.forEach((s, i) => {
      const v = s.values[d] ?? 0;
      const bar = el('rect', {
        x: LEFT + d * slot + slot * 0.1 + i * barW,
        y: y(v),
        width: barW,
        height: Math.max(0, TOP + plotH - y(v)),
        class: `bar ${s.cls}`,
        'data-day': day,
        'data-series': s.cls,
        'data-value': v,
      });
      bar.append(el('title', {}, `${fmt.day(day)}: ${fmt.count(v)} ${s.name}`));
      svg.append(bar);
    });
  });
  // The first and last day under the axis (every day's name is in its bars' titles).
  if (days.length > 0) {
    svg.append(el('text', { x: LEFT, y: H - 6, class: 'axis' }, fmt.day(days[0]!)));
    if (days.length > 1)
      svg.append(el('text', { x: W, y: H - 6, 'text-anchor': 'end', class: 'axis' }, fmt.day(days[days.length - 1]!)));
  }
  return svg;
}
