/// <reference lib="dom" />
/**
 * The sportsbook widget: the matchup, team trends, and every operator's lines with the leaders
 * marked. On narrow widths the styles stack each operator's row (its cells then carry their column's
 * name and sides, `data-h` and `data-s`), so no column is off-screen.
 */
import type { SportsbookWidgetPayload } from '../../widgets/payload-schemas.js';
import { localNumber } from './format.js';
import { cta, esc, note, sr } from './html.js';
import type { Labels } from './labels.js';

/** Issue "Lawful where shown" adds each operator's signed click link; absent until the API sends it. */
type Operator = SportsbookWidgetPayload['odds_matrix']['operators'][number] & { routing?: { web_url: string } };
type LineKey = Operator['best_odds'][number];

/** Column headings and the side each line is on, as keys of the labels table. */
type Heading = 'spread' | 'total' | 'moneyline';
type Side = 'away' | 'home' | 'over' | 'under' | 'draw';
const COLUMNS: ReadonlyArray<readonly [Heading, ReadonlyArray<readonly [LineKey, Side]>]> = [
  [
    'spread',
    [
      ['away_spread', 'away'],
      ['home_spread', 'home'],
    ],
  ],
  [
    'total',
    [
      ['total_over', 'over'],
      ['total_under', 'under'],
    ],
  ],
  [
    'moneyline',
    [
      ['away_moneyline', 'away'],
      ['home_moneyline', 'home'],
      ['draw_moneyline', 'draw'],
    ],
  ],
];

function line(
  L: Labels,
  op: Operator,
  key: LineKey,
  label: string,
  compared: ReadonlySet<LineKey>,
  locale: string | undefined,
): string {
  const value = op.lines[key];
  if (value === undefined) return '';
  const text = localNumber(typeof value === 'string' ? value : `${value.line} (${value.odds})`, locale);
  // A line only one operator quotes is no comparison: no badge then.
  const best = compared.has(key) && op.best_odds.includes(key);
  return `<div${best ? ' class="best"' : ''}>${sr(`${label} `)}${esc(text)}${best ? ` <span class="badge">${esc(L.best)}${sr(` ${L.bestSr}`)}</span>` : ''}</div>`;
}

/** `PRO_LIQUIDITY` reads as "Pro liquidity". */
const capability = (c: string) => c.charAt(0) + c.slice(1).toLowerCase().replace(/_/g, ' ');

/** Groups `<code>_record`, `<code>_record_wdl` and `<code>_ats_ou` per team. */
function trends(analytics: SportsbookWidgetPayload['team_analytics'], L: Labels): string {
  const teams = new Map<string, string[]>();
  for (const [key, value] of Object.entries(analytics)) {
    const m = /^(.+?)_(record_wdl|record|ats_ou)$/.exec(key);
    if (!m) continue;
    const parts = teams.get(m[1]!) ?? [];
    if (typeof value === 'string') parts.push(`${m[2] === 'record_wdl' ? L.wdl : L.record} ${value}`);
    else parts.push(`${L.ats} ${value.ats}`, `${L.ou} ${value.ou}`);
    teams.set(m[1]!, parts);
  }
  if (!teams.size) return '';
  return `<ul class="trends">${[...teams].map(([code, parts]) => `<li><strong>${esc(code.toUpperCase())}</strong> ${esc(parts.join(' · '))}</li>`).join('')}</ul>`;
}

/** `locale` is the attribute as given (it formats the start time); `L` has the words. */
export function renderSportsbook(p: SportsbookWidgetPayload, L: Labels, locale: string | undefined): string {
  const start = new Date(p.match_meta.scheduled_time);
  const when = start.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const ops: Operator[] = p.odds_matrix.operators;
  const compared = new Set(
    COLUMNS.flatMap(([, keys]) => keys.map(([k]) => k)).filter(
      (k) => ops.filter((op) => op.lines[k] !== undefined).length > 1,
    ),
  );
  const sides = (keys: ReadonlyArray<readonly [LineKey, Side]>) =>
    keys
      .filter(([k]) => p.odds_matrix.operators.some((op) => op.lines[k] !== undefined))
      .map(([, side]) => L[side].toLocaleLowerCase(L.lang))
      .join(' / ');
  const sideNames = COLUMNS.map(([, keys]) => sides(keys));
  const rows = ops.map(
    (op, i) =>
      `<tr><th scope="row">${op.routing?.web_url ? cta(L, op.routing.web_url, op.name, op.name, `s:${i}`, 'op') : esc(op.name)}${op.capabilities.length ? `<br><span class="muted small">${esc(op.capabilities.map(capability).join(', '))}</span>` : ''}</th>` +
      COLUMNS.map(
        ([h, keys], c) =>
          `<td data-h="${esc(L[h])}" data-s="${esc(sideNames[c])}">${keys.map(([k, side]) => line(L, op, k, L[side], compared, locale)).join('')}</td>`,
      ).join('') +
      '</tr>',
  );
  const table = `<table class="sb"><caption class="sr">${esc(L.linesFor(p.match_meta.matchup))}</caption><thead><tr><th scope="col">${esc(L.operator)}</th>${COLUMNS.map(([h], c) => `<th scope="col">${esc(L[h])} <span class="small">${esc(sideNames[c])}</span></th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
  return (
    `<h2>${esc(p.match_meta.matchup)}</h2><p class="muted">${esc(p.league)} · <time datetime="${esc(p.match_meta.scheduled_time)}">${esc(when)}</time> · ${esc(L.upcoming)}</p>` +
    trends(p.team_analytics, L) +
    (rows.length ? table : note(L.noSportsbook))
  );
}
