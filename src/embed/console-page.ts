/**
 * The advertiser console's page (/advertiser/console, docs/console.md): fixed HTML whose one script
 * (src/embed/console, bundled at start) and one stylesheet are inline and allowed by their SHA-256
 * in a strict Content-Security-Policy: nothing else runs, no other origin is reached, no page may
 * frame it. The page holds no data and no secret: the script asks the reports API with the key the
 * advertiser types, kept in the tab's sessionStorage.
 */
import { hashSource } from './fixed-page.js';
import { CURRENCY_CODES } from '../model/index.js';

const STYLE = `
:root{color-scheme:light dark;--bg:#f9fafb;--card:#fff;--fg:#111827;--muted:#4b5563;--border:#d1d5db;--accent:#1d4ed8;--accent-fg:#fff;--focus:#b45309;
--impressions:#6d28d9;--clicks:#1d4ed8;--registrations:#047857;--first-deposits:#b45309;--grid:#e5e7eb}
@media (prefers-color-scheme:dark){:root{--bg:#030712;--card:#111827;--fg:#f3f4f6;--muted:#cbd5e1;--border:#374151;--accent:#93c5fd;--accent-fg:#0b1220;--focus:#fbbf24;
--impressions:#c4b5fd;--clicks:#93c5fd;--registrations:#6ee7b7;--first-deposits:#fcd34d;--grid:#1f2937}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
header,main{max-width:1200px;margin:0 auto;padding:12px}
header{display:flex;flex-wrap:wrap;gap:8px;align-items:baseline;justify-content:space-between}
h1{font-size:1.3em;margin:0}h2{font-size:1.1em;margin:0 0 8px}
section{background:var(--card);border:1px solid var(--border);border-radius:8px;padding:12px;margin:0 0 12px;min-width:0}
form{display:flex;flex-wrap:wrap;gap:8px 12px;align-items:end}
label{display:flex;flex-direction:column;font-size:.85em;color:var(--muted);gap:2px}
input,select,button{font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--border);border-radius:6px;padding:6px 8px;min-width:0}
button{cursor:pointer}button.primary{background:var(--accent);color:var(--accent-fg);border-color:var(--accent);font-weight:600}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
[hidden]{display:none!important}
.note,.muted{color:var(--muted);font-size:.9em}.error{color:var(--fg);font-weight:600}
.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:8px;margin:0}
.tiles div{border:1px solid var(--border);border-radius:6px;padding:6px 8px;min-width:0}
.tiles dt{font-size:.85em;color:var(--muted)}.tiles dd{margin:0;font-size:1.2em;font-weight:700;overflow-wrap:anywhere}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(320px,100%),1fr));gap:12px}
figure{margin:0;min-width:0}figcaption{font-weight:600;margin-bottom:4px}
.legend{display:flex;gap:12px;font-size:.85em;margin:4px 0 0;padding:0;list-style:none}
.legend li::before{content:"";display:inline-block;width:.8em;height:.8em;margin-right:4px;border-radius:2px;vertical-align:-1px}
.chart{width:100%;height:auto;display:block}.chart .axis{font-size:12px;fill:var(--muted)}.chart .grid{stroke:var(--grid)}
.impressions{fill:var(--impressions)}.clicks{fill:var(--clicks)}.registrations{fill:var(--registrations)}.first-deposits{fill:var(--first-deposits)}
.legend .registrations::before{background:var(--registrations)}.legend .first-deposits::before{background:var(--first-deposits)}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%}caption{text-align:left;font-weight:600;margin-bottom:4px}
th,td{padding:4px 8px;border-top:1px solid var(--border);text-align:right;white-space:nowrap}
thead th{border-top:0;font-size:.85em;color:var(--muted);vertical-align:bottom}
tbody th{text-align:left;font-weight:600}.num{font-variant-numeric:tabular-nums}
@media (max-width:480px){header,main{padding:8px}section{padding:8px}.tiles{grid-template-columns:repeat(2,minmax(0,1fr))}}
`;

