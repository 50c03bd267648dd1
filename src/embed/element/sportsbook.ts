/// <reference lib="dom" />
/** The sportsbook widget: the matchup, team trends, and every operator's lines with the leaders marked. */
import type { SportsbookWidgetPayload } from '../../widgets/payload-schemas.js';
import { esc, note, scroller, sr } from './html.js';

type Operator = SportsbookWidgetPayload['odds_matrix']['operators'][number];
type LineKey = Operator['best_odds'][number];

const COLUMNS: ReadonlyArray<readonly [string, ReadonlyArray<readonly [LineKey, string]>]> = [
  ['Spread', [['away_spread', 'Away'], ['home_spread', 'Home']]],
  ['Total', [['total_over', 'Over'], ['total_under', 'Under']]],
  ['Moneyline', [['away_moneyline', 'Away'], ['home_moneyline', 'Home'], ['draw_moneyline', 'Draw']]],
];

function line(op: Operator, key: LineKey, label: string): string {
  const value = op.lines[key];
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : `${value.line} (${value.odds})`;
  const best = op.best_odds.includes(key);
  return `<div${best ? ' class="best"' : ''}>${sr(`${label} `)}${esc(text)}${best ? ` <span class="badge">Best${sr(' odds')}</span>` : ''}</div>`;
}

/** `PRO_LIQUIDITY` reads as "Pro liquidity". */
const capability = (c: string) => c.charAt(0) + c.slice(1).toLowerCase().replace(/_/g, ' ');

/** Groups `<code>_record`, `<code>_record_wdl` and `<code>_ats_ou` per team. */
function trends(analytics: SportsbookWidgetPayload['team_analytics']): string {
  const teams = new Map<string, string[]>();
  for (const [key, value] of Object.entries(analytics)) {
    const m = /^(.+?)_(record_wdl|record|ats_ou)$/.exec(key);
    if (!m) continue;
    const parts = teams.get(m[1]!) ?? [];
    if (typeof value === 'string') parts.push(`${m[2] === 'record_wdl' ? 'W-D-L' : 'Record'} ${value}`);
    else parts.push(`ATS ${value.ats}`, `O/U ${value.ou}`);
    teams.set(m[1]!, parts);
  }
  if (!teams.size) return '';
  return `<ul class="trends">${[...teams].map(([code, parts]) => `<li><strong>${esc(code.toUpperCase())}</strong> ${esc(parts.join(' · '))}</li>`).join('')}</ul>`;
}

export function renderSportsbook(p: SportsbookWidgetPayload, locale: string | undefined): string {
  const start = new Date(p.match_meta.scheduled_time);
  const when = start.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const rows = p.odds_matrix.operators.map((op) =>
    `<tr><th scope="row">${esc(op.name)}${op.capabilities.length ? `<br><span class="muted small">${esc(op.capabilities.map(capability).join(', '))}</span>` : ''}</th>` +
    COLUMNS.map(([, keys]) => `<td>${keys.map(([k, label]) => line(op, k, label)).join('')}</td>`).join('') + '</tr>',
  );
  const table = `<table><caption class="sr">Lines for ${esc(p.match_meta.matchup)}</caption><thead><tr><th scope="col">Operator</th>${COLUMNS.map(([h, keys]) => `<th scope="col">${h} <span class="small">${keys.filter(([k]) => p.odds_matrix.operators.some((op) => op.lines[k] !== undefined)).map(([, label]) => label.toLowerCase()).join(' / ')}</span></th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
  return `<h2>${esc(p.match_meta.matchup)}</h2><p class="muted">${esc(p.league)} · <time datetime="${esc(p.match_meta.scheduled_time)}">${esc(when)}</time> · Upcoming</p>` +
    trends(p.team_analytics) +
    (rows.length ? scroller(`Lines for ${p.match_meta.matchup}`, table) : note('No sportsbook can be shown in your region.'));
}
