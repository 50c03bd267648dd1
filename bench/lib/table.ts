/** The one table `npm run bench` prints, as text and as markdown. */

export interface Row {
  area: string;
  case: string;
  baseline: string;
  predictwire: string;
  ratio: string;
  target: string;
  /** "pass", "FAIL", or "" for figures reported without a target. */
  result: string;
}

export interface WireRow {
  endpoint: string;
  identity: number;
  gzip: number;
  br: number;
  /** Content-Encoding a browser's `gzip, deflate, br` got ("identity" when none). */
  browserGets: string;
}

const COLUMNS: Array<[keyof Row, string]> = [
  ['area', 'area'],
  ['case', 'case'],
  ['baseline', 'baseline'],
  ['predictwire', 'predictwire'],
  ['ratio', 'ratio'],
  ['target', 'target'],
  ['result', 'result'],
];

/** Thousands separators, no decimals: 81594.2 → "81,594". */
export const int = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');
/** Two decimals, "—" for NaN. */
export const fixed = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

function align(cells: string[][]): string[] {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
}

/** Plain-text table for the terminal. */
export function renderText(rows: readonly Row[], wire: readonly WireRow[]): string {
  const head = COLUMNS.map(([, h]) => h);
  const body = rows.map((r) => COLUMNS.map(([k]) => r[k]));
  const lines = align([head, ...body]);
  lines.splice(1, 0, '-'.repeat(Math.max(...lines.map((l) => l.length))));
  if (wire.length) {
    const w = align([
      ['bytes on the wire', 'identity', 'gzip', 'br', 'browser gets'],
      ...wire.map((r) => [r.endpoint, int(r.identity), int(r.gzip), int(r.br), r.browserGets]),
    ]);
    lines.push('', ...w);
  }
  return lines.join('\n');
}

const mdRow = (cells: string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;

/** The same as markdown, for bench/README.md. */
export function renderMarkdown(rows: readonly Row[], wire: readonly WireRow[]): string {
  const out = [
    mdRow(COLUMNS.map(([, h]) => h)),
    mdRow(COLUMNS.map(() => '---')),
    ...rows.map((r) => mdRow(COLUMNS.map(([k]) => r[k]))),
  ];
  if (wire.length) {
    out.push(
      '',
      mdRow(['bytes on the wire (body)', 'identity', 'gzip', 'br', 'browser gets']),
      mdRow(['---', '---:', '---:', '---:', '---']),
    );
    out.push(...wire.map((r) => mdRow([r.endpoint, int(r.identity), int(r.gzip), int(r.br), r.browserGets])));
  }
  return out.join('\n');
}
