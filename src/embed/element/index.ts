/// <reference lib="dom" />
/**
 * <predictwire-widget>: one tag renders a predictwire widget in Shadow DOM and keeps it current.
 * Attributes (docs/embed.md): kind, slug, display-format, limit, currency, league, team-context,
 * asset, horizon, fallback-geo, advertiser-id, locale, theme, api-base.
 */
import { Feed } from './feed.js';
import { labelsFor } from './labels.js';
import { clock } from './live.js';
import { ATTRIBUTES, widgetRequest } from './request.js';
import { STYLES } from './styles.js';
import { renderView, type Payload } from './view.js';

// The API origin defaults to the origin this script was loaded from (read while it executes).
const SCRIPT_ORIGIN = (() => {
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  return src ? new URL(src).origin : location.origin;
})();

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
    const req = widgetRequest((n) => this.getAttribute(n), SCRIPT_ORIGIN, labelsFor(this.getAttribute('locale')));
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

  /**
   * Renders the payload (if any) with a message, in the labels of the locale attribute; keeps focus
   * on the same link across re-renders.
   */
  #paint(message: string, retrying: boolean): void {
    const locale = this.getAttribute('locale') ?? undefined;
    const focused = (this.#root.activeElement as HTMLElement | null)?.dataset?.k;
    const view = renderView(
      { kind: this.getAttribute('kind') ?? '', locale, payload: this.#payload, message, retrying, problem: this.#problem },
      labelsFor(locale),
    );
    this.#root.innerHTML = `<style>${STYLES}</style>${view}`;
    if (focused) (this.#root.querySelector(`[data-k="${CSS.escape(focused)}"]`) as HTMLElement | null)?.focus();
    this.#tick();
  }
}

if (!customElements.get('predictwire-widget')) customElements.define('predictwire-widget', PredictwireWidget);
