/**
 * The demo page `npm start` links in its banner: the four widget kinds, light and dark, each next to
 * the two lines a publisher copies; variants (locale, currency, odds format, theme, compact); and a
 * configurator that writes the snippet for the attributes picked. Example slugs and leagues are
 * ones the simulator serves: its event slugs roll with the calendar (the next Fed meeting), so the
 * page names the ones it lists on the day the page is made.
 */

import { simulatorSlug } from '../sources/simulator/event-catalog.js';
import { escapeHtml as esc } from './fixed-page.js';

export interface DemoWidget {
  title: string;
  /** Attributes of the element, in the order shown. */
  attributes: Record<string, string>;
}

/** The four kinds, one widget each, with the events the simulator lists at `now`. */
export const demoWidgets = (now: Date): readonly DemoWidget[] => [
  {
    title: 'Event',
    attributes: { kind: 'event', slug: simulatorSlug('KXFEDDECISION', now), 'display-format': 'implied_pct' },
  },
  { title: 'Broad', attributes: { kind: 'broad', limit: '5' } },
  { title: 'Sportsbook', attributes: { kind: 'sportsbook', league: 'NBA' } },
  { title: 'Live market', attributes: { kind: 'live-market', asset: 'BTC', horizon: '15' } },
];

/** One widget per variant a publisher may want to see before choosing (events as listed at `now`). */
export const demoVariants = (now: Date): readonly DemoWidget[] => [
  { title: 'German, euros', attributes: { kind: 'broad', limit: '3', locale: 'de', currency: 'EUR' } },
  { title: 'Japanese, yen', attributes: { kind: 'broad', limit: '3', locale: 'ja', currency: 'JPY' } },
  {
    title: 'Fractional odds (EPL)',
    attributes: { kind: 'sportsbook', league: 'EPL', 'odds-format': 'fractional', locale: 'en-GB' },
  },
  {
    title: 'Decimal odds, French',
    attributes: { kind: 'sportsbook', league: 'NFL', 'odds-format': 'decimal', locale: 'fr' },
  },
  {
    title: 'Theme follows the reader (auto)',
    attributes: { kind: 'event', slug: simulatorSlug('KXCPIYOY', now), theme: 'auto' },
  },
  { title: 'Compact, no horizon given', attributes: { kind: 'live-market', asset: 'BTC', compact: '' } },
];

/** The tag with its attributes (a valueless attribute such as compact written bare). */
const tag = (attributes: Record<string, string>) =>
  `<predictwire-widget ${Object.entries(attributes)
    .map(([k, v]) => (v === '' ? k : `${k}="${v}"`))
    .join(' ')}></predictwire-widget>`;

/**
 * The two lines a publisher pastes: the script (from `publicBaseUrl`; in the page's head, without
 * async, so each widget reserves its space before the first paint) and the element.
 */
export const snippet = (publicBaseUrl: string, w: DemoWidget, theme?: string): string =>
  `<script src="${publicBaseUrl}/v1/embed.js"></script>\n${tag({ ...w.attributes, ...(theme ? { theme } : {}) })}`;

const figure = (publicBaseUrl: string, w: DemoWidget, title: string, theme?: string, cls = '') =>
  `<figure${cls ? ` class="${cls}"` : ''}><figcaption>${esc(title)}</figcaption>${tag({ ...w.attributes, ...(theme ? { theme } : {}) })}
<pre><code>${esc(snippet(publicBaseUrl, w, theme))}</code></pre></figure>`;

/** The configurator's fields: attribute, label, kinds it applies to ('' for all), choices (none: free text). */
const FIELDS: ReadonlyArray<readonly [string, string, string, (readonly string[])?]> = [
  ['kind', 'Kind', '', ['event', 'broad', 'sportsbook', 'live-market']],
  ['slug', 'Event slug', 'event'],
  ['display-format', 'Price format', 'event', ['', 'cents', 'implied_pct', 'decimal']],
  ['limit', 'Operators', 'broad'],
  ['currency', 'Currency', 'broad', ['', 'USD', 'EUR', 'GBP', 'JPY', 'CAD', 'AUD', 'BRL', 'MXN', 'CHF', 'INR']],
  ['league', 'League', 'sportsbook', ['NBA', 'NFL', 'NCAAB', 'EPL']],
  ['team-context', 'Team', 'sportsbook'],
  ['odds-format', 'Odds format', 'sportsbook', ['', 'american', 'decimal', 'fractional']],
  ['asset', 'Asset', 'live-market', ['BTC', 'ETH', 'SOL']],
  ['horizon', 'Horizon (minutes)', 'live-market', ['', '5', '15']],
  ['locale', 'Locale', '', ['', 'en', 'de', 'es', 'fr', 'pt', 'en-GB', 'ja']],
  ['theme', 'Theme', '', ['', 'dark', 'auto']],
  ['compact', 'Compact', '', ['', 'yes']],
  ['hide-when-empty', 'Hide when empty', '', ['', 'yes']],
];

