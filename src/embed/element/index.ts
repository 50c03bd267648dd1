/// <reference lib="dom" />
/**
 * <predictwire-widget>: one tag renders a predictwire widget in Shadow DOM and keeps it current.
 * Attributes (docs/embed.md): kind, slug, display-format, limit, currency, league, team-context,
 * asset, horizon, fallback-geo, advertiser-id, locale, theme, api-base.
 */
import type { BroadWidgetPayload, EventWidgetPayload, LiveMarketPayload, SportsbookWidgetPayload } from '../../widgets/payload-schemas.js';
import { renderBroad } from './broad.js';
import { renderEvent } from './event.js';
import { Feed } from './feed.js';
import { esc, footer } from './html.js';
import { clock, renderLive } from './live.js';
import { ATTRIBUTES, widgetRequest, type WidgetRequest } from './request.js';
import { renderSportsbook } from './sportsbook.js';
import { STYLES } from './styles.js';

type Payload = (BroadWidgetPayload | EventWidgetPayload | SportsbookWidgetPayload | LiveMarketPayload) & { stale?: true; resolved_geo: string };

// The API origin defaults to the origin this script was loaded from (read while it executes).
const SCRIPT_ORIGIN = (() => {
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  return src ? new URL(src).origin : location.origin;
})();

const TITLES: Record<WidgetRequest['kind'], string> = {
  event: 'Event odds comparison',
  broad: 'Operator comparison',
  sportsbook: 'Sportsbook lines',
  'live-market': 'Live up/down market',
};

function body(p: Payload, locale: string | undefined): string {
  switch (p.widget_class) {
    case 'broad': return renderBroad(p);
    case 'event-specific': return renderEvent(p);
    case 'sportsbook': return renderSportsbook(p, locale);
    case 'live-market': return renderLive(p);
  }
}

/** When the payload's data last changed; the sportsbook payload does not say. */
const updatedAt = (p: Payload): string | undefined =>
  'last_verified_timestamp' in p ? p.last_verified_timestamp : 'timestamp' in p ? p.timestamp : undefined;

class PredictwireWidget extends HTMLElement {
  static readonly observedAttributes = ATTRIBUTES;
  readonly #root = this.attachShadow({ mode: 'open' });
  #feed?: Feed;
  #restart = false;
  #payload?: Payload;
  /** The payload without its countdown: when only the countdown moved, nothing is re-rendered. */
  #shape = '';
  #problem = '';
  /** performance.now() at which the live window ends, for the local countdown. */
  #deadline = 0;
  #ticker?: ReturnType<typeof setInterval>;

  connectedCallback(): void {
    this.#schedule();
  }

  disconnectedCallback(): void {
    this.#stop();
  }

  #stop(): void {
    this.#feed?.stop();
    this.#feed = undefined;
    clearInterval(this.#ticker);
  }

  attributeChangedCallback(): void {
    if (this.isConnected) this.#schedule();
  }

  /** Attribute changes arrive one by one: restart once after the last of them. */
  #schedule(): void {
    if (this.#restart) return;
    this.#restart = true;
    queueMicrotask(() => {
      this.#restart = false;
      if (this.isConnected) this.#start();
    });
  }

  #start(): void {
    this.#stop();
    this.#payload = undefined;
    this.#shape = '';
    this.#problem = '';
    const req = widgetRequest((n) => this.getAttribute(n), SCRIPT_ORIGIN);
    if (typeof req === 'string') return this.#paint(req, false);
    this.#paint('', true);
    this.#feed = new Feed(req, {
      data: (p) => this.#show(p as Payload),
      error: (message, retrying) => {
        this.#problem = message;
        this.#paint(message, retrying);
      },
    });
    this.#feed.start();
    if (req.kind === 'live-market') this.#ticker = setInterval(() => this.#tick(), 1000);
  }

  #show(p: Payload): void {
    this.#payload = p;
    this.#problem = '';
    if ('seconds_left' in p) this.#deadline = performance.now() + p.seconds_left * 1000;
    const shape = JSON.stringify({ ...p, seconds_left: 0 });
    if (shape === this.#shape) return this.#tick();
    this.#shape = shape;
    this.#paint('', true);
  }

  /** The countdown runs locally between pushes; at zero the next window is fetched. */
  #tick(): void {
    if (!this.#payload || !('seconds_left' in this.#payload)) return;
    const left = (this.#deadline - performance.now()) / 1000;
    const el = this.#root.querySelector('.countdown');
    if (el) el.textContent = clock(left);
    if (left <= 0 && left > -1) void this.#feed?.poll(true);
  }

  /** Renders the payload (if any) with a message; keeps focus on the same link across re-renders. */
  #paint(message: string, retrying: boolean): void {
    const locale = this.getAttribute('locale') ?? undefined;
    const focused = (this.#root.activeElement as HTMLElement | null)?.dataset?.k;
    const p = this.#payload;
    const kind = this.getAttribute('kind') ?? '';
    const label = TITLES[kind as WidgetRequest['kind']] ?? 'predictwire widget';
    let content: string;
    if (p) {
      content = (message ? `<p class="alert" role="status">Showing the last data received; ${retrying ? 'retrying' : 'not updating'}: ${esc(message)}</p>` : '') +
        (p.stale ? '<p class="alert">These prices may be delayed: a data source is not updating.</p>' : '') +
        body(p, locale) + footer(p.resolved_geo, updatedAt(p), locale);
    } else if (message || this.#problem) {
      content = `<p class="alert" role="alert"><strong>This widget is unavailable right now.</strong> ${esc(message)}${retrying ? ' Retrying…' : ''}</p>`;
    } else {
      content = '<p class="muted" role="status">Loading…</p>';
    }
    this.#root.innerHTML = `<style>${STYLES}</style><section class="w" part="widget" aria-label="${esc(label)}"${locale ? ` lang="${esc(locale)}"` : ''}>${content}</section>`;
    if (focused) (this.#root.querySelector(`[data-k="${CSS.escape(focused)}"]`) as HTMLElement | null)?.focus();
    this.#tick();
  }
}

if (!customElements.get('predictwire-widget')) customElements.define('predictwire-widget', PredictwireWidget);
