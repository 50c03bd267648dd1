/**
 * GET /compliance: the compliance matrix (GET /v1/compliance) as a page a publisher's compliance
 * officer reads: active suspensions, each jurisdiction's operators shown and hidden with the rows
 * that decide it, and every row with its sources and review date. Plain HTML: no script, its one
 * style allowed by hash, light and dark, one column that reads on a phone.
 */
import type { CompliancePayload } from '../catalog/compliance/matrix.js';
import { escapeHtml as esc, styleOnlyCsp } from '../embed/fixed-page.js';

const STYLE = [
  ':root{color-scheme:light dark;--fg:#111827;--bg:#f9fafb;--card:#fff;--line:#d1d5db;--muted:#374151;--link:#1d4ed8;--ok:#065f46;--no:#991b1b;--warn:#92400e}',
  '@media (prefers-color-scheme:dark){:root{--fg:#f3f4f6;--bg:#030712;--card:#111827;--line:#374151;--muted:#d1d5db;--link:#93c5fd;--ok:#6ee7b7;--no:#fca5a5;--warn:#fcd34d}}',
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;color:var(--fg);background:var(--bg)}',
  'main{max-width:60rem;margin:0 auto;padding:12px}',
  'a{color:var(--link)}',
  'h1{font-size:1.6rem}h2{font-size:1.3rem;margin-top:2rem}h3{font-size:1.1rem}',
  'details,article{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px 12px;margin:8px 0}',
  'summary{cursor:pointer;font-weight:600}',
  'ul{padding-left:1.2rem}li{margin:4px 0;overflow-wrap:anywhere}',
  '.shown{color:var(--ok);font-weight:600}.hidden{color:var(--no);font-weight:600}.overdue{color:var(--warn);font-weight:600}',
  '.muted{color:var(--muted)}dl{margin:0}dt{font-weight:600}dd{margin:0 0 6px 0;overflow-wrap:anywhere}',
].join('');

/** The page's policy: its own inline style only; nothing loaded, no script, no form, not framed. */
export const COMPLIANCE_PAGE_CSP = styleOnlyCsp(STYLE);

const REASONS: Record<string, string> = {
  allowed: 'shown',
  not_listed: 'not listed (deny by default)',
  category: 'not listed for these surfaces',
  blocked: 'blocked',
  suspended: 'suspended',
};

const rowLink = (id: string) => `<a href="#row-${esc(id)}">${esc(id)}</a>`;
const list = (items: readonly string[]) => items.map(esc).join(', ');

function jurisdictionSection(j: CompliancePayload['jurisdictions'][number], names: Map<string, string>): string {
  const notListed: string[] = [];
  const items: string[] = [];
  let shown = 0;
  let partly = 0;
  for (const c of j.operators) {
    const name = names.get(c.operator) ?? c.operator;
    if (c.verdicts.length === 1 && c.verdicts[0]!.reason === 'not_listed') {
      notListed.push(name);
      continue;
    }
    const on = c.verdicts.filter((v) => v.shown).length;
    if (on === c.verdicts.length) shown++;
    else if (on > 0) partly++;
    const parts = c.verdicts.map((v) => {
      const what = `<span class="${v.shown ? 'shown' : 'hidden'}">${v.shown ? 'shown' : 'hidden'}</span> for ${list(v.surfaces)}`;
      const why = [
        REASONS[v.reason]!,
        ...(v.rows.length > 0 ? [v.rows.map(rowLink).join(', ')] : []),
        ...(v.suspension ? [`<a href="#suspensions">${esc(v.suspension)}</a>`] : []),
      ];
      return `${what} (${v.shown ? why.slice(1).join(': ') : why.join(': ')})`;
    });
    const site = c.destination ? `; clicks land on the site of ${rowLink(c.destination)}` : '';
    items.push(`<li><strong>${esc(name)}</strong>: ${parts.join('; ')}${site}</li>`);
  }
  if (notListed.length > 0) items.push(`<li><strong>${list(notListed)}</strong>: not listed (deny by default)</li>`);
  const extra = [
    j.disclosure.length > 0
      ? `Disclosures: ${j.disclosure.map(rowLink).join(', ')}.`
      : 'No disclosure: nothing may be shown.',
    j.inducement_ban ? `No offers: ${rowLink(j.inducement_ban)}.` : '',
  ].filter(Boolean);
  return `<details id="j-${esc(j.code)}"><summary>${esc(j.name)} (${esc(j.code)}): ${shown} shown, ${partly} partly</summary>
<ul>${items.join('')}</ul><p class="muted">${extra.join(' ')}</p></details>`;
}

