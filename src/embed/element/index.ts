/// <reference lib="dom" />
/**
 * <predictwire-widget>: one tag renders a predictwire widget in Shadow DOM and keeps it current.
 * Attributes and events: docs/embed.md. Visitors see only visitor-facing text; what a developer
 * needs (the problem's detail, a bad attribute) goes to the console and the predictwire:error event.
 */
import type { EventHistoryPayload } from '../../widgets/event-history.js';
import { Feed } from './feed.js';
import { labelsFor } from './labels.js';
import { clock } from './live.js';
import { ATTRIBUTES, widgetRequest } from './request.js';
import { reservedHeight } from './skeleton.js';
import { applyStyles } from './styles.js';
import { isEmpty, renderView, type Payload } from './view.js';
import { Viewability } from './viewability.js';

// The API origin defaults to the origin this script was loaded from (read while it executes).
const SCRIPT_ORIGIN = (() => {
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  return src ? new URL(src).origin : location.origin;
})();

/** The live market's horizons, tried in turn when the page names none (the first with a lawful venue wins). */
const HORIZONS = ['5', '15'];

type State = 'load' | 'empty' | 'error' | '';

class PredictwireWidget extends HTMLElement {
  static readonly observedAttributes = ATTRIBUTES;
  readonly #root = this.attachShadow({ mode: 'open' });
  readonly #mount = document.createElement('div');
  #feed?: Feed;
  #viewability?: Viewability;
  #restart = false;
  #payload?: Payload;
  /** The payload without its countdown: when only the countdown moved, nothing is re-rendered. */
  #shape = '';
  #failed = false;
  #retrying = false;
  #state: State = '';
  /** The live market's horizon picked for the visitor when the page names none. */
  #horizon = 0;
  /** Event outcomes whose further operators the reader opened. */
  readonly #open = new Set<number>();
  /** performance.now() at which the live window ends, for the local countdown. */
  #deadline = 0;
  #ticker?: ReturnType<typeof setInterval>;
  /** Event widget: the day's history for the sparklines, refreshed every 5 minutes (its spacing). */
  #history?: EventHistoryPayload;
  #historyTimer?: ReturnType<typeof setInterval>;

