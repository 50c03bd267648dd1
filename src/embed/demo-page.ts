/**
 * The demo page `npm start` links in its banner: the four widget kinds, light and dark, each next to
 * the two lines a publisher copies. Example slugs and leagues are ones the simulator serves.
 */

export interface DemoWidget {
  title: string;
  /** Attributes of the element, in the order shown. */
  attributes: Record<string, string>;
}

export const DEMO_WIDGETS: readonly DemoWidget[] = [
  { title: 'Event', attributes: { kind: 'event', slug: 'fed-december-2026', 'display-format': 'implied_pct' } },
  { title: 'Broad', attributes: { kind: 'broad', limit: '5' } },
  { title: 'Sportsbook', attributes: { kind: 'sportsbook', league: 'NBA' } },
  { title: 'Live market', attributes: { kind: 'live-market', asset: 'BTC', horizon: '15' } },
];

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The tag with its attributes (theme last, as a publisher would add it). */
const tag = (w: DemoWidget, theme?: string) =>
  `<predictwire-widget ${Object.entries({ ...w.attributes, ...(theme ? { theme } : {}) })
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ')}></predictwire-widget>`;

/** The two lines a publisher pastes: the script (from `publicBaseUrl`) and the element. */
export const snippet = (publicBaseUrl: string, w: DemoWidget, theme?: string): string =>
  `<script src="${publicBaseUrl}/v1/embed.js" async></script>\n${tag(w, theme)}`;

/** The whole page; the script is loaded from this origin, so api-base is not needed here. */
export function demoPage(publicBaseUrl: string): string {
  const sections = DEMO_WIDGETS.map((w) => {
    const themes = ['light', 'dark'].map(
      (theme) => `<figure class="${theme}"><figcaption>${esc(w.title)}, ${theme}</figcaption>${tag(w, theme === 'dark' ? 'dark' : undefined)}
<pre><code>${esc(snippet(publicBaseUrl, w, theme === 'dark' ? 'dark' : undefined))}</code></pre></figure>`,
    );
    return `<section><h2>${esc(w.title)}</h2><div class="pair">${themes.join('\n')}</div></section>`;
  });
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
</style>
<script src="/v1/embed.js" async></script>
</head>
<body>
<main>
<h1>predictwire widgets</h1>
<p>Each widget is one script and one element; copy the two lines under it into any page. Attributes: see the README, "Embed a widget".</p>
${sections.join('\n')}
</main>
</body>
</html>
`;
}