/** The column heads of the tables, after the row's own. */
const HEADS = [
  'Viewable impressions',
  'Clicks',
  'CTR',
  'Registrations',
  'First deposits',
  'Conversion rate',
  'Deposits',
  'Deposit amount',
  'Earnings',
  'Earnings per click',
];
const TILES: ReadonlyArray<[string, string]> = [
  ['impressions', 'Viewable impressions'],
  ['clicks', 'Clicks'],
  ['ctr', 'CTR'],
  ['registrations', 'Registrations'],
  ['first_deposits', 'First deposits'],
  ['conversion_rate', 'Conversion rate'],
  ['deposits', 'Deposits'],
  ['deposit_amount', 'Deposit amount'],
  ['earnings', 'Earnings'],
  ['earnings_per_click', 'Earnings per click'],
];

const table = (
  id: string,
  caption: string,
  first: string,
) => `<div class="scroll" tabindex="0" role="region" aria-labelledby="${id}-caption">
<table id="${id}"><caption id="${id}-caption">${caption}</caption>
<thead><tr><th scope="col">${first}</th>${HEADS.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody></tbody></table></div>`;

const body =
  () => `<header><h1>predictwire advertiser console</h1><p class="note">What your widgets and links did, by UTC day.</p></header>
<main>
<section id="signin" aria-labelledby="signin-h" hidden><h2 id="signin-h">Sign in</h2>
<form id="signin-form" method="post" autocomplete="off">
<label>Advertiser id <input id="advertiser-id" name="advertiser-id" autocomplete="username" required maxlength="64" spellcheck="false"></label>
<label>API key <input id="api-key" name="api-key" type="password" autocomplete="off" required maxlength="100"></label>
<button class="primary" type="submit">Show my figures</button></form>
<p id="signin-error" class="error" role="alert"></p>
<p class="note">Your id and key stay in this browser tab (sessionStorage) until you sign out or close it: never in an address, a cookie or anything saved on this device. The key goes only to this service, in a request header.</p>
</section>
<div id="board" hidden>
<section aria-labelledby="range-h"><h2 id="range-h">Signed in as <span id="who"></span></h2>
<form id="range">
<label>From <input id="from" type="date" required></label>
<label>To <input id="to" type="date" required></label>
<label>Currency <select id="currency">${CURRENCY_CODES.map((c) => `<option>${c}</option>`).join('')}</select></label>
<button class="primary" type="submit">Show</button>
<button id="csv" type="button">Download CSV</button>
<button id="signout" type="button">Sign out</button></form>
<p id="status" role="status"></p></section>
<section aria-labelledby="totals-h"><h2 id="totals-h">Totals</h2>
<dl id="totals" class="tiles">${TILES.map(([figure, label]) => `<div><dt>${label}</dt><dd data-figure="${figure}" class="num"></dd></div>`).join('')}</dl></section>
<section aria-labelledby="daily-h"><h2 id="daily-h">Per day</h2><div class="charts">
<figure><figcaption>Viewable impressions</figcaption><div id="chart-impressions"></div></figure>
<figure><figcaption>Clicks</figcaption><div id="chart-clicks"></div></figure>
<figure><figcaption>Conversions</figcaption><div id="chart-conversions"></div><ul class="legend"><li class="registrations">Registrations</li><li class="first-deposits">First deposits</li></ul></figure>
</div></section>
<section aria-labelledby="tables-h"><h2 id="tables-h">Breakdown</h2>
${table('by-operator', 'By operator', 'Operator')}
${table('by-widget', 'By widget kind', 'Widget kind')}
${table('by-country', 'By jurisdiction', 'Jurisdiction')}
</section>
</div>
</main>`;

/**
 * The page around `script` (the console's bundle), and its Content-Security-Policy: the inline
 * script and stylesheet by hash, requests to this origin only, nothing framed, no form posted
 * anywhere but here.
 */
export function consolePage(script: string): { html: string; csp: string } {
  // Inline, "</script" inside the bundle's strings would end the element early.
  const js = script.replace(/<\/(script)/gi, '<\\/$1');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>predictwire advertiser console</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
${body()}
<script>${js}</script>
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `script-src ${hashSource(js)}`,
    `style-src ${hashSource(STYLE)}`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}