function rowArticle(r: CompliancePayload['rows'][number], names: Map<string, string>): string {
  const ops = r.operators === 'all' ? 'every operator' : r.operators.map((id) => names.get(id) ?? id).join(', ');
  const fields: Array<[string, string]> = [
    ...(ops ? [['Operators', esc(ops)] as [string, string]] : []),
    ['Jurisdictions', r.jurisdictions.length > 0 ? list(r.jurisdictions) : 'none'],
    ...(r.table === 'allow' || r.table === 'blocks'
      ? [['Surfaces', r.categories ? list(r.categories) : 'every surface'] as [string, string]]
      : []),
    ...(r.min_age !== undefined ? [['Minimum age', String(r.min_age)] as [string, string]] : []),
    ...(r.url !== undefined
      ? [[r.table === 'destinations' ? 'Site' : 'Help service', esc(r.url)] as [string, string]]
      : []),
    ...(r.phone !== undefined
      ? [['Helpline', r.phone === null ? 'none confirmed' : esc(r.phone)] as [string, string]]
      : []),
    ...(r.text !== undefined ? [['Message', esc(r.text)] as [string, string]] : []),
    ['Why', esc(r.why)],
    [
      'Sources',
      `<ul>${r.sources.map((u) => `<li><a href="${esc(u)}" rel="noreferrer">${esc(u)}</a></li>`).join('')}</ul>`,
    ],
    ['Reviewed', `${esc(r.reviewed_on)}${r.overdue ? ' <span class="overdue">overdue for review</span>' : ''}`],
  ];
  return `<article id="row-${esc(r.id)}"><h4>${esc(r.id)}</h4><dl>${fields.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl></article>`;
}

const TABLE_TITLES: Record<string, string> = {
  allow: 'Allow rows: where an operator may be shown',
  blocks: "Blocks: a jurisdiction's own bans",
  inducement_bans: 'Inducement bans: no offers shown',
  destinations: 'Destinations: the site licensed there',
  disclosures: 'Disclosures: age, message, help service',
};

/** The page for `m`. */
export function compliancePage(m: CompliancePayload): string {
  const names = new Map(m.operators.map((o) => [o.id, o.name]));
  const overdue = m.rows.filter((r) => r.overdue).length;
  const refused = m.refused
    ? `<p class="hidden">A published rules document (revision ${m.refused.revision}) was refused; the rules below stay in force:</p><ul>${m.refused.problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>`
    : '';
  const suspensions =
    m.suspensions.length === 0
      ? '<p>None.</p>'
      : `<ul>${m.suspensions.map((s) => `<li><strong>${esc(names.get(s.operator) ?? s.operator)}</strong> in ${esc(s.jurisdiction)}, ${s.surface ? esc(s.surface) : 'every surface'}: since ${esc(s.at)}, by ${esc(s.by)}: ${esc(s.reason)} <span class="muted">(${esc(s.key)})</span></li>`).join('')}</ul>`;
  const tables = [...new Set(m.rows.map((r) => r.table))];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>predictwire compliance: who is shown where</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Who is shown where</h1>
<p>Rules revision ${m.rules_revision} (compliance revision ${m.compliance_revision}), as of ${esc(m.as_of)}. ${overdue} of ${m.rows.length} rows were reviewed more than ${m.review_days} days ago. The same as JSON: <a href="/v1/compliance">/v1/compliance</a>.</p>
${refused}
<h2 id="suspensions">Active suspensions (${m.suspensions.length})</h2>
${suspensions}
<h2 id="matrix">By jurisdiction</h2>
<p>Surfaces are contract categories: ${list(m.surfaces)}. ${esc(m.elsewhere)}</p>
${m.jurisdictions.map((j) => jurisdictionSection(j, names)).join('\n')}
<h2 id="rows">The rows</h2>
${tables
  .map(
    (t) =>
      `<h3>${esc(TABLE_TITLES[t] ?? t)}</h3>\n${m.rows
        .filter((r) => r.table === t)
        .map((r) => rowArticle(r, names))
        .join('\n')}`,
  )
  .join('\n')}
</main>
</body>
</html>
`;
}
