/// <reference lib="dom" />
/**
 * The widget's stylesheet, adopted as a constructable stylesheet (`adoptedStyleSheets`): no
 * `<style>` element and no style attribute, so it applies under a strict Content-Security-Policy
 * (`style-src 'self'`). Every colour, the font and the radius are CSS custom properties (--pw-*) a
 * publisher may set on the element; theme="dark" (or "auto" in a dark colour scheme) changes the
 * defaults. Default pairs keep WCAG AA contrast in both themes.
 */
const DARK = `--bg:var(--pw-bg,#111827);--fg:var(--pw-fg,#f3f4f6);--muted:var(--pw-muted,#cbd5e1);--border:var(--pw-border,#374151);
--accent:var(--pw-accent,#93c5fd);--accent-fg:var(--pw-accent-fg,#0b1220);--best-bg:var(--pw-best-bg,#6ee7b7);--best-fg:var(--pw-best-fg,#052e1b);
--up:var(--pw-up,#6ee7b7);--down:var(--pw-down,#fca5a5);--focus:var(--pw-focus,#fbbf24);--row:var(--pw-highlight,#0f2e25)`;

export const STYLES = `
:host{--bg:var(--pw-bg,#fff);--fg:var(--pw-fg,#111827);--muted:var(--pw-muted,#4b5563);--border:var(--pw-border,#d1d5db);
--accent:var(--pw-accent,#1d4ed8);--accent-fg:var(--pw-accent-fg,#fff);--best-bg:var(--pw-best-bg,#065f46);--best-fg:var(--pw-best-fg,#fff);
--up:var(--pw-up,#047857);--down:var(--pw-down,#b91c1c);--focus:var(--pw-focus,#b45309);--row:var(--pw-highlight,#ecfdf5);
display:block;min-width:0;max-width:100%;font:14px/1.4 var(--pw-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);color:var(--fg)}
:host([theme=dark]){${DARK}}
@media (prefers-color-scheme:dark){:host([theme=auto]){${DARK}}}
:host([hidden]){display:none}
.w{container-type:inline-size;position:relative;background:var(--bg);border:1px solid var(--border);border-radius:var(--pw-radius,10px);padding:12px;overflow-wrap:anywhere}
:host([compact]){font-size:13px}:host([compact]) .w{padding:6px 8px}:host([compact]) .summary,:host([compact]) .trends,:host([compact]) .ops .facts,:host([compact]) .outcome .muted{display:none}
h2{font-size:1.1em;margin:0 0 6px}h3{font-size:1em;margin:8px 0 2px}
a{color:var(--accent)}
a:focus-visible,button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.sr,.outcome+.outcome thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.muted{color:var(--muted)}.small{font-size:.85em;font-weight:400}.note{margin:0;padding:8px;border:1px dashed var(--border);border-radius:6px}
.facts{display:flex;flex-wrap:wrap;gap:4px 16px;margin:4px 0}.facts div{min-width:0}.facts dt{color:var(--muted);font-size:.85em}.facts dd{margin:0;font-weight:600}
.ops{list-style:none;margin:0;padding:0}.ops li{border-top:1px solid var(--border);padding:8px 0}
.head{display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}.rank{font-weight:700;min-width:1.6em}.rank::before{content:"#"}.rating{margin-left:auto}
.promo,.terms{margin:4px 0}.code{font-size:.9em}code{font-weight:700;border:1px dashed var(--border);padding:0 4px;border-radius:4px}
.actions{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:4px 0 0}
.cta{display:inline-block;background:var(--accent);color:var(--accent-fg);border-radius:6px;padding:4px 10px;text-decoration:none;font-weight:600;white-space:nowrap}
.op{font-weight:600}
.badge{display:inline-block;background:var(--best-bg);color:var(--best-fg);border-radius:4px;padding:0 5px;font-size:.75em;font-weight:700;white-space:nowrap}
table{border-collapse:collapse;width:100%;font:inherit;color:inherit}th,td{text-align:left;padding:4px 6px;border-top:1px solid var(--border);vertical-align:top}
thead th{font-size:.85em;color:var(--muted);border-top:0}thead td{border-top:0}.num{font-variant-numeric:tabular-nums;white-space:nowrap}
tr.best,div.best{background:var(--row)}
tr.more{display:none}table.open tr.more{display:table-row}
.toggle{font:inherit;font-size:.85em;color:var(--accent);background:none;border:0;padding:4px 0;cursor:pointer;text-decoration:underline}
.pct{float:right}.bar{height:4px;background:var(--border);border-radius:2px}.bar span{display:block;height:100%;background:var(--accent);border-radius:2px}
.outcome p{margin:2px 0}
.trends{margin:4px 0;padding-left:18px}
.spark{display:block;width:100%;height:24px;color:var(--accent)}.spark *{fill:none;stroke:currentColor;stroke-width:1.5;vector-effect:non-scaling-stroke}.spark line{stroke:var(--muted);stroke-dasharray:3}
.live{display:flex;flex-wrap:wrap;gap:4px 14px}.spot{font-variant-numeric:tabular-nums}.up{color:var(--up)}.down{color:var(--down)}
.alert{margin:0 0 8px;padding:6px 8px;border-left:4px solid var(--down)}
.ad{display:flex;justify-content:space-between;margin:0 0 4px;font-size:.75em;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.age{border:1px solid var(--muted);border-radius:4px;padding:0 4px}
.rg{margin:8px 0 0;font-size:.8em;color:var(--muted)}
@container (max-width:420px){th,td{padding:4px 3px}.cta{padding:3px 7px}
.sb thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.sb tr{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));border-top:1px solid var(--border)}
.sb th[scope=row]{grid-column:1/-1}.sb th,.sb td{border:0}
.sb td::before{content:attr(data-h) " " attr(data-s);display:block;font-size:.8em;color:var(--muted)}}
footer{display:flex;flex-wrap:wrap;gap:2px 12px;margin-top:10px;font-size:.8em;color:var(--muted)}
`;

let sheet: CSSStyleSheet | undefined;

/**
 * Styles a shadow root: one constructable stylesheet shared by every widget on the page. A browser
 * without constructable stylesheets (before Safari 16.4) gets a `<style>` element instead, which a
 * strict CSP blocks; every current browser takes the first path.
 */
export function applyStyles(root: ShadowRoot): void {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
    if (!sheet) (sheet = new CSSStyleSheet()).replaceSync(STYLES);
    root.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement('style');
    style.textContent = STYLES;
    root.append(style);
  }
}