  constructor() {
    super();
    applyStyles(this.#root);
    this.#root.append(this.#mount);
    this.#root.addEventListener('click', (e) => this.#click(e));
  }

  connectedCallback(): void {
    this.#schedule();
  }

  disconnectedCallback(): void {
    this.#stop();
  }

  #stop(): void {
    this.#feed?.stop();
    this.#feed = undefined;
    this.#viewability?.stop();
    this.#viewability = undefined;
    clearInterval(this.#ticker);
    clearInterval(this.#historyTimer);
  }

  attributeChangedCallback(name: string): void {
    if (name === 'horizon') this.#horizon = 0;
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

  /** Attributes as the request reads them: the live market's horizon may be ours. */
  #attr = (name: string): string | null =>
    name === 'horizon' && !this.hasAttribute('horizon') && this.#horizon
      ? HORIZONS[this.#horizon]!
      : this.getAttribute(name);

  #emit(type: string, detail: object): void {
    this.dispatchEvent(
      new CustomEvent(`predictwire:${type}`, {
        bubbles: true,
        composed: true,
        detail: { kind: this.getAttribute('kind'), ...detail },
      }),
    );
  }

  #enter(state: State, detail: object): void {
    if (state !== this.#state) this.#emit(state, detail);
    this.#state = state;
  }

  #start(): void {
    this.#stop();
    this.#payload = undefined;
    this.#shape = '';
    this.#failed = this.#retrying = false;
    this.#state = '';
    this.#open.clear();
    const req = widgetRequest(this.#attr, SCRIPT_ORIGIN);
    if (typeof req === 'string') return this.#fail(0, req, false);
    this.#paint();
    this.#feed = new Feed(req, {
      data: (p) => this.#show(p as Payload),
      error: (status, detail, retrying) => this.#fail(status, detail, retrying),
    });
    this.#feed.start();
    this.#viewability = new Viewability(
      this,
      () => (this.#payload as { impression_url?: string | null } | undefined)?.impression_url,
    );
    if (req.kind === 'live-market') this.#ticker = setInterval(() => this.#tick(), 1000);
    this.#history = undefined;
    const history = req.history;
    if (history) {
      const load = () =>
        fetch(history)
          .then((r) => (r.ok ? r.json() : undefined))
          .then((h?: EventHistoryPayload) => {
            this.#history = h;
            if (this.#payload) this.#paint();
          })
          // No sparkline is no loss: the widget shows without one.
          .catch(() => {});
      void load();
      this.#historyTimer = setInterval(load, 300_000);
    }
  }

  #fail(status: number, detail: string, retrying: boolean): void {
    console.warn(`predictwire-widget (${this.getAttribute('kind')}): ${detail}`);
    this.#failed = true;
    this.#retrying = retrying;
    this.#paint();
    this.#enter('error', { status, message: detail, retrying });
  }

  #show(p: Payload): void {
    // No horizon given and none lawful in this one: try the next (the widget names the one shown).
    if (
      p.widget_class === 'live-market' &&
      isEmpty(p) &&
      !this.hasAttribute('horizon') &&
      this.#horizon < HORIZONS.length - 1
    ) {
      this.#horizon++;
      return this.#start();
    }
    this.#payload = p;
    this.#failed = false;
    if ('seconds_left' in p) this.#deadline = performance.now() + p.seconds_left * 1000;
    const shape = JSON.stringify({ ...p, seconds_left: 0 });
    if (shape === this.#shape) return this.#tick();
    this.#shape = shape;
    // Painted first: a listener of the event finds the widget as the reader sees it.
    this.#paint();
    this.#enter(isEmpty(p) ? 'empty' : 'load', { payload: p });
    this.#viewability?.report();
  }

  /** The countdown runs locally between pushes; at zero the next window is fetched. */
  #tick(): void {
    if (!this.#payload || !('seconds_left' in this.#payload)) return;
    const left = (this.#deadline - performance.now()) / 1000;
    const el = this.#root.querySelector('.countdown');
    if (el) el.textContent = clock(left);
    if (left <= 0 && left > -1) void this.#feed?.poll(true);
  }

  /** Sponsored links announce themselves to the page; expanders open and close their outcome. */
  #click(e: Event): void {
    const target = e.target as Element;
    const link = target.closest('a[rel~=sponsored]') as HTMLAnchorElement | null;
    if (link) this.#emit('click', { operator: link.dataset.op ?? null, url: link.href });
    const toggle = target.closest('button[data-outcome]') as HTMLElement | null;
    if (toggle) {
      const i = Number(toggle.dataset.outcome);
      if (!this.#open.delete(i)) this.#open.add(i);
      this.#paint();
    }
  }

  /**
   * Renders the current state in the labels of the locale attribute (nothing at all for an empty
   * payload with hide-when-empty); keeps focus on the same control across re-renders.
   */
  #paint(): void {
    const p = this.#payload;
    if (p && isEmpty(p) && this.hasAttribute('hide-when-empty')) {
      this.#mount.innerHTML = '';
      return;
    }
    const locale = this.getAttribute('locale') ?? undefined;
    const active = this.#root.activeElement as HTMLElement | null;
    const focused = active?.dataset.k ?? active?.dataset.outcome;
    this.#mount.innerHTML = renderView(
      {
        kind: this.getAttribute('kind') ?? '',
        locale,
        payload: p,
        failed: this.#failed,
        retrying: this.#retrying,
        open: this.#open,
        history: this.#history,
      },
      labelsFor(locale),
    );
    // Sizes go through the CSSOM, never a style attribute (blocked by a strict CSP).
    const skeleton = this.#root.querySelector('.sk') as HTMLElement | null;
    if (skeleton) skeleton.style.minHeight = `${reservedHeight(this.#attr, this.clientWidth)}px`;
    this.#root.querySelectorAll<HTMLElement>('[data-w]').forEach((bar) => {
      bar.style.width = `${bar.dataset.w}%`;
    });
    if (focused)
      (
        this.#root.querySelector(
          `[data-k="${CSS.escape(focused)}"],[data-outcome="${CSS.escape(focused)}"]`,
        ) as HTMLElement | null
      )?.focus();
    this.#tick();
  }
}

if (!customElements.get('predictwire-widget')) customElements.define('predictwire-widget', PredictwireWidget);