/** The configurator, its slug field filled with `slug` (the page's event widget's). */
function configurator(publicBaseUrl: string, slug: string): string {
  const fields = FIELDS.map(([name, label, kinds, choices]) => {
    const id = `cfg-${name}`;
    const input = choices
      ? `<select id="${id}" name="${name}">${choices.map((c) => `<option value="${c}">${c || '(default)'}</option>`).join('')}</select>`
      : `<input id="${id}" name="${name}" value="${name === 'slug' ? esc(slug) : ''}">`;
    return `<p data-kinds="${kinds}"><label for="${id}">${esc(label)}</label> ${input}</p>`;
  });
  // The page's own script: builds the element from the form and writes its snippet.
  const script = `(() => {
const form = document.getElementById('cfg'), out = document.getElementById('cfg-snippet'), preview = document.getElementById('cfg-preview');
const base = ${JSON.stringify(publicBaseUrl)};
function update() {
  const kind = form.kind.value, attrs = [];
  for (const p of form.querySelectorAll('p[data-kinds]')) {
    const on = !p.dataset.kinds || p.dataset.kinds === kind;
    p.hidden = !on;
    const f = p.querySelector('input,select');
    if (!on || !f.value) continue;
    attrs.push(f.value === 'yes' ? f.name : f.name + '="' + f.value.replace(/[&"<]/g, (c) => '&#' + c.charCodeAt(0) + ';') + '"');
  }
  const el = '<predictwire-widget ' + attrs.join(' ') + '></predictwire-widget>';
  out.textContent = '<script src="' + base + '/v1/embed.js"></' + 'script>\\n' + el;
  preview.innerHTML = el;
}
form.addEventListener('input', update);
update();
})();`;
  return `<section><h2>Configure your snippet</h2><div class="pair"><form id="cfg">${fields.join('')}</form>
<div><pre><code id="cfg-snippet"></code></pre><div id="cfg-preview"></div></div></div><script>${script}</script></section>`;
}

/** The whole page, with the events listed at `now`; the script is loaded from this origin, so api-base is not needed here. */
export function demoPage(publicBaseUrl: string, now: Date): string {
  const widgets = demoWidgets(now);
  const kinds = widgets.map((w) => {
    const pair = [
      figure(publicBaseUrl, w, `${w.title}, light`),
      figure(publicBaseUrl, w, `${w.title}, dark`, 'dark', 'dark'),
    ];
    return `<section><h2>${esc(w.title)}</h2><div class="pair">${pair.join('\n')}</div></section>`;
  });
  const variants = `<section><h2>Variants</h2><div class="pair">${demoVariants(now)
    .map((w) => figure(publicBaseUrl, w, w.title))
    .join('\n')}</div></section>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>predictwire widgets: demo</title>
<link rel="icon" href="data:,">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;padding:8px;max-width:1200px;color:#111827;background:#f9fafb}
.pair{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(300px,100%),1fr));gap:16px}
figure{margin:0;padding:12px;border-radius:8px;background:#fff;border:1px solid #e5e7eb;min-width:0}
figure.dark{background:#030712;color:#f3f4f6}
@media (max-width:400px){figure{padding:6px}}
figcaption{font-weight:600;margin-bottom:8px}
pre{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;color:#111827;padding:8px;border-radius:6px;font-size:12px}
form p{display:flex;justify-content:space-between;gap:8px;margin:4px 0}form p[hidden]{display:none}
</style>
<script src="/v1/embed.js"></script>
</head>
<body>
<main>
<h1>predictwire widgets</h1>
<p>Each widget is one script and one element; copy the two lines under it into any page (the script goes in the page's head). Attributes, events and the Content-Security-Policy a page needs: docs/embed.md.</p>
${kinds.join('\n')}
${variants}
${configurator(publicBaseUrl, widgets.find((w) => w.attributes.kind === 'event')!.attributes.slug!)}
</main>
</body>
</html>
`;
}
